"""`reportkit ci` as a GitHub Actions matrix: --plan → one --only job per group → --merge, on a real pytest
project, gives what one `reportkit ci` run gives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reportkit.ci.ci import MATRIX_LIMIT, make_plan

SECRET = "hunter2-merge-secret"  # in the test module, hence in the reproducers; a secret only in the merge job

SUITE = f'''from mylib import parse

NOTE = "{SECRET}"


def test_lib_a():
    parse('x')


def test_lib_b():
    parse('yy')
'''


def reportkit(*args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=900)


def clean_env(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    return {**env, **extra}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    """A repository whose suite fails two ways in the XML, one way on re-run: test_lib_b's message in the
    XML differs from test_lib_a's (what the job saw), its re-run fails exactly like test_lib_a's."""
    tmp = tmp_path_factory.mktemp("matrix")
    root = tmp / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (root / "mylib.py").write_text("def parse(text):\n    if not text.isdigit():\n"
                                   "        raise ValueError(f'not a number: {len(text)} characters')\n"
                                   "    return int(text)\n")
    (root / "tests" / "test_parse.py").write_text(SUITE)
    junit = tmp / "results.xml"
    subprocess.run([sys.executable, "-m", "pytest", f"--junitxml={junit}", "-q", "-p", "no:cacheprovider"],
                   cwd=root, capture_output=True, timeout=120)
    xml = junit.read_text()
    seen = 'message="ValueError: not a number: 2 characters"'
    assert seen in xml
    junit.write_text(xml.replace(seen, 'message="ValueError: not a number: 2 characters (locale C)"'))
    return root, junit


def test_plan_groups_as_ci_does(project, tmp_path):
    root, junit = project
    output = tmp_path / "github-output"
    proc = reportkit("ci", "--plan", "--junit", str(junit), "--repo-root", str(root), cwd=tmp_path,
                     env=clean_env(GITHUB_OUTPUT=str(output)))
    assert proc.returncode == 0, proc.stderr
    matrix = json.loads(proc.stdout)
    plan = make_plan([junit], root.resolve(), 20, limit=MATRIX_LIMIT)
    assert [e["id"] for e in matrix["include"]] == [g.id for g in plan.groups]
    assert [e["test"] for e in matrix["include"]] == ["tests/test_parse.py::test_lib_a",
                                                      "tests/test_parse.py::test_lib_b"]
    lines = output.read_text().splitlines()
    assert lines == [f"matrix={proc.stdout.strip()}", "count=2"]
    assert not (tmp_path / "reportkit-ci").exists()  # the plan runs nothing and writes no output dir
    # the same XML gives the same plan (the ids every job and the merge rely on)
    assert make_plan([junit], root.resolve(), 20, limit=MATRIX_LIMIT).to_dict() == plan.to_dict()
    # beyond the matrix limit: the remaining groups are not examined (listed), not dropped
    small = make_plan([junit], root.resolve(), 20, limit=1)
    assert [g.id for g in small.groups] == [plan.groups[0].id]
    assert small.not_examined == ["tests/test_parse.py::test_lib_b"]


def test_plan_jobs_merge_equal_one_ci_run(project, tmp_path):
    root, junit = project
    common = ["--junit", str(junit), "--repo-root", str(root), "--no-ladder"]
    single = reportkit("ci", *common, "--out", str(tmp_path / "single"), cwd=tmp_path, env=clean_env())
    assert single.returncode == 0, single.stderr
    plan = reportkit("ci", "--plan", "--junit", str(junit), "--repo-root", str(root), cwd=tmp_path, env=clean_env())
    ids = [e["id"] for e in json.loads(plan.stdout)["include"]]
    for gid in ids:  # what each matrix job does; its output directory is its artifact
        job = reportkit("ci", *common, "--only", gid, "--out", str(tmp_path / "parts" / f"reportkit-part-{gid}"),
                        cwd=tmp_path, env=clean_env())
        assert job.returncode == 0, job.stderr
    summary, output = tmp_path / "step-summary.md", tmp_path / "github-output"
    merged = reportkit("ci", "--merge", str(tmp_path / "parts"), "--out", str(tmp_path / "merged"), cwd=tmp_path,
                       env=clean_env(GITHUB_STEP_SUMMARY=str(summary), GITHUB_OUTPUT=str(output),
                                     DEPLOY_TOKEN=SECRET))
    assert merged.returncode == 0, merged.stderr

    assert (tmp_path / "merged" / "summary.md").read_text() == (tmp_path / "single" / "summary.md").read_text()
    assert summary.read_text() == (tmp_path / "merged" / "summary.md").read_text()

    def comparable(path: Path) -> dict:
        data = json.loads(path.read_text())
        for key in ("out_dir", "wall_time"):
            data.pop(key)
        for f in data["failures"]:
            f.pop("seconds")
        data["grouping"].pop("seconds")  # each job traced its test module: timings differ, the grouping not
        return data

    one, many = comparable(tmp_path / "single" / "reportkit-ci.json"), comparable(tmp_path / "merged" / "reportkit-ci.json")
    assert many == one and "part" not in many
    assert [f["tests"] for f in many["failures"]] == [  # the XML's two groups are one failure
        ["tests/test_parse.py::test_lib_a", "tests/test_parse.py::test_lib_b"]]
    fps = [f["fingerprint"] for f in many["failures"]]
    assert f"fingerprints={' '.join(fps)}" in output.read_text().splitlines()
    bundles = tmp_path / "merged" / "bundles"
    assert sorted(p.name for p in bundles.iterdir()) == sorted([*fps, *(fp + ".tar.gz" for fp in fps)])
    for f in many["failures"]:
        issue = (tmp_path / "merged" / f["issue_md"]).read_text()
        assert f["representative"] in issue
    # the merge job's own secrets are redacted from what it copies (the jobs did not know them)
    assert any(SECRET in p.read_text(errors="replace") for p in (tmp_path / "parts").rglob("*.py"))
    assert not any(SECRET in p.read_bytes().decode("utf-8", "replace") for p in bundles.rglob("*") if p.is_file()
                   and not p.name.endswith(".tar.gz"))

    # a job that left no result: its group is listed as such, the rest merged as before
    shutil.rmtree(tmp_path / "parts" / f"reportkit-part-{ids[0]}")
    partial = reportkit("ci", "--merge", str(tmp_path / "parts"), "--out", str(tmp_path / "partial"), "--json",
                        cwd=tmp_path, env=clean_env())
    assert partial.returncode == 0, partial.stderr
    failures = json.loads(partial.stdout)["failures"]
    assert [(f["verdict"], f["tests"]) for f in failures] == [("missing", ["tests/test_parse.py::test_lib_a"]),
                                                              ("confirmed", ["tests/test_parse.py::test_lib_b"])]
    assert "no result from its job" in (tmp_path / "partial" / "summary.md").read_text()


@pytest.mark.parametrize("args, message", [
    (["--plan", "--only", "01-x"], "give one of them"),
    (["--only", "99-deadbeef"], "no such failure group"),
])
def test_matrix_steps_bad_input(project, tmp_path, args, message):
    root, junit = project
    proc = reportkit("ci", "--junit", str(junit), "--repo-root", str(root), "--out", str(tmp_path / "o"), *args,
                     cwd=tmp_path, env=clean_env())
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_merge_without_results_is_one_clear_error(tmp_path):
    (tmp_path / "parts" / "empty").mkdir(parents=True)
    proc = reportkit("ci", "--merge", str(tmp_path / "parts"), "--out", str(tmp_path / "o"), cwd=tmp_path,
                     env=clean_env())
    assert proc.returncode == 2 and "no matrix job results" in proc.stderr and "Traceback" not in proc.stderr
