"""The sandbox every run of a target (the original or a candidate) goes through.

Two protections, chosen once per process (:func:`protection`), and a layer under both:

``bubblewrap``  the reference: the run (cold: the interpreter; warm: the whole fork server with every
                child it forks) is started under ``bwrap`` (Debian/Ubuntu package ``bubblewrap``) with
                no capability at all (``--cap-drop ALL``, and a user namespace of its own with further
                ones disabled where the kernel allows: as root too), a new session, the whole file system
                mounted read-only except the run's scratch directories, a minimal ``/dev`` (null, zero,
                random, urandom, tty, pts, a private shm, plus the accelerator nodes that exist:
                :data:`ACCELERATORS`), the host's pathname unix sockets masked (``/dev/null`` over each
                one bound when the sandbox starts), ``/proc/keys`` and ``/proc/key-users`` masked, ``$TMPDIR`` a private scratch directory, ``$HOME`` a
                scratch home, its own PID namespace (when its first process ends, the kernel kills every
                process left in it), and with ``--no-network`` its own, empty network namespace. A warm
                server's children each make their own mount namespace in it (a fresh ``/dev/shm``, read-only
                but their own scratch dir: :attr:`Protection.warm_mounts`).
``fallback``    where no namespace sandbox can be had (no ``bwrap``, user namespaces disabled): the run
                confines itself before the script starts (:mod:`reportkit.run._confine`: where a mount
                namespace can be made, a fresh ``/dev/shm``, every mount read-only but its writable dirs and
                host unix sockets masked; every capability dropped, without network no socket but
                unix/netlink), and the bootstrap (:mod:`reportkit.run._boot`) installs a
                ``sys.addaudithook`` guard (refuses Python-level writes, deletes, renames, links, mode
                changes, shell calls, signals to processes outside the run, unix sockets outside the scratch
                dirs, and without network any internet socket) in the run and in every Python it starts
                (a ``sitecustomize`` on ``PYTHONPATH``: :data:`GUARD_SITE`). A keeper process kills the
                run's whole tree when reportkit dies, whatever killed it.
``landlock``    under both, where the kernel has it (:mod:`reportkit.run.landlock`; ``REPORTKIT_LANDLOCK=0``
                turns it off): applied by each run to itself (cold: the boot; warm: the forked child, per
                candidate), for it and every descendant, native code included: writes only beneath the
                run's own scratch dir and the device nodes it needs, without network no TCP, signals and
                abstract unix sockets scoped to the run. Without it the fallback is the audit hook alone:
                best effort, and the report says so.

``REPORTKIT_SANDBOX=bwrap|fallback`` forces one (``auto``, the default, takes bubblewrap when it works);
``REPORTKIT_SANDBOX=none`` runs without either, for measuring the sandbox's cost only
(``benchmarks/minimize_bench.py --sandbox both``): never on code you do not trust;
``REPORTKIT_NO_NETWORK=1`` (or ``reportkit --no-network``) cuts the network.
"""

from __future__ import annotations

import functools
import glob
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from reportkit.errors import UserError
from reportkit.run import _confine, landlock, pidlimit

