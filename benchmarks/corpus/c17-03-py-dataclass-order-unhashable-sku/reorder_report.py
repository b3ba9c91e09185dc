"""Weekly reorder report: what each warehouse should reorder, net of what is already on order.

    python reorder_report.py [--warehouse DUS] [--cover-weeks 4]
"""

import argparse
import logging
import math
from collections import defaultdict
from dataclasses import dataclass, field

log = logging.getLogger("reorder")


@dataclass(order=True)
class Sku:
    code: str
    warehouse: str

    def __str__(self):
        return f"{self.code}@{self.warehouse}"


@dataclass
class StockLine:
    sku: Sku
    on_hand: int
    weekly_sales: list = field(default_factory=list)

    @property
    def avg_weekly(self):
        return sum(self.weekly_sales) / len(self.weekly_sales) if self.weekly_sales else 0.0


@dataclass
class PurchaseOrder:
    number: str
    sku: Sku
    qty: int
    status: str = "open"


STOCK = [
    StockLine(Sku("KB-101", "DUS"), 42, [12, 15, 11, 14]),
    StockLine(Sku("KB-102", "DUS"), 4, [6, 8, 7, 9]),
    StockLine(Sku("MS-220", "DUS"), 0, [3, 2, 4, 3]),
    StockLine(Sku("MS-220", "LEJ"), 17, [5, 5, 6, 4]),
    StockLine(Sku("HS-310", "LEJ"), 9, [1, 0, 2, 1]),
    StockLine(Sku("KB-101", "LEJ"), 3, [10, 9, 12, 11]),
]

ORDERS = [
    PurchaseOrder("PO-5510", Sku("KB-102", "DUS"), 20),
    PurchaseOrder("PO-5511", Sku("MS-220", "DUS"), 10),
    PurchaseOrder("PO-5512", Sku("KB-102", "DUS"), 5, status="received"),
    PurchaseOrder("PO-5513", Sku("KB-101", "LEJ"), 24),
    PurchaseOrder("PO-5514", Sku("MS-220", "DUS"), 6, status="cancelled"),
]


def open_order_totals(orders):
    """Units already on order per SKU (open purchase orders only)."""
    on_order = defaultdict(int)
    for po in orders:
        if po.status != "open":
            continue
        on_order[po.sku] += po.qty
    return on_order


def reorder_quantity(line, on_order, cover_weeks):
    target = math.ceil(line.avg_weekly * cover_weeks)
    return max(0, target - line.on_hand - on_order)


def build_report(stock, orders, cover_weeks, warehouse=None):
    on_order = open_order_totals(orders)
    report = []
    for line in sorted(stock, key=lambda s: s.sku):
        if warehouse and line.sku.warehouse != warehouse:
            continue
        qty = reorder_quantity(line, on_order.get(line.sku, 0), cover_weeks)
        if qty:
            report.append((line.sku, qty))
    return report


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--warehouse", default=None)
    p.add_argument("--cover-weeks", type=int, default=4)
    args = p.parse_args()
    log.info("%d stock lines, %d purchase orders", len(STOCK), len(ORDERS))
    report = build_report(STOCK, ORDERS, args.cover_weeks, args.warehouse)
    print(f"{'SKU':16s} {'REORDER':>8s}")
    for sku, qty in report:
        print(f"{str(sku):16s} {qty:8d}")
    log.info("%d SKUs to reorder", len(report))


if __name__ == "__main__":
    main()
