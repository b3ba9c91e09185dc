"""The sandboxed runner: exceptions, exits, signals, hangs, process-group kill, scratch dirs, limits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psutil
import pytest
from scripts import HANG_WITH_SPINNER, HOPPER, zombies_left

from reportkit.errors import UserError
from reportkit.run.runner import Sandbox, parse_faulthandler, read_script, resolve_python, run_script
from reportkit.run.spec import RunSpec


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


def test_a_run_that_stopped_itself_still_shows_where(tmp_path):
    """Round 9 of sandbox attacks (an observation): a script that stops itself (SIGSTOP) cannot answer the stack
    request (SIGUSR1 stays pending while it is stopped), so reportkit waited the whole grace for nothing and the
    hang had no frame. It is continued once the request is pending: the dump comes first, from where it stopped."""
    script = write(tmp_path, "stops.py", "import os, signal\n\n\ndef pause():\n"
                                         "    os.kill(os.getpid(), signal.SIGSTOP)\n\n\npause()\n")
    result = run_script(spec(script, timeout=1.5))
    assert result.timed_out
    main = result.main_stack
    assert main is not None and "pause" in [f.function for f in main.frames], result.stacks


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _marker(tmp_path) -> str:
    """A command-line marker unique to one test (tests run in parallel under xdist)."""
    return "reportkit-test-descendant-" + tmp_path.name + "-" + str(os.getpid())


def _marked(marker: str) -> list[int]:
    """Processes (other than this one) whose command line carries the marker."""
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if proc.pid != os.getpid() and any(marker in part for part in proc.info["cmdline"] or []):
                found.append(proc.pid)
        except psutil.Error:
            continue
    return found


def test_timeout_leaves_no_descendants(tmp_path, protection_mode):
    marker = _marker(tmp_path)
    script = write(tmp_path, "spawner.py", f"""
        import os, subprocess, sys, time
        sleeper = "import time; time.sleep(300)  # {marker}"
        code = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', %r]); time.sleep(300)" % sleeper
        child = subprocess.Popen([sys.executable, "-c", code])
        escaped = subprocess.Popen([sys.executable, "-c", sleeper], start_new_session=True)
        time.sleep(1.0)
        print("spawned", flush=True)
        time.sleep(300)
    """)
    result = run_script(spec(script, timeout=4))
    assert result.timed_out and "spawned" in result.stdout
    assert _marked(marker) == []


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

    from reportkit.run import runner

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


# --------------------------------------------------------------------------- the sandbox (issue 12)


def test_exception_then_a_thread_that_keeps_running_is_the_exception(tmp_path, protection_mode):
    script = write(tmp_path, "thr.py", """
        import threading, time

        def worker():
            while True:
                time.sleep(0.05)

        threading.Thread(target=worker).start()
        raise KeyError("the real failure")
    """)
    result = run_script(spec(script, timeout=3))
    assert not result.timed_out and result.hung_after_exception
    assert result.exception.type == "KeyError" and result.exception.message == "'the real failure'"


def test_writes_outside_the_scratch_dir_are_refused_reads_work(tmp_path, protection_mode):
    data = tmp_path / "data" / "records.txt"
    data.parent.mkdir()
    data.write_text("1,2,3\n")
    app = tmp_path / "app"
    app.mkdir()
    script = write(app, "vandal.py", f"""
        import os, shutil, tempfile

        print("read", open({str(data)!r}).read().strip())
        for label, attempt in [
                ("write", lambda: open({str(tmp_path / 'out.txt')!r}, "w").write("x")),
                ("append", lambda: open({str(data)!r}, "a").write("4\\n")),
                ("delete", lambda: os.remove({str(data)!r})),
                ("rmtree", lambda: shutil.rmtree({str(data.parent)!r})),
                ("rename", lambda: os.rename({str(data)!r}, {str(tmp_path / 'moved.txt')!r})),
                ("mkdir", lambda: os.mkdir({str(tmp_path / 'newdir')!r}))]:
            try:
                attempt()
                print(label, "DONE")
            except OSError as exc:
                print(label, "refused", type(exc).__name__)
        open("here.txt", "w").write("scratch is writable")
        open(os.path.join(os.environ["HOME"], ".cache-file"), "w").write("home is writable")
        with tempfile.NamedTemporaryFile("w", delete=False) as fh:
            fh.write("tmp is writable")
        print("home", os.environ["HOME"])
        print("tmp", tempfile.gettempdir())
        raise SystemExit(3)
    """)
    result = run_script(spec(script))
    assert result.returncode == 3, result.stderr
    assert "read 1,2,3" in result.stdout and "DONE" not in result.stdout
    assert result.stdout.count("refused") == 6
    assert data.read_text() == "1,2,3\n" and sorted(p.name for p in tmp_path.iterdir()) == ["app", "data"]
    home = next(line.split(" ", 1)[1] for line in result.stdout.splitlines() if line.startswith("home "))
    tmp = next(line.split(" ", 1)[1] for line in result.stdout.splitlines() if line.startswith("tmp "))
    assert home != os.path.expanduser("~") and "reportkit-" in home and "reportkit-" in tmp


def test_fallback_guard_refuses_shells_and_network(tmp_path, monkeypatch):
    from reportkit.run import sandbox

    monkeypatch.setenv(sandbox.FORCE_ENV, "fallback")
    script = write(tmp_path, "calls.py", """
        import os, socket, subprocess, sys

        for label, attempt in [
                ("system", lambda: os.system("true")),
                ("shell", lambda: subprocess.run("true", shell=True)),
                ("connect", lambda: socket.create_connection(("127.0.0.1", 9), timeout=1))]:
            try:
                attempt()
                print(label, "DONE")
            except PermissionError as exc:
                print(label, "refused:", exc)
            except OSError as exc:
                print(label, "failed otherwise:", type(exc).__name__)
        subprocess.run([sys.executable, "-c", "print('child program runs')"], check=True)
    """)
    result = run_script(spec(script, network=False))
    assert result.returncode == 0, result.stderr
    for label in ("system", "shell", "connect"):
        assert f"{label} refused: " in result.stdout
    assert "child program runs" in result.stdout


def test_bubblewrap_exit_status_keeps_signals_and_exit_codes_apart(tmp_path, monkeypatch):
    from reportkit.run import sandbox

    monkeypatch.setenv(sandbox.FORCE_ENV, "bwrap")
    try:
        sandbox.protection()
    except UserError as exc:
        pytest.skip(exc.message)
    crash = write(tmp_path, "crash.py", "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    result = run_script(spec(crash))
    assert result.signal == signal.SIGSEGV and result.returncode is None
    code = write(tmp_path, "code.py", "import sys\nsys.exit(139)\n")
    result = run_script(spec(code))
    assert result.returncode == 139 and result.signal is None


def test_daemons_left_by_a_run_that_exits_are_killed(tmp_path, protection_mode):
    marker = _marker(tmp_path)
    script = write(tmp_path, "daemons.py", f"""
        import os, subprocess, sys
        sleeper = "import time; time.sleep(300)  # {marker}"
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", sleeper])
            os._exit(0)
        os.waitpid(pid, 0)
        subprocess.Popen([sys.executable, "-c", sleeper], start_new_session=True)
        raise RuntimeError("done")
    """)
    result = run_script(spec(script))
    assert result.exception.type == "RuntimeError"
    assert _marked(marker) == []


def test_a_run_that_forks_in_a_loop_leaves_no_zombies(tmp_path, protection_mode):
    """Round 16 of sandbox attacks: a candidate's orphan that forks and exits in a loop (one process alive at a
    time) was adopted by the run's own process, a child subreaper that never waits for processes it did not
    start: one zombie per hop, 32,000 in 6 s, and the machine's PID space was gone (every fork failed, the
    host's too). The run's reaper is above it now (bubblewrap's init, the fallback's keeper) and reaps them."""
    script = write(tmp_path, "hop.py", HOPPER)
    assert zombies_left(run_script(spec(script))) < 5


@pytest.mark.parametrize("tmpdir", [".", "tmp"])
def test_a_script_in_the_temp_dir_is_copied_without_reportkits_own_scratch(tmp_path, tmpdir):
    """Round 16 of sandbox attacks: a script in $TMPDIR (``/tmp/repro.py``), or in a directory holding it, was copied
    for its runs with reportkit's session dir in it, the copy into itself, until "File name too long": a traceback."""
    proj = tmp_path / "proj"
    temp = proj / tmpdir
    temp.mkdir(parents=True, exist_ok=True)
    script = write(proj, "repro.py", "import os\nraise ValueError(sorted(os.listdir('.')))\n")
    env = {**os.environ, "TMPDIR": str(temp)}
    proc = subprocess.run([sys.executable, "-m", "reportkit", "check", str(script), "--runs", "1"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    listed = "['repro.py']" if tmpdir == "." else "['repro.py', 'tmp']"
    assert listed in proc.stdout, proc.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="another user's private files: root can read them, the runs cannot")
def test_the_copy_leaves_out_what_the_runs_could_not_read_where_it_is(tmp_path):
    """Round 17 of sandbox attacks (blind): as root, a 0600 file of another user (or a file in their 0700 directory)
    beside the script was copied for the runs with root's rights, and its content reached the failure's message and
    the bundle. The copy holds what the runs could read in place: the rest is left out."""
    proj = tmp_path / "proj"
    proj.mkdir()
    proj.chmod(0o755)
    script = write(proj, "s.py", "raise ValueError('x')\n")
    (proj / "theirs.txt").write_text("private\n")
    (proj / "public.txt").write_text("public\n")
    (proj / "their_dir").mkdir()
    (proj / "their_dir" / "f.txt").write_text("private\n")
    for path, mode in ((proj / "theirs.txt", 0o600), (proj / "their_dir", 0o700), (proj / "public.txt", 0o644)):
        os.chown(path, 65534, 65534)
        path.chmod(mode)
    box = Sandbox(script)
    try:
        work, _ = box.make()
        assert sorted(p.name for p in work.iterdir()) == ["public.txt", "s.py"]
    finally:
        box.cleanup()


def test_what_vanished_during_the_copy_is_not_an_error(tmp_path):
    """Round 21 of planted secrets, re-run: ``minimize`` beside a ``bundle`` of the same directory stopped with "cannot
    copy the script's directory" when the bundle's ``.partial-`` staging dir went between copytree's listing and its
    copy (a file that vanishes was skipped already). What is gone is skipped; what is there and fails is an error."""
    import shutil

    from reportkit.run.runner import _copy_errors

    gone = tmp_path / ".out.partial-x" / "env"
    _copy_errors(shutil.Error([(str(gone), str(tmp_path / "c"), f"[Errno 2] No such file or directory: '{gone}'")]),
                 tmp_path)
    there = tmp_path / "there"
    there.mkdir()
    with pytest.raises(UserError, match="cannot copy the script's directory .*Errno 13"):
        _copy_errors(shutil.Error([(str(gone), "c", "[Errno 2]"), (str(there), "d", "[Errno 13] denied")]), tmp_path)


def test_pytest_mirror_copies_small_files_and_links_directories(tmp_path):
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "pkg").mkdir()
    (root / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (root / "README.md").write_text("# r\n")
    test = root / "tests" / "test_x.py"
    test.write_text("def test_x():\n    assert 0\n")
    box = Sandbox(test, mirror_root=root)
    try:
        work, _ = box.make()
        assert not (work / "README.md").is_symlink() and (work / "README.md").read_text() == "# r\n"
        assert (work / "pkg").is_symlink()
        assert (work / "tests").is_dir() and not (work / "tests").is_symlink()
    finally:
        box.cleanup()


def test_the_interpreters_version_is_asked_without_its_site(tmp_path):
    """Round 10 of sandbox attacks (not promised, fixed): reportkit asks ``--python`` its version outside any sandbox;
    a ``.pth`` of that interpreter's site-packages (a virtual environment's, another HOME's user site under
    ``sudo -E``) ran there. It is asked with ``-I -S`` now: nothing of site acts."""
    from reportkit.run import runner

    canary = tmp_path / "canary"
    base = Path(os.path.realpath(sys.executable))
    venv = tmp_path / "venv"
    site = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    site.mkdir(parents=True)
    (venv / "bin").mkdir()
    (venv / "bin" / "python").symlink_to(base)
    (venv / "pyvenv.cfg").write_text(f"home = {base.parent}\ninclude-system-site-packages = false\n")
    (site / "planted.pth").write_text(f"import os; open({str(canary)!r}, 'a').write('x')\n")
    subprocess.run([str(venv / "bin" / "python"), "-c", "pass"], check=True)
    assert canary.exists()  # (the .pth runs at a plain start)
    canary.unlink()
    runner._PY_VERSION_CACHE.clear()
    assert runner.resolve_python(str(venv / "bin" / "python")) == str(venv / "bin" / "python")
    assert not canary.exists()


def test_a_file_that_grows_after_the_size_check_is_not_copied_on(tmp_path, monkeypatch):
    """Round 10 of sandbox attacks (not promised, fixed): the project's size is checked once, then copied for every
    run; a sparse file extended to 6 GiB behind the check was copied dense (1 GiB written when the test stopped
    reportkit). The copy now stops at the check's limit, with the check's message."""
    from reportkit.errors import UserError as Refused
    from reportkit.run import runner

    monkeypatch.setattr(runner, "COPY_MAX_BYTES", 4 * 2**20)
    app = tmp_path / "app"
    app.mkdir()
    script = write(app, "s.py", "raise ValueError('x')\n")
    (app / "data.bin").write_bytes(b"x" * 1024)
    box = Sandbox(script)  # (passes the check)
    try:
        work, _ = box.make()
        assert (work / "data.bin").stat().st_size == 1024  # (a file within the limit is copied as it is)
        with open(app / "data.bin", "r+b") as fh:
            fh.truncate(64 * 2**20)  # (sparse: it grows, on disk nothing)
        with pytest.raises(Refused, match="grew past 4 MiB while it was copied"):
            box.make()
        copied = sum(p.stat().st_blocks * 512 for p in box.root.rglob("data.bin"))
        assert copied <= 6 * 2**20
    finally:
        box.cleanup()


def test_a_script_swapped_for_a_link_is_never_written_through(tmp_path):
    """A candidate's source is written in place of the script's copy; a link the copy kept there (the script was
    swapped for one while reportkit ran) is replaced, never written through into its target."""
    proj, victim = tmp_path / "proj", tmp_path / "victim.txt"
    proj.mkdir()
    victim.write_text("precious\n")
    (proj / "a.py").write_text("x = 1\n")
    box = Sandbox(proj / "a.py")
    try:
        (proj / "a.py").unlink()
        (proj / "a.py").symlink_to(victim)
        _work, target = box.make("y = 2\n")
        assert victim.read_text() == "precious\n"
        assert not target.is_symlink() and target.read_text() == "y = 2\n"
    finally:
        box.cleanup()


@pytest.mark.skipif(os.geteuid() != 0, reason="reading another user's file for the runs needs root")
@pytest.mark.parametrize("swapped", ["script", "directory"])
def test_a_script_swapped_for_a_link_to_a_private_file_is_not_read_for_the_runs(tmp_path, swapped):
    """Sandbox attacks round 13 (blind): the script was a regular file when reportkit read it; after the first run
    another user replaced it by a link to nobody's 0600 file in a 0700 dir, and the next run's Sandbox resolved the
    name again and copied that file for the run with root's rights."""
    private = tmp_path / "nobody"
    private.mkdir()
    (private / "a.py").write_text("SECRET = 'third party'\n")
    for path, mode in ((private / "a.py", 0o600), (private, 0o700)):
        os.chown(path, 65534, 65534)
        os.chmod(path, mode)
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "a.py").write_text("x = 1\n")
    box = Sandbox(proj / "a.py")
    try:
        box.make()  # (as it was: fine)
        if swapped == "script":
            (proj / "a.py").unlink()
            (proj / "a.py").symlink_to(private / "a.py")
        else:
            proj.rename(tmp_path / "proj-old")
            proj.symlink_to(private)
        with pytest.raises(UserError, match="changed while reportkit ran"):
            box.make()
        with pytest.raises(UserError, match="changed while reportkit ran"):
            Sandbox(proj / "a.py")
    finally:
        box.cleanup()


