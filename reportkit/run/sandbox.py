"""The sandbox every run of a target (the original or a candidate) goes through.

Two protections, chosen once per process (:func:`protection`):

``bubblewrap``  the reference: the run (cold: the interpreter; warm: the whole fork server with every
                child it forks) is started under ``bwrap`` (Debian/Ubuntu package ``bubblewrap``):
                the whole file system is mounted read-only except the run's scratch directories,
                ``$TMPDIR`` a private scratch directory, ``$HOME`` a scratch home, the process tree
                lives in its own PID namespace (when its first process ends, the kernel kills every
                process left in it, ``setsid`` or double fork or not), and with ``--no-network`` it
                gets its own, empty network namespace.
``fallback``    where no namespace sandbox can be had (no ``bwrap``, user namespaces disabled): the
                bootstrap (:mod:`reportkit.run._boot`) installs a ``sys.addaudithook`` guard that refuses
                writes, deletes, renames, permission changes and shell calls (``os.system``,
                ``os.popen``, ``shell=True``) outside the scratch directories, and network connections
                with ``--no-network``; the bootstrap is a child subreaper and kills what its
                descendants leave behind; ``$HOME`` and the temp dir are scratch directories as well.
                Its limits: native code (C extensions, ``ctypes``) and programs the script starts
                (other than shells) are not guarded; a process that ends with ``os._exit`` leaves
                its adopted orphans to the caller's process-tree kill.

``REPORTKIT_SANDBOX=bwrap|fallback`` forces one (``auto``, the default, takes bubblewrap when it works);
``REPORTKIT_SANDBOX=none`` runs without either, for measuring the sandbox's cost only
(``benchmarks/minimize_bench.py --sandbox both``): never on code you do not trust;
``REPORTKIT_NO_NETWORK=1`` (or ``reportkit --no-network``) cuts the network.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from reportkit.errors import UserError

FORCE_ENV = "REPORTKIT_SANDBOX"  # auto (default) | bwrap | fallback
NO_NETWORK_ENV = "REPORTKIT_NO_NETWORK"  # 1: runs get no network
GUARD_ENV = "REPORTKIT_GUARD"  # read (and removed) by _boot.py: the fallback guard's configuration
# variables that point into the real home: unset, so that they default under the scratch home
HOME_VARS = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"

_settings = {"network": os.environ.get(NO_NETWORK_ENV, "") in ("", "0")}


def set_network(enabled: bool) -> None:
    """Default for runs that do not say (``reportkit --no-network`` sets it off)."""
    _settings["network"] = enabled


def network_default() -> bool:
    return _settings["network"]


@dataclass(frozen=True)
class Protection:
    mode: str  # "bubblewrap", "fallback", or "none" (measurements only)
    bwrap: str | None = None  # path of the bwrap binary (bubblewrap mode)
    reason: str = ""  # why the fallback (empty when forced or with bubblewrap)

    def describe(self, network: bool | None = None) -> str:
        """One line for check/minimize output: what protects the user's files and processes."""
        network = network_default() if network is None else network
        net = "network on" if network else "no network"
        if self.mode == "none":
            return f"NONE ({FORCE_ENV}=none): runs are not sandboxed"
        if self.mode == "bubblewrap":
            return (f"bubblewrap: read-only file system outside the scratch dir, private $TMPDIR and $HOME, "
                    f"own PID namespace, {net}")
        why = f" ({self.reason})" if self.reason else ""
        return (f"fallback{why}: audit-hook guard on Python-level writes/deletes/shell calls outside the scratch "
                f"dir, subreaper + process-tree kill, {net}; not native code or child programs — {INSTALL_HINT}")


def _bwrap_base(bwrap: str) -> list[str]:
    # the real /dev (accelerators: /dev/vfio for Spyre, /dev/nvidia*), a private /dev/shm, a new /proc
    return [bwrap, "--die-with-parent", "--unshare-pid", "--ro-bind", "/", "/", "--dev-bind", "/dev", "/dev",
            "--tmpfs", "/dev/shm", "--proc", "/proc"]


_SPAWNER: list = []
_SPAWNER_LOCK = threading.Lock()


def spawn_long_lived(cmd: Sequence[str], **kwargs) -> subprocess.Popen:
    """``subprocess.Popen`` from a thread that lives as long as this process.

    bwrap's ``--die-with-parent`` is ``PR_SET_PDEATHSIG``: it fires when the *thread* that started
    bwrap ends. A process that outlives the call that started it (the warm server, started by
    whichever worker thread ran first) is therefore started from this thread.
    """
    from concurrent.futures import ThreadPoolExecutor

    with _SPAWNER_LOCK:
        if not _SPAWNER:
            _SPAWNER.append(ThreadPoolExecutor(max_workers=1, thread_name_prefix="reportkit-spawner"))
        pool = _SPAWNER[0]
    return pool.submit(subprocess.Popen, list(cmd), **kwargs).result()


