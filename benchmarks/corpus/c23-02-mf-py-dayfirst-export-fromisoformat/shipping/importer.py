import csv
import datetime as dt
from pathlib import Path

from shipping.records import Shipment


def _parse_date(cell: str) -> dt.date | None:
    cell = cell.strip()
    return dt.date.fromisoformat(cell) if cell else None


def _parse_row(row: dict) -> Shipment:
    return Shipment(
        ref=row["ref"],
        carrier=row["carrier"],
        shipped=_parse_date(row["shipped"]),
        promised_days=int(row["promised_days"]),
        delivered=_parse_date(row["delivered"]),
    )


def read_manifest(path: Path) -> list[Shipment]:
    with path.open(newline="", encoding="utf-8") as fh:
        return [_parse_row(row) for row in csv.DictReader(fh)]
