"""Daily greenhouse report: mean temperature and humidity per zone, checked against the crop's limits."""
import argparse
import csv
import io
import logging
import math

log = logging.getLogger("summarize_greenhouse")

# the climate controller's export: one row per zone and hour; a sensor that did not answer is written NaN
EXPORT_CSV = """\
zone,hour,temp_c,humidity_pct
A,06,17.8,71.0
A,12,24.1,58.5
A,18,21.3,64.2
B,06,18.2,NaN
B,12,25.0,61.0
B,18,22.4,66.8
C,06,16.9,74.1
C,12,23.7,NaN
C,18,20.8,69.9
"""

LIMITS = {
    "temp_c": (15.0, 28.0),
    "humidity_pct": (50.0, 85.0),
}


def read_export(text):
    readings = {}
    for row in csv.DictReader(io.StringIO(text)):
        zone = readings.setdefault(row["zone"], {name: [] for name in LIMITS})
        for name in LIMITS:
            value = float(row[name])
            if value == float("nan"):  # sensor timeout: skip the reading
                continue
            zone[name].append(value)
    return readings


def summarize(readings):
    summary = {}
    for zone, series in sorted(readings.items()):
        summary[zone] = {name: math.fsum(values) / len(values) for name, values in series.items() if values}
        log.debug("zone %s: %d readings", zone, sum(len(v) for v in series.values()))
    return summary


def check_limits(summary):
    for zone, means in summary.items():
        for name, mean in means.items():
            lo, hi = LIMITS[name]
            if not lo <= mean <= hi:
                raise ValueError(f"zone {zone}: mean {name} {mean:.1f} outside {lo:g}-{hi:g}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--export", help="the controller's CSV export (default: today's, built in)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(message)s")
    text = open(args.export, encoding="utf-8").read() if args.export else EXPORT_CSV
    summary = summarize(read_export(text))
    check_limits(summary)
    for zone, means in summary.items():
        print(f"zone {zone}: " + ", ".join(f"{name} {mean:.1f}" for name, mean in means.items()))


if __name__ == "__main__":
    main()
