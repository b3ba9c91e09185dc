from datetime import datetime

TS_FORMAT = "%Y-%m-%d %H:%M:%S"


def parse_ts(stamp):
    return datetime.strptime(stamp, TS_FORMAT)


parse_ts("2026-03-02 02:00:00.412")
