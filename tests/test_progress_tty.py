"""Progress of check's runs and minimize's live line, under a pseudo-terminal and piped."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
SCRIPT = "import json\nrows = [1, 2, 3]\nlabel = 'x' * 3\nprint(label)\ndata = json.loads('{}')\nprint(data['missing'])\n"


def run_in_pty(args: list[str], cwd: Path, columns: int) -> str:
    """Run the CLI with a pseudo-terminal of ``columns`` columns as stdin/stdout/stderr; everything it wrote."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR", "CI", "GITHUB_ACTIONS")}
    env["TERM"] = "xterm"
    proc = subprocess.Popen([sys.executable, "-m", "reportkit", *args], stdin=slave, stdout=slave, stderr=slave,
                            cwd=cwd, env=env, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child side is closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=600) == 0
    return b"".join(chunks).decode("utf-8", "replace")


def screen_lines(raw: str) -> list[str]:
    """What was drawn: escape sequences removed, split at redraws (\\r) and line ends."""
    return [piece for line in ANSI.sub("", raw).split("\n") for piece in line.split("\r") if piece.strip()]


@pytest.fixture
def failing(tmp_path):
    (tmp_path / "s.py").write_text(SCRIPT)
    return tmp_path


def test_check_shows_the_run_counter_on_a_terminal_within_its_width(failing):
    lines = screen_lines(run_in_pty(["check", "s.py"], failing, columns=60))
    assert any(re.match(r"run [3-7]/7, \d+ s", ln) for ln in lines), lines
    progress = [ln for ln in lines if ln.startswith("run ")]
    assert progress and all(len(ln) <= 60 for ln in progress), progress


def test_check_piped_prints_one_line_per_run(failing):
    proc = subprocess.run([sys.executable, "-m", "reportkit", "check", "s.py"], cwd=failing, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    runs = [ln for ln in proc.stderr.splitlines() if ln.startswith("run ")]
    assert [ln.split(",")[0] for ln in runs] == [f"run {i}/7" for i in range(1, 8)]
    assert "KeyError" in runs[0] and all("KeyError" not in ln for ln in runs[1:])  # said once
    assert "\r" not in proc.stderr


def test_minimize_live_line_fits_the_terminal_and_starts_with_the_time(failing):
    lines = screen_lines(run_in_pty(["minimize", "s.py", "-j", "1", "--cold"], failing, columns=70))
    live = [ln for ln in lines if re.match(r"\s*\d+ s \| ", ln)]
    assert live, lines
    assert all(len(ln) <= 70 for ln in live), live
    summary = next(ln for ln in lines if ln.strip().startswith("matching"))
    assert len(summary) <= 120  # the long description only with --verbose
