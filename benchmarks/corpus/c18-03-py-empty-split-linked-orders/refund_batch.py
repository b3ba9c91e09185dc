"""Work out the refunds of this week's returns (RMAs) against the orders they link to.

    python refund_batch.py --restocking-fee 0.1
"""

import argparse
import csv
import io
import logging
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

ORDERS = """order_id,customer,amount,shipping
1043,C-220,59.90,4.95
1044,C-220,12.50,0.00
1051,C-318,149.00,0.00
1060,C-402,24.99,4.95
1061,C-402,24.99,0.00
1072,C-515,310.40,0.00
1080,C-220,8.75,2.50
"""

RETURNS = """rma,customer,reason,linked_orders,condition
R-901,C-220,damaged in transit,1043;1044,unopened
R-902,C-318,wrong size,1051,opened
R-903,C-402,changed mind,1060;1061,unopened
R-904,C-515,goodwill credit,,n/a
R-905,C-220,missing parts,1080,opened
"""

log = logging.getLogger("refund_batch")
CENT = Decimal("0.01")


@dataclass
class Order:
    order_id: int
    customer: str
    amount: Decimal
    shipping: Decimal


@dataclass
class Rma:
    rma: str
    customer: str
    reason: str
    condition: str
    linked: list = field(default_factory=list)


def load_orders(text):
    orders = {}
    for row in csv.DictReader(io.StringIO(text)):
        orders[int(row["order_id"])] = Order(int(row["order_id"]), row["customer"], Decimal(row["amount"]),
                                             Decimal(row["shipping"]))
    return orders


def linked_orders(row):
    """The order ids an RMA refers to: `1043;1044`."""
    return row["linked_orders"].strip().split(";")


def load_returns(text):
    return [Rma(row["rma"], row["customer"], row["reason"], row["condition"], linked_orders(row))
            for row in csv.DictReader(io.StringIO(text))]


def refund_total(rma, orders, restocking_fee):
    total = Decimal("0")
    for oid in rma.linked:
        order = orders[int(oid)]
        if order.customer != rma.customer:
            raise ValueError(f"{rma.rma}: order {oid} belongs to {order.customer}")
        total += order.amount + order.shipping
    if rma.condition == "opened":
        total -= (total * Decimal(str(restocking_fee))).quantize(CENT, ROUND_HALF_UP)
    return total.quantize(CENT, ROUND_HALF_UP)


def summarize(refunds):
    per_customer = defaultdict(Decimal)
    for rma, amount in refunds:
        per_customer[rma.customer] += amount
    return dict(sorted(per_customer.items()))


def main():
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--restocking-fee", type=float, default=0.1)
    args = p.parse_args()
    orders = load_orders(ORDERS)
    returns = load_returns(RETURNS)
    log.info("%d returns against %d orders", len(returns), len(orders))
    refunds = [(rma, refund_total(rma, orders, args.restocking_fee)) for rma in returns]
    for rma, amount in refunds:
        print(f"{rma.rma}  {rma.customer}  {rma.reason:<20} {amount:>9}")
    for customer, amount in summarize(refunds).items():
        print(f"{customer}: {amount}")


if __name__ == "__main__":
    main()
