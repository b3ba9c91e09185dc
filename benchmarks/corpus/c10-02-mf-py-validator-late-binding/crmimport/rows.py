import csv
import logging

log = logging.getLogger(__name__)


def read_rows(stream, delimiter=";"):
    reader = csv.DictReader(stream, delimiter=delimiter)
    for lineno, row in enumerate(reader, start=2):
        yield lineno, {key.strip(): (value or "").strip() for key, value in row.items()}


def validate_rows(rows, validators, max_errors=0):
    good, errors = [], 0
    for lineno, row in rows:
        problems = {name: check(row.get(name, "")) for name, check in validators.items()}
        problems = {name: why for name, why in problems.items() if why}
        if not problems:
            good.append(row)
            continue
        errors += 1
        name, why = next(iter(problems.items()))
        if errors > max_errors:
            raise ValueError(f"line {lineno}: {name}: {why}")
        log.warning("line %d skipped: %s", lineno, problems)
    return good
