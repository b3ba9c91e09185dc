"""Nightly check: every table in the manifest has a JSON snapshot in tonight's bucket listing."""
import argparse
from dataclasses import dataclass

MANIFEST = ["customer", "invoice", "ledger", "payment_run", "fx_rate", "audit_log", "session"]

# what the object store's list call returned for tonight's prefix (key, size in bytes)
LISTING = [
    ("nightly/2026-11-27/audit_log.json", 5_812_301),
    ("nightly/2026-11-27/customer.json", 1_204_993),
    ("nightly/2026-11-27/fx_rate.json", 20_114),
    ("nightly/2026-11-27/invoice.json", 9_331_420),
    ("nightly/2026-11-27/ledger.json", 14_870_002),
    ("nightly/2026-11-27/payment_run.json", 410_557),
    ("nightly/2026-11-27/session.json", 2_990_120),
    ("nightly/2026-11-27/_SUCCESS", 0),
]


@dataclass
class Snapshot:
    table: str
    key: str
    size: int


def table_name(key):
    filename = key.rsplit("/", 1)[-1]
    return filename.rstrip(".json")


def index_snapshots(listing):
    return {table_name(key): Snapshot(table_name(key), key, size)
            for key, size in listing if key.endswith(".json")}


def human(size):
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024:
            return f"{size:.0f} {unit}"
        size /= 1024
    return f"{size:.1f} TB"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min-size", type=int, default=1)
    args = parser.parse_args()
    index = index_snapshots(LISTING)
    missing = sorted(t for t in MANIFEST if t not in index)
    assert not missing, f"tables without a snapshot: {missing}"
    empty = [s.table for s in index.values() if s.size < args.min_size]
    for table in MANIFEST:
        print(f"{table:<12} {human(index[table].size):>8}")
    print(f"{len(MANIFEST)} tables snapshotted, {len(empty)} empty")


if __name__ == "__main__":
    main()
