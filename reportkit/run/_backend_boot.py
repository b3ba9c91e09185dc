"""Wrapper around ``_boot.py`` for ``reportkit bundle``: force / record the ``torch.compile`` backend.

Usage (reportkit runs it by file path, as the runner's ``RunSpec.boot_wrapper``, so that the runner's usual
command ``PYTHON _boot.py EVENTS DUMP SCRIPT ARGS...`` becomes ``python _backend_boot.py _boot.py ...``):

    python /path/to/reportkit/run/_backend_boot.py BOOT_FILE EVENTS_FILE DUMP_FILE SCRIPT [ARGS...]
    python /path/to/reportkit/run/_backend_boot.py --gdb-watch PID DELAY OUT_FILE

It loads ``BOOT_FILE`` (reportkit's ``_boot.py``) by path and runs its ``main`` unchanged (events,
faulthandler, exact exception capture), after installing a post-import hook: when -- and only
when -- the script imports ``torch``, ``torch.compile`` (and ``torch._dynamo.optimize`` once
``torch._dynamo`` is imported) are wrapped. Calls made by the script's code are recorded, and with
``REPORTKIT_BACKEND`` set their ``backend=`` is replaced, so the unchanged script runs with another
backend. torch is never imported here.

Environment (read once, then removed so the script does not see it):

``REPORTKIT_BACKEND``         backend forced on every torch.compile call (``eager``, ``aot_eager``,
                              ``inductor``, ``spyre``, ``sendnn``...); unset: record only
``REPORTKIT_BACKEND_IMPORT``  module imported right after torch that registers that backend
                              (``torch_spyre``, ``torch_sendnn.torch_sendnn``)
``REPORTKIT_COMPILE_LOG``     JSON lines file: one record per torch.compile / optimize call
``REPORTKIT_SPYRE_COMPARE``   JSON file: compare the first compiled call Torch-Spyre's way (below), write the
                              result there and exit
``REPORTKIT_COMPARE_TOL``     ``atol,rtol`` for that comparison
``REPORTKIT_SPYRE_LOGS``      set: when torch_spyre is installed, add ``+torch_spyre`` to ``TORCH_LOGS`` (it
                              must not be there otherwise: torch refuses a TORCH_LOGS module it cannot import)
``REPORTKIT_SHELL_PARENT``    set: when torch_spyre is installed and this process's parent is a Python process
                              (reportkit), rerun under ``sh`` so that the script's parent is a shell, as
                              when a user starts it (see :func:`shell_parent`)
``REPORTKIT_GDB_AFTER``       seconds; a watchdog process runs ``gdb -batch`` on this process after
                              that long (a native backtrace of a hang) ...
``REPORTKIT_GDB_OUT``         ... and writes gdb's output to this file
``REPORTKIT_GDB_LIMIT``       ... giving gdb at most this many seconds (then it is stopped, the process continued)

The Torch-Spyre comparison (``REPORTKIT_SPYRE_COMPARE``) follows torch-spyre's
``tests/_inductor/utils_inductor.py`` (``compare_with_sendnn`` / ``compare_with_cpu``): the first call of a
function the script compiled runs three times with the same inputs: eagerly on CPU tensors (the reference),
``torch.compile`` (Inductor) on ``spyre``-device tensors (the Torch-Spyre path), and
``torch.compile(backend="sendnn")`` on CPU tensors (DeepTools without Torch-Spyre's front-end); each
compiled result is compared with the reference (``torch.testing.assert_close``, the given tolerance).

Standard library only, and compatible with Python 3.8+: it runs in the user's interpreter.
"""

import functools
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

_STATE = {"backend": None, "import": None, "log": None, "compare": None, "tolerance": None, "compile": None}
_LOCAL = threading.local()
_OWN_FILE = os.path.abspath(__file__)


# --------------------------------------------------------------------------- compile records


def _backend_name(backend):
    if backend is None:
        return "inductor"
    if isinstance(backend, str):
        return backend
    name = getattr(backend, "__qualname__", None) or type(backend).__name__
    module = getattr(backend, "__module__", None)
    return name if module in (None, "__main__", "builtins") else module + "." + name


def _module_of(frame):
    return frame.f_globals.get("__name__", "") if frame is not None else ""


def _in_torch(frame):
    name = _module_of(frame)
    return name == "torch" or name.startswith("torch.")


def _caller():
    """(immediate caller frame, "file:line" of the first caller outside torch and this file)."""
    frame = sys._getframe(2)
    while frame is not None and os.path.abspath(frame.f_code.co_filename) == _OWN_FILE:
        frame = frame.f_back
    user = frame
    while user is not None and _in_torch(user):
        user = user.f_back
    where = f"{user.f_code.co_filename}:{user.f_lineno}" if user is not None else ""
    return frame, where


