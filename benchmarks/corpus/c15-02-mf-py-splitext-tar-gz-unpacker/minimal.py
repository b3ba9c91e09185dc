import os


def archive_kind(filename):
    return os.path.splitext(filename)[1].lower()


UNPACKERS = {".tar.gz": "tar -xzf"}
name = "yaml-0.2.5.tar.gz"
unpack = UNPACKERS[archive_kind(name)]
