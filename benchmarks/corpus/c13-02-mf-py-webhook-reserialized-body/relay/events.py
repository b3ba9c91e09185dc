import json

from .config import DELIVERY_HEADER, SIGNATURE_HEADER
from .signing import sign


def queued_events():
    """Stand-in for the outbox table: the deliveries waiting to be sent."""
    return [
        {"id": "evt_1001", "type": "invoice.paid", "data": {"invoice": "INV-2207", "amount": 4900, "currency": "EUR"}},
        {"id": "evt_1002", "type": "customer.updated", "data": {"customer": "cus_88", "email": "ops@example.org"}},
        {"id": "evt_1003", "type": "invoice.paid", "data": {"invoice": "INV-2208", "amount": 1250, "currency": "EUR"}},
    ]


def build_delivery(event, cfg):
    """The body exactly as it goes on the wire (compact, sorted keys) and its headers."""
    raw = json.dumps(event, separators=(",", ":"), sort_keys=True).encode("utf-8")
    headers = {
        "Content-Type": "application/json",
        "User-Agent": cfg.user_agent,
        DELIVERY_HEADER: event["id"],
        SIGNATURE_HEADER: sign(raw, cfg.secret),
    }
    return raw, headers
