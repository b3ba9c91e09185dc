"""minimize's re-check of its result (blind sandbox round 7): the re-check runs what the file will hold (the
result redacted), and runs it with an empty compile cache, not the one every candidate shared. Exit 0 means the
written file fails the same way on its own."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def minimize(script: Path, timeout: float = 600) -> tuple[subprocess.CompletedProcess, dict]:
    done = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "--json"], capture_output=True,
                          text=True, cwd=script.parent, timeout=timeout)
    return done, json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}


def runs_alone(result: Path, tmp: Path) -> subprocess.CompletedProcess:
    alone = tmp / "alone"
    alone.mkdir()
    shutil.copy(result, alone / result.name)
    return subprocess.run([sys.executable, result.name], capture_output=True, text=True, cwd=alone, timeout=120)


def test_a_result_whose_failure_needs_a_redacted_literal_is_not_called_verified(tmp_path):
    script = tmp_path / "t.py"
    script.write_text('TOKEN = "rk7tok-5a4997910c2a"\nunused = 3\n'
                      'if TOKEN.startswith("rk7tok-") and len(TOKEN) == 19:\n'
                      '    raise RuntimeError("token accepted by the legacy check")\n')
    done, report = minimize(script)
    written = (tmp_path / "t.min.py").read_text()
    assert "5a4997910c2a" not in written  # (the secret is never written)
    assert runs_alone(tmp_path / "t.min.py", tmp_path).returncode == 0  # (so the file does not fail)
    assert done.returncode == 1 and report["verified"] is False, done.stderr
    assert "redact" in report["verify_note"]


def test_a_result_that_redaction_leaves_failing_is_verified(tmp_path):
    script = tmp_path / "t.py"
    script.write_text('TOKEN = "rk7tok-5a4997910c2a"\nunused = 3\nraise RuntimeError("the service said no")\n')
    done, report = minimize(script)
    assert done.returncode == 0 and report["verified"] is True and not report["verify_note"], done.stderr
    assert "RuntimeError: the service said no" in runs_alone(tmp_path / "t.min.py", tmp_path).stderr


@pytest.mark.slow
def test_a_result_that_fails_only_with_what_candidates_left_in_the_shared_compile_cache_is_not_verified(tmp_path):
    pytest.importorskip("torch")
    script = tmp_path / "c.py"
    script.write_text(
        "import os\n\nimport torch\n\n"
        "step = torch.compile(lambda x: x + 1)  # never called: the runs get a private compile cache\n"
        'marker = os.path.join(os.environ.get("TORCHINDUCTOR_CACHE_DIR", "/nonexistent"), "planted")\n'
        "with open(os.devnull) as sink:\n"
        '    with open(marker, "w") as out:\n'
        '        out.write("planted by a run")\n'
        "with open(marker) as f:\n"
        '    if f.read() == "planted by a run":\n'
        '        raise RuntimeError("a marker from an earlier run")\n')
    done, report = minimize(script)
    result = (tmp_path / "c.min.py").read_text()
    if "planted by a run\")\n" in result and "out.write" in result:  # (kept the planting: a true reproducer)
        assert done.returncode == 0 and report["verified"] is True
    else:  # (the shared cache held the marker: the re-check with an empty one says so)
        assert done.returncode == 1 and report["verified"] is False, done.stderr
        assert "compile cache" in report["verify_note"]
