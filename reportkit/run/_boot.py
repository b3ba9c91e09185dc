"""Bootstrap that runs a target script inside the *target* interpreter.

Usage (reportkit runs it by file path, so the target interpreter does not need reportkit installed):

    python /path/to/reportkit/run/_boot.py EVENTS_FILE DUMP_FILE SCRIPT [ARGS...]

It behaves like ``python SCRIPT ARGS...`` (same ``sys.argv``, ``sys.path[0]``, ``__main__``), and in
addition:

* appends JSON events (one per line, flushed) to EVENTS_FILE: ``start`` (pid, main thread id),
  ``exception`` (the uncaught exception: fully-qualified type, message, every frame, chained
  causes), ``thread_exception`` (uncaught exceptions in other threads), ``exit`` (``sys.exit`` code);
* arms :mod:`faulthandler` on DUMP_FILE for fatal signals (SIGSEGV, SIGABRT, ...) and on SIGUSR1,
  which the runner sends before killing a run that timed out: the stacks of all threads are dumped;
* at exit, kills every descendant still running; unconfined it is also a child subreaper (Linux), so that
  children that called ``setsid()`` or double-forked are among them (a confined run has a reaper above it:
  :func:`_end_with_descendants`);
* with ``REPORTKIT_GUARD`` set (the sandbox's fallback, see :mod:`reportkit.run.sandbox`): installs an
  audit hook that refuses writes, deletes, renames, permission changes and shell calls outside the
  writable directories it names (and network connections when it says so).
* appends a ``waker`` event the first time the script's own code (not the standard library's or an
  installed package's) calls a method that wakes a waiting thread or process: ``Event.set``,
  ``Condition.notify``/``notify_all``, ``Queue.put``/``put_nowait``/``task_done`` (``threading``,
  ``queue``, ``multiprocessing``, ``asyncio``), ``Future.set_result`` (``concurrent.futures``), or
  starts a thread or process that runs the script's code (``Thread.start``, ``Process.start``), with the
  receiver's id and the function the calling thread (or the started one) runs; and a ``wait`` event for
  every wait of the main thread in the script's code (``Queue.get``/``join``, ``Event.wait``,
  ``Thread.join``...). A hang's reproducer must keep the wakers of what it hangs in
  (:class:`reportkit.reduce.minimize.Keep`): without them it hangs trivially, the wake-up that fails to arrive
  is the bug. The classes are wrapped when their module is imported;
* with ``REPORTKIT_SAMPLE_STACKS=INTERVAL,PATH`` in the environment (removed before the script runs),
  appends the main thread's innermost frame, whether any thread moved, the CPU time and the number of
  child processes to PATH every INTERVAL seconds (a raw ``_thread``, not visible to ``threading``);
  reportkit watches it to tell a hang early (see :mod:`reportkit.run.hangwatch`).

Standard library only, and compatible with Python 3.8+: it runs in the user's interpreter.
"""

import _thread
import faulthandler
import json
import linecache
import os
import runpy
import signal
import sys
import threading
import time
import traceback

_BOOT_FILES = {os.path.abspath(__file__), os.path.abspath(runpy.__file__)}


def _is_boot(filename):
    return filename == "<frozen runpy>" or os.path.abspath(filename) in _BOOT_FILES
_MAX_MESSAGE = 20000
_MAX_FRAMES = 400
_MAX_CHAIN = 8


class _Events:
    def __init__(self, path):
        self._file = open(path, "a", encoding="utf-8")
        self._lock = threading.Lock()
        if hasattr(os, "register_at_fork"):  # a child forked while another thread wrote must not wait forever
            os.register_at_fork(after_in_child=self._new_lock)

    def _new_lock(self):
        self._lock = threading.Lock()

    def write(self, record):
        line = json.dumps(record, default=repr)
        with self._lock:
            self._file.write(line + "\n")
            self._file.flush()


def _type_name(exc):
    cls = type(exc)
    qualname = getattr(cls, "__qualname__", cls.__name__)
    module = _type_origin(exc)[0]
    return qualname if module is None else module + "." + qualname


def _type_origin(exc):
    """The module that defines the exception's class and that module's file (None for ``__main__``,
    whose module object is gone once the script has ended, and for modules without a file)."""
    module = getattr(type(exc), "__module__", None)
    if module in (None, "builtins", "__builtin__"):
        return None, None
    mod = sys.modules.get(module) if module != "__main__" else None
    file = getattr(mod, "__file__", None)
    return module, file if isinstance(file, str) else None


def _message(exc):
    try:
        text = str(exc)
    except BaseException:  # a broken __str__ must not hide the failure
        text = "<unprintable " + type(exc).__name__ + ">"
    notes = getattr(exc, "__notes__", None)
    if isinstance(notes, list):
        text = "\n".join([text] + [str(n) for n in notes])
    return text[:_MAX_MESSAGE]


def _opname(tb):
    """The instruction the frame was executing when the exception passed through it (``CALL``: inside a
    called function; ``BINARY_OP``, ``LOAD_ATTR``, ``RAISE_VARARGS``...: the frame's own bytecode)."""
    try:
        import opcode

        code = tb.tb_frame.f_code.co_code
        return opcode.opname[code[tb.tb_lasti]] if 0 <= tb.tb_lasti < len(code) else ""
    except Exception:  # noqa: BLE001 - best effort, never in the way of the report
        return ""


