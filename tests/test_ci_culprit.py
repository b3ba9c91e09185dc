"""`reportkit ci --good REV`: the culprit search over the diff (units, candidate files) and one issue per
culprit, end to end on a small library in a git repository made here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from reportkit.ci.ci import JUnitCase, is_test_code, recorded_failures
from reportkit.ci.culprit import culprit_fingerprint, file_content, load_hunks, make_units, parses
from reportkit.run.gitinfo import good_rev

LIB_GOOD = '''\
def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def neg(a):
    return -a


def values():
    return [
        1,
        2,
    ]


def broken_before():
    return 1 / 0
'''

TESTS = '''\
from lib import add, broken_before, mul, neg


def test_add():
    assert add(1, 2) == 3


def test_add_in_a_helper():
    check_sum(2, 2, 4)


def check_sum(a, b, want):
    got = add(a, b)
    if got != want:
        raise ValueError(f"{a}+{b} gave {got}")


def test_mul():
    assert mul(2, 3) == 6


def test_neg():
    assert neg(1) == -1


def test_pre_existing():
    assert broken_before() == 1
'''


def git(root: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True, env=env).stdout


def make_repo(root: Path) -> Path:
    """A library with a clean release tagged ``good``, then three commits: bug 1 (add), a harmless edit,
    bug 2 (mul); ``test_pre_existing`` fails on ``good`` already."""
    (root / "lib").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "lib" / "__init__.py").write_text(LIB_GOOD)
    (root / "tests" / "test_lib.py").write_text(TESTS)
    (root / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "release")
    git(root, "tag", "good")
    lib = root / "lib" / "__init__.py"
    for old, new, subject in [("return a + b", "return a - b", "add: faster"),
                              ("return -a", "return -a  # negation", "neg: comment"),
                              ("return a * b", "return a ** b", "mul: generalise")]:
        lib.write_text(lib.read_text().replace(old, new))
        git(root, "commit", "-qam", subject)
    return root


def test_units_keep_hunks_that_do_not_parse_alone_with_their_function(tmp_path):
    root = make_repo(tmp_path / "repo")
    lib = root / "lib" / "__init__.py"
    lib.write_text(lib.read_text().replace("    return [", "    return {").replace("    ]", "    }"))
    good = good_rev(root, "good")
    hunks = load_hunks(good, is_test_code)
    assert [(h.file, h.function) for h in hunks] == [("lib/__init__.py", f) for f in
                                                      ("add", "mul", "neg", "values", "values")]
    by_function = {h.function: h.id for h in hunks if h.function != "values"}
    brackets = tuple(h.id for h in hunks if h.function == "values")
    assert not parses("lib/__init__.py", file_content(hunks, {brackets[0]}))  # `{` without `}`
    units = make_units(hunks)
    assert sorted(units) == sorted([(by_function["add"],), (by_function["mul"],), (by_function["neg"],), brackets])
    # the fingerprint of a culprit is what it changes, not where: the same edit moved down stays the same
    assert culprit_fingerprint([hunks[0]]) != culprit_fingerprint([hunks[1]])


AMPM_GOOD = '''\
def to_24h(h, pm, time_only):
    t = time_only
    h = int(h)
    if pm and h == 12:
        pass
    elif pm:
        h += 12
    if t:
        d = ("time", h)
    else:
        d = ("datetime", h)
    return d
'''

AMPM_HEAD = '''\
def to_24h(h, pm, time_only):
    has_date = not time_only
    h = int(h)
    if pm:
        h += 12
    if has_date:
        d = ("datetime", h)
    else:
        d = ("time", h)
    return d
'''


def test_a_hunk_that_does_not_parse_alone_grows_to_its_statement_not_its_function(tmp_path):
    """parse's date_convert (held-out suite): an ``else:`` added after an ``if`` whose old ``else:`` another hunk
    removed is kept with that hunk (the ``if`` statement), not with every hunk of the function (the bug's too)."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "lib.py").write_text(AMPM_GOOD)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "release")
    git(root, "tag", "good")
    (root / "lib.py").write_text(AMPM_HEAD)
    hunks = load_hunks(good_rev(root, "good"), is_test_code)
    rows = [h.excerpt().splitlines() for h in hunks]
    assert [r[-1] for r in rows] == ["+    has_date = not time_only", "+    if pm:", "+    if has_date:",
                                     '+        d = ("time", h)']
    assert not parses("lib.py", file_content(hunks, {3}))  # the new `else:` alone: an `if` with two
    assert make_units(hunks) == [(0,), (1,), (2, 3)]  # the bug (1) stays a unit of its own


def test_recorded_failures_count_the_jobs_own_reruns():
    def case(outcome: str, reruns: int) -> JUnitCase:
        return JUnitCase("tests.test_a", "test_x", outcome, node="tests/test_a.py::test_x", reruns=reruns)

    assert recorded_failures([case("failure", 2)]) == 3  # the failure and its two reruns
    assert recorded_failures([case("failure", 0)]) == 0
    assert recorded_failures([case("flaky", 1)]) == 0  # it passed on a rerun: not a record of failing alike


def test_ci_good_files_one_failure_per_culprit(tmp_path):
    """Two bugs reached by four tests that fail in different places (the signature grouping makes a group of
    each), a harmless hunk, and a pre-existing failure: one failure per culprit, naming the planted hunk."""
    root = make_repo(tmp_path / "repo")
    junit = tmp_path / "results.xml"
    run = subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "4 failed" in run.stdout, run.stdout[-2000:]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "ci", "--junit", str(junit), "--repo-root", str(root),
                           "--out", str(out), "--no-ladder", "--good", "good", "--confirm-runs", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "reportkit-ci.json").read_text())
    groups = {tuple(sorted(t.split("::")[1] for t in f["tests"])): f for f in manifest["failures"]}
    assert sorted(groups) == [("test_add", "test_add_in_a_helper"), ("test_mul",), ("test_pre_existing",)], \
        [(f["headline"], f["tests"], f["verdict"]) for f in manifest["failures"]]
    add, mul, pre = groups[("test_add", "test_add_in_a_helper")], groups[("test_mul",)], groups[("test_pre_existing",)]
    assert [h["excerpt"] for h in add["culprit"]["hunks"]] == ["-    return a + b\n+    return a - b"]
    assert [h["excerpt"] for h in mul["culprit"]["hunks"]] == ["-    return a * b\n+    return a ** b"]
    assert add["culprit"]["commits"][0]["subject"] == "add: faster"
    assert (add["regression"], pre["regression"], pre["culprit"]) == ("regression", "pre-existing", None)
    assert add["fingerprint"] == add["culprit"]["fingerprint"] != mul["fingerprint"]
    issue = (out / add["issue_md"]).read_text()
    assert "### Culprit change" in issue and "+    return a - b" in issue and "add: faster" in issue
    search = manifest["culprit_search"]
    assert search["hunks"] == 3 and search["tests"] == 4 and search["runs"] > 0
    assert "Culprit search against `good" in (out / "summary.md").read_text()

    # without --good: a guess from which library functions the tests call (one traced run): each failure gets
    # the suspect its own tests point at, so test_add and test_add_in_a_helper (failing in different assertions)
    # are one failure (add), and test_mul stays apart although every failing test calls into lib
    out = tmp_path / "out-guess"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "ci", "--junit", str(junit), "--repo-root", str(root),
                           "--out", str(out), "--no-ladder", "--confirm-runs", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "reportkit-ci.json").read_text())
    suspects = {tuple(sorted(t.split("::")[1] for t in f["tests"])): f["suspect"] for f in manifest["failures"]}
    assert suspects == {("test_add", "test_add_in_a_helper"): "lib/__init__.py::add",
                        ("test_mul",): "lib/__init__.py::mul",
                        ("test_pre_existing",): "lib/__init__.py::broken_before"}, manifest["failures"]
    assert "a guess" in (out / "summary.md").read_text()


