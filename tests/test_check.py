"""The one door (Check) and the flakiness rule, on real scripts.

The flaky script fails with probability 1/2 per run, but reproducibly: each run takes the next number
from a counter file outside the scratch copy (in a ``reportkit-*`` temp dir handed to the runs through
``$FLAKY_COUNTER``: the sandbox lets a run write there and nowhere else outside its scratch) and seeds its
RNG with it, so the outcome sequence is
fixed (``random.Random(n).random() < 0.5``: n = 0..15 give P F P F F P P F F F P F F F F P).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from reportkit.errors import FlakyFailure, NothingToReproduce
from reportkit.failure.check import (
    CONFIRM_RUNS,
    Check,
    confirm,
    confirm_with_warm,
    escape_probability,
    establish_original,
    meets,
    reproduce,
)
from reportkit.failure.signature import FailureKind, MatchPolicy, Signature
from reportkit.run.executor import ColdExecutor
from reportkit.run.runner import Sandbox
from reportkit.run.spec import RunSpec


def fails(n: int) -> bool:
    return random.Random(n).random() < 0.5


FLAKY = """
import os, pathlib, random
counter = pathlib.Path(os.environ["FLAKY_COUNTER"])
n = int(counter.read_text())
counter.write_text(str(n + 1))
if random.Random(n).random() < 0.5:
    raise RuntimeError("lost the race")
print("fine this time")
"""


@pytest.fixture
def state():
    """A directory the sandboxed runs may write (a ``reportkit-*`` temp dir named in their environment)."""
    path = Path(tempfile.mkdtemp(prefix="reportkit-test-state-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def flaky_script(tmp_path: Path, state: Path, start: int) -> tuple[Path, Path]:
    counter = state / "counter"
    counter.write_text(str(start))
    project = tmp_path / "project"
    project.mkdir()
    script = project / "flaky.py"
    script.write_text(FLAKY)
    return script, counter


def spec_of(script: Path, timeout: float = 30, counter: Path | None = None) -> RunSpec:
    env = {"FLAKY_COUNTER": str(counter)} if counter else {}
    return RunSpec(script=script.resolve(), python=sys.executable, timeout=timeout, env=env)


def test_the_bound_is_what_the_docs_say():  # docs/check.md: tests/test_docs.py checks the text against it
    assert CONFIRM_RUNS == 7
    assert escape_probability() == 0.5 ** 7 < 0.01
    assert escape_probability(2) == 0.25  # the old 2-run check: a 50% flake passed it 1 time in 4


# starts whose first two runs both fail: the old 2-run check called every one of them deterministic
@pytest.mark.parametrize("start", [3, 7, 8, 11, 12])
def test_a_fifty_percent_flake_is_caught_after_two_failing_runs(tmp_path, state, start):
    assert fails(start) and fails(start + 1)
    script, counter = flaky_script(tmp_path, state, start)
    check = Check(spec_of(script, counter=counter))
    rep = reproduce(check, runs=2)
    assert rep.deterministic and rep.runs == 2  # what minimize used to go on
    confirm_with_warm(rep, check)
    used = int(counter.read_text()) - start
    assert not rep.deterministic, rep.signatures
    assert 2 < rep.runs <= CONFIRM_RUNS and rep.failures == rep.runs - 1  # stopped at the first pass
    assert rep.confirm_runs == rep.runs - 2 and rep.confirmed_on in ("warm", "cold")
    assert rep.runs <= used  # (a warm executor's own check against the cold runs takes a number too)
    assert rep.signatures[-1].kind is FailureKind.PASSED


def test_deterministic_failure_is_confirmed_cheaply_on_the_warm_executor(tmp_path):
    script = tmp_path / "det.py"
    script.write_text("raise KeyError('always')\n")
    rep = establish_original(Check(spec_of(script)), runs=2)
    assert rep.deterministic and rep.runs == CONFIRM_RUNS and rep.failures == CONFIRM_RUNS
    assert rep.confirm_runs == CONFIRM_RUNS - 2 and rep.confirmed_on == "warm"


COUNTING = """
import os, pathlib
counter = pathlib.Path(os.environ["FLAKY_COUNTER"])
counter.write_text(str(int(counter.read_text()) + 1))
raise KeyError('always')
"""


def counting_script(tmp_path: Path, state: Path) -> tuple[Path, Path]:
    """A deterministic failure that counts its runs in ``state``."""
    counter = state / "counter"
    counter.write_text("0")
    script = tmp_path / "counting.py"
    script.write_text(COUNTING)
    return script, counter


def test_the_warm_executors_admission_run_is_one_of_the_rules_runs(tmp_path, state):
    """The run of the original that admits the warm executor counts for the rule: the original runs the rule's
    number of times in all, not once more."""
    script, counter = counting_script(tmp_path, state)
    rep = establish_original(Check(spec_of(script, counter=counter)), runs=2)
    assert rep.deterministic and rep.runs == CONFIRM_RUNS and rep.confirmed_on == "warm"
    assert int(counter.read_text()) == CONFIRM_RUNS



def _warm_setup(tmp_path, state):
    """minimize's set-up of the counting script with the warm executor: (session, reproduction, counter file)."""
    from reportkit.reduce.minimize import MinimizeOptions, _setup

    script, counter = counting_script(tmp_path, state)
    spec = spec_of(script, counter=counter)
    rep = reproduce(Check(spec), runs=2)
    sandbox = Sandbox(spec.script, spec.isolate_file, spec.root)
    try:
        session = _setup(spec, COUNTING, rep, MatchPolicy(), MinimizeOptions(output=tmp_path / "out.py",
                                                                             executor="warm"), sandbox)
        session.close()
    finally:
        sandbox.cleanup()
    return session, rep, counter

