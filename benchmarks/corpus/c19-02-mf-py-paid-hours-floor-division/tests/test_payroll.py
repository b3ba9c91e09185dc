import unittest

from payroll import RATES, gross_pay, load_timesheet, to_csv

SHEET = """
# week 45
2026-11-02 ana 09:00-17:30 30
2026-11-03 ana 09:00-17:30 30
2026-11-04 ana 09:00-17:30 30
2026-11-05 ana 09:00-17:30 30
2026-11-06 ana 09:00-17:30 30
2026-11-02 ben 12:00-20:00
2026-11-03 ben 12:00-20:15 30
2026-11-05 ben 08:00-16:00
2026-11-02 cara 07:00-17:00
2026-11-03 cara 07:00-17:00
2026-11-04 cara 07:00-17:00
2026-11-05 cara 07:00-17:00
2026-11-06 cara 07:00-13:00
"""

# by hand: ana 5 x 8h = 40h; ben 8h + 7h45 + 8h = 23.75h; cara 46h (6h overtime at 1.5)
EXPECTED = {
    "ana": 40 * 2400,
    "ben": 52250,
    "cara": 40 * 2600 + 6 * 3900,
}


class GrossPayTest(unittest.TestCase):
    def setUp(self):
        self.shifts = load_timesheet(SHEET)

    def test_shift_count(self):
        self.assertEqual(len(self.shifts), 13)

    def test_gross_pay_per_employee(self):
        pay = gross_pay(self.shifts, RATES)
        for employee, cents in EXPECTED.items():
            self.assertEqual(pay[employee], cents, f"gross pay of {employee}")

    def test_csv_header(self):
        self.assertTrue(to_csv({"ana": 100}).startswith("employee,gross_eur"))
