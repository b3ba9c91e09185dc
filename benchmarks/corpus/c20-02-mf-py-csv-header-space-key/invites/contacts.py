import csv
import io


def load_guests(text: str) -> list[dict[str, str]]:
    """One dict per row of the export, keyed by the header's column names."""
    reader = csv.DictReader(io.StringIO(text))
    guests = []
    for row in reader:
        guests.append({key: (value or "").strip() for key, value in row.items()})
    return guests


def teams(guests: list[dict[str, str]]) -> list[str]:
    return sorted({g.get("team", "") for g in guests} - {""})
