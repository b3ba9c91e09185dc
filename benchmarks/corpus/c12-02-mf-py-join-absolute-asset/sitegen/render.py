import logging
import os
from dataclasses import dataclass, field

from .paths import page_output, resolve_output

log = logging.getLogger(__name__)


@dataclass
class BuildPlan:
    pages: list = field(default_factory=list)  # (source, destination)
    assets: list = field(default_factory=list)


def plan_build(cfg, manifest):
    plan = BuildPlan()
    for source in manifest["pages"]:
        plan.pages.append((source, page_output(cfg.out_dir, source, cfg.pretty_urls)))
    for asset in manifest["assets"]:
        dest = resolve_output(cfg.out_dir, asset)
        log.debug("asset %s -> %s", asset, dest)
        plan.assets.append((asset, dest))
    return plan


def write_build(plan):
    for source, dest in plan.pages:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w", encoding="utf-8") as f:
            f.write(f"<!-- rendered from {source} -->\n")
    for source, dest in plan.assets:
        os.makedirs(os.path.dirname(dest) or ".", exist_ok=True)
        open(dest, "wb").close()