@functools.cache
def _probe(bwrap: str) -> str:
    """Empty if ``bwrap`` can build our sandbox here, else why not."""
    try:
        proc = subprocess.run(_bwrap_base(bwrap) + ["--unshare-net", "--tmpfs", "/tmp", "true"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap does not run: {exc}"
    if proc.returncode != 0:
        return "bwrap cannot create namespaces here: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    return ""


def protection() -> Protection:
    """The protection runs get on this machine (see the module doc)."""
    force = os.environ.get(FORCE_ENV, "auto").strip().lower() or "auto"
    if force not in ("auto", "bwrap", "bubblewrap", "fallback", "none"):
        raise UserError(f"{FORCE_ENV}={force!r}: expected auto, bwrap or fallback")
    if force == "none":
        return Protection("none")
    if force == "fallback":
        return Protection("fallback")
    bwrap = shutil.which("bwrap")
    why = "bwrap not found" if bwrap is None else _probe(bwrap)
    if why:
        if force != "auto":
            raise UserError(f"{FORCE_ENV}={force} but {why}; {INSTALL_HINT}")
        return Protection("fallback", reason=why)
    return Protection("bubblewrap", bwrap=bwrap)


def _temp_roots() -> list[str]:
    roots = ["/tmp"]
    tmp = os.path.realpath(tempfile.gettempdir())
    if tmp not in roots and tmp != "/":
        roots.append(tmp)
    return roots


def env_writable(env: dict[str, str]) -> list[Path]:
    """Directories reportkit made for a run and hands it through the environment (private compile
    caches, debug dirs): ``$TMP/reportkit-*`` directories an environment value points into."""
    found: list[Path] = []
    for root in _temp_roots():
        prefix = root.rstrip("/") + "/reportkit-"
        for value in env.values():
            for part in value.split(os.pathsep):
                if part.startswith(prefix):
                    top = Path(root) / part[len(root.rstrip("/")) + 1:].split("/", 1)[0]
                    if top.is_dir() and top not in found:
                        found.append(top)
    return found


def wrap(cmd: Sequence[str], env: dict[str, str], *, writable: Iterable[Path], scratch: Path,
         network: bool | None = None, prot: Protection | None = None) -> tuple[list[str], dict[str, str]]:
    """The command and environment that run ``cmd`` sandboxed.

    ``writable``: directories the run may write (its scratch tree); ``scratch``: a directory of the
    run's own for the private home (``scratch/home``) and temp dir (``scratch/tmp``), created here.
    """
    prot = prot or protection()
    if prot.mode == "none":
        return list(cmd), dict(env)
    network = network_default() if network is None else network
    home, tmp = scratch / "home", scratch / "tmp"
    home.mkdir(parents=True, exist_ok=True)
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(env)
    for var in HOME_VARS:
        env.pop(var, None)
    env["HOME"] = str(home)
    dirs: list[str] = []
    for path in [*writable, *env_writable(env), scratch]:
        text = os.path.abspath(path)
        if text not in dirs:
            dirs.append(text)
    if prot.mode == "bubblewrap":
        assert prot.bwrap is not None
        args = _bwrap_base(prot.bwrap)
        if not network:
            args.append("--unshare-net")
        for directory in dirs:
            args += ["--bind", directory, directory]
        env["TMPDIR"] = str(tmp)  # the private temp dir (the real /tmp stays readable, read-only)
        return [*args, "--", *cmd], env
    env["TMPDIR"] = str(tmp)
    env[GUARD_ENV] = json.dumps({"writable": [os.path.realpath(d) for d in dirs], "network": network})
    return list(cmd), env


def _children(pid: int) -> list[int]:
    """Direct children of ``pid`` (Linux ``/proc/PID/task/TID/children``), cheap: no full process scan."""
    out: list[int] = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as fh:
                out += [int(x) for x in fh.read().split()]
        except (OSError, ValueError):
            continue
    return out


def _ns_pid_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("NSpid:"):
                    ids = line.split()[1:]
                    return int(ids[-1]) if len(ids) > 1 else None
    except (OSError, ValueError):
        pass
    return None


def namespace_pid(host_root: int, ns_pid: int, parent_hint: int | None = None) -> int | None:
    """The host pid of the process that is ``ns_pid`` in the PID namespace under ``host_root`` (a bwrap
    process), searched among the children of ``parent_hint`` (a host pid) first, then the whole tree
    under ``host_root``. None when it is gone."""
    if parent_hint is not None:
        for child in _children(parent_hint):
            if _ns_pid_of(child) == ns_pid:
                return child
    todo, seen = [host_root], set()
    while todo:
        pid = todo.pop(0)
        for child in _children(pid):
            if child in seen:
                continue
            seen.add(child)
            if _ns_pid_of(child) == ns_pid:
                return child
            todo.append(child)
    return None


def target_pid(host_root: int) -> int | None:
    """The first process under a bwrap process that is not bwrap itself: the sandboxed command."""
    import psutil

    try:
        procs = psutil.Process(host_root).children(recursive=True)
    except psutil.Error:
        return None
    for proc in sorted(procs, key=lambda p: p.pid):
        try:
            if os.path.basename(proc.exe()) != "bwrap" and proc.name() != "bwrap":
                return proc.pid
        except psutil.Error:
            continue
    return None
