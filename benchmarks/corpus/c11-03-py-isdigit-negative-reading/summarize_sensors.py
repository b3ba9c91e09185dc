"""Summarize a cold-chain sensor log: per-sensor min/max and the readings over their limits."""
import argparse
import logging
from collections import defaultdict
from dataclasses import dataclass

log = logging.getLogger("summarize_sensors")

# an excerpt of the gateway's log (the real job tails /var/log/coldchain/gateway.log)
GATEWAY_LOG = """\
06:00:02 INFO  gateway up, firmware=4.2.1
06:00:05 DATA  sensor=dock-1 temp=4 humidity=71 door=closed
06:00:05 DATA  sensor=freezer-2 temp=-18 humidity=40 door=closed
06:00:09 WARN  sensor=dock-1 battery=low
06:05:05 DATA  sensor=dock-1 temp=6 humidity=74 door=open
06:05:06 DATA  sensor=freezer-2 temp=-17 humidity=41 door=closed
06:10:05 DATA  sensor=dock-1 temp=9 humidity=77 door=open
"""

NUMERIC_FIELDS = ("temp", "humidity")


@dataclass
class Limits:
    max_temp: int = 8
    max_humidity: int = 80


def coerce(value):
    """Numbers as ints, everything else (sensor names, door state) as text."""
    return int(value) if value.isdigit() else value


def parse_line(lineno, line):
    time, level, *fields = line.split()
    if level != "DATA":
        return None
    record = {"time": time}
    for item in fields:
        key, _, value = item.partition("=")
        record[key] = coerce(value)
    for key in NUMERIC_FIELDS:
        if not isinstance(record.get(key), int):
            raise ValueError(f"line {lineno}: {key}={record.get(key)!r} is not numeric")
    return record


def summarize(records, limits):
    span = defaultdict(lambda: [None, None])
    alerts = []
    for r in records:
        lo, hi = span[r["sensor"]]
        span[r["sensor"]] = [r["temp"] if lo is None else min(lo, r["temp"]),
                             r["temp"] if hi is None else max(hi, r["temp"])]
        if r["temp"] > limits.max_temp or r["humidity"] > limits.max_humidity:
            alerts.append(f'{r["time"]} {r["sensor"]}: temp {r["temp"]}, humidity {r["humidity"]}')
    return dict(span), alerts


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--max-temp", type=int, default=Limits.max_temp)
    parser.add_argument("--max-humidity", type=int, default=Limits.max_humidity)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(message)s")
    limits = Limits(args.max_temp, args.max_humidity)
    records = [r for n, line in enumerate(GATEWAY_LOG.splitlines(), 1) if (r := parse_line(n, line))]
    log.info("%d readings", len(records))
    span, alerts = summarize(records, limits)
    for sensor, (lo, hi) in sorted(span.items()):
        print(f"{sensor:10s} {lo:>4d} .. {hi:>4d}")
    for alert in alerts:
        print("ALERT", alert)


if __name__ == "__main__":
    main()
