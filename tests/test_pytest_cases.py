"""parametrize-case (reportkit/reduce/passes/pytest_cases.py): one case of a parametrize list, its id pinned.

Each candidate is collected by pytest: every node id it has, the original has too (the pinned id is the
one pytest gave the case), and the failing case still fails."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reportkit.reduce import passes as P

SUITE = '''import pytest


@pytest.mark.parametrize(
    "test_args, expected",
    [
        ([300], "300 Bytes"),
        ([3000], "3.0 kB"),
        ((1, 2), -1.5),
        (None, True),
        ({"a": 1}, "x y"),
        ([1024, False, True], "1.0K"),
    ],
)
def test_size(test_args, expected):
    assert expected != "1.0K"


class TestK:
    @pytest.mark.parametrize("n", [1, 2, 3.5, "\\u00e9"])
    def test_n(self, n):
        assert n != 2
'''


def _collect(directory, name: str, text: str) -> list[str]:
    (directory / name).write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", name],
                         cwd=directory, capture_output=True, text=True, timeout=120).stdout
    return [line.split("::", 1)[1] for line in out.split() if "::" in line]


def test_each_case_alone_keeps_its_node_id(tmp_path):
    original = set(_collect(tmp_path, "test_suite.py", SUITE))
    got = P.parametrize_case_candidates(SUITE)
    assert len(got) == 6  # TestK.test_n's ids are its values: left to the element passes
    assert '[pytest.param([1024, False, True], "1.0K", id=\'test_args5-1.0K\')]' in got[5]
    assert "    [(None, True)],\n)" in got[3]  # an id made from the values: the case as written
    for candidate in got:
        ids = _collect(tmp_path, "test_suite.py", candidate)
        assert set(ids) <= original and len(ids) == 1 + 4, ids
    (tmp_path / "test_suite.py").write_text(got[5], encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "test_suite.py::test_size[test_args5-1.0K]"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1 and "assert '1.0K' != '1.0K'" in run.stdout


@pytest.mark.parametrize("source", [
    # ids given, indirect, two parametrize marks, a parametrized class, pytestmark, a pytest.param case
    SUITE.replace('    ],\n)\ndef test_size', '    ],\n    ids=str,\n)\ndef test_size').split("class TestK")[0],
    SUITE.replace('    ],\n)\ndef test_size', '    ],\n    indirect=True,\n)\ndef test_size').split("class TestK")[0],
    SUITE.replace("def test_size", "@pytest.mark.parametrize('k', [1, 2])\ndef test_size").split("class TestK")[0],
    "import pytest\n\n@pytest.mark.parametrize('m', [1, 2])\nclass TestK:\n"
    "    @pytest.mark.parametrize('n', [1, 2])\n    def test_n(self, m, n):\n        pass\n",
    "import pytest\npytestmark = pytest.mark.parametrize('m', [1, 2])\n\n"
    "@pytest.mark.parametrize('n', [1, 2])\ndef test_n(m, n):\n    pass\n",
    "import pytest\n\n@pytest.mark.parametrize('n', [1, pytest.param(2, id='two')])\ndef test_n(n):\n    pass\n",
    # every id made from the values (the element passes drop the other cases); duplicate ids (pytest adds
    # a suffix); one case only
    "import pytest\n\n@pytest.mark.parametrize('n, s', [(1, 'a'), (2, None)])\ndef test_n(n, s):\n    pass\n",
    "import pytest\n\n@pytest.mark.parametrize('n', [1, 1])\ndef test_n(n):\n    pass\n",
    "import pytest\n\n@pytest.mark.parametrize('n', [1])\ndef test_n(n):\n    pass\n",
])
def test_parametrize_case_does_not_fire(source: str) -> None:
    assert P.parametrize_case_candidates(source) == []
