from datetime import date, timedelta


def month_bounds(year, month):
    first = date(year, month, 1)
    next_first = date(year, month + 1, 1)
    return first, next_first - timedelta(days=1)


for month in range(1, 13):
    month_bounds(2026, month)
