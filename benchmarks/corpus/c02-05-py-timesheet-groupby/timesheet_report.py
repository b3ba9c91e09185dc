#!/usr/bin/env python3
"""Summarize badge-reader events into worked hours per employee and day.

The reader exports one event per line: ISO timestamp, badge id, employee, direction (in/out).
Without --input the built-in sample of the front-door reader is used.

    python timesheet_report.py [--input events.csv] [--min-hours 4] [--format text|csv]
"""
import argparse
import csv
import io
import logging
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby
from operator import attrgetter

log = logging.getLogger("timesheet")

SAMPLE = """timestamp,badge,employee,direction
2024-04-08T08:02:11,B-114,alice,in
2024-04-08T08:15:40,B-207,bob,in
2024-04-08T08:31:05,B-090,chen,in
2024-04-08T12:01:52,B-114,alice,out
2024-04-08T12:44:10,B-114,alice,in
2024-04-08T16:05:33,B-207,bob,out
2024-04-08T17:10:02,B-114,alice,out
2024-04-08T17:29:45,B-090,chen,out
"""


@dataclass(frozen=True)
class Event:
    time: datetime
    badge: str
    employee: str
    direction: str


@dataclass
class Shift:
    employee: str
    day: str
    worked: timedelta


def read_events(stream) -> list[Event]:
    events = []
    for lineno, row in enumerate(csv.DictReader(stream), start=2):
        if row["direction"] not in ("in", "out"):
            log.warning("line %d: unknown direction %r, skipped", lineno, row["direction"])
            continue
        events.append(Event(datetime.fromisoformat(row["timestamp"]), row["badge"], row["employee"],
                            row["direction"]))
    return events


def pair_shifts(events: list[Event]) -> list[Shift]:
    """Pair each clock-in with the next clock-out of the same employee."""
    shifts = []
    events = sorted(events, key=attrgetter("time"))
    for employee, group in groupby(events, key=attrgetter("employee")):
        started = None
        for event in group:
            if event.direction == "in":
                started = event.time
            elif started is None:
                raise ValueError(f"{employee}: clock-out at {event.time:%H:%M} without a clock-in")
            else:
                shifts.append(Shift(employee, event.time.date().isoformat(), event.time - started))
                started = None
    return shifts


def summarize(shifts: list[Shift]) -> dict[tuple[str, str], float]:
    hours: dict[tuple[str, str], float] = {}
    for s in shifts:
        key = (s.employee, s.day)
        hours[key] = hours.get(key, 0.0) + s.worked.total_seconds() / 3600
    return hours


def render(hours, fmt: str, min_hours: float) -> str:
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["employee", "day", "hours"])
        for (emp, day), h in sorted(hours.items()):
            w.writerow([emp, day, f"{h:.2f}"])
        return out.getvalue()
    lines = []
    for (emp, day), h in sorted(hours.items()):
        flag = "  (short day)" if h < min_hours else ""
        lines.append(f"{day}  {emp:<10} {h:5.2f} h{flag}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--input", help="events CSV (default: the built-in sample)")
    p.add_argument("--min-hours", type=float, default=4.0)
    p.add_argument("--format", choices=("text", "csv"), default="text")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    if args.input:
        with open(args.input, newline="", encoding="utf-8") as fh:
            events = read_events(fh)
    else:
        events = read_events(io.StringIO(SAMPLE))
    log.info("%d events from %d badges", len(events), len({e.badge for e in events}))
    print(render(summarize(pair_shifts(events)), args.format, args.min_hours))
    return 0


if __name__ == "__main__":
    sys.exit(main())
