"""Check that the build machine's tools are new enough for this release branch."""
import argparse
import logging
import re
import sys

log = logging.getLogger("check_toolchain")

# minimum versions for the release branch
REQUIRED = {
    "python": (3, 10),
    "git": (2, 30),
    "cmake": (3, 24),
    "ninja": (1, 10),
}

# what `<tool> --version` printed on the build machine (collected by the provisioning step)
BANNERS = {
    "python": "Python 3.11.7",
    "git": "git version 2.43.0",
    "cmake": "cmake version 3.27.4\n\nCMake suite maintained and supported by Kitware (kitware.com/cmake).",
    "ninja": "1.11.1",
}

VERSION_RE = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


def parse_version(banner):
    """The first dotted version number in a ``--version`` banner, as a tuple of ints."""
    m = VERSION_RE.match(banner.strip())
    major, minor, patch = m.groups()
    return (int(major), int(minor), int(patch or 0))


def fmt(version):
    return ".".join(str(part) for part in version)


def check(tools, strict=False):
    problems = []
    for tool in tools:
        banner = BANNERS.get(tool)
        if banner is None:
            problems.append(f"{tool}: not installed")
            continue
        have = parse_version(banner)
        need = REQUIRED[tool]
        if have[:len(need)] < need:
            problems.append(f"{tool}: {fmt(have)} is older than {fmt(need)}")
        elif strict and have[0] > need[0]:
            problems.append(f"{tool}: {fmt(have)} is a newer major version than tested ({need[0]})")
        else:
            log.info("%-7s %s ok (>= %s)", tool, fmt(have), fmt(need))
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tools", nargs="*", default=sorted(REQUIRED))
    parser.add_argument("--strict", action="store_true", help="also reject newer major versions")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    problems = check(args.tools, args.strict)
    for problem in problems:
        print("FAIL", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
