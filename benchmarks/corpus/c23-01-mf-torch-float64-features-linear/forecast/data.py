import math
import random
from dataclasses import dataclass


@dataclass
class SalesRecord:
    store: int
    day: int
    units: float
    price: float
    promo: bool


def load_history(n_stores: int, n_days: int, seed: int = 0) -> list[SalesRecord]:
    """Synthetic daily sales with a weekly cycle, promotions and price effects."""
    rng = random.Random(seed)
    records = []
    for store in range(n_stores):
        base = rng.uniform(20, 80)
        for day in range(n_days):
            promo = rng.random() < 0.15
            price = round(rng.uniform(2.5, 4.0) * (0.8 if promo else 1.0), 2)
            weekly = 1.0 + 0.3 * math.sin(2 * math.pi * day / 7)
            units = max(0.0, base * weekly * (1.4 if promo else 1.0) - 5 * price + rng.gauss(0, 3))
            records.append(SalesRecord(store, day, units, price, promo))
    return records


def by_store(records: list[SalesRecord]) -> dict[int, list[SalesRecord]]:
    grouped: dict[int, list[SalesRecord]] = {}
    for rec in records:
        grouped.setdefault(rec.store, []).append(rec)
    for recs in grouped.values():
        recs.sort(key=lambda r: r.day)
    return grouped
