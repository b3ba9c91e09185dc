"""Kernel-level confinement a run applies to itself, before the script's first line (standard library only,
Python 3.8+: loaded by path by :mod:`reportkit.run._boot` in the target interpreter, and imported by
reportkit itself for :func:`host_unix_sockets`).

:func:`apply` takes the configuration reportkit put in ``REPORTKIT_CONFINE`` (see
:func:`reportkit.run.sandbox.run_env`) and, in this order (each step needs the powers the later ones take away):

1. ``mounts`` (runs without bubblewrap, and warm children under it): a mount namespace of the run's own
   (as root ``unshare(CLONE_NEWNS)``, else with a user namespace) with its own System V IPC, in which
   (``shm``) a fresh tmpfs is mounted on ``/dev/shm`` (what a run leaves there goes with it: the next run
   starts from an empty one); (``pts``) a devpts instance of its own on ``/dev/pts`` (``/dev/ptmx`` bound to
   its ``ptmx``): the host's terminals are not there, the run's own ptys are; (``readonly``) every mount is remounted read-only except the run's writable
   dirs (each bound onto itself first) and that ``/dev/shm``: ``chmod``, ``chown``, ``utime`` and
   ``setxattr`` of files outside, which Landlock does not mediate, fail with ``EROFS``, native code too;
   (``sockets``) ``/dev/null`` is bind-mounted over every pathname unix socket the host has bound
   (``/proc/net/unix``) outside the run's scratch dirs: a host service (``docker.sock``, an ssh or gpg
   agent, D-Bus) can no longer be reached through its socket file. Landlock (ABI <= 7) does not mediate
   ``connect()`` to a socket file, so this is the only layer that does; (``keys``) ``/dev/null`` over
   ``/proc/keys`` and ``/proc/key-users``, which list the uid's kernel keys (descriptions, payload lengths)
   to every process of it, whatever the seccomp filter refuses.
   Where no mount namespace can be had (a container without ``CAP_SYS_ADMIN`` and without user
   namespaces) nothing of this is done: ``mount_ns`` is False in the summary (an error when ``required``).
``nproc`` (not root): ``RLIMIT_NPROC`` to the given number of tasks more than those it is counted against
(:func:`limit_tasks`, :mod:`reportkit.run.pidlimit`).

2. ``drop_caps``: every capability goes (bounding set emptied, ambient cleared, ``SECBIT_NOROOT`` and
   friends locked, then ``capset`` to nothing); with ``no_new_privs`` an ``execve`` cannot bring them back.
   A run as root keeps uid 0 but none of root's powers (no mount, no raw I/O, no module loading, no
   ``CAP_DAC_OVERRIDE``).
3. ``seccomp`` (``True`` without bubblewrap; ``"shared"`` under it: the first two filters only): the kernel
   keyring syscalls (``add_key``, ``request_key``, ``keyctl``)
   fail with ``EACCES``; the scheduling and limit calls that take a process id (``setpriority``, ``ioprio_set``,
   ``sched_set*``, ``prlimit64``) act on the run's own process only (no PID namespace here: another id could
   be any process of the uid); and without network (no network namespace there): ``socket()`` of any family but
   unix and netlink's ``NETLINK_ROUTE`` fails with ``EACCES`` (UDP and raw sockets, which Landlock does not
   cover; ``NETLINK_USERSOCK``, which reaches host processes), and so does a unix socket when step 1 could
   not mask the host's sockets; ``socketpair()`` and pipes keep working; ``io_uring_setup`` is refused
   (its requests are not seen by seccomp).
4. ``landlock`` (:mod:`reportkit.run.landlock`): writes only beneath the run's scratch dirs and the device
   nodes it needs; without network no TCP bind/connect; signals and abstract unix sockets scoped to the run.

Steps that were asked for and cannot be done raise :class:`ConfinementError` (the boot then refuses to run
the script: a run is never less confined than the report says), except ``mounts`` (unless it says
``required``) and ``seccomp``, whose outcome is recorded in the summary; what of those was promised
(a mount step asked for as ``True``; the mount namespace when ``mounts["promised"]``; a seccomp filter) and is
not in force is listed in the summary's ``gaps``, which reportkit shows next to its sandbox line.
"""

import ctypes
import errno
import json
import os
import stat
import struct
import sys

try:
    from . import landlock
