"""The ledger: usage lines per customer, totalled into invoices."""
from collections import defaultdict

from .money import convert, to_minor


class Ledger:
    def __init__(self, rates):
        self.rates = rates
        self.lines = defaultdict(list)

    def add(self, customer, description, amount_usd):
        self.lines[customer["id"]].append((description, amount_usd))

    def invoice(self, customer):
        currency = customer["currency"].upper()
        items = []
        for description, amount_usd in self.lines[customer["id"]]:
            local = convert(amount_usd, currency, self.rates)
            items.append({"description": description, "amount": to_minor(local, currency)})
        total = sum(item["amount"] for item in items)
        return {"customer": customer["name"], "currency": currency, "items": items, "total": total}
