from collections import defaultdict
from dataclasses import dataclass


@dataclass(order=True)
class Sku:
    code: str
    warehouse: str


@dataclass
class PurchaseOrder:
    sku: Sku
    qty: int


def open_order_totals(orders):
    on_order = defaultdict(int)
    for po in orders:
        on_order[po.sku] += po.qty
    return on_order


open_order_totals([PurchaseOrder(Sku("KB-102", "DUS"), 20)])
