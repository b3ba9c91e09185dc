from types import SimpleNamespace


def find_entry(ledger, invoice_id, amount_cents):
    for entry in ledger:
        if entry.invoice_id is invoice_id and entry.amount_cents == amount_cents and not entry.paid:
            return entry
    return None


def main():
    # parsed ids above 256 are distinct int objects: `is` compares identity, not value
    ledger = [SimpleNamespace(invoice_id=int(i), amount_cents=100, paid=False) for i in ("1042", "1187")]
    unmatched = [f"INV-{i}" for i in (int("1042"), int("1187")) if find_entry(ledger, i, 100) is None]
    assert not unmatched, f"{len(unmatched)} statement lines without a ledger entry: {', '.join(unmatched)}"


main()