FORCE_ENV = "REPORTKIT_SANDBOX"  # auto (default) | bwrap | fallback
NO_NETWORK_ENV = "REPORTKIT_NO_NETWORK"  # 1: runs get no network
LANDLOCK_ENV = "REPORTKIT_LANDLOCK"  # 0: no Landlock layer (the fallback is then the audit hook alone)
GUARD_ENV = "REPORTKIT_GUARD"  # the fallback guard's configuration (read by _boot.py and GUARD_SITE)
CONFINE_ENV = _confine.CONFINE_ENV  # read (and removed) by _boot.py: what the run applies to itself
GUARD_SITE = Path(__file__).with_name("_guardsite")  # its sitecustomize.py installs the guard in child Pythons
# variables that point into the real home: unset, so that they default under the scratch home
HOME_VARS = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
INSTALL_HINT = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"
# accelerator device nodes a run may need (Spyre: VFIO; NVIDIA; DRM/AMD; the accel class): passed through
ACCELERATORS = ("/dev/vfio", "/dev/nvidia*", "/dev/nvidia-caps", "/dev/dri", "/dev/accel", "/dev/kfd")
# device nodes every run may write to (and ioctl: terminals); /dev/shm is a scratch dir of its own
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts")
SESSION_PREFIX = "reportkit-session-"  # reportkit.run.runner.session_root(): the parent of every run's scratch dir
# A short name for a session dir deep in a long $TMPDIR: a symbolic link in /tmp. A run's $TMPDIR is that much
# deeper than the session dir (runner dir, run dir, tmp), and the unix sockets multiprocessing makes in it
# (<TMPDIR>/pymp-XXXXXXXX/listener-XXXXXXXX: a forkserver pool, DataLoader workers sharing descriptors) must fit the
# kernel's 107 characters, or the run fails ("AF_UNIX path too long") or hangs where the script would not.
ALIAS_DIR = "/tmp"
ALIAS_PREFIX = "rks-"
_RUN_DEPTH = len("/reportkit-xxxxxxxx/run-xxxxxxxx/tmp")
_SOCKET_TAIL = len("/pymp-xxxxxxxx/listener-xxxxxxxx") + 8  # (+ slack: pymp names vary a little by version)
SUN_PATH_MAX = 107
_aliases: dict[str, str] = {}  # session dir -> its alias (this process's)


def make_alias(session: Path) -> Path | None:
    """A link ``/tmp/rks-XXXXXXXX`` -> ``session`` when a run's sockets would not fit under ``session``'s own path
    (else, or where /tmp takes no link, None): runs get their ``$TMPDIR`` through it (:func:`short_path`)."""
    text = str(session)
    if len(text) + _RUN_DEPTH + _SOCKET_TAIL <= SUN_PATH_MAX:
        return None
    for _ in range(16):  # a name nobody has (another user's link there is never ours: symlink() does not replace)
        alias = os.path.join(ALIAS_DIR, ALIAS_PREFIX + os.urandom(6).hex())
        try:
            os.symlink(text, alias)
        except FileExistsError:
            continue
        except OSError:
            return None
        _aliases[text] = alias
        return Path(alias)
    return None


def drop_alias(session: Path) -> None:
    alias = _aliases.pop(str(session), None)
    if alias is not None:
        try:
            if os.readlink(alias) == str(session):
                os.unlink(alias)
        except OSError:
            pass


def short_path(path: Path) -> str:
    """``path``, through its session dir's alias if it has one."""
    text = str(path)
    for session, alias in _aliases.items():
        if text.startswith(session + "/"):
            return alias + text[len(session):]
    return text


def _own_aliases() -> list[tuple[str, str]]:
    """(link, target) of this user's links in ``ALIAS_DIR`` to a session dir (:func:`make_alias`), live or not."""
    found = []
    for path in glob.glob(os.path.join(ALIAS_DIR, ALIAS_PREFIX + "*")):
        try:
            st = os.lstat(path)
            if st.st_uid == os.geteuid() and stat.S_ISLNK(st.st_mode):
                target = os.readlink(path)
                if os.path.basename(target).startswith(SESSION_PREFIX):
                    found.append((path, target))
        except OSError:
            continue
    return found


def remove_dead_aliases(temp_dir: Path) -> list[str]:
    """Remove this user's aliases of session dirs that are gone (a reportkit that was killed left them): in
    ``temp_dir``, or in a temp dir that is gone too (a test's, removed with its session in it)."""
    removed = []
    for path, target in _own_aliases():
        if not os.path.lexists(target) and (os.path.dirname(target) == str(temp_dir)
                                            or not os.path.lexists(os.path.dirname(target))):
            try:
                os.unlink(path)
                removed.append(path)
            except OSError:
                continue
    return removed


_settings = {"network": os.environ.get(NO_NETWORK_ENV, "") in ("", "0")}


_gaps: dict[str, int] = {}  # what a run's own confinement could not put in force (_confine.gaps) -> runs


def note_gaps(gaps: Iterable[str]) -> None:
    """Record what one run's confinement summary says is not in force (called for every run's start)."""
    for gap in gaps:
        _gaps[gap] = _gaps.get(gap, 0) + 1