def _spectrum(functions: list, tests: dict):
    from reportkit.ci.spectrum import Spectrum, parse_output

    stdout = "collected 5 items\n....RK-SPECTRUM " + json.dumps({"functions": functions, "tests": tests}) + "\n"
    spectrum = Spectrum()
    spectrum.add(*parse_output(stdout))
    return spectrum


def test_spectrum_groups_failures_by_the_function_their_bug_is_in():
    """Ochiai over which library functions each failure's tests called: failures in different assertions (and a
    shared helper) through the same buggy function are one group; the function every test calls (the entry
    point, which the passing tests call too) is not the suspect."""
    from reportkit.ci.spectrum import group, parse_output

    functions = [["lib/core.py", "render"], ["lib/core.py", "pad"], ["lib/core.py", "align"],
                 ["tests/helpers.py", "assert_equal"], ["lib/core.py", "width"]]
    tests = {"tests/test_a.py::test_pad_1": [True, [0, 1, 3]],
             "tests/test_a.py::test_pad_2": [True, [0, 1, 3, 4]],
             "tests/test_a.py::test_align": [True, [0, 2, 3]],
             "tests/test_a.py::test_plain": [False, [0, 3, 4]],
             "tests/test_a.py::test_pad_ok": [False, [0, 1, 3]],
             **{f"tests/test_a.py::test_more[{i}]": [False, [0, 3]] for i in range(7)}}
    spectrum = _spectrum(functions, tests)
    found = group(spectrum, [["tests/test_a.py::test_pad_1"], ["tests/test_a.py::test_pad_2"],
                             ["tests/test_a.py::test_align"]], lambda file: not is_test_code(file))
    assert found == [(["tests/test_a.py::test_pad_1", "tests/test_a.py::test_pad_2"], ("lib/core.py", "pad")),
                     (["tests/test_a.py::test_align"], ("lib/core.py", "align"))]
    # one failure holding both bugs' tests (one exception type raised by both): the test that does not call
    # its suspect is split off
    assert group(spectrum, [["tests/test_a.py::test_pad_1", "tests/test_a.py::test_align",
                             "tests/test_a.py::test_pad_2"]], lambda file: not is_test_code(file)) == found
    assert parse_output("no record here\n") is None


