SCHEMAS = {
    "orders": ("order_id", "customer", "total", "currency"),
    "shipments": ("tracking_no"),
}


def check_columns(kind, header):
    missing = [col for col in SCHEMAS[kind] if col not in header]
    if missing:
        raise ValueError(f"{kind} export is missing columns {missing}")


check_columns("shipments", ["tracking_no", "order_id", "carrier", "shipped_at"])
