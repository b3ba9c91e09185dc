"""Export the day's orders, priced with the active promotions, as a CSV for the finance team.

Usage: python export_orders.py [--out export/orders.csv] [--currency EUR] [--day 2024-05-03]
"""
import argparse
import logging
import sys
from pathlib import Path

from orderkit.export import write_orders
from orderkit.loader import load_orders
from orderkit.pricing import PROMOTIONS, apply_promotions

log = logging.getLogger("export_orders")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path("export/orders.csv"))
    p.add_argument("--currency", default="EUR")
    p.add_argument("--day", default="2024-05-03")
    p.add_argument("-v", "--verbose", action="store_true")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(message)s")
    orders = [o for o in load_orders() if o["day"] == args.day]
    if not orders:
        log.error("no orders on %s", args.day)
        return 1
    log.info("%d orders on %s, %d promotions active", len(orders), args.day, len(PROMOTIONS))
    priced = [apply_promotions(order) for order in orders]
    total = sum(o["total"] for o in priced)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    n = write_orders(priced, args.out, currency=args.currency)
    log.info("wrote %d rows to %s (total %.2f %s)", n, args.out, total, args.currency)
    return 0


if __name__ == "__main__":
    sys.exit(main())
