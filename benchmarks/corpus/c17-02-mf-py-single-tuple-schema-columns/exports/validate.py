from .schemas import NUMERIC, required_columns


class ExportError(Exception):
    pass


def check_columns(kind, header):
    missing = [col for col in required_columns(kind) if col not in header]
    if missing:
        raise ValueError(f"{kind} export is missing columns {missing}")


def check_rows(kind, rows):
    bad = []
    for lineno, row in enumerate(rows, start=2):
        for col in NUMERIC.get(kind, ()):
            try:
                float(row[col])
            except ValueError:
                bad.append(f"line {lineno}: {col}={row[col]!r}")
    if bad:
        raise ExportError(f"{kind}: {len(bad)} unparsable values: " + "; ".join(bad))
