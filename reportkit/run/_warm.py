"""Fork server of the *warm* executor: imports heavy modules once, then forks a child per run.

Usage (reportkit runs it by file path in the target interpreter, like ``_boot.py``)::

    python /path/to/reportkit/run/_warm.py CONFIG_JSON

``CONFIG_JSON``: ``{"preload": [module, ...], "argv": [script, arg, ...], "userns": bool}`` (``userns``: make a
user namespace of the server's own first, in which each child makes its mount namespace: see ``_confine.py``). The server talks JSON
lines over its original stdin (requests) and stdout (replies); right after start it moves both to
private descriptors, so whatever preloaded modules print can never corrupt the protocol.

Replies::

    {"event": "ready", "pid", "loaded": [...], "failed": {module: error}, "seconds": {module: s},
     "culprit": null | the module that made the server unfit (see below),
     "unsafe": null | "why this server must not be used", "python": "3.11.7", "output": [out, err]}
    {"event": "started", "id", "pid"}           # right after the fork
    {"event": "exit", "id", "pid", "status", "returncode"}   # returncode -N: killed by signal N
    {"event": "error", "id", "error"}           # the request could not be served (fork failed)

Requests::

    {"op": "run", "id", "script", "args", "workdir", "events", "dump", "stdout", "stderr", "env",
     "modules_out": null | path}   # with a path: the modules the run imported are written there

EOF on stdin ends the server; children still running are killed first (their process groups).

Before the preload the server imports the standard-library modules every child imports on its own
(:data:`BOOT_OWN`), as a learning run would add them to the preload: such a run then reports only the
script's own run-time imports.

The server is single-threaded (a ``select`` loop; SIGCHLD wakes it through a self-pipe) and never
starts a thread, so that forking it is safe. After preloading, a probe fork checks that no native
thread survives a fork (OpenBLAS, for one, stops its pool in a ``pthread_atfork`` handler). A module
whose import prints something is not fit either: a cold run prints it where the script imports the
module, a child of this server would never print it. Preloading stops at the first such module and
``unsafe`` says why and ``culprit`` names the module: the caller must restart the server
without it.

The server is a child subreaper (Linux) and its children are not: what a child's descendants orphan (a
``setsid`` daemon, the parent of a fork-and-exit loop gone) is reparented to the server, which reaps it
while it runs and kills what is left whenever no child is running, before it reports the runs' ends.

A child: ``setsid()``, restores the signal handlers of a fresh interpreter, closes the server's
descriptors, ``chdir`` to the scratch dir, stdin from /dev/null and stdout/stderr to the files,
``os.environ`` replaced by the request's, new ``sys.std*`` objects on the new descriptors, RNGs that
a fresh interpreter seeds from entropy reseeded, and then exactly :func:`_boot.main` (imported from
this file's directory). Then what the interpreter does at exit: the ``SystemExit`` code (a message is
printed and the code is 1), non-daemon threads joined, ``atexit`` callbacks, streams flushed; and
``os._exit``. A fatal signal kills the child for real, so the status says "killed by signal".

Standard library only, and compatible with Python 3.8+: it runs in the user's interpreter.
"""

import atexit
import errno
import gc
import io
import json
import os
import select
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_boot():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_reportkit_boot", os.path.join(_HERE, "_boot.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _native_threads():
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()  # no procfs: Python threads are all we can see


def _probe_fork():
    """Fork once (children exit at once) so that atfork handlers stop the thread pools they own."""
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)


