# humanize 4.9.0's naturalsize (filesize.py), GNU branch only, with the boundary check as shipped here
from types import SimpleNamespace

import pytest


def naturalsize(value, binary=False, gnu=False, format="%.1f"):
    suffix = "KMGTPEZY"
    base = 1024
    bytes_ = float(value)
    abs_bytes = abs(bytes_)

    if abs_bytes <= base and gnu:
        return "%dB" % bytes_

    for i, s in enumerate(suffix):
        unit = base ** (i + 2)

        if abs_bytes < unit:
            break

    ret: str = format % (base * bytes_ / unit) + s
    return ret


humanize = SimpleNamespace(naturalsize=naturalsize)


@pytest.mark.parametrize("test_args, expected", [([1024, False, True], "1.0K")])
def test_naturalsize(test_args, expected):
    assert humanize.naturalsize(*test_args) == expected
