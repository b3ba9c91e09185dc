"""How many processes a run may have at once (a fork bomb stops there, the machine does not).

Two mechanisms, by who reportkit runs as:

- **root**: a ``pids`` cgroup of the run's own (cgroup v2 with the ``pids`` controller delegated to the
  cgroup reportkit is in, else the v1 ``pids`` hierarchy), made before the run starts and removed after it:
  ``pids.max`` holds for every task of the run (threads too), whatever it does (``setsid``, a double fork,
  native code), and what is left in the group when the run ends is killed with it. The run joins the group
  before its first instruction (a ``sh`` in front of the command writes its own pid, then ``exec``\\ s it).
  ``RLIMIT_NPROC`` would not do: the kernel does not apply it to uid 0.
  Where no such cgroup can be made (a container whose ``/sys/fs/cgroup`` is read-only) there is no limit,
  and the sandbox line says so.
- **any other user**: ``RLIMIT_NPROC`` (soft = hard), set by the run on itself
  (:mod:`reportkit.run._confine`): the limit above the tasks the kernel already counts for it — in the run's
  own user namespace (bubblewrap's, the fallback's mount step's) the run's own, else every task of the user,
  so that the user's other processes never make a run fail nor give it more room; the run cannot raise it
  again (no capabilities).

``REPORTKIT_MAX_PROCESSES`` sets the limit (tasks: processes and their threads; default
:data:`DEFAULT`), ``0`` turns it off.
"""

from __future__ import annotations

import functools
import os
import signal
import threading
import time
from typing import Optional, Sequence

from reportkit.errors import UserError

MAX_ENV = "REPORTKIT_MAX_PROCESSES"
# tasks (threads count) a run may have at once: torch starts a thread per core in each process, Inductor a
# pool of compile workers; a fork bomb needs far more than this to hurt a machine, a real run far less
DEFAULT = 4096
PREFIX = "reportkit-"
PID_MAX_LIMIT = 4194304  # the kernel's ceiling of pids.max (and of pid_max) on 64-bit
_JOIN = 'echo $$ > "$0/cgroup.procs" || exit 125; exec "$@"'  # (125: the run could not join its group)


def limit() -> int:
    """The limit runs get: ``REPORTKIT_MAX_PROCESSES`` or :data:`DEFAULT`; 0 means none."""
    text = os.environ.get(MAX_ENV, "").strip()
    if not text:
        return DEFAULT
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0 or 0 < value < 16 or value > PID_MAX_LIMIT:
        raise UserError(f"{MAX_ENV}={text!r}: expected 0 (no limit) or a number of tasks from 16 to {PID_MAX_LIMIT}")
    return value


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup paths: ``""`` for the v2 one, the controller list (``pids``, ...) for v1's."""
    out: dict[str, str] = {}
    try:
        with open("/proc/self/cgroup", encoding="utf-8") as fh:
            for line in fh:
                parts = line.rstrip("\n").split(":", 2)
                if len(parts) == 3:
                    for name in parts[1].split(",") if parts[1] else [""]:
                        out[name] = parts[2]
    except OSError:
        pass
    return out


def _mounts() -> list[tuple[str, str, str]]:
    """(mount point, fs type, super options) of the cgroup file systems (``/proc/self/mountinfo``)."""
    out = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as fh:
            for line in fh:
                head, _, tail = line.partition(" - ")
                fields, rest = head.split(), tail.split()
                if len(fields) >= 5 and len(rest) >= 3 and rest[0] in ("cgroup", "cgroup2"):
                    out.append((fields[4].replace("\\040", " "), rest[0], rest[2]))
    except OSError:
        pass
    return out


def _v2_parent(mount: str, path: str) -> Optional[str]:
    """The v2 cgroup reportkit is in, when its children have the ``pids`` controller (delegated to it: never
    turned on here, which would change the accounting of every sibling group)."""
    parent = os.path.join(mount, path.lstrip("/"))
    try:
        with open(os.path.join(parent, "cgroup.subtree_control"), encoding="utf-8") as fh:
            return parent if "pids" in fh.read().split() else None
    except OSError:
        return None


