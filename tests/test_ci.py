"""`reportkit ci`: JUnit parsing, node ids, grouping, fingerprints, outputs; end to end on example 07."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fake_gh import FAKE_GH

from reportkit.ci.ci import (
    CiReport,
    Failure,
    JUnitCase,
    group_cases,
    parse_junit,
    resolve_node,
    summary_markdown,
    write_outputs,
    xml_key,
)
from reportkit.errors import UserError
from reportkit.failure.signature import Location, Signature, fingerprint

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "07_ci_failing_suite"

# What pytest --junitxml writes (xunit2): no file attribute; classname = module path (+ classes).
PYTEST_XML = """<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests"><testsuite name="pytest"
 errors="1" failures="3" skipped="1" tests="7">
<testcase classname="tests.test_copy" name="test_stick_copy_matches_clone[64]" time="0.1" />
<testcase classname="tests.test_copy" name="test_stick_copy_matches_clone[65]" time="0.002"><failure
 message="AssertionError: Tensor-likes are not close!&#10;&#10;Mismatched elements: 1 / 65 (1.5%)">size = 65

&gt;       torch.testing.assert_close(stick_copy(x), x.clone())
E       AssertionError: Tensor-likes are not close!

tests/test_copy.py:10: AssertionError</failure></testcase>
<testcase classname="tests.test_copy" name="test_stick_copy_matches_clone[130]" time="0.002"><failure
 message="AssertionError: Tensor-likes are not close!&#10;&#10;Mismatched elements: 2 / 130 (1.5%)">size = 130

tests/test_copy.py:10: AssertionError</failure></testcase>
<testcase classname="tests.test_copy" name="test_to_sticks_padded[65]" time="0.003"><failure
 message="RuntimeError: shape '[-1, 64]' is invalid for input of size 65">x = tensor([0.])

stickops/__init__.py:33: RuntimeError</failure></testcase>
<testcase classname="tests.test_layout.TestLayout" name="test_stick_count_rounds_up" time="0.001"><error
 message="failed on setup with &quot;OSError: no device&quot;">conftest.py:9: OSError</error></testcase>
<testcase classname="tests.test_layout.TestLayout" name="test_skipped" time="0"><skipped message="no" /></testcase>
<testcase classname="" name="tests.test_broken" time="0"><error message="collection failure">tests/test_broken.py:1: in
 &lt;module&gt;
E   ModuleNotFoundError: No module named 'nope'</error></testcase>
</testsuite></testsuites>
"""

# What unittest-xml-reporting (xmlrunner) writes: type/message attributes, a Python traceback, file/line.
XMLRUNNER_XML = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="test_layout.TestLayout-20261121172000" tests="2" file="tests/test_layout.py" time="0.003"
   failures="1" errors="0" skipped="0">
    <testcase classname="test_layout.TestLayout" name="test_elems_per_stick" time="0.001"
     file="tests/test_layout.py" line="9"/>
    <testcase classname="test_layout.TestLayout" name="test_stick_count_rounds_up" time="0.001"
     file="tests/test_layout.py" line="13">
      <failure type="AssertionError" message="1 != 2 : numel=65"><![CDATA[Traceback (most recent call last):
  File "/home/runner/work/x/x/tests/test_layout.py", line 15, in test_stick_count_rounds_up
    self.assertEqual(stick_count(numel), sticks, f"numel={numel}")
AssertionError: 1 != 2 : numel=65
]]></failure>
    </testcase>
  </testsuite>
</testsuites>
"""


def test_parse_pytest_flavour(tmp_path):
    xml = tmp_path / "r.xml"
    xml.write_text(PYTEST_XML)
    cases = parse_junit(xml)
    assert [c.outcome for c in cases] == ["passed", "failure", "failure", "failure", "error", "skipped", "error"]
    assert cases[1].message.startswith("AssertionError: Tensor-likes are not close!")
    assert "tests/test_copy.py:10: AssertionError" in cases[1].text


def test_parse_xmlrunner_flavour(tmp_path):
    xml = tmp_path / "r.xml"
    xml.write_text(XMLRUNNER_XML)
    failed = [c for c in parse_junit(xml) if c.outcome == "failure"]
    assert len(failed) == 1
    assert (failed[0].exc_type, failed[0].file) == ("AssertionError", "tests/test_layout.py")


