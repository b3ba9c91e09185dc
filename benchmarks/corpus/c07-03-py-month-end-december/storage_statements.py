"""Yearly storage report: one statement per calendar month (GB-days, overage, amount due)."""
import argparse
import random
from datetime import date, timedelta

PLAN_GB = 150
PRICE_PER_GB_DAY = 0.0008
OVERAGE_PRICE_PER_GB_DAY = 0.0015


def month_bounds(year, month):
    """First and last day of a calendar month."""
    first = date(year, month, 1)
    next_first = date(year, month + 1, 1)
    return first, next_first - timedelta(days=1)


def daily_usage(year, seed):
    """The metering service's daily high-water marks (GB), one per day of the year."""
    rng = random.Random(seed)
    day, used = date(year, 1, 1), 120.0
    while day.year == year:
        used = max(0.0, used + rng.uniform(-6, 7))
        yield day, round(used, 1)
        day += timedelta(days=1)


def statement(year, month, usage):
    first, last = month_bounds(year, month)
    days = [gb for day, gb in usage if first <= day <= last]
    gb_days = sum(days)
    overage = sum(max(0.0, gb - PLAN_GB) for gb in days)
    amount = gb_days * PRICE_PER_GB_DAY + overage * OVERAGE_PRICE_PER_GB_DAY
    return {"period": f"{first:%Y-%m-%d}..{last:%Y-%m-%d}", "days": len(days), "gb_days": round(gb_days, 1),
            "overage_gb_days": round(overage, 1), "amount": round(amount, 2)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--year", type=int, default=2026)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    usage = list(daily_usage(args.year, args.seed))
    print(f"{len(usage)} metering days in {args.year}")
    total = 0.0
    for month in range(1, 13):
        st = statement(args.year, month, usage)
        total += st["amount"]
        print(f"{st['period']}  {st['days']:>2} days  {st['gb_days']:>8} GB-days  "
              f"overage {st['overage_gb_days']:>7}  ${st['amount']:.2f}")
    print(f"year total ${total:.2f}")


if __name__ == "__main__":
    main()