def _record(api, requested, forced, where, note=None):
    path = _STATE["log"]
    if not path:
        return
    record = {"api": api, "backend": _backend_name(requested), "custom": not isinstance(requested, (str, type(None))),
              "default": requested is None, "forced": forced, "caller": where}
    if note:
        record["note"] = note
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
    except OSError:
        pass


def _forced_kwargs(kwargs, requested):
    forced = _STATE["backend"]
    kwargs = dict(kwargs)
    kwargs["backend"] = forced
    if forced != (_backend_name(requested) if requested is not None else "inductor"):
        # mode/options were meant for the script's own backend; the forced one may reject them
        kwargs.pop("mode", None)
        kwargs.pop("options", None)
    return kwargs


def _wrap_compile(original):
    @functools.wraps(original)
    def compile(*args, **kwargs):  # noqa: A001 - mirrors torch.compile
        frame, where = _caller()
        # torch.compile(backend=...) used as a decorator calls itself again from torch/__init__.py
        if _module_of(frame) == "torch" or getattr(_LOCAL, "depth", 0):
            return original(*args, **kwargs)
        if _STATE["compare"] and not args and kwargs.get("model") is None:
            return functools.partial(compile, **kwargs)  # @torch.compile(...) as a decorator
        requested = kwargs.get("backend")
        forced = _STATE["backend"]
        _record("torch.compile", requested, forced, where)
        if _STATE["compare"]:
            return _Comparing(args[0] if args else kwargs.get("model"), original(*args, **kwargs), where)
        if forced:
            kwargs = _forced_kwargs(kwargs, requested)
        _LOCAL.depth = getattr(_LOCAL, "depth", 0) + 1
        try:
            return original(*args, **kwargs)
        finally:
            _LOCAL.depth -= 1

    compile.__reportkit_wrapped__ = True
    return compile


def _wrap_optimize(original):
    @functools.wraps(original)
    def optimize(*args, **kwargs):
        frame, where = _caller()
        # torch itself calls optimize (torch.compile, functorch, the minifier): leave those alone
        if _in_torch(frame) or getattr(_LOCAL, "depth", 0):
            return original(*args, **kwargs)
        requested = args[0] if args else kwargs.get("backend")
        forced = _STATE["backend"]
        _record("torch._dynamo.optimize", requested, forced, where)
        if forced:
            if args:
                args = (forced,) + tuple(args[1:])
            else:
                kwargs = dict(kwargs, backend=forced)
        return original(*args, **kwargs)

    optimize.__reportkit_wrapped__ = True
    return optimize


def _import_first(names):
    """Import the first of ``names`` that imports (the module registering the forced backend)."""
    errors = []
    for name in names:
        try:
            importlib.import_module(name.strip())
            return
        except Exception as exc:  # the run goes on; torch.compile will say the backend is unknown
            errors.append(f"{name}: {type(exc).__name__}: {exc}")
    _record("import", ",".join(names), _STATE["backend"], "", note="; ".join(errors))


def _patch_torch(torch):
    if _STATE["import"]:
        _import_first(_STATE["import"].split(","))
    compile_fn = getattr(torch, "compile", None)
    if compile_fn is not None and not getattr(compile_fn, "__reportkit_wrapped__", False):
        _STATE["compile"] = compile_fn
        torch.compile = _wrap_compile(compile_fn)


# --------------------------------------------------------------------------- Torch-Spyre vs sendnn


class _Comparing:
    """What torch.compile returns in comparison mode: the first call runs the comparison and exits."""

    def __init__(self, model, compiled, where):
        self._model, self._compiled, self._where = model, compiled, where

    def __getattr__(self, name):
        return getattr(self._compiled, name)

    def __call__(self, *args, **kwargs):
        result = {"where": self._where, "function": _backend_name(self._model)}
        try:
            result.update(compare_paths(self._model, args, kwargs))
        except Exception as exc:  # the comparison itself could not be set up
            result["error"] = _exc_text(exc)
        _write_json(_STATE["compare"], result)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)


def _exc_text(exc):
    text = str(exc).strip().splitlines()
    return type(exc).__name__ + (": " + text[0][:300] if text else "")


def _write_json(path, data):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, default=repr)
    os.replace(tmp, path)


def _moved(torch, model, args, kwargs, device):
    """The model (a copy, for a Module) and the inputs with every tensor moved to ``device``."""
    import copy

    from torch.utils._pytree import tree_map

    if isinstance(model, torch.nn.Module):
        model = copy.deepcopy(model).to(device)

    def move(x):
        return x.detach().to(device) if isinstance(x, torch.Tensor) else x

    return model, tree_map(move, args), tree_map(move, kwargs)


