"""The hang watch: hanging candidates decided once they sit in the original's blocked frame, without
waiting for the timeout, in the cold and the warm executor; everything else decided as before."""

from __future__ import annotations

import json
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

import reportkit.run.executor as ex
from reportkit.failure import hang
from reportkit.failure.check import establish
from reportkit.failure.signature import MatchPolicy, same_failure, signature_of
from reportkit.reduce.minimize import MinimizeOptions, hang_wakers, minimize
from reportkit.run import hangwatch
from reportkit.run.executor import ColdExecutor, WarmExecutor
from reportkit.run.runner import Sandbox
from reportkit.run.spec import RunSpec

EXECUTORS = ["cold", pytest.param("warm", marks=pytest.mark.skipif(ex.warm_supported() is not None,
                                                                   reason=str(ex.warm_supported())))]

# the main thread waits on a queue twice: a short wait that returns (a worker puts after 0.3 s), then
# one that never returns (the worker is done)
HANG = """
import queue, threading, time

q = queue.Queue()

def worker():
    time.sleep(0.3)
    q.put(1)

threading.Thread(target=worker).start()
print(q.get())
q.get()
"""


def write(directory: Path, code: str, name: str = "s.py") -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(code).lstrip(), encoding="utf-8")
    return path


def make(kind: str):
    return ColdExecutor() if kind == "cold" else WarmExecutor(["queue", "threading"])


def run_once(kind: str, spec: RunSpec):
    """One run of ``spec`` on a fresh ``kind`` executor and sandbox, both closed afterwards."""
    box = Sandbox(spec.script)
    executor = make(kind)
    try:
        return executor.run(spec, None, box)
    finally:
        executor.close()
        box.cleanup()


@pytest.fixture
def original(tmp_path):
    script = write(tmp_path, HANG)
    spec = RunSpec(script=script, python=sys.executable, timeout=2)
    rep = establish(spec, MatchPolicy(), runs=1)
    assert rep.signature.kind == "hang" and rep.signature.location.function == "wait"
    return script, spec, rep


def test_block_timing_from_samples(tmp_path):
    lines = ["0.05\t1\tf.py\t3\tmain", "0.10\t2\tq.py\t9\twait", "0.15\t2\tq.py\t9\twait",
             "0.20\t2\tq.py\t9\twait", "0.25\t3\tq.py\t9\twait",  # returned and waited again
             "0.30\t3\tq.py\t9\twait", "0.35\t3\tq.py\t9\twait", "0.40\t3\tq.py\t9\twa"]
    (tmp_path / "samples.txt").write_text("\n".join(lines))  # the last line was cut by the kill
    reach, earlier, quiet, stale = hangwatch.block_timing(tmp_path, 0.05)
    assert reach == pytest.approx(0.20)  # the last sample of the call before the final one
    assert earlier == pytest.approx(0.15)  # 0.10-0.20, plus one interval
    assert quiet == 0.0 and stale == 0.0  # samples without the newer fields: never quiet, every sample a new call
    assert hangwatch.parse_samples("1.5\t-\nbad\n")[0] == (1.5, 0, None, False, -1.0, -1, True, -1.0)


@pytest.mark.parametrize("kind", EXECUTORS)
def test_hang_in_the_blocked_frame_is_decided_early(original, kind):
    script, spec, rep = original
    policy = MatchPolicy()
    box = Sandbox(script)
    executor = make(kind)
    try:
        measured, note = hang.arm(replace(spec, timeout=60), rep, policy,
                                       hang.run_sampled(executor, spec, None, box))
        watch = measured.hang_watch
        assert watch is not None, note
        assert watch.earlier >= 0.2  # the first q.get() waited ~0.3 s and returned
        assert watch.hold >= hangwatch.HOLD_FACTOR * watch.earlier and watch.hold >= hangwatch.HOLD_MIN
        assert "hangs decided after" in note
        result = executor.run(measured, None, box)
        assert result.hang_early and result.timed_out
        assert result.duration < 20  # far from the 60 s timeout
        assert same_failure(rep.signature, signature_of(result, policy), policy)
        assert result.stacks  # the all-thread dump was taken as for a timeout
    finally:
        executor.close()
        box.cleanup()