except ImportError:  # loaded by path in the target interpreter, outside the reportkit package
    import importlib.util

    _spec = importlib.util.spec_from_file_location(
        "_reportkit_landlock", os.path.join(os.path.dirname(os.path.abspath(__file__)), "landlock.py"))
    landlock = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(landlock)

CONFINE_ENV = "REPORTKIT_CONFINE"
GATE_ENV = "REPORTKIT_GATE_FD"  # the gate's descriptor under bubblewrap (reportkit.run.sandbox.start)
_PR_SET_PDEATHSIG = 1
_PR_CAPBSET_DROP = 24
_PR_SET_SECUREBITS = 28
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL = 47, 4
_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 22, 2
# SECBIT_NOROOT, NO_SETUID_FIXUP, NO_CAP_AMBIENT_RAISE, each with its lock, and KEEP_CAPS_LOCKED
_SECUREBITS = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80
_CLONE_NEWNS, _CLONE_NEWUSER, _CLONE_NEWIPC = 0x00020000, 0x10000000, 0x08000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_NOEXEC, _MS_REMOUNT = 1, 2, 4, 8, 32
_MS_BIND, _MS_REC, _MS_PRIVATE = 4096, 16384, 1 << 18


class ConfinementError(OSError):
    """A confinement step that was asked for could not be applied."""


_LIBC = []


def _libc():
    if not _LIBC:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        _LIBC.append(libc)
    return _LIBC[0]


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise ConfinementError(err, what + ": " + os.strerror(err))


# --------------------------------------------------------------------------- process lifetime


def pass_gate():
    """Under bubblewrap, before anything else (the boot, the warm server, the probe): say this process is there,
    then wait for reportkit's word that bwrap ties the sandbox's life to reportkit's
    (:func:`reportkit.run.sandbox.start`); end here, running nothing, when reportkit died before it could give it
    (the pipe reads end-of-file)."""
    fds = os.environ.pop(GATE_ENV, None)
    if fds is None:
        return
    try:
        word_fd, here_fd = (int(fd) for fd in fds.split(","))
        os.fstat(word_fd), os.fstat(here_fd)
    except (OSError, ValueError):
        return  # (no such descriptors: nobody gates this process)
    try:
        os.write(here_fd, b"here\n")
        os.close(here_fd)
        word = os.read(word_fd, 8)
        os.close(word_fd)
    except OSError:  # (EPIPE: nobody reads any more)
        word = b""
    if not word:
        os._exit(70)


def die_with_parent(signum, parent):
    """``PR_SET_PDEATHSIG``: ``signum`` when the parent (thread) ends. False if the parent is already gone
    (not ``parent``: it ended before the call; the caller must exit)."""
    _check(_libc().prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0), "prctl(PR_SET_PDEATHSIG)")
    return parent is None or os.getppid() == parent


# --------------------------------------------------------------------------- unix sockets


def host_unix_sockets(exclude=()):
    """Paths of the pathname unix sockets bound in this network namespace (``/proc/net/unix``) that exist
    as sockets now, outside the directories ``exclude``; sorted, without duplicates."""
    try:
        with open("/proc/net/unix", encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()[1:]
    except OSError:
        return []
    prefixes = tuple(os.path.join(os.path.abspath(d), "") for d in exclude)
    found = set()
    for line in lines:
        fields = line.split(None, 7)
        if len(fields) < 8 or not fields[7].startswith("/"):
            continue  # unbound, abstract (@name) or a relative path
        path = fields[7].rstrip("\n")
        if path.startswith(prefixes) or path in found:
            continue
        try:
            if stat.S_ISSOCK(os.lstat(path).st_mode):
                found.add(path)
        except OSError:
            continue
    return sorted(found)


def _write(path, text):
    with open(path, "w") as fh:
        fh.write(text)


def own_user_ns():
    """A user namespace of this process's own that maps only its uid and gid (it then holds every capability
    in it, over nothing but what that uid owns, and none outside). A warm server under bubblewrap makes one
    before it preloads, so that each child it forks can make its mount namespace without a user namespace
    of its own (:func:`own_mount_ns`; half the cost). Returns None when done, else why not."""
    uid, gid = os.geteuid(), os.getegid()
    if _libc().unshare(_CLONE_NEWUSER) != 0:
        return "unshare(CLONE_NEWUSER): " + os.strerror(ctypes.get_errno())
    return _map_own_ids(uid, gid)


def _map_own_ids(uid, gid):
    """Map only ``uid``/``gid`` (this process's ids from before its ``unshare(CLONE_NEWUSER)``) in its new user
    namespace, setgroups denied. None when done, else why not."""
    for path, text in (("/proc/self/setgroups", "deny"), ("/proc/self/uid_map", f"{uid} {uid} 1"),
                       ("/proc/self/gid_map", f"{gid} {gid} 1")):
        try:
            _write(path, text)
        except OSError as exc:
            return f"user namespace: {path}: {exc.strerror}"
    return None


def own_mount_ns():
    """A mount namespace (and System V IPC namespace) of this process's own, in which no mount propagates
    back to the host: as root directly, else through a user namespace that maps only this uid and gid.
    Returns None when done, else why it cannot be made."""
    libc = _libc()
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(_CLONE_NEWNS | _CLONE_NEWIPC) != 0:
        if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWIPC) != 0:
            return "unshare(CLONE_NEWUSER | CLONE_NEWNS): " + os.strerror(ctypes.get_errno())
        why = _map_own_ids(uid, gid)
        if why is not None:
            return why
    # never let a mount made here propagate back to the host
    _check(libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "mount(MS_PRIVATE)")
    return None


