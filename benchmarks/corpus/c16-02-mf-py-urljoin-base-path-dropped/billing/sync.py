from decimal import Decimal


def iter_invoices(client, page_size):
    page = 1
    while page is not None:
        data = client.get("invoices", page=page, per_page=page_size)
        yield from data["items"]
        page = data["next_page"]


def sync_invoices(client, settings, only_open=False):
    totals = {}
    for inv in iter_invoices(client, settings["page_size"]):
        if only_open and inv["status"] != "open":
            continue
        totals[inv["customer"]] = totals.get(inv["customer"], Decimal("0")) + Decimal(inv["total"])
    return totals
