"""Amounts in minor units, and the conversion between currencies."""
from decimal import ROUND_HALF_EVEN, Decimal

MINOR_UNITS = {"JPY": 0}


def to_minor(amount, currency):
    digits = MINOR_UNITS.get(currency, 2)
    quantum = Decimal(1).scaleb(-digits)
    return int(Decimal(str(amount)).quantize(quantum, rounding=ROUND_HALF_EVEN).scaleb(digits))


def convert(amount_usd, currency, rates):
    return amount_usd * rates[currency]