@pytest.mark.parametrize("content, fragment", [
    (None, "no such JUnit XML file"),
    ("<testsuite><testcase", "not valid XML"),
    ("<html><body/></html>", "not a JUnit XML report"),
])
def test_bad_junit_is_one_clear_error(tmp_path, content, fragment):
    xml = tmp_path / "r.xml"
    if content is not None:
        xml.write_text(content)
    with pytest.raises(UserError, match=fragment):
        parse_junit(xml)


@pytest.mark.parametrize("classname, name, file, node", [
    ("tests.test_copy", "test_stick_copy_matches_clone[65]", "", "tests/test_copy.py::test_stick_copy_matches_clone[65]"),
    ("tests.test_layout.TestLayout", "test_stick_count_rounds_up", "",
     "tests/test_layout.py::TestLayout::test_stick_count_rounds_up"),
    ("test_layout.TestLayout", "test_stick_count_rounds_up", "tests/test_layout.py",
     "tests/test_layout.py::TestLayout::test_stick_count_rounds_up"),
    ("", "tests.test_copy", "", "tests/test_copy.py"),  # a collection error: the whole module
    ("tests.test_gone", "test_x", "", ""),
    ("test_layout.TestLayout", "test_elems_per_stick", "", "tests/test_layout.py::TestLayout::test_elems_per_stick"),
])
def test_resolve_node(classname, name, file, node):
    case = JUnitCase(classname=classname, name=name, outcome="failure", file=file)
    assert resolve_node(case, [EXAMPLE]) == node


def test_grouping_by_what_the_xml_says(tmp_path):
    xml = tmp_path / "r.xml"
    xml.write_text(PYTEST_XML)
    failed = [c for c in parse_junit(xml) if c.outcome in ("failure", "error")]
    groups = list(group_cases(failed).values())
    assert [[c.name for c in g] for g in groups] == [
        ["test_stick_copy_matches_clone[65]", "test_stick_copy_matches_clone[130]"],  # numbers normalized
        ["test_to_sticks_padded[65]"], ["test_stick_count_rounds_up"], ["tests.test_broken"]]
    assert xml_key(groups[1][0]) == ("RuntimeError", "shape '[N, N]' is invalid for input of size N", "__init__.py",
                                     "")  # a library raise: message (signs folded) and file; no call site
    assert xml_key(groups[0][0]) == ("AssertionError", "", "test_copy.py", "test_copy.py:10")  # the test's own


# Two bugs behind one shared assert helper (empty message), one of them in two parametrized tests, and
# unittest's assertEqual (pytest hides its frames) with messages that differ only in numbers.
HELPER_XML = """<testsuite><testcase classname="tests.test_x" name="test_f[1]"><failure message="AssertionError">n = 1
&gt;       assert_equal(f(n), n + 2)

tests/test_x.py:7:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

a = 2, b = 3, msg = ''
&gt;       assert a == b, msg
E       AssertionError

tests/common.py:2: AssertionError</failure></testcase>
<testcase classname="tests.test_x" name="test_f[2]"><failure message="AssertionError">n = 2
tests/test_x.py:7:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
E       AssertionError

tests/common.py:2: AssertionError</failure></testcase>
<testcase classname="tests.test_x" name="test_g"><failure message="AssertionError">def test_g():
tests/test_x.py:10:
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _
E       AssertionError

tests/common.py:2: AssertionError</failure></testcase>
<testcase classname="tests.test_r.T" name="test_nth"><failure message="AssertionError: 1 != 0">
E       AssertionError: 1 != 0

tests/test_r.py:20: AssertionError</failure></testcase>
<testcase classname="tests.test_r.T" name="test_quantify"><failure message="AssertionError: 9 != 5">
E       AssertionError: 9 != 5

tests/test_r.py:31: AssertionError</failure></testcase>
</testsuite>"""


def test_grouping_on_the_test_side_call_site(tmp_path):
    xml = tmp_path / "r.xml"
    xml.write_text(HELPER_XML)
    groups = list(group_cases([c for c in parse_junit(xml) if c.outcome == "failure"]).values())
    assert [[c.name for c in g] for g in groups] == [["test_f[1]", "test_f[2]"], ["test_g"], ["test_nth"],
                                                     ["test_quantify"]]


