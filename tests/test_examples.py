"""End to end: the real CLI on the real scripts in examples/, and their hand-written minimal.py."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"

# (script, timeout, expected kind, exception type, innermost frame file:function, slow: True, or "corpus" for
# the rest of a family of slow runs, under `-m corpus`: 04 is the torch.compile example CI checks, 05's bundle
# (tests/test_bundle.py::test_compile_stick_mismatch_example) checks its script end to end)
CASES = [
    ("01_pure_python/analyze_access_logs.py", 60, "exception", "ValueError", "_strptime.py:_strptime", False),
    ("02_eager_shape_error/train_classifier.py", 120, "exception", "RuntimeError",
     "torch/nn/modules/linear.py:forward", False),
    ("03_meta_device_dry_run/dry_run_moe.py", 120, "exception", "NotImplementedError",
     "torch/functional.py:_unique_impl", False),
    ("04_compile_graph_break/compile_text_classifier.py", 300, "exception", "torch._dynamo.exc.Unsupported",
     "torch/_dynamo/eval_frame.py:compile_wrapper", True),
    ("05_compile_stick_mismatch/check_stick_backend.py", 600, "exception", "AssertionError",
     "torch/testing/_comparison.py:assert_close", "corpus"),
    # a hang runs into the timeout: 10 s ran out inside `import torch` on a loaded machine (the signature was
    # then the import's frame, not the pipeline's wait)
    # (not `slow`: it waits out two 30 s timeouts; under the default run's 4 workers waiting costs the 2 cores nothing)
    ("06_threaded_pipeline_hang/sensor_pipeline.py", 30, "hang", None, "threading.py:wait", False),
    ("07_ci_failing_suite/tests/test_copy.py::test_stick_copy_matches_clone[65]", 120, "exception", "AssertionError",
     "torch/testing/_comparison.py:assert_close", False),
    ("08_multi_file_project/daily_report.py", 60, "exception", "statistics.StatisticsError",
     "statistics.py:quantiles", False),
]
PURE_PYTHON = ("01", "08")
MINIMAL = {"07_ci_failing_suite": "tests/minimal_test_copy.py::test_stick_copy_matches_clone"}


def check_json(script: Path | str, timeout: float) -> dict:
    proc = subprocess.run([sys.executable, "-m", "reportkit", "check", "--json", "--runs", "1", "--confirm-runs", "1",
                           "--timeout", str(timeout), str(script)],
                          capture_output=True, text=True, timeout=timeout * 3 + 120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(proc.stdout)["signature"]


def _params():
    for script, timeout, kind, exc_type, frame, slow in CASES:
        marks = [pytest.mark.torch] if not script.startswith(PURE_PYTHON) else []
        if slow:
            marks.append(pytest.mark.slow)
        if slow == "corpus":
            marks.append(pytest.mark.corpus)
        yield pytest.param(script, timeout, kind, exc_type, frame, marks=marks, id=script.split("/")[0])


@pytest.mark.parametrize("script, timeout, kind, exc_type, frame", list(_params()))
def test_check_example_and_its_minimal_fail_the_same_way(script, timeout, kind, exc_type, frame):
    if not script.startswith(PURE_PYTHON):
        pytest.importorskip("torch")
    original = check_json(EX / script, timeout)
    assert original["kind"] == kind
    assert original["exc_type"] == exc_type
    loc = original["location"]
    assert f"{loc['file']}:{loc['function']}" == frame
    example = script.split("/")[0]
    minimal = check_json(EX / example / MINIMAL.get(example, "minimal.py"), timeout)
    assert (minimal["kind"], minimal["exc_type"], minimal["message"]) == (kind, exc_type, original["message"])
    assert minimal["location"]["file"] == loc["file"] and minimal["location"]["function"] == loc["function"]


@pytest.mark.slow
def test_minimize_pure_python_example(tmp_path):
    src = EX / "01_pure_python"
    work = tmp_path / "01"
    shutil.copytree(src, work)
    script = work / "analyze_access_logs.py"
    before = script.read_text()
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--json", str(script)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["verified"] is True and not report["stopped_early"]
    assert report["lines_after"] * 4 < report["lines_before"]
    assert script.read_text() == before
    result = work / "analyze_access_logs.min.py"
    assert json.loads(proc.stdout)["output"] == str(result)
    again = check_json(result, 60)
    assert again["exc_type"] == "ValueError" and again["location"]["function"] == "_strptime"


def test_minimize_multi_file_example_folds_its_package(tmp_path):
    """Example 08: the failing line is in the script's own package; the result folds the package in,
    imports installed modules only and fails the same way alone in an empty directory."""
    work = tmp_path / "08"
    shutil.copytree(EX / "08_multi_file_project", work, ignore=shutil.ignore_patterns("__pycache__"))
    script = work / "daily_report.py"
    before = {p: p.read_text() for p in work.rglob("*.py")}
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--json", "-j", "2", str(script)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["verified"] is True and not report["stopped_early"]
    assert report["folded"] == ["meteo/quality.py", "meteo/stations.py", "meteo/units.py", "meteo/stats.py",
                                "meteo/__init__.py"]
    assert report["folded_note"].startswith("folded in meteo/quality.py")
    script_lines = sum(1 for ln in script.read_text().splitlines() if ln.strip())
    assert report["lines_script"] == script_lines < report["lines_before"]  # before: with the package folded in
    assert {p: p.read_text() for p in work.rglob("*.py") if p.name != "daily_report.min.py"} == before
    result = (work / "daily_report.min.py").read_text()
    assert "meteo" not in result
    hand = [ln for ln in (EX / "08_multi_file_project/minimal.py").read_text().splitlines() if ln.strip()]
    assert report["lines_after"] <= 1.5 * len(hand)
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "repro.py").write_text(result)
    again = check_json(alone / "repro.py", 60)
    original = report["signature"]
    assert (again["exc_type"], again["message"], again["location"]) == (
        original["exc_type"], original["message"], original["location"])


@pytest.mark.slow
@pytest.mark.torch
def test_minimize_a_test_of_the_failing_suite(tmp_path):
    """Example 07: minimize a pytest test; the module and the standalone script fail the same way."""
    pytest.importorskip("torch")
    work = tmp_path / "07"
    shutil.copytree(EX / "07_ci_failing_suite", work)
    node = "test_stick_copy_matches_clone[65]"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--json", str(work / "tests/test_copy.py")
                           + "::" + node], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["verified"] is True
    minimal = (EX / "07_ci_failing_suite/tests/minimal_test_copy.py").read_text()
    lines = [ln for ln in minimal.splitlines() if ln.strip()]
    # the bug kept, not only the check's first line: the stick copy loop with its rounded-down count
    # (a tensor of zeros against the clone fails with the same first line; docs/keeps.md, "What a reproducer keeps")
    result = Path(report["output"]).read_text()
    assert "for " in result and "//" in result and "zeros_like" in result, result
    assert report["lines_after"] <= 3 * len(lines)
    again = check_json(report["output"] + "::" + node, 120)
    assert (again["exc_type"], again["location"]["function"]) == ("AssertionError", "assert_close")
    plain = subprocess.run([sys.executable, report["standalone"]], capture_output=True, text=True, timeout=300)
    assert plain.returncode == 1, plain.stderr
    assert "AssertionError: Tensor-likes are not close!" in plain.stderr
    assert "Mismatched elements: 1 / 65" in plain.stderr  # what the check measured: the last element only
    assert 'in assert_close' in plain.stderr


def test_progress_lines_count_the_folded_script(tmp_path):
    """The progress lines of a minimization that folded local modules in start from the folded script's
    size (what the reducer shrinks; the summary's "before"), not from the script's own lines."""
    work = tmp_path / "08"
    shutil.copytree(EX / "08_multi_file_project", work, ignore=shutil.ignore_patterns("__pycache__"))
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--verbose", "-j", "2",
                           "-o", str(tmp_path / "out.py"), str(work / "daily_report.py")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    starts = {int(n) for n in re.findall(r" (\d+) -> \d+ lines, ", proc.stderr)}
    script_lines = sum(1 for ln in (work / "daily_report.py").read_text().splitlines() if ln.strip())
    before = re.search(r"(\d+) \(\d+ in the script \+ \d+ folded in", proc.stdout + proc.stderr)
    assert before, proc.stdout + proc.stderr
    assert starts == {int(before.group(1))} and int(before.group(1)) > script_lines, proc.stderr