def _segment(tb, lineno):
    """The source of the instruction the frame was at (``co_positions``, Python 3.11+): the sub-expression
    that raised (``x[j].item()`` of ``s[i] += t[j, x[j].item(), i]``), on one line; "" where unknown."""
    try:
        import itertools

        positions = getattr(tb.tb_frame.f_code, "co_positions", None)
        if positions is None or tb.tb_lasti < 0:
            return ""
        start, end, col, end_col = next(itertools.islice(positions(), tb.tb_lasti // 2, None))
        if start is None or end is None or col is None or end_col is None or end - start > 20:
            return ""
        filename = tb.tb_frame.f_code.co_filename
        lines = [linecache.getline(filename, n) for n in range(start, end + 1)]
        if start != lineno or not lines[0]:
            return ""
        # (columns count UTF-8 bytes)
        data = [line.encode("utf-8") for line in lines]
        data[-1] = data[-1][:end_col]
        data[0] = data[0][col:]
        text = " ".join(part.decode("utf-8", "replace").strip() for part in data)
        return text if len(text) <= 400 else ""
    except Exception:  # noqa: BLE001 - best effort, never in the way of the report
        return ""


def _training(tb):
    """``"train"``/``"eval"``: the ``training`` flag of the frame's ``self`` when the frame's code read an attribute
    ``training`` before the instruction it raised at (an ``nn.Module``'s forward that chose a path by its mode:
    batch norm's statistics, dropout); "" otherwise (the flag read after a rank check that raised says nothing)."""
    try:
        code = tb.tb_frame.f_code
        if "training" not in code.co_names or not code.co_argcount:
            return ""
        import dis

        if not any(ins.argval == "training" and ins.opname.startswith("LOAD_ATTR") and ins.offset < tb.tb_lasti
                   for ins in dis.get_instructions(code)):
            return ""
        owner = tb.tb_frame.f_locals.get(code.co_varnames[0])
        state = object.__getattribute__(owner, "__dict__").get("training")  # (no __getattr__ of the object's)
        return {True: "train", False: "eval"}.get(state, "") if isinstance(state, bool) else ""
    except Exception:  # noqa: BLE001 - best effort, never in the way of the report
        return ""


def _frames(tb):
    frames = []
    while tb is not None:
        frame = tb.tb_frame
        filename = frame.f_code.co_filename
        if not _is_boot(filename):  # the bootstrap, and the waker/wait wrappers wherever they are
            lineno = tb.tb_lineno
            frames.append(
                {
                    "file": filename,
                    "line": lineno,
                    "function": frame.f_code.co_name,
                    "module": frame.f_globals.get("__name__"),
                    "text": linecache.getline(filename, lineno).strip(),
                    "op": _opname(tb),
                    "expr": _segment(tb, lineno),
                    "training": _training(tb),
                }
            )
        tb = tb.tb_next
    if len(frames) > _MAX_FRAMES:  # keep the outermost and the innermost ones
        half = _MAX_FRAMES // 2
        frames = frames[:half] + frames[-half:]
    return frames


def _exception_record(exc):
    record = {"type": _type_name(exc), "message": _message(exc), "frames": _frames(exc.__traceback__)}
    record["type_module"], record["type_file"] = _type_origin(exc)
    chain = []
    seen = {id(exc)}
    cur = exc
    while len(chain) < _MAX_CHAIN:
        nxt = cur.__cause__ if cur.__cause__ is not None else (
            None if cur.__suppress_context__ else cur.__context__)
        if nxt is None or id(nxt) in seen:
            break
        seen.add(id(nxt))
        chain.append({"type": _type_name(nxt), "message": _message(nxt)[:2000],
                      "frames": _frames(nxt.__traceback__)[-3:]})
        cur = nxt
    record["chain"] = chain
    return record


def _strip_boot_frames(tb):
    """``tb`` without the bootstrap's frames: the leading ones, and the waker/wait wrappers'
    (:func:`_watch_wakers`) wherever they are (a traceback's ``tb_next`` is writable)."""
    while tb is not None and _is_boot(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    cur = tb
    while cur is not None:
        nxt = cur.tb_next
        while nxt is not None and _is_boot(nxt.tb_frame.f_code.co_filename):
            nxt = nxt.tb_next
        cur.tb_next = nxt
        cur = nxt
    return tb


# --------------------------------------------------------------------------- sandbox fallback

GUARD_ENV = "REPORTKIT_GUARD"
CONFINE_ENV = "REPORTKIT_CONFINE"
START_ENV = "REPORTKIT_START_ENV"  # the loader's variables (LD_*), set again once the run is confined
CONFINED_ENV = "REPORTKIT_CONFINED"  # what the first stage put in force (for the start event)
_PR_SET_CHILD_SUBREAPER = 36
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
# audit events whose arguments are paths that get changed: event -> ((path index, dir_fd index), ...);
# a path may be a descriptor (fchmod, futimes, fchown, ftruncate...): the file it is open on counts
_PATH_EVENTS = {
    "os.remove": ((0, 1),), "os.rmdir": ((0, 1),), "os.rename": ((0, 2), (1, 3)), "os.mkdir": ((0, 2),),
    "os.chmod": ((0, 2),), "os.chown": ((0, 3),), "os.truncate": ((0, None),), "os.symlink": ((1, 2),),
    # a hard link to a file outside would make it writable from inside: both ends must be inside
    "os.link": ((0, 2), (1, 3)), "os.utime": ((0, 3),), "shutil.rmtree": ((0, 1),), "os.mkfifo": ((0, 2),),
    "os.mknod": ((0, 3),), "os.setxattr": ((0, None),), "os.removexattr": ((0, None),),
    "os.chflags": ((0, None),), "os.lchflags": ((0, None),),
}
_SHELLS = {"sh", "bash", "dash", "zsh", "ksh", "csh", "tcsh", "fish", "busybox"}
_AF_UNIX, _AF_INET, _AF_INET6, _AF_NETLINK = 1, 2, 10, 16
# Python-level entries of native writers (the audit event ``open`` does not fire for them):
# module -> ((class, method, position of the path argument, its keyword), ...)
_NATIVE_WRITERS = {
    "torch.serialization": (("_open_zipfile_writer_file", "__init__", 1, "name"),),
    "torch.jit._script": (("RecursiveScriptModule", "save", 1, "f"),),
}
_ANON_FD = ("pipe:", "socket:", "anon_inode:")
# fcntl/ioctl commands that name the process a descriptor's SIGIO (or F_SETSIG's signal) is sent to (Linux)
_F_SETFL, _F_SETOWN, _F_SETSIG, _F_SETOWN_EX, _F_GETOWN_EX = 4, 8, 10, 15, 16
_FIOSETOWN, _SIOCSPGRP = 0x8901, 0x8902
_O_ASYNC = getattr(os, "O_ASYNC", 0o20000)
_PYTHON_FLAGS_OFF = set("ISE")  # -I (isolated), -S (no site), -E (ignore PYTHON*): the guard would not load


def _fd_target(fd):
    """The path an open descriptor refers to; None for a pipe, a socket or another anonymous object."""
    try:
        target = os.readlink("/proc/self/fd/" + str(int(fd)))
    except (OSError, ValueError, TypeError):
        return None
    if not target.startswith("/"):
        return None
    return target[:-len(" (deleted)")] if target.endswith(" (deleted)") else target


def _canonical(path, _open=os.open, _close=os.close):
    """``realpath(path)`` of an absolute path, its directory resolved by the kernel (a descriptor's
    ``/proc/self/fd`` link): what a call will reach, in a few system calls where ``realpath`` makes one ``lstat``
    per component (blind round 33: a run that worked 1,500 levels deep made every check of the fallback's guard
    cost seconds). ``os.open`` as it was before the guard wrapped it."""
    head, tail = os.path.split(path)
    if tail in ("", ".", ".."):
        return os.path.realpath(path)
    try:
        fd = _open(head, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    except (OSError, ValueError):
        return os.path.realpath(path)  # (a directory not there, or a path too long for one call)
    try:
        base = _fd_target(fd)
    finally:
        _close(fd)
    if base is None:
        return os.path.realpath(path)
    full = os.path.join(base, tail)
    return os.path.realpath(full) if os.path.islink(full) else full


def _key_lists():
    """(device, inode) of /proc/keys and /proc/key-users in this procfs, read from the directory (a mount over
    them, the run's mask, hides the file but not its directory entry): the guard refuses to open them."""
    found = set()
    try:
        device = os.stat("/proc").st_dev
        with os.scandir("/proc") as entries:
            for entry in entries:
                if entry.name in ("keys", "key-users"):
                    found.add((device, entry.inode()))
    except OSError:
        pass
    return frozenset(found)


def _guard_config():
    """The guard's configuration, for this process and the Python children it starts (see _install_guard)."""
    value = os.environ.get(GUARD_ENV)
    return json.loads(value) if value else None


def _patch_on_import(names, patch):
    """``patch(module)`` for each module of ``names``: now for those already imported, and for the others once
    an import has executed them (a meta path finder that wraps the loader's ``exec_module``)."""
    for name in names:
        if name in sys.modules:
            patch(sys.modules[name])

    class _Finder:
        def find_spec(self, fullname, path=None, target=None):
            if fullname not in names or fullname in sys.modules:
                return None
            import importlib.machinery

            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            loader = getattr(spec, "loader", None)
            if loader is None or not hasattr(loader, "exec_module"):
                return spec
            exec_module = loader.exec_module

            def exec_and_patch(module):
                exec_module(module)
                patch(module)

            loader.exec_module = exec_and_patch
            return spec

    sys.meta_path.insert(0, _Finder())


def _install_guard(config):
    """The fallback sandbox's Python-level layer: refuse changes outside ``config["writable"]`` (module doc).

    Every path is resolved before it is judged (symlinks, ``..``, ``/proc/self/root``, ``/proc/self/cwd``,
    ``/proc/self/fd/N``; a descriptor by the file it is open on; a relative path by the directory
    descriptor of an ``*at`` call). Installed once per process; best effort: native code is not seen.
    """
    if getattr(sys, "_reportkit_guard", False):
        return
    sys._reportkit_guard = True
    allowed = tuple(os.path.join(os.path.realpath(d), "") for d in config.get("writable") or [])
    devices = set()
    device_dirs = []
    for dev in config.get("devices") or []:
        real = os.path.realpath(dev)
        devices.add(real)
        device_dirs.append(os.path.join(real, ""))
    device_dirs = tuple(device_dirs)
    network = config.get("network", True)
    site = config.get("site")
    run_pid = int(config.get("run_pid") or os.getpid())
    realpath, fspath, join, getcwd = os.path.realpath, os.fspath, os.path.join, os.getcwd
    state = threading.local()
    key_lists = _key_lists()

    def resolve(path, dir_fd=None):
        """The real path ``path`` names (None: not a file path, e.g. a pipe's descriptor)."""
        if isinstance(path, int):
            return _fd_target(path)
        try:
            path = fspath(path)
            if isinstance(path, bytes):
                path = os.fsdecode(path)
        except TypeError:
            return None
        if not isinstance(path, str):
            return None
        if not path.startswith("/"):
            base = getcwd() if not isinstance(dir_fd, int) or dir_fd < 0 else _fd_target(dir_fd)
            if base is None:
                return "/proc/self/fd/" + str(dir_fd)  # a directory descriptor we cannot name: outside
            path = join(base, path)
        full = _canonical(path)
        parts = full.split("/")
        if len(parts) > 4 and parts[1] == "proc" and parts[3] == "fd" and parts[4].startswith(_ANON_FD):
            return None  # /proc/self/fd/N of a pipe or socket: no file is changed through it
        return full

    def inside(path, dir_fd=None):
        full = resolve(path, dir_fd)
        if full is None:
            return True
        return (full + "/").startswith(allowed) or full in devices or full.startswith(device_dirs)

    def key_list(path, dir_fd=None):
        """``path`` opens the kernel's list of the uid's keys (/proc/keys, /proc/key-users: not masked here,
        or reached through another process's root)."""
        if not key_lists or isinstance(path, int):
            return False
        try:
            st = os.stat(path, dir_fd=dir_fd if isinstance(dir_fd, int) and dir_fd >= 0 else None)
        except (OSError, TypeError, ValueError):
            return False
        return (st.st_dev, st.st_ino) in key_lists

    def refuse(event, what):
        raise PermissionError(1, "reportkit sandbox (fallback guard) refused " + event, str(what))

    def in_run(pid):
        """``pid`` is this run's first process or one of its descendants."""
        for _ in range(256):
            if pid == run_pid:
                return True
            if pid <= 1:
                return False
            try:
                with open("/proc/" + str(pid) + "/stat", "rb") as fh:
                    pid = int(fh.read().rpartition(b")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                return False
        return False

    def check_signal(event, target, group):
        if target == 0 or (not group and target == os.getpid()):
            return
        if target == -1:
            refuse(event + " of every process", target)
        if group or target < 0:
            leader = abs(target)
            if leader == os.getpgid(0) and in_run(os.getpid()):
                return
            if not in_run(leader):
                refuse(event + " of a process group outside the run", target)
        elif not in_run(target):
            refuse(event + " of a process outside the run", target)

    def check_owner(event, kind, who):
        """An owner of a descriptor's SIGIO/SIGURG (F_SETOWN, F_SETOWN_EX, FIOSETOWN): the kernel signals it when
        the descriptor is ready, so it is judged as a signal's target. ``kind``: 0 a thread, 1 a process, 2 a
        process group (F_OWNER_TID/PID/PGRP); a process's owner < 0 is the group -owner."""
        if who == 0:
            return  # no owner: no signal
        if kind == 0:
            if os.path.isdir("/proc/self/task/" + str(who)):
                return  # a thread of this process
            try:
                with open("/proc/" + str(who) + "/status", "rb") as fh:
                    status = fh.read()
                who = int(status.split(b"\nTgid:", 1)[1].split()[0])
            except (OSError, ValueError, IndexError):
                refuse(event + " naming a thread outside the run as the owner", who)
            kind = 1
        if kind == 2 or who < 0:
            check_signal(event + " naming a process group as the owner", -abs(who), True)
        else:
            check_signal(event + " naming a process as the owner", who, False)

    def fd_owner(fd):
        """The (kind, owner) of ``fd``'s SIGIO (F_GETOWN_EX); None where it cannot be read."""
        try:
            import fcntl
            import struct

            return struct.unpack("ii", fcntl.fcntl(fd, _F_GETOWN_EX, bytes(8))[:8])
        except (OSError, ValueError, TypeError, ImportError, OverflowError):
            return None

    def check_fcntl(event, fd, cmd, arg):
        """fcntl.fcntl / fcntl.ioctl: F_SETOWN, F_SETOWN_EX, FIOSETOWN, SIOCSPGRP name the process a descriptor's
        SIGIO (or F_SETSIG's signal) goes to: one outside the run is refused, as a signal to it would be;
        F_SETSIG and O_ASYNC on a descriptor whose owner is outside too."""
        if not isinstance(cmd, int) or not isinstance(fd, int):
            return
        if event == "fcntl.ioctl":
            if cmd not in (_FIOSETOWN, _SIOCSPGRP):
                return
            if isinstance(arg, int):  # a pointer to the owner the guard cannot read
                refuse(event + " setting a descriptor's signal owner through a pointer", arg)
            data = owner_bytes(event, arg, 4)
            check_owner(event, 1, int.from_bytes(data[:4], sys.byteorder, signed=True))
        elif cmd == _F_SETOWN:
            if isinstance(arg, int):
                check_owner(event + " (F_SETOWN)", 1, arg)
            else:
                refuse(event + " (F_SETOWN) with an owner that is not a number", arg)
        elif cmd == _F_SETOWN_EX:
            if isinstance(arg, int):
                refuse(event + " (F_SETOWN_EX) through a pointer", arg)
            data = owner_bytes(event, arg, 8)
            kind = int.from_bytes(data[:4], sys.byteorder, signed=True)
            who = int.from_bytes(data[4:8], sys.byteorder, signed=True)
            check_owner(event + " (F_SETOWN_EX)", kind if kind in (0, 1, 2) else 1, who)
        elif cmd == _F_SETSIG or (cmd == _F_SETFL and isinstance(arg, int) and arg & _O_ASYNC):
            owner = fd_owner(fd)
            if owner is not None:
                check_owner(event + (" (F_SETSIG)" if cmd == _F_SETSIG else " (O_ASYNC)"), *owner)

    def owner_bytes(event, arg, size):
        try:
            data = arg.encode() if isinstance(arg, str) else bytes(memoryview(arg))
        except (TypeError, ValueError):
            refuse(event + " with an owner the guard cannot read", arg)
        if len(data) < size:
            refuse(event + " with a short owner", arg)
        return data

    def pidfd_target(fd):
        """The process a pidfd (or a /proc/PID directory descriptor) stands for; None where it cannot be told."""
        try:
            with open("/proc/self/fdinfo/" + str(int(fd)), "rb") as fh:
                for line in fh:
                    if line.startswith(b"Pid:"):
                        return int(line.split()[1])
        except (OSError, ValueError, TypeError, IndexError):
            return None
        target = _fd_target(fd)
        parts = target.split("/") if target else []
        if len(parts) == 3 and parts[1] == "proc" and parts[2].isdigit():
            return int(parts[2])
        return None

    def unix_path(address):
        if isinstance(address, bytes):
            address = os.fsdecode(address)
        if isinstance(address, str) and address and not address.startswith("\0"):
            return address
        return None  # abstract (or unnamed)

    def check_socket(event, sock, address, creating):
        try:
            family = int(getattr(sock, "family", -1))
        except (TypeError, ValueError):
            family = -1
        if family == _AF_UNIX:
            path = unix_path(address)
            if path is not None and not inside(path):
                refuse(event + " of a unix socket outside the scratch directory", path)
        elif not network and family not in (_AF_UNIX, _AF_NETLINK, -1):
            refuse(event + " (--no-network)", address)

    def python_child(program, argv, env):
        """Refuse to start a Python that would run without the guard."""
        try:
            name = os.path.basename(os.fsdecode(fspath(program))) if program is not None else ""
        except TypeError:
            return
        args = [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in argv or []] \
            if isinstance(argv, (list, tuple)) else []
        if name == "env" and any(a in ("-i", "--ignore-environment") or a.startswith(("-u", "--unset"))
                                 for a in args[1:]):
            refuse("running a program with a cleaned environment (env -i/-u)", args)
        if not (name.startswith(("python", "pypy")) or realpath(str(program)) == realpath(sys.executable)):
            return
        for arg in args[1:]:
            if arg in ("-c", "-m") or not arg.startswith("-") or arg.startswith("--"):
                break
            if _PYTHON_FLAGS_OFF & set(arg[1:]):
                refuse("starting Python with " + arg + " (the sandbox's guard would not load)", args)
        environ = os.environ if env is None else env
        try:
            guard = environ.get(GUARD_ENV) or environ.get(GUARD_ENV.encode())
            path = environ.get("PYTHONPATH") or environ.get(b"PYTHONPATH") or ""
        except (AttributeError, TypeError):
            return
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if type(env) is dict and all(type(k) is str for k in env) and os.environ.get(GUARD_ENV):
            # an environment the caller made (Inductor's dlopen probe: os.environ, PYTHONPATH from a sys.path this
            # guard's directory has left): the guard goes into it, as it is here, before the child is started
            env[GUARD_ENV] = os.environ[GUARD_ENV]
            if site and site not in str(path).split(os.pathsep):
                env["PYTHONPATH"] = site + (os.pathsep + str(path) if path else "")
            return
        if not guard or (site and site not in str(path).split(os.pathsep)):
            refuse("starting Python without the sandbox's guard in its environment", args)

    watched = frozenset(["open", "sqlite3.connect", "os.system", "os.popen", "subprocess.Popen", "os.exec",
                         "os.posix_spawn", "os.spawn", "os.kill", "os.killpg", "socket.__new__", "socket.connect",
                         "socket.bind", "socket.sendto", "socket.sendmsg", "fcntl.fcntl", "fcntl.ioctl",
                         *_PATH_EVENTS])

    def hook(event, args):
        if event not in watched or getattr(state, "busy", False):
            return  # (most events: imports, compile, exec... cost one set lookup)
        state.busy = True
        try:
            check(event, args)
        finally:
            state.busy = False

    def check(event, args):
        if event == "open":
            path, mode, flags = args[0], args[1], args[2]
            if mode is None:
                writes = bool(flags & _WRITE_FLAGS) if isinstance(flags, int) else False
            else:
                writes = any(c in str(mode) for c in "wax+")
            if writes and not isinstance(path, int) and not inside(path):
                refuse("open for writing outside the scratch directory", path)
            if key_list(path):
                refuse("open of the kernel's list of the user's keys", path)
        elif event in _PATH_EVENTS:
            for i, d in _PATH_EVENTS[event]:
                if i < len(args):
                    dir_fd = args[d] if d is not None and d < len(args) else None
                    if not inside(args[i], dir_fd):
                        refuse(event + " outside the scratch directory", args[i])
        elif event == "sqlite3.connect":
            database = args[0] if args else None
            try:
                database = os.fsdecode(fspath(database))
            except TypeError:
                return
            path, _, query = database.partition("?") if database.startswith("file:") else (database, "", "")
            if path.startswith("file:"):
                path = path[5:]
                if path.startswith("//"):
                    path = "/" + path[2:].partition("/")[2]
            if path in ("", ":memory:") or "mode=memory" in query or "mode=ro" in query:
                return
            if not inside(path):
                refuse("sqlite3.connect outside the scratch directory (a database is written natively)", path)
        elif event in ("os.system", "os.popen"):
            refuse(event + " (a shell)", args[0] if args else "")
        elif event in ("subprocess.Popen", "os.exec", "os.posix_spawn", "os.spawn"):
            if event == "os.spawn":
                args = args[1:]
            program = args[0] if args else None
            argv = args[1] if len(args) > 1 else None
            env = args[3] if event == "subprocess.Popen" and len(args) > 3 else (args[2] if len(args) > 2 else None)
            if program is None and isinstance(argv, (list, tuple)) and argv:
                program = argv[0]
            elif program is None and isinstance(argv, (str, bytes)):
                program = argv.split()[0] if argv.split() else argv
            try:
                name = os.path.basename(os.fsdecode(fspath(program))) if program is not None else ""
            except TypeError:
                name = ""
            if name in _SHELLS:
                refuse("running a shell (" + name + ")", argv)
            python_child(program, argv, env if isinstance(env, dict) else None)
        elif event in ("os.kill", "os.killpg"):
            if len(args) >= 1 and isinstance(args[0], int):
                check_signal(event, args[0], event == "os.killpg")
        elif event in ("fcntl.fcntl", "fcntl.ioctl"):
            if len(args) >= 3:
                check_fcntl(event, args[0], args[1], args[2])
        elif event == "socket.__new__":
            family = args[1] if len(args) > 1 else -1
            if not network and isinstance(family, int) and family not in (_AF_UNIX, _AF_NETLINK, -1):
                refuse("creating a network socket (--no-network)", family)
        elif event in ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"):
            if len(args) > 1:
                check_socket(event, args[0], args[1], event == "socket.bind")

    def guard_writer(original, position, keyword):
        def guarded(*args, **kwargs):
            target = kwargs.get(keyword, args[position] if len(args) > position else None)
            if isinstance(target, (str, bytes, os.PathLike)) and not inside(target):
                refuse("writing a file natively outside the scratch directory", target)
            return original(*args, **kwargs)
        guarded.__wrapped__ = original
        return guarded

    def patch(module):
        for cls_name, method, position, keyword in _NATIVE_WRITERS.get(module.__name__, ()):
            cls = getattr(module, cls_name, None)
            original = cls.__dict__.get(method) if isinstance(cls, type) else None
            if callable(original) and not hasattr(original, "__wrapped__"):
                setattr(cls, method, guard_writer(original, position, keyword))

    _patch_on_import(_NATIVE_WRITERS, patch)
    if hasattr(os, "open") and not hasattr(os.open, "__wrapped__"):
        original_open = os.open

        def guarded_open(path, flags, mode=0o777, *, dir_fd=None):
            # the audit event "open" does not carry dir_fd: a relative path is judged here against it
            if dir_fd is not None and flags & _WRITE_FLAGS and not inside(path, dir_fd):
                refuse("open for writing outside the scratch directory", path)
            if dir_fd is not None and key_list(path, dir_fd):
                refuse("open of the kernel's list of the user's keys", path)
            return original_open(path, flags, mode, dir_fd=dir_fd)

        guarded_open.__wrapped__ = original_open
        os.open = guarded_open
        try:
            import posix

            posix.open = guarded_open
        except ImportError:
            pass
    _guard_pidfds(check_signal, pidfd_target, refuse)
    sys.addaudithook(hook)


def _guard_pidfds(check_signal, pidfd_target, refuse):
    """``signal.pidfd_send_signal`` and ``os.pidfd_open`` raise no audit event: they are wrapped. A signal
    through a pidfd (or a /proc/PID directory descriptor) is judged as ``os.kill`` of its process; a pidfd of a
    process outside the run is not handed out."""
    original_open = getattr(os, "pidfd_open", None)
    if original_open is not None and not hasattr(original_open, "__wrapped__"):
        def pidfd_open(pid, flags=0):
            if isinstance(pid, int):
                check_signal("os.pidfd_open", pid, False)
            return original_open(pid, flags)

        pidfd_open.__wrapped__ = original_open
        os.pidfd_open = pidfd_open
        try:
            import posix

            posix.pidfd_open = pidfd_open
        except ImportError:
            pass
    original_send = getattr(signal, "pidfd_send_signal", None)
    if original_send is not None and not hasattr(original_send, "__wrapped__"):
        def pidfd_send_signal(pidfd, sig, siginfo=None, flags=0):
            pid = pidfd_target(pidfd)
            if pid is None:
                refuse("signal.pidfd_send_signal through a descriptor that names no process", pidfd)
            if pid > 0:  # -1: the process has ended (the kernel says ESRCH)
                check_signal("signal.pidfd_send_signal", pid, False)
            return original_send(pidfd, sig, siginfo, flags)

        pidfd_send_signal.__wrapped__ = original_send
        signal.pidfd_send_signal = pidfd_send_signal
        try:
            import _signal

            _signal.pidfd_send_signal = pidfd_send_signal
        except ImportError:
            pass


def _share_guard(config):
    """Hand the guard to the Python children the script starts: they find the configuration (with this
    run's first process) in the environment, and the ``sitecustomize`` on ``PYTHONPATH`` installs it."""
    shared = dict(config)
    shared["run_pid"] = os.getpid()
    os.environ[GUARD_ENV] = json.dumps(shared)
    return shared


def _become_subreaper():
    """Orphans of our descendants are reparented here (not to init), so that we can end them."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError, ImportError):
        return False


#: Set by a warm server in the child it forks for a run: the server is the subreaper above the run.
REAPED_ABOVE = False


def _end_with_descendants(reaped_above):
    """At exit, kill what the script left running. Where nothing above reaps for it, this process is also the
    child subreaper of its tree, so that the daemons it leaves (``setsid``, a double fork) are found too. A
    confined run has a reaper above it that adopts and reaps them while it runs and ends them after it
    (bubblewrap's init, the fallback's keeper), so has a warm server's child (the server), and such a run must
    not become one itself: the orphans it adopted would stay zombies as long as the script runs (it never
    waits for a process it did not start), and a candidate that forks in a loop while its parents exit would
    fill the machine's PID space in seconds."""
    if not reaped_above:
        _become_subreaper()
    import atexit

    atexit.register(_kill_descendants)


def _descendants(pid):
    out = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{parent}/task/{tid}/children") as fh:
                    kids = [int(x) for x in fh.read().split()]
            except (OSError, ValueError):
                continue
            for kid in kids:
                if kid not in out:
                    out.append(kid)
                    todo.append(kid)
    return out


def _kill_descendants(seconds=2.0):
    """SIGKILL what is left of our process tree (we are its subreaper), and reap it: again until nothing is
    left (a process forking while we kill: its children are reparented to us when it dies) — five sweeps at
    least, more while ``seconds`` last (however slow a loaded machine makes the first ones)."""
    deadline = time.monotonic() + seconds
    sweeps = 0
    while sweeps < 5 or time.monotonic() < deadline:
        sweeps += 1
        kids = _descendants(os.getpid())
        if not kids:
            return
        killed = []
        for kid in kids:
            try:
                os.kill(kid, signal.SIGKILL)
                killed.append(kid)
            except OSError:
                pass  # gone, or outside our Landlock domain (a helper started before the run confined
                # itself, e.g. the backend boot's gdb watch): it ends on its own when we are gone
        if not killed:
            return
        for kid in killed:
            try:
                os.waitpid(kid, 0)
            except OSError:
                pass


# --------------------------------------------------------------------------- pytest targets

PYTEST_NODE_ENV = "REPORTKIT_PYTEST_NODE"


class _PytestCapture:
    """pytest plugin: keeps the first failure (collection, setup, call or teardown) of the selected test."""

    def __init__(self, events):
        self.events = events
        self.failure = None

    def pytest_exception_interact(self, node, call, report):
        # called for a failed setup/call/teardown of a test and for a collection error, not for
        # skips and xfails
        if self.failure is None and report.failed and call.excinfo is not None:
            self.failure = call.excinfo
            self.events.write({"event": "pytest_failure", "test": _test_record(node, call.when)})


def _own_files(scratch):
    """A pytest plugin: pytest's own files go to the run's scratch dir. An ``addopts`` naming a --basetemp or a
    --junitxml elsewhere (a project's setting, or a hostile pull request's) would fail on the sandbox's write
    refusal before or after the test, in place of the test's own failure. Set before pytest's own plugins read
    them; a JUnit file only where one was asked for, and nothing when a plugin is disabled (``-p no:junitxml``)."""
    import pytest

    class OwnFiles:
        @pytest.hookimpl(tryfirst=True)
        def pytest_configure(self, config):
            config.option.basetemp = os.path.join(scratch, "basetemp")
            if getattr(config.option, "xmlpath", None):
                config.option.xmlpath = os.path.join(scratch, "junit.xml")

    return OwnFiles()


def _test_record(item, when):
    """What a standalone reproducer needs to know about the failing test item."""
    callspec = getattr(item, "callspec", None)
    params = {}
    for name, value in (getattr(callspec, "params", None) or {}).items():
        try:
            params[name] = repr(value)
        except BaseException:  # noqa: BLE001
            params[name] = None
    cls = getattr(item, "cls", None)
    unittest_case = False
    if cls is not None:
        import unittest

        unittest_case = issubclass(cls, unittest.TestCase)
    return {"nodeid": item.nodeid, "when": when, "function": getattr(item, "originalname", None) or item.name,
            "name": item.name, "cls": cls.__name__ if cls is not None else None, "unittest": unittest_case,
            "params": params, "fixtures": list(getattr(item, "fixturenames", []) or [])}


def _trim_runner_frames(tb, prefixes):
    """Drop the leading frames of pytest / pluggy / unittest: the test's own frames come first."""
    while tb is not None and tb.tb_next is not None:
        filename = os.path.abspath(tb.tb_frame.f_code.co_filename)
        if not any(filename.startswith(p) for p in prefixes):
            break
        tb = tb.tb_next
    return tb


def _run_pytest(script, node, args, events):
    """Run one pytest node id (``SCRIPT::NODE``) in this process; re-raise its failure as uncaught.

    The test's exception (setup, call or teardown) is raised again after pytest returns, so the
    boot records it exactly like an uncaught exception of a script. A test that passes (or is
    skipped / xfailed) returns normally; a node that pytest cannot find exits with pytest's code.
    """
    import importlib.util
    import tempfile

    import pytest  # noqa: F401 - ImportError here is reported as a missing module

    capture = _PytestCapture(events)
    sys.argv = ["pytest"]
    sys.path[0] = os.getcwd()  # like ``python -m pytest`` run from the repository root
    options = ["-p", "no:cacheprovider"]
    if importlib.util.find_spec("xdist") is not None:
        options += ["-n", "0"]  # one process: the failure must be raised here
    code = pytest.main([script + "::" + node if node else script] + options + args,
                       plugins=[capture, _own_files(tempfile.mkdtemp(prefix="reportkit-pytest-"))])
    sys.stdout.flush()
    sys.stderr.flush()
    if capture.failure is not None:
        import unittest

        import _pytest
        import pluggy

        prefixes = [os.path.dirname(os.path.abspath(m.__file__)) + os.sep for m in (_pytest, pluggy, unittest)]
        prefixes.append(os.path.abspath(pytest.__file__))
        exc, tb = capture.failure.value, capture.failure.tb
        if isinstance(exc, pytest.Collector.CollectError) and exc.__cause__ is not None:
            exc = exc.__cause__  # an import error of the test module: the error itself, not pytest's wrapper
            tb = exc.__traceback__
        raise exc.with_traceback(_trim_runner_frames(tb, prefixes))
    if int(code) != 0:
        raise SystemExit(int(code))


# --------------------------------------------------------------------------- stack sampling (hangs)

SAMPLE_ENV = "REPORTKIT_SAMPLE_STACKS"


def _arm_stack_sampler():
    """Sample the main thread's innermost frame for reportkit's hang watch, if asked (``SAMPLE_ENV``).

    A raw ``_thread`` (not in ``threading.enumerate()``, not counted by ``active_count()``, never
    joined) wakes every INTERVAL seconds and appends one line to PATH:
    ``SECONDS\tCALL\tFILE\tLINE\tFUNCTION\tSTILL\tCPU\tKIDS\tFRESH\tMAINCPU`` (``SECONDS\t-`` when
    the main thread has no frame). CALL numbers the main thread's frame objects (a wait that returned
    and was entered again is a new call); STILL is 1 when every thread's innermost frame is the same
    frame object on the same line as at the previous sample (and no thread came or went); CPU is the
    process's CPU time (all threads); KIDS the number of live child processes (-1: unknown; counted
    only when STILL); FRESH is 1 when the main thread's innermost frame is none of the last few
    distinct ones it was in (a new call); MAINCPU the main thread's own CPU time (-1: unknown).
    It reads the frames under the GIL (faulthandler's watchdog dumps without it, which crashes
    multi-threaded programs when done often). Bad values are ignored: the run is then not sampled and
    a hang costs the timeout, as without sampling.
    """
    value = os.environ.pop(SAMPLE_ENV, None)
    if not value:
        return
    interval, _, path = value.partition(",")
    try:
        seconds = float(interval)
        if not path or seconds <= 0:
            return
        samples = open(path, "w", encoding="utf-8")
        native = threading.get_native_id() if hasattr(threading, "get_native_id") else None  # we are the main thread
        _thread.start_new_thread(_sample_main_thread, (samples, seconds, threading.main_thread().ident, native))
    except (ValueError, OSError, RuntimeError):
        return


def _child_processes():
    """Live child processes of this process (Linux ``/proc``), -1 when that cannot be read."""
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return -1
    count = 0
    for tid in tasks:
        try:
            with open("/proc/self/task/" + tid + "/children") as fh:
                count += len(fh.read().split())
        except OSError:
            if os.path.isdir("/proc/self/task/" + tid):
                return -1  # the task is there but its children cannot be read: unknown
    return count


def _thread_cpu(native, ticks):
    """CPU seconds of one thread of this process (Linux ``/proc``), -1 when unknown."""
    if native is None or not ticks:
        return -1.0
    try:
        with open("/proc/self/task/" + str(native) + "/stat") as fh:
            fields = fh.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    except (OSError, ValueError, IndexError):
        return -1.0


def _sample_main_thread(samples, interval, main_id, native=None):
    start = time.monotonic()
    me = _thread.get_ident()
    try:
        ticks = os.sysconf("SC_CLK_TCK")
    except (ValueError, OSError, AttributeError):
        ticks = 0
    recent = []  # the main thread's last distinct innermost frames (held: a new call is a new object)
    # the innermost frame of every thread at the last sample, held until the next one: a new call is a
    # new object, so a wait that returned and was entered again between two samples is seen as a change
    last = {}
    lines = {}
    calls = 0
    try:
        while True:
            time.sleep(interval)
            frames = sys._current_frames()
            frames.pop(me, None)
            now = time.monotonic() - start
            cpu = time.process_time()
            still = frames.keys() == last.keys() and all(
                last[ident] is frame and lines[ident] == frame.f_lineno for ident, frame in frames.items())
            frame = frames.get(main_id)
            if frame is None:
                line = f"{now:.4f}\t-\n"
            else:
                if frame is not last.get(main_id):
                    calls += 1
                fresh = not any(f is frame for f in recent)
                if fresh:
                    recent = [frame] + recent[:3]
                code = frame.f_code
                kids = _child_processes() if still else -1
                line = (f"{now:.4f}\t{calls}\t{code.co_filename}\t{frame.f_lineno or 0}\t{code.co_name}\t"
                        f"{int(still)}\t{cpu:.4f}\t{kids}\t{int(fresh)}\t{_thread_cpu(native, ticks):.2f}\n")
            last, lines = frames, {ident: f.f_lineno for ident, f in frames.items()}
            frame = frames = None
            samples.write(line)
            samples.flush()
    except BaseException:  # noqa: BLE001 - never disturb the script: stop sampling
        return


# (module, class, methods) whose calls from the script's own code are recorded as ``waker`` events
_WAKERS = (
    ("threading", "Event", ("set",)),
    ("threading", "Condition", ("notify", "notify_all")),
    ("queue", "Queue", ("put", "put_nowait", "task_done")),
    ("multiprocessing.synchronize", "Event", ("set",)),
    ("multiprocessing.synchronize", "Condition", ("notify", "notify_all")),
    ("multiprocessing.queues", "Queue", ("put", "put_nowait")),
    ("multiprocessing.queues", "JoinableQueue", ("put", "task_done")),
    ("asyncio.locks", "Event", ("set",)),
    ("asyncio.locks", "Condition", ("notify", "notify_all")),
    ("asyncio.queues", "Queue", ("put", "put_nowait", "task_done")),
    ("concurrent.futures._base", "Future", ("set_result",)),
    # what starts the thread or process that is to call them
    ("threading", "Thread", ("start",)),
    ("multiprocessing.process", "BaseProcess", ("start",)),
)
# ... and the main thread's waits (a ``wait`` event each): the last one before a hang is what it hangs in
_WAITS = (
    ("threading", "Event", ("wait",)),
    ("threading", "Condition", ("wait", "wait_for")),
    ("threading", "Thread", ("join",)),
    ("queue", "Queue", ("get", "join")),
    ("multiprocessing.synchronize", "Event", ("wait",)),
    ("multiprocessing.synchronize", "Condition", ("wait", "wait_for")),
    ("multiprocessing.queues", "Queue", ("get",)),
    ("multiprocessing.queues", "JoinableQueue", ("join",)),
    ("multiprocessing.process", "BaseProcess", ("join",)),
    ("asyncio.locks", "Event", ("wait",)),
    ("asyncio.locks", "Condition", ("wait",)),
    ("asyncio.queues", "Queue", ("get", "join")),
    ("concurrent.futures._base", "Future", ("result",)),
)


def _library_dirs():
    import sysconfig

    dirs = set()
    paths = sysconfig.get_paths()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        path = paths.get(key)
        if path:
            dirs.add(os.path.realpath(path) + os.sep)
    for path in sys.path:
        if path.endswith(("site-packages", "dist-packages")):
            dirs.add(os.path.realpath(path) + os.sep)
    return tuple(dirs)


def _watch_wakers(events):
    """Record the script's own waking calls, thread starts and main-thread waits (module docstring)."""
    library = _library_dirs()
    seen = set()
    user_files = {}

    def from_user(filename):
        known = user_files.get(filename)
        if known is None:
            known = not (filename.startswith("<") or _is_boot(filename)
                         or os.path.realpath(filename).startswith(library))
            user_files[filename] = known
        return known

    def caller_is_user():
        try:
            return from_user(sys._getframe(2).f_code.co_filename)
        except ValueError:
            return False

    def target_code(runner):
        """The code a thread or process about to start runs: its target's, or its class's own ``run``."""
        target = getattr(runner, "_target", None)
        if target is None:
            run = getattr(type(runner), "run", None)
            target = run if getattr(run, "__module__", None) not in ("threading", "multiprocessing.process") else None
        return getattr(getattr(target, "__func__", target), "__code__", None)

    def running_in():
        """The function the current thread was started to run, "" in the main thread."""
        current = threading.current_thread()
        if current is threading.main_thread():
            return ""
        code = target_code(current)
        return code.co_name if code is not None else "?"

    def wrap_waker(name, original):
        starts = name.endswith(".start")

        def waker(*args, **kwargs):
            if args and caller_is_user():
                code = target_code(args[0]) if starts else None
                if starts and (code is None or not from_user(code.co_filename)):
                    pass  # a thread that runs nothing of the script's (``Thread().start()``, a pool's)
                else:
                    record = (os.getpid(), name, id(args[0]), code.co_name if starts else running_in())
                    if record not in seen:
                        seen.add(record)
                        events.write({"event": "waker", "name": name, "obj": id(args[0]), "pid": record[0],
                                      ("target" if starts else "thread"): record[3]})
            return original(*args, **kwargs)
        waker.__wrapped__ = original
        return waker

    last_wait = {}  # pid -> the (method, receiver) of its main thread's last wait written

    def wrap_wait(name, original):
        def wait(*args, **kwargs):
            if args and threading.current_thread() is threading.main_thread() and caller_is_user():
                pid, record = os.getpid(), (name, id(args[0]))
                if last_wait.get(pid) != record:  # a wait repeated in a loop: once
                    last_wait[pid] = record
                    events.write({"event": "wait", "name": name, "obj": record[1], "pid": pid})
            return original(*args, **kwargs)
        wait.__wrapped__ = original
        return wait

    def patch(module):
        for table, wrap in ((_WAKERS, wrap_waker), (_WAITS, wrap_wait)):
            for mod_name, cls_name, methods in table:
                if mod_name != module.__name__:
                    continue
                cls = getattr(module, cls_name, None)
                for method in methods:
                    original = cls.__dict__.get(method) if isinstance(cls, type) else None
                    if callable(original) and not hasattr(original, "__wrapped__"):
                        setattr(cls, method, wrap(f"{mod_name.split('.')[0]}.{cls_name}.{method}", original))

    wanted = {mod_name for mod_name, _cls, _methods in _WAKERS + _WAITS}
    _patch_on_import(wanted, patch)


def _load_confine():
    """``_confine.py`` (loaded once per process: the warm server loads it before it forks)."""
    module = sys.modules.get("_reportkit_confine")
    if module is not None:
        return module
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("_reportkit_confine", os.path.join(here, "_confine.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["_reportkit_confine"] = module
    return module


def _keep(parent):
    """Cold runs without bubblewrap: this process becomes the run's *keeper* and forks the run's first
    process, which returns from here and runs the script.

    The keeper is a child subreaper that only waits: when the run ends it kills what is left of its tree
    and exits with the run's status (a death by signal N as a death by signal N). It dies with reportkit
    (``PR_SET_PDEATHSIG``, caught: it kills the whole tree first, the run's adopted daemons included) and
    the run dies with it (``PR_SET_PDEATHSIG(SIGKILL)``), so no run outlives reportkit, whatever ended it.
    SIGUSR1 (reportkit's request for a stack dump) is passed on to the run.
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    _become_subreaper()
    ending = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    saved = {sig: signal.getsignal(sig) for sig in ending + (signal.SIGUSR1,)}

    def end(signum=signal.SIGKILL, frame=None):
        for sig in ending:  # (the parent-death signal comes again on each reparenting in a dying reportkit)
            signal.signal(sig, signal.SIG_IGN)
        _kill_descendants()
        os._exit(128 + signum)

    for sig in ending:
        signal.signal(sig, end)
    libc.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        end()  # reportkit ended before we could ask
    keeper = os.getpid()
    pid = os.fork()
    if pid == 0:
        for sig, handler in saved.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)
        if os.getppid() != keeper:
            os._exit(70)
        try:
            os.setpgid(0, 0)  # a kill(0) of the run's own group does not reach the keeper
        except OSError:
            pass
        return
    signal.signal(signal.SIGUSR1, lambda signum, frame: os.kill(pid, signal.SIGUSR1))
    status = _reap_until(pid)
    _kill_descendants()
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # the run dumped its core, if any; not us
            signal.signal(sig, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
            os.kill(os.getpid(), sig)
        except (OSError, ValueError):
            pass
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _reap_until(pid):
    """Wait for ``pid`` (the keeper's one child, the run), reaping every other child on the way: the orphans the
    run's tree hands to us, its subreaper. Unreaped, each is a zombie holding a PID until the run ends, and a
    candidate that forks in a loop while its parents exit fills the machine's PID space in seconds. The run's
    wait status (0 if it is gone already)."""
    while True:
        try:
            done, status = os.waitpid(-1, 0)
        except InterruptedError:
            continue
        except ChildProcessError:
            return 0
        if done == pid:
            return status


def _confine_self(events):
    """Apply what ``REPORTKIT_CONFINE`` asks for (``_confine.py``), before anything of the script runs and
    before any thread is started (Landlock restricts the calling thread and what it starts). Returns what
    is in force; None when nothing was asked. A step that cannot be applied ends the run (exit 71): it
    never runs less confined than reportkit reports."""
    value = os.environ.pop(CONFINE_ENV, None)
    if not value:
        return None
    config = json.loads(value)
    if config.get("parent"):
        _keep(int(config["parent"]))
    try:
        return _load_confine().apply(config)
    except Exception as exc:  # noqa: BLE001 - reported to reportkit, which stops with a clear message
        events.write({"event": "sandbox_error", "error": str(exc)})
        sys.stderr.write("reportkit: the sandbox could not be applied: " + str(exc) + "\n")
        sys.stderr.flush()
        os._exit(71)


def confine_and_exec(events_path):
    """The first stage of a run whose environment has start-up code (``LD_PRELOAD``, a ``PYTHONPATH`` with a
    ``sitecustomize`` or a module the interpreter imports at start): reportkit starts the interpreter isolated
    (``-I -S``: no ``PYTHON*`` variable, no ``site``) with the loader's variables set aside in ``START_ENV``. This
    stage confines the process (``REPORTKIT_CONFINE``; the keeper too), then executes the same command again with
    them set: the loader, ``site`` and the user's path act in a confined process (Landlock, seccomp, the mount
    namespace and the dropped capabilities hold across ``execve``). Returns when there is no first stage."""
    deferred = os.environ.pop(START_ENV, None)
    if deferred is None:
        return
    confined = _confine_self(_Events(events_path))
    env = dict(os.environ)
    env.update(json.loads(deferred))
    env[CONFINED_ENV] = json.dumps(confined)
    try:
        os.execve(sys.executable, [sys.executable, os.path.abspath(sys.argv[0])] + sys.argv[1:], env)
    except OSError as exc:
        sys.stderr.write("reportkit: cannot start the run's interpreter again: " + str(exc) + "\n")
        os._exit(71)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write("usage: _boot.py EVENTS_FILE DUMP_FILE SCRIPT [ARGS...]\n")
        return 2
    events_path, dump_path, script = argv[0], argv[1], argv[2]
    events = _Events(events_path)
    confined = _confine_self(events)
    if confined is None and CONFINED_ENV in os.environ:  # (confined by the first stage)
        confined = json.loads(os.environ.pop(CONFINED_ENV))
    guard = _guard_config()
    _end_with_descendants(reaped_above=REAPED_ABOVE or confined is not None)
    dump = open(dump_path, "w", encoding="utf-8")
    faulthandler.enable(file=dump, all_threads=True)
    if hasattr(faulthandler, "register") and hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, file=dump, all_threads=True)
    _arm_stack_sampler()

    events.write({"event": "start", "pid": os.getpid(), "main_thread": threading.main_thread().ident,
                  "python": sys.version.split()[0], "executable": sys.executable, "confined": confined})

    previous_hook = threading.excepthook

    def thread_hook(hook_args):
        if hook_args.exc_value is not None and not isinstance(hook_args.exc_value, SystemExit):
            record = _exception_record(hook_args.exc_value)
            record["thread"] = getattr(hook_args.thread, "name", None)
            events.write({"event": "thread_exception", "exception": record})
            _strip_boot_frames(hook_args.exc_traceback)  # the printed traceback: no waker/wait wrapper
        previous_hook(hook_args)

    threading.excepthook = thread_hook
    _watch_wakers(events)

    script_path = os.path.abspath(script)
    node = os.environ.pop(PYTEST_NODE_ENV, None)
    if guard:
        _install_guard(_share_guard(guard))
    try:
        if node is not None:
            _run_pytest(script, node, list(argv[3:]), events)
        else:
            sys.argv = [script] + list(argv[3:])
            sys.path[0] = os.path.dirname(script_path)
            runpy.run_path(script_path, run_name="__main__")
    except SystemExit as exc:
        events.write({"event": "exit", "code": exc.code if isinstance(exc.code, (int, type(None))) else str(exc.code)})
        raise
    except BaseException as exc:  # noqa: BLE001 - recorded, then reported exactly like Python does
        events.write({"event": "exception", "exception": _exception_record(exc)})
        traceback.print_exception(type(exc), exc, _strip_boot_frames(exc.__traceback__))
        sys.stderr.flush()
        code = 130 if isinstance(exc, KeyboardInterrupt) else 1
        events.write({"event": "end", "code": code})
        return code
    events.write({"event": "end", "code": 0})
    return 0


if __name__ == "__main__":
    if "REPORTKIT_GATE_FD" in os.environ:
        _load_confine().pass_gate()
    if len(sys.argv) > 1:
        confine_and_exec(sys.argv[1])
    sys.exit(main(sys.argv[1:]))