def test_minimize_counts_the_warm_admission_run_for_the_rule(tmp_path, state):
    """minimize's set-up: the warm executor's last admission run of the original (on the preload it keeps) is one
    of the rule's runs; only a run on a preload it did not keep (before learning more modules) is extra, and a
    pure-Python script has nothing to learn (the boot's own imports are in the server): no extra run."""
    session, rep, counter = _warm_setup(tmp_path, state)
    assert session.executor.name == "warm" and rep.runs == CONFIRM_RUNS and rep.deterministic
    assert "more modules the original imported at run time" not in session.executor_note  # (pure Python)
    assert int(counter.read_text()) == CONFIRM_RUNS


def test_minimize_works_out_the_reducers_first_analyses_while_the_warm_server_starts(tmp_path, state, monkeypatch):
    """minimize's set-up: the source's pruned HDD levels (parse, scopes), the reducer's first read of it, are
    worked out while the warm server starts (kept per version: the reduction finds them)."""
    from collections import OrderedDict

    from reportkit.reduce.passes import chunks

    monkeypatch.setattr(chunks, "_VERSIONS", OrderedDict())
    monkeypatch.setattr(chunks, "_version_chars", [0])
    session, rep, counter = _warm_setup(tmp_path, state)
    assert session.executor.name == "warm"
    assert ("levels True", COUNTING) in chunks._VERSIONS


def test_runs_beyond_the_rule_need_no_confirmation(tmp_path):
    script = tmp_path / "det.py"
    script.write_text("raise KeyError('always')\n")
    rep = establish_original(Check(spec_of(script)), runs=CONFIRM_RUNS + 1)
    assert rep.runs == CONFIRM_RUNS + 1 and rep.confirm_runs == 0


def test_a_hang_is_judged_on_its_own_runs(tmp_path):
    script = tmp_path / "hang.py"
    script.write_text("import time\ntime.sleep(60)\n")
    check = Check(spec_of(script, timeout=0.5))
    rep = reproduce(check, runs=1)
    assert rep.signature.kind is FailureKind.HANG
    assert confirm(rep, check).runs == 1  # every run of a hang costs the whole timeout


def test_check_expectations(tmp_path):
    script = tmp_path / "t.py"
    script.write_text("import os\nif not os.environ.get('OK'):\n    raise ValueError('bad')\n")
    sandbox = Sandbox(script)
    try:
        base = Check(spec_of(script), MatchPolicy(), sandbox, ColdExecutor())
        original = base.run().signature
        assert original.kind is FailureKind.EXCEPTION and base.run().ok  # no expectation: any failure
        same = base.expecting(original)
        assert same("raise ValueError('bad')\n") and not same("raise ValueError('other')\n")
        switched = same.with_env({"OK": "1"})
        assert not switched.run().ok and switched.expecting_pass().run().ok
        assert switched.run_spec.env == {"OK": "1"} and base.run_spec.env == {}
    finally:
        sandbox.cleanup()
    passed = Signature(kind="passed", exit_code=0)
    assert meets(passed, MatchPolicy(), original, passes=True) and not meets(original, MatchPolicy(), original, passes=True)


def test_nothing_to_reproduce_is_its_own_error(tmp_path):
    script = tmp_path / "ok.py"
    script.write_text("print('fine')\n")
    with pytest.raises(NothingToReproduce, match="nothing to reproduce: the script exits 0"):
        reproduce(Check(spec_of(script)), runs=1)


def test_failure_kind_is_a_string_in_json():
    sig = Signature(kind="hang")
    assert sig.kind is FailureKind.HANG and sig.kind == "hang" and f"{sig.kind}" == "hang"
    assert json.loads(json.dumps(sig.to_dict()))["kind"] == "hang"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, timeout=300)


