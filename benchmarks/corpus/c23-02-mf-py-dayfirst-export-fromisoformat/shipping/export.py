import csv
import logging
from pathlib import Path

from shipping.records import Shipment

log = logging.getLogger(__name__)

FIELDS = ["ref", "carrier", "shipped", "promised_days", "delivered"]


def _date_cell(value) -> str:
    # the carrier portal shows these to people, so keep them readable
    return "" if value is None else value.strftime("%d/%m/%Y")


def write_manifest(path: Path, shipments: list[Shipment]) -> int:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        writer.writeheader()
        for s in shipments:
            writer.writerow({"ref": s.ref, "carrier": s.carrier, "shipped": _date_cell(s.shipped),
                             "promised_days": s.promised_days, "delivered": _date_cell(s.delivered)})
    log.info("wrote %d shipments to %s", len(shipments), path.name)
    return len(shipments)
