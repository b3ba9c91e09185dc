class PriceBook:
    def __init__(self):
        self.prices = {"CD-210": 9900}
        self._cache = {}

    def unit_price(self, key):
        if key not in self._cache:
            self._cache[key] = round(self.prices[key] * 0.95)
        return self._cache[key]

    def apply_revision(self, sku, price_cents):
        key = sku.strip().upper()
        self.prices[key] = price_cents
        self._cache.pop(sku, None)


def main():
    book = PriceBook()
    book.unit_price("CD-210")
    book.apply_revision("cd-210 ", 10300)
    sku = "CD-210"
    values = {sku: 7 * book.unit_price(sku)}
    ledger = 7 * round(book.prices[sku] * 0.95)
    assert values[sku] == ledger, f"{sku}: valued at {values[sku]} cents, the ledger says {ledger}"


main()
