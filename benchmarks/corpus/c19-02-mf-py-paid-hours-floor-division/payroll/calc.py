from collections import defaultdict

from .rates import OVERTIME_AFTER, OVERTIME_FACTOR


def paid_hours(minutes):
    return minutes // 60


def weekly_hours(shifts):
    weeks = defaultdict(float)
    for s in shifts:
        year, week, _ = s.day.isocalendar()
        weeks[(s.employee, year, week)] += paid_hours(s.minutes)
    return weeks


def gross_pay(shifts, rates):
    """Gross pay in cents per employee: regular hours, then overtime hours at OVERTIME_FACTOR."""
    pay = defaultdict(int)
    for (employee, _year, _week), hours in weekly_hours(shifts).items():
        regular = min(hours, OVERTIME_AFTER)
        overtime = max(hours - OVERTIME_AFTER, 0)
        rate = rates[employee]
        pay[employee] += round(regular * rate + overtime * rate * OVERTIME_FACTOR)
    return dict(pay)
