from pathlib import Path

from pricewatch.history import load_history


def price_drops(series: dict[str, list[tuple[str, float]]], min_pct: float) -> list[tuple[str, str, float, float]]:
    drops = []
    for sku, points in sorted(series.items()):
        for (_, before), (day, after) in zip(points, points[1:]):
            if after < before and (before - after) / before * 100 >= min_pct:
                drops.append((sku, day, before, after))
    return drops


def build_report(history_file: Path, min_pct: float) -> str:
    drops = price_drops(load_history(history_file), min_pct)
    if not drops:
        return "no price drops"
    return "\n".join(f"{day} {sku}: {before:.2f} -> {after:.2f}" for sku, day, before, after in drops)