@pytest.mark.parametrize("kind", EXECUTORS)
def test_waits_shorter_than_the_hold_and_other_hangs_are_decided_as_before(tmp_path, original, kind):
    _, spec, rep = original
    watch = hangwatch.HangWatch(location=hang.HangSite(rep.signature.location), hold=1.5, interval=0.05)
    # waits 0.6 s in the same frame, then finishes: a normal exit, not a hang
    returns = write(tmp_path, HANG.replace("time.sleep(0.3)", "time.sleep(0.6)").replace("\nq.get()\n", "\n"),
                    "returns.py")
    # blocked somewhere else: runs into the timeout as without the watch
    elsewhere = write(tmp_path, "import time\ntime.sleep(60)\n", "elsewhere.py")
    executor = make(kind)
    try:
        for script, timeout in ((returns, 30), (elsewhere, 2)):
            box = Sandbox(script)
            run = RunSpec(script=script, python=sys.executable, timeout=timeout, hang_watch=watch)
            result = executor.run(run, None, box)
            box.cleanup()
            assert not result.hang_early
            if script is returns:
                assert result.returncode == 0 and not result.timed_out and result.stdout.strip() == "1"
            else:
                assert result.timed_out and result.duration >= 2
                assert signature_of(result).location.function == "<module>"
    finally:
        executor.close()


@pytest.mark.parametrize("kind", EXECUTORS)
def test_sampling_is_invisible_to_the_script(tmp_path, kind):
    script = write(tmp_path, """
        import json, os, threading, time
        time.sleep(0.3)  # a few samples are taken meanwhile
        print(json.dumps([threading.active_count(), len(threading.enumerate()),
                          any(k.startswith("REPORTKIT_SAMPLE") for k in os.environ)]))
    """)
    result = run_once(kind, RunSpec(script=script, python=sys.executable, timeout=30, sample_stacks=0.05))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [1, 1, False]
    assert result.block_timing is not None  # it was sampled


def test_minimize_a_hang_without_paying_the_timeout_per_candidate(tmp_path):
    script = write(tmp_path, """
        import queue
        import threading
        import time

        jobs = queue.Queue()
        done = threading.Event()
        total = sum(range(10))
        print("waiting for jobs", total)
        jobs.get()
    """)
    spec = RunSpec(script=script, python=sys.executable, timeout=6)
    policy = MatchPolicy()
    rep = establish(replace(spec, timeout=2), policy, runs=1)
    report = minimize(spec, script.read_text(), rep, policy,
                      MinimizeOptions(output=tmp_path / "out.py", jobs=1, executor="cold"))
    assert report.verified  # re-checked without the watch: it ran into the whole timeout once
    assert report.lines_after == 2 and ".get()" in (tmp_path / "out.py").read_text()
    assert "hangs decided after" in report.executor_note
    # every hanging candidate was decided by the watch, none by the timeout (all threads blocked: quiet)
    assert report.hang_ended and "timeout" not in report.hang_ended
    assert set(report.hang_ended) <= {"quiet (same)", "frame (same)"}


def sample_line(t, call, line, still, cpu, fresh, main_cpu, kids=0, file="q.py", function="wait"):
    return f"{t:.2f}\t{call}\t{file}\t{line}\t{function}\t{int(still)}\t{cpu:.3f}\t{kids}\t{int(fresh)}\t{main_cpu:.2f}"