def gaps_seen() -> str:
    """What runs of this process lacked of the promised confinement, for the sandbox line ("" if nothing)."""
    if not _gaps:
        return ""
    return "NOT in force in some runs: " + "; ".join(f"{gap} ({n} run{'s' if n != 1 else ''})"
                                                      for gap, n in _gaps.items())


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
    landlock: int = 0  # the Landlock ABI runs apply (0: none)
    userns: bool = False  # bubblewrap: the run has a user namespace of its own (--unshare-user)
    nested: bool = False  # bubblewrap: a warm server's child can make its own mount namespace (_nested_mount_ns)
    root: bool = False  # reportkit runs as root
    mounts: bool = False  # fallback: a run can make a mount namespace of its own here (:func:`mount_ns_available`)

    @property
    def warm_mounts(self) -> bool:
        """Under bubblewrap, each warm child makes a mount namespace of its own (a private ``/dev/shm``, the
        file system read-only but its own scratch dir): it needs a user namespace, which the warm server's
        sandbox then allows, and Landlock, which forbids any mount to the script afterwards."""
        return self.mode == "bubblewrap" and self.userns and self.nested and self.landlock > 0

    def layers(self) -> str:
        """The layers in force, e.g. ``bubblewrap + landlock (ABI 7)``, ``audit hook only``."""
        lock = f"landlock (ABI {self.landlock})" if self.landlock else ""
        if self.mode == "bubblewrap":
            return "bubblewrap" + (f" + {lock}" if lock else "")
        if self.mode == "fallback":
            return f"{lock} + audit hook" if lock else "audit hook only"
        return "none"

    def describe(self, network: bool | None = None) -> str:
        """One line for check/minimize output: what protects the user's files and processes."""
        network = network_default() if network is None else network
        if self.mode == "none":
            return f"NONE ({FORCE_ENV}=none): runs are not sandboxed"
        caps = "capabilities dropped (root)" if self.root else "no capabilities"
        if self.mode == "bubblewrap":
            net = "network on" if network else "no network (empty network namespace)"
            scoped = ", signals scoped to the run" if self.landlock >= 6 else ""
            each = "writes only in the run's own scratch dir" if self.landlock else \
                "writable scratch dirs (warm runs share one session dir: no Landlock)"
            shm = "a private /dev/shm per run" if self.warm_mounts else "warm runs share one /dev/shm"
            return (f"{self.layers()}: read-only file system, {each}, {caps}, minimal /dev, {shm}, host unix "
                    f"sockets masked, own PID namespace{scoped}, {net}, {pidlimit.describe(own_user_ns=self.userns)}")
        why = f" (no bubblewrap: {self.reason})" if self.reason else " (no bubblewrap)"
        mounts = ("file system read-only outside the scratch dirs (modes, owners, times too), a private /dev/shm "
                  "per run, a /dev/pts of its own (not the host's terminals), host unix sockets masked"
                  if self.mounts else
                  "no mount namespace here: the host's /dev/shm shared by runs, modes/times of the user's own "
                  "files, host unix sockets and the user's terminals (/dev/pts) not confined")
        if self.landlock:
            tcp = "no TCP" if self.landlock >= 4 else "TCP not covered"
            net = "network on" if network else f"no network ({tcp}, no UDP/raw sockets)"
            scoped = ", signals scoped to the run" if self.landlock >= 6 else ""
            return (f"{self.layers()}{why}: writes only in the run's scratch dir (native code too), {caps}, "
                    f"{mounts}{scoped}, runs die with reportkit, {net}, {pidlimit.describe(own_user_ns=self.mounts)}")
        net = "network on" if network else "no network (Python-level sockets refused)"
        native = ("native code and programs other than Python are held by the read-only mounts only (not in the "
                  "scratch dirs, device nodes, signals, sockets)" if self.mounts else
                  "native code and programs other than Python are not confined")
        return (f"{self.layers()}{why}: best effort — Python-level writes, deletes, links, mode changes, shells, "
                f"signals and unix sockets outside the run refused, {caps}; {native}, {mounts}, {net}, "
                f"{pidlimit.describe(own_user_ns=self.mounts)} — "
                f"{INSTALL_HINT}")


