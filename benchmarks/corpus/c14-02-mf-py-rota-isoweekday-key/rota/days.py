"""The week as the coverage table has it: Monday first."""

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

# people needed per role and day (the desk is thin at weekends: no L2 on Sunday)
COVERAGE_TABLE = """
day  l1  l2
mon   2   1
tue   2   1
wed   2   1
thu   2   1
fri   2   1
sat   1   1
sun   1   0
"""


def parse_coverage(text):
    rows = [line.split() for line in text.strip().splitlines()]
    roles = rows[0][1:]
    return {DAY_NAMES.index(row[0]): dict(zip(roles, map(int, row[1:]))) for row in rows[1:]}


COVERAGE = parse_coverage(COVERAGE_TABLE)


def day_index(day):
    """The coverage table's key for a date (0 = Monday)."""
    return day.isoweekday()
