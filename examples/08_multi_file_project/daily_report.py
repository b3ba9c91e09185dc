"""Daily temperature report for the station network.

Synthesizes a day of hourly readings per station (seeded, in memory), runs the quality
control of ``meteo.quality`` and prints one summary row per station.
"""
import argparse
import math
import random

from meteo import STATIONS, clean, summarize
from meteo.units import fmt as fmt_temp
from meteo.units import lapse_corrected

FLAGS = {"legacy": ("ok", "est", "bad"), "v2": ("OK", "EST", "BAD")}


def synth_readings(station, rng, hours=24):
    """Hourly readings: a diurnal cycle, colder with height, noise, the odd fault and gap."""
    ok, est, bad = FLAGS[station.feed]
    base = 14.0 - 6.5 * station.elevation_m / 1000
    readings = []
    for hour in range(hours):
        temp = base + 5.0 * math.sin((hour - 9) / 24 * 2 * math.pi) + rng.gauss(0, 0.6)
        flag = ok
        if rng.random() < 0.05:
            flag, temp = bad, -99.9  # sensor fault marker
        elif rng.random() < 0.08:
            flag = est
        readings.append({"station": station.code, "hour": hour, "temp_c": round(temp, 1), "flag": flag})
    return readings


def fmt(station, summary):
    sea_level = lapse_corrected(summary["median"], station.elevation_m)
    return (f"{station.name:<16} n={summary['n']:>2}  median {fmt_temp(summary['median'])}"
            f"  iqr {summary['iqr']:4.1f}  sea-level {fmt_temp(sea_level)}  max {fmt_temp(summary['max_f'], 'F')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hours", type=int, default=24)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"daily report, {len(STATIONS)} stations, {args.hours} h")
    for station in STATIONS:
        readings = clean(synth_readings(station, rng, args.hours))
        print(fmt(station, summarize(readings)))


if __name__ == "__main__":
    main()