@pytest.mark.parametrize("a, b", [("assert '-13th' == '-13rd'", "assert '13th' == '13rd'"),
                                  ("shape '[-1, 64]' is invalid", "shape '[1, 64]' is invalid")])
def test_signs_are_folded(a, b):
    from reportkit.ci.ci import fold_signs
    from reportkit.failure.signature import Normalizer

    norm = Normalizer()
    assert fold_signs(norm.message_key(a)) == fold_signs(norm.message_key(b))
    assert fold_signs("x-N") == "x-N"  # a subtraction keeps its operator


def test_split_by_frames_reruns_each_path_up_to_a_limit(tmp_path):
    from reportkit.ci.ci import split_by_frames

    cases = [JUnitCase("m", f"t{i}", "failure", text=f"tests/test_a.py:{10 + i % 5}: \nlib/x.py:3: ValueError")
             for i in range(10)]
    parts = split_by_frames(cases)
    assert len(parts) == 3 and sum(len(p) for p in parts) == 10
    assert [c.name for c in parts[0]] == ["t0", "t5"]


def test_ci_fingerprint_per_bug_not_per_test():
    from reportkit.ci.ci import ci_fingerprint

    def sig(loc, site, message="", exc="AssertionError"):
        return Signature(kind="exception", exc_type=exc, message=message, location=loc, script_frame=site)

    helper = Location("tests/common.py", "assert_equal", 2, "assert a == b, msg", user_code=True)
    site_f = Location("test_x.py", "test_f", 7, "assert_equal(f(n), n + N)", in_script=True, user_code=True)
    site_g = Location("test_x.py", "test_g", 10, "assert_equal(g(N), N)", in_script=True, user_code=True)
    assert ci_fingerprint(sig(helper, site_f)) != ci_fingerprint(sig(helper, site_g))  # two bugs, one helper
    moved = Location("test_x.py", "test_f", 9, "assert_equal(f(n), n + N)", in_script=True, user_code=True)
    assert ci_fingerprint(sig(helper, site_f)) == ci_fingerprint(sig(helper, moved))  # lines do not matter
    own = Location("test_x.py", "test_o", 3, "assert ordinalize(n) == want", in_script=True, user_code=True)
    assert ci_fingerprint(sig(own, own, "assert '-Nth' == '-Nst'")) == \
        ci_fingerprint(sig(own, own, "assert 'Nth' == 'Nrd'"))  # the values differ per parameter
    lib = Location("isodate/isotime.py", "parse_time", 106, "second = ...", user_code=True)
    one = Location("test_time.py", "test_parse", 5, "parse_time(s)", in_script=True, user_code=True)
    two = Location("test_datetime.py", "test_parse", 8, "parse_datetime(s)", in_script=True, user_code=True)
    err = "'float' object has no attribute 'quantize'"
    assert ci_fingerprint(sig(lib, one, err, "AttributeError")) == ci_fingerprint(sig(lib, two, err, "AttributeError"))
    assert ci_fingerprint(sig(lib, one, err, "AttributeError")) != ci_fingerprint(sig(lib, one, "other", "AttributeError"))


def _sig(line: int, workdir_file: str, exc_type: str = "AssertionError", message: str = "Tensor-likes are not close!"):
    return Signature(kind="exception", exc_type=exc_type, message=message,
                     location=Location("torch/testing/_comparison.py", "assert_close", line, "raise error"),
                     script_frame=Location(workdir_file, "test_clone", line + 3, "assert_close(a, b)", in_script=True))


def test_fingerprint_ignores_lines_and_paths_not_the_failure():
    fp = fingerprint(_sig(10, "test_ops.py"))
    assert len(fp) == 16 and int(fp, 16) >= 0
    assert fingerprint(_sig(99, "/home/u/repo/tests/test_ops.py")) == fp
    assert fingerprint(_sig(10, "test_ops.py", exc_type="RuntimeError")) != fp
    assert fingerprint(_sig(10, "test_ops.py", message="Scalars are not equal!")) != fp


