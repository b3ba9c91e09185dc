"""Column layout of the finance export (the order of the columns matters to the importer)."""

EXPORT_FIELDS = [
    "order_id",
    "day",
    "customer",
    "sku",
    "quantity",
    "unit_price",
    "total",
    "currency",
]

REQUIRED = {"order_id", "day", "sku", "quantity", "unit_price"}
