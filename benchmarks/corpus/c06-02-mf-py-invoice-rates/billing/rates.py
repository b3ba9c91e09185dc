"""Exchange rates, parsed from the treasury's CSV export."""
import csv
import io

RATES_CSV = """currency,per_usd,updated
USD,1.00,2026-11-01
EUR,0.92,2026-11-01
GBP,0.79,2026-11-01
JPY,151.20,2026-11-01
CHF,0.88,2026-11-01
"""


def normalize_code(code):
    """Currency codes arrive as 'eur', ' EUR', 'Eur' ...: one spelling for the table keys."""
    return code.strip().lower()


def load_rates(text=RATES_CSV):
    rates = {}
    for row in csv.DictReader(io.StringIO(text)):
        rates[normalize_code(row["currency"])] = float(row["per_usd"])
    return rates