def test_quiet_and_stale_stretches_from_samples(tmp_path):
    lines = [sample_line(0.1, 1, 3, False, 0.10, True, 0.10, file="f.py", function="main"),
             # a wait elsewhere while everything else is still: quiet for 0.2 s (0.1-0.3), then it returns
             sample_line(0.2, 2, 5, False, 0.10, True, 0.10, file="f.py", function="other"),
             sample_line(0.3, 2, 5, True, 0.10, False, 0.10, file="f.py", function="other"),
             # a child process: not quiet although still
             sample_line(0.4, 2, 5, True, 0.10, False, 0.10, kids=1, file="f.py", function="other"),
             # busy in frames already seen (no new call) for 0.1-0.5, then a new call
             sample_line(0.5, 2, 6, False, 0.20, False, 0.20, file="f.py", function="other"),
             sample_line(0.6, 3, 9, False, 0.30, True, 0.30),  # the final (blocked) frame from here on
             sample_line(0.7, 3, 9, True, 0.30, False, 0.30), sample_line(0.8, 3, 9, True, 0.30, False, 0.30)]
    (tmp_path / "samples.txt").write_text("\n".join(lines) + "\n")
    reach, earlier, quiet, stale = hangwatch.block_timing(tmp_path, 0.1)
    assert reach == pytest.approx(0.5) and earlier == 0.0
    assert quiet == pytest.approx(0.1 + 2 * 0.1)  # 0.2-0.3 (the quiet sample pair), plus an interval each side
    assert stale == pytest.approx(0.3 + 2 * 0.1)  # 0.2-0.5 without a new call, outside the final frame
    samples = hangwatch.parse_samples("\n".join(lines))
    assert hangwatch.quiet_stretches(samples) == [(1, 2), (5, 7)]  # the last one is the hang itself


def watch_for(rep, **holds):
    """A candidate's watch on the HANG original: the frame rule far away unless asked."""
    return hangwatch.HangWatch(location=hang.HangSite(rep.signature.location), hold=holds.pop("hold", 60.0), interval=0.05, **holds)


# hangs elsewhere, each decided by the rule named: the main thread blocked in another frame with every
# thread still (a lock taken twice); interpreter shutdown waiting for a non-daemon thread that waits
# forever; a main thread spinning without calls
ELSEWHERE = {
    "quiet-lock": ("import threading\nlock = threading.Lock()\nlock.acquire()\nlock.acquire()\n", "quiet"),
    "quiet-shutdown": ("import threading\nthreading.Thread(target=threading.Event().wait).start()\nprint('left')\n",
                       "quiet"),
    "spin": ("n = 0\nwhile True:\n    n += 1\n", "spin"),
}


@pytest.mark.parametrize("kind", EXECUTORS)
@pytest.mark.parametrize("case", sorted(ELSEWHERE))
def test_hangs_elsewhere_are_decided_differently_without_the_timeout(tmp_path, original, kind, case):
    _, _, rep = original
    code, reason = ELSEWHERE[case]
    script = write(tmp_path, code, "elsewhere.py")
    result = run_once(kind, RunSpec(script=script, python=sys.executable, timeout=60,
                                    hang_watch=watch_for(rep, quiet_hold=0.5, spin_hold=1.0)))
    assert result.hang_early == reason and result.timed_out
    assert result.duration < 30  # far from the 60 s timeout
    sig = signature_of(result)
    assert sig.kind == "hang" and not same_failure(rep.signature, sig, MatchPolicy())
    if case == "quiet-shutdown":
        assert result.stdout.strip() == "left" and sig.location.function == "_shutdown"


@pytest.mark.parametrize("kind", EXECUTORS)
def test_quiet_in_the_blocked_frame_is_the_same_hang_sooner(original, kind):
    _, spec, rep = original
    result = run_once(kind, replace(spec, timeout=60, hang_watch=watch_for(rep, quiet_hold=0.5)))
    # the first q.get() returns (the worker sleeps 0.3 s, quiet for less than 0.5 s), the second is the hang
    assert result.hang_early == "quiet" and result.stdout.strip() == "1"
    assert same_failure(rep.signature, signature_of(result), MatchPolicy())


# moving on before the holds: a quiet wait elsewhere shorter than the quiet hold, a busy loop that keeps
# making new calls (longer than the spin hold), a thread that keeps moving while the main thread waits
# elsewhere; each finishes normally
MOVING = """
import threading, time

time.sleep(0.3)

def work():
    return sum(range(20000))

start = time.monotonic()
while time.monotonic() - start < 1.5:
    work()
stop = threading.Event()

def beat():
    while not stop.wait(0.01):
        pass

t = threading.Thread(target=beat)
t.start()
threading.Thread(target=lambda: (time.sleep(1.5), stop.set())).start()
t.join()
print("done")
"""