def test_spectrum_keeps_two_bugs_apart_behind_a_function_all_failures_call():
    """examples/07's shape: a small library where one function (``per_stick``) is called by every failing test
    and by fewer passing ones than the buggy functions together: scored over all failures at once it would be
    every test's suspect (two bugs, one issue). Each failure scored on its own tests: ``count`` (its bug) for the
    copy and count tests, ``view`` for the view test."""
    from reportkit.ci.spectrum import group

    functions = [["lib.py", "per_stick"], ["lib.py", "count"], ["lib.py", "copy"], ["lib.py", "view"]]
    tests = {"tests/test_copy.py::test_copy[65]": [True, [0, 1, 2]],
             "tests/test_copy.py::test_copy[130]": [True, [0, 1, 2]],
             "tests/test_copy.py::test_copy[64]": [False, [0, 1, 2]],
             "tests/test_copy.py::test_copy[128]": [False, [0, 1, 2]],
             "tests/test_copy.py::test_dtype": [False, [0, 1, 2]],
             "tests/test_copy.py::test_view_exact": [False, [0, 3]],
             "tests/test_copy.py::test_view_padded": [True, [0, 3]],
             "tests/test_layout.py::test_per_stick": [False, [0]],
             "tests/test_layout.py::test_count_rounds_up": [True, [0, 1]]}
    spectrum = _spectrum(functions, tests)
    copy = ["tests/test_copy.py::test_copy[65]", "tests/test_copy.py::test_copy[130]"]
    view, count = ["tests/test_copy.py::test_view_padded"], ["tests/test_layout.py::test_count_rounds_up"]
    under_test = lambda file: not is_test_code(file)  # noqa: E731
    assert group(spectrum, [copy, view, count], under_test) == [(copy + count, ("lib.py", "count")),
                                                                (view, ("lib.py", "view"))]


