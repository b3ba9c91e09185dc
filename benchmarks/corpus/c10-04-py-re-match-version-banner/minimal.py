import re

VERSION_RE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def parse_version(banner):
    m = VERSION_RE.match(banner.strip())
    major, minor, patch = m.groups()


parse_version("cmake version 3.27.4")
