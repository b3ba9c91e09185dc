"""Hourly rates in cents, and the overtime rule (hours over OVERTIME_AFTER in an ISO week)."""

RATES = {
    "ana": 2400,
    "ben": 2200,
    "cara": 2600,
}

OVERTIME_AFTER = 40
OVERTIME_FACTOR = 1.5
CURRENCY = "EUR"
