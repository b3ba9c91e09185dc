"""Sync the HR account export into the directory (dry run by default)."""
import argparse
import logging

from acctsync.export import read_export
from acctsync.records import batched, to_entries
from acctsync.settings import load_settings

log = logging.getLogger("sync_accounts")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--apply", action="store_true", help="write to the directory (default: dry run)")
    parser.add_argument("--batch-size", type=int, default=None)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    settings = load_settings()
    if args.batch_size:
        settings.batch_size = args.batch_size
    headers, rows = read_export()
    log.info("export has %d rows with columns %s", len(rows), ", ".join(headers))
    entries = to_entries(rows, settings.columns, settings.default_shell)
    for batch in batched(entries, settings.batch_size):
        if args.apply and not settings.dry_run:
            raise SystemExit("directory writes are disabled in this environment")
        for entry in batch:
            print(entry["uid"], entry["mail"])


if __name__ == "__main__":
    main()
