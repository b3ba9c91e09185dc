"""Weekly reorder: compute order quantities from sales velocity, write the supplier's CSV and validate it."""

import argparse
import csv
import io
import logging
import math

log = logging.getLogger("reorder_stock")

STOCK = [  # sku, on hand, units sold in the last 28 days, pack size, lead time (days)
    ("FLT-220", 14, 96, 6, 10),
    ("FLT-310", 40, 35, 12, 10),
    ("GSK-018", 3, 52, 1, 21),
    ("VLV-004", 9, 12, 4, 14),
]
ORDER_FIELDS = ["sku", "packs", "qty", "note"]


def reorder_quantity(on_hand: int, sold_28d: int, lead_days: int, safety: float) -> float:
    daily = sold_28d / 28
    need = daily * (lead_days + 7) * safety - on_hand
    return round(max(need, 0), 0)


def plan_orders(safety: float) -> list[dict]:
    orders = []
    for sku, on_hand, sold, pack, lead in STOCK:
        qty = reorder_quantity(on_hand, sold, lead, safety)
        if qty <= 0:
            log.info("%s: enough stock (%d on hand)", sku, on_hand)
            continue
        packs = math.ceil(qty / pack)
        orders.append({"sku": sku, "packs": packs, "qty": qty, "note": f"lead {lead}d"})
    return orders


def write_order_csv(orders: list[dict]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=ORDER_FIELDS)
    writer.writeheader()
    writer.writerows(orders)
    return buf.getvalue()


def parse_order(text: str) -> list[tuple[str, int, int]]:
    """What the supplier portal does with the upload: integer packs and quantities."""
    lines = []
    for row in csv.DictReader(io.StringIO(text)):
        packs = int(row["packs"])
        qty = int(row["qty"])
        lines.append((row["sku"], packs, qty))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--safety", type=float, default=1.2)
    parser.add_argument("--show-csv", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")

    orders = plan_orders(args.safety)
    text = write_order_csv(orders)
    if args.show_csv:
        print(text)
    for sku, packs, qty in parse_order(text):
        print(f"{sku}: {packs} packs ({qty} units)")


if __name__ == "__main__":
    main()