def process_group(prot: Protection) -> pidlimit.Group:
    """The pids cgroup a run (or a warm server with its children) starts in, where its protection has one (root;
    none when the sandbox is off); a group that could not be made is noted as a gap."""
    group = pidlimit.Group(None if prot.mode != "none" else 0)
    if group.gap:
        note_gaps([group.gap])
    return group


def accelerator_nodes() -> list[str]:
    """The accelerator device nodes (:data:`ACCELERATORS`) this machine has."""
    found: list[str] = []
    for pattern in ACCELERATORS:
        for path in sorted(glob.glob(pattern)) if "*" in pattern else [pattern]:
            if os.path.exists(path) and path not in found:
                found.append(path)
    return found


_PROC_READ_ONLY = ("/proc/sys", "/proc/sysrq-trigger", "/proc/irq", "/proc/bus", "/proc/fs")
_PROC_MASKED = _confine.PROC_MASKED  # the uid's kernel keys (serial, type, description), listed to any of its processes


def _bwrap_base(bwrap: str, userns: bool = True, nested: bool = False) -> list[str]:
    """No capabilities (also as root), a new session, its own System V IPC, a read-only root, a minimal /dev with a private shm
    and the accelerators, a new /proc whose kernel knobs are read-only (:data:`_PROC_READ_ONLY`); with ``userns`` a
    user namespace of its own, where no further one can be made unless ``nested`` (a warm server: each child makes its
    own mount namespace, then Landlock)."""
    args = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--cap-drop", "ALL"]
    if userns and nested and os.geteuid() == 0:
        # a user namespace that maps uid 0 needs its maker to hold CAP_SETFCAP (Linux 5.12+): the server keeps
        # that one (a file capability does nothing under bwrap's no_new_privs), its children drop it
        args += ["--cap-add", "CAP_SETFCAP"]
    if userns:
        args += ["--unshare-user"] + ([] if nested else ["--disable-userns"])
    args += ["--ro-bind", "/", "/", "--dev", "/dev", "--tmpfs", "/dev/shm", "--proc", "/proc"]
    # the kernel's knobs in the new /proc stay read-only: uid 0 writes a sysctl by its file mode alone, no
    # capability asked (kernel.core_pattern = "|<a script of the run's>" runs it as root on the host, outside every
    # namespace), and /proc/sysrq-trigger reboots the machine (Docker's read-only /proc paths, the same list)
    for knob in _PROC_READ_ONLY:
        args += ["--ro-bind-try", knob, knob]
    # /proc/keys and /proc/key-users list the uid's kernel keys (descriptions: Kerberos principals, fscrypt and
    # ceph keys) whatever the seccomp filter refuses: /dev/null over them, as Docker masks them (bwrap binds it
    # nodev: they cannot be opened)
    for listing in _PROC_MASKED:
        args += ["--ro-bind-try", "/dev/null", listing]
    for node in accelerator_nodes():
        args += ["--dev-bind-try", node, node]
    return args


# The gate (bubblewrap): bwrap binds its life to ours (``--die-with-parent``) only some time after it started (the
# outer bwrap once it has cloned the sandbox, the sandbox's init once it has forked the command); a reportkit killed
# before that left the run going for ever (ppid 1). So the sandbox's first Python (the boot, the warm server, the
# probe) stops at a gate before anything else (:func:`reportkit.run._confine.pass_gate`): it says it is there, then
# waits for reportkit's word, which comes once bwrap has reported (``--info-fd``, just after its own
# ``PR_SET_PDEATHSIG``) and the command has said it is there (its init forked it, then bound itself); if reportkit
# died before, the pipe reads end-of-file and the run ends at the gate (70) without running anything.
GATE_ENV = _confine.GATE_ENV
_INFO_FD = "@reportkit-info-fd@"
INFO_WAIT = 60.0  # seconds to wait for bwrap's report before the gate opens anyway (a bwrap that never reports)


