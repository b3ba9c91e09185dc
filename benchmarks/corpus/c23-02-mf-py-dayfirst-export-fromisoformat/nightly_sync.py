"""Export today's shipments for the carrier portal, read the file back, and report lateness."""
import argparse
import datetime as dt
import logging
import tempfile
from pathlib import Path

from shipping import lateness_report, read_manifest, sample_shipments, write_manifest

log = logging.getLogger("nightly_sync")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--count", type=int, default=40)
    p.add_argument("--start", type=dt.date.fromisoformat, default=dt.date(2024, 2, 1))
    p.add_argument("--seed", type=int, default=3)
    return p.parse_args(argv)


def sync(workdir: Path, args) -> dict:
    shipments = sample_shipments(args.count, args.start, seed=args.seed)
    manifest = workdir / f"manifest-{args.start:%Y%m%d}.csv"
    write_manifest(manifest, shipments)
    reread = read_manifest(manifest)
    if len(reread) != len(shipments):
        raise RuntimeError(f"manifest round trip lost rows: {len(reread)} of {len(shipments)}")
    return lateness_report(reread)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="sync-") as tmp:
        report = sync(Path(tmp), args)
    for carrier, row in report.items():
        log.info("%-7s delivered %3d  late %2d (%.0f%%)  mean delay %.1f d", carrier, row["delivered"],
                 row["late"], 100 * row["late_share"], row["mean_delay"])


if __name__ == "__main__":
    main()
