"""Reconcile the carrier's parcel export against the declared manifests before the nightly pickup."""

import argparse
import csv
import io
import logging
from collections import defaultdict
from dataclasses import dataclass

log = logging.getLogger("reconcile")

EXPORT = """manifest,parcel,status,weight_kg
M-7,P-7001,ready,1.20
M-7,P-7002,ready,0.45
M-7,P-7003,cancelled,2.00
M-7,P-7004,ready,3.10
M-8,P-8001,ready,0.80
M-8,P-8002,ready,1.05
"""

DECLARED = {"M-7": 3, "M-8": 2}  # parcels per manifest, cancelled ones excluded


@dataclass
class Parcel:
    manifest: str
    parcel: str
    weight_kg: float


def load_parcels(text, skip_cancelled=True):
    parcels = []
    for row in csv.DictReader(io.StringIO(text)):
        if skip_cancelled and row["status"] == "cancelled":
            log.debug("skip cancelled %s", row["parcel"])
            continue
        parcels.append(Parcel(row["manifest"], row["parcel"], float(row["weight_kg"])))
        return parcels


def by_manifest(parcels):
    groups = defaultdict(list)
    for p in parcels:
        groups[p.manifest].append(p)
    return groups


def reconcile(groups, declared):
    report = []
    for manifest, expected in sorted(declared.items()):
        got = groups.get(manifest, [])
        if len(got) != expected:
            raise ValueError(f"manifest {manifest}: declared {expected} parcels, export has {len(got)}")
        report.append((manifest, len(got), round(sum(p.weight_kg for p in got), 2)))
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep-cancelled", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(name)s: %(message)s")

    parcels = load_parcels(EXPORT, skip_cancelled=not args.keep_cancelled)
    log.info("loaded %d parcels", len(parcels))
    for manifest, count, weight in reconcile(by_manifest(parcels), DECLARED):
        log.info("%s: %d parcels, %.2f kg", manifest, count, weight)


if __name__ == "__main__":
    main()
