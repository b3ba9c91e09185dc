"""The sandboxed runner: exceptions, exits, signals, hangs, process-group kill, scratch dirs, limits."""

from __future__ import annotations

import os
import signal
import sys
import textwrap
from pathlib import Path

import psutil
import pytest
from scripts import HANG_WITH_SPINNER

from reportkit.errors import UserError
from reportkit.runner import RunSpec, Sandbox, parse_faulthandler, read_script, resolve_python, run_script


def write(tmp_path: Path, name: str, code: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    return path


def spec(script: Path, **kw) -> RunSpec:
    kw.setdefault("timeout", 20)
    return RunSpec(script=script, python=sys.executable, **kw)


def test_uncaught_exception_is_recorded_exactly(tmp_path):
    script = write(tmp_path, "fail.py", """
        import json

        def load(text):
            return json.loads(text)

        load("{oops")
    """)
    result = run_script(spec(script))
    assert result.returncode == 1 and result.signal is None and not result.timed_out
    exc = result.exception
    assert exc is not None and exc.type == "json.decoder.JSONDecodeError"
    assert exc.message.startswith("Expecting property name")
    assert exc.frames[0].function == "<module>" and exc.frames[0].file == result.script_path
    assert exc.frames[1].function == "load" and exc.frames[1].text == "return json.loads(text)"
    assert exc.frames[-1].file.endswith("json/decoder.py")
    # the traceback the user sees is Python's own, without reportkit's bootstrap frames
    assert "Traceback (most recent call last)" in result.stderr
    assert "_boot.py" not in result.stderr and "runpy" not in result.stderr


def test_chained_cause_is_kept(tmp_path):
    script = write(tmp_path, "chain.py", """
        try:
            {}["missing"]
        except KeyError as e:
            raise RuntimeError("lookup failed") from e
    """)
    exc = run_script(spec(script)).exception
    assert exc.type == "RuntimeError" and exc.chain[0].type == "KeyError"


@pytest.mark.parametrize("code, rc, requested", [
    ("import sys; sys.exit(3)", 3, 3),
    ("import os; os._exit(4)", 4, None),
    ("raise SystemExit('fatal: bad config')", 1, "fatal: bad config"),
    ("print('fine')", 0, None),
])
def test_exit_codes(tmp_path, code, rc, requested):
    result = run_script(spec(write(tmp_path, "x.py", code)))
    assert result.returncode == rc and result.exception is None
    assert result.exit_code_requested == requested


def test_fatal_signal_gives_signal_and_stack(tmp_path):
    script = write(tmp_path, "crash.py", """
        import os, signal

        def explode():
            os.kill(os.getpid(), signal.SIGSEGV)

        explode()
    """)
    result = run_script(spec(script))
    assert result.signal == signal.SIGSEGV and result.returncode is None
    stack = result.main_stack
    assert stack is not None and stack.frames[0].function == "explode"


def test_hang_dumps_all_thread_stacks(tmp_path):
    script = write(tmp_path, "hang.py", HANG_WITH_SPINNER)
    result = run_script(spec(script, timeout=1.5))
    assert result.timed_out and result.signal is None
    assert len(result.stacks) >= 2
    main = result.main_stack
    assert main.thread_id == result.main_thread_id
    assert [f.function for f in main.frames][:2] == ["wait", "get"]
    assert main.frames[-1].text == "queue.Queue().get()"
    assert "waiting for a batch" in result.stdout


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


MARKER = "reportkit-test-" + "descendant"


def _marked() -> list[int]:
    """Processes (other than this one) whose command line carries MARKER."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        if proc.pid != os.getpid() and any(MARKER in part for part in proc.info["cmdline"] or []):
            found.append(proc.pid)
    return found


def test_timeout_leaves_no_descendants(tmp_path, protection_mode):
    script = write(tmp_path, "spawner.py", f"""
        import os, subprocess, sys, time
        sleeper = "import time; time.sleep(300)  # {MARKER}"
        code = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', %r]); time.sleep(300)" % sleeper
        child = subprocess.Popen([sys.executable, "-c", code])
        escaped = subprocess.Popen([sys.executable, "-c", sleeper], start_new_session=True)
        time.sleep(1.0)
        print("spawned", flush=True)
        time.sleep(300)
    """)
    result = run_script(spec(script, timeout=4))
    assert result.timed_out and "spawned" in result.stdout
    assert _marked() == []


def test_runs_in_scratch_copy_and_never_touches_the_original(tmp_path):
    (tmp_path / "helper.py").write_text("VALUE = 42\n")
    (tmp_path / "data.txt").write_text("original\n")
    script = write(tmp_path, "main.py", """
        import os, helper
        open("data.txt", "w").write("changed")
        open("new.txt", "w").write("x")
        print(helper.VALUE, os.getcwd())
    """)
    before = script.read_text()
    result = run_script(spec(script))
    assert result.returncode == 0 and result.stdout.startswith("42 ")
    assert str(tmp_path) not in result.stdout
    assert (tmp_path / "data.txt").read_text() == "original\n" and not (tmp_path / "new.txt").exists()
    assert script.read_text() == before
    assert not Path(result.workdir).exists()  # scratch removed


def test_isolate_file_copies_only_the_script(tmp_path):
    (tmp_path / "helper.py").write_text("VALUE = 42\n")
    script = write(tmp_path, "main.py", "import helper\n")
    result = run_script(spec(script, isolate_file=True))
    assert result.exception.type == "ModuleNotFoundError"


def test_candidate_source_replaces_the_script(tmp_path):
    script = write(tmp_path, "s.py", "raise ValueError('original')\n")
    result = run_script(spec(script), source="raise KeyError('candidate')\n")
    assert result.exception.type == "KeyError"
    assert script.read_text() == "raise ValueError('original')\n"


def test_sandbox_reuse_gives_fresh_dirs(tmp_path):
    script = write(tmp_path, "s.py", "import os\nassert not os.path.exists('mark')\nopen('mark', 'w')\n")
    box = Sandbox(script)
    try:
        for _ in range(2):
            assert run_script(spec(script), sandbox=box).returncode == 0
    finally:
        box.cleanup()
    assert not box.root.exists()


def test_output_is_bounded_keeping_head_and_tail(tmp_path):
    script = write(tmp_path, "loud.py", """
        import sys
        sys.stdout.write("HEAD\\n" + "x" * 3_000_000 + "\\nTAIL\\n")
    """)
    result = run_script(spec(script, output_limit=100_000))
    assert len(result.stdout) < 110_000
    assert result.stdout.startswith("HEAD") and result.stdout.rstrip().endswith("TAIL")
    assert "bytes cut by reportkit" in result.stdout


def test_env_overrides_and_unsets(tmp_path, monkeypatch):
    monkeypatch.setenv("RK_DROP_ME", "1")
    script = write(tmp_path, "env.py", "import os; print(os.environ.get('RK_SET'), os.environ.get('RK_DROP_ME'))")
    result = run_script(spec(script, env={"RK_SET": "yes", "RK_DROP_ME": None}))
    assert result.stdout.strip() == "yes None"


@pytest.mark.parametrize("name, content, message", [
    ("missing.py", None, "no such file"),
    ("adir", "DIR", "is a directory"),
    ("bin.py", b"\x7fELF\x00\x00\x01", "binary file"),
    ("latin.py", "x = 'caf\xe9'\n".encode("latin-1"), "not UTF-8"),
    ("syntax.py", b"def f(:\n    pass\n", "syntax error at line 1"),
])
def test_bad_scripts_are_rejected_clearly(tmp_path, name, content, message):
    path = tmp_path / name
    if content == "DIR":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    with pytest.raises(UserError) as info:
        read_script(path)
    assert message in info.value.message and info.value.exit_code == 2


def test_interpreter_resolution(tmp_path):
    assert resolve_python(sys.executable) == os.path.abspath(sys.executable)
    with pytest.raises(UserError, match="not found"):
        resolve_python(str(tmp_path / "no-python"))
    fake = tmp_path / "fakepy"
    fake.write_text("#!/bin/sh\necho hello\n")
    fake.chmod(0o755)
    with pytest.raises(UserError, match="does not run as a Python"):
        resolve_python(str(fake))


def test_parse_faulthandler_dump():
    text = textwrap.dedent("""\
        Thread 0x00007f1e2d7fe6c0 (most recent call first):
          File "/usr/lib/python3.11/threading.py", line 327 in wait
          File "/work/x.py", line 9 in worker

        Current thread 0x00007f1e3a5b2740 (most recent call first):
          File "/usr/lib/python3.11/queue.py", line 171 in get
          File "/work/x.py", line 20 in <module>
    """)
    stacks = parse_faulthandler(text)
    assert [s.current for s in stacks] == [False, True]
    assert stacks[0].thread_id == 0x00007F1E2D7FE6C0
    assert [(f.function, f.line) for f in stacks[1].frames] == [("get", 171), ("<module>", 20)]


def test_kill_active_stops_runs_of_other_threads(tmp_path):
    import threading
    import time

    from reportkit import runner

    script = write(tmp_path, "slow.py", "import time\ntime.sleep(120)\n")
    results = []
    worker = threading.Thread(target=lambda: results.append(run_script(spec(script, timeout=120))))
    start = time.monotonic()
    worker.start()
    while not runner._ACTIVE and time.monotonic() - start < 30:
        time.sleep(0.01)  # wait until the run is under way
    pids = [p.pid for p in runner._ACTIVE]
    runner.kill_active()
    worker.join(timeout=30)
    assert not worker.is_alive() and time.monotonic() - start < 30
    assert results[0].signal == signal.SIGKILL
    assert not [p for p in pids if _alive(p)] and not runner._ACTIVE
