"""Plan (and with --write, perform) the static build of the docs site: pages and assets."""
import argparse
import logging

from sitegen.config import load_config
from sitegen.manifest import load_manifest
from sitegen.render import plan_build, write_build

log = logging.getLogger("build_site")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default=None, help="output directory (default: the config's)")
    parser.add_argument("--write", action="store_true", help="write the files (default: only print the plan)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(levelname)s %(message)s")
    cfg = load_config()
    if args.out:
        cfg.out_dir = args.out
    manifest = load_manifest()
    plan = plan_build(cfg, manifest)
    log.info("%d pages, %d assets -> %s", len(plan.pages), len(plan.assets), cfg.out_dir)
    if args.write:
        write_build(plan)
    else:
        for src, dest in plan.pages + plan.assets:
            print(f"{src:28s} -> {dest}")


if __name__ == "__main__":
    main()