def _on_host(torch, out):
    from torch.utils._pytree import tree_map

    return tree_map(lambda x: x.detach().to("cpu") if isinstance(x, torch.Tensor) else x, out)


def _judge(torch, out, reference, atol, rtol):
    """{"ok": bool, "detail": str}: ``out`` against the eager CPU result."""
    from torch.utils._pytree import tree_flatten

    leaves, spec = tree_flatten(out)
    ref_leaves, ref_spec = tree_flatten(reference)
    if spec != ref_spec:
        return {"ok": False, "detail": f"output structure differs from eager CPU: {spec} vs {ref_spec}"}
    worst = 0.0
    for got, want in zip(leaves, ref_leaves):
        if not isinstance(want, torch.Tensor):
            if got != want:
                return {"ok": False, "detail": f"{got!r} instead of {want!r}"}
            continue
        try:
            torch.testing.assert_close(got, want, atol=atol, rtol=rtol, equal_nan=True)
        except AssertionError as exc:
            return {"ok": False, "detail": " ".join(str(exc).split())[:400]}
        if got.numel():
            worst = max(worst, float((got.double() - want.double()).abs().nan_to_num(0.0).max()))
    return {"ok": True, "detail": f"matches eager CPU (max abs diff {worst:g})"}


def compare_paths(model, args, kwargs):
    import torch

    atol, rtol = (float(x) for x in (_STATE["tolerance"] or "0.1,0.1").split(","))
    m, a, k = _moved(torch, model, args, kwargs, "cpu")
    reference = _on_host(torch, m(*a, **k))
    paths = {}
    original = _STATE["compile"]
    for name, device, backend in (("spyre", "spyre", None), ("sendnn", "cpu", "sendnn")):
        torch._dynamo.reset()
        try:
            if backend == "sendnn":
                import torch_sendnn  # noqa: F401  (registers the sendnn dynamo backend)
            m, a, k = _moved(torch, model, args, kwargs, device)
            fn = original(m) if backend is None else original(m, backend=backend)
            paths[name] = _judge(torch, _on_host(torch, fn(*a, **k)), reference, atol, rtol)
        except Exception as exc:
            paths[name] = {"ok": False, "error": _exc_text(exc), "detail": _exc_text(exc)}
    return {"atol": atol, "rtol": rtol, "paths": paths}


def _patch_dynamo(dynamo):
    optimize = getattr(dynamo, "optimize", None)
    if optimize is not None and not getattr(optimize, "__reportkit_wrapped__", False):
        dynamo.optimize = _wrap_optimize(optimize)


# --------------------------------------------------------------------------- post-import hook


class _PostImportHook:
    """Meta path finder that runs a callback right after a module has been executed."""

    def __init__(self, callbacks):
        self.callbacks = dict(callbacks)

    def find_spec(self, fullname, path=None, target=None):
        if fullname not in self.callbacks:
            return None
        spec = None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        loader = getattr(spec, "loader", None)
        if spec is None or loader is None or not hasattr(loader, "exec_module"):
            return spec
        callback = self.callbacks.pop(fullname)
        original = loader.exec_module

        def exec_module(module):
            original(module)
            callback(module)

        loader.exec_module = exec_module
        return spec


def install_hooks():
    callbacks = {"torch": _patch_torch, "torch._dynamo": _patch_dynamo}
    for name in list(callbacks):
        module = sys.modules.get(name)
        if module is not None:
            callbacks.pop(name)(module)
    if callbacks:
        sys.meta_path.insert(0, _PostImportHook(callbacks))


# --------------------------------------------------------------------------- native backtrace of a hang