@pytest.mark.parametrize("kind", EXECUTORS)
def test_runs_that_move_on_are_not_decided_early(tmp_path, original, kind):
    _, _, rep = original
    script = write(tmp_path, MOVING, "moving.py")
    result = run_once(kind, RunSpec(script=script, python=sys.executable, timeout=60,
                                    hang_watch=watch_for(rep, quiet_hold=1.0, spin_hold=1.0)))
    assert not result.hang_early and result.returncode == 0, (result.hang_early, result.stderr)
    assert result.stdout.strip() == "done"


# --------------------------------------------------------------------------- child processes of a hang

# the script's child writes more than a pipe holds while the script waits for it: both block for ever
PIPE_HANG = """
import subprocess, sys

child = subprocess.Popen([sys.executable, "-c", "print('x' * 300000)"], stdout=subprocess.PIPE)
child.wait()
"""
# the same blocked frame (Popen.wait), but the child is the script itself, starting itself again
SELF_SPAWN = """
import subprocess, sys

subprocess.Popen([sys.executable, __file__]).wait()
"""
# the same blocked frame, the child asleep
SLEEPING_CHILD = """
import subprocess, sys

subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]).wait()
"""


def test_child_waits_name_what_leaf_children_wait_in(tmp_path):
    import subprocess

    from reportkit.run.runner import child_waits, kill_tree

    writer = write(tmp_path, PIPE_HANG, "writer.py")
    proc = subprocess.Popen([sys.executable, str(writer)], start_new_session=True)
    try:
        waits: list[str] = []
        for _ in range(100):  # until the child has filled the pipe (no fixed sleep: poll its state)
            waits = child_waits(proc.pid)
            if waits and waits != ["running"]:
                break
            try:
                proc.wait(0.05)  # (it never ends by itself: this only paces the polling)
            except subprocess.TimeoutExpired:
                pass
        if waits == ["sleeping"]:
            pytest.skip("this kernel hides /proc/PID/wchan")
        assert len(waits) == 1 and "pipe" in waits[0], waits
        assert child_waits(proc.pid + 10**7) == []  # no such process: nothing
    finally:
        kill_tree(proc)


@pytest.mark.parametrize("kind", EXECUTORS)
def test_a_hang_keeps_what_its_child_processes_wait_in(tmp_path, kind):
    """Adversarial: a candidate blocked in the same frame (Popen.wait) whose child starts itself again and
    again, or sleeps, does not hang the way a script whose child is blocked on a full pipe does."""
    script = write(tmp_path, PIPE_HANG)
    spec = RunSpec(script=script, python=sys.executable, timeout=2)
    rep = establish(spec, MatchPolicy(), runs=2)
    sig = rep.signature
    assert sig.kind == "hang" and sig.location.function.endswith("wait") and rep.deterministic
    if sig.child_waits == ["sleeping"]:
        pytest.skip("this kernel hides /proc/PID/wchan")
    assert sig.child_waits and "pipe" in sig.child_waits[0]
    assert "child processes waiting in" in sig.headline()
    for code, same in ((PIPE_HANG.replace("300000", "400000"), True), (SELF_SPAWN, False),
                       (SLEEPING_CHILD, False)):
        candidate = write(tmp_path, code, "c.py")
        got = signature_of(run_once(kind, replace(spec, script=candidate)))
        assert got.kind == "hang" and got.location == sig.location  # the same blocked frame, and yet
        assert same_failure(sig, got) is same, (code, got.child_waits)


# The worker skips task_done() for a None item, so join() waits forever. A reproducer that drops the
# worker (or its task_done) still hangs -- a queue joined with nobody to work it -- but has lost the bug.
SKIPPED_TASK_DONE = """
import queue
import threading

q = queue.Queue()


def worker():
    while True:
        item = q.get()
        if item is None:
            continue
        print("processing", item)
        q.task_done()


threading.Thread(target=worker, daemon=True).start()
for item in [1, None, 2]:
    q.put(item)
print("queued")
q.join()
"""