def _gated(cmd: Sequence[str]) -> list[str]:
    """``cmd`` (a bwrap command line: options, ``--``, the command) with the descriptor bwrap reports on."""
    cmd = list(cmd)
    cut = cmd.index("--")
    return [*cmd[:cut], "--info-fd", _INFO_FD, *cmd[cut:]]


def start(cmd: Sequence[str], **kwargs) -> subprocess.Popen:
    """``subprocess.Popen`` of a command :func:`wrap` made: under bubblewrap the sandbox's first Python waits at the
    gate (:data:`GATE_ENV`) until bwrap has bound its life to this process's; a thread of ours opens it then (the
    caller has the process at once, to wait for or kill as any other)."""
    cmd = list(cmd)
    if _INFO_FD not in cmd:
        return subprocess.Popen(cmd, **kwargs)
    info_r, info_w = os.pipe()
    go_r, go_w = os.pipe()
    here_r, here_w = os.pipe()
    env = dict(os.environ if kwargs.get("env") is None else kwargs["env"])
    kwargs["env"] = {**env, GATE_ENV: f"{go_r},{here_w}"}
    try:
        proc = subprocess.Popen([str(info_w) if arg == _INFO_FD else arg for arg in cmd],
                                pass_fds=(*kwargs.pop("pass_fds", ()), info_w, go_r, here_w), **kwargs)
    except BaseException:
        for fd in (info_r, go_w, here_r):
            os.close(fd)
        raise
    finally:
        for fd in (info_w, go_r, here_w):
            os.close(fd)
    threading.Thread(target=_open_gate, args=(info_r, here_r, go_w), name="reportkit-gate", daemon=True).start()
    return proc


def _open_gate(info_r: int, here_r: int, go_w: int) -> None:
    """Give the word once bwrap has reported (the outer bwrap is bound to us) and the command is there (the
    sandbox's init, which binds itself to bwrap right after forking it, is too); a daemon thread: if this process
    dies first, the pipes close and the gate reads end-of-file. Whatever else goes wrong here, the word is given
    (the run is never held back by the gate's own failure: bwrap's binding stays, as it was without the gate)."""
    try:
        try:
            deadline = time.monotonic() + INFO_WAIT
            _await_report(info_r, deadline, b"}")
            _await_report(here_r, deadline, b"\n")
        except Exception:  # noqa: BLE001 - (see above)
            pass
        os.write(go_w, b"go\n")
    except OSError:
        pass  # (bwrap has gone: nothing waits at the gate)
    finally:
        for fd in (info_r, go_w, here_r):
            os.close(fd)


def _await_report(fd: int, deadline: float, end: bytes) -> None:
    """Read from ``fd`` until ``end`` came, the writers have gone (end of file) or ``deadline`` has passed."""
    import select

    poller = select.poll()  # (not select(): a descriptor past 1023 is out of its range)
    poller.register(fd, select.POLLIN)
    data = b""
    while end not in data:
        left = deadline - time.monotonic()
        if left <= 0 or not poller.poll(left * 1000):
            return
        chunk = os.read(fd, 4096)
        if not chunk:
            return
        data += chunk


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
    return pool.submit(start, list(cmd), **kwargs).result()


@functools.cache
def _probe(bwrap: str) -> tuple[str, bool]:
    """(why not, user namespace): empty if ``bwrap`` can build our sandbox here; whether it can with a
    user namespace of its own (else without, capabilities dropped all the same)."""
    why = ""
    for userns in (True, False):
        try:
            proc = subprocess.run(_bwrap_base(bwrap, userns) + ["--unshare-net", "--tmpfs", "/tmp", "true"],
                                  capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError) as exc:
            return f"bwrap does not run: {exc}", False
        if proc.returncode == 0:
            return "", userns
        why = why or "bwrap cannot create namespaces here: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
    return why, False


