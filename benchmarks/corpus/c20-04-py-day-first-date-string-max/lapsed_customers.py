"""Which customers have lapsed (no order for 90 days)? Cross-checked against the CRM's own column."""

import argparse
from collections import defaultdict
from datetime import date, datetime

ORDERS = [  # the shop's order export: dates as the shop's locale writes them (day first)
    {"order": 5001, "customer": "C-101", "date": "04/09/2025", "total": 42.50},
    {"order": 5002, "customer": "C-102", "date": "15/10/2025", "total": 18.00},
    {"order": 5003, "customer": "C-101", "date": "12/01/2026", "total": 77.10},
    {"order": 5004, "customer": "C-103", "date": "28/11/2025", "total": 23.99},
    {"order": 5005, "customer": "C-102", "date": "09/01/2026", "total": 64.00},
    {"order": 5006, "customer": "C-103", "date": "03/02/2026", "total": 12.49},
    {"order": 5007, "customer": "C-104", "date": "21/08/2025", "total": 99.00},
]
CRM = {  # the CRM's customer records, with the last order date it keeps itself
    "C-101": {"name": "Ana Lima", "last_order": "12/01/2026"},
    "C-102": {"name": "Ben Okafor", "last_order": "09/01/2026"},
    "C-103": {"name": "Cara Jensen", "last_order": "03/02/2026"},
    "C-104": {"name": "Dev Patel", "last_order": "21/08/2025"},
}


def parse_day(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


def orders_by_customer(orders: list[dict]) -> dict[str, list[dict]]:
    grouped = defaultdict(list)
    for order in orders:
        grouped[order["customer"]].append(order)
    return grouped


def last_orders(orders: list[dict]) -> dict[str, str]:
    last = {}
    for customer, rows in orders_by_customer(orders).items():
        dates = [row["date"] for row in rows]
        last[customer] = max(dates)
    return last


def lapsed(last: dict[str, str], today: date, days: int) -> list[str]:
    return sorted(c for c, day in last.items() if (today - parse_day(day)).days > days)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--today", default="2026-03-01")
    parser.add_argument("--days", type=int, default=90)
    args = parser.parse_args()
    today = date.fromisoformat(args.today)

    last = last_orders(ORDERS)
    spend = {c: round(sum(o["total"] for o in rows), 2) for c, rows in orders_by_customer(ORDERS).items()}
    for customer in sorted(last):
        print(f"{customer} {CRM[customer]['name']:<12} last order {last[customer]}  spent {spend[customer]:7.2f}")
    for customer, record in CRM.items():
        got, want = last[customer], record["last_order"]
        assert got == want, f"{customer}: last order {got}, the CRM says {want}"
    print(f"lapsed since {args.days} days:", ", ".join(lapsed(last, today, args.days)) or "none")


if __name__ == "__main__":
    main()