@pytest.mark.parametrize("kind", EXECUTORS)
def test_wakers_are_recorded_from_the_scripts_own_calls(tmp_path, kind):
    script = write(tmp_path, """
        import queue, threading
        from concurrent.futures import ThreadPoolExecutor

        done = threading.Event()
        t = threading.Thread(target=lambda: None)  # Thread.start sets an Event inside threading.py
        t.start(); t.join()
        threading.Thread().start()  # runs nothing of the script's: not a start that counts
        with ThreadPoolExecutor(1) as pool:  # the pool's queue and futures: library calls
            pool.submit(print, "x").result()
        q = queue.Queue()
        q.put_nowait(1)  # put() is called by queue.py then: only put_nowait is the script's
        done.set()
    """)
    result = run_once(kind, RunSpec(script=script, python=sys.executable, timeout=30))
    assert result.returncode == 0, result.stderr
    assert result.wakers == {"threading.Event.set", "queue.Queue.put_nowait", "threading.Thread.start"}
    assert result.thread_targets == {"<lambda>"}
    assert result.last_wait is not None and result.last_wait[0] == "concurrent.Future.result"  # the main thread's last


def test_a_hang_keeps_the_calls_that_should_wake_the_waiter(tmp_path):
    script = write(tmp_path, SKIPPED_TASK_DONE)
    spec = RunSpec(script=script, python=sys.executable, timeout=6)
    policy = MatchPolicy()
    rep = establish(replace(spec, timeout=2), policy, runs=1)
    assert rep.signature.kind == "hang"
    assert rep.results[0].wakers == {"queue.Queue.put", "queue.Queue.task_done", "threading.Thread.start"}
    assert hang_wakers(rep.results[0]) == rep.results[0].wakers  # all of them on the queue joined, one in a thread
    report = minimize(spec, script.read_text(), rep, policy,
                      MinimizeOptions(output=tmp_path / "out.py", jobs=1, executor="cold"))
    result = (tmp_path / "out.py").read_text()
    assert report.verified
    assert "queue.Queue.task_done" in report.keeps, report.keeps
    # the worker still runs and still skips task_done for the item it continues past
    assert "task_done()" in result and "continue" in result and "Thread(" in result and ".start()" in result, result
    assert report.lines_after < report.lines_before


# The heartbeat runs until `stop` is set, but the pool's `with` block waits for it before `stop.set()`:
# the wake-up that comes too late is the bug. It never runs, so no record of the run names it.
LATE_STOP = """
import logging
import threading
from concurrent.futures import ThreadPoolExecutor


def heartbeat(stop, interval):
    while not stop.wait(interval):
        logging.debug("alive")


def square(n):
    return n * n


def run(jobs):
    stop = threading.Event()
    with ThreadPoolExecutor(max_workers=2) as pool:
        pool.submit(heartbeat, stop, 0.05)
        results = [pool.submit(square, n).result() for n in range(jobs)]
    stop.set()
    logging.info("done: %s", results)
    return results


print(run(4))
"""


@pytest.mark.parametrize("code, line, expected", [
    (LATE_STOP, 18, ["set"]),  # the with block's line: after it, stop.set() (and not run(4) outside the def)
    (LATE_STOP, 20, ["set"]),  # in the block: its later statements (none waking), then after the block
    (LATE_STOP, 26, []),  # the module's print(run(4)): nothing after it
    ("t.join()\nq.put(None)\nstop.set()\ncfg.set('a', 'b', 'c')\nev.set(1)\n", 1, ["put", "set"]),
    ("def f():\n    t.join()\nstop.set()\n", 2, []),  # after the function, not after the line
    # a try's finally (and else) runs after its body
    ("try:\n    t.join()\nfinally:\n    q.task_done()\ncond.notify_all()\n", 2, ["notify_all", "task_done"]),
    ("try:\n    pass\nexcept E:\n    t.join()\nelse:\n    a.set()\nfinally:\n    q.task_done()\n", 4, ["task_done"]),
])
def test_the_wakers_after_a_blocked_line(code, line, expected):
    import ast

    from reportkit.reduce.minimize import _waking_calls_after
    from reportkit.reduce.passes.source import SourceMap
    source = textwrap.dedent(code)
    assert sorted(_waking_calls_after(ast.parse(source), SourceMap(source), line)) == expected


