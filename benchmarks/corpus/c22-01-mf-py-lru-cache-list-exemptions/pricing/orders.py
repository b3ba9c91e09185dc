"""Orders as the shop exports them: one line per item, exemptions as a |-separated list."""

import csv
import io
from dataclasses import dataclass, field


@dataclass
class OrderLine:
    sku: str
    category: str
    qty: int
    unit_price: float


@dataclass
class Order:
    order_id: str
    region: str
    exemptions: list = field(default_factory=list)
    lines: list = field(default_factory=list)


def parse_exemptions(text: str) -> list:
    return sorted(e.strip().lower() for e in text.split("|") if e.strip())


def parse_orders(text: str) -> list:
    orders = {}
    for row in csv.DictReader(io.StringIO(text)):
        order = orders.get(row["order_id"])
        if order is None:
            order = orders[row["order_id"]] = Order(row["order_id"], row["region"],
                                                    parse_exemptions(row["exemptions"]))
        order.lines.append(OrderLine(row["sku"], row["category"], int(row["qty"]), float(row["unit_price"])))
    return list(orders.values())
