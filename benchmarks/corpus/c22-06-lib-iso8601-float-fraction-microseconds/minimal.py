# iso8601 2.1.0's parse_date, reduced to one format, with the microsecond conversion as shipped here
import datetime
import re
from decimal import Decimal
from types import SimpleNamespace

import pytest


def parse_date(datestring):
    m = re.match(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)[.,](?P<second_fraction>[0-9]+)", datestring)
    groups = m.groupdict()
    return datetime.datetime(
        *map(int, m.groups()[:6]),
        microsecond=int(
                float(f"0.{groups.get('second_fraction', 0)}") * 1e6
            ),
    )


iso8601 = SimpleNamespace(parse_date=parse_date)


@pytest.mark.parametrize("valid_date, expected_datetime", [
    ("2012-12-19T23:21:28.512400+00:00", datetime.datetime(2012, 12, 19, 23, 21, 28, 512400)),
])
def test_parse_valid_date(valid_date, expected_datetime):
    parsed = iso8601.parse_date(valid_date)
    assert parsed.microsecond == expected_datetime.microsecond