def _mount_ns_probe(prefix: Sequence[str] = ()) -> bool:
    """Whether a process started by ``prefix + [...]`` can make a mount namespace of its own the way a run
    does (:func:`reportkit.run._confine.own_mount_ns`): with util-linux's ``unshare`` (fast), else with
    this interpreter."""
    shell = ("command -v unshare >/dev/null || exit 127; unshare --mount --ipc true 2>/dev/null || "
             "unshare --user --map-current-user --mount --ipc true 2>/dev/null")
    config = json.dumps({"mounts": {"shm": True}})
    for cmd in (["sh", "-c", shell], [sys.executable, "-I", "-B", _confine.__file__, config]):
        try:
            proc = subprocess.run([*prefix, *cmd], capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.SubprocessError):
            continue
        if cmd[0] == "sh":
            if proc.returncode == 127:
                continue  # no unshare (or no sh) there
            return proc.returncode == 0
        try:
            return bool(json.loads(proc.stdout)["mounts"]["mount_ns"])
        except (ValueError, KeyError, TypeError):
            return False
    return False


@functools.cache
def mount_ns_available() -> bool:
    """Whether a run can make a mount namespace of its own here (as root, or through a user namespace):
    what the fallback's private ``/dev/shm``, read-only mounts and masked sockets need. Probed once."""
    return _mount_ns_probe()


@functools.cache
def _nested_mount_ns(bwrap: str) -> bool:
    """Whether a warm server's child can make its own mount namespace in the server's sandbox (a kernel or
    an LSM may refuse nested user namespaces). Probed once."""
    return _mount_ns_probe([*_bwrap_base(bwrap, True, nested=True), "--"])


@functools.cache
def _landlock_abi() -> int:
    return landlock.abi()


def landlock_abi() -> int:
    """The Landlock ABI runs apply: the kernel's, 0 without it or with ``REPORTKIT_LANDLOCK=0``."""
    if os.environ.get(LANDLOCK_ENV, "").strip().lower() in ("0", "off", "no", "false"):
        return 0
    return _landlock_abi()


def protection() -> Protection:
    """The protection runs get on this machine (see the module doc)."""
    force = os.environ.get(FORCE_ENV, "auto").strip().lower() or "auto"
    if force not in ("auto", "bwrap", "bubblewrap", "fallback", "none"):
        raise UserError(f"{FORCE_ENV}={force!r}: expected auto, bwrap or fallback")
    if force == "none":
        return Protection("none")
    root = os.geteuid() == 0
    if force == "fallback":
        return Protection("fallback", landlock=landlock_abi(), root=root, mounts=mount_ns_available())
    bwrap = shutil.which("bwrap")
    why, userns = ("bwrap not found", False) if bwrap is None else _probe(bwrap)
    if why:
        if force != "auto":
            raise UserError(f"{FORCE_ENV}={force} but {why}; {INSTALL_HINT}")
        return Protection("fallback", reason=why, landlock=landlock_abi(), root=root, mounts=mount_ns_available())
    lock = landlock_abi()
    nested = bool(userns and lock and _nested_mount_ns(bwrap))
    return Protection("bubblewrap", bwrap=bwrap, landlock=lock, userns=userns, nested=nested, root=root)


def _temp_roots() -> list[str]:
    roots = ["/tmp"]
    tmp = os.path.realpath(tempfile.gettempdir())
    if tmp not in roots and tmp != "/":
        roots.append(tmp)
    return roots


def env_writable(env: dict[str, str]) -> list[Path]:
    """Directories reportkit made for a run and hands it through the environment (private compile
    caches, debug dirs): ``$TMP/reportkit-*`` directories an environment value points into
    (``PYTHONPATH`` aside: code to read, not to write).

    Under a session dir (``$TMP/reportkit-session-*``, which holds every run's scratch dir) only what the
    value names: a file reportkit made for the run to write (a value capture), or a directory (made here
    if missing: a private compile cache), never the session dir itself or a parent that holds other runs;
    elsewhere (a bundle's workspace) the top ``$TMP/reportkit-*`` directory.
    """
    found: list[Path] = []
    for root in _temp_roots():
        prefix = root.rstrip("/") + "/reportkit-"
        for name, value in env.items():
            if name == "PYTHONPATH":
                continue
            for part in value.split(os.pathsep):
                if not part.startswith(prefix) or "/../" in part + "/":
                    continue
                top = Path(root) / part[len(root.rstrip("/")) + 1:].split("/", 1)[0]
                if top.name.startswith(SESSION_PREFIX):
                    path = Path(os.path.normpath(part))
                    if path == top or path.parent == top or not top.is_dir():
                        continue  # the session dir, or a sandbox's root (every run of it is in there)
                    if not path.exists():
                        path.mkdir(parents=True, exist_ok=True)
                    top = path
                if top.exists() and top not in found:
                    found.append(top)
    return found