def private_shm():
    """A fresh tmpfs on ``/dev/shm`` (in the run's own mount namespace): nothing an earlier run left there."""
    _check(_libc().mount(b"tmpfs", b"/dev/shm", b"tmpfs", _MS_NOSUID | _MS_NODEV, b"mode=1777"),
           "mount(tmpfs, /dev/shm)")


def private_pts():
    """A devpts instance of the run's own on ``/dev/pts`` (in the run's own mount namespace), ``/dev/ptmx`` bound
    to its ``ptmx``: the host's terminals (``/dev/pts/N``, other sessions' and the user's shells) are no longer
    there to open, write or ``TIOCSTI`` into, native code too (``/dev/char/136:N`` leads to the new instance);
    ``pty.openpty()`` gives the run ptys of its own. Descriptors the run already holds are not affected.
    Returns ``"private"``, or ``"private (no /dev/ptmx)"`` when there is no ``/dev/ptmx`` device to replace."""
    libc = _libc()
    _check(libc.mount(b"devpts", b"/dev/pts", b"devpts", _MS_NOSUID | _MS_NOEXEC,
                      b"newinstance,ptmxmode=0666,mode=0620"), "mount(devpts, /dev/pts)")
    try:
        ptmx = os.lstat("/dev/ptmx")
    except OSError:
        return "private (no /dev/ptmx)"
    if stat.S_ISCHR(ptmx.st_mode):  # a symlink (pts/ptmx, as under bubblewrap) already leads to the new one
        _check(libc.mount(b"/dev/pts/ptmx", b"/dev/ptmx", None, _MS_BIND, None), "mount(bind /dev/pts/ptmx)")
    return "private"


def _null_over(path):
    """Bind ``/dev/null`` over ``path`` (in the run's own mount namespace): mount(2)'s result, 0 when done."""
    return _libc().mount(b"/dev/null", os.fsencode(path), None, _MS_BIND, None)


def mask_sockets(paths):
    """``/dev/null`` over each socket path (in the run's own mount namespace). Returns the number masked."""
    return sum(_null_over(path) == 0 for path in paths)


PROC_MASKED = ("/proc/keys", "/proc/key-users")


def mask_proc_files(paths=PROC_MASKED):
    """``/dev/null`` over each of ``paths`` that exists (in the run's own mount namespace; a new procfs cannot
    then be mounted to see them again: the kernel refuses one less covered than the one there). Returns the
    number masked; raises :class:`ConfinementError` when one that exists cannot be."""
    masked = 0
    for path in paths:
        if not os.path.exists(path):
            continue
        _check(_null_over(path), "mount(bind /dev/null " + path + ")")
        masked += 1
    return masked