def test_outputs_go_to_the_github_files(tmp_path, monkeypatch):
    summary, output = tmp_path / "summary", tmp_path / "output"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.setenv("GITHUB_OUTPUT", str(output))
    report = CiReport(out_dir=str(tmp_path / "out"), repo_root=".", junit=["r.xml"], total_cases=3, failed_cases=2,
                      failures=[Failure(key="k", tests=["t.py::a", "t.py::b"], headline="ValueError: x | y",
                                        verdict="confirmed", fingerprint="0123456789abcdef", runs=2, failed_runs=2,
                                        bundle_dir="bundles/0123456789abcdef")])
    (tmp_path / "out").mkdir()
    outputs = write_outputs(report, tmp_path / "out")
    assert summary.read_text().startswith("earlier step\n## reportkit: failed tests")
    assert "ValueError: x \\| y" in summary.read_text()  # table cells stay cells
    lines = output.read_text().splitlines()
    assert "count=1" in lines and "fingerprints=0123456789abcdef" in lines
    assert outputs["bundle-dir"] == str((tmp_path / "out").resolve())
    manifest = json.loads((tmp_path / "out" / "reportkit-ci.json").read_text())
    assert manifest["failures"][0]["tests"] == ["t.py::a", "t.py::b"]


def test_step_summary_stays_under_one_mib(tmp_path, monkeypatch):
    summary = tmp_path / "summary"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    failures = [Failure(key=str(i), tests=[f"tests/test_{i}.py::test_{'x' * 200}"] * 8, headline="E: " + "y" * 300,
                        verdict="confirmed", fingerprint=f"{i:016x}") for i in range(900)]
    report = CiReport(out_dir=str(tmp_path), repo_root=".", junit=[], total_cases=900, failed_cases=900,
                      failures=failures)  # (900 such failures are ~1.3 MB of Markdown: just over the limit)
    assert len(summary_markdown(report).encode()) > 1024 * 1024
    write_outputs(report, tmp_path)
    assert summary.stat().st_size <= 1024 * 1024
    assert "truncated" in summary.read_text()


def reportkit(*args: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=900)


def test_cli_bad_junit_exits_2(tmp_path):
    proc = reportkit("ci", "--junit", str(tmp_path / "missing.xml"), cwd=tmp_path)
    assert proc.returncode == 2 and "no such JUnit XML file" in proc.stderr and "Traceback" not in proc.stderr


def test_cli_a_fifo_for_junit_is_refused_at_once(tmp_path):
    """Round 11 of sandbox attacks (blind): a pull request's conftest replaced results.xml by a FIFO and `ci` waited
    for a writer for ever, whatever --budget said; beside a real report too (the Action passes its glob's matches)."""
    (tmp_path / "real.xml").write_text(XMLRUNNER_XML)
    os.mkfifo(tmp_path / "results.xml")
    proc = reportkit("ci", "--junit", "real.xml", "--junit", "results.xml", "--budget", "3", cwd=tmp_path)
    assert proc.returncode == 2 and "not a regular file" in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "link.xml").symlink_to(tmp_path / "real.xml")  # a link to a report is the user's input: read
    assert [c.name for c in parse_junit(tmp_path / "link.xml")] == [c.name for c in parse_junit(tmp_path / "real.xml")]


def test_a_fifo_in_the_checkout_is_not_read_by_ci(tmp_path):
    """A conftest.py or a source file that is a FIFO (a pull request's) is read as nothing, not waited on."""
    from types import SimpleNamespace

    from reportkit.ci.ci import _conftest_text
    from reportkit.ci.culprit import _read

    (tmp_path / "tests").mkdir()
    os.mkfifo(tmp_path / "tests" / "conftest.py")
    (tmp_path / "conftest.py").write_text("import torch_spyre\n")
    spec = SimpleNamespace(root=tmp_path, script=tmp_path / "tests" / "test_x.py")
    assert _conftest_text(spec) == "import torch_spyre\n"
    assert _read(tmp_path / "tests" / "conftest.py") == ""


def test_cli_refuses_a_used_output_dir(tmp_path):
    (tmp_path / "r.xml").write_text(XMLRUNNER_XML)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    proc = reportkit("ci", "--junit", "r.xml", "--out", "out", cwd=tmp_path)
    assert proc.returncode == 2 and "already exists" in proc.stderr
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"


