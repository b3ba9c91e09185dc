import os
from urllib.parse import urlsplit


def filename_of(url):
    """The file name a download URL ends in (query strings dropped)."""
    return os.path.basename(urlsplit(url).path)


def archive_kind(filename):
    """The archive type of a downloaded file, by its extension."""
    return os.path.splitext(filename)[1].lower()
