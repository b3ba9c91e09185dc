"""``minimize`` never writes a value that came from the script's arguments as a literal (issue 35, item 6): value
materialization spells such a value by its shape (letters x/X, digits 0), so the candidate with the literal is
kept only where the failure does not depend on the value; where it does, the read of ``sys.argv`` stays.

The value here is one no pattern of the redaction edge knows (lower-case hex with a dash: not random-looking
by case, no vendor prefix), so only the capture's rule keeps it out of ``.min.py``.
"""

from __future__ import annotations

import ast
import json
import os
import secrets
import subprocess
import sys

from reportkit.redact import redact_text

SCRIPT = '''
import datetime
import sys


def unused():
    return [i * 2 for i in range(10)]


def stamp_of(options):
    return options["--build-ref"] + "-" + options["--channel"]


options = dict(zip(sys.argv[1::2], sys.argv[2::2]))
total = sum(unused())
datetime.datetime.strptime(stamp_of(options), "%Y-%m-%d")
'''


def test_an_argument_value_is_not_written_as_a_literal(tmp_path):
    value = "bref-" + secrets.token_hex(12)
    assert redact_text(f"ref {value}", home="") == f"ref {value}"  # the edge alone would not catch it
    script = tmp_path / "app" / "job.py"
    script.parent.mkdir()
    script.write_text(SCRIPT, encoding="utf-8")
    out = tmp_path / "job.min.py"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "-o", str(out), "--budget",
                           "150", "-j", "2", "--json", "--", "--build-ref", value, "--channel", "stable"],
                          capture_output=True, text=True, cwd=tmp_path, env=dict(os.environ), timeout=600)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    result = out.read_text(encoding="utf-8")
    ast.parse(result)
    assert "unused" not in result  # it did reduce
    assert value not in result and value[5:] not in result, result
    assert "sys.argv" in result, result  # the failure needs the value: its read stays
    assert json.loads(proc.stdout)["needs_args"] is True  # the summary says the result needs them
