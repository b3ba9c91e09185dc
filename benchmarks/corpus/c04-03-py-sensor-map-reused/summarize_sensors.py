"""Validate a day of greenhouse sensor readings and print per-sensor statistics."""

import argparse
import csv
import io
import logging
import statistics
from dataclasses import dataclass

log = logging.getLogger("sensors")

EXPORT = """sensor,timestamp,celsius,status
gh1-north,2026-11-20T06:00,18.4,ok
gh1-north,2026-11-20T12:00,24.9,ok
gh1-south,2026-11-20T06:00,17.1,ok
gh1-south,2026-11-20T12:00,26.3,ok
gh2-east,2026-11-20T06:00,,offline
gh2-east,2026-11-20T12:00,22.0,ok
"""


@dataclass
class Reading:
    sensor: str
    timestamp: str
    celsius: float


def parse_reading(row):
    return Reading(row["sensor"], row["timestamp"], float(row["celsius"]))


def load_readings(text):
    rows = (row for row in csv.DictReader(io.StringIO(text)) if row["status"] == "ok")
    return map(parse_reading, rows)


def validate(readings, low, high):
    bad = [r for r in readings if not low <= r.celsius <= high]
    for r in bad:
        log.warning("%s at %s out of range: %.1f", r.sensor, r.timestamp, r.celsius)
    return not bad


def summarize(readings):
    by_sensor = {}
    for r in readings:
        by_sensor.setdefault(r.sensor, []).append(r.celsius)
    overall = statistics.mean(r.celsius for r in readings)
    return by_sensor, overall


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--low", type=float, default=5.0)
    parser.add_argument("--high", type=float, default=40.0)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")

    readings = load_readings(EXPORT)
    if not validate(readings, args.low, args.high):
        raise SystemExit("readings out of range")
    by_sensor, overall = summarize(readings)
    for sensor, values in sorted(by_sensor.items()):
        print(f"{sensor:10s} n={len(values)} mean={statistics.mean(values):.1f}")
    print(f"overall mean {overall:.2f} C")


if __name__ == "__main__":
    main()
