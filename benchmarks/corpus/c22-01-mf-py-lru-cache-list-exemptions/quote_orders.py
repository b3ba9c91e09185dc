"""Quote the day's exported orders and print the invoice totals."""

import argparse
import logging

from pricing import build_invoice, parse_orders

EXPORT = """order_id,region,exemptions,sku,category,qty,unit_price
A-100,de,,BK-1,books,2,12.50
A-100,de,,HW-9,hardware,1,89.00
A-101,fr,reduced,FD-3,food,4,3.20
A-102,ie,vat|reduced,HW-2,hardware,3,15.00
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--region", help="only orders of this region")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO, format="%(name)s: %(message)s")
    log = logging.getLogger("quote_orders")

    orders = parse_orders(EXPORT)
    if args.region:
        orders = [o for o in orders if o.region == args.region]
    grand = 0.0
    for order in orders:
        invoice = build_invoice(order)
        grand += invoice.total
        log.info("%s (%s): %d lines, total %.2f", order.order_id, order.region, len(invoice.lines), invoice.total)
    log.info("%d orders, %.2f in total", len(orders), grand)


if __name__ == "__main__":
    main()
