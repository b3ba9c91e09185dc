# What the shops' listing pages gave on three runs (the bundled sample used when --live is not given).
SAMPLE_LISTINGS = [
    {"day": "2026-11-24", "prices": {"kettle-ek2": 39.90, "grinder-cg7": 129.00, "scale-ks1": 24.50}},
    {"day": "2026-11-25", "prices": {"kettle-ek2": 39.90, "grinder-cg7": 119.00, "scale-ks1": 24.50}},
    {"day": "2026-11-26", "prices": {"kettle-ek2": 34.90, "grinder-cg7": 119.00, "scale-ks1": 26.00}},
]


def scrape(run: dict, watchlist: list[str], shop: str) -> list[dict]:
    """One snapshot per watched SKU found on the listing page."""
    return [{"day": run["day"], "shop": shop, "sku": sku, "price": run["prices"][sku], "currency": "EUR"}
            for sku in watchlist if sku in run["prices"]]
