"""Reconcile the bank's monthly statement export: opening balance + transactions = closing balance."""
import csv
import io
from collections import Counter
from decimal import Decimal

STATEMENT = """\
# account: DE44 5001 0517 5407 3249 31
# period: 2026-10
# opening: 1,520.10
# closing: 2,286.35
date,counterparty,category,amount
2026-10-01,Landlord GmbH,rent,-950.00
2026-10-02,Stadtwerke,utilities,-84.30
2026-10-05,ACME Payroll,salary,"2,410.55"
2026-10-09,Bio Markt,groceries,-61.30
2026-10-14,Deutsche Bahn,travel,-39.90
2026-10-17,Bio Markt,groceries,-47.15
2026-10-21,Netflix,subscriptions,-13.99
2026-10-24,Refund Zalando,shopping,29.95
2026-10-28,Bio Markt,groceries,-52.60
2026-10-30,Bank fee,fees,-4.90
2026-10-31,Interest,interest,0.14
2026-10-31,Savings plan,transfer,-420.25
"""


def parse_amount(text):
    """'1,234.56' / '-84.30' as the bank exports them (thousands separators, no currency sign)."""
    return float(text.replace(",", ""))


def read_statement(text):
    meta, body = {}, []
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            meta[key.strip()] = value.strip()
        else:
            body.append(line)
    rows = list(csv.DictReader(io.StringIO("\n".join(body))))
    for row in rows:
        row["amount"] = parse_amount(row["amount"])
    return meta, rows


def money(x):
    return f"{Decimal(str(x)).quantize(Decimal('0.01')):,}"


def main():
    meta, rows = read_statement(STATEMENT)
    opening, closing = parse_amount(meta["opening"]), parse_amount(meta["closing"])
    by_category = Counter()
    for row in rows:
        by_category[row["category"]] += row["amount"]
    for category, total in sorted(by_category.items(), key=lambda kv: kv[1]):
        print(f"{category:<14} {money(total):>10}")
    computed = opening + sum(row["amount"] for row in rows)
    assert computed == closing, f"{meta['period']} does not reconcile: computed {computed}, statement {closing}"
    print(f"{meta['period']}: reconciled, closing balance {money(closing)} ({len(rows)} transactions)")


if __name__ == "__main__":
    main()
