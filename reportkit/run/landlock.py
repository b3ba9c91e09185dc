"""Landlock (the Linux security module any process may use on itself): a small ctypes layer.

A process that calls :func:`restrict` can, from then on — it and every process it starts, native code
included, and no way back — only do what its ruleset allows among the rights the ruleset *handles*:

* **file system** (ABI >= 1): the write-type rights (:data:`WRITE_RIGHTS`: write to, truncate, create,
  remove, rename or link files, ``ioctl`` on devices) only beneath the paths given to :meth:`Ruleset.allow`;
  reading and executing are not handled, so they stay as they were;
* **network** (ABI >= 4): with ``tcp=False`` no TCP ``bind``/``connect`` at all (UDP and other
  protocols are not covered by Landlock);
* **scopes** (ABI >= 6): no signal to a process outside the domain (``kill`` of reportkit or of anything
  else outside the run) and no connection to an abstract unix socket created outside it.

The kernel's ABI version says which of these exist (:func:`abi`); a right the running kernel lacks is
dropped from the request (best effort, as the kernel documentation describes), and :meth:`Ruleset.handled`
says what is in force. Landlock does not mediate ``connect()`` to a *pathname* unix socket (ABI <= 7):
see :mod:`reportkit.run._confine` for what reportkit does about those.

Why not a binding from PyPI: this module also runs inside the *target* interpreter (loaded by path by
:mod:`reportkit.run._boot`, like the boot itself), which has only the standard library; the maintained
bindings are not there. So: standard library only, Python 3.8+.
"""

import ctypes
import errno
import os
import sys

# syscall numbers: the same on every architecture (allocated after the tables were unified)
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH, _RULE_NET_PORT = 1, 2
_PR_SET_NO_NEW_PRIVS = 38

ACCESS_FS = {
    "EXECUTE": 1 << 0, "WRITE_FILE": 1 << 1, "READ_FILE": 1 << 2, "READ_DIR": 1 << 3,
    "REMOVE_DIR": 1 << 4, "REMOVE_FILE": 1 << 5, "MAKE_CHAR": 1 << 6, "MAKE_DIR": 1 << 7,
    "MAKE_REG": 1 << 8, "MAKE_SOCK": 1 << 9, "MAKE_FIFO": 1 << 10, "MAKE_BLOCK": 1 << 11,
    "MAKE_SYM": 1 << 12, "REFER": 1 << 13, "TRUNCATE": 1 << 14, "IOCTL_DEV": 1 << 15,
}
# the ABI that introduced each right (the others: 1)
_FS_SINCE = {"REFER": 2, "TRUNCATE": 3, "IOCTL_DEV": 5}
ACCESS_NET = {"BIND_TCP": 1 << 0, "CONNECT_TCP": 1 << 1}  # ABI >= 4
SCOPE = {"ABSTRACT_UNIX_SOCKET": 1 << 0, "SIGNAL": 1 << 1}  # ABI >= 6

WRITE_RIGHTS = 0
for _name in ("WRITE_FILE", "REMOVE_DIR", "REMOVE_FILE", "MAKE_CHAR", "MAKE_DIR", "MAKE_REG", "MAKE_SOCK",
              "MAKE_FIFO", "MAKE_BLOCK", "MAKE_SYM", "REFER", "TRUNCATE", "IOCTL_DEV"):
    WRITE_RIGHTS |= ACCESS_FS[_name]
# the rights a rule on a file (not a directory) may carry
FILE_RIGHTS = (ACCESS_FS["EXECUTE"] | ACCESS_FS["WRITE_FILE"] | ACCESS_FS["READ_FILE"] | ACCESS_FS["TRUNCATE"]
               | ACCESS_FS["IOCTL_DEV"])
ALL_SCOPES = SCOPE["ABSTRACT_UNIX_SOCKET"] | SCOPE["SIGNAL"]


