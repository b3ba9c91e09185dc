import datetime as dt


def _parse_date(cell: str) -> dt.date | None:
    cell = cell.strip()
    return dt.date.fromisoformat(cell) if cell else None


_parse_date(dt.date(2024, 2, 8).strftime("%d/%m/%Y"))