def _allow_ptrace(pid):
    """Yama ptrace_scope=1 lets only ancestors trace; allow our watchdog (a child) explicitly."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(0x59616D61, pid, 0, 0, 0)  # PR_SET_PTRACER
    except Exception:
        pass


def start_gdb_watchdog(delay, out, limit=120.0):
    gdb = shutil.which("gdb")
    if not gdb:
        return
    try:
        proc = subprocess.Popen([sys.executable, _OWN_FILE, "--gdb-watch", str(os.getpid()), str(delay), out,
                                 str(limit)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return
    _allow_ptrace(proc.pid)


def gdb_watch(pid, delay, out, limit=120.0):
    """Wait ``delay`` seconds while ``pid`` (our parent) lives, then write gdb's all-thread backtrace.

    gdb gets ``limit`` seconds (the time left before the runner asks faulthandler for the Python stacks
    and kills): a gdb still busy then (symbols of a large process on a loaded machine) is killed and
    ``pid`` continued (SIGCONT), so that gdb never holds it stopped through the faulthandler dump."""
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline:
        if os.getppid() != pid:
            return 0  # the target ended: nothing to do
        time.sleep(0.2)
    cmd = [shutil.which("gdb") or "gdb", "-batch", "-nx", "-p", str(pid),
           "-ex", "set pagination off", "-ex", "set confirm off", "-ex", "info threads",
           "-ex", "thread apply all bt 40"]
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("$ " + " ".join(cmd) + "\n")
        fh.flush()
        try:
            subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=fh, stderr=subprocess.STDOUT, timeout=limit)
        except subprocess.TimeoutExpired:
            fh.write(f"\ngdb did not finish within {limit:g} s (before the timeout's stack dump); stopped\n")
        except (OSError, subprocess.SubprocessError) as exc:
            fh.write(f"gdb failed: {exc}\n")
        finally:
            try:
                os.kill(pid, signal.SIGCONT)  # whatever gdb's end left stopped runs on
            except OSError:
                pass
    return 0


# --------------------------------------------------------------------------- launched like a user

# torch_spyre treats the process as a bad fork when its parent process's name contains "python" (issue 13 of
# reportkit, item 6): a script started by reportkit (a Python process) would then not get its device. The
# script's parent is made a shell, which forwards the signals the runner sends (SIGUSR1 asks faulthandler
# for stacks) and exits the way the script did (its code, or the same signal).
_SHELL = """
"$0" "$@" <&0 &
child=$!
for sig in USR1 TERM INT HUP; do trap "kill -$sig $child 2>/dev/null" "$sig"; done
while :; do
  wait "$child"
  status=$?
  kill -0 "$child" 2>/dev/null || break
done
if [ "$status" -gt 128 ]; then
  trap - USR1 TERM INT HUP
  kill -$((status - 128)) $$
fi
exit "$status"
"""


def parent_name():
    try:
        with open(f"/proc/{os.getppid()}/comm", encoding="utf-8", errors="replace") as fh:
            return fh.read().strip()
    except OSError:
        return ""


def shell_parent(argv):
    """Re-exec this process as ``sh`` running us as its child, when that changes torch_spyre's verdict."""
    sh = shutil.which("sh")
    if not sh or "python" not in parent_name().lower():
        return
    try:
        if importlib.util.find_spec("torch_spyre") is None:
            return
    except (ImportError, ValueError):
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sh, ["sh", "-c", _SHELL, sys.executable, _OWN_FILE] + list(argv))


# --------------------------------------------------------------------------- main


def _load_boot(path):
    spec = importlib.util.spec_from_file_location("_reportkit_boot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    files = getattr(module, "_BOOT_FILES", None)
    if isinstance(files, set):
        files.add(_OWN_FILE)  # our frames are bootstrap frames too
    return module


def spyre_logs():
    """TORCH_LOGS=+torch_spyre when torch_spyre can be imported (checked without importing it)."""
    try:
        found = importlib.util.find_spec("torch_spyre") is not None
    except (ImportError, ValueError):
        found = False
    logs = os.environ.get("TORCH_LOGS", "")
    if found and "torch_spyre" not in logs:
        os.environ["TORCH_LOGS"] = ",".join(x for x in (logs, "+torch_spyre") if x)


def _read_settings():
    env = os.environ
    if env.pop("REPORTKIT_SPYRE_LOGS", None):
        spyre_logs()
    _STATE["backend"] = env.pop("REPORTKIT_BACKEND", None) or None
    _STATE["import"] = env.pop("REPORTKIT_BACKEND_IMPORT", None) or None
    _STATE["log"] = env.pop("REPORTKIT_COMPILE_LOG", None) or None
    _STATE["compare"] = env.pop("REPORTKIT_SPYRE_COMPARE", None) or None
    _STATE["tolerance"] = env.pop("REPORTKIT_COMPARE_TOL", None) or None
    gdb_after, gdb_out = env.pop("REPORTKIT_GDB_AFTER", None), env.pop("REPORTKIT_GDB_OUT", None)
    gdb_limit = env.pop("REPORTKIT_GDB_LIMIT", None)
    return gdb_after, gdb_out, gdb_limit


def main(argv):
    if argv and argv[0] == "--gdb-watch":
        return gdb_watch(int(argv[1]), float(argv[2]), argv[3], float(argv[4]) if len(argv) > 4 else 120.0)
    if len(argv) < 4:
        sys.stderr.write("usage: _backend_boot.py BOOT_FILE EVENTS_FILE DUMP_FILE SCRIPT [ARGS...]\n")
        return 2
    if os.environ.pop("REPORTKIT_SHELL_PARENT", None):
        shell_parent(argv)
    gdb_after, gdb_out, gdb_limit = _read_settings()
    boot = _load_boot(argv[0])
    install_hooks()
    if gdb_after and gdb_out:
        start_gdb_watchdog(float(gdb_after), gdb_out, float(gdb_limit) if gdb_limit else 120.0)
    return boot.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
