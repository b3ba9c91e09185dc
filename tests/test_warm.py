"""The warm executor (fork server) against the cold runner: same results, timeouts, parallel runs,
server deaths, fallbacks, minimization results, and no process left behind."""

from __future__ import annotations

import os
import signal
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import psutil
import pytest
from scripts import HANG_WITH_SPINNER, HOPPER, JSON_PIPELINE, zombies_left

import reportkit.reduce.minimize as mz
import reportkit.run.executor as ex
from reportkit.failure.check import establish, prepare_executor
from reportkit.failure.signature import MatchPolicy, signature_of
from reportkit.run.executor import ColdExecutor, WarmExecutor, discover_preload, measure
from reportkit.run.runner import Sandbox
from reportkit.run.spec import RunResult, RunSpec

pytestmark = pytest.mark.skipif(ex.warm_supported() is not None, reason=str(ex.warm_supported()))

ROOT = Path(__file__).resolve().parents[1]
STDLIB_PRELOAD = ["json", "queue", "threading", "warnings", "subprocess", "random", "atexit"]


def write(directory: Path, name: str, code: str) -> Path:
    path = directory / name
    path.write_text(textwrap.dedent(code).lstrip(), encoding="utf-8")
    return path


def spec(script: Path, **kw) -> RunSpec:
    kw.setdefault("timeout", 20)
    return RunSpec(script=script.resolve(), python=sys.executable, **kw)


def essentials(r: RunResult) -> dict:
    """What must not depend on the executor (paths relative to the run's scratch dir)."""
    def rel(path: str) -> str:
        return os.path.relpath(path, r.workdir) if path.startswith(r.workdir + "/") else path

    def norm(text: str) -> str:
        return text.replace(r.workdir, "<W>")

    exc = r.exception
    main = r.main_stack
    return {
        "rc": r.returncode, "signal": r.signal, "timed_out": r.timed_out, "started": r.started,
        "exit_requested": r.exit_code_requested, "stdout": norm(r.stdout), "stderr": norm(r.stderr),
        "exception": exc and (exc.type, norm(exc.message), [(rel(f.file), f.line, f.function, f.text)
                                                            for f in exc.frames],
                              [(c.type, c.message) for c in exc.chain]),
        "thread_exceptions": [(e.type, e.message, e.thread) for e in r.thread_exceptions],
        "threads": len(r.stacks),
        "main_stack": main and [(rel(f.file), f.line, f.function, f.text) for f in main.frames],
        "main_is_main": main is None or main.thread_id == r.main_thread_id,
        "script": rel(r.script_path),
    }


