"""What a run may do to the records reportkit keeps of it (blind sandbox attacks round 33): its events file is
open on fd 3 and its captured output is its own, so nothing in them is trusted to have the boot's shape; and a
run that works deep in its scratch dir does not make the fallback's guard slow (its checks resolve a path's
directory through the kernel, not one ``lstat`` per component)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reportkit.errors import UserError
from reportkit.run import _boot, runner
from reportkit.run.spec import RunResult, RunSpec


def _result() -> RunResult:
    return RunResult(None, None, False, 0.0, "", "")


START = {"event": "start", "pid": 1, "main_thread": 1}
GOOD = {"event": "exception", "exception": {"type": "ValueError", "message": "boom",
                                            "frames": [{"file": "s.py", "line": 3, "function": "<module>"}]}}


@pytest.mark.parametrize("forged", [
    {"event": "exception"},
    {"event": "exception", "exception": [1, 2]},
    {"event": "exception", "exception": "ValueError"},
    {"event": "thread_exception", "exception": None},
    {"event": "exception", "exception": {"frames": [1, "x", {"line": "7", "file": ["a"]}], "chain": {"a": 1}}},
    {"event": "exception", "exception": {"type": 7, "message": "no type"}},
    [1, 2, 3],
    "exception",
    17,
    None,
])
def test_a_forged_event_line_is_read_as_nothing_it_cannot_be(tmp_path, forged):
    events = tmp_path / "events.jsonl"
    events.write_text("\n".join(json.dumps(e) for e in (START, GOOD, forged)) + "\n")
    result = _result()
    runner._read_events(events, result)  # (a KeyError / AttributeError here was reportkit's own traceback)
    assert result.started
    assert result.exception is not None and result.exception.type == "ValueError"
    assert all(isinstance(f.line, (int, type(None))) and isinstance(f.file, str) for f in result.exception.frames)


def test_a_record_of_odd_types_keeps_only_what_it_can_be():
    info = runner._exception_from({"type": "E", "message": 3, "thread": [1],
                                   "frames": [1, "x", {"line": "7", "file": ["a"], "function": None}], "chain": {"a": 1}})
    assert info is not None and info.message == "3" and info.thread is None and info.chain == []
    assert [(f.file, f.line, f.function) for f in info.frames] == [("", None, "")]


def test_a_chain_nested_without_end_stops():
    record: dict = {"type": "E", "message": "m"}
    for _ in range(5000):
        record = {"type": "E", "message": "m", "chain": [record]}
    info = runner._exception_from(record)
    depth = 0
    while info is not None and info.chain:
        info, depth = info.chain[0], depth + 1
    assert depth <= runner._CHAIN_DEPTH


def test_a_sandbox_error_is_the_boots_only_before_the_script_started(tmp_path):
    events = tmp_path / "events.jsonl"
    events.write_text(json.dumps(START) + "\n" + json.dumps({"event": "sandbox_error", "error": "forged"}) + "\n")
    runner._read_events(events, _result())  # written by the script: no stop of the whole session
    events.write_text(json.dumps({"event": "sandbox_error", "error": "landlock refused"}) + "\n")
    with pytest.raises(UserError, match="landlock refused"):
        runner._read_events(events, _result())


def _check(tmp_path: Path, name: str, code: str, *env: str) -> subprocess.CompletedProcess:
    script = tmp_path / name
    script.write_text(textwrap.dedent(code))
    return subprocess.run([sys.executable, "-m", "reportkit", "check", str(script), "--runs", "1"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **dict(e.split("=", 1) for e in env)})


def test_a_script_that_forges_its_events_is_judged_not_a_crash(tmp_path):
    proc = _check(tmp_path, "forge.py", """
        import os
        os.write(3, b'{"event": "exception"}\\n[1]\\n{"event": "sandbox_error"}\\n')
        raise ValueError("still the script's own failure")
    """)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "still the script's own failure" in proc.stdout


@pytest.mark.parametrize("sandbox", ["default", "fallback"])
def test_a_run_that_replaces_its_records_is_told_so_not_called_an_interpreter_failure(tmp_path, sandbox):
    proc = _check(tmp_path, "swap.py", """
        import os
        meta = os.path.dirname(os.readlink("/proc/self/fd/1"))
        for name in ("stdout.txt", "stderr.txt", "events.jsonl"):
            os.unlink(os.path.join(meta, name))
            os.symlink("/etc/hostname", os.path.join(meta, name))
        os._exit(3)
    """, *([f"REPORTKIT_SANDBOX={sandbox}"] if sandbox != "default" else []))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "replaced or removed the records reportkit keeps of it" in proc.stderr
    assert "events.jsonl" in proc.stderr and "exited with code 3" in proc.stderr
    assert "could not start the script" not in proc.stderr


def test_canonical_is_realpath(tmp_path):
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "file").write_text("x")
    (tmp_path / "real" / "to_file").symlink_to(tmp_path / "real" / "file")
    (tmp_path / "real" / "dangling").symlink_to("/nonexistent/target")
    (tmp_path / "real" / "up").symlink_to("..")
    base = str(tmp_path)
    for path in [f"{base}/link/sub/new", f"{base}/link/to_file", f"{base}/link/dangling", f"{base}/link/up/link/file",
                 f"{base}/link/sub/../file", f"{base}/missing/dir/x", f"/proc/self/root{base}/link/file",
                 "/proc/self/cwd/../x", f"{base}/link/.", f"{base}/link/..", "/", f"{base}/link/sub/"]:
        assert _boot._canonical(path) == os.path.realpath(path), path


def test_canonical_of_a_deep_path_reads_the_directory_once(tmp_path, monkeypatch):
    """The cost the guard pays per checked call: one open of the directory (the kernel resolves it), not an
    lstat per component — counted, not timed."""
    deep = tmp_path.joinpath(*["d"] * 300)
    deep.mkdir(parents=True)
    calls: list[str] = []
    real_lstat = os.lstat
    monkeypatch.setattr(os, "lstat", lambda p, *a, **k: calls.append(p) or real_lstat(p, *a, **k))
    assert _boot._canonical(str(deep / "new")) == str(deep / "new")
    assert len(calls) <= 2
    calls.clear()
    os.path.realpath(str(deep / "new"))
    assert len(calls) > 300  # (what it replaced)


def test_the_fallback_refuses_a_write_through_a_link_from_deep_inside(tmp_path, monkeypatch):
    from reportkit.run import sandbox

    monkeypatch.setenv(sandbox.FORCE_ENV, "fallback")
    outside = tmp_path / "outside"
    outside.mkdir()
    script = tmp_path / "deep.py"
    script.write_text(textwrap.dedent(f"""
        import os
        fd = os.open(".", os.O_RDONLY)
        for _ in range(200):
            os.mkdir("d", dir_fd=fd)
            fd = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.symlink({str(outside)!r}, "out", dir_fd=fd)
        try:
            os.mkdir("out/planted", dir_fd=fd)
            print("PLANTED")
        except PermissionError:
            print("refused")
    """))
    result = runner.run_script(RunSpec(script=script, python=sys.executable, timeout=60, isolate_file=True))
    assert "refused" in result.stdout, (result.stdout, result.stderr)
    assert not (outside / "planted").exists()
