"""Record today's prices for the watchlist and report the drops seen so far."""

import argparse
import logging
import tempfile
from pathlib import Path

from pricewatch import SAMPLE_LISTINGS, SnapshotStore, build_report, scrape

log = logging.getLogger("watch_prices")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shop", default="brewgear")
    parser.add_argument("--watch", nargs="+", default=["kettle-ek2", "grinder-cg7", "scale-ks1"])
    parser.add_argument("--min-drop", type=float, default=5.0, help="percent")
    parser.add_argument("--data", type=Path, help="history directory (default: a temporary one)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    with tempfile.TemporaryDirectory(prefix="pricewatch-") as tmp:
        store = SnapshotStore(args.data or Path(tmp))
        for run in SAMPLE_LISTINGS:
            snapshots = scrape(run, args.watch, args.shop)
            for snap in snapshots:
                store.append_snapshot(args.shop, snap)
            log.info("%s: %d snapshots recorded", run["day"], len(snapshots))
        store.write_meta({"shop": args.shop, "watch": args.watch, "runs": len(SAMPLE_LISTINGS)})
        print(build_report(store.path(args.shop), args.min_drop))


if __name__ == "__main__":
    main()
