from datetime import date, datetime


def parse_day(text: str) -> date:
    return datetime.strptime(text, "%d/%m/%Y").date()


def main() -> None:
    last = {}
    for customer, dates in {"C-102": ["15/10/2025", "09/01/2026"]}.items():  # day-first strings
        last[customer] = max(dates)
    for customer, want in {"C-102": "09/01/2026"}.items():
        got = last[customer]
        assert got == want, f"{customer}: last order {got}, the CRM says {want}"


main()