def _preload(config):
    """Import the config's ``preload`` modules as a cold run would (the script's argv, no shadowing
    sys.path[0]), with fds 1/2 captured. Returns ((loaded, failed, seconds, unsafe, culprit), [out, err])."""
    argv = config.get("argv") or []
    saved_argv = sys.argv
    # What the script sees at import time in a cold run: its argv. sys.path[0] is reportkit's own
    # directory (it would shadow modules): a path that does not exist stands in until a child
    # sets the script's directory there, as a cold run has it.
    empty = tempfile.mkdtemp(prefix="reportkit-warm-")
    os.rmdir(empty)
    sys.argv = list(argv) or [""]
    sys.path[0] = empty
    capture = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    saved_fds = [os.dup(1), os.dup(2)]
    sys.stdout.flush()
    sys.stderr.flush()
    os.dup2(capture[0].fileno(), 1)
    os.dup2(capture[1].fileno(), 2)
    try:
        _import_boot_own()
        result = _import_preloads(config.get("preload") or [], capture)
    finally:
        _flush_std()
        os.dup2(saved_fds[0], 1)
        os.dup2(saved_fds[1], 2)
        for fd in saved_fds:
            os.close(fd)
        sys.argv = saved_argv
    out = []
    for fh in capture:
        fh.seek(0)
        out.append(fh.read())
        fh.close()
    return result, out


#: The standard library modules every child imports on its own, whatever the script: ``sysconfig`` and its data
#: module (the boot's library directories), ``pkgutil`` (``runpy.run_path``), ``opcode`` (the boot's record of
#: the failing frames) and ``ast`` (``traceback``'s carets, Python 3.11+).
BOOT_OWN = ("sysconfig", "pkgutil", "opcode", "ast")


def _import_boot_own():
    """Import :data:`BOOT_OWN` (those that exist here) before the preload. A child would import them in every run;
    imported once here they are what a learning run would have added to the preload (the same modules in the
    same children), so a learning run reports the script's own run-time imports only, and a script that has none
    (pure Python) is admitted on its first server and its first run: no second server, no second run."""
    for name in BOOT_OWN:
        try:
            __import__(name)
        except Exception:  # noqa: BLE001 - one the interpreter lacks is imported by nobody
            pass
    try:
        import sysconfig

        __import__(sysconfig._get_sysconfigdata_name())
    except Exception:  # noqa: BLE001 - (another platform's layout: a child imports what it needs)
        pass


def _import_preloads(names, capture):
    """Import ``names`` in order, stopping at the first that makes the server unfit (see the module doc).
    Returns (loaded, failed, seconds, unsafe, culprit); culprit is None when every import was fit."""
    loaded, failed, seconds = [], {}, {}
    unsafe = culprit = None
    for name in names:
        culprit = name
        start = time.perf_counter()
        try:
            __import__(name)
            loaded.append(name)
        except BaseException as exc:  # noqa: BLE001 - a failed import is skipped, not fatal
            failed[name] = f"{type(exc).__name__}: {exc}"
        finally:
            seconds[name] = round(time.perf_counter() - start, 4)
        _flush_std()
        unsafe = _unfit_after_import(name, capture)
        if unsafe:
            break
    else:
        culprit = None
    return loaded, failed, seconds, unsafe, culprit


def _unfit_after_import(name, capture):
    """Why the server is unfit for forking after importing ``name`` (it printed, or left a Python thread
    or a native thread that survives fork running); None when it is still fit."""
    if any(os.fstat(fh.fileno()).st_size for fh in capture):
        return f"importing {name} printed output"
    if threading.active_count() > 1:
        return f"importing {name} started a Python thread"
    if _native_threads() > 1:
        _probe_fork()
        if _native_threads() > 1:
            return f"importing {name} started {_native_threads() - 1} native thread(s) that survive fork"
    return None


def _flush_std():
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # noqa: BLE001
        pass


