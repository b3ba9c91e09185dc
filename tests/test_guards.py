"""A failure the script raised behind a condition keeps its condition (issue 38.5): the guard and the values
that made it true are the cause; ``if len(key) > 24: raise ValueError(...)`` never becomes a bare ``raise``."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from reportkit.reduce.guards import guarded_failure, keyword_screen, named_keywords, reads_a_value


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


@pytest.mark.parametrize("source, message, expected", [
    ("op.register_autograd(bw, setup_context=setup)\n",
     "it must override the setup_context staticmethod. See notes/extending.func.html", ("setup_context",)),
    ("F.sdpa(q, k, v, attn_mask=m, dropout_p=0.1)\n", "Expected attn_mask dtype to be bool", ("attn_mask",)),
    # English words and names the script does not pass as a keyword are not kept
    ("torch.zeros(2, dtype=torch.long, device=d)\n", "expected scalar type Long but found Float on device", ()),
    ("f(setup_context)\n", "must override the setup_context staticmethod", ()),
    ("f(a_b=1)\n", "see torch.a_b or a_b() or x.a_b", ()),  # an attribute or a call of that name is not it
])
def test_named_keywords(source, message, expected):
    assert named_keywords(source, message) == expected


def test_keyword_screen():
    screen = keyword_screen(("setup_context",))
    assert screen("op.register(bw, setup_context = s)\n") is None
    assert "setup_context=" in screen("op.register(bw)\nif setup_context == 1: pass\n")
    assert keyword_screen(()) is None


KEYWORD_SCRIPT = '''
class Op:
    def __init__(self, name):
        self.name = name
        self.backward = None
        self.setup = None

    def register_autograd(self, backward, setup_context=None):
        self.backward = backward  # the bug: setup_context is dropped

    def jacrev(self):
        if self.setup is None:
            raise RuntimeError(f"{self.name} must override the setup_context staticmethod")
        return self.backward


op = Op("mylib::solve")
op.register_autograd(lambda ctx, g: g * 2, setup_context=lambda ctx, inputs, output: None)
print(op.jacrev())
'''


def test_minimize_keeps_the_keyword_the_message_names(tmp_path):
    """The message says what the op lacks; the script gave it: the call that passes ``setup_context=`` stays
    (without it the same message comes from an op that was never given one, another program; before the fix
    the result had no ``register_autograd`` call)."""
    script = tmp_path / "op.py"
    script.write_text(KEYWORD_SCRIPT)
    done = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "--timeout", "30"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    result = (tmp_path / "op.min.py").read_text()
    assert "register_autograd(" in result and "setup_context=" in result, result
    assert "the keyword arguments the message names stay (setup_context=)" in done.stdout
