"""Build every team site of sites.toml (inlined here) into out/<site>/."""
import argparse
import logging

from sitegen.pages import collect_pages
from sitegen.render import render_page
from sitegen.settings import site_settings

log = logging.getLogger("build")

SITES = {
    "docs": {"theme": "manual", "extra_menu": [("API", "api"), ("Changelog", "changelog")]},
    "blog": {"extra_menu": [("Archive", "archive")], "feeds": {"atom": True}},
    "status": {"footer": "Status page — updated every minute"},
}

CONTENT = {
    "docs": {"index": ("Docs", "Start here."), "about": ("About", "Who writes the docs."),
             "api": ("API", "Endpoints."), "changelog": ("Changelog", "What changed.")},
    "blog": {"index": ("Blog", "Latest posts."), "about": ("About", "The team."),
             "archive": ("Archive", "Older posts.")},
    "status": {"index": ("Status", "All systems normal."), "about": ("About", "How we measure uptime.")},
}


def build_site(name, overrides, dry_run=True):
    settings = site_settings(name, overrides)
    pages = collect_pages(CONTENT[name])
    out = {f"out/{name}{page.url}index.html": render_page(page, settings, pages) for page in pages.values()}
    if not dry_run:
        raise SystemExit("writing files is done by the deploy job")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", nargs="*", default=None, help="build only these sites")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    for name, overrides in SITES.items():
        if args.only and name not in args.only:
            continue
        files = build_site(name, overrides)
        log.info("%s: %d page(s), %d bytes", name, len(files), sum(map(len, files.values())))


if __name__ == "__main__":
    main()
