"""Match the bank statement's incoming payments to the open invoices of the ledger."""

import argparse
import csv
import io
from dataclasses import dataclass

LEDGER_CSV = """invoice,customer,amount
INV-118,Harbor Cafe,420.00
INV-245,Nordlicht GmbH,1250.50
INV-1042,Olive & Vine,89.90
INV-1187,Studio Mara,310.00
"""
STATEMENT_CSV = """date,reference,amount
2026-11-02,PAYMENT INV-118 HARBOR CAFE,420.00
2026-11-03,INV-245 NORDLICHT,1250.50
2026-11-05,OLIVE VINE INV-1042,89.90
2026-11-06,INV-1187 STUDIO MARA,310.00
"""


@dataclass
class Entry:
    invoice_id: int
    customer: str
    amount_cents: int
    paid: bool = False


def cents(text: str) -> int:
    units, _, frac = text.partition(".")
    return int(units) * 100 + int(frac.ljust(2, "0"))


def invoice_number(text: str) -> int:
    token = next(word for word in text.split() if word.startswith("INV-"))
    return int(token.removeprefix("INV-"))


def load_ledger(text: str) -> list[Entry]:
    return [Entry(invoice_number(row["invoice"]), row["customer"], cents(row["amount"]))
            for row in csv.DictReader(io.StringIO(text))]


def find_entry(ledger: list[Entry], invoice_id: int, amount_cents: int) -> Entry | None:
    for entry in ledger:
        if entry.invoice_id is invoice_id and entry.amount_cents == amount_cents and not entry.paid:
            return entry
    return None


def reconcile(ledger: list[Entry], statement: str) -> list[str]:
    unmatched = []
    for row in csv.DictReader(io.StringIO(statement)):
        invoice_id = invoice_number(row["reference"])
        entry = find_entry(ledger, invoice_id, cents(row["amount"]))
        if entry is None:
            unmatched.append(f"INV-{invoice_id}")
        else:
            entry.paid = True
    return unmatched


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    ledger = load_ledger(LEDGER_CSV)
    unmatched = reconcile(ledger, STATEMENT_CSV)
    if args.verbose:
        for entry in ledger:
            print(f"INV-{entry.invoice_id} {entry.customer}: {'paid' if entry.paid else 'open'}")
    # every payment on this statement was announced by the customer: all must match
    assert not unmatched, f"{len(unmatched)} statement lines without a ledger entry: {', '.join(unmatched)}"
    print(f"{len(ledger)} invoices reconciled")


if __name__ == "__main__":
    main()
