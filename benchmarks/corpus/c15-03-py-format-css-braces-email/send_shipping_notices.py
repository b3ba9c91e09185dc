"""Render the "your order has shipped" e-mails for today's dispatched orders (written to an outbox)."""

import argparse
import os
import tempfile
from decimal import Decimal

EMAIL_HTML = """<html>
<head>
<style>
  body {{ font-family: Helvetica, Arial, sans-serif; color: #222; }}
  table.items td { padding: 4px 8px; border-bottom: 1px solid #ddd; }
</style>
</head>
<body>
<p>Hi {first_name},</p>
<p>Good news: order <b>{order_id}</b> left our warehouse today with {carrier}.
Tracking number: <a href="{tracking_url}">{tracking_no}</a>.</p>
<table class="items">
{item_rows}
</table>
<p>Total paid: {total} {currency}</p>
</body>
</html>
"""

ITEM_ROW = "<tr><td>{qty} &times;</td><td>{title}</td><td>{price}</td></tr>"

CARRIERS = {
    "dhl": ("DHL Paket", "https://www.dhl.de/track?piececode={}"),
    "ups": ("UPS Standard", "https://www.ups.com/track?tracknum={}"),
}

ORDERS = [
    {"id": "A-20931", "name": "Jana Novak", "email": "jana@example.org", "carrier": "dhl",
     "tracking": "00340434161094042557", "currency": "EUR",
     "items": [(1, "Trail running shoes, size 39", "89.95"), (2, "Merino socks", "12.50")]},
    {"id": "A-20934", "name": "Tomás Ruiz", "email": "truiz@example.org", "carrier": "ups",
     "tracking": "1Z999AA10123456784", "currency": "EUR",
     "items": [(1, "Headlamp 400 lm", "34.00")]},
]


def order_context(order):
    carrier, url = CARRIERS[order["carrier"]]
    rows = [ITEM_ROW.format(qty=q, title=t, price=p) for q, t, p in order["items"]]
    total = sum(Decimal(p) * q for q, _, p in order["items"])
    return {
        "first_name": order["name"].split()[0],
        "order_id": order["id"],
        "carrier": carrier,
        "tracking_no": order["tracking"],
        "tracking_url": url.format(order["tracking"]),
        "item_rows": "\n".join(rows),
        "total": f"{total:.2f}",
        "currency": order["currency"],
    }


def render_email(order):
    return EMAIL_HTML.format(**order_context(order))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--outbox", default=os.path.join(tempfile.gettempdir(), "shipping-outbox"))
    args = p.parse_args()
    os.makedirs(args.outbox, exist_ok=True)
    for order in ORDERS:
        html = render_email(order)
        path = os.path.join(args.outbox, f"{order['id']}.html")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(html)
        print(f"{order['email']}: {path} ({len(html)} bytes)")


if __name__ == "__main__":
    main()
