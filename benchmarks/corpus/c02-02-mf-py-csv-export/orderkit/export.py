"""Write priced orders in the finance layout."""
import csv
import logging
from pathlib import Path

from .schema import EXPORT_FIELDS, REQUIRED

log = logging.getLogger(__name__)


def write_orders(orders: list[dict], path: Path, currency: str) -> int:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=EXPORT_FIELDS)
        writer.writeheader()
        for order in orders:
            missing = REQUIRED - order.keys()
            if missing:
                log.warning("skipping order %s: missing %s", order.get("order_id"), sorted(missing))
                continue
            row = {**order, "currency": currency}
            writer.writerow(row)
    return len(orders)