def _dirs(writable: Iterable[Path], env: dict[str, str], scratch: Path) -> list[str]:
    dirs: list[str] = []
    for path in [*writable, *env_writable(env), scratch]:
        text = os.path.abspath(path)
        if text not in dirs:
            dirs.append(text)
    return dirs


def _scratch_env(env: dict[str, str], scratch: Path) -> dict[str, str]:
    home, tmp = scratch / "home", scratch / "tmp"
    home.mkdir(parents=True, exist_ok=True)
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(env)
    for var in HOME_VARS:
        env.pop(var, None)
    env["HOME"] = str(home)
    env["TMPDIR"] = short_path(tmp)  # the private temp dir (the real /tmp stays readable)
    return env


def _confined_env(env: dict[str, str], dirs: list[str], network: bool, prot: Protection,
                  keeper: bool) -> dict[str, str]:
    """``env`` with what the run applies to itself (:mod:`reportkit.run._confine`) and, in the fallback,
    the audit hook's configuration and the ``sitecustomize`` that installs it in every child Python."""
    fallback = prot.mode == "fallback"
    devices = [*DEVICES, *accelerator_nodes()]
    # a mount namespace of the run's own: a fresh /dev/shm and /dev/pts (not the host's terminals), everything
    # but its writable dirs read-only, and (without bubblewrap) the host's sockets masked. A cold run under
    # bubblewrap has all that from bwrap; a warm child shares its server's sandbox, so it makes its own
    # (required: the report says so; its /dev/pts where it can: the server's is bwrap's, not the host's)
    mounts = None
    if fallback:
        mounts = {"shm": True, "pts": True, "keys": True, "readonly": True, "sockets": True,
                  "promised": prot.mounts}
    elif not keeper and prot.warm_mounts:
        mounts = {"shm": True, "pts": "try", "readonly": True, "required": True}
    config = {"landlock": prot.landlock, "writable": [*dirs, "/dev/shm"], "devices": devices, "network": network,
              # seccomp: every filter in the fallback; under bubblewrap (which has network and PID namespaces
              # of its own) the kernel keyring's and the scheduling one: bwrap leaves the session keyring of
              # the shell that started reportkit reachable (add_key planted keys in it)
              "mounts": mounts, "seccomp": True if fallback else "shared",
              "parent": os.getpid() if keeper and fallback else None,
              "nproc": pidlimit.nproc_for_run()}  # (not root; root: the run's pids cgroup, pidlimit.Group)
    env[CONFINE_ENV] = json.dumps(config)
    if fallback:
        env[GUARD_ENV] = json.dumps({"writable": [os.path.realpath(d) for d in dirs], "network": network,
                                     "devices": devices + ["/dev/shm"], "site": str(GUARD_SITE)})
        path = env.get("PYTHONPATH")
        env["PYTHONPATH"] = str(GUARD_SITE) + (os.pathsep + path if path else "")
    return env


def run_env(env: dict[str, str], *, writable: Iterable[Path], scratch: Path, network: bool | None = None,
            prot: Protection | None = None) -> dict[str, str]:
    """The environment of one run inside an already sandboxed process (a warm server's child): its own
    ``$HOME`` and ``$TMPDIR`` under ``scratch``, and the confinement it applies to itself."""
    prot = prot or protection()
    if prot.mode == "none":
        return dict(env)
    network = network_default() if network is None else network
    env = _scratch_env(env, scratch)
    return _confined_env(env, _dirs(writable, env, scratch), network, prot, keeper=False)


