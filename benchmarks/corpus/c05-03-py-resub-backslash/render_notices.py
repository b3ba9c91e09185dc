"""Render maintenance notices from a template for every site in the inventory."""
import re
import sys
import textwrap
from dataclasses import dataclass

TEMPLATE = textwrap.dedent("""\
    Dear {owner},

    the nightly export of {site} will move to {export_dir} on {date}.
    Please update any scripts that read from the old location.

    -- {team}
""")

PLACEHOLDER = r"\{%s\}"


@dataclass
class Site:
    name: str
    owner: str
    export_dir: str
    os: str


SITES = [
    Site("berlin-01", "Anna", "/srv/exports/berlin", "linux"),
    Site("lyon-02", "Marc", "/srv/exports/lyon", "linux"),
    Site("austin-03", "Dana", "D:\\data\\exports\\austin", "windows"),
    Site("osaka-04", "Ken", "/srv/exports/osaka", "linux"),
]


def fill(template, values):
    text = template
    for key, value in values.items():
        text = re.sub(PLACEHOLDER % key, value, text)
    return text


def render(site, date, team):
    values = {"owner": site.owner, "site": site.name, "export_dir": site.export_dir, "date": date, "team": team}
    return fill(TEMPLATE, values)


def main(argv):
    date = argv[1] if len(argv) > 1 else "2026-12-01"
    team = "Data Platform"
    notices = {}
    for site in SITES:
        if site.os not in ("linux", "windows"):
            continue
        notices[site.name] = render(site, date, team)
    for name, text in sorted(notices.items()):
        print(f"== {name}")
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