def test_a_hang_keeps_the_wake_up_that_comes_too_late(tmp_path):
    from reportkit.reduce.minimize import Keep, _lost_pending, what_to_keep
    script = write(tmp_path, LATE_STOP)
    spec = RunSpec(script=script, python=sys.executable, timeout=3)
    rep = establish(spec, MatchPolicy(), runs=2)
    assert rep.signature.kind == "hang" and rep.signature.script_frame.line == 17  # the with block (lstripped)
    keep = what_to_keep(rep, spec, MatchPolicy())
    assert keep.pending == ("set",) and "never reached, stay (.set())" in keep.why
    source = script.read_text()
    assert not _lost_pending(keep.pending, source) and _lost_pending(keep.pending, source.replace("stop.set()", "pass"))
    assert _lost_pending(("set", "set"), source) and not Keep().pending
    # a lock taken twice on the script's own line waits for no wake-up: a set() after it is not kept
    relock = write(tmp_path, "import threading\nlock = threading.Lock()\nstop = threading.Event()\n"
                   "with lock:\n    with lock:\n        pass\nstop.set()\n", "relock.py")
    spec2 = RunSpec(script=relock, python=sys.executable, timeout=2)
    assert what_to_keep(establish(spec2, MatchPolicy(), runs=1), spec2, MatchPolicy()).pending == ()
    report = minimize(spec, source, rep, MatchPolicy(),
                      MinimizeOptions(output=tmp_path / "out.py", jobs=2, executor="cold"))
    result = (tmp_path / "out.py").read_text()
    assert report.verified and "stop.set()" in result and "square" not in result, result


def test_lost_wakers_need_their_thread_started_and_their_call_in_the_code():
    from reportkit.failure.signature import Signature
    from reportkit.reduce.minimize import Keep
    from reportkit.run.spec import RunResult

    keep = Keep(wakers=frozenset({"queue.Queue.task_done", "threading.Thread.start"}))

    def outcome(*called, targets=("work",)):
        result = RunResult(returncode=None, signal=None, timed_out=True, duration=1.0, stdout="", stderr="")
        result.wakers, result.thread_targets = set(called), set(targets if "threading.Thread.start" in called else ())
        return type("Outcome", (), {"result": result, "signature": Signature(kind="hang")})()

    worker = "def work():\n    while True:\n        if q.get() is None:\n            continue\n        q.task_done()\n"
    both = outcome("queue.Queue.task_done", "threading.Thread.start")
    assert keep.lost_wakers(both, "") == []
    # the worker runs but never reaches task_done(): the call is still in its code -- that is the bug
    assert keep.lost_wakers(outcome("threading.Thread.start"), worker) == []
    # ... gone from the code, or in a function no thread runs (dead code): lost
    assert keep.lost_wakers(outcome("threading.Thread.start"), "q.join()\n") == ["queue.Queue.task_done"]
    started_other = outcome("threading.Thread.start", targets=("idle",))
    assert keep.lost_wakers(started_other, worker + "def idle():\n    pass\n") == ["queue.Queue.task_done"]
    # ... or only after an unconditional continue (it never runs)
    spins = "def work():\n    while True:\n        continue\n        q.task_done()\n"
    assert keep.lost_wakers(outcome("threading.Thread.start"), spins) == ["queue.Queue.task_done"]
    # the worker never started: lost, whatever the code says
    assert keep.lost_wakers(outcome(), worker) == ["queue.Queue.task_done", "threading.Thread.start"]
    assert not keep.kept(outcome(), worker) and keep.kept(outcome("threading.Thread.start"), worker)