def _session_dirs() -> tuple[str, ...]:
    """reportkit's session dirs of this user (``$TMP/reportkit-session-*``, made ``0700`` by ``mkdtemp``):
    the sockets in there belong to sandboxed runs, which come and go."""
    found = []
    for root in _temp_roots():
        for path in glob.glob(os.path.join(root, SESSION_PREFIX + "*")):
            try:
                st = os.lstat(path)
            except OSError:
                continue
            if st.st_uid == os.geteuid() and stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700:
                found.append(os.path.join(path, ""))
    # and their links (make_alias): a run's sockets are bound by the link's path, also another reportkit's runs'
    found += [os.path.join(path, "") for path, _ in _own_aliases()]
    return tuple(found)


def _searchable(path: str) -> bool:
    """Whether this user, without any capability (as a sandboxed run is, root too), can look up ``path``:
    every directory above it searchable by owner, group or other bits. A socket it cannot reach needs no
    mask, and bwrap, without capabilities, could not put one there (another user's ``0700`` session dir)."""
    uid, groups = os.geteuid(), {os.getegid(), *os.getgroups()}
    parent = os.path.dirname(path)
    while True:
        try:
            st = os.stat(parent)
        except OSError:
            return False
        bit = stat.S_IXUSR if st.st_uid == uid else stat.S_IXGRP if st.st_gid in groups else stat.S_IXOTH
        if not st.st_mode & bit:
            return False
        if parent == "/":
            return True
        parent = os.path.dirname(parent)


def bwrap_masks(exclude: Iterable[str]) -> list[str]:
    """bwrap arguments that put ``/dev/null`` over each host unix socket outside ``exclude`` and outside this
    user's reportkit session dirs (other runs' sockets come and go) that the run could reach. Every other
    socket is masked, in directories named like reportkit's too."""
    own: tuple[str, ...] | None = None  # (looked up when there is a socket to judge: a glob of the temp dirs)
    args: list[str] = []
    for path in _confine.host_unix_sockets(list(exclude)):
        if own is None:
            own = _session_dirs()
        if path.startswith(("/dev/", "/proc/", "/sys/", *own)) or not _searchable(path):
            continue
        args += ["--ro-bind", "/dev/null", path]
    return args


# bwrap's tries to build a sandbox (a run's, the warm server's): the host's sockets it masks are listed just before,
# and where sockets come and go fast (another test suite, a busy CI host: one went away between the listing and
# bwrap's mount in 1 of ~50 runs while a blind attack suite ran beside) one more try alone was not enough; each try
# lists them again
BWRAP_SETUP_TRIES = 4


def bwrap_setup_failed(stderr: str) -> bool:
    """bwrap could not build the sandbox (e.g. a masked socket went away meanwhile): worth one retry."""
    return stderr.lstrip().startswith("bwrap: ")


def wrap(cmd: Sequence[str], env: dict[str, str], *, writable: Iterable[Path], scratch: Path,
         network: bool | None = None, prot: Protection | None = None,
         confine: bool = True) -> tuple[list[str], dict[str, str]]:
    """The command and environment that run ``cmd`` sandboxed.

    ``writable``: directories the run may write (its scratch tree); ``scratch``: a directory of the
    run's own for the private home (``scratch/home``) and temp dir (``scratch/tmp``), created here.
    ``confine``: the process is a run, which confines itself (False: the warm server, whose children
    each confine themselves to their own scratch dir: :func:`run_env`; with :attr:`Protection.warm_mounts`
    its sandbox lets them make the user namespace their own mount namespace needs).
    """
    prot = prot or protection()
    if prot.mode == "none":
        return list(cmd), dict(env)
    network = network_default() if network is None else network
    env = _scratch_env(env, scratch)
    dirs = _dirs(writable, env, scratch)
    if confine:
        env = _confined_env(env, dirs, network, prot, keeper=True)
    if prot.mode == "bubblewrap":
        assert prot.bwrap is not None
        args = _bwrap_base(prot.bwrap, prot.userns, nested=not confine and prot.warm_mounts)
        if not network:
            args.append("--unshare-net")
        args += bwrap_masks(dirs)
        for directory in dirs:
            args += ["--bind", directory, directory]
        return _gated([*args, "--", *cmd]), env
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
