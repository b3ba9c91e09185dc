import json
from collections import defaultdict
from pathlib import Path


def load_history(path: Path) -> dict[str, list[tuple[str, float]]]:
    """Per SKU, its (day, price) pairs in the order they were recorded."""
    series: dict[str, list[tuple[str, float]]] = defaultdict(list)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            snap = json.loads(line)
            series[snap["sku"]].append((snap["day"], float(snap["price"])))
    return dict(series)
