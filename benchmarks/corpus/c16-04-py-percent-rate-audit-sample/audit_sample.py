"""Monthly spot check: draw a reproducible random sample of card transactions per merchant for audit."""

import argparse
import math
import random
from collections import defaultdict
from decimal import Decimal

POLICY = """
# audit policy, as agreed with finance
rate = 15%
min_per_merchant = 1
seed = 2026
flag_above = 500.00
"""

TRANSACTIONS = """
T-9001 bakery-ost 12.40
T-9002 bakery-ost 8.10
T-9003 print-shop 140.00
T-9004 bakery-ost 23.75
T-9005 hardware-king 612.30
T-9006 print-shop 55.00
T-9007 hardware-king 89.99
T-9008 bakery-ost 4.20
T-9009 print-shop 310.00
T-9010 hardware-king 45.60
T-9011 bakery-ost 17.85
"""


def parse_policy(text):
    policy = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            key, _, value = line.partition("=")
            policy[key.strip()] = value.strip()
    return policy


def parse_rate(text):
    """A sampling rate given as a fraction ("0.15") or a percentage ("15%")."""
    if text.endswith("%"):
        return float(text[:-1])
    return float(text)


def load_transactions(text):
    by_merchant = defaultdict(list)
    for line in text.strip().splitlines():
        tid, merchant, amount = line.split()
        by_merchant[merchant].append((tid, Decimal(amount)))
    return by_merchant


def pick_audit_sample(by_merchant, rate, minimum, rng):
    sample = {}
    for merchant, rows in sorted(by_merchant.items()):
        k = max(minimum, math.ceil(len(rows) * rate))
        picked = rng.sample(rows, k)
        sample[merchant] = sorted(picked)
    return sample


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--merchant", help="only this merchant")
    args = parser.parse_args(argv)
    policy = parse_policy(POLICY)
    by_merchant = load_transactions(TRANSACTIONS)
    if args.merchant:
        by_merchant = {args.merchant: by_merchant[args.merchant]}
    rng = random.Random(int(policy["seed"]))
    sample = pick_audit_sample(by_merchant, parse_rate(policy["rate"]), int(policy["min_per_merchant"]), rng)
    flag_above = Decimal(policy["flag_above"])
    for merchant, rows in sample.items():
        for tid, amount in rows:
            flag = "  <-- large" if amount > flag_above else ""
            print(f"{merchant:<14} {tid}  {amount:>8}{flag}")


if __name__ == "__main__":
    main()
