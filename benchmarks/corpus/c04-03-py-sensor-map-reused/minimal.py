import statistics


def parse_reading(row):
    return float(row)


def load_readings(rows):
    return map(parse_reading, rows)


readings = load_readings(["18.4", "24.9"])
bad = [r for r in readings if not 5.0 <= r <= 40.0]
statistics.mean(r for r in readings)
