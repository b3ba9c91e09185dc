"""Redaction never changes what a reproducer does (issue 35, item 5): a script redacted as code still compiles
and, run, fails the same way as the original.

Each case is a failing script with secrets in the places reproducers hold them (comments, docstrings, a constant
the failure does not need, the failure message, f-strings, bytes, a dict key looked up by the same literal, two
different keys compared, a private key in a triple-quoted string that moves every later line, a value from the
environment written as a literal, identifiers that sound like secrets, the URL and command templates code
formats: ``"redis://%s:%s@host" % (user, pw)``). Both versions run through the real
``reportkit check --json``; "the same way" is what reportkit compares (kind, exception type, message, the raising
statement), as reportkit reports it, i.e. after the edge redacted the original's output.
``minimize`` is checked the same way on its ``.min.py``.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import string
import subprocess
import sys
from pathlib import Path

import pytest

from reportkit.redact import redact_code, redact_text

ALNUM = string.ascii_letters + string.digits


def rnd(n: int, alphabet: str = ALNUM) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


STRIPE, GITHUB, GITHUB2 = "sk_live_" + rnd(24), "ghp_" + rnd(36), "ghp_" + rnd(36)
SLACK = "xoxb-" + rnd(12, string.digits) + "-" + rnd(13, string.digits) + "-" + rnd(24)
ENV_VALUE = "Qv7" + rnd(17)  # the value of MY_SERVICE_TOKEN in the runs' environment
PEM = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(rnd(64, ALNUM + "+/") for _ in range(5)) + \
      "\n-----END RSA PRIVATE KEY-----"

CASES = {
    "comment_docstring": f'''
"""Reproducer. Token for the registry: {GITHUB}"""
# export GH_TOKEN={GITHUB}
def ratio(a, b):
    return a / b  # {STRIPE}

ratio(1, 0)
''',
    "unused_constant": f'''
API_KEY = "{STRIPE}"
HEADERS = {{"Authorization": "Bearer {GITHUB}"}}
items = [1, 2, 3]
print(items[len(items)])
''',
    "in_the_message": f'''
def login(key):
    raise PermissionError("login failed for " + key + " (expired)")

login("{GITHUB}")
''',
    "fstring_and_bytes": f'''
user = "bot"
url = f"https://{{user}}:{GITHUB}@git.example.com/r.git"
raw = b"{SLACK}"
raise ValueError(f"cannot clone {{url}}: {{raw.decode()!r}} rejected")
''',
    "same_literal_twice": f'''
cache = {{"{GITHUB}": 1, "{GITHUB2}": 2}}
assert cache["{GITHUB}"] == 1 and "{GITHUB}" != "{GITHUB2}" and len(cache) == 2, "keys collided"
raise KeyError(cache["{GITHUB2}"] + 40)
''',
    "pem_moves_lines": f'''
KEY = """{PEM}"""


class Model:
    def __init__(self, ntoken, pad_token="<pad>"):
        self.ntoken = ntoken
        self.pad_token = pad_token

    def forward(self, x):
        return x[self.ntoken]


Model(ntoken=7).forward([1, 2, 3])
''',
    "env_value_as_literal": f'''
import os

token = "{ENV_VALUE}"  # minimize made os.environ["MY_SERVICE_TOKEN"] a literal
if os.environ["MY_SERVICE_TOKEN"] and token:
    int("not a number: " + token[:0])
''',
    "templates": f'''
import os

# the registry's token is {GITHUB}; the services' URLs are templates, filled at run time
user, pw = "svc", os.environ["MY_SERVICE_TOKEN"]
url = "redis://%s:%s@cache:6379/0" % (user, pw)
dsn = f"postgres://{{user}}:{{pw}}@db/app"
login = "mysql -u %(user)s -p%(pw)s shop" % {{"user": user, "pw": pw}}
raise ConnectionError("cannot reach " + url.split("@")[1] + ", " + dsn.split("@")[1] + " " + login.split()[-1])
''',
}


def check_json(script: Path, env: dict[str, str]) -> dict:
    proc = subprocess.run([sys.executable, "-m", "reportkit", "check", str(script), "--runs", "1", "--json"],
                          capture_output=True, text=True, cwd=script.parent, env={**os.environ, **env}, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["signature"]


def _markers(text: str | None) -> str | None:
    """A marker's extent and number: the text edge redacts ``user:pw`` of a URL as one, where code keeps the
    ``{user}`` expression and redacts ``:pw``; code numbers a kind's second secret (``-2``, ``-N`` once normalized), text does not."""
    return None if text is None else re.sub(r"[\w.\-:]*<redacted:([a-z\-]+?)(?:-(?:\d+|N))?>", r"<redacted:\1>", text)


