import csv
import io

from .rates import CURRENCY


def to_csv(pay):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["employee", f"gross_{CURRENCY.lower()}"])
    for employee in sorted(pay):
        writer.writerow([employee, f"{pay[employee] / 100:.2f}"])
    return out.getvalue()
