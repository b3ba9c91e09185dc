"""The sync's settings: an INI file (inlined here; production reads /etc/acctsync.ini)."""
import configparser
from dataclasses import dataclass, field

SETTINGS_INI = """
[sync]
dry_run = yes
batch_size = 50
default_shell = /bin/bash

[columns]
# HR export header = directory attribute
UserID = uid
GivenName = givenName
Surname = sn
Email = mail
Dept = departmentNumber
"""


@dataclass
class Settings:
    dry_run: bool = True
    batch_size: int = 50
    default_shell: str = "/bin/sh"
    columns: dict = field(default_factory=dict)


def load_settings(text=SETTINGS_INI):
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    sync = parser["sync"]
    return Settings(dry_run=sync.getboolean("dry_run"), batch_size=sync.getint("batch_size"),
                    default_shell=sync.get("default_shell"), columns=dict(parser["columns"]))
