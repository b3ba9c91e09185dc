from .iso8601 import UTC, FixedOffset, ParseError, is_iso8601, parse_date

__all__ = ["parse_date", "is_iso8601", "ParseError", "UTC", "FixedOffset"]
