import json
import logging
from collections import Counter

from .config import DELIVERY_HEADER, SIGNATURE_HEADER
from .signing import verify

log = logging.getLogger(__name__)


class Receiver:
    """The receiving end: check the delivery, then hand the event to its handler."""

    def __init__(self, cfg):
        self.cfg = cfg
        self.seen = set()
        self.handled = Counter()
        self.handlers = {"invoice.paid": self.on_invoice_paid, "customer.updated": self.on_customer_updated}

    def handle(self, raw, headers):
        if headers.get("Content-Type") != "application/json":
            raise ValueError(f"unexpected content type {headers.get('Content-Type')!r}")
        if len(raw) > self.cfg.max_body_bytes:
            raise ValueError("delivery body too large")
        payload = json.loads(raw)
        delivery = headers.get(DELIVERY_HEADER)
        verify(json.dumps(payload).encode(), headers.get(SIGNATURE_HEADER), self.cfg.secret, delivery)
        if delivery in self.seen:
            log.info("duplicate delivery %s ignored", delivery)
            return
        self.seen.add(delivery)
        handler = self.handlers.get(payload["type"])
        if handler is None:
            log.warning("no handler for %s", payload["type"])
            return
        handler(payload["data"])
        self.handled[payload["type"]] += 1

    def on_invoice_paid(self, data):
        log.debug("invoice %s paid: %.2f %s", data["invoice"], data["amount"] / 100, data["currency"])

    def on_customer_updated(self, data):
        log.debug("customer %s now %s", data["customer"], data["email"])

    def summary(self):
        return ", ".join(f"{k} x{v}" for k, v in sorted(self.handled.items())) or "nothing handled"
