import datetime

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
COVERAGE = {i: {"l1": 1} for i, name in enumerate(DAY_NAMES)}


def day_index(day):
    return day.isoweekday()


day = datetime.date(2026, 3, 8)
need = COVERAGE[day_index(day)]