def test_cli_check_and_minimize_refuse_a_flake_that_passed_the_old_two_runs(tmp_path, state):
    script, counter = flaky_script(tmp_path, state, 3)  # F F, then P: the old rule said deterministic
    proc = cli("check", "--json", "--env", f"FLAKY_COUNTER={counter}", str(script))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert not data["deterministic"] and data["failures"] == data["runs"] - 1 and data["runs"] > 2

    counter.write_text("3")
    proc = cli("minimize", "--env", f"FLAKY_COUNTER={counter}", str(script))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "the failure is flaky" in proc.stderr and "--retries" in proc.stderr and "Traceback" not in proc.stderr
    assert not script.with_name("flaky.min.py").exists()


@pytest.mark.parametrize("runs, confirm, expected", [(1, 1, 1), (2, 4, 4), (3, 2, 3), (1, None, CONFIRM_RUNS)])
def test_cli_check_confirm_runs_sets_the_runs_in_all(tmp_path, runs, confirm, expected):
    """check --confirm-runs N: N runs in all (never fewer than --runs); the default is the rule's."""
    script = tmp_path / "det.py"
    script.write_text("raise KeyError('always')\n")
    more = [] if confirm is None else ["--confirm-runs", str(confirm)]
    proc = cli("check", "--json", "--runs", str(runs), *more, str(script))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["runs"] == data["failures"] == expected and data["deterministic"]


def test_cli_check_confirm_runs_stops_at_the_first_run_that_differs(tmp_path, state):
    script, counter = flaky_script(tmp_path, state, 3)  # F F, then P
    proc = cli("check", "--json", "--confirm-runs", "5", "--env", f"FLAKY_COUNTER={counter}", str(script))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert not data["deterministic"] and 2 < data["runs"] <= 5 and data["failures"] == data["runs"] - 1


def test_cli_minimize_reports_the_confirmed_runs(tmp_path):
    script = tmp_path / "det.py"
    script.write_text("x = 1\ny = 2\nraise KeyError('always')\n")
    proc = cli("minimize", "--json", "-j", "1", str(script))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["original_runs"] == report["original_failures"] == CONFIRM_RUNS
    assert report["signature"]["kind"] == "exception" and report["verified"] is True


def test_cli_bundle_minimize_uses_the_same_rule(tmp_path, state):
    script, counter = flaky_script(tmp_path, state, 2)  # P F: flaky within the first two runs
    proc = cli("bundle", "--minimize", "--out", str(tmp_path / "b"), "--env", f"FLAKY_COUNTER={counter}", str(script))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "the failure is flaky: 1 of 2 runs" in proc.stderr and "--retries N" in proc.stderr
    assert not (tmp_path / "b").exists()


def test_require_deterministic_is_the_one_refusal():
    from reportkit.failure.check import require_deterministic
    from reportkit.failure.signature import Reproduction

    flaky = Reproduction(signature=Signature(kind="exception", exc_type="RuntimeError"), runs=4, failures=3)
    with pytest.raises(FlakyFailure, match=r"3 of 4 runs failed the same way \(75%\)") as info:
        require_deterministic(flaky)
    assert info.value.exit_code == 1 and (info.value.failures, info.value.runs) == (3, 4)
    require_deterministic(flaky, retries=3)  # the user accepted the flake: a candidate must fail 3 of 3
    require_deterministic(Reproduction(signature=flaky.signature, runs=7, failures=7))


@pytest.mark.parametrize("brk", ["\n", "\r\n", "\u2028", "\x0b", "\x85"], ids=["lf", "crlf", "ls", "vt", "nel"])
def test_names_from_the_run_cannot_add_rows_to_checks_report(tmp_path, brk):
    """Round 30 (D2): a line break in the exception's class name, the raising frame's file name or its function name
    started a line of its own in check's text report (a forged ``sandbox  NONE`` row); each is written out as an
    escape, as the control sequences there are."""
    forged = f"{brk}  sandbox    NONE rk-FORGED"
    script = tmp_path / "names.py"
    script.write_text(f"""
E = type("RuntimeError" + {forged!r} + " type", (Exception,), {{}})
g = {{"E": E}}
exec(compile("\\n\\ndef f():\\n    raise E('boom')\\n", "x.py" + {forged!r} + " file", "exec"), g)
g["f"].__code__ = g["f"].__code__.replace(co_name="f" + {forged!r} + " function")
g["f"]()
""")
    proc = cli("check", "--runs", "1", "--confirm-runs", "1", str(script))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line for line in (proc.stdout + proc.stderr).splitlines() if line.lstrip().startswith("sandbox")]
    assert len(rows) == 1 and "rk-FORGED" not in rows[0], proc.stdout
    assert proc.stdout.count("rk-FORGED") == 3, proc.stdout  # shown, on the rows of the type and of where it raised