@functools.cache
def parent_dir() -> Optional[str]:
    """The directory reportkit makes its runs' ``pids`` cgroups in, where it may (None: nowhere). Probed once:
    a group made and removed."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    own = _own_cgroups()
    candidates = []
    for mount, kind, options in _mounts():
        if kind == "cgroup2" and "" in own:
            candidates.append(lambda m=mount: _v2_parent(m, own[""]))
        elif kind == "cgroup" and "pids" in options.split(",") and "pids" in own:
            candidates.append(lambda m=mount: os.path.join(m, own["pids"].lstrip("/")))
    for find in candidates:
        parent = find()
        if parent is None:
            continue
        _sweep(parent)
        probe = os.path.join(parent, f"{PREFIX}{os.getpid()}-probe")
        try:
            os.mkdir(probe)
            _set(os.path.join(probe, "pids.max"), "64")
        except OSError:
            _remove(probe)
            continue
        _remove(probe)
        return parent
    return None


def _set(control: str, value: str) -> None:
    """Write a cgroup control file (a number or a keyword, never output)."""
    with open(control, "w", encoding="ascii") as fh:
        fh.write(value)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _sweep(parent: str) -> None:
    """Remove the empty groups of reportkit processes that are gone (killed before they could remove them; their
    runs died with them). A group with tasks in it is left: its maker may be alive in another PID namespace."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        pid = name[len(PREFIX):].split("-", 1)[0] if name.startswith(PREFIX) else ""
        if pid.isdigit() and not _alive(int(pid)):
            try:
                os.rmdir(os.path.join(parent, name))
            except OSError:
                pass


def _tasks(group: str) -> list[int]:
    try:
        with open(os.path.join(group, "cgroup.procs"), encoding="ascii") as fh:
            return [int(x) for x in fh.read().split()]
    except (OSError, ValueError):
        return []


def _kill_all(group: str) -> None:
    """SIGKILL every process in ``group`` until none is left (a fork in between is caught by the next look)."""
    try:
        _set(os.path.join(group, "cgroup.kill"), "1")  # (cgroup v2, Linux 5.14+: the kernel does the loop)
    except OSError:
        pass
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        pids = _tasks(group)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.01)


def _remove(group: str) -> None:
    for _ in range(50):  # (EBUSY while the killed tasks are still being torn down)
        try:
            os.rmdir(group)
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)


_COUNTER = iter(range(1, 1 << 62))
_COUNTER_LOCK = threading.Lock()


class Group:
    """A run's ``pids`` cgroup (root, where one can be made), or nothing: :meth:`wrap` then leaves the command
    as it is. Use as a context manager around the run: on exit every task still in the group is killed and the
    group removed."""

    def __init__(self, tasks: Optional[int] = None) -> None:
        tasks = limit() if tasks is None else tasks
        self.path: Optional[str] = None
        self.gap = ""  # what was promised and could not be made (the caller notes it: sandbox.note_gaps)
        parent = parent_dir() if tasks else None
        if parent is None:
            return
        with _COUNTER_LOCK:
            n = next(_COUNTER)
        path = os.path.join(parent, f"{PREFIX}{os.getpid()}-{n}")
        try:
            os.mkdir(path)
            _set(os.path.join(path, "pids.max"), str(tasks))
        except OSError as exc:
            _remove(path)
            self.gap = f"the process limit (the run's pids cgroup could not be made: {exc.strerror or exc})"
            return
        self.path = path

    def wrap(self, cmd: Sequence[str]) -> list[str]:
        """``cmd``, started in the group (unchanged without one)."""
        if self.path is None:
            return list(cmd)
        return ["/bin/sh", "-c", _JOIN, self.path, *cmd]

    def close(self) -> None:
        if self.path is not None:
            _kill_all(self.path)
            _remove(self.path)
            self.path = None

    def __enter__(self) -> Group:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def nproc_for_run() -> Optional[int]:
    """The tasks a run that is not root may have beyond those ``RLIMIT_NPROC`` already counts for it (it sets
    the limit on itself: :func:`reportkit.run._confine.limit_tasks`); None when there is no limit (root: the
    kernel ignores ``RLIMIT_NPROC``, the run's pids cgroup holds it; ``REPORTKIT_MAX_PROCESSES=0``)."""
    tasks = limit()
    if not tasks or not hasattr(os, "getuid") or os.getuid() == 0:
        return None
    return tasks


def describe(tasks: Optional[int] = None, own_user_ns: bool = True) -> str:
    """What limits a run's processes here, for the sandbox line (``own_user_ns``: a run that is not root is in a
    user namespace of its own, where ``RLIMIT_NPROC`` counts its own tasks only)."""
    tasks = limit() if tasks is None else tasks
    if not tasks:
        return f"processes not limited ({MAX_ENV}=0)"
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        if parent_dir() is None:
            return "processes not limited (root, no writable pids cgroup here)"
        return f"at most {tasks} tasks (a pids cgroup per run)"
    if own_user_ns:
        return f"at most {tasks} tasks (RLIMIT_NPROC)"
    return f"at most {tasks} tasks more than the user has (RLIMIT_NPROC)"