@pytest.mark.slow
@pytest.mark.torch
def test_end_to_end_on_the_failing_example_suite(tmp_path):
    """pytest --junitxml over examples/07, then `reportkit ci`, then `reportkit publish` with a fake gh. (Stable
    fingerprints across jobs and `ci --minimize` are shown on a copy of the suite without torch, in
    test_ci_minimize_and_stable_fingerprints_on_the_example_suite_without_torch: re-running this one took 2 of
    its 3 minutes.)"""
    junit = tmp_path / "results.xml"
    run = subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                         cwd=EXAMPLE, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1, run.stdout  # the suite fails: 4 tests, 3 distinct ways
    before = {p: p.read_bytes() for p in EXAMPLE.rglob("*") if p.is_file()}

    summary, output, out = tmp_path / "step-summary.md", tmp_path / "step-output", tmp_path / "ci"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    env.update(GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output))
    proc = reportkit("ci", "--junit", str(junit), "--repo-root", str(EXAMPLE), "--out", str(out), "--json",
                     "--confirm-runs", "2", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "reportkit-ci.json").read_text())
    failures = manifest["failures"]
    # one failure per bug (no --good: the guess by suspect function): stick_count's rounding (the clone tests and
    # unittest's assertEqual, three ways of failing) and to_sticks' missing padding
    assert [len(f["tests"]) for f in failures] == [3, 1]
    assert {f["verdict"] for f in failures} == {"confirmed"}
    assert failures[0]["tests"] == ["tests/test_copy.py::test_stick_copy_matches_clone[65]",
                                    "tests/test_copy.py::test_stick_copy_matches_clone[130]",
                                    "tests/test_layout.py::TestLayout::test_stick_count_rounds_up"]
    assert [f["suspect"] for f in failures] == ["stickops/__init__.py::stick_count", "stickops/__init__.py::to_sticks"]
    assert [f["signature"]["exc_type"] for f in failures] == ["AssertionError", "RuntimeError"]
    fps = [f["fingerprint"] for f in failures]
    assert len(set(fps)) == 2
    for f in failures:  # one bundle per distinct failure, with an issue body
        issue = (out / f["issue_md"]).read_text()
        assert f["representative"] in issue and "python -m pytest" in issue
        assert (out / f["bundle_dir"] / "reproducer" / "conftest" / "conftest.py").is_file()
    table = summary.read_text()
    # every failure reproduced on every re-run (2 per test re-run; a group whose XML tracebacks differ re-runs
    # more than one of its tests)
    assert len(re.findall(r"\| reproduced \((\d+)/\1 runs\) \|", table)) == 2 and all(fp in table for fp in fps)
    lines = output.read_text().splitlines()
    assert f"fingerprints={' '.join(fps)}" in lines and "count=2" in lines
    assert {p: p.read_bytes() for p in EXAMPLE.rglob("*") if p.is_file()} == before  # nothing touched

    # publish: the second failure already has an open issue; the others are new
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "gh").write_text(FAKE_GH)
    (bindir / "gh").chmod(0o755)
    issues = tmp_path / "issues.json"
    issues.write_text(json.dumps([{"number": 7, "url": "https://github.com/o/r/issues/7", "state": "open",
                                   "body": f"<!-- reportkit:fingerprint={fps[1]} -->\nold report"}]))
    log = tmp_path / "gh.jsonl"
    penv = {**env, "PATH": f"{bindir}{os.pathsep}{env['PATH']}", "FAKE_GH_LOG": str(log),
            "FAKE_GH_ISSUES": str(issues), "GH_TOKEN": "t"}
    pub = reportkit("publish", str(out), "--repo", "o/r", cwd=tmp_path, env=penv)
    assert pub.returncode == 0, pub.stderr
    gh_calls = [json.loads(line) for line in log.read_text().splitlines()]
    created = [c for c in gh_calls if c["args"][:2] == ["issue", "create"]]
    commented = [c for c in gh_calls if c["args"][:2] == ["issue", "comment"]]
    assert len(created) == 1 and len(commented) == 1 and commented[0]["args"][2] == "7"
    assert created[0]["body"].split("\n")[0] == f"<!-- reportkit:fingerprint={fps[0]} -->"
    assert all(len(c["body"]) <= 65536 for c in created)



STICKOPS = """\
STICK = 64


def stick_count(n):
    return n // STICK


def stick_copy(xs):
    out = []
    for i in range(stick_count(len(xs))):
        out.extend(xs[i * STICK:(i + 1) * STICK])
    return out


def assert_close(got, want):
    if got != want:
        raise AssertionError(f"lists are not close! {len(got)} vs {len(want)} elements")


def to_sticks(xs):
    if len(xs) % STICK:
        raise RuntimeError(f"shape '[-1, {STICK}]' is invalid for input of size {len(xs)}")
    return [xs[i:i + STICK] for i in range(0, len(xs), STICK)]
"""