class Server:
    def __init__(self, config):
        self.config = config
        self.children = {}  # pid -> request id
        self.buffer = b""
        # Signal handlers a fresh interpreter has (before any preloaded module changed one).
        self.initial_handlers = {}
        for sig in signal.valid_signals() if hasattr(signal, "valid_signals") else range(1, signal.NSIG):
            try:
                handler = signal.getsignal(sig)
            except (ValueError, OSError):
                continue
            if handler is not None:
                self.initial_handlers[sig] = handler
        self.initial_environ = dict(os.environ)
        self.env_changes = {}  # what preloading did to os.environ: replayed in every child
        self.derived_paths = []  # module-level paths preloading derived from the server's own dirs (_moves)

        # The protocol moves to private descriptors; fd 0 is /dev/null, fds 1/2 the server's stderr.
        self.proto_in = os.dup(0)
        self.proto_out = os.dup(1)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(2, 1)
        os.close(devnull)
        self.wake_r, self.wake_w = os.pipe()
        for fd in (self.wake_r, self.wake_w):
            os.set_blocking(fd, False)
        self.private_fds = [self.proto_in, self.proto_out, self.wake_r, self.wake_w]
        self.boot = _load_boot()
        self.boot._load_confine()  # what each child confines itself with: loaded once, here
        self.pid = os.getpid()

    # ------------------------------------------------------------------ protocol
    def send(self, record):
        data = (json.dumps(record) + "\n").encode()
        while data:
            try:
                written = os.write(self.proto_out, data)
            except InterruptedError:
                continue
            data = data[written:]

    # ------------------------------------------------------------------ preload
    def preload(self):
        (loaded, failed, seconds, unsafe, culprit), out = _preload(self.config)
        environ = dict(os.environ)
        self.env_changes = {k: v for k, v in environ.items() if self.initial_environ.get(k) != v}
        self.env_changes.update({k: None for k in self.initial_environ if k not in environ})
        self.derived_paths = _derived_paths(_own_dirs(self.initial_environ))
        gc.collect()
        if hasattr(gc, "freeze"):
            gc.freeze()  # children do not copy the preloaded heap just to scan it
        return {"event": "ready", "pid": os.getpid(), "loaded": loaded, "failed": failed, "seconds": seconds,
                "unsafe": unsafe, "culprit": culprit if unsafe else None, "python": sys.version.split()[0],
                "output": [out[0].decode("utf-8", "replace")[-2000:], out[1].decode("utf-8", "replace")[-2000:]]}

    # ------------------------------------------------------------------ loop
    def serve(self):
        if hasattr(self.boot, "_become_subreaper"):
            self.boot._become_subreaper()
        signal.set_wakeup_fd(self.wake_w)
        signal.signal(signal.SIGCHLD, _noop)
        self.send(self.preload())
        while True:
            try:
                readable, _, _ = select.select([self.proto_in, self.wake_r], [], [])
            except InterruptedError:
                continue
            if self.wake_r in readable:
                try:
                    while os.read(self.wake_r, 4096):
                        pass
                except (BlockingIOError, InterruptedError):
                    pass
            self.reap()
            if self.proto_in in readable:
                try:
                    data = os.read(self.proto_in, 65536)
                except InterruptedError:
                    continue
                if not data:
                    self.shutdown()
                    return
                self.buffer += data
                while b"\n" in self.buffer:
                    line, self.buffer = self.buffer.split(b"\n", 1)
                    if line.strip():
                        self.handle(json.loads(line.decode()))

    def handle(self, request):
        if request.get("op") != "run":
            self.send({"event": "error", "id": request.get("id"), "error": f"unknown op {request.get('op')!r}"})
            return
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        try:
            pid = os.fork()
        except OSError as exc:
            self.send({"event": "error", "id": request.get("id"), "error": f"fork failed: {exc}"})
            return
        if pid == 0:
            code = 70
            try:
                code = self.child(request)
            except BaseException:  # noqa: BLE001 - never return into the server loop
                try:
                    traceback.print_exc()
                except BaseException:  # noqa: BLE001
                    pass
            finally:
                os._exit(code)
        self.children[pid] = request.get("id")
        self.send({"event": "started", "id": request.get("id"), "pid": pid})
        self.reap()

    def reap(self):
        exits = []
        while self.children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            if pid == 0:
                break
            rid = self.children.pop(pid, None)
            if os.WIFSIGNALED(status):
                rc = -os.WTERMSIG(status)
            elif os.WIFEXITED(status):
                rc = os.WEXITSTATUS(status)
            else:
                continue
            if rid is None:
                continue  # an adopted orphan that ended
            exits.append({"event": "exit", "id": rid, "pid": pid, "status": status, "returncode": rc})
        if not self.children:
            # what the runs orphaned (adopted here: a run is no subreaper) goes before their end is reported, as it
            # did when each run killed its own leftovers at exit
            self.sweep()
        for event in exits:
            self.send(event)

    def sweep(self):
        """Kill and reap the orphans adopted from children that are gone (none is running now)."""
        try:
            self.boot._kill_descendants()
        except Exception:  # noqa: BLE001
            pass

    def shutdown(self):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # (the server is ending: nothing may stop that half way)
        self.sweep()
        for pid in list(self.children):
            try:
                os.killpg(pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        for pid in list(self.children):
            try:
                os.waitpid(pid, 0)
            except OSError:
                pass
        # what the killed runs had adopted (a run is a subreaper: its setsid daemons) is the server's now: a
        # sweep before the kill could not see it, and once the server is gone it would belong to pid 1
        self.sweep()

    # ------------------------------------------------------------------ the child
    def child(self, request):
        os.setsid()
        _die_with(signal.SIGKILL, self.pid)  # the server's death (it was killed) ends the run
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD,):
            signal.signal(sig, signal.SIG_DFL)
        for sig, handler in self.initial_handlers.items():
            try:
                if signal.getsignal(sig) is not handler:
                    signal.signal(sig, handler)
            except (ValueError, OSError, TypeError):
                pass
        for fd in self.private_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        os.chdir(request["workdir"])
        _redirect(0, os.devnull, os.O_RDONLY)
        _redirect(1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        _redirect(2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)

        env = dict(request.get("env") or {})
        moves = _moves(self.initial_environ, env)
        for key, value in self.env_changes.items():  # what the preloaded imports did, as a cold run has it
            if value is None:
                env.pop(key, None)
            else:
                env[key] = _moved(value, moves)
                _recreate(value, env[key])
        _move_module_paths(self.derived_paths, moves)
        os.environ.clear()
        os.environ.update(env)
        tempfile.tempdir = None  # the server's was cached: this run's own $TMPDIR from now on
        sys.dont_write_bytecode = bool(env.get("PYTHONDONTWRITEBYTECODE")) or bool(sys.flags.dont_write_bytecode)
        unbuffered = bool(env.get("PYTHONUNBUFFERED")) or bool(sys.flags.unbuffered)
        _new_stdio(unbuffered)
        _reseed()
        _server_finalizers_stay()

        before = set(sys.modules)
        argv = [request["events"], request["dump"], request["script"]] + list(request.get("args") or [])
        self.boot.REAPED_ABOVE = True  # this server adopts and reaps what the run orphans (see serve)
        try:
            code = self.boot.main(argv)
        except SystemExit as exc:
            code = _system_exit_code(exc)
        code = _finalize(code)
        if request.get("modules_out"):
            _write_modules(request["modules_out"], before, request["workdir"])
        return code


# The server's own directories a preloaded import may have derived a path from (torch._inductor: the
# TORCHINDUCTOR_CACHE_DIR it sets, codecache's precompiled-header dir, both under tempfile.gettempdir()).
# A child has its own: such a value is moved to the child's, as a fresh interpreter would have computed it.
_OWN_DIRS = ("TMPDIR", "HOME")


def _own_dirs(environ):
    return [d.rstrip("/") for d in (environ.get(name) for name in _OWN_DIRS) if d and d.rstrip("/")]


def _moves(server_env, run_env):
    """(server's dir, the run's) for each of ``$TMPDIR``/``$HOME`` the run has another one of."""
    moves = []
    for name in _OWN_DIRS:
        mine, theirs = server_env.get(name), run_env.get(name)
        if mine and mine.rstrip("/") and theirs and theirs != mine:
            moves.append((mine.rstrip("/"), theirs.rstrip("/")))
    return moves


def _moved(value, moves):
    for old, new in moves:
        if value == old or value.startswith(old + "/"):
            return new + value[len(old):]
    return value


def _derived_paths(dirs):
    """(module, name) of every module-level string or path under one of ``dirs`` (after preloading)."""
    found = []
    if not dirs:
        return found
    prefixes = tuple(d + "/" for d in dirs)
    for modname, module in list(sys.modules.items()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for name, value in list(namespace.items()):
            text = value if isinstance(value, str) else os.fspath(value) if isinstance(value, os.PathLike) else None
            if isinstance(text, str) and (text in dirs or text.startswith(prefixes)):
                found.append((modname, name))
    return found


def _move_module_paths(derived, moves):
    for modname, name in derived if moves else ():
        namespace = getattr(sys.modules.get(modname), "__dict__", None)
        value = namespace.get(name) if isinstance(namespace, dict) else None
        if isinstance(value, str):
            namespace[name] = _moved(value, moves)
            _recreate(value, namespace[name])
        elif isinstance(value, os.PathLike) and isinstance(os.fspath(value), str):
            try:
                namespace[name] = type(value)(_moved(os.fspath(value), moves))
            except Exception:  # a PathLike that is not built from its text: left as it is
                continue
            _recreate(os.fspath(value), os.fspath(namespace[name]))


_RECREATE_MAX_ENTRIES = 200


def _recreate(old, new):
    """What the import made at ``old`` (a directory, a file), made at ``new`` too: a fresh interpreter's import
    would have made it in the run's own dir (a directory with more than a few hundred entries: only itself)."""
    if old == new or os.path.lexists(new):
        return
    try:
        if os.path.isdir(old):
            entries = 0
            for _root, dirs, files in os.walk(old):
                entries += len(dirs) + len(files)
                if entries > _RECREATE_MAX_ENTRIES:
                    break
            if entries > _RECREATE_MAX_ENTRIES:
                os.makedirs(new, exist_ok=True)
            else:
                shutil.copytree(old, new, symlinks=True, dirs_exist_ok=True)
        elif os.path.isfile(old):
            os.makedirs(os.path.dirname(new), exist_ok=True)
            shutil.copy2(old, new)
    except OSError:
        pass


def _noop(signum, frame):
    pass


def _die_with(signum, parent):
    """``PR_SET_PDEATHSIG``: ``signum`` when the parent ends (Linux; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signum), 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:
        os._exit(70)


def _end(signum, frame):
    """SIGTERM: main() shuts the server down (its children and their leftovers are killed) — once. The parent-death
    signal comes again each time the server is handed to another thread of a dying reportkit (the kernel sends it
    on every reparenting), and a second KeyboardInterrupt inside ``shutdown()`` stopped it half way: the server
    exited and left the runs' daemons to pid 1."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def _redirect(fd, path, flags):
    new = os.open(path, flags, 0o644)
    if new != fd:
        os.dup2(new, fd)
        os.close(new)


def _new_stdio(unbuffered):
    """Fresh ``sys.stdin/stdout/stderr`` on fds 0/1/2, built the way the interpreter builds them."""
    def make(fd, old, write):
        encoding = getattr(old, "encoding", None) or "utf-8"
        errors = getattr(old, "errors", None) or "strict"
        if not write:
            raw = io.FileIO(fd, "r", closefd=False)
            return io.TextIOWrapper(io.BufferedReader(raw), encoding=encoding, errors=errors)
        raw = io.FileIO(fd, "w", closefd=False)
        interactive = raw.isatty()
        if unbuffered:
            buffer = raw
        else:
            buffer = io.BufferedWriter(raw)
        line_buffering = (not unbuffered) and (interactive or (fd == 2 and sys.version_info >= (3, 9)))
        return io.TextIOWrapper(buffer, encoding=encoding, errors=errors, newline="\n",
                                line_buffering=line_buffering, write_through=unbuffered)

    sys.stdin = sys.__stdin__ = make(0, sys.__stdin__, False)
    sys.stdout = sys.__stdout__ = make(1, sys.__stdout__, True)
    sys.stderr = sys.__stderr__ = make(2, sys.__stderr__, True)


def _reseed():
    """Reseed what a fresh interpreter seeds from entropy at import (``random`` does it itself at fork)."""
    torch = sys.modules.get("torch")
    generator = getattr(torch, "default_generator", None) if torch is not None else None
    if generator is not None:
        try:
            generator.seed()  # a fresh `import torch` seeds the CPU generator non-deterministically
        except Exception:  # noqa: BLE001
            pass
    nprandom = sys.modules.get("numpy.random")
    if nprandom is not None:
        try:
            nprandom.seed()  # the legacy global RandomState: seeded from the OS at import
        except Exception:  # noqa: BLE001
            pass


def _server_finalizers_stay():
    """``weakref.finalize`` callbacks created by the server's imports do not run at a child's exit.

    They clean up what the server owns (a ``TemporaryDirectory`` made at import time, registrations
    in torch's op library): a child running them would remove it from under the next child, and pay
    for it on every run. Finalizers the script creates in the child run at its exit as usual.
    """
    import weakref

    for info in list(getattr(weakref.finalize, "_registry", {}).values()):
        try:
            info.atexit = False
        except AttributeError:
            pass


def _system_exit_code(exc):
    """The process exit code for an uncaught SystemExit, printing its message like the interpreter."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:  # noqa: BLE001
        pass
    return 1


def _write_modules(path, before, workdir):
    """Record the modules the run imported that a server could preload (importable by name from
    sys.path, not the user's own code in the scratch dir, not generated code), in import order."""
    workdir = os.path.abspath(workdir) + os.sep
    roots = [os.path.abspath(p) + os.sep for p in sys.path[1:] if p and os.path.isdir(p)]
    names = []
    for name, module in list(sys.modules.items()):
        if name in before or name.startswith("_reportkit") or name == "__main__":
            continue
        spec = getattr(module, "__spec__", None)
        if spec is None or spec.name != name:
            continue
        origin = spec.origin
        if origin in ("built-in", "frozen"):
            names.append(name)
            continue
        locations = [origin] if origin else list(spec.submodule_search_locations or [])
        if not locations:
            continue
        files = [os.path.abspath(loc) for loc in locations]
        if any(f.startswith(workdir) for f in files):
            continue
        if all(any(f.startswith(root) for root in roots) for f in files):
            names.append(name)
    try:
        with open(path, "w", encoding="utf-8") as fh:
            json.dump(names, fh)
    except OSError:
        pass


def _finalize(code):
    """What the interpreter does on its way out, before the process ends: threads, atexit, flush."""
    shutdown = getattr(threading, "_shutdown", None)
    if shutdown is not None:
        try:
            shutdown()  # joins non-daemon threads
        except BaseException:  # noqa: BLE001
            pass
    try:
        atexit._run_exitfuncs()
    except BaseException:  # noqa: BLE001
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001
            if code == 0:
                code = 120  # what Python exits with when flushing stdout fails
    return code


def main(argv):
    config = json.loads(argv[0]) if argv else {}
    parent = os.getppid()
    _load_boot()._load_confine().pass_gate()  # (under bubblewrap: before anything is preloaded)
    server = Server(config)  # (it records the signal handlers a fresh interpreter has, for its children)
    if config.get("userns"):  # each child's mount namespace is made in it (else each child makes one: slower)
        server.boot._load_confine().own_user_ns()
    # reportkit ended, however (SIGKILL included): the server stops and kills every run it serves
    signal.signal(signal.SIGTERM, _end)
    _die_with(signal.SIGTERM, parent)
    try:
        server.serve()
    except KeyboardInterrupt:
        server.shutdown()
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
