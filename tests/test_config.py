"""[tool.reportkit] in pyproject.toml: values applied, the command line wins, bad keys named with their file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reportkit.config import load
from reportkit.errors import UserError


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


@pytest.fixture
def project(tmp_path):
    """project/pyproject.toml with [tool.reportkit], the script one directory below it (it passes: check
    prints its plan, runs it once and stops with exit 2, nothing to reproduce)."""
    root = tmp_path / "project"
    (root / "sub").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "p"\n\n[tool.reportkit]\ntimeout = 7\nruns = 3\n'
                                         'venue = "generic"\nlabels = ["bug", "ci"]\npython = ".venv/bin/python"\n')
    (root / "sub" / "s.py").write_text("print('ok')\n")
    return root


def test_values_from_the_nearest_pyproject_apply(project, tmp_path):
    proc = cli("check", str(project / "sub" / "s.py"), "--python", sys.executable, cwd=tmp_path)
    assert "running" in proc.stderr and " 3x" in proc.stderr and "(timeout 7 s per run)" in proc.stderr, proc.stderr
    cfg = load(str(project / "sub" / "s.py"), cwd=tmp_path)
    assert cfg.path == project / "pyproject.toml"
    assert cfg.values == {"timeout": 7.0, "runs": 3, "venue": "generic", "labels": ["bug", "ci"],
                          "python": str(project / ".venv/bin/python")}  # relative to the file


def test_the_command_line_wins(project, tmp_path):
    proc = cli("check", "--timeout", "9", "--runs", "1", "--python", sys.executable, str(project / "sub" / "s.py"),
               cwd=tmp_path)
    assert "(timeout 9 s per run)" in proc.stderr and " 1x" in proc.stderr, proc.stderr
    assert load(None, cwd=tmp_path).path is None  # nothing above tmp_path
    assert load(None, cwd=project / "sub").pick("timeout", 9.0) == 9.0


def test_the_current_directorys_pyproject_when_none_is_above_the_script(project, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "s.py").write_text("print('ok')\n")
    cfg = load(str(elsewhere / "s.py"), cwd=project / "sub")
    assert cfg.path == project / "pyproject.toml" and cfg.get("runs") == 3


@pytest.mark.parametrize("line, fragment", [
    ("timout = 5", "unknown key 'timout' in [tool.reportkit]"),
    ("runs = 0", "runs = 0: expected an integer >= 1"),
    ('sandbox = "docker"', "expected auto or bwrap or fallback"),
    ('venue = "jira"', "venue = 'jira': expected auto, torch-spyre"),
    ("keep_env = [1]", "expected a list of strings"),
    ("timeout = ", "not valid TOML"),
])
def test_bad_config_is_one_message_naming_the_file_and_key(tmp_path, line, fragment):
    (tmp_path / "pyproject.toml").write_text(f"[tool.reportkit]\n{line}\n")
    (tmp_path / "s.py").write_text("raise SystemExit(3)\n")
    proc = cli("check", "s.py", cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert str(tmp_path / "pyproject.toml") in proc.stderr and fragment in proc.stderr, proc.stderr
    with pytest.raises(UserError, match="pyproject.toml"):
        load(str(tmp_path / "s.py"), cwd=tmp_path)


def test_an_interpreter_the_project_ships_is_refused_unless_given_on_the_command_line(tmp_path):
    """Round 8 of sandbox attacks (not promised, fixed): ``python = "tools/py"`` made reportkit start a program of
    the project outside any sandbox (its version check) whenever anyone ran it on the project."""
    root = tmp_path / "project"
    (root / "tools").mkdir(parents=True)
    canary = tmp_path / "canary"
    tool = root / "tools" / "py"
    tool.write_text(f"#!/bin/sh\ntouch {canary}\nexec {sys.executable} \"$@\"\n")
    tool.chmod(0o755)
    (root / "pyproject.toml").write_text('[tool.reportkit]\npython = "tools/py"\n')
    (root / "s.py").write_text("raise ValueError('x')\n")
    proc = cli("check", str(root / "s.py"), cwd=tmp_path)
    assert proc.returncode == 2 and "is inside the project" in proc.stderr and "Traceback" not in proc.stderr
    assert not canary.exists()
    # an interpreter outside the project, by its path: used
    (root / "pyproject.toml").write_text(f'[tool.reportkit]\npython = "{sys.executable}"\nruns = 1\n')
    proc = cli("check", str(root / "s.py"), cwd=tmp_path)
    assert proc.returncode == 0 and "ValueError: x" in proc.stdout + proc.stderr, proc.stderr


def test_a_virtual_environment_the_project_ships_is_refused_unless_given_on_the_command_line(tmp_path):
    """Round 9 of sandbox attacks: ``python = ".venv/bin/python"``, a link out to a system Python, was used; but the
    project's ``.venv/pyvenv.cfg`` put its own ``site-packages`` on the path, whose ``.pth`` ran with the user's
    rights in reportkit's version check (and before each run confined itself)."""
    root = tmp_path / "project"
    canary = tmp_path / "canary"
    base = Path(os.path.realpath(sys.executable))
    site = root / ".venv" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    site.mkdir(parents=True)
    (root / ".venv" / "bin").mkdir()
    (root / ".venv" / "bin" / "python").symlink_to(base)
    (root / ".venv" / "pyvenv.cfg").write_text(f"home = {base.parent}\ninclude-system-site-packages = false\n")
    (site / "planted.pth").write_text(f"import os; open({str(canary)!r}, 'a').write('x')\n")
    control = subprocess.run([str(root / ".venv" / "bin" / "python"), "-c", "pass"])
    assert control.returncode == 0 and canary.exists()  # (the venv does run the project's .pth at every start)
    canary.unlink()
    (root / "pyproject.toml").write_text('[tool.reportkit]\npython = ".venv/bin/python"\nruns = 1\n')
    (root / "s.py").write_text("raise ValueError('x')\n")
    proc = cli("check", str(root / "s.py"), cwd=tmp_path)
    assert proc.returncode == 2 and "is inside the project" in proc.stderr and "Traceback" not in proc.stderr
    assert not canary.exists()
    proc = cli("check", str(root / "s.py"), "--python", sys.executable, cwd=tmp_path)  # the user's own choice
    assert proc.returncode == 0 and "ValueError: x" in proc.stdout + proc.stderr, proc.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root: a file of another user above the script")
