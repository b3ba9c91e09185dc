import unittest


def paid_hours(minutes):
    return minutes // 60


class GrossPayTest(unittest.TestCase):
    def test_gross_pay_per_employee(self):
        pay = {"ben": sum(paid_hours(m) for m in (480, 465, 480)) * 2200}
        for employee, cents in {"ben": 52250}.items():
            self.assertEqual(pay[employee], cents, f"gross pay of {employee}")
