"""reportkit.run.pidlimit: the limit's setting, the run's pids cgroup (root) and the user's task count.

The fork bomb itself, through the real runner as root and as nobody, in every protection:
tests/test_sandbox_layers.py::test_a_fork_bomb_stops_at_the_process_limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from reportkit.errors import UserError
from reportkit.run import pidlimit


@pytest.mark.parametrize("text,expected", [("", pidlimit.DEFAULT), ("0", 0), ("64", 64), (" 512 ", 512)])
def test_the_limit_comes_from_the_environment(monkeypatch, text, expected):
    monkeypatch.setenv(pidlimit.MAX_ENV, text)
    assert pidlimit.limit() == expected


@pytest.mark.parametrize("text", ["-1", "many", "3", "1.5", "5000000"])
def test_a_bad_limit_is_one_clear_error(monkeypatch, text):
    monkeypatch.setenv(pidlimit.MAX_ENV, text)
    with pytest.raises(UserError, match=pidlimit.MAX_ENV):
        pidlimit.limit()


def test_a_bad_limit_stops_the_cli_with_a_message_not_a_traceback(tmp_path):
    script = tmp_path / "fail.py"
    script.write_text("raise ValueError('x')\n")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "check", str(script), "--runs", "1"],
                          capture_output=True, text=True, env={**os.environ, pidlimit.MAX_ENV: "lots"}, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert pidlimit.MAX_ENV in proc.stderr and "Traceback" not in proc.stderr


def test_no_limit_leaves_the_command_as_it_is():
    with pidlimit.Group(0) as group:
        assert group.path is None
        assert group.wrap(["python3", "x.py"]) == ["python3", "x.py"]


def test_the_tasks_counted_are_this_process_and_its_threads_at_least(monkeypatch):
    """Threads count. Only this process is looked at (/proc listed as itself): the user's other processes come and
    go while it counts (a suite's other workers: the whole user's count fell by two in a run with -n 3)."""
    from reportkit.run import _confine

    listdir = os.listdir
    monkeypatch.setattr(_confine.os, "listdir", lambda path: [str(os.getpid())] if path == "/proc" else listdir(path))
    before = _confine.counted_tasks()
    assert before >= 1
    stop = threading.Event()
    threads = [threading.Thread(target=stop.wait) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        assert _confine.counted_tasks() == before + 3
    finally:
        stop.set()
        for t in threads:
            t.join()


def test_a_run_that_is_not_root_gets_the_limit_and_root_none(monkeypatch):
    monkeypatch.setattr(pidlimit.os, "getuid", lambda: 65534)
    monkeypatch.setenv(pidlimit.MAX_ENV, "100")
    assert pidlimit.nproc_for_run() == 100
    monkeypatch.setenv(pidlimit.MAX_ENV, "0")
    assert pidlimit.nproc_for_run() is None
    monkeypatch.setattr(pidlimit.os, "getuid", lambda: 0)
    monkeypatch.setenv(pidlimit.MAX_ENV, "100")
    assert pidlimit.nproc_for_run() is None  # (root: the kernel ignores RLIMIT_NPROC; the cgroup holds it)


needs_cgroup = pytest.mark.skipif(os.geteuid() != 0 or pidlimit.parent_dir() is None,
                                  reason="needs root and a writable pids cgroup")


@needs_cgroup
def test_a_runs_group_holds_its_tasks_and_goes_with_everything_in_it():
    with pidlimit.Group(16) as group:
        assert group.path is not None and os.path.isdir(group.path)
        with open(os.path.join(group.path, "pids.max")) as fh:
            assert fh.read().strip() == "16"
        # a shell in the group forks 40 sleepers in the background: the kernel refuses after 16 tasks
        proc = subprocess.run(group.wrap(["/bin/sh", "-c", "n=0; while [ $n -lt 40 ]; do sleep 60 >/dev/null 2>&1 & "
                                          "n=$((n+1)); done; echo started"]), capture_output=True, text=True,
                              timeout=60)
        assert "fork" in proc.stderr.lower() or "resource" in proc.stderr.lower(), proc.stderr
        left = pidlimit._tasks(group.path)
        assert 0 < len(left) <= 16
        path = group.path
    assert not os.path.exists(path)
    for pid in left:
        assert not os.path.exists(f"/proc/{pid}") or open(f"/proc/{pid}/stat").read().split()[2] == "Z"


@needs_cgroup
def test_groups_of_a_reportkit_that_died_are_swept():
    parent = pidlimit.parent_dir()
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = os.path.join(parent, f"{pidlimit.PREFIX}{dead.pid}-7")
    os.mkdir(stale)
    try:
        pidlimit._sweep(parent)
        assert not os.path.exists(stale)
    finally:
        if os.path.exists(stale):
            os.rmdir(stale)


def test_the_sandbox_line_says_what_holds_the_tasks(monkeypatch):
    monkeypatch.setattr(pidlimit.os, "geteuid", lambda: 65534)
    assert pidlimit.describe(64, own_user_ns=True) == "at most 64 tasks (RLIMIT_NPROC)"
    assert pidlimit.describe(64, own_user_ns=False) == "at most 64 tasks more than the user has (RLIMIT_NPROC)"
    assert pidlimit.describe(0) == f"processes not limited ({pidlimit.MAX_ENV}=0)"
    monkeypatch.setattr(pidlimit.os, "geteuid", lambda: 0)
    monkeypatch.setattr(pidlimit, "parent_dir", lambda: None)
    assert pidlimit.describe(64) == "processes not limited (root, no writable pids cgroup here)"
    monkeypatch.setattr(pidlimit, "parent_dir", lambda: "/sys/fs/cgroup/pids")
    assert pidlimit.describe(64) == "at most 64 tasks (a pids cgroup per run)"