class LandlockError(OSError):
    """A Landlock call failed (``errno`` says why)."""


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64), ("handled_access_net", ctypes.c_uint64),
                ("scoped", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


_LIBC = []


def _libc():
    if not _LIBC:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        _LIBC.append(libc)
    return _LIBC[0]


def _syscall(number, *args):
    result = _libc().syscall(ctypes.c_long(number), *args)
    if result < 0:
        err = ctypes.get_errno()
        raise LandlockError(err, os.strerror(err))
    return result


def abi():
    """The Landlock ABI version of the running kernel; 0 when Landlock is not there (not Linux, a kernel
    without it, or Landlock disabled at boot)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        return int(_syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION)))
    except (LandlockError, OSError, AttributeError):
        return 0


def fs_rights(version, wanted=WRITE_RIGHTS):
    """``wanted`` without the file-system rights that ABI ``version`` does not know."""
    for name, since in _FS_SINCE.items():
        if version < since:
            wanted &= ~ACCESS_FS[name]
    return wanted


class Ruleset:
    """A ruleset being built: :meth:`allow` paths, then :meth:`restrict` the calling thread (before any
    other thread is started: Landlock restricts the calling thread and what it starts afterwards).

    ``fs``: the file-system rights handled (denied unless allowed beneath a path), cut to the ABI;
    ``tcp``: False handles TCP bind/connect with no port allowed (ABI >= 4; ignored below);
    ``scoped``: signals and abstract unix sockets confined to the domain (ABI >= 6; ignored below).
    """

    def __init__(self, version=None, fs=WRITE_RIGHTS, tcp=True, scoped=True):
        self.abi = abi() if version is None else version
        if self.abi < 1:
            raise LandlockError(errno.EOPNOTSUPP, "Landlock is not available on this kernel")
        self.fs = fs_rights(self.abi, fs)
        self.net = ACCESS_NET["BIND_TCP"] | ACCESS_NET["CONNECT_TCP"] if (not tcp and self.abi >= 4) else 0
        self.scoped = ALL_SCOPES if (scoped and self.abi >= 6) else 0
        attr = _RulesetAttr(self.fs, self.net, self.scoped)
        self.fd = int(_syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(ctypes.sizeof(attr)),
                               ctypes.c_uint32(0)))
        self.allowed = []  # (path, rights) actually added

    def handled(self):
        """What this ruleset confines: {"fs": names, "net": names, "scoped": names, "abi": N}."""
        def names(table, bits):
            return [name for name, bit in table.items() if bits & bit]
        return {"abi": self.abi, "fs": names(ACCESS_FS, self.fs), "net": names(ACCESS_NET, self.net),
                "scoped": names(SCOPE, self.scoped)}

    def allow(self, path, access=None):
        """Allow ``access`` (default: every handled right) beneath ``path`` (a directory: everything in it;
        a file: that file, with only the rights a file can carry). Returns False if the path does not exist."""
        try:
            fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            return False
        try:
            rights = self.fs if access is None else access & self.fs
            if not os.path.isdir(f"/proc/self/fd/{fd}"):
                rights &= FILE_RIGHTS
            if not rights:
                return False
            attr = _PathBeneathAttr(rights, fd)
            _syscall(_SYS_ADD_RULE, ctypes.c_int(self.fd), ctypes.c_int(_RULE_PATH_BENEATH), ctypes.byref(attr),
                     ctypes.c_uint32(0))
            self.allowed.append((path, rights))
            return True
        finally:
            os.close(fd)

    def restrict(self):
        """Enforce the ruleset on the calling thread and everything it starts from now on; close it."""
        try:
            if _libc().prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                err = ctypes.get_errno()
                raise LandlockError(err, "prctl(PR_SET_NO_NEW_PRIVS): " + os.strerror(err))
            _syscall(_SYS_RESTRICT_SELF, ctypes.c_int(self.fd), ctypes.c_uint32(0))
        finally:
            self.close()

    def close(self):
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def confine(writable=(), files=(), tcp=True, scoped=True, version=None):
    """Restrict the calling thread: writes only beneath ``writable`` (directories) and to ``files`` (with
    ioctl: device nodes), no TCP when ``tcp`` is False, signals/abstract sockets scoped. Returns
    :meth:`Ruleset.handled` with the paths allowed. Raises :class:`LandlockError` when it cannot be done."""
    ruleset = Ruleset(version, tcp=tcp, scoped=scoped)
    try:
        for path in writable:
            ruleset.allow(path)
        for path in files:
            ruleset.allow(path, ACCESS_FS["WRITE_FILE"] | ACCESS_FS["TRUNCATE"] | ACCESS_FS["IOCTL_DEV"])
        summary = ruleset.handled()
        summary["allowed"] = [path for path, _ in ruleset.allowed]
    except BaseException:
        ruleset.close()
        raise
    ruleset.restrict()
    return summary
