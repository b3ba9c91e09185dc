"""Adversarial (found by a blind re-run of round 33's attacks): a run's first stage (``-I -S``, before it is
confined: a run given ``LD_*`` or start-up code, bundle's environment probe) imported reportkit's confinement code
with bytecode writing on (``-I`` ignores the ``PYTHONDONTWRITEBYTECODE`` every run has), and wrote
``reportkit/run/__pycache__`` into reportkit's installation: a write outside the run's scratch dir by a process
of the run. Nothing a run starts may write there, under any protection."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import reportkit

PACKAGE = Path(reportkit.__file__).parent


def _pristine_copy(tmp_path: Path) -> Path:
    """reportkit's sources in a directory of their own, without any ``__pycache__``."""
    root = tmp_path / "install"
    shutil.copytree(PACKAGE, root / "reportkit", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


def _caches(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("__pycache__"))


@pytest.mark.parametrize("mode", ["auto", "fallback"])
@pytest.mark.parametrize("command", ["check", "bundle"])
def test_no_run_writes_bytecode_into_reportkit(tmp_path: Path, mode: str, command: str) -> None:
    if mode == "auto" and not shutil.which("bwrap"):
        pytest.skip("bubblewrap is not installed")
    root = _pristine_copy(tmp_path)
    project = tmp_path / "project"
    project.mkdir()
    (project / "fails.py").write_text('raise ValueError("the same failure")\n', encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(root), "REPORTKIT_SANDBOX": mode}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    args = ["check", "fails.py", "--runs", "1", "--env", "LD_BIND_NOW=1"] if command == "check" else \
        ["bundle", "fails.py", "--out", str(tmp_path / "out")]
    proc = subprocess.run([sys.executable, "-B", "-m", "reportkit", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=600)
    assert "same failure" in proc.stdout + proc.stderr, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert _caches(root) == []