def test_spectrum_merges_a_test_whose_own_suspect_is_an_entry_only_it_calls():
    """A failed test reaching the bug (``pct``) through an entry point no other test calls (``to_hex``) has that
    entry as its own suspect (Ochiai 1.0); with the other failures of that bug, ``pct`` explains all of them
    better, and all of them call it: one group. The function every test calls (``norm``) merges nothing."""
    from reportkit.ci.spectrum import group

    functions = [["lib.py", "to_hex"], ["lib.py", "pct"], ["lib.py", "to_rgb"], ["lib.py", "norm"]]
    tests = {"tests/test_c.py::test_hex": [True, [0, 1, 3]],
             **{f"tests/test_c.py::test_rgb_{i}": [True, [2, 1, 3]] for i in range(3)},
             "tests/test_c.py::test_rgb_ok": [False, [2, 1, 3]],
             "tests/test_c.py::test_rgb_plain": [False, [2, 3]],
             "tests/test_c.py::test_rgb_more": [False, [2, 3]],
             "tests/test_c.py::test_pct": [False, [1, 3]],
             **{f"tests/test_c.py::test_norm[{i}]": [False, [3]] for i in range(5)}}
    spectrum = _spectrum(functions, tests)
    hexa, rgb = ["tests/test_c.py::test_hex"], [f"tests/test_c.py::test_rgb_{i}" for i in range(3)]
    under_test = lambda file: not is_test_code(file)  # noqa: E731
    assert group(spectrum, [hexa, rgb[:1], rgb[1:2], rgb[2:]], under_test) == [(hexa + rgb, ("lib.py", "pct"))]