SCRIPTS = {
    "library_exception": """
        import json

        def load(text):
            return json.loads(text)

        load("{oops")
    """,
    "chained": """
        try:
            {}["missing"]
        except KeyError as e:
            raise RuntimeError("lookup failed") from e
    """,
    "exit_3": "import sys\nprint('bye')\nsys.exit(3)\n",
    "os_exit": "import os\nos._exit(4)\n",
    "systemexit_message": "raise SystemExit('fatal: bad config')\n",
    "passes": "print('fine')\n",
    "keyboard_interrupt": "raise KeyboardInterrupt\n",
    "segfault": """
        import os, signal

        def explode():
            os.kill(os.getpid(), signal.SIGSEGV)

        explode()
    """,
    "abort": "import os\nprint('about to abort', flush=True)\nos.abort()\n",
    "env_cwd_argv_main": """
        import os, sys
        print(os.environ.get("RK_SET"), os.environ.get("RK_DROP_ME"), os.environ.get("PYTHONUNBUFFERED"))
        print(os.path.basename(os.getcwd()), os.listdir("."))
        print(sys.argv[1:], os.path.basename(sys.argv[0]), __name__, __file__ == sys.argv[0])
        print(sys.path[0] == os.path.dirname(os.path.abspath(__file__)), sys.modules["__main__"].__name__)
        print(repr(sys.stdin.read()), sys.stdout.isatty(), sys.stdout.encoding, sys.stderr.line_buffering)
        raise ValueError(f"argv={sys.argv[1:]}")
    """,
    "sibling_module": """
        import helper

        helper.boom(3)
    """,
    "threads_and_atexit": """
        import atexit, sys, threading, time

        def late():
            time.sleep(0.3)
            print("non-daemon thread finished", flush=True)

        def bad():
            raise OSError("worker died")

        atexit.register(lambda: print("atexit ran"))
        threading.Thread(target=late).start()
        t = threading.Thread(target=bad, name="worker")
        t.start()
        t.join()
        print("main done")
        sys.stderr.write("partial line without newline")
    """,
    "warning_and_interleaving": """
        import sys, warnings
        for i in range(3):
            print("out", i)
            print("err", i, file=sys.stderr)
        warnings.warn("careful")
        sys.exit(5)
    """,
    "hang": HANG_WITH_SPINNER,
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_warm_and_cold_give_the_same_result(tmp_path, monkeypatch, name):
    monkeypatch.setenv("RK_DROP_ME", "1")
    write(tmp_path, "helper.py", "def boom(n):\n    raise LookupError(f'no item {n}')\n")
    script = write(tmp_path, "target.py", SCRIPTS[name])
    timeout = 1.5 if name == "hang" else 20
    run = spec(script, args=["--flag", "a b"], timeout=timeout, env={"RK_SET": "yes", "RK_DROP_ME": None})
    preload = discover_preload(script.read_text(), script) + STDLIB_PRELOAD
    assert "helper" not in preload  # the user's own modules are never preloaded
    box = Sandbox(script)
    warm = WarmExecutor(preload)
    try:
        cold_result = ColdExecutor().run(run, None, box)
        warm_result = warm.run(run, None, box)
        assert warm.warm_runs == 1 and warm.cold_runs == 0, warm.notes
    finally:
        warm.close()
        box.cleanup()
    assert essentials(warm_result) == essentials(cold_result)
    assert signature_of(warm_result).to_dict() == signature_of(cold_result).to_dict()
    if name == "hang":
        assert warm_result.timed_out and [f.function for f in warm_result.main_stack.frames][:2] == ["wait", "get"]
    if name == "segfault":
        assert warm_result.signal == signal.SIGSEGV and warm_result.main_stack.frames[0].function == "explode"
    if name == "threads_and_atexit":
        assert "non-daemon thread finished" in warm_result.stdout and "atexit ran" in warm_result.stdout


def test_fresh_randomness_per_run_like_a_new_process(tmp_path):
    script = write(tmp_path, "rng.py", "import random, os\nprint(random.random(), os.urandom(4).hex())\n")
    box = Sandbox(script)
    with WarmExecutor(["random"]) as warm:
        outputs = {warm.run(spec(script), None, box).stdout for _ in range(3)}
    box.cleanup()
    assert len(outputs) == 3


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


SPAWNER = """
    import subprocess, sys, time
    TOKEN = {token!r}
    code = "import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(300)', TOKEN]); time.sleep(300)"
    subprocess.Popen([sys.executable, "-c", code.replace("TOKEN", repr(TOKEN)), TOKEN])
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)", TOKEN], start_new_session=True)
    time.sleep(1.0)
    print("spawned", flush=True)
    time.sleep(300)
"""


def _with_token(token: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if token in (proc.info["cmdline"] or []) and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            pass
    return found


def test_timeout_kills_child_and_descendants_and_server_keeps_serving(tmp_path):
    token = f"rk-test-{uuid.uuid4().hex}"
    script = write(tmp_path, "spawner.py", SPAWNER.format(token=token))
    ok = write(tmp_path, "ok.py", "print('still serving')\n")
    box = Sandbox(script)
    with WarmExecutor(["subprocess", "time"]) as warm:
        result = warm.run(spec(script, timeout=3), None, box)
        assert result.timed_out and result.signal is None and "spawned" in result.stdout
        assert result.main_stack.frames[0].function == "<module>"
        assert result.main_stack.frames[0].text == "time.sleep(300)"
        deadline = time.monotonic() + 5
        while _with_token(token) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _with_token(token)  # child, grandchild, and the one that left the group
        again = warm.run(spec(ok), source=ok.read_text(), sandbox=box)
        assert again.returncode == 0 and again.stdout == "still serving\n" and warm.restarts == 0
        server_pid = warm._server.proc.pid
    box.cleanup()
    assert not _alive(server_pid)


def test_parallel_runs_from_threads_get_their_own_results(tmp_path):
    script = write(tmp_path, "p.py", "print('placeholder')\n")
    variants = {i: f"import sys, time\ntime.sleep({0.2 * (i % 3)})\nprint('run {i}')\nsys.exit({i})\n"
                for i in range(1, 10)}
    box = Sandbox(script)
    results: dict[int, RunResult] = {}
    errors: list[BaseException] = []
    with WarmExecutor(["time"]) as warm:
        def worker(ids):
            try:
                for i in ids:
                    results[i] = warm.run(spec(script), variants[i], box)
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)

        threads = [threading.Thread(target=worker, args=([i for i in variants if i % 3 == k],)) for k in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert warm.warm_runs == len(variants) and warm.cold_runs == 0, warm.notes
    box.cleanup()
    assert not errors
    for i, result in results.items():
        assert result.returncode == i and result.stdout == f"run {i}\n"
    assert len(results) == len(variants)


def test_server_death_between_and_during_runs(tmp_path):
    script = write(tmp_path, "s.py", "import time\ntime.sleep(float(__import__('sys').argv[1]))\nraise ValueError('late')\n")
    box = Sandbox(script)
    with WarmExecutor(["time"]) as warm:
        assert warm.run(spec(script, args=["0"]), None, box).exception.type == "ValueError"
        first = warm._server
        first.proc.kill()  # between runs
        first.reader.join(10)
        result = warm.run(spec(script, args=["0"]), None, box)
        assert result.exception.type == "ValueError" and warm.restarts == 1 and warm._server is not first

        # during a run: the run is redone cold, the orphaned child is killed, the next run is warm again
        holder: list[RunResult] = []
        t = threading.Thread(target=lambda: holder.append(warm.run(spec(script, args=["3"]), None, box)))
        t.start()
        deadline = time.monotonic() + 10
        while not any(c.pid for c in warm._server.in_flight()) and time.monotonic() < deadline:
            time.sleep(0.02)
        child = next(c.pid for c in warm._server.in_flight())
        warm._server.proc.kill()
        t.join(60)
        assert holder and holder[0].exception.type == "ValueError" and holder[0].exception.message == "late"
        assert not _alive(child)
        assert warm.cold_runs == 1
        assert warm.run(spec(script, args=["0"]), None, box).exception.type == "ValueError"
        assert warm.restarts == 2 and warm.warm_runs == 3
    box.cleanup()


def app_with_library(tmp_path: Path, module: str, module_code: str, script_code: str) -> tuple[RunSpec, Sandbox]:
    """A script in app/ whose PYTHONPATH has lib/ holding ``module``; its spec and sandbox."""
    lib = tmp_path / "lib"
    lib.mkdir()
    write(lib, module, module_code)
    (tmp_path / "app").mkdir()
    script = write(tmp_path / "app", "x.py", script_code)
    return spec(script, env={"PYTHONPATH": str(lib)}), Sandbox(script)


def test_preloaded_module_starting_a_thread_is_left_out(tmp_path):
    run, box = app_with_library(
        tmp_path, "threadstarter.py",
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n",
        "print('ok')\n")
    with WarmExecutor(["json", "threadstarter", "queue"]) as warm:
        assert warm.run(run, None, box).stdout == "ok\n"
        assert warm.preload == ["json"] and warm.warm_runs == 1
        assert any("threadstarter started a Python thread" in n for n in warm.notes)
    box.cleanup()


def test_preloaded_module_that_prints_is_left_out(tmp_path):
    run, box = app_with_library(tmp_path, "noisy.py", "import sys\nprint('noisy was imported', file=sys.stderr)\n",
                                "import noisy\nprint('ok')\n")
    cold = ColdExecutor().run(run, None, box)
    with WarmExecutor(["json", "noisy", "queue"]) as warm:
        result = warm.run(run, None, box)
        assert warm.preload == ["json"] and any("noisy printed output" in n for n in warm.notes)
    box.cleanup()
    assert essentials(result) == essentials(cold) and result.stderr == "noisy was imported\n"


def test_paths_a_preloaded_module_derived_from_the_servers_temp_dir_are_the_runs_own(tmp_path):
    # torch._inductor sets TORCHINDUCTOR_CACHE_DIR under tempfile.gettempdir() on import, and codecache keeps a
    # module-level _HEADER_DIR there: from the server, both named its temp dir, read-only to a warm child (every
    # torch.compile script fell back to the cold executor). A child gets them under its own temp dir.
    run, box = app_with_library(
        tmp_path, "cachey.py",
        "import os, pathlib, tempfile\nos.environ.setdefault('RK_CACHE', os.path.join(tempfile.gettempdir(), 'c'))\n"
        "HEADERS = os.path.join(tempfile.gettempdir(), 'h')\nLOCKS = pathlib.Path(tempfile.gettempdir(), 'l')\n"
        "OTHER = '/elsewhere'\n",
        "import cachey, os, tempfile\n"
        "for p in (os.environ['RK_CACHE'], cachey.HEADERS, str(cachey.LOCKS)):\n"
        "    os.makedirs(p)\n"
        "    print(os.path.dirname(p) == tempfile.gettempdir())\n"
        "print(type(cachey.LOCKS).__name__, cachey.OTHER)\n")
    cold = ColdExecutor().run(run, None, box)
    with WarmExecutor(["cachey"]) as warm:
        result = warm.run(run, None, box)
        assert warm.preload == ["cachey"] and warm.warm_runs == 1
    box.cleanup()
    assert cold.stdout == "True\nTrue\nTrue\nPosixPath /elsewhere\n", cold.stderr
    assert essentials(result) == essentials(cold), result.stderr


def test_runs_with_another_environment_go_cold(tmp_path):
    script = write(tmp_path, "e.py", "import os\nprint(os.environ.get('RK_X'))\n")
    box = Sandbox(script)
    with WarmExecutor([]) as warm:
        assert warm.run(spec(script, env={"RK_X": "1"}), None, box).stdout == "1\n"
        assert warm.run(spec(script, env={"RK_X": "2"}), None, box).stdout == "2\n"
        assert (warm.warm_runs, warm.cold_runs) == (1, 1) and "environment" in warm.notes[-1]
    box.cleanup()


def test_discover_preload(tmp_path):
    write(tmp_path, "mylib.py", "")
    (tmp_path / "pkg").mkdir()
    source = textwrap.dedent("""
        from __future__ import annotations
        import os, json.decoder
        import mylib
        from pkg import thing
        from . import relative
        from torch.utils.data import DataLoader
        import torch.nn as nn

        def f():
            import csv
            return torch.compile(nn.Linear(2, 2))
    """)
    preload = discover_preload(source, tmp_path / "script.py")
    assert preload[0] == "torch" and preload[1:3] == ["torch._dynamo", "torch._inductor.compile_fx"]
    for name in ("os", "json.decoder", "torch.utils.data", "torch.nn", "csv"):
        assert name in preload
    assert not {"mylib", "pkg", "__future__"} & set(preload)
    assert discover_preload("import torch\nx = torch.ones(2)\n", tmp_path / "s.py") == ["torch", "torch._dynamo"]


def test_prepare_executor_falls_back_when_the_warm_outcome_differs(tmp_path):
    # Cold, fractions is not imported yet when the script looks; warm, it was preloaded (the script imports it).
    script = write(tmp_path, "mods.py", """
        import sys
        first = "fractions" not in sys.modules
        import fractions
        raise (ValueError if first else KeyError)("which")
    """)
    run = spec(script)
    policy = MatchPolicy()
    rep = establish(run, policy, runs=1)
    assert rep.signature.exc_type == "ValueError"
    box = Sandbox(script)
    executor, note = prepare_executor("warm", run, script.read_text(), rep.signature, policy, box)
    box.cleanup()
    assert isinstance(executor, ColdExecutor)
    assert note == ("cold: the original under the warm executor ends with [KeyError: 'which'], "
                    "under the cold runner with [ValueError: which]")

    out = tmp_path / "mods.min.py"
    report = mz.minimize(run, script.read_text(), rep, policy, mz.MinimizeOptions(output=out, executor="warm"))
    assert report.executor == "cold" and "KeyError" in report.executor_note and report.verified


def test_a_pure_python_original_is_admitted_on_one_server_and_one_run(tmp_path, monkeypatch):
    """The boot's own standard-library imports (sysconfig, pkgutil, opcode, ast: every child makes them) are in
    the server before the preload: the learning run of a script that imports nothing at run time learns nothing,
    so the executor is admitted on its first server and that run (no second server, no second run)."""
    script = write(tmp_path, "pure.py", """
        import contextlib
        state = {}
        with contextlib.suppress(ValueError):
            print(state['missing'])
    """)
    run = spec(script)
    rep = establish(run, MatchPolicy(), runs=1)
    servers, runs = [], []
    monkeypatch.setattr(ex._Server, "__init__", _counted(ex._Server.__init__, servers))
    monkeypatch.setattr(ex.WarmExecutor, "_run_in", _counted(ex.WarmExecutor._run_in, runs))
    box = Sandbox(script)
    executor, note = prepare_executor("warm", run, script.read_text(), rep.signature, MatchPolicy(), box)
    try:
        assert isinstance(executor, WarmExecutor), note
        assert "more modules" not in note and executor.admission is not None
        assert len(servers) == 1 and len(runs) == 1
        result, learned = executor.learn(run, None, box)
        assert learned == [] and result.exception.type == "KeyError"
    finally:
        executor.close()
        box.cleanup()


def _counted(method, calls: list):
    def counted(self, *args, **kwargs):
        calls.append(args)
        return method(self, *args, **kwargs)
    return counted


def test_work_meanwhile_is_done_while_the_server_comes_up(tmp_path, monkeypatch):
    """``start(spec, meanwhile)``: the caller's work runs once, after the server process was started and before
    waiting for it to be ready; not again for a server already up."""
    script = write(tmp_path, "s.py", "raise KeyError('x')\n")
    run = spec(script)
    servers, seen = [], []
    monkeypatch.setattr(ex._Server, "__init__", _counted(ex._Server.__init__, servers))
    executor = WarmExecutor([])
    try:
        assert executor.start(run, lambda: seen.append((len(servers), executor._server)))
        assert seen == [(1, None)]  # (spawned, not yet the executor's: it was still coming up)
        assert executor.start(run, lambda: seen.append("again")) and seen == [(1, None)]
    finally:
        executor.close()


def test_learned_preload_that_changes_the_outcome_is_dropped(tmp_path):
    # fractions is imported at run time only (not visible to discover_preload): learning finds it, and
    # preloading it changes what the script sees, so the executor goes back to the discovered preload.
    script = write(tmp_path, "late.py", """
        import importlib, sys
        before = "fractions" in sys.modules
        importlib.import_module("fractions")
        raise (KeyError if before else ValueError)("x")
    """)
    run = spec(script)
    rep = establish(run, MatchPolicy(), runs=1)
    box = Sandbox(script)
    executor, note = prepare_executor("warm", run, script.read_text(), rep.signature, MatchPolicy(), box)
    try:
        assert isinstance(executor, WarmExecutor) and "fractions" not in executor.preload
        assert "changed its outcome; only its own imports are preloaded" in note
        assert executor.run(run, None, box).exception.type == "ValueError"
    finally:
        executor.close()
        box.cleanup()


def test_no_fork_means_cold(tmp_path, monkeypatch):
    script = write(tmp_path, "s.py", "raise ValueError('x')\n")
    monkeypatch.setattr(ex, "warm_supported", lambda: "this platform has no fork()")
    run = spec(script)
    rep = establish(run, MatchPolicy(), runs=1)
    report = mz.minimize(run, script.read_text(), rep, MatchPolicy(),
                         mz.MinimizeOptions(output=tmp_path / "o.py", executor="warm"))
    assert report.executor == "cold" and report.executor_note == "cold: this platform has no fork()"




def _minimize(script: Path, executor: str, jobs: int, timeout: float = 20, **kw):
    run = spec(script, timeout=timeout)
    policy = MatchPolicy()
    rep = establish(run, policy, runs=1)
    out = script.with_name(f"{script.stem}.{executor}{jobs}.min.py")
    report = mz.minimize(run, script.read_text(), rep, policy,
                         mz.MinimizeOptions(output=out, executor=executor, jobs=jobs, **kw))
    return report, out.read_bytes()


def test_minimize_results_are_byte_identical_warm_and_cold(tmp_path):
    script = write(tmp_path, "target.py", JSON_PIPELINE)
    outputs = {}
    for executor, jobs in (("cold", 1), ("warm", 1), ("warm", 3)):
        report, data = _minimize(script, executor, jobs)
        assert report.executor == executor and report.verified, report.executor_note
        outputs[(executor, jobs)] = data
    assert len(set(outputs.values())) == 1, outputs
    assert b"json.loads" in outputs[("warm", 1)]


def _our_descendants() -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("executor", ["warm", "cold"])
def test_no_orphans_after_a_minimize_run_that_hit_timeouts(tmp_path, executor):
    token = f"rk-orphan-{uuid.uuid4().hex}"
    script = write(tmp_path, "hang.py", f"""
        import subprocess, sys, time
        TOKEN = {token!r}
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", TOKEN])
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)", TOKEN], start_new_session=True)
        a = 1
        b = 2
        time.sleep(600)
    """)
    before = {p.pid for p in _our_descendants()}
    report, data = _minimize(script, executor, jobs=2, timeout=1)
    assert report.executor == executor and report.verified, report.executor_note
    assert b"time.sleep(" in data and b"a = 1" not in data
    deadline = time.monotonic() + 10
    while (_with_token(token) or {p.pid for p in _our_descendants()} - before) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _with_token(token)
    assert not {p.pid for p in _our_descendants()} - before


def test_private_compile_cache_env(tmp_path):
    env = ex.private_cache_env(tmp_path, {})
    assert env == {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "inductor"), "TRITON_CACHE_DIR": str(tmp_path / "triton")}
    assert ex.private_cache_env(tmp_path, {"TORCHINDUCTOR_CACHE_DIR": "/mine"}) == {
        "TRITON_CACHE_DIR": str(tmp_path / "triton")}
    assert ex.uses_compile("m = torch.compile(model)") and not ex.uses_compile("import torch\nx = 1\n")


# --------------------------------------------------------------------------- torch (slow)


@pytest.mark.slow
@pytest.mark.torch
def test_torch_rng_in_a_warm_child_is_like_a_fresh_process(tmp_path):
    pytest.importorskip("torch")
    script = write(tmp_path, "seed.py", "import torch\nprint(torch.initial_seed(), torch.rand(1).item())\n")
    box = Sandbox(script)
    cold = {ColdExecutor().run(spec(script, timeout=120), None, box).stdout for _ in range(2)}
    with WarmExecutor(["torch"]) as warm:
        outs = {warm.run(spec(script, timeout=120), None, box).stdout for _ in range(3)}
        assert warm.warm_runs == 3
    box.cleanup()
    # a fresh `import torch` seeds the CPU generator from entropy; a warm child does the same
    assert len(cold) == 2 and len(outs) == 3


def test_measure_reports_both_executors_and_their_outcomes(tmp_path):
    # python -m reportkit.run.executor: per-run times of both executors (what they are is not asserted: timing
    # belongs to benchmarks), the same outcome from each
    script = write(tmp_path, "boom.py", "import json\nraise ValueError(json.dumps([1]))\n")
    res = measure(script, 2, timeout=60)
    assert len(res["outcomes"]) == 2 and len({o[1:] for o in res["outcomes"]}) == 1, res["outcomes"]
    assert res["cold_median"] > 0 and res["warm_median"] > 0 and "json" in res["preload"]


META_ROUTER = """
import torch
from torch import nn


class Router(nn.Module):
    def __init__(self, experts):
        super().__init__()
        self.experts = experts
        self.gate = nn.Linear(4, experts)

    def forward(self, x):
        choice = self.gate(x).argmax(-1)
        return torch.unique(choice)


with torch.device("meta"):
    model = Router(3)
sizes = [len(str(i)) for i in range(5)]
print("dry run", sizes)
model(torch.empty(2, 4, device="meta"))
"""


@pytest.mark.slow
@pytest.mark.torch
@pytest.mark.corpus
def test_a_torch_script_minimizes_identically_warm_and_cold(tmp_path):
    """A script that imports torch (what the warm executor is for) gives the same result warm and cold. How
    much faster warm is: ``benchmarks/minimize_bench.py --executor both`` (ratios measured in one run), not
    a timed test. (``-m corpus``: the slow CI run's representative of the family of warm-versus-cold torch
    runs is :func:`test_a_torch_compile_script_runs_warm_like_cold`; the pure-Python minimizations are compared
    byte for byte warm and cold in every run, :func:`test_minimize_results_are_byte_identical_warm_and_cold`;
    this one costs a cold torch import per candidate.)"""
    pytest.importorskip("torch")
    script = write(tmp_path, "router.py", META_ROUTER)
    warm_report, warm_out = _minimize(script, "warm", jobs=2, timeout=120)
    assert warm_report.executor == "warm", warm_report.executor_note
    cold_report, cold_out = _minimize(script, "cold", jobs=2, timeout=120)
    assert warm_out == cold_out and b"torch.unique(" in warm_out and b"meta" in warm_out
    # the same result; at -j 2 the count of runs may differ by a few (run-ahead follows the odds of the
    # answers that arrived, and answers arrive in another order when runs take other times)
    assert abs(warm_report.tests_run - cold_report.tests_run) <= max(3, cold_report.tests_run // 20)


def test_server_owned_resources_survive_children(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    write(lib, "ownsdir.py", """
        import os, tempfile
        _dir = tempfile.TemporaryDirectory()
        PATH = _dir.name
    """)
    (tmp_path / "app").mkdir()
    script = write(tmp_path / "app", "x.py", """
        import os, ownsdir, tempfile, weakref
        weakref.finalize(ownsdir, print, "child finalizer ran")
        print(os.path.isdir(ownsdir.PATH))
    """)
    box = Sandbox(script)
    run = spec(script, env={"PYTHONPATH": str(lib)})
    with WarmExecutor(["ownsdir", "tempfile"]) as warm:
        outs = [warm.run(run, None, box).stdout for _ in range(2)]
        assert warm.warm_runs == 2
    box.cleanup()
    assert outs == ["True\nchild finalizer ran\n"] * 2


def test_sigterm_during_a_warm_minimize_keeps_best_and_leaves_nothing(tmp_path):
    import subprocess

    lines = ["import time", *[f"v{i} = {i}" for i in range(40)], "time.sleep(0.2)", "raise RuntimeError('boom')"]
    script = write(tmp_path, "target.py", "\n".join(lines) + "\n")
    out = tmp_path / "best.py"
    driver = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        import reportkit.reduce.minimize as mz
        from reportkit.run.spec import RunSpec
        from reportkit.failure.check import establish
        from reportkit.failure.signature import MatchPolicy
        spec = RunSpec(script=Path({str(script)!r}), python=sys.executable, timeout=20)
        rep = establish(spec, MatchPolicy(), runs=1)
        report = mz.minimize(spec, spec.script.read_text(), rep, MatchPolicy(),
                             mz.MinimizeOptions(output=Path({str(out)!r}), executor="warm", jobs=2))
        print("INTERRUPTED" if report.interrupted else "DONE", report.executor)
    """)
    proc = subprocess.Popen([sys.executable, "-c", driver], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not out.exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert out.exists()
    os.kill(proc.pid, signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert stdout.split() == ["INTERRUPTED", "warm"], stdout + stderr
    assert "raise RuntimeError('boom')" in out.read_text()
    left = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if any(str(tmp_path) in part for part in p.info["cmdline"] or []) and p.status() != psutil.STATUS_ZOMBIE:
                left.append(p)
        except psutil.Error:
            pass
    assert not left


def test_warm_children_run_in_the_sandbox(tmp_path, protection_mode):
    """The fork server runs sandboxed, so do its children: writes outside the scratch dir are refused,
    and what a child leaves running (setsid + double fork) does not outlive it."""
    marker = "reportkit-warm-escaper-" + uuid.uuid4().hex[:10]
    victim = tmp_path / "victim.txt"
    victim.write_text("keep\n")
    app = tmp_path / "app"
    app.mkdir()
    script = write(app, "w.py", f"""
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)  # {marker}"])
            os._exit(0)
        os.waitpid(pid, 0)
        try:
            open({str(victim)!r}, "w").write("gone")
        except OSError as exc:
            print("refused", type(exc).__name__)
        raise ValueError("end")
    """)
    box = Sandbox(script)
    with WarmExecutor(["json"]) as warm:
        for _ in range(2):
            result = warm.run(spec(script), None, box)
            assert result.exception.type == "ValueError" and "refused" in result.stdout, result.stderr
        assert warm.warm_runs == 2, warm.notes
        left = [p for p in psutil.process_iter(["cmdline"]) if any(marker in c for c in p.info["cmdline"] or [])]
        assert left == []
    box.cleanup()
    assert victim.read_text() == "keep\n"


def test_a_warm_run_that_forks_in_a_loop_leaves_no_zombies(tmp_path, protection_mode):
    """Round 16 of sandbox attacks: a warm child is not a subreaper (its server is, and reaps what the child's
    tree orphans); it was, and kept one zombie per hop of a process that forks and exits in a loop."""
    app = tmp_path / "app"
    app.mkdir()
    script = write(app, "hop.py", HOPPER)
    box = Sandbox(script)
    with WarmExecutor(["json"]) as warm:
        result = warm.run(spec(script), None, box)
        assert warm.warm_runs == 1, warm.notes
    box.cleanup()
    assert zombies_left(result) < 5


@pytest.mark.slow
@pytest.mark.torch
def test_a_torch_compile_script_runs_warm_like_cold(tmp_path):
    """torch._inductor derives its cache and precompiled-header dirs from the temp dir at import: a warm
    child must compile into its own (it used to hit the server's read-only one and go cold)."""
    pytest.importorskip("torch")
    script = write(tmp_path, "c.py", """
        import torch

        def f(x):
            return x.sin() + 1

        y = torch.compile(f)(torch.ones(3))
        raise ValueError(f"compiled {y.sum().item():.3f}")
    """)
    box = Sandbox(script)
    run = spec(script, timeout=300)
    cold = ColdExecutor().run(run, None, box)
    with WarmExecutor(discover_preload(script.read_text(), script)) as warm:
        result = warm.run(run, None, box)
        assert warm.warm_runs == 1 and warm.cold_runs == 0, warm.notes
    box.cleanup()
    assert "ValueError: compiled 5.524" in cold.stderr, cold.stderr[-2000:]
    assert essentials(result) == essentials(cold), result.stderr[-2000:]


def test_no_run_sees_the_gate(tmp_path):
    """Under bubblewrap a sandbox's first Python passes the gate (reportkit.run.sandbox.start) before anything else:
    every first Python there is (the boot, the warm server, the backend wrapper of bundle's ladder) takes its
    variable, and the run starts at once (one that missed it made reportkit wait for the "here" that never came, up
    to a minute, and left the script the variable and the gate's two pipes)."""
    from reportkit.run import sandbox
    from reportkit.run.runner import BACKEND_BOOT_FILE, run_script

    if sandbox.protection().mode != "bubblewrap":
        pytest.skip("bubblewrap is not usable here")
    script = write(tmp_path, "gate.py", """
        import os
        print("GATE", os.environ.get("REPORTKIT_GATE_FD"))
        raise SystemExit(3)
    """)
    box = Sandbox(script)
    started = time.monotonic()
    results = [run_script(spec(script)), run_script(spec(script, boot_wrapper=BACKEND_BOOT_FILE))]
    with WarmExecutor(["json"]) as warm:
        results.append(warm.run(spec(script), None, box))
    box.cleanup()
    assert time.monotonic() - started < 45
    for result in results:
        assert result.returncode == 3, result.stderr
        assert "GATE None" in result.stdout, result.stdout
