import datetime as dt
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Shipment:
    ref: str
    carrier: str
    shipped: dt.date
    promised_days: int
    delivered: dt.date | None


def sample_shipments(n: int, start: dt.date, seed: int = 1) -> list[Shipment]:
    rng = random.Random(seed)
    carriers = ["DHL", "UPS", "PostNL", "GLS"]
    out = []
    for i in range(n):
        shipped = start + dt.timedelta(days=rng.randrange(0, 20))
        promised = rng.choice([1, 2, 3, 5])
        late = rng.random() < 0.2
        took = promised + (rng.randrange(1, 4) if late else -rng.randrange(0, promised))
        delivered = None if rng.random() < 0.1 else shipped + dt.timedelta(days=max(took, 0))
        out.append(Shipment(f"S-{1000 + i}", rng.choice(carriers), shipped, promised, delivered))
    return out
