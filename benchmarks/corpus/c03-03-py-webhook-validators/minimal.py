class InvalidPayload(Exception):
    pass


validators = {}
for event, fields in [("order.created", ["order_id"]), ("customer.updated", ["customer_id", "email"])]:
    validators[event] = lambda payload: [f for f in fields if f not in payload]

event = "order.created"
missing = validators[event]({"order_id": 17})
if missing:
    raise InvalidPayload(f"{event}: missing {', '.join(missing)}")
