"""Night-shift bed board: group tonight's admissions by ward, check capacity, print the board."""

import argparse
import csv
import io
from datetime import datetime

WARDS = {"A1": 8, "B3": 6, "C2": 10}  # beds per ward

ADMISSIONS_CSV = """patient,ward,arrived,acuity,note
P-2201,A1,2026-03-02 19:05,2,
P-2202,C2,2026-03-02 19:40,3,post-op
P-2203,B3,2026-03-02 20:10,1,
P-2204,A1,2026-03-02 20:55,4,isolation
P-2205,C2,2026-03-02 21:15,2,
P-2206,B3,2026-03-02 21:30,3,
P-2207,A1,2026-03-02 22:00,1,
P-2208,C2,2026-03-02 22:45,2,transfer from ED
P-2209,B3,2026-03-02 23:20,2,
P-2210,A1,2026-03-03 00:05,3,
"""


def load_admissions(text):
    rows = []
    for rec in csv.DictReader(io.StringIO(text)):
        rec["arrived"] = datetime.strptime(rec["arrived"], "%Y-%m-%d %H:%M")
        rec["acuity"] = int(rec["acuity"])
        rows.append(rec)
    return rows


def group_by_ward(admissions):
    by_ward = dict.fromkeys(WARDS, [])
    for rec in admissions:
        by_ward[rec["ward"]].append(rec)
    return by_ward


def check_capacity(by_ward):
    for ward, patients in by_ward.items():
        if len(patients) > WARDS[ward]:
            raise RuntimeError(f"ward {ward} over capacity: {len(patients)} patients for {WARDS[ward]} beds")


def bed_board(by_ward):
    lines = []
    for ward, patients in sorted(by_ward.items()):
        ordered = sorted(patients, key=lambda r: (-r["acuity"], r["arrived"]))
        for bed, rec in enumerate(ordered, start=1):
            note = f"  ({rec['note']})" if rec["note"] else ""
            lines.append(f"{ward}-{bed:02d}  {rec['patient']}  acuity {rec['acuity']}  {rec['arrived']:%H:%M}{note}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min-acuity", type=int, default=1)
    args = parser.parse_args(argv)
    admissions = [r for r in load_admissions(ADMISSIONS_CSV) if r["acuity"] >= args.min_acuity]
    by_ward = group_by_ward(admissions)
    check_capacity(by_ward)
    for line in bed_board(by_ward):
        print(line)


if __name__ == "__main__":
    main()
