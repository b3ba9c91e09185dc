"""``bundle``'s environment probe runs in the target interpreter and imports what the script's directory holds
(the torch of a source checkout, the way the script sees it): a project's own ``torch.py``, ``subprocess.py`` or a
``sitecustomize.py`` on the user's ``PYTHONPATH`` is code nobody reviewed. Blind round 8 of sandbox attacks: the
probe ran it with the user's full rights, in every mode (in ``ci`` a pull request's module wrote the runner's
``$GITHUB_ENV``). Now the probe is sandboxed as a run is, starts isolated, confines itself before it imports
anything of the project (the user's ``PYTHONPATH`` and ``site`` only then), and still reports the environment of a
normal project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path


def _bundle(script: Path, out: Path, *options: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", "bundle", "--issue", str(script), "--out", str(out),
                           *options],
                          capture_output=True, text=True, cwd=script.parent.parent, timeout=300,
                          env={**os.environ, **(env or {})})


def _hostile(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose modules shadow the standard library's and torch, each writing a canary outside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "script.py").write_text('raise ValueError("boom")\n')
    for name in ("torch", "subprocess"):
        (proj / f"{name}.py").write_text(f"open({str(outside / name)!r}, 'w').write('x')\n__version__ = '0'\n")
    return proj / "script.py", outside


def test_the_probe_runs_the_projects_modules_confined(tmp_path, protection_mode):
    script, outside = _hostile(tmp_path)
    done = _bundle(script, tmp_path / "bundle")
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(p.name for p in outside.iterdir()) == []  # (unconfined: both were written)
    env = json.loads((tmp_path / "bundle" / "bundle.json").read_text())["collected"]["env"]
    assert str(outside / "torch") in json.dumps(env)  # (its write failed: the probe says so, and goes on)
    assert env["packages"]  # (found without importing them: the project's modules did not stop the probe)


def test_the_probe_still_reports_a_normal_projects_environment(tmp_path, protection_mode):
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "script.py").write_text("import json\nraise ValueError(json.dumps({'a': 1}))\n")
    src = tmp_path / "src"
    (src / "helper_pkg").mkdir(parents=True)
    (src / "helper_pkg" / "__init__.py").write_text("")
    (proj / "script.py").write_text("import helper_pkg\nraise ValueError(helper_pkg.__name__)\n")
    done = _bundle(proj / "script.py", tmp_path / "bundle", "--env", f"PYTHONPATH={src}")
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads((tmp_path / "bundle" / "bundle.json").read_text())["collected"]
    env = data["env"]
    assert env["python"] == sys.version.split()[0] and env["platform"] and not env["probe_errors"], env
    assert env["torch"]["status"] == "collected" and env["torch"]["version"], env["torch"]
    assert data["signature"]["message"] == "helper_pkg"  # (the run found it on the user's path)


def test_the_probe_keeps_the_audit_hook_where_it_is_all_there_is(tmp_path):
    """Round 31 (blind): with no bubblewrap and no Landlock the audit hook is the only layer that holds a run's
    signals, and the probe ran without it (it refuses the shells collect_env starts): a project's ``torch.py``
    signalled a process outside (SIGUSR1 ended it; SIGSTOP stopped reportkit's parent shell). Now the probe keeps the
    hook there, runs without collect_env, and the report says why."""
    victim = subprocess.Popen(["sleep", "120"])
    try:
        proj = tmp_path / "proj"
        proj.mkdir()
        (proj / "script.py").write_text('raise ValueError("boom")\n')
        (proj / "torch.py").write_text(f"import os, signal\nos.kill({victim.pid}, signal.SIGUSR1)\n__version__ = '0'\n")
        done = _bundle(proj / "script.py", tmp_path / "bundle",
                       env={"REPORTKIT_SANDBOX": "fallback", "REPORTKIT_LANDLOCK": "0"})
        assert done.returncode == 0, done.stdout + done.stderr
        assert victim.poll() is None  # (without the hook: -10, SIGUSR1's default action)
        env = json.loads((tmp_path / "bundle" / "bundle.json").read_text())["collected"]["env"]
        assert "refused" in json.dumps(env["probe_errors"])  # (the hook said no, and the probe went on)
        assert env["collect_env_reason"].startswith("not run: the sandbox here is the audit hook alone")
        issue = (tmp_path / "bundle" / "issue.md").read_text()
        assert "**collect_env**: not run: the sandbox here is the audit hook alone" in issue  # (the reader sees why)
    finally:
        victim.kill()
        victim.wait()
