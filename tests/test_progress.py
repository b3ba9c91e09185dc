"""minimize's progress output without a terminal (CI logs, pipes): quiet by default, -q silent, -v chattier."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """import json

rows = [1, 2, 3]
total = sum(rows)
label = "x" * 3
unused = [r * 2 for r in rows]
print(label, total)
data = json.loads("{}")
print(data["missing"])
"""


@pytest.mark.parametrize("flag", ["", "-q", "-v"])
def test_progress_in_a_pipe(tmp_path, flag):
    script = tmp_path / "s.py"
    script.write_text(SCRIPT)
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "-j", "1", "--cold",
                           *([flag] if flag else [])], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr  # no redraws
    progress = [ln for ln in proc.stderr.splitlines() if " -> " in ln and " lines, " in ln]
    if flag == "-q":
        assert progress == []
    elif flag == "":
        assert progress and all(ln.startswith("done ") for ln in progress)  # only phases that shrank it
        final = progress[-1].split(" -> ")[1].split()[0]
        assert f"-> {final} " in proc.stdout  # the last line printed is the result
    else:
        starts = [ln for ln in progress if not ln.startswith("done ")]
        assert starts and len(starts) >= len(progress) // 2 - 2  # phase starts too, not only ends
    assert "lines" in proc.stdout  # the summary
