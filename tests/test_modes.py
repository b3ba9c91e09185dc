"""Output modes: results are for sharing (the input's mode, or 0644 less the umask); logs and archives stay private."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from reportkit.io import PRIVATE, mode_of, shared_mode, write_atomic


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def cli(*args: str, cwd: Path, umask: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300, preexec_fn=lambda: os.umask(umask))


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_shared_mode_follows_the_umask(tmp_path, mask, expected):
    old = os.umask(mask)
    try:
        assert shared_mode() == expected
        write_atomic(tmp_path / "r.md", "x", mode=shared_mode())
    finally:
        os.umask(old)
    assert mode(tmp_path / "r.md") == expected
    write_atomic(tmp_path / "log.txt", "x")
    assert mode(tmp_path / "log.txt") == PRIVATE  # no mode given: private, as before


@pytest.mark.parametrize("input_mode", [0o644, 0o755, 0o640])
def test_minimized_script_gets_the_input_scripts_mode(tmp_path, input_mode):
    script = tmp_path / "s.py"
    script.write_text("import os\nx = 1\ny = [x, 2]\nprint(y)\nraise RuntimeError('boom')\n")
    script.chmod(input_mode)
    proc = cli("minimize", "--runs", "1", "-j", "1", "--cold", "-q", "s.py", cwd=tmp_path, umask=0o077)
    assert proc.returncode == 0, proc.stderr
    assert mode(tmp_path / "s.min.py") == input_mode == mode_of(script)


def test_bundle_shares_the_report_and_keeps_logs_private(tmp_path):
    (tmp_path / "s.py").write_text("raise RuntimeError('boom')\n")
    proc = cli("bundle", "s.py", "--issue", "--no-ladder", "--out", "b", cwd=tmp_path, umask=0o027)
    assert proc.returncode == 0, proc.stderr
    b = tmp_path / "b"
    assert mode(b / "issue.md") == mode(b / "bundle.json") == mode(b / "reproducer" / "s.py") == 0o640
    logs = [p for p in (b / "logs").rglob("*") if p.is_file()]
    assert logs and all(mode(p) == PRIVATE for p in logs)
    assert mode(tmp_path / "b.tar.gz") == PRIVATE
    assert "private, mode 0600" in proc.stdout
