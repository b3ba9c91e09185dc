"""Session dirs a killed reportkit left behind (SIGKILL, the OOM killer: no exit handler ran) hold copies of the
project; a later reportkit removes them — only those whose reportkit is gone, never a live one's, another user's or
one it cannot judge (another PID namespace sharing /tmp, no owner file). Found by round 14's judge: 585 of them in
/tmp after a day of test runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from reportkit.run import runner
from reportkit.run.sandbox import SESSION_PREFIX

pytestmark = pytest.mark.skipif(runner._process_identity(os.getpid()) is None, reason="needs Linux's /proc")


def _session(temp: Path, name: str, owner: dict | None, mode: int = 0o700) -> Path:
    path = temp / (SESSION_PREFIX + name)
    (path / "reportkit-x" / "app").mkdir(parents=True)
    (path / "reportkit-x" / "app" / "script.py").write_text("print('a copy of the project')\n")
    if owner is not None:
        (path / runner._OWNER_FILE).write_text(json.dumps(owner))
    path.chmod(mode)
    return path


def _running(text: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if text in " ".join(proc.info["cmdline"] or []):
                found.append(proc)
        except psutil.Error:
            continue
    return found


def test_only_sessions_whose_reportkit_is_gone_are_removed(tmp_path):
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    dead = runner._process_identity(done.pid)
    done.wait()
    alive = runner._process_identity(os.getpid())
    assert dead is not None and alive is not None
    reused = {**alive, "start": alive["start"] - 1}  # our pid, but another process's start: ours took its number
    gone = _session(tmp_path, "gone", dead)
    old_boot = _session(tmp_path, "oldboot", {**alive, "boot": "another-boot"})
    number_reused = _session(tmp_path, "reused", reused)
    live = _session(tmp_path, "live", alive)
    other_ns = _session(tmp_path, "otherns", {**dead, "pidns": "pid:[1]"})
    unknown = _session(tmp_path, "unknown", None)
    not_private = _session(tmp_path, "open", dead, mode=0o755)
    fifo = _session(tmp_path, "fifo", None)
    os.mkfifo(fifo / runner._OWNER_FILE)  # (read as nothing: no wait for a writer)
    lookalike = tmp_path / "reportkit-sessions-of-mine"
    lookalike.mkdir(mode=0o700)
    (lookalike / runner._OWNER_FILE).write_text(json.dumps(dead))

    removed = runner.remove_stale_sessions(tmp_path)
    assert sorted(removed) == sorted([gone, old_boot, number_reused])
    assert not gone.exists() and not old_boot.exists() and not number_reused.exists()
    for stays in (live, other_ns, unknown, not_private, fifo, lookalike):
        assert stays.exists(), stays


def _reportkit_in(tmp_path: Path, name: str, text: str, *command: str) -> tuple[Path, Path, dict, subprocess.Popen]:
    """A reportkit ``command`` started on ``app/name`` (``text``) with its own $TMPDIR; ``app/fails.py`` beside it."""
    temp, app = tmp_path / "tmp", tmp_path / "app"
    temp.mkdir()
    app.mkdir()
    (app / name).write_text(text)
    (app / "fails.py").write_text("raise ValueError('x')\n")
    env = {**os.environ, "TMPDIR": str(temp)}
    rk = subprocess.Popen([sys.executable, "-m", "reportkit", *command, str(app / name)],
                          env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    return temp, app, env, rk


def test_a_killed_reportkits_session_is_removed_by_the_next_one(tmp_path):
    """End to end: a reportkit SIGKILLed during a run leaves its session; the next run of reportkit removes it."""
    temp, app, env, rk = _reportkit_in(tmp_path, "hang.py", "import time\ntime.sleep(600)\n", "check", "--runs", "1")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(temp.glob(SESSION_PREFIX + "*/reportkit-*")):
            time.sleep(0.1)
        left = list(temp.glob(SESSION_PREFIX + "*"))
        assert len(left) == 1 and (left[0] / runner._OWNER_FILE).is_file(), left
    finally:
        rk.kill()
        rk.wait()
    psutil.wait_procs(_running(str(app)), timeout=10)  # (the run dies with reportkit)
    assert left[0].exists()  # (no exit handler ran)
    done = subprocess.run([sys.executable, "-m", "reportkit", "check", str(app / "fails.py"), "--runs", "1"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not left[0].exists()
    assert list(temp.glob(SESSION_PREFIX + "*")) == []  # (and the new one removed at its exit)


def test_a_killed_minimizations_warm_server_dir_goes_with_its_session(tmp_path):
    """A minimization SIGKILLed while its warm server runs left ``$TMPDIR/reportkit-warm-*`` (the server's home,
    made beside the session) for ever; the home is in the session dir now, and the next reportkit removes both."""
    temp, app, env, rk = _reportkit_in(tmp_path, "slow.py", "import time\na = 1\nb = 2\ntime.sleep(5)\nraise ValueError('x')\n",
                                       "minimize")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(temp.glob("*/*warm-*")) + list(temp.glob("*warm-*")):
            time.sleep(0.1)
        assert list(temp.glob("*/*warm-*")) + list(temp.glob("*warm-*")), sorted(temp.rglob("*"))
    finally:
        rk.kill()
        rk.wait()
    psutil.wait_procs(_running(str(app)), timeout=10)
    assert [p.name for p in temp.iterdir() if not p.name.startswith(SESSION_PREFIX)] == []
    done = subprocess.run([sys.executable, "-m", "reportkit", "check", str(app / "fails.py"), "--runs", "1"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(temp.iterdir()) == []


def test_what_a_killed_reportkits_runs_left_is_killed_with_its_session(tmp_path):
    """bubblewrap's sandbox init waits for its parent's set-up before it binds its life to it
    (containers/bubblewrap#633): a reportkit SIGKILLed in that moment left the init asleep for ever (ppid 1). Found
    in this machine's process list after the end-to-end test above. The next reportkit kills what names a gone
    session's paths, and nothing that names a live one's."""
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    dead = runner._process_identity(done.pid)
    done.wait()
    gone = _session(tmp_path, "gone", dead)
    live = _session(tmp_path, "live", runner._process_identity(os.getpid()))

    def orphan(session: Path) -> psutil.Process:
        """A sleeper whose parent is gone (as the bwrap init whose reportkit was killed), naming a run's dir."""
        pid_file = tmp_path / f"{session.name}.pid"
        subprocess.run(["sh", "-c", '"$0" -c "import time; time.sleep(600)" --bind "$1" & echo $! > "$2"',
                        sys.executable, str(session / "reportkit-x" / "run-1"), str(pid_file)], check=True)
        return psutil.Process(int(pid_file.read_text()))

    left, other = orphan(gone), orphan(live)
    try:
        assert runner.remove_stale_sessions(tmp_path) == [gone]
        assert not left.is_running()
        assert other.is_running() and live.exists() and not gone.exists()
    finally:
        for proc in (left, other):
            try:
                proc.kill()
            except psutil.Error:
                pass


def test_a_killed_bundles_workspace_goes_as_a_killed_session(tmp_path):
    """A bundle's workspace (then ``$TMPDIR/reportkit-bundle-*``: the debug run's logs and compiler artifacts, not yet
    redacted) was left for ever by a bundle that was killed; it has an owner file now and goes as a session does."""
    temp, app, env, rk = _reportkit_in(tmp_path, "hang.py", "import time\ntime.sleep(600)\n", "bundle")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list(temp.glob(runner.WORKSPACE_PREFIX + "*/" + runner._OWNER_FILE)):
            time.sleep(0.1)
        left = list(temp.glob(runner.WORKSPACE_PREFIX + "*"))
        assert len(left) == 1, sorted(temp.iterdir())
    finally:
        rk.kill()
        rk.wait()
    psutil.wait_procs(_running(str(app)), timeout=10)
    done = subprocess.run([sys.executable, "-m", "reportkit", "check", str(app / "fails.py"), "--runs", "1"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert list(temp.iterdir()) == []