def test_an_interpreter_chosen_in_another_users_file_is_refused(tmp_path):
    """Round 9 of sandbox attacks (not promised, fixed): the walk up to the nearest pyproject.toml crossed a shared
    directory, and another user's file there chose the program root started (its version check)."""
    shared = tmp_path / "shared"
    (shared / "mine").mkdir(parents=True)
    canary = tmp_path / "canary"
    tool = tmp_path / "py"
    tool.write_text(f"#!/bin/sh\ntouch {canary}\nexec {sys.executable} \"$@\"\n")
    tool.chmod(0o755)
    (shared / "pyproject.toml").write_text(f'[tool.reportkit]\npython = "{tool}"\nruns = 1\n')
    os.chown(shared / "pyproject.toml", 65534, 65534)
    (shared / "mine" / "s.py").write_text("raise ValueError('x')\n")
    proc = cli("check", str(shared / "mine" / "s.py"), cwd=tmp_path)
    assert proc.returncode == 2 and "a file of another user" in proc.stderr and "Traceback" not in proc.stderr
    assert not canary.exists()
    os.chown(shared / "pyproject.toml", 0, 0)  # (root's own file: applied)
    proc = cli("check", str(shared / "mine" / "s.py"), cwd=tmp_path)
    assert proc.returncode == 0 and canary.exists(), proc.stderr


def test_ci_does_not_apply_the_repositorys_keep_env(tmp_path, capsys):
    """A pull request writes the repository's pyproject.toml: its keep_env would hand the job's secrets (a token
    the workflow has in its environment) to the code under test. ci applies only --keep-env (the workflow's)."""
    from reportkit.cli import _ci_options
    from reportkit.run.runner import keep_env, kept_names

    (tmp_path / "pyproject.toml").write_text('[tool.reportkit]\nkeep_env = ["GH_TOKEN"]\n')
    common = dict(junit=None, repo_root=tmp_path, out_dir=tmp_path / "out", python=None, max_tests=5, budget=None,
                  do_minimize=False, timeout=None, template="auto", ladder=False, jobs=1, executor="local",
                  ray_address=None, ray_resources=None, plan=False, only=None, merge=None, good=None,
                  confirm_runs=None)
    try:
        _ci_options(keep_env=None, **common)
        assert "GH_TOKEN" not in kept_names()
        assert "keep_env in" in capsys.readouterr().err
        _ci_options(keep_env=["HF_TOKEN"], **common)
        assert "HF_TOKEN" in kept_names() and "GH_TOKEN" not in kept_names()
    finally:
        keep_env([])


@pytest.mark.skipif(not shutil.which("bwrap"), reason="needs bubblewrap: the file would weaken it to the fallback")
def test_the_projects_file_cannot_weaken_the_sandbox(tmp_path):
    """Round 9 of sandbox attacks' area, found on reading: ``sandbox = "fallback"`` in a project's own file (a
    downloaded bug repro's, a pull request's in ``ci``) moved its code's runs from bubblewrap to the weaker mode.
    It is not applied (a note says how to choose it); ``bwrap`` (stricter) is; the variable still chooses."""
    from reportkit.run.sandbox import FORCE_ENV

    env = {k: v for k, v in os.environ.items() if k != FORCE_ENV}
    (tmp_path / "s.py").write_text("raise ValueError('x')\n")

    def sandbox_row(extra_env=None):
        proc = subprocess.run([sys.executable, "-m", "reportkit", "check", str(tmp_path / "s.py"), "--runs", "1",
                               "--json"], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                              env={**env, **(extra_env or {})})
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["sandbox"], proc.stderr

    (tmp_path / "pyproject.toml").write_text('[tool.reportkit]\nsandbox = "fallback"\n')
    row, stderr = sandbox_row()
    assert "bubblewrap" in row and "no bubblewrap" not in row, row
    assert '[tool.reportkit] sandbox = "fallback"' in stderr and f"{FORCE_ENV}=fallback" in stderr, stderr
    row, stderr = sandbox_row({FORCE_ENV: "fallback"})  # the user's own choice
    assert "no bubblewrap" in row and "not applied" not in stderr, row
    (tmp_path / "pyproject.toml").write_text('[tool.reportkit]\nsandbox = "bwrap"\n')
    row, stderr = sandbox_row()
    assert "bubblewrap" in row and "no bubblewrap" not in row and "not applied" not in stderr, row
