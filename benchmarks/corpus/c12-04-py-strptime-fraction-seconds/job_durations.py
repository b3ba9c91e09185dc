"""Per-job run durations from the scheduler's log, with the runs over their SLA."""
import argparse
import logging
import statistics
from collections import defaultdict
from datetime import datetime

log = logging.getLogger("job_durations")

TS_FORMAT = "%Y-%m-%d %H:%M:%S"

# an excerpt of the scheduler's log (the real report reads /var/log/scheduler/runs.log);
# the workers on the new agent log milliseconds
SCHEDULER_LOG = """\
2026-03-02 01:00:00 START nightly-backup run=311 host=agent-1
2026-03-02 01:00:02 START invoice-export run=88 host=agent-1
2026-03-02 01:04:41 END   invoice-export run=88 status=ok
2026-03-02 01:17:09 END   nightly-backup run=311 status=ok
2026-03-02 02:00:00.412 START search-reindex run=52 host=agent-3
2026-03-02 02:31:45.907 END   search-reindex run=52 status=ok
2026-03-02 03:00:01 START nightly-backup run=312 host=agent-1
2026-03-02 03:21:30 END   nightly-backup run=312 status=failed
"""

SLA_MINUTES = {"nightly-backup": 20, "invoice-export": 10, "search-reindex": 30}


def parse_ts(stamp):
    return datetime.strptime(stamp, TS_FORMAT)


def parse_line(line):
    day, clock, event, job, *fields = line.split()
    record = dict(item.split("=", 1) for item in fields)
    return {"at": parse_ts(f"{day} {clock}"), "event": event, "job": job, "run": int(record["run"]),
            "status": record.get("status"), "host": record.get("host")}


def pair_runs(events):
    started, runs = {}, []
    for e in events:
        key = (e["job"], e["run"])
        if e["event"] == "START":
            started[key] = e
        elif key in started:
            begin = started.pop(key)
            runs.append({"job": e["job"], "run": e["run"], "host": begin["host"], "status": e["status"],
                         "minutes": (e["at"] - begin["at"]).total_seconds() / 60})
        else:
            log.warning("END without START: %s run %s", e["job"], e["run"])
    for job, run in started:
        log.warning("still running: %s run %s", job, run)
    return runs


def report(runs):
    by_job = defaultdict(list)
    for r in runs:
        by_job[r["job"]].append(r["minutes"])
    for job, minutes in sorted(by_job.items()):
        print(f"{job:16s} runs {len(minutes):2d}  median {statistics.median(minutes):6.1f} min  "
              f"max {max(minutes):6.1f} min")
    for r in runs:
        if r["minutes"] > SLA_MINUTES.get(r["job"], float("inf")):
            print(f"SLA  {r['job']} run {r['run']} on {r['host']}: {r['minutes']:.1f} min ({r['status']})")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--job", help="only this job")
    parser.add_argument("-q", "--quiet", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(message)s")
    events = [parse_line(line) for line in SCHEDULER_LOG.splitlines() if line.strip()]
    if args.job:
        events = [e for e in events if e["job"] == args.job]
    runs = pair_runs(events)
    log.info("%d finished runs", len(runs))
    report(runs)


if __name__ == "__main__":
    main()