def how_it_fails(sig: dict) -> dict:
    """What reportkit compares of a failure (in the script line numbers and functions move as it shrinks: the statement identifies the site)."""
    frame = sig.get("location") or {}
    return {"kind": sig["kind"], "type": sig["exc_type"], "message": _markers(sig["message"]),
            "exact": _markers(sig["exact_message"]),
            "statement": _markers(frame.get("text")), "exit": sig["exit_code"], "signal": sig["signal"],
            "threads": sig["thread_exceptions"]}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_redacted_reproducer_fails_the_same_way(tmp_path, name):
    env = {"MY_SERVICE_TOKEN": ENV_VALUE}
    source = CASES[name]
    redacted = redact_code(source, home="", env=env)
    assert redacted != source  # there was something to redact
    compile(redacted, "redacted.py", "exec")
    for secret in (STRIPE, GITHUB, GITHUB2, SLACK, ENV_VALUE, *PEM.splitlines()[1:-1]):
        assert secret not in redacted
    assert "self.ntoken = ntoken" in redacted or "ntoken" not in source
    original, copy = tmp_path / "orig" / "repro.py", tmp_path / "red" / "repro.py"
    for path, text in ((original, source), (copy, redacted)):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
    before, after = check_json(original, env), check_json(copy, env)
    assert before["kind"] == "exception"
    assert how_it_fails(after) == how_it_fails(before)


def test_distinct_secrets_stay_distinct_and_equal_ones_equal():
    source = f'a = "{GITHUB}"\nb = "{GITHUB2}"\nc = "{GITHUB}"\n'
    out = redact_code(source, home="")
    ns: dict = {}
    exec(compile(out, "x.py", "exec"), ns)
    assert ns["a"] == ns["c"] != ns["b"]
    assert ns["a"].startswith("<redacted:github-token") and ns["b"].startswith("<redacted:github-token")


LEAKY_MIN = f'''
import os
import sys

KEY = "{STRIPE}"


def unused():
    return [i for i in range(10)]


def connect(key):
    token = os.environ["MY_SERVICE_TOKEN"]
    raise ConnectionError("refused " + key + " for " + token)


x = unused()
connect(KEY)
'''


def test_minimized_result_fails_the_same_way(tmp_path):
    env = {"MY_SERVICE_TOKEN": ENV_VALUE}
    script = tmp_path / "app" / "leak.py"
    script.parent.mkdir()
    script.write_text(LEAKY_MIN, encoding="utf-8")
    out = tmp_path / "leak.min.py"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "-o", str(out), "--budget",
                           "120", "-j", "2"], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, **env}, timeout=600)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    result = out.read_text(encoding="utf-8")
    compile(result, str(out), "exec")
    assert STRIPE not in result and ENV_VALUE not in result and "unused" not in result
    before, after = check_json(script, env), check_json(out, env)
    assert how_it_fails(after) == how_it_fails(before)


@pytest.mark.parametrize(("template", "real"), [
    ('"redis://%s:%s@cache:6379/0" % (u, p)', "redis://:Kq7vR2mX9pL4@cache:6379/0"),
    ('f"postgres://{user}:{password}@db/app"', "postgres://svc:Kq7vR2mX9pL4@db/app"),
    ('"amqp://{}:{}@mq/vhost".format(u, p)', "amqp://worker:Kq7vR2mX9pL4@mq/vhost"),
    ('f"curl -u {user}:{pw} https://api.example.com"', "curl -u deploy:Kq7vR2mX9pL4 https://api.example.com"),
    ('"mysql -u root -p$MYSQL_PASSWORD shop"', "mysql -u root -pKq7vR2mX9pL4 shop"),
    ('"https://${GIT_USER}:${GIT_TOKEN}@git.example.com/r.git"', "https://bot:Kq7vR2mX9pL4@git.example.com/r.git"),
])
def test_templates_are_kept_and_filled_ones_redacted(template, real):
    source = f"x = {template}\n"
    assert redact_code(source, home="") == source
    assert redact_text(template, home="") == template
    assert "Kq7vR2mX9pL4" not in redact_code(f"x = {real!r}\n", home="")
    assert "Kq7vR2mX9pL4" not in redact_text(real, home="")
    assert "pa$sw0rd9Q" not in redact_text("redis://:pa$sw0rd9Q@cache:6379", home="")  # a $ in a password


def test_fstring_expressions_are_code():
    token = "ghp_" + "A1b2" * 9
    out = redact_code(f'x = f"{{{token}!r:>8}} and {token} {{{{{token}}}}}"\n', home="")
    assert out == f'x = f"{{{token}!r:>8}} and <redacted:github-token> {{{{<redacted:github-token>}}}}"\n' \
        or sys.version_info >= (3, 12)
    compile(out, "x.py", "exec")