def _unescape(field):
    """A path from ``/proc/self/mountinfo`` (space, tab, newline and backslash are octal escapes)."""
    out, i = [], 0
    while i < len(field):
        if field[i] == "\\" and i + 3 < len(field) and field[i + 1:i + 4].isdigit():
            out.append(chr(int(field[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(field[i])
            i += 1
    return "".join(out)


def _mounts():
    """(mount point, per-mount flags to keep) of every mount this process sees, in mount order."""
    keep = {"nosuid": _MS_NOSUID, "nodev": _MS_NODEV, "noexec": _MS_NOEXEC}
    found = []
    with open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as fh:
        for line in fh:
            fields = line.split()
            if len(fields) < 6:
                continue
            flags = 0
            for option in fields[5].split(","):
                flags |= keep.get(option, 0)
            found.append((_unescape(fields[4]), flags))
    return found


def read_only_except(writable):
    """Every mount read-only except ``writable`` (directories and files, each bound onto itself first, so
    a mount of its own that stays writable) and ``/dev/shm``. Returns (mounts made read-only, mount points
    that could not be)."""
    libc = _libc()
    keep = {"/dev/shm"}
    for path in sorted({os.path.realpath(p) for p in writable} - keep, key=len):
        raw = os.fsencode(path)
        _check(libc.mount(raw, raw, None, _MS_BIND | _MS_REC, None), "mount(bind " + path + ")")
        keep.add(path)
    done, failed = 0, []
    for point, flags in _mounts():
        if point in keep:
            continue
        raw = os.fsencode(point)
        if libc.mount(None, raw, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY | flags, None) == 0:
            done += 1
        elif point not in failed:
            failed.append(point)
    try:  # the working directory was looked up before the binds: look it up again, through them
        os.chdir(os.getcwd())
    except OSError:
        pass
    return done, failed


def own_mounts(config, writable):
    """Step 1 (module doc): what was done, for the summary. Raises :class:`ConfinementError` when
    ``config["required"]`` and there is no mount namespace to be had, or a step asked for (``True``) fails; a
    step asked for as ``"try"`` is done where it can be (the summary says when not)."""
    why = own_mount_ns()
    done = {"mount_ns": why is None}
    if why is not None:
        done["why"] = why
        if config.get("required"):
            raise ConfinementError(errno.EPERM, "no mount namespace of the run's own could be made: " + why)
        return done
    steps = [("shm", lambda: private_shm() or "private"),
             ("pts", private_pts),
             ("keys", mask_proc_files),
             ("sockets", lambda: mask_sockets(host_unix_sockets(writable))),
             ("readonly", lambda: read_only_except(writable))]
    for name, step in steps:
        if not config.get(name):
            continue
        try:
            done[name] = step()
        except ConfinementError as exc:
            if config.get("required") and config[name] != "try":
                raise
            done[name] = "failed: " + str(exc)  # the rest still holds; the summary says what did not
    return done


# --------------------------------------------------------------------------- capabilities


def _capabilities():
    """(effective, permitted, bounding) capability masks of this process."""
    caps = {}
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(("CapEff:", "CapPrm:", "CapBnd:")):
                    caps[line[:6]] = int(line.split()[1], 16)
    except (OSError, ValueError):
        pass
    return caps.get("CapEff", 0), caps.get("CapPrm", 0), caps.get("CapBnd", 0)


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def drop_caps():
    """Give up every capability for good (see the module doc). Returns True if there were any."""
    eff, prm, bnd = _capabilities()
    libc = _libc()
    had = bool(eff or prm)
    if not (had or bnd):
        return False
    _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    if had:
        for cap in range(64):
            if bnd & (1 << cap):
                libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)
        libc.prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
        libc.prctl(_PR_SET_SECUREBITS, _SECUREBITS, 0, 0, 0)
        header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
        data = (_CapData * 2)()
        _check(libc.capset(ctypes.byref(header), ctypes.byref(data)), "capset")
    eff, prm, _ = _capabilities()
    if eff or prm:
        raise ConfinementError(errno.EPERM, "capabilities remain after dropping them")
    return had


# --------------------------------------------------------------------------- seccomp

# architecture -> (AUDIT_ARCH, socket, socketcall or None, big endian)
_ARCHS = {
    "x86_64": (0xC000003E, 41, None, False),
    "aarch64": (0xC00000B7, 198, None, False),
    "ppc64le": (0xC0000015, 326, 102, False),
    "s390x": (0x80000016, 359, 102, True),
}
_IO_URING_SETUP = 425
_AF_UNIX, _AF_NETLINK, _NETLINK_ROUTE = 1, 16, 0
# add_key, request_key, keyctl
_KEYRING = {"x86_64": (248, 249, 250), "aarch64": (217, 218, 219), "ppc64le": (269, 270, 271),
            "s390x": (278, 279, 280)}
_RET_ALLOW, _RET_ERRNO = 0x7FFF0000, 0x00050000
# The calls that act on another process by its id (or on a user's or a group's processes) without a signal, which
# Landlock's scoping (ABI 6) does not cover: setpriority(which, who, prio), ioprio_set(which, who, prio) — the
# run's own process only (which 0, who 0: PRIO_PROCESS / IOPRIO_WHO_PROCESS is 1) —, and sched_setparam,
# sched_setscheduler, sched_setaffinity, sched_setattr, prlimit64 (pid first) — pid 0 (itself) only.
# name -> {machine: number}; the numbers are each architecture's own (arch/*/syscall*.tbl)
_OWN_ONLY = {
    "setpriority": {"x86_64": 141, "aarch64": 140, "ppc64le": 97, "s390x": 97},
    "ioprio_set": {"x86_64": 251, "aarch64": 30, "ppc64le": 273, "s390x": 282},
    "sched_setparam": {"x86_64": 142, "aarch64": 118, "ppc64le": 154, "s390x": 154},
    "sched_setscheduler": {"x86_64": 144, "aarch64": 119, "ppc64le": 156, "s390x": 156},
    "sched_setaffinity": {"x86_64": 203, "aarch64": 122, "ppc64le": 222, "s390x": 239},
    "sched_setattr": {"x86_64": 314, "aarch64": 274, "ppc64le": 355, "s390x": 345},
    "prlimit64": {"x86_64": 302, "aarch64": 261, "ppc64le": 325, "s390x": 334},
}
# the arguments that must be these values for the call to be allowed: (index, value)
_OWN_ONLY_ARGS = {"setpriority": ((0, 0), (1, 0)), "ioprio_set": ((0, 1), (1, 0))}


def _bpf(code, jt, jf, k):
    return struct.pack("=HBBI", code, jt, jf, k)


def _native_abi_only(machine):
    """The start of every filter here: a syscall of another ABI (x86's i386 entry, x32) is refused, then the
    syscall number is loaded. The syscall numbers the filters compare are the native ABI's."""
    arch = _ARCHS[machine][0]
    ld_w_abs, jeq, ret = 0x20, 0x15, 0x06
    deny = _RET_ERRNO | errno.EACCES
    prog = [
        _bpf(ld_w_abs, 0, 0, 4),                 # 0: arch
        _bpf(jeq, 1, 0, arch),                   # 1
        _bpf(ret, 0, 0, deny),                   # 2: another ABI (x86's i386 entry): refused
        _bpf(ld_w_abs, 0, 0, 0),                 # 3: syscall number
    ]
    if machine == "x86_64":
        prog.append(_bpf(0x35, 0, 1, 0x40000000))  # jge: the x32 ABI
        prog.append(_bpf(ret, 0, 0, deny))
    return prog


def no_sockets_filter(machine, unix):
    """The BPF program of step 3 for ``machine`` (``os.uname().machine``); None for an unknown one."""
    if machine not in _ARCHS:
        return None
    _, nr_socket, nr_socketcall, big = _ARCHS[machine]
    ld_w_abs, jeq, ret = 0x20, 0x15, 0x06
    deny = _RET_ERRNO | errno.EACCES
    prog = _native_abi_only(machine)
    prog.append(_bpf(jeq, 0, 1, _IO_URING_SETUP))
    prog.append(_bpf(ret, 0, 0, deny))
    if nr_socketcall is not None:                   # the multiplexer: its arguments are behind a pointer
        prog.append(_bpf(jeq, 0, 1, nr_socketcall))
        prog.append(_bpf(ret, 0, 0, deny))
    prog.append(_bpf(jeq, 1, 0, nr_socket))          # socket(): look at the family
    prog.append(_bpf(ret, 0, 0, _RET_ALLOW))
    prog += [
        _bpf(ld_w_abs, 0, 0, 20 if big else 16),    # args[0] (the family), low 32 bits
        _bpf(jeq, 2, 0, _AF_NETLINK),               # -> its protocol
        _bpf(jeq, 4 if unix else 0, 0, _AF_UNIX),   # -> allow when unix sockets are allowed
        _bpf(ret, 0, 0, deny),
        _bpf(ld_w_abs, 0, 0, 36 if big else 32),    # args[2] (the protocol), low 32 bits
        # NETLINK_ROUTE only (getaddrinfo, getifaddrs): it talks to the kernel (sending to another process
        # needs CAP_NET_ADMIN there); NETLINK_USERSOCK and friends can reach a host process
        _bpf(jeq, 1, 0, _NETLINK_ROUTE),
        _bpf(ret, 0, 0, deny),
        _bpf(ret, 0, 0, _RET_ALLOW),
    ]
    return b"".join(prog)


def no_keyring_filter(machine):
    """A BPF program refusing the kernel keyring syscalls (``add_key``, ``request_key``, ``keyctl``: a run
    would read and plant keys in its user's keyrings, which no file permission or Landlock rule covers);
    None for an unknown ``machine``."""
    if machine not in _KEYRING:
        return None
    jeq, ret = 0x15, 0x06
    deny = _RET_ERRNO | errno.EACCES
    prog = _native_abi_only(machine)
    for nr in _KEYRING[machine]:
        prog += [_bpf(jeq, 0, 1, nr), _bpf(ret, 0, 0, deny)]
    prog.append(_bpf(ret, 0, 0, _RET_ALLOW))
    return b"".join(prog)


def own_processes_only_filter(machine):
    """A BPF program letting the scheduling and resource-limit calls of :data:`_OWN_ONLY` act on the calling
    process only (the id 0): without a PID namespace (the fallback) a run could otherwise renice, pin to one CPU,
    lower the I/O priority or the limits of any process of its uid — as root, of every root process, reportkit
    and the user's shells included — which neither Landlock nor capabilities stop (a process may lower its own
    uid's priority without ``CAP_SYS_NICE``). Other ids fail with ``EPERM``; None for an unknown ``machine``."""
    if machine not in _KEYRING:
        return None
    ld_w_abs, jeq, ret = 0x20, 0x15, 0x06
    deny = _RET_ERRNO | errno.EPERM
    big = _ARCHS[machine][3]
    prog = _native_abi_only(machine)
    for name, numbers in _OWN_ONLY.items():
        conditions = _OWN_ONLY_ARGS.get(name, ((0, 0),))
        block = []
        for index, value in conditions:     # the low 32 bits of the argument (pids, ids and `which` are ints)
            block.append(_bpf(ld_w_abs, 0, 0, 16 + 8 * index + (4 if big else 0)))
            block.append(_bpf(jeq, 0, 2 * (len(conditions) - len(block) // 2) - 1, value))  # no: to the deny
        block += [_bpf(ret, 0, 0, _RET_ALLOW), _bpf(ret, 0, 0, deny)]
        prog.append(_bpf(jeq, 0, len(block), numbers[machine]))   # another call: past this block
        prog += block
    prog.append(_bpf(ret, 0, 0, _RET_ALLOW))
    return b"".join(prog)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def no_sockets(unix):
    """Install the filter of step 3. False when this architecture is not known."""
    return _install(no_sockets_filter(os.uname().machine, unix))


def no_keyring():
    """Install :func:`no_keyring_filter`. False when this architecture is not known."""
    return _install(no_keyring_filter(os.uname().machine))


def own_processes_only():
    """Install :func:`own_processes_only_filter`. False when this architecture is not known."""
    return _install(own_processes_only_filter(os.uname().machine))


def _install(program):
    if program is None:
        return False
    buf = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    libc = _libc()
    _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(PR_SET_NO_NEW_PRIVS)")
    _check(libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0), "seccomp filter")
    return True


def _own_user_ns():
    """The inode of this process's user namespace, or None in the initial one (its uid_map maps every id)."""
    try:
        with open("/proc/self/uid_map", encoding="ascii") as fh:
            if fh.read().split() == ["0", "0", "4294967295"]:
                return None
        return os.stat("/proc/self/ns/user").st_ino
    except OSError:
        return None


def counted_tasks():
    """The tasks ``RLIMIT_NPROC`` is checked against for this process: those of its real uid in its user
    namespace (a run's own, in the user namespace bubblewrap or the mount step made for it), or every task of
    the uid in the initial one. Threads count."""
    uid, ns = os.getuid(), _own_user_ns()
    count = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if ns is not None and os.stat(os.path.join("/proc", name, "ns", "user")).st_ino != ns:
                continue
            real = threads = None
            with open(os.path.join("/proc", name, "status"), encoding="ascii", errors="replace") as fh:
                for line in fh:
                    if line.startswith("Uid:"):
                        real = int(line.split()[1])
                    elif line.startswith("Threads:"):
                        threads = int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
        if real == uid and threads:
            count += threads
    return count


def limit_tasks(tasks):
    """``RLIMIT_NPROC`` soft and hard to the tasks counted against it now (:func:`counted_tasks`: in the run's
    own user namespace that is the run alone, never the user's other processes) plus ``tasks``, never above
    the hard limit already there: a fork bomb of a run that is not root stops there
    (:mod:`reportkit.run.pidlimit`); without capabilities it stays."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NPROC)
    value = counted_tasks() + tasks
    value = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(resource.RLIMIT_NPROC, (value, value))
    return value


# --------------------------------------------------------------------------- all together


def apply(config):
    """Apply the steps ``config`` asks for (module doc); return what is in force, for the boot's event."""
    summary = {"caps_dropped": False, "mounts": None, "seccomp": None, "landlock": None}
    writable = [d for d in config.get("writable") or [] if os.path.exists(d)]  # directories, and files
    network = bool(config.get("network", True))
    if isinstance(config.get("mounts"), dict):
        summary["mounts"] = own_mounts(config["mounts"], writable)
    if config.get("nproc"):
        summary["nproc"] = limit_tasks(int(config["nproc"]))
    summary["caps_dropped"] = drop_caps()
    if config.get("seccomp"):
        done = ["no keyring"] if no_keyring() else []
        if own_processes_only():
            done.append("no scheduling of other processes")
        if not network and config["seccomp"] is True:  # "shared" (bubblewrap): its network namespace does it
            unix = bool((summary["mounts"] or {}).get("mount_ns"))
            if no_sockets(unix):
                done.append("no sockets but unix and netlink route" if unix else "no sockets but netlink route")
        summary["seccomp"] = ", ".join(done) or None
    summary["gaps"] = gaps(config, summary)
    version = int(config.get("landlock") or 0)
    if version:
        try:
            summary["landlock"] = landlock.confine(writable, config.get("devices") or [], tcp=network,
                                                   version=min(version, landlock.abi()))
        except (OSError, ValueError) as exc:
            raise ConfinementError(getattr(exc, "errno", None) or errno.EPERM, f"landlock: {exc}") from None
    return summary


_STEPS = {"shm": "a private /dev/shm", "pts": "a /dev/pts of its own", "sockets": "host unix sockets masked",
          "keys": "the kernel's key lists (/proc/keys, /proc/key-users) masked",
          "readonly": "the file system read-only outside the scratch dirs"}


def gaps(config, summary):
    """What ``config`` promised and ``summary`` says is not in force, one phrase each (empty: all of it)."""
    out = []
    asked = config.get("mounts") if isinstance(config.get("mounts"), dict) else {}
    done = summary.get("mounts") or {}
    if asked and not done.get("mount_ns"):
        if asked.get("promised"):
            out.append("a mount namespace of the run's own (" + str(done.get("why") or "not available") + ")")
    else:
        for name, phrase in _STEPS.items():
            result = done.get(name)
            if asked.get(name) is True and isinstance(result, str) and result.startswith("failed: "):
                out.append(phrase + " (" + result[len("failed: "):] + ")")
    if config.get("seccomp"):
        filters = summary.get("seccomp") or ""
        if "no keyring" not in filters:
            out.append("the kernel keyring filter (seccomp: this architecture is not known)")
        if "no scheduling" not in filters:
            out.append("the scheduling filter (seccomp: this architecture is not known): other processes of the "
                       "user can be reniced and pinned")
        if not config.get("network", True) and config["seccomp"] is True and "no sockets" not in filters:
            out.append("the socket filter (seccomp: this architecture is not known): UDP and raw sockets open")
    return out


def from_env(environ=None):
    """The configuration in ``REPORTKIT_CONFINE`` (removed from the environment), or None."""
    environ = os.environ if environ is None else environ
    value = environ.pop(CONFINE_ENV, None)
    if not value:
        return None
    return json.loads(value)


if __name__ == "__main__":  # pragma: no cover - a manual check: python _confine.py '{"landlock": 7, ...}'
    print(json.dumps(apply(json.loads(sys.argv[1]))))