def test_spectrum_plugin_ignores_what_only_describes_a_failure(tmp_path):
    """The objects' ``__repr__`` (and what it calls) that pytest's assertion message runs after a test failed is
    not a function the test called: it would be a failure-only function, every failing test's suspect."""
    from reportkit.ci.spectrum import PLUGIN, PLUGIN_DIR, parse_output

    (tmp_path / "lib.py").write_text("class V:\n    def __init__(self, x):\n        self.x = x\n\n"
                                     "    def __eq__(self, other):\n        return self.x == other.x\n\n"
                                     "    def __repr__(self):\n        return f'V({show(self.x)})'\n\n\n"
                                     "def show(x):\n    return str(x)\n\n\ndef bump(v):\n    return V(v.x + 2)\n")
    (tmp_path / "test_lib.py").write_text("from lib import V, bump\n\n\ndef test_bump():\n"
                                          "    assert bump(V(1)) == V(2)\n\n\ndef test_eq():\n"
                                          "    assert V(1) == V(1)\n")
    env = {**os.environ, "PYTHONPATH": str(PLUGIN_DIR), "RK_SPECTRUM_ROOT": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN,
                           "test_lib.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    functions, tests = parse_output(proc.stdout)
    called = {node: (failed, sorted(functions[i][1] for i in ids)) for node, (failed, ids) in tests.items()}
    assert called == {"test_lib.py::test_bump": (True, ["V.__eq__", "V.__init__", "bump", "test_bump"]),
                      "test_lib.py::test_eq": (False, ["V.__eq__", "V.__init__", "test_eq"])}, proc.stdout[-3000:]


def test_ci_and_bundle_minimize_run_minimizes_fix_check(tmp_path, monkeypatch):
    """`ci --minimize` bundles a regression with its good revision as the fix check and the library under test
    kept imported (not folded in); `bundle --minimize` passes the fix check on to minimize like `minimize` does."""
    import reportkit.report.bundle as bundle_mod
    from reportkit.ci.ci import CiOptions, Failure, bundle_failure
    from reportkit.report.bundle import BundleOptions, minimize_first
    from reportkit.run.runner import target_spec

    root = make_repo(tmp_path / "repo")
    good = good_rev(root, "good")
    seen = {}

    def fake_make_bundle(spec, source, policy, options, on_step=None):
        seen["bundle"] = options
        raise bundle_mod.UserError("stop here")

    monkeypatch.setattr(bundle_mod, "make_bundle", fake_make_bundle)
    spec, source = target_spec(str(root / "tests" / "test_lib.py") + "::test_add", [], repo_root=root)
    failure = Failure(key="k", tests=["tests/test_lib.py::test_add"], verdict="confirmed", fingerprint="f" * 16,
                      regression="regression", representative="tests/test_lib.py::test_add")
    bundle_failure(failure, spec, source, CiOptions(out_dir=tmp_path / "out", repo_root=root, minimize=True), None,
                   lambda m: None, good)
    assert seen["bundle"].good is good and seen["bundle"].fold_local is False and seen["bundle"].minimize
    failure.regression = "pre-existing"  # it fails on the good code too: no fix check against it
    bundle_failure(failure, spec, source, CiOptions(out_dir=tmp_path / "out2", repo_root=root, minimize=True), None,
                   lambda m: None, good)
    assert seen["bundle"].good is None

    class Rep:
        deterministic = True

    def fake_minimize(spec, source, rep, policy, options):
        seen["minimize"] = options
        raise bundle_mod.UserError("stop here")

    monkeypatch.setattr(bundle_mod, "minimize", fake_minimize)
    monkeypatch.setattr(bundle_mod, "reproduce", lambda *a, **k: Rep())
    from reportkit.report.collect import Workspace

    for options, want_good, want_auto, fold in [(BundleOptions(minimize=True), None, True, True),
                                                (BundleOptions(minimize=True, good=good, fold_local=False), good,
                                                 False, False)]:
        try:
            minimize_first(spec, source, None, Workspace(), options, None)
        except bundle_mod.UserError:
            pass
        got = seen["minimize"]
        assert (got.good, got.good_auto, got.fold_local) == (want_good, want_auto, fold)


def test_confirm_runs_and_the_jobs_rerun_records_set_the_number_of_reruns(tmp_path, monkeypatch):
    """--confirm-runs N: N runs in all, the failed attempts the JUnit XML records counting among them."""
    import inspect

    import reportkit.failure.check as check_mod
    from reportkit import cli
    from reportkit.ci.ci import CiOptions, Failure, confirm
    from reportkit.failure.signature import FailureKind, Reproduction, Signature

    assert inspect.signature(cli.ci).parameters["confirm_runs"].default.default == check_mod.CONFIRM_RUNS
    root = make_repo(tmp_path / "repo")
    asked = {}
    sig = Signature(kind=FailureKind.EXCEPTION, exc_type="AssertionError", message="assert -1 == 3")

    def fake_reproduce(check, runs, source=None):
        asked["first"] = runs
        return Reproduction(signature=sig, runs=runs, failures=runs)

    def fake_confirm(rep, check, source=None, target=check_mod.CONFIRM_RUNS):
        asked["target"] = target
        rep.runs = rep.failures = max(rep.runs, target)
        return rep

    monkeypatch.setattr(check_mod, "reproduce", fake_reproduce)
    monkeypatch.setattr(check_mod, "confirm_with_warm", fake_confirm)
    node = "tests/test_lib.py::test_add"
    for reruns, confirm_runs, want in [(0, 3, (2, 3, 3)), (2, 3, (1, 1, 4)), (0, 1, (1, 1, 1)), (1, 7, (2, 5, 7))]:
        case = JUnitCase("tests.test_lib", "test_add", "failure", node=node, reruns=reruns)
        failure = Failure(key="k", tests=[node])
        confirm(failure, [case], CiOptions(out_dir=tmp_path / "o", repo_root=root, confirm_runs=confirm_runs),
                lambda m: None)
        assert (asked["first"], asked["target"], failure.runs) == want, (reruns, confirm_runs)
        assert failure.verdict == "confirmed"


def test_units_needed_only_together_are_dropped_together():
    """held-out sqlparse: a one-line bug (unit 4) in a function where another commit renamed a variable in two
    hunks (2, 3): with one of them alone the name is undefined (another failure), with both or neither the test
    fails as on HEAD. ddmin's result is 1-minimal with all three; the culprit is the bug alone."""
    from reportkit.ci.culprit import minimal_culprit

    def fails(applied: frozenset[int]) -> bool:
        return 4 in applied and (2 in applied) == (3 in applied)

    units = [(i,) for i in range(7)]
    assert minimal_culprit(units, fails) == (4,)
    assert minimal_culprit(units, fails, max_pairs=0) == (2, 3, 4)  # ddmin alone
    # a bug that needs both hunks of a change (a helper added and its call) keeps both
    assert minimal_culprit(units, lambda c: {1, 5} <= c) == (1, 5)
    assert minimal_culprit([(0, 1), (2,), (3, 4)], lambda c: {0, 3} <= c) == (0, 1, 3, 4)


def test_culprit_of_a_raise_in_the_library_leaves_out_hunks_that_only_move_it(tmp_path):
    """held-out semver: the test fails with a ValueError the library raises; hunks above the raise (a helper
    added) move its line, but the culprit is the hunk that makes it raise: the raise site is the library's
    function and statement, not its line number."""
    root = tmp_path / "repo"
    (root / "lib").mkdir(parents=True)
    (root / "tests").mkdir()
    lib = root / "lib" / "__init__.py"
    lib.write_text('def parse(s):\n    if not s.isdigit():\n        raise ValueError(f"not a number: {s!r}")\n'
                   '    return int(s)\n')
    (root / "tests" / "test_lib.py").write_text("from lib import parse\n\n\ndef test_parse():\n"
                                                "    assert parse('12') == 12\n")
    (root / "pytest.ini").write_text("[pytest]\npythonpath = .\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "release")
    git(root, "tag", "good")
    lib.write_text('def _digits(s):\n    """The digits of s."""\n    return "".join(c for c in s if c.isdigit())\n\n\n'
                   + lib.read_text().replace("s.isdigit()", "s.isalpha()"))
    git(root, "commit", "-qam", "parse: letters")
    junit = tmp_path / "results.xml"
    subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                   cwd=root, capture_output=True, text=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "ci", "--junit", str(junit), "--repo-root", str(root),
                           "--out", str(out), "--no-ladder", "--good", "good", "--confirm-runs", "1"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    (failure,) = json.loads((out / "reportkit-ci.json").read_text())["failures"]
    assert failure["signature"]["location"]["function"] == "parse" and failure["regression"] == "regression"
    assert [h["excerpt"] for h in failure["culprit"]["hunks"]] == \
        ["-    if not s.isdigit():\n+    if not s.isalpha():"]


def test_a_culprit_holding_another_tests_culprit_gets_a_second_opinion(tmp_path):
    """held-out cachetools: one LFU test's culprit came out as the bug's hunk and another bug's (a run of the bug's
    hunk alone had come out otherwise), its 7 siblings' as the bug's hunk alone: one bug, two issues. reconcile()
    runs such a test again with the smaller culprit only, and keeps the larger one only if it is needed."""
    from reportkit.ci.culprit import CulpritSearch
    from reportkit.failure.check import Check
    from reportkit.failure.signature import MatchPolicy
    from reportkit.run.runner import target_spec

    root = make_repo(tmp_path / "repo")
    good = good_rev(root, "good")

    def check(name: str) -> Check:
        spec, _source = target_spec(str(root / "tests" / "test_lib.py") + "::" + name, [], repo_root=root)
        return Check(spec, MatchPolicy())

    names = ["test_add", "test_add_in_a_helper", "test_mul"]
    with CulpritSearch(good, is_test=is_test_code, executor="cold") as search:
        search.prepare([check(n) for n in names])
        found = {n: search.search(n, check(n)) for n in names}
        add, mul = found["test_add"].hunks, found["test_mul"].hunks
        assert [len(found[n].hunks) for n in names] == [1, 1, 1] and add != mul
        assert search.reconcile() == 0  # nothing to reconcile
        found["test_add"].hunks = tuple(sorted(add + mul))  # as a run of `add` alone that came out passing leaves it
        found["test_mul"].hunks = tuple(sorted(add + mul))  # test_mul does need `mul`: `add` alone passes it
        assert search.reconcile() == 1
        assert found["test_add"].hunks == add and found["test_mul"].hunks == tuple(sorted(add + mul))
        assert search.stats.narrowed == 1


def _search_check(root: Path, name: str):
    from reportkit.failure.check import Check
    from reportkit.failure.signature import MatchPolicy
    from reportkit.run.runner import target_spec

    spec, _source = target_spec(str(root / "tests" / "test_lib.py") + "::" + name, [], repo_root=root)
    return Check(spec, MatchPolicy())


def test_the_search_is_bounded_by_runs_not_by_time(tmp_path):
    """The bound a user can predict: a number of test runs (of the --budget left, at the time one re-run took while
    confirming), the same on an idle and on a loaded machine; a search cut there says so."""
    from reportkit.ci.ci import MAX_SEARCH_RUNS, SEARCH_SHARE, Failure, search_run_bound
    from reportkit.ci.culprit import CulpritSearch

    def confirmed(seconds: float, runs: int) -> tuple:
        return (Failure(key="k", tests=["t"], seconds=seconds, runs=runs), [], None)

    # 600 s of --budget left, 3 s a run (the slowest failure's mean): 60 % of it is 120 runs
    assert search_run_bound(600.0, [confirmed(4.0, 2), confirmed(6.0, 2)]) == (
        int(SEARCH_SHARE * 600 / 3), "at most 120 runs (60% of the 600 s of --budget left, 3.0 s a run)")
    assert search_run_bound(None, [confirmed(6.0, 2)])[0] == MAX_SEARCH_RUNS  # no --budget: the fixed cap
    assert search_run_bound(1e9, [confirmed(6.0, 2)])[0] == MAX_SEARCH_RUNS

    root = make_repo(tmp_path / "repo")
    with CulpritSearch(good_rev(root, "good"), is_test=is_test_code, executor="cold", max_runs=3) as search:
        search.prepare([_search_check(root, "test_mul")])
        result = search.search("test_mul", _search_check(root, "test_mul"))
    # HEAD's tree, the good code, one candidate of ddmin's: then the bound, whatever the time
    assert (result.verdict, search.stats.runs) == ("unknown", 3)
    assert result.note == "search cut: the search's bound of 3 runs was reached"


def test_a_candidate_cut_by_the_short_timeout_is_run_again_with_the_tests_own(tmp_path, monkeypatch):
    """On a loaded machine a candidate can take longer than TIMEOUT_FACTOR x the time HEAD's run took: judged as a
    hang (not failing the same way), it would put a harmless hunk into the culprit. Here every candidate outlasts
    the short timeout (as if the machine got 100x slower after HEAD's run): each is run again with the test's own
    --timeout, and the culprit is the bug's hunk alone."""
    import reportkit.ci.culprit as culprit_mod
    from reportkit.ci.culprit import CulpritSearch

    monkeypatch.setattr(culprit_mod, "TIMEOUT_FACTOR", 0.01)
    monkeypatch.setattr(culprit_mod, "MIN_TIMEOUT", 0.01)
    root = make_repo(tmp_path / "repo")
    with CulpritSearch(good_rev(root, "good"), is_test=is_test_code, executor="cold") as search:
        search.prepare([_search_check(root, "test_mul")])
        result = search.search("test_mul", _search_check(root, "test_mul"))
        assert result.verdict == "culprit", result.note
        assert [h.excerpt() for h in search.hunks_of(result.hunks)] == ["-    return a * b\n+    return a ** b"]


def test_a_test_whose_search_did_not_conclude_goes_with_the_culprit_of_the_tests_failing_alike():
    """held-out semver: one test's search did not conclude, and it became an issue of its own next to its bug's
    (4 issues for 3 bugs). It goes with the one culprit of the tests that fail as it does (the other tests of its
    failure, else those whose failure on HEAD's tree is the same), its culprit unconfirmed; not guessed when they
    have several culprits."""
    from reportkit.ci.ci import Failure, culprit_key
    from reportkit.ci.culprit import TestCulprit
    from reportkit.failure.signature import MatchPolicy, Signature

    def sig(exc: str) -> Signature:
        return Signature(kind="exception", exc_type=exc, message="boom")

    cut = "search cut: the search's bound of 40 runs was reached"
    verdicts = {"t::a1": TestCulprit("t::a1", "unknown", note=cut, signature=sig("KeyError")),  # its failure's first
                "t::a2": TestCulprit("t::a2", "culprit", (3,), signature=sig("KeyError")),
                "t::a3": TestCulprit("t::a3", "culprit", (3,), signature=sig("KeyError")),
                "t::b1": TestCulprit("t::b1", "culprit", (5,), signature=sig("ValueError")),
                "t::c1": TestCulprit("t::c1", "unknown", note=cut, signature=sig("ValueError")),  # a failure alone
                "t::d1": TestCulprit("t::d1", "unknown", note=cut, signature=sig("TypeError")),  # like no other
                "t::e1": TestCulprit("t::e1", "unknown", note=cut),
                "t::e2": TestCulprit("t::e2", "culprit", (3,)), "t::e3": TestCulprit("t::e3", "culprit", (5,))}
    failures = {"a": Failure("a", ["t::a1", "t::a2", "t::a3"], "t::a1", fingerprint="fa"),
                "b": Failure("b", ["t::b1"], "t::b1", fingerprint="fb"),
                "c": Failure("c", ["t::c1"], "t::c1", fingerprint="fc"),
                "d": Failure("d", ["t::d1"], "t::d1", fingerprint="fd"),
                "e": Failure("e", ["t::e1", "t::e2", "t::e3"], "t::e1", fingerprint="fe")}
    unconfirmed: set[str] = set()
    key_of = culprit_key(verdicts, MatchPolicy(), unconfirmed)
    keys = {t: key_of(t, f) for f in failures.values() for t in f.tests}
    assert keys["t::a1"] == keys["t::a2"] == ("culprit", (3,))  # its failure's other tests' culprit
    assert keys["t::c1"] == keys["t::b1"] == ("culprit", (5,))  # fails as b1 does on HEAD's tree
    assert keys["t::d1"] == ("signature", "fd")  # like no finished test: a failure of its own
    assert keys["t::e1"] == ("signature", "fe")  # its failure's tests have two culprits: not guessed
    assert unconfirmed == {"t::a1", "t::c1"}

    from reportkit.ci.ci import CiReport, summary_markdown

    failure = Failure("a", ["t::a1", "t::a2", "t::a3"], "t::a1", fingerprint="fa", verdict="confirmed",
                      unconfirmed=["t::a1"])
    report = CiReport(out_dir="out", repo_root=".", junit=["r.xml"], total_cases=9, failed_cases=3,
                      failures=[failure])
    assert "- `fa` culprit unconfirmed for 1 test(s)" in summary_markdown(report)
