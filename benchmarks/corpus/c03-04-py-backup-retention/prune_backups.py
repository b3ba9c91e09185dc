"""Decide which database backups to delete under the retention policy (dry run by default).

python prune_backups.py [--keep-days 14] [--keep-last 3] [--delete]
"""
import argparse
import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

log = logging.getLogger("prune")

# what `backupctl list --json` printed on the backup host
MANIFEST = """
{"host": "db-3", "backups": [
  {"name": "db-3-full-0101", "kind": "full", "created": "2026-01-01T02:00:04+00:00", "size_mb": 5120},
  {"name": "db-3-incr-0102", "kind": "incremental", "created": "2026-01-02T02:00:03+00:00", "size_mb": 310},
  {"name": "db-3-incr-0103", "kind": "incremental", "created": "2026-01-03T02:00:05+00:00", "size_mb": 295},
  {"name": "db-3-full-0108", "kind": "full", "created": "2026-01-08T02:00:02+00:00", "size_mb": 5184},
  {"name": "db-3-incr-0109", "kind": "incremental", "created": "2026-01-09T02:00:04+00:00", "size_mb": 301}
]}
"""

POLICY = {"keep_days": 14, "keep_last": 3, "always_keep_kinds": ["full"]}


@dataclass
class Backup:
    name: str
    kind: str
    created: datetime
    size_mb: int


def load_backups(text):
    data = json.loads(text)
    backups = []
    for item in data["backups"]:
        created = datetime.fromisoformat(item["created"])
        backups.append(Backup(item["name"], item["kind"], created, item["size_mb"]))
    log.info("%s: %d backups", data["host"], len(backups))
    return sorted(backups, key=lambda b: b.created)


def older_than(created, days, now):
    return created < now - timedelta(days=days)


def expired(backups, policy, now):
    protected = {b.name for b in backups[-policy["keep_last"]:]}
    out = []
    for b in backups:
        if b.name in protected or b.kind in policy["always_keep_kinds"]:
            continue
        if older_than(b.created, policy["keep_days"], now):
            out.append(b)
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description="apply the backup retention policy")
    p.add_argument("--keep-days", type=int, default=POLICY["keep_days"])
    p.add_argument("--keep-last", type=int, default=POLICY["keep_last"])
    p.add_argument("--delete", action="store_true", help="really delete (default: dry run)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    policy = {**POLICY, "keep_days": args.keep_days, "keep_last": args.keep_last}
    backups = load_backups(MANIFEST)
    doomed = expired(backups, policy, now=datetime.now())
    freed = sum(b.size_mb for b in doomed)
    for b in doomed:
        log.info("%s %s (%s, %d MB)", "deleting" if args.delete else "would delete", b.name, b.kind, b.size_mb)
    log.info("%d of %d backups expired, %.1f GB", len(doomed), len(backups), freed / 1024)


if __name__ == "__main__":
    main()
