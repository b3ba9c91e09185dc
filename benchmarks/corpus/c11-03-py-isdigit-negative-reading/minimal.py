def coerce(value):
    return int(value) if value.isdigit() else value


lineno, key = 3, "temp"
record = {key: coerce("temp=-18".partition("=")[2])}
if not isinstance(record.get(key), int):
    raise ValueError(f"line {lineno}: {key}={record.get(key)!r} is not numeric")
