"""A failure the script raised behind a condition keeps its condition (issue 38.5): the guard and the values
that made it true are the cause; ``if len(key) > 24: raise ValueError(...)`` never becomes a bare ``raise``."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from reportkit.reduce.guards import guarded_failure, reads_a_value


def _line(source: str, needle: str) -> int:
    return next(i for i, text in enumerate(source.splitlines(), 1) if needle in text)


@pytest.mark.parametrize("source, guarded", [
    ("if len(key) > 24:\n    raise ValueError('long')\n", True),
    ("if x:\n    pass\nelse:\n    raise ValueError('long')\n", True),
    ("while queue.pending():\n    raise RuntimeError('long')\n", True),
    ("try:\n    int(s)\nexcept ValueError:\n    raise SystemExit('long')\n", True),
    ("assert total == 3, 'long'\n", True),
    ("if cfg['strict']:\n    if True:\n        raise ValueError('long')\n", True),
    # unconditional: the failure no longer depends on anything the program computed
    ("raise ValueError('long')\n", False),
    ("if True:\n    raise ValueError('long')\n", False),
    ("if 1 > 0:\n    raise ValueError('long')\n", False),
    ("assert 2 == 3, 'long'\n", False),
    # the guard must be in the raise's own function: a guarded call of a function that raises is not it
    ("def check():\n    raise ValueError('long')\nif key:\n    check()\n", False),
    ("print('long')\n", False),
    ("raise ValueError('long'\n", False),  # does not parse
])
def test_guarded_failure(source, guarded):
    assert guarded_failure(source, _line(source, "long")) is guarded


def test_reads_a_value():
    import ast
    assert reads_a_value(ast.parse("len(k) > 24", mode="eval").body)
    assert not reads_a_value(ast.parse("not None", mode="eval").body)


SCRIPT = '''
import json

CONFIG = {"signer": "legacy", "key": "k" * 30, "rounds": 3, "name": "prod"}


def load_key(cfg):
    return cfg["key"].strip()


def sign(cfg, payload):
    key = load_key(cfg)
    if cfg["signer"] == "legacy":
        if len(key) > 24:
            raise ValueError("legacy signer accepts keys of at most 24 characters")
    return f"{cfg['name']}:{sum(map(ord, key + payload)) % 997}"


for i in range(CONFIG["rounds"]):
    print(sign(CONFIG, json.dumps({"n": i})))
'''


def test_minimize_keeps_the_condition_of_a_guarded_raise(tmp_path):
    """The reproducer still raises behind a condition that reads a value (today's result before the fix
    was the single line ``raise ValueError(...)``), and it fails the same way on its own."""
    script = tmp_path / "sign.py"
    script.write_text(textwrap.dedent(SCRIPT))
    done = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "--timeout", "30"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    result = (tmp_path / "sign.min.py").read_text()
    raise_line = _line(result, "raise ValueError")
    assert guarded_failure(result, raise_line), result
    assert "condition it was raised under stays" in done.stdout
    alone = subprocess.run([sys.executable, "sign.min.py"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert "ValueError: legacy signer accepts keys of at most 24 characters" in alone.stderr
