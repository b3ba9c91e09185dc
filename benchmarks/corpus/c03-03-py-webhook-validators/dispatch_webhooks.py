"""Replay a day of recorded webhook deliveries through the validators and handlers.

python dispatch_webhooks.py [--lenient] [--verbose]
"""
import argparse
import json
import logging
from collections import Counter

log = logging.getLogger("webhooks")

SCHEMAS = {
    "order.created": {"required": ["order_id", "amount", "currency"], "handler": "orders"},
    "order.refunded": {"required": ["order_id", "refund_id", "amount"], "handler": "orders"},
    "customer.updated": {"required": ["customer_id", "email"], "handler": "crm"},
}

DELIVERIES = """
[{"id": "d1", "event": "order.created", "payload": {"order_id": 17, "amount": 4200, "currency": "EUR"}},
 {"id": "d2", "event": "customer.updated", "payload": {"customer_id": 5, "email": "a@example.org"}},
 {"id": "d3", "event": "order.refunded", "payload": {"order_id": 17, "refund_id": 3, "amount": 4200}}]
"""


class InvalidPayload(Exception):
    pass


def build_validators(schemas):
    """event name -> function returning the required fields a payload lacks."""
    validators = {}
    for event, spec in schemas.items():
        fields = spec["required"]
        validators[event] = lambda payload: [f for f in fields if f not in payload]
    return validators


class Dispatcher:
    def __init__(self, schemas, strict=True):
        self.validators = build_validators(schemas)
        self.routes = {event: spec["handler"] for event, spec in schemas.items()}
        self.strict = strict
        self.handled = Counter()

    def validate(self, event, payload):
        missing = self.validators[event](payload)
        if missing and self.strict:
            raise InvalidPayload(f"{event}: missing {', '.join(missing)}")
        return not missing

    def dispatch(self, delivery):
        event, payload = delivery["event"], delivery["payload"]
        if event not in self.validators:
            log.warning("no validator for %s, dropped", event)
            return
        if self.validate(event, payload):
            self.handled[self.routes[event]] += 1
            log.debug("delivery %s -> %s", delivery["id"], self.routes[event])


def main(argv=None):
    p = argparse.ArgumentParser(description="replay webhook deliveries")
    p.add_argument("--lenient", action="store_true", help="count invalid payloads instead of failing")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    dispatcher = Dispatcher(SCHEMAS, strict=not args.lenient)
    for delivery in json.loads(DELIVERIES):
        dispatcher.dispatch(delivery)
    log.info("handled: %s", dict(dispatcher.handled))


if __name__ == "__main__":
    main()
