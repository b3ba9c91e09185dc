"""Executors: how a candidate run is carried out. Same :class:`~reportkit.run.spec.RunResult` either way.

``ColdExecutor``  a fresh interpreter per run (:func:`reportkit.run.runner.run_script`); the reference.
``WarmExecutor``  a fork server (:mod:`reportkit.run._warm`) in the user's interpreter imports the heavy
                  modules the script imports (``torch``, the dynamo/inductor stack, ...) once, then
                  forks a child per run that runs exactly what :mod:`reportkit.run._boot` runs. The 1-2 s
                  of interpreter start-up and imports per run go away.

Both take ``run(spec, source, sandbox) -> RunResult`` and ``close()``, and are safe to call from
several threads at once (``minimize -j N``). The warm executor applies the timeout itself (SIGUSR1 for
the faulthandler dump, then SIGKILL to the child's process group and every descendant), restarts its
server if it dies (the run it was serving is redone cold), and runs cold whatever it cannot serve
(another interpreter or environment than its server's, no ``fork``): ``notes`` says why.

:func:`measure` compares the two on one script (per-run median wall time).

What a warm child does *not* reproduce of a cold run (hence the check on the original in
:func:`reportkit.failure.check.prepare_executor`, and the cold runner for the original and for the final re-check):

* modules the server preloaded are already in ``sys.modules`` (and imported earlier than the script
  would import them); modules whose import prints something or starts threads are never preloaded;
* ``PYTHONHASHSEED`` unset: every child shares the server's string-hash seed (cold runs get a fresh
  one each), so set/dict orders of str keys are the same in every candidate;
* interpreter finalization is skipped: after the script, non-daemon threads are joined, ``atexit``
  callbacks run and the streams are flushed, then ``os._exit``; ``__del__`` of objects still alive
  at shutdown and module teardown do not run (output they would print is missing). ``weakref.finalize``
  callbacks created by the server's imports do not run in children (they clean up what the server owns);
* ``os.getppid()`` is the server, ``sys.orig_argv`` / ``/proc/self/cmdline`` are the server's;
* RNGs: ``random`` (at fork), torch's CPU generator and numpy's global ``RandomState`` are reseeded
  from entropy in each child, as a fresh import seeds them; other generators created at import time
  by preloaded modules keep the server's state.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import psutil

from reportkit.io import read_run_text, remove_tree, scrub_tree
from reportkit.run import sandbox as protect
from reportkit.run.hangwatch import sample_env, wait_watching
from reportkit.run.runner import (
    CACHE_ENV_VARS,
    WARM_FILE,
    Sandbox,
    build_env,
    collect_result,
    kill_group,
    meta_paths,
    read_script,
    request_dump,
    resolve_python,
    run_script,
    session_root,
    start_up_code,
)
from reportkit.run.runner import kill_active as _kill_active_cold
from reportkit.run.spec import RunResult, RunSpec

# Platforms where forking a process that imported torch & co. is known to be fine. (macOS: fork after
# system frameworks initialized is unsafe, Windows has no fork.)
WARM_PLATFORMS = ("linux",)
# Preloaded with `torch` (measured, torch 2.13: eager scripts import torch._dynamo at run time as well,
# ~1.2 s: building a torch.optim optimizer does, so does `with torch.device("meta")`).
TORCH_PRELOAD = ("torch._dynamo",)
# Preloaded with `torch` when the script compiles (measured on torch 2.13, CPU: these are
# what a torch.compile run imports, heaviest first; a module that fails to import is skipped).
COMPILE_PRELOAD = (
    "torch._dynamo",
    "torch._inductor.compile_fx",
    "torch.utils.cpp_extension",
    "torch.export._trace",
    "torch.distributed.tensor.experimental",
    "torch._inductor.compiler_bisector",
    "torch.fx.experimental.validator",
    "torch._dynamo.repro.after_dynamo",
    "sympy.tensor.tensor",
)
_COMPILE_RE = re.compile(r"\btorch\s*\.\s*(?:compile|_dynamo|_inductor|export)\b|\bfrom\s+torch\s+import\s+compile\b"
                         r"|\bimport\s+torch\._(?:dynamo|inductor)")
# For runs that must produce fresh compiler artifacts (bundle's debug run), not for minimization.
FRESH_ARTIFACTS_ENV = {"TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
SERVER_START_TIMEOUT = 300.0
MAX_RESTARTS = 3


# --------------------------------------------------------------------------- the interface


class Executor:
    """Runs one candidate: ``source`` (or the script itself) in a fresh scratch dir of ``sandbox``."""

    name = "?"

    def run(self, spec: RunSpec, source: str | None, sandbox: Sandbox) -> RunResult:
        raise NotImplementedError

    def kill_active(self) -> None:
        """Kill the runs in progress (other threads' candidates on Ctrl-C); they return as killed."""

    def close(self) -> None:
        """Release what the executor holds (servers, processes). Idempotent."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class ColdExecutor(Executor):
    """A fresh interpreter per run: :func:`reportkit.run.runner.run_script`."""

    name = "cold"

    def run(self, spec: RunSpec, source: str | None, sandbox: Sandbox) -> RunResult:
        return run_script(spec, source, sandbox)

    def kill_active(self) -> None:
        _kill_active_cold()


def warm_supported() -> str | None:
    """None if the warm executor can work here, else why not."""
    if not hasattr(os, "fork"):
        return "this platform has no fork()"
    if not sys.platform.startswith(WARM_PLATFORMS):
        return f"the warm executor forks; fork after imports is only trusted on Linux (this is {sys.platform})"
    return None


# --------------------------------------------------------------------------- preload discovery


def _user_module(name: str, script_dir: Path) -> bool:
    if (script_dir / f"{name}.py").exists() or (script_dir / name).is_dir():
        return True
    return any(script_dir.glob(f"{name}.*.so")) or any(script_dir.glob(f"{name}.*.pyd"))


def discover_preload(source: str, script: Path, tree: ast.Module | None = None) -> list[str]:
    """Modules worth importing once in the warm server, from the script's own import statements.

    Absolute imports of stdlib and third-party modules (full dotted names: ``torch.nn.functional``);
    never the user's own modules (anything importable from the script's directory, which a candidate
    must import from its scratch copy). ``torch`` comes first when imported, then ``torch._dynamo``
    (:data:`TORCH_PRELOAD`: eager scripts import it at run time too), or when the source compiles
    (``torch.compile``, ``torch._dynamo``, ``torch._inductor``, ``torch.export``) the whole
    dynamo/inductor stack (:data:`COMPILE_PRELOAD`). ``tree``: ``ast.parse(source)``, when the caller has it.
    """
    try:
        names = _absolute_imports(tree if tree is not None else ast.parse(source))
    except SyntaxError:
        return []
    script_dir = script.resolve().parent
    out: list[str] = []
    for name in names:
        top = name.split(".")[0]
        if top in ("__future__", "__main__", script.stem) or _user_module(top, script_dir):
            continue
        if name not in out:
            out.append(name)
    if any(n == "torch" or n.startswith("torch.") for n in out):
        out = ["torch"] + [n for n in out if n != "torch"]
        extra = list(COMPILE_PRELOAD if _COMPILE_RE.search(source) else TORCH_PRELOAD)
        out = out[:1] + [m for m in extra if m not in out] + [m for m in out[1:] if m not in extra]
    return out


def walk_statements(tree: ast.AST):
    """The nodes of ``tree`` that :func:`ast.walk` yields, in its order, but for expressions and what is inside
    them: no statement is in an expression (a lambda's body is one), so a walk for statements (imports) need not
    go there. (Leaving whole subtrees out of a breadth-first walk keeps the order of the rest.)"""
    todo = deque([tree])
    while todo:
        node = todo.popleft()
        todo.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, ast.expr))
        yield node


def _absolute_imports(tree: ast.AST) -> list[str]:
    """Dotted names of the absolute imports anywhere in ``tree``, in order (``import a.b``, ``from a.b import c``)."""
    names: list[str] = []
    for node in walk_statements(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def uses_torch(source: str) -> bool:
    """The script imports torch itself."""
    return re.search(r"^\s*(?:import|from)\s+torch\b", source, re.MULTILINE) is not None


def uses_compile(source: str) -> bool:
    """The source mentions torch.compile / dynamo / inductor / export."""
    return _COMPILE_RE.search(source) is not None


def private_cache_env(root: Path, user_env: dict[str, str | None]) -> dict[str, str]:
    """Env for a private, persistent compile cache under ``root`` (vars the user set win)."""
    env = {}
    for var, sub in zip(CACHE_ENV_VARS, ("inductor", "triton")):
        if var not in user_env:
            env[var] = str(root / sub)
    return env


# --------------------------------------------------------------------------- the warm executor


class ServerDied(Exception):
    """The warm server went away while serving a run."""


@dataclass
class _Call:
    id: int
    pid: int | None = None
    process: psutil.Process | None = None
    returncode: int | None = None
    error: str | None = None
    died: bool = False
    started: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)


def _kill_call(call: _Call) -> list[psutil.Process]:
    """SIGKILL a warm child's process group and descendants (no pid lookups if it is already gone)."""
    assert call.pid is not None
    if call.process is not None:
        return kill_group(call.pid, call.process)
    try:  # it was gone before we could look at it: its group is all we can address
        os.killpg(call.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return []


class _Server:
    """One ``_warm.py`` process and the thread that reads its replies."""

    def __init__(self, python: str, env: dict[str, str], preload: Sequence[str], argv: Sequence[str],
                 home: Path, network: bool | None = None) -> None:
        self.python, self.env, self.preload = python, env, list(preload)
        self.log_path = home / f"server-{time.monotonic_ns()}.log"
        self._log = open(self.log_path, "wb")
        # the whole server runs sandboxed (its children with it): every scratch dir of this process
        # (session_root) and the executor's home writable, the rest read-only, one PID namespace; each child
        # then confines itself to its own scratch dir (Landlock: protect.run_env), with its own $HOME and $TMPDIR
        # and (warm_mounts) its own mount namespace, made in a user namespace the server makes once
        self.protection = protect.protection()
        config = json.dumps({"preload": self.preload, "argv": list(argv), "userns": self.protection.warm_mounts})
        self.root = session_root()
        cmd, env = protect.wrap([python, str(WARM_FILE), config], env, writable=[self.root, home],
                                scratch=home, network=network, prot=self.protection, confine=False)
        self._wrap = lambda run_env, run_dir: protect.run_env(run_env, writable=[run_dir], scratch=run_dir,
                                                              network=network, prot=self.protection)
        self.namespaced = self.protection.mode == "bubblewrap"
        self.host_pid: int | None = None  # the server's pid outside its PID namespace
        # (root: one pids cgroup for the server and every child it forks: pidlimit)
        self.group = protect.process_group(self.protection)
        self.proc = protect.spawn_long_lived(self.group.wrap(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=self._log, env=env, cwd=home, start_new_session=True)
        self.calls: dict[int, _Call] = {}
        self.lock = threading.Lock()
        self.write_lock = threading.Lock()
        self.ready = threading.Event()
        self.info: dict | None = None
        self.dead = False
        self.started_at = time.monotonic()
        self.ready_after: float | None = None
        self.reader = threading.Thread(target=self._read, name="reportkit-warm-reader", daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for raw in self.proc.stdout:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(msg, dict):
                    continue
                kind = msg.get("event")
                if kind == "ready":
                    if self.namespaced:  # the server's own host pid: its children are looked up there
                        self.host_pid = protect.namespace_pid(self.proc.pid, msg.get("pid", -1))
                    self.info = msg
                    self.ready_after = time.monotonic() - self.started_at
                    self.ready.set()
                    continue
                with self.lock:
                    call = self.calls.get(msg.get("id"))
                if call is None:
                    continue
                if kind == "started":
                    # in the server's PID namespace (bubblewrap) the pid it reports is not ours
                    call.pid = protect.namespace_pid(self.proc.pid, msg["pid"], self.host_pid) \
                        if self.namespaced else msg["pid"]
                    try:
                        call.process = psutil.Process(call.pid)
                    except psutil.Error:
                        call.process = None
                    call.started.set()
                elif kind == "exit":
                    call.returncode = msg.get("returncode")
                    call.started.set()
                    call.done.set()
                elif kind == "error":
                    call.error = msg.get("error") or "error"
                    call.started.set()
                    call.done.set()
        except (OSError, ValueError):
            pass
        finally:
            self.dead = True
            self.ready.set()
            with self.lock:
                pending = list(self.calls.values())
            for call in pending:
                if not call.done.is_set():
                    call.died = True
                    call.started.set()
                    call.done.set()

    def register(self, call: _Call) -> None:
        with self.lock:
            self.calls[call.id] = call

    def unregister(self, call: _Call) -> None:
        with self.lock:
            self.calls.pop(call.id, None)

    def in_flight(self) -> list[_Call]:
        with self.lock:
            return list(self.calls.values())

    def send(self, record: dict) -> None:
        assert self.proc.stdin is not None
        data = (json.dumps(record) + "\n").encode()
        with self.write_lock:
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                raise ServerDied("the warm server's input pipe is closed") from None

    def log_tail(self, lines: int = 8) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.strip().splitlines()[-lines:])

    def close(self, timeout: float = 10.0) -> None:
        for call in self.in_flight():  # a child still running: its whole tree goes
            if call.pid is not None and not call.done.is_set():
                _kill_call(call)
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()  # EOF: the server kills its children and exits
        except OSError:
            pass
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        victims = kill_group(self.proc.pid) if self.proc.poll() is None else []
        self.proc.wait()
        psutil.wait_procs(victims, timeout=5)
        self.group.close()
        self.reader.join(timeout=5)
        self._log.close()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


class WarmExecutor(Executor):
    """Fork-server executor. ``preload``: modules the server imports once (see :func:`discover_preload`).

    The server starts on :meth:`start` (or the first run) with that run's interpreter and environment;
    runs with another interpreter or environment are done cold (the preloaded modules saw the server's
    environment when they were imported). ``notes`` lists every reason a run was not served warm;
    ``info`` is the server's ready message (modules loaded, failed, seconds per module).
    """

    name = "warm"

    def __init__(self, preload: Sequence[str] = (), *, argv: Sequence[str] | None = None,
                 start_timeout: float = SERVER_START_TIMEOUT, max_restarts: int = MAX_RESTARTS) -> None:
        self.preload = list(preload)
        self.argv = list(argv) if argv is not None else None
        self.start_timeout = start_timeout
        self.max_restarts = max_restarts
        self.cold = ColdExecutor()
        self.notes: list[str] = []
        self.restarts = 0
        self.cold_runs = 0  # runs this executor handed to the cold runner
        self.warm_runs = 0
        self.disabled: str | None = warm_supported()
        self.info: dict | None = None
        self.startup_seconds: float | None = None
        # (spec, source, result) of the run of the original that admitted this executor for a minimization, on the
        # preload it kept (reportkit.failure.check): the flakiness rule counts it rather than repeating it
        self.admission: tuple[RunSpec, str | None, RunResult] | None = None
        self._server: _Server | None = None
        self._key: tuple | None = None
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        # (in the session dir: if reportkit is killed, the next one removes it with the session)
        self._home = Path(tempfile.mkdtemp(prefix="warm-", dir=session_root()))
        self._closed = False
        self._count_lock = threading.Lock()
        if self.disabled:
            self._note(self.disabled)

    # ------------------------------------------------------------------ state
    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def _count(self, warm: bool) -> None:
        with self._count_lock:
            if warm:
                self.warm_runs += 1
            else:
                self.cold_runs += 1

    @property
    def usable(self) -> bool:
        return self.disabled is None

    def _spec_key(self, spec: RunSpec) -> tuple:
        return (spec.python, tuple(sorted(build_env(spec.env).items())), spec.network)

    def start(self, spec: RunSpec, meanwhile: Callable[[], object] | None = None) -> bool:
        """Start the server for runs like ``spec`` (blocks until it has preloaded). False: unusable.
        ``meanwhile``: called once while a server that was started here comes up (reportkit's own work that
        needs no run, done while the server process starts and preloads: on another core, at no cost in time)."""
        with self._lock:
            return self._ensure(spec, meanwhile) is not None

    def _ensure(self, spec: RunSpec, meanwhile: Callable[[], object] | None = None) -> _Server | None:
        """The live server for ``spec`` (started if needed), or None (run cold). Caller holds _lock."""
        if self.disabled or self._closed:
            return None
        unstaged = start_up_code(spec.env, protect.protection())
        if unstaged:  # (a cold run sets it again only once confined: see runner.staged)
            self.disabled = f"{unstaged} would act in the warm server before it is confined; running cold"
            self._note(self.disabled)
            return None
        key = self._spec_key(spec)
        if self._key is not None and key != self._key:
            if spec.python != self._key[0]:
                self._note(f"a run with another interpreter ({spec.python}) ran cold")
            else:
                self._note("a run with another environment than the warm server's ran cold")
            return None
        if self._server is not None and not self._server.dead:
            return self._server
        if self._server is not None:  # it died
            tail = self._server.log_tail()
            self._server.close(timeout=1)
            self._server = None
            self.restarts += 1
            self._note(f"the warm server died (restart {self.restarts})" + (f": {tail}" if tail else ""))
            if self.restarts > self.max_restarts:
                self.disabled = f"the warm server died {self.restarts} times; running cold"
                self._note(self.disabled)
                return None
        self._key = key
        preload = list(self.preload)
        setup_tries = 1
        while True:
            try:
                server = _Server(spec.python, build_env(spec.env), preload,
                                 self.argv if self.argv is not None else [str(spec.script), *spec.args],
                                 self._home, spec.network)
            except OSError as exc:
                self.disabled = f"cannot start the warm server: {exc.strerror or exc}"
                self._note(self.disabled)
                return None
            if meanwhile is not None:
                work, meanwhile = meanwhile, None
                try:
                    work()
                except BaseException:
                    server.close(timeout=1)
                    raise
            if not server.ready.wait(self.start_timeout) or server.dead or server.info is None:
                tail = server.log_tail()
                server.close(timeout=1)
                if server.dead and protect.bwrap_setup_failed(tail) and setup_tries < protect.BWRAP_SETUP_TRIES:
                    setup_tries += 1  # bwrap could not build the sandbox (a masked socket went away)
                    continue
                self.disabled = (f"the warm server did not come up within {self.start_timeout:g} s"
                                 if not server.dead else "the warm server exited while preloading") + \
                    (f": {tail}" if tail else "")
                self._note(self.disabled)
                return None
            info = server.info
            if info.get("unsafe"):
                culprit = info.get("culprit")
                server.close(timeout=1)
                self._note(f"{info['unsafe']}: not preloaded")
                if culprit is None or culprit not in preload:
                    self.disabled = f"forking the warm server is unsafe ({info['unsafe']})"
                    self._note(self.disabled)
                    return None
                preload = preload[:preload.index(culprit)]
                continue
            break
        if info.get("failed"):
            failed = ", ".join(sorted(info["failed"]))
            self._note(f"not preloaded (import failed in the server, candidates import them): {failed}")
        self.preload = preload  # without what had to be left out
        self.info = info
        self.startup_seconds = server.ready_after
        self._server = server
        return server

    # ------------------------------------------------------------------ running
    def run(self, spec: RunSpec, source: str | None, sandbox: Sandbox) -> RunResult:
        with self._lock:
            server = self._ensure(spec)
        if server is None or server.root not in sandbox.root.parents:
            self._count(warm=False)
            return self.cold.run(spec, source, sandbox)
        work, target = sandbox.make(source)
        try:
            result = self._run_in(server, spec, work, target, work.parent / "meta")
            self._count(warm=True)
        except ServerDied:
            self._count(warm=False)
            remove_tree(work.parent)
            return self.cold.run(spec, source, sandbox)  # the new server serves the next runs
        if not spec.keep_workdir:
            remove_tree(work.parent)
        else:  # read after the run: what it left is read as it wrote it (io.scrub_tree)
            scrub_tree(work.parent)
        return result

    def learn(self, spec: RunSpec, source: str | None, sandbox: Sandbox) -> tuple[RunResult | None, list[str]]:
        """Run once warm and return the result and the modules the run imported beyond the preload
        (importable by name, not the user's). (None, []) when the run could not be served warm."""
        with self._lock:
            server = self._ensure(spec)
        if server is None or server.root not in sandbox.root.parents:
            return None, []
        work, target = sandbox.make(source)
        modules_out = work.parent / "meta" / "modules.json"
        try:
            result = self._run_in(server, spec, work, target, work.parent / "meta", modules_out=modules_out)
            self._count(warm=True)
            try:
                learned = json.loads(read_run_text(modules_out))
            except ValueError:
                learned = []
        except ServerDied:
            return None, []
        finally:
            if not spec.keep_workdir:
                remove_tree(work.parent)
        script_dir = spec.script.resolve().parent
        keep = [m for m in learned if isinstance(m, str) and not _user_module(m.split(".")[0], script_dir)]
        return result, keep

    def set_preload(self, preload: Sequence[str]) -> None:
        """Use another preload list: the current server is stopped, the next run starts a new one."""
        with self._lock:
            self.preload = list(preload)
            server, self._server = self._server, None
        if server is not None:
            server.close()

    def _run_in(self, server: _Server, spec: RunSpec, work: Path, target: Path, meta: Path,
                modules_out: Path | None = None) -> RunResult:
        paths = meta_paths(meta)
        call = _Call(id=next(self._ids))
        server.register(call)
        env = {**server._wrap(build_env(spec.env), work.parent), **sample_env(spec, meta)}
        timed_out, early = False, ""
        start = time.monotonic()
        try:
            server.send({"op": "run", "id": call.id, "script": str(target), "args": list(spec.args),
                         "workdir": str(work), "events": str(paths["events"]), "dump": str(paths["dump"]),
                         "stdout": str(paths["stdout"]), "stderr": str(paths["stderr"]), "env": env,
                         "modules_out": str(modules_out) if modules_out else None})
            ended, early = wait_watching(spec, meta, work, target, call.done.wait)
            if not ended:
                timed_out = True
                call.started.wait(5)
                if call.pid is not None and not call.done.is_set():
                    request_dump(call.pid, paths["dump"], spec.grace, lambda: not call.done.is_set())
                if not call.done.is_set():
                    self._kill(call)
            if call.died:
                self._kill(call)
                raise ServerDied("the warm server died during the run")
            if call.error:
                raise ServerDied(call.error)
        except BaseException:  # Ctrl-C in reportkit (or the server went away): never leave the child running
            self._kill(call)
            raise
        finally:
            server.unregister(call)
        if call.pid is not None:
            try:  # stray members of the group (compile workers, helpers) go too, as with the cold runner
                os.killpg(call.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        duration = time.monotonic() - start
        rc = call.returncode if call.returncode is not None else (-9 if timed_out else None)
        result = collect_result(spec, work, target, meta, rc, timed_out, duration)
        result.hang_early = early
        return result

    @staticmethod
    def _kill(call: _Call) -> None:
        """Kill a child and its descendants; wait (bounded) until the server reports it reaped."""
        if not call.done.is_set():
            call.started.wait(5)  # sent but not yet forked: the fork is coming, wait for its pid
        if call.pid is None or (call.done.is_set() and not call.died):
            return  # never forked, or exited and reaped (what is left of its group: killpg after the run)
        victims = _kill_call(call)
        if not call.died:
            call.done.wait(30)
        psutil.wait_procs(victims, timeout=5)

    def kill_active(self) -> None:
        server = self._server
        if server is not None:
            for call in server.in_flight():
                if call.pid is not None and not call.done.is_set():
                    _kill_call(call)
        self.cold.kill_active()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            server, self._server = self._server, None
        if server is not None:
            server.close()
        remove_tree(self._home)


# --------------------------------------------------------------------------- measuring


def measure(script: str | Path, n: int = 5, *, python: str | None = None, args: Sequence[str] = (),
            preload: Sequence[str] | None = None, learn: bool = True, timeout: float = 600.0,
            env: dict[str, str | None] | None = None) -> dict:
    """Per-run wall time of ``script``, cold vs warm: ``n`` runs each, interleaved (cold, warm, ...).

    A run is what a minimization candidate costs: scratch copy, run, result collection. The warm
    executor is set up as ``minimize`` sets it up: preload discovered from the source (or ``preload``),
    then with ``learn`` one untimed warm run whose run-time imports are added to the preload. Its
    start-up is paid once and reported apart. Returns medians, the ratio warm/cold, all durations,
    the preload and its per-module seconds, and the distinct outcomes seen (should be one per executor).
    """
    path = Path(script).resolve()
    source = read_script(path)
    spec = RunSpec(script=path, args=list(args), python=resolve_python(python or sys.executable),
                   timeout=timeout, env=dict(env or {}))
    modules = list(preload) if preload is not None else discover_preload(source, path)
    sandbox = Sandbox(path)
    warm = WarmExecutor(modules)
    cold = ColdExecutor()
    try:
        t0 = time.monotonic()
        if not warm.start(spec):
            raise RuntimeError("; ".join(warm.notes))
        learned: list[str] = []
        if learn:
            _, learned = warm.learn(spec, None, sandbox)
            learned = [m for m in learned if m not in warm.preload]
            if learned:
                warm.set_preload(warm.preload + learned)
                t0 = time.monotonic()
                if not warm.start(spec):
                    raise RuntimeError("; ".join(warm.notes))
        startup = time.monotonic() - t0
        cold_times: list[float] = []
        warm_times: list[float] = []
        signatures = set()
        for _ in range(n):
            for ex, times in ((cold, cold_times), (warm, warm_times)):
                t = time.monotonic()
                result = ex.run(spec, None, sandbox)
                times.append(time.monotonic() - t)
                exc = result.exception
                signatures.add((ex.name, result.returncode, result.signal, result.timed_out,
                                exc.type if exc else None))
    finally:
        warm.close()
        sandbox.cleanup()
    cold_med, warm_med = statistics.median(cold_times), statistics.median(warm_times)
    return {
        "script": str(path), "runs": n, "cold_median": cold_med, "warm_median": warm_med,
        "ratio": warm_med / cold_med if cold_med else None, "cold": cold_times, "warm": warm_times,
        "server_startup": startup, "preload": modules, "learned": len(learned), "preload_seconds": (warm.info or {}).get("seconds", {}),
        "preload_failed": (warm.info or {}).get("failed", {}), "notes": warm.notes,
        "outcomes": sorted(signatures, key=repr),
    }


def profile_warm(script: str | Path, n: int = 5, *, out: str | Path, python: str | None = None,
                 args: Sequence[str] = (), py_spy: str | None = None, rate: int = 200, top: int = 40) -> dict:
    """Where a warm run's time goes: ``py-spy`` samples the warm server's children during ``n`` runs.

    The executor is set up as :func:`measure` sets it up (discovered + learned preload). ``py-spy``
    (not a reportkit dependency: ``pip install py-spy``) records folded stacks to ``out``; the summary
    has, for the samples taken inside children, the ``top`` frames by inclusive share and by self
    share. Needs permission to ptrace the server (same user; ``kernel.yama.ptrace_scope`` <= 1 or root).
    """
    import collections

    py_spy = py_spy or shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not os.access(py_spy, os.X_OK):
        raise RuntimeError("py-spy not found (pip install py-spy)")
    path = Path(script).resolve()
    source = read_script(path)
    spec = RunSpec(script=path, args=list(args), python=resolve_python(python or sys.executable), timeout=600)
    sandbox = Sandbox(path)
    warm = WarmExecutor(discover_preload(source, path))
    durations: list[float] = []
    try:
        _, learned = warm.learn(spec, None, sandbox)
        warm.set_preload(warm.preload + [m for m in learned if m not in warm.preload])
        if not warm.start(spec) or warm._server is None:
            raise RuntimeError("; ".join(warm.notes))
        spy = subprocess.Popen([py_spy, "record", "--pid", str(warm._server.proc.pid), "--subprocesses",
                                "--rate", str(rate), "--format", "raw", "--nonblocking", "-o", str(out)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.0)  # py-spy attaches
        for _ in range(n):
            t = time.monotonic()
            warm.run(spec, None, sandbox)
            durations.append(time.monotonic() - t)
        spy.send_signal(signal.SIGINT)
        spy.communicate(timeout=120)
    finally:
        warm.close()
        sandbox.cleanup()
    inclusive: collections.Counter = collections.Counter()
    self_time: collections.Counter = collections.Counter()
    total = 0
    for line in Path(out).read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")[1:]]
        if not any(f.startswith("Server.child (") for f in frames):
            continue  # the server itself, waiting in select()
        total += int(count)
        for name in dict.fromkeys(frames):
            inclusive[name] += int(count)
        self_time[frames[-1]] += int(count)
    share = (lambda c: [(name, round(v / total, 4)) for name, v in c.most_common(top)]) if total else (lambda c: [])
    return {"script": str(path), "runs": n, "durations": durations, "samples": total, "raw": str(out),
            "inclusive": share(inclusive), "self": share(self_time)}


def _main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reportkit.run.executor",
                                     description="Per-run wall time of a script, cold vs warm executor.")
    parser.add_argument("script")
    parser.add_argument("args", nargs="*")
    parser.add_argument("-n", type=int, default=5, help="runs per executor (default 5)")
    parser.add_argument("--python", default=None)
    parser.add_argument("--preload", default=None, help="comma-separated modules (default: discovered)")
    parser.add_argument("--no-learn", action="store_true", help="only the preload discovered from the source")
    parser.add_argument("--profile", metavar="OUT", default=None,
                        help="instead: profile warm runs with py-spy (folded stacks to OUT) and print the top frames")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args(argv)
    if opts.profile:
        prof = profile_warm(opts.script, opts.n, out=opts.profile, python=opts.python, args=opts.args)
        if opts.json:
            print(json.dumps(prof, indent=2))
        else:
            print(f"{prof['samples']} samples in warm children, runs {[round(d, 2) for d in prof['durations']]}")
            for label in ("inclusive", "self"):
                print(f"-- {label}")
                for name, frac in prof[label]:
                    print(f"{frac:7.1%}  {name}")
        return 0
    preload = [m for m in opts.preload.split(",") if m] if opts.preload is not None else None
    res = measure(opts.script, opts.n, python=opts.python, args=opts.args, preload=preload, learn=not opts.no_learn)
    if opts.json:
        print(json.dumps(res, indent=2))
    else:
        print(f"{res['script']}: cold median {res['cold_median']:.2f} s, warm median {res['warm_median']:.2f} s, "
              f"ratio {res['ratio']:.2f} (server start-up {res['server_startup']:.2f} s, once)")
        print(f"  preload: {', '.join(res['preload']) or '(none)'}")
        for note in res["notes"]:
            print(f"  note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