STICK_TESTS = """\
import random

import pytest
from stickops import assert_close, stick_copy, to_sticks


@pytest.mark.parametrize("size", [64, 128, 65, 130])
def test_stick_copy_matches_clone(size, half):
    x = [random.random() for _ in range(size)]
    assert_close(stick_copy(x), x)


@pytest.mark.parametrize("size", [65])
def test_to_sticks_padded(size, half):
    assert len(to_sticks(list(range(size)))) == 2
"""

STICK_CONFTEST = """\
import random

import pytest


@pytest.fixture
def half():
    return "float16"


@pytest.fixture(autouse=True)
def seeded():
    random.seed(0)
    yield
"""


def test_ci_minimize_and_stable_fingerprints_on_the_example_suite_without_torch(tmp_path):
    """examples/07's shape (a conftest fixture and an autouse one, a parametrized test, two bugs, a library's
    assert_close as torch.testing's) without torch: a
    second job finds the same fingerprints, and `ci --minimize` bundles the minimized module and the standalone
    script (shown in issue.md), the test called with its parameter and without the fixture it no longer reads."""
    root = tmp_path / "suite"
    (root / "stickops").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "stickops" / "__init__.py").write_text(STICKOPS)
    (root / "tests" / "test_copy.py").write_text(STICK_TESTS)
    (root / "conftest.py").write_text(STICK_CONFTEST)
    (root / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    junit = tmp_path / "results.xml"
    run = subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1 and "3 failed" in run.stdout, run.stdout
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    first = reportkit("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(tmp_path / "ci"), "--json",
                      "--no-ladder", "--confirm-runs", "1", cwd=tmp_path, env=env)
    assert first.returncode == 0, first.stderr
    failures = json.loads(first.stdout)["failures"]
    assert [(len(f["tests"]), f["suspect"]) for f in failures] == [(2, "stickops/__init__.py::stick_count"),
                                                                  (1, "stickops/__init__.py::to_sticks")]
    fps = [f["fingerprint"] for f in failures]

    mini = reportkit("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(tmp_path / "ci2"), "--json",
                     "--no-ladder", "--confirm-runs", "1", "--minimize", "--max-tests", "1", cwd=tmp_path, env=env)
    assert mini.returncode == 0, mini.stderr
    found = json.loads(mini.stdout)
    one = found["failures"][0]
    assert one["fingerprint"] == fps[0]  # another job, the same fingerprint
    assert one["minimized"].endswith("reproducer/repro_test_copy.py")
    standalone = (tmp_path / "ci2" / one["minimized"]).read_text()
    assert re.search(r"test_stick_copy_matches_clone\(size=65\)", standalone), standalone
    assert "python tests/repro_test_copy.py" in (tmp_path / "ci2" / one["issue_md"]).read_text()
    assert found["not_examined"] == ["tests/test_copy.py::test_stick_copy_matches_clone[130]",
                                     "tests/test_copy.py::test_to_sticks_padded[65]"]


def test_ci_end_to_end_on_a_pure_python_suite(tmp_path):
    """Fast (no torch): two tests failing one way (messages differ only in numbers), one another way."""
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (root / "tests" / "test_parse.py").write_text(
        "import pytest\n\n\n@pytest.mark.parametrize('text', ['1', '-1', '-20'])\ndef test_int(text):\n"
        "    assert int(text) >= 0\n\n\ndef test_split():\n    assert 'a,b'.split(',')[2] == 'c'\n")
    junit = tmp_path / "results.xml"
    subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                   cwd=root, capture_output=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    env.update(GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(tmp_path))
    proc = reportkit("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(tmp_path / "out"),
                     "--no-ladder", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    # annotations (no token needed: fork pull requests get them too) at the test-side line of each failure
    errors = [line for line in proc.stdout.splitlines() if line.startswith("::error ")]
    assert errors[0].startswith("::error file=repo/tests/test_parse.py,line=6,title=reportkit%3A AssertionError")
    assert errors[1].startswith("::error file=repo/tests/test_parse.py,line=10,title=reportkit%3A IndexError")
    assert len(errors) == 2 and "fingerprint" in errors[0]
    assert proc.stderr.count("::group::reportkit: re-running") == 2 and proc.stderr.count("::endgroup::") == 2
    assert proc.stderr.count("re-running") == 2  # a group's title is not repeated as a plain line
    assert "TORCH_SPYRE_DEBUG" not in proc.stderr and "debug run (timeout" in proc.stderr  # no torch_spyre here
    manifest = json.loads((tmp_path / "out" / "reportkit-ci.json").read_text())
    assert (manifest["total_cases"], manifest["failed_cases"]) == (4, 3)
    assert [(f["tests"], f["signature"]["exc_type"]) for f in manifest["failures"]] == [
        (["tests/test_parse.py::test_int[-1]", "tests/test_parse.py::test_int[-20]"], "AssertionError"),
        (["tests/test_parse.py::test_split"], "IndexError")]
    for f in manifest["failures"]:
        assert f["verdict"] == "confirmed" and (tmp_path / "out" / f["issue_md"]).is_file()
    assert "2 distinct failure(s)" in proc.stdout


def test_sigterm_keeps_what_was_found(tmp_path):
    """A cancelled job (SIGTERM) still writes the manifest: examined failures, the rest not examined."""
    import signal
    import time

    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "tests" / "test_a.py").write_text(
        "import time\n\n\ndef test_fast():\n    assert 1 == 2\n\n\ndef test_hangs():\n    time.sleep(600)\n")
    junit = tmp_path / "r.xml"
    junit.write_text('<testsuite><testcase classname="tests.test_a" name="test_fast"><failure message="assert 1 == 2">'
                     'tests/test_a.py:5: AssertionError</failure></testcase><testcase classname="tests.test_a" '
                     'name="test_hangs"><failure message="Failed: Timeout">tests/test_a.py:9: Failed</failure>'
                     '</testcase></testsuite>')
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "reportkit", "ci", "--junit", str(junit), "--repo-root", str(root),
                             "--out", str(out), "--no-ladder", "--timeout", "300"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    import threading

    lines: list[str] = []
    started = threading.Event()

    def read_progress() -> None:  # the first failure is re-run; the second test then hangs in its re-run
        for line in proc.stderr:
            lines.append(line)
            if "re-running tests/test_a.py::test_hangs" in line:
                started.set()

    reader = threading.Thread(target=read_progress, daemon=True)
    reader.start()
    assert started.wait(120), "".join(lines)
    time.sleep(2)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=120)  # (its stdout, a summary, fits the pipe's buffer)
    stdout = proc.stdout.read()
    reader.join(timeout=30)
    stderr = "".join(lines)
    assert proc.returncode == 130, stdout + stderr
    manifest = json.loads((out / "reportkit-ci.json").read_text())
    assert manifest["interrupted"] is True
    assert [f["tests"] for f in manifest["failures"]] == [["tests/test_a.py::test_fast"]]
    assert manifest["not_examined"] == ["tests/test_a.py::test_hangs"]
    assert "Traceback" not in stderr


