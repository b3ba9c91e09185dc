from datetime import datetime, timedelta


def older_than(created, days, now):
    return created < now - timedelta(days=days)


older_than(datetime.fromisoformat("2026-01-02T02:00:03+00:00"), 14, datetime.now())
