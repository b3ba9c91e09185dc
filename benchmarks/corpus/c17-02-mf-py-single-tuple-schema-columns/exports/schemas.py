"""The columns every export kind must carry (extra columns are allowed and ignored)."""

SCHEMAS = {
    "orders": ("order_id", "customer", "total", "currency"),
    "refunds": ("refund_id", "order_id", "amount"),
    "shipments": ("tracking_no"),
    "stock": ("sku", "warehouse", "on_hand"),
}

NUMERIC = {
    "orders": ("total",),
    "refunds": ("amount",),
    "stock": ("on_hand",),
}


def required_columns(kind):
    try:
        return SCHEMAS[kind]
    except KeyError:
        raise ValueError(f"unknown export kind {kind!r} (known: {', '.join(sorted(SCHEMAS))})") from None
