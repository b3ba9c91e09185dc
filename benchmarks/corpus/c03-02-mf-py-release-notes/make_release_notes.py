"""Build the release notes (Markdown) from the tag list and the merged pull requests.

python make_release_notes.py [--since v1.2.0] [--out -]
"""
import argparse
import logging
import sys

from relnotes import Changelog, parse_tag, render_markdown

log = logging.getLogger("relnotes")

TAGS = ["v1.2.0", "v1.2.1", "v1.3.0rc1", "v1.3.0", "v1.4.0rc1", "v1.4.0rc2", "v1.4.0", "nightly"]

PULLS = [
    {"number": 101, "title": "Fix crash on empty config", "labels": ["bug"], "tag": "v1.2.1"},
    {"number": 107, "title": "Add --dry-run", "labels": ["feature"], "tag": "v1.3.0rc1"},
    {"number": 110, "title": "Speed up the loader", "labels": ["performance"], "tag": "v1.3.0"},
    {"number": 118, "title": "Plugin API", "labels": ["feature"], "tag": "v1.4.0rc1"},
    {"number": 121, "title": "Plugin API: docs", "labels": ["docs"], "tag": "v1.4.0rc2"},
    {"number": 125, "title": "Drop Python 3.8", "labels": ["breaking"], "tag": "v1.4.0"},
]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="render release notes")
    p.add_argument("--since", default="v1.2.0")
    p.add_argument("--out", default="-")
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    versions = {}
    for tag in TAGS:
        version = parse_tag(tag)
        if version is None:
            log.info("skipping tag %s", tag)
            continue
        versions[tag] = version
    changelog = Changelog(versions, since=parse_tag(args.since))
    for pull in PULLS:
        changelog.add(pull)
    text = render_markdown(changelog.releases())
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)


if __name__ == "__main__":
    main()
