# parse 1.20.2's "ti" (ISO 8601) field: the pattern, its converter's group indices as shipped here, and
# date_convert's time part
import re
from datetime import datetime
from functools import partial

TIME_PAT = r"(\d{1,2}:\d{1,2}(:\d{1,2}(\.\d+)?)?)"


def date_convert(string, match, ymd=None, hms=None, tz=None):
    groups = match.groups()
    y, m, d = groups[ymd].split("-")
    H = M = 0
    if hms is not None and groups[hms]:
        t = groups[hms].split(":")
        if len(t) == 2:
            H, M = t
        H = int(H)
        M = int(M)
    return datetime(int(y), int(m), int(d), H, M)


class Parser:
    def field(self, group, type):
        conv = {}
        if type == "ti":
            s = r"(\d{4}-\d\d-\d\d)((\s+|T)%s)?(Z|\s*[-+]\d\d:?\d\d)?" % TIME_PAT
            n = 0
            conv[group] = partial(date_convert, ymd=n + 1, hms=n + 2, tz=n + 7)
        return "(%s)" % s, conv[group]


def test_datetimes():
    pattern, convert = Parser().field(0, "ti")
    match = re.fullmatch(pattern, "1997-07-16T19:20")
    assert convert(match.group(0), match) == datetime(1997, 7, 16, 19, 20)
