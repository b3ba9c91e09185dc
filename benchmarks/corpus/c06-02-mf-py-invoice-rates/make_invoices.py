"""Produce this month's invoices from the usage log."""
import json
import random

from billing import Ledger, load_rates

CUSTOMERS = [
    {"id": "c-001", "name": "Acme GmbH", "currency": "eur"},
    {"id": "c-002", "name": "Widget Ltd", "currency": "GBP"},
    {"id": "c-003", "name": "Kaisha KK", "currency": "jpy"},
    {"id": "c-004", "name": "Initech", "currency": "usd"},
]
SERVICES = [("compute hours", 0.42), ("storage GB-month", 0.023), ("egress GB", 0.09)]


def usage_log(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        customer = rng.choice(CUSTOMERS)
        service, unit_price = rng.choice(SERVICES)
        quantity = rng.randint(1, 500)
        yield customer, f"{quantity} x {service}", round(quantity * unit_price, 2)


def main():
    rates = load_rates()
    ledger = Ledger(rates)
    for customer, description, amount in usage_log(seed=7, n=40):
        ledger.add(customer, description, amount)

    invoices = [ledger.invoice(c) for c in CUSTOMERS]
    for inv in invoices:
        print(f"{inv['customer']:<12} {len(inv['items']):>3} lines  total {inv['total']} {inv['currency']}")
    summary = {inv["customer"]: {"total": inv["total"], "currency": inv["currency"]} for inv in invoices}
    print(json.dumps(summary, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
