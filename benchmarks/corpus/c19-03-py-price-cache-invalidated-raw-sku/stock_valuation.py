"""Month-end stock valuation: apply the supplier's price revisions, value the stock, reconcile with the ledger.

    python stock_valuation.py [--discount 0.05] [--low-stock 10]
"""

import argparse
import csv
import io
import logging

log = logging.getLogger("stock_valuation")

STOCK_CSV = """sku,qty,location
AB-100,12,A1
AB-102,40,A1
CD-210,7,B4
CD-211,3,B4
EF-330,25,C2
"""

PRICES_CSV = """sku,price_cents
AB-100,1250
AB-102,380
CD-210,9900
CD-211,10450
EF-330,615
"""

# the supplier's feed: free-form SKUs, as typed by their sales desk
REVISIONS_CSV = """sku,price_cents
AB-102,395
cd-210 ,10300
EF-330,640
"""


def normalize(sku):
    return sku.strip().upper()


def read_csv(text):
    return list(csv.DictReader(io.StringIO(text)))


class PriceBook:
    def __init__(self, rows, discount):
        self.prices = {normalize(r["sku"]): int(r["price_cents"]) for r in rows}
        self.discount = discount
        self._cache = {}

    def unit_price(self, sku):
        key = normalize(sku)
        if key not in self._cache:
            self._cache[key] = round(self.prices[key] * (1 - self.discount))
        return self._cache[key]

    def apply_revision(self, sku, price_cents):
        key = normalize(sku)
        log.info("revise %s: %d -> %d", key, self.prices.get(key, 0), price_cents)
        self.prices[key] = price_cents
        self._cache.pop(sku, None)


def low_stock_report(stock, book, threshold):
    """Items to reorder, with their value at the current price (this warms the price cache)."""
    low = []
    for row in stock:
        qty = int(row["qty"])
        if qty < threshold:
            low.append((row["sku"], qty, qty * book.unit_price(row["sku"])))
    return low


def valuation(stock, book):
    return {row["sku"]: int(row["qty"]) * book.unit_price(row["sku"]) for row in stock}


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--discount", type=float, default=0.05)
    p.add_argument("--low-stock", type=int, default=10)
    args = p.parse_args()
    logging.basicConfig(level=logging.WARNING)

    stock = read_csv(STOCK_CSV)
    book = PriceBook(read_csv(PRICES_CSV), args.discount)
    for sku, qty, value in low_stock_report(stock, book, args.low_stock):
        print(f"reorder {sku}: {qty} left ({value / 100:.2f})")

    for row in read_csv(REVISIONS_CSV):
        book.apply_revision(row["sku"], int(row["price_cents"]))

    values = valuation(stock, book)
    for row in stock:
        sku, qty = row["sku"], int(row["qty"])
        ledger = qty * round(book.prices[sku] * (1 - args.discount))
        assert values[sku] == ledger, f"{sku}: valued at {values[sku]} cents, the ledger says {ledger}"
    print(f"stock value {sum(values.values()) / 100:.2f}")


if __name__ == "__main__":
    main()