def test_budget_bounds_the_wall_time_with_a_hanging_test(tmp_path):
    """--budget 3 with a test that hangs and --timeout 60: the run in flight is cut at the budget."""
    import time

    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "tests" / "test_a.py").write_text(
        "import time\n\n\ndef test_hangs():\n    time.sleep(600)\n\n\ndef test_fails():\n    assert 1 == 2\n")
    junit = tmp_path / "r.xml"
    junit.write_text('<testsuite><testcase classname="tests.test_a" name="test_hangs"><failure message="Failed: '
                     'Timeout">tests/test_a.py:5: Failed</failure></testcase><testcase classname="tests.test_a" '
                     'name="test_fails"><failure message="assert 1 == 2">tests/test_a.py:9: AssertionError'
                     '</failure></testcase></testsuite>')
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    start = time.monotonic()
    proc = reportkit("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(out), "--no-ladder",
                     "--budget", "3", "--timeout", "60", cwd=tmp_path, env=env)
    took = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    assert took < 15, f"--budget 3 took {took:.1f} s"
    manifest = json.loads((out / "reportkit-ci.json").read_text())
    assert manifest["budget_exhausted"] is True
    verdicts = {f["tests"][0]: (f["verdict"], f["note"]) for f in manifest["failures"]}
    assert verdicts["tests/test_a.py::test_hangs"] == ("skipped", "re-run cut at the time budget")
    assert verdicts["tests/test_a.py::test_fails"][0] == "skipped"  # never reached
    assert "Time budget used up" in (out / "summary.md").read_text()
    assert "time budget used up" in proc.stdout