@pytest.mark.parametrize("swap", [False, True])
def test_a_copied_file_takes_the_mode_and_times_of_the_file_it_read_not_of_a_link_swapped_in(tmp_path, monkeypatch, swap):
    """The copy's mode and times come from the file opened for the copy. A name swapped for a link to another file
    between the open and the stat (another local user's race) must not lend that file's mode or times."""
    from reportkit.run import runner

    src, other, dst = tmp_path / "a.py", tmp_path / "other", tmp_path / "copy.py"
    src.write_text("x = 1\n")
    other.write_text("y = 2\n")
    os.chmod(src, 0o640)
    os.utime(src, ns=(1_000_000_000, 2_000_000_000))
    os.chmod(other, 0o777)
    os.utime(other, ns=(5_000_000_000, 6_000_000_000))
    real_open = runner.open_regular

    def open_then_swap(path, *args, **kwargs):
        fh = real_open(path, *args, **kwargs)
        if swap:
            os.replace(src, tmp_path / "moved")
            os.symlink(other, src)
        return fh

    monkeypatch.setattr(runner, "open_regular", open_then_swap)
    runner._copy_if_present(str(src), str(dst), [1 << 20], tmp_path)
    st = dst.stat()
    assert dst.read_text() == "x = 1\n"
    assert (oct(st.st_mode & 0o777), st.st_mtime_ns) == (oct(0o640), 2_000_000_000)


