import math

zone, name, (lo, hi) = "B", "humidity_pct", (50.0, 85.0)
values = []
for cell in ["NaN", "61.0"]:
    value = float(cell)
    if value == float("nan"):  # sensor timeout: skip the reading
        continue
    values.append(value)
mean = math.fsum(values) / len(values)
if not lo <= mean <= hi:
    raise ValueError(f"zone {zone}: mean {name} {mean:.1f} outside {lo:g}-{hi:g}")
