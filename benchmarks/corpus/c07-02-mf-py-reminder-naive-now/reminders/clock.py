"""Time helpers: API timestamps, the batch's reference time, look-ahead windows."""
from datetime import datetime, timedelta, timezone

UTC = timezone.utc
AS_OF_FORMAT = "%Y-%m-%d %H:%M"


def parse_timestamp(text):
    """API timestamps are ISO 8601 with a 'Z' suffix."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def reference_time(as_of):
    """The instant the batch runs 'as of', given on the command line in UTC ('2026-11-27 09:00')."""
    return datetime.strptime(as_of, AS_OF_FORMAT)


def lookahead(now, hours):
    return now + timedelta(hours=hours)