SUITES = Path(__file__).resolve().parent / "fixtures" / "suites"


@pytest.mark.slow
# one per family in CI: inflection (one bug) and more_itertools (two bugs, one test file); isodate under -m corpus
@pytest.mark.parametrize("suite, bugs", [("inflection", 1), pytest.param("isodate", 1, marks=pytest.mark.corpus),
                                         ("more_itertools", 2)])
def test_real_suites_one_failure_per_bug(tmp_path, suite, bugs):
    """Real libraries' suites (vendored from their sdists) with injected bugs: one failure per bug."""
    import shutil

    root = tmp_path / suite
    shutil.copytree(SUITES / suite, root)
    subprocess.run(["patch", "-p1", "-s", "-i", "bugs.patch"], cwd=root, check=True, timeout=60)
    junit = tmp_path / "results.xml"
    run = subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout[-2000:]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    proc = reportkit("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(tmp_path / "out"),
                     "--no-ladder", "--template", "pytorch", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    failures = json.loads((tmp_path / "out" / "reportkit-ci.json").read_text())["failures"]
    assert [f["verdict"] for f in failures] == ["confirmed"] * bugs, [(f["headline"], f["tests"]) for f in failures]
    assert len({f["fingerprint"] for f in failures}) == bugs


def test_rerun_and_flaky_records_are_read(tmp_path):
    xml = tmp_path / "r.xml"
    xml.write_text("""<testsuite>
<testcase classname="tests.test_a" name="test_flaky"><flakyFailure message="boom" type="ValueError">
<stackTrace>tests/test_a.py:3: ValueError</stackTrace></flakyFailure></testcase>
<testcase classname="tests.test_a" name="test_broken"><failure message="assert 1 == 2">tests/test_a.py:7: AssertionError
</failure><rerunFailure message="assert 1 == 2" type="AssertionError">again</rerunFailure>
<rerunFailure message="assert 1 == 2" type="AssertionError">again</rerunFailure></testcase>
<testcase classname="tests.test_a" name="test_ok"/></testsuite>""")
    cases = parse_junit(xml)
    assert [(c.outcome, c.reruns) for c in cases] == [("flaky", 1), ("failure", 2), ("passed", 0)]
    assert (cases[0].exc_type, cases[0].message, cases[0].text) == ("ValueError", "boom", "tests/test_a.py:3: ValueError")
    assert cases[1].message == "assert 1 == 2" and "tests/test_a.py:7" in cases[1].text


def test_shell_completion_is_on(tmp_path):
    proc = reportkit("--help", cwd=tmp_path)
    assert "--install-completion" in proc.stdout and "--show-completion" in proc.stdout


@pytest.mark.parametrize("filler", ["A", "&amp;"])
def test_a_huge_failure_message_is_clipped_and_parsed_fast(tmp_path, filler):
    """Blind round 6: a test's 200 MB ``message=`` held ``ci`` past 40 s (the XML parser is slow on one long
    attribute, redaction slower on its text). A file over 8 MB has its attribute values cut to 64 KB before it
    is parsed (never half an entity), the message is kept to 64 KB and the trace to 1 MB."""
    from reportkit.ci.ci import MESSAGE_LIMIT, TRACE_LIMIT, parse_junit

    xml = tmp_path / "r.xml"
    xml.write_text('<?xml version="1.0" encoding="utf-8"?><testsuite><testcase classname="t" name="x">'
                   f'<failure type="AssertionError" message="boom {filler * (3 << 20)}">{"T" * (3 << 20)}</failure>'
                   '</testcase><testcase classname="t" name="y"/></testsuite>')
    cases = parse_junit(xml)
    assert [c.name for c in cases] == ["x", "y"] and cases[0].outcome == "failure"
    assert cases[0].message.startswith("boom ") and 10_000 < len(cases[0].message) < MESSAGE_LIMIT + 100
    assert "characters cut by reportkit" in cases[0].text and len(cases[0].text) < TRACE_LIMIT + 100
