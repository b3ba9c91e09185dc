"""Weekly payroll from shift timesheets: parsing, hour rates with overtime, and the CSV export."""

from .calc import gross_pay, paid_hours, weekly_hours
from .export import to_csv
from .rates import OVERTIME_AFTER, OVERTIME_FACTOR, RATES
from .timesheet import Shift, load_timesheet

__all__ = ["gross_pay", "paid_hours", "weekly_hours", "to_csv", "RATES", "OVERTIME_AFTER",
           "OVERTIME_FACTOR", "Shift", "load_timesheet"]
