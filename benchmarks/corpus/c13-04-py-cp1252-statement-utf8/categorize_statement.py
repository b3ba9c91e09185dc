"""Sum a month's card spending by category from the bank portal's CSV export."""
import argparse
import csv
import io
import logging
from collections import defaultdict
from decimal import Decimal

log = logging.getLogger("categorize_statement")

ENCODING = "utf-8"
DELIMITER = ";"

# the export as the portal writes it (the real job reads ~/Downloads/umsatz_2026-10.csv as bytes)
EXPORT = (
    "Buchungstag;Empfänger;Verwendungszweck;Betrag;Währung\r\n"
    "01.10.2026;REWE Markt 4411;Kartenzahlung;-54,20;EUR\r\n"
    "03.10.2026;Deutsche Bahn;Ticket 8841;-89,90;EUR\r\n"
    "05.10.2026;Café Lumière;Kartenzahlung;-12,40;EUR\r\n"
    "09.10.2026;Stadtwerke;Abschlag Strom;-71,00;EUR\r\n"
    "14.10.2026;REWE Markt 4411;Kartenzahlung;-38,75;EUR\r\n"
    "20.10.2026;Arbeitgeber GmbH;Gehalt Oktober;2950,00;EUR\r\n"
).encode("cp1252")

RULES = [
    ("groceries", ("rewe", "edeka", "aldi")),
    ("travel", ("bahn", "flixbus")),
    ("eating out", ("café", "restaurant", "bäckerei")),
    ("utilities", ("stadtwerke", "telekom")),
]


def read_statement(raw):
    text = raw.decode(ENCODING)
    rows = list(csv.DictReader(io.StringIO(text), delimiter=DELIMITER))
    log.info("%d bookings", len(rows))
    return rows


def amount(row):
    return Decimal(row["Betrag"].replace(".", "").replace(",", "."))


def category(payee):
    name = payee.lower()
    for label, words in RULES:
        if any(w in name for w in words):
            return label
    return "other"


def summarize(rows):
    totals = defaultdict(Decimal)
    for row in rows:
        value = amount(row)
        if value >= 0:
            continue  # income is not spending
        totals[category(row["Empfänger"])] += -value
    return dict(sorted(totals.items(), key=lambda kv: -kv[1]))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--min", type=Decimal, default=Decimal("0"), help="hide categories below this sum")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    totals = summarize(read_statement(EXPORT))
    for label, total in totals.items():
        if total >= args.min:
            print(f"{label:<12} {total:>9.2f} EUR")


if __name__ == "__main__":
    main()
