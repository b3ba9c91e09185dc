"""Promotions: a rule matches an order line and grants a percentage off."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Promotion:
    name: str
    sku_prefix: str
    min_quantity: int
    percent_off: float

    def matches(self, order: dict) -> bool:
        return order["sku"].startswith(self.sku_prefix) and order["quantity"] >= self.min_quantity


PROMOTIONS = [
    Promotion("tea-bulk", "TEA-", 5, 10.0),
    Promotion("spoons-dozen", "SPOON-", 12, 15.0),
]


def apply_promotions(order: dict) -> dict:
    out = dict(order)
    gross = order["quantity"] * order["unit_price"]
    best = max((p.percent_off for p in PROMOTIONS if p.matches(order)), default=0.0)
    if best:
        out["discount"] = round(gross * best / 100, 2)
    out["total"] = round(gross - out.get("discount", 0.0), 2)
    return out