@pytest.mark.parametrize("given", ["inherited", "none"])
def test_a_cache_dir_the_users_shell_exports_is_not_where_runs_write(tmp_path, monkeypatch, given):
    """Sandbox attacks round 15 (blind): a user's ``export TORCHINDUCTOR_CACHE_DIR=~/cache`` reached the runs, whose
    compile then wrote into a directory the sandbox keeps read-only — the failure reported was the sandbox's
    OSError, not the script's. Runs get caches of their own; the user's directory is left as it was."""
    user_cache = tmp_path / "user-cache"
    user_cache.mkdir()
    if given == "inherited":
        monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(user_cache))
        monkeypatch.setenv("TRITON_CACHE_DIR", str(user_cache))
    (tmp_path / "proj").mkdir()
    script = write(tmp_path / "proj", "main.py", """
        import os, tempfile
        for var in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
            where = os.environ.get(var) or os.path.join(tempfile.gettempdir(), var.lower())
            os.makedirs(where, exist_ok=True)
            with open(os.path.join(where, "entry"), "w") as fh:
                fh.write("compiled")
        raise ValueError("the script's own failure")
    """)
    result = run_script(spec(script))
    assert (result.exception.type, result.exception.message) == ("ValueError", "the script's own failure")
    assert list(user_cache.iterdir()) == []


def test_a_sandbox_that_bwrap_cannot_build_is_tried_again_with_the_sockets_listed_again(tmp_path, monkeypatch):
    """A host socket bwrap masks may go away between the listing and bwrap's mount (a busy host, another suite's
    sockets): the run is tried again with a fresh listing, a few times, not once (round 29's attack suite beside a
    ``check``: the failure of 1 of 2 runs read as a flaky script)."""
    from reportkit.run import sandbox

    monkeypatch.setenv(sandbox.FORCE_ENV, "bwrap")
    try:
        sandbox.protection()
    except Exception as exc:  # noqa: BLE001 - no usable bwrap here
        pytest.skip(str(exc))
    real, calls = sandbox.bwrap_masks, []

    def gone_twice(exclude):
        calls.append(1)
        gone = ["--ro-bind", "/dev/null", str(tmp_path / "gone" / "agent.sock")] if len(calls) <= 2 else []
        return gone + real(exclude)

    monkeypatch.setattr(sandbox, "bwrap_masks", gone_twice)
    result = run_script(spec(write(tmp_path, "fail.py", "raise ValueError('x')\n")))
    assert result.exception is not None and result.exception.type == "ValueError", result
    assert len(calls) == 3