@pytest.mark.parametrize("last_wait, expected", [
    (("queue.Queue.join", 1), {"queue.Queue.task_done", "threading.Thread.start"}),  # that queue's, in a worker
    (("queue.Queue.join", 2), {"queue.Queue.put"}),  # that queue's only: put by the main thread
    (("threading.Thread.join", 9), {"queue.Queue.put", "queue.Queue.task_done", "threading.Thread.start"}),
    (("queue.Queue.get", 2), set()),  # a get on a queue nothing fills is the reproducer (queue.Queue().get())
    (("threading.Event.wait", 3), set()),
    (None, set()),  # a lock taken twice: no wait the watch knows
])
def test_the_wakers_a_hang_keeps_are_those_of_what_it_waits_in(last_wait, expected):
    from reportkit.run.spec import RunResult

    result = RunResult(returncode=None, signal=None, timed_out=True, duration=1.0, stdout="", stderr="")
    result.wakers = {"queue.Queue.put", "queue.Queue.task_done", "threading.Thread.start"}
    result.waker_calls = [("queue.Queue.task_done", 1, "work"), ("queue.Queue.put", 2, "")]
    result.last_wait = last_wait
    assert hang_wakers(result) == expected


def test_a_forked_childs_waits_are_not_the_hang(tmp_path):
    """The child polls an event it never sees set (a threading.Event handed to a forked process); the
    parent hangs joining it. The parent's join is its wait, and the set() its waker."""
    script = write(tmp_path, """
        import multiprocessing as mp
        import threading

        def monitor(stop):
            while not stop.wait(0.05):
                pass

        stop = threading.Event()
        p = mp.get_context("fork").Process(target=monitor, args=(stop,))
        p.start()
        stop.set()
        p.join()
    """)
    result = run_once("cold", RunSpec(script=script, python=sys.executable, timeout=2))
    assert result.timed_out
    assert result.last_wait is not None and result.last_wait[0] == "multiprocessing.BaseProcess.join"
    assert hang_wakers(result) == {"threading.Event.set", "multiprocessing.BaseProcess.start"}


@pytest.mark.parametrize("kind", EXECUTORS)
def test_the_waker_and_wait_wrappers_never_show(tmp_path, kind):
    """A worker's exception re-raised by Future.result() (a wrapped wait) and a hang in Queue.get(): no
    frame of reportkit's _boot.py in the traceback printed, the exception's frames or the hang's stacks."""
    failing = write(tmp_path, """
        from concurrent.futures import ThreadPoolExecutor

        def job():
            raise LookupError("no shard 3")

        with ThreadPoolExecutor(1) as pool:
            pool.submit(job).result()
    """, name="f.py")
    result = run_once(kind, RunSpec(script=failing, python=sys.executable, timeout=30))
    assert result.exception is not None and result.exception.type == "LookupError"
    assert "_boot.py" not in result.stderr and "File" in result.stderr, result.stderr
    assert [f.function for f in result.exception.frames][:1] == ["<module>"]
    assert not any(f.file.endswith("_boot.py") for f in result.exception.frames)
    hanging = write(tmp_path, HANG, name="h.py")
    result = run_once(kind, RunSpec(script=hanging, python=sys.executable, timeout=2))
    assert result.timed_out and not any(f.file.endswith("_boot.py") for s in result.stacks for f in s.frames)


@pytest.mark.parametrize("seen, expected", [
    (["running", "futex_wait_queue"], ["futex_wait_queue"]),  # polls: caught between two of its checks
    (["running"] * 10, ["running"]),  # spins: running every time
    (["pipe_write"], ["pipe_write"]),
])
def test_a_child_caught_running_is_looked_at_again(monkeypatch, seen, expected):
    import subprocess

    import reportkit.run.runner as runner

    parent = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; "
                               "subprocess.run([sys.executable, '-c', 'import time; time.sleep(60)'])"],
                              start_new_session=True)
    states = iter(seen)
    monkeypatch.setattr(runner, "_child_wait", lambda child: next(states, seen[-1]))
    monkeypatch.setattr(runner, "_RUNNING_RECHECK", 0.0)
    try:
        for _ in range(200):  # until the grandchild exists (no fixed sleep)
            if [c for c in runner.psutil.Process(parent.pid).children(recursive=True)]:
                break
            try:
                parent.wait(0.02)
            except subprocess.TimeoutExpired:
                pass
        assert runner.child_waits(parent.pid) == expected
    finally:
        runner.kill_tree(parent)
