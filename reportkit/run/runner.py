"""Stage 1, *run*: execute a target script in its own process, sandboxed, and observe how it ends.

The script runs under :mod:`reportkit.run._boot` in the user's interpreter (``--python``), in a fresh
scratch directory (a copy of the script's directory, or of the script alone), in a new session so
that the whole process group can be killed on timeout. What comes back is a :class:`RunResult`:
exit code or signal, bounded stdout/stderr, wall time, the uncaught exception exactly as the boot
recorded it, and on a hang the stacks of all threads dumped by faulthandler just before the kill.

A target may also be a pytest test (``tests/test_x.py::test_y``): the boot then runs that node with
pytest in-process and re-raises the test's own failure, from a mirror of the test's rootdir.
"""

from __future__ import annotations

import functools
import json
import linecache
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, Mapping

import psutil

from reportkit.errors import UserError
from reportkit.io import (
    RUN_FILE_LIMIT,
    TEMP_PATTERN,
    NotRegular,
    open_regular,
    read_run_text,
    readable_by_runs,
    remove_tree,
    scrub_tree,
)
from reportkit.redact import remember_code
from reportkit.run import sandbox as protect
from reportkit.run.spec import PYTEST_NODE_ENV, ExceptionInfo, Frame, RunResult, RunSpec, ThreadStack

BOOT_FILE = Path(__file__).with_name("_boot.py")
BACKEND_BOOT_FILE = Path(__file__).with_name("_backend_boot.py")
WARM_FILE = Path(__file__).with_name("_warm.py")  # the warm executor's fork server
PROBE_FILE = Path(__file__).with_name("_env_probe.py")  # the environment probe (collect, Ray admission)
# What a scratch copy of the script's directory may hold before we ask for --isolate-file.
COPY_MAX_FILES = 2000
COPY_MAX_BYTES = 200 * 1024 * 1024
COPY_IGNORE = (".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache",
               ".pytest_cache", ".ruff_cache", "torch_compile_debug", "*.pyc", TEMP_PATTERN,
               # reportkit's own scratch (a script in $TMPDIR, or below it: the copy held the copy, and on till
               # "File name too long")
               protect.SESSION_PREFIX + "*")
_IGNORED = shutil.ignore_patterns(*COPY_IGNORE)  # (the size check, the copy and the pytest mirror: one filter)
# Defaults that make a failing run easier to read without changing what it computes.
BASE_ENV = {"PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}
# Environment variables the compile caches are configured by (a private cache per minimize run).
CACHE_ENV_VARS = ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")
# Where torch and its compilers write caches and debug output, when a shell sets them (a user's export of
# TORCHINDUCTOR_CACHE_DIR): inherited, they would send a run's writes into a directory the sandbox keeps
# read-only — the failure would become the sandbox's refusal, and a run would read what the user's cache
# holds. Runs get the defaults instead (under their private $TMPDIR and scratch $HOME); ``--env`` still sets them.
INHERITED_WRITE_DIRS = (*CACHE_ENV_VARS, "TRITON_HOME", "TRITON_DUMP_DIR", "TORCH_EXTENSIONS_DIR",
                        "PYTORCH_KERNEL_CACHE_PATH", "CUDA_CACHE_PATH", "TORCH_COMPILE_DEBUG_DIR",
                        "TORCHINDUCTOR_DEBUG_DIR")

# Processes started by run_script and not yet reaped (several at once with parallel candidates).
_ACTIVE: dict[subprocess.Popen, bool] = {}  # runs in progress -> led by a keeper (_boot._keep: the fallback)
_ACTIVE_LOCK = threading.Lock()


# files that make pytest's rootdir; the nearest directory holding one is the root of a pytest target
PYTEST_ROOT_MARKERS = ("pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "setup.py")


def split_target(text: str) -> tuple[Path, str | None]:
    """``tests/test_x.py::TestA::test_b[p]`` -> (path, ``TestA::test_b[p]``); a plain path -> (path, None)."""
    if "::" in text:
        path, node = text.split("::", 1)
        if not node or not path.endswith(".py"):
            raise UserError(f"{text!r} is not a pytest node id (expected path/to/test_file.py::test_name)")
        return Path(path), node
    return Path(text), None


def pytest_root(test_file: Path, repo_root: Path | None = None) -> Path:
    """The directory pytest would take as rootdir for ``test_file``: the nearest ancestor with an ini
    file (or setup.py), ``repo_root``, or a git checkout's top, whichever comes first going up; else
    the file's directory."""
    start = test_file.resolve().parent
    for directory in (start, *start.parents):
        if any((directory / marker).is_file() for marker in PYTEST_ROOT_MARKERS):
            return directory
        if repo_root is not None and directory == repo_root.resolve():
            return directory
        if (directory / ".git").exists():
            return directory
    return start


# --------------------------------------------------------------------------- input validation


def read_script(path: Path) -> str:
    """Return the script's text, or raise :class:`UserError` with one clear message."""
    if not path.exists():
        raise UserError(f"no such file: {path}")
    if path.is_dir():
        raise UserError(f"{path} is a directory; give the path of a Python script")
    if not readable_by_runs(path):  # (as root: a link a project ships to another user's private file)
        raise UserError(f"{path} is, or links to, a file the sandboxed runs could not read (another user's, or behind a "
                        "directory only they may enter); reportkit does not read it for them")
    try:
        with open_regular(path, follow=True) as fh:  # (a FIFO or a device: refused, not waited on)
            data = fh.read(RUN_FILE_LIMIT)
    except OSError as exc:
        raise UserError(f"{path} is not a readable Python script ({exc.strerror or exc})") from None
    if b"\x00" in data[:65536]:
        raise UserError(f"{path} is a binary file, not a Python script")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(
            f"{path} is not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r}); "
            "re-encode it as UTF-8") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        compile(text, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        where = f"line {exc.lineno}" + (f", column {exc.offset}" if exc.offset else "")
        raise UserError(f"{path} has a syntax error at {where}: {exc.msg}") from None
    except ValueError as exc:  # e.g. source with NUL bytes further in
        raise UserError(f"{path} cannot be compiled: {exc}") from None
    return text


_PY_VERSION_CACHE: dict[str, tuple[int, int]] = {}


def resolve_python(python: str) -> str:
    """Resolve ``--python`` to an absolute path of a usable Python >= 3.8 interpreter."""
    found = shutil.which(python) if os.sep not in python else (python if os.access(python, os.X_OK) else None)
    if not found or os.path.isdir(found):
        raise UserError(f"Python interpreter not found: {python}")
    found = os.path.abspath(found)
    if found not in _PY_VERSION_CACHE:
        try:
            # (-I -S: the version is asked outside any sandbox, so no site, no .pth, no PYTHON* variable acts: a
            # user-site .pth of another HOME under sudo -E ran as root here, round 10 of sandbox attacks)
            out = subprocess.run([found, "-I", "-S", "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=60)
            major, minor = (int(x) for x in out.stdout.split())
        except (OSError, ValueError, subprocess.SubprocessError):
            raise UserError(f"{python} does not run as a Python interpreter") from None
        if (major, minor) < (3, 8):
            raise UserError(f"{python} is Python {major}.{minor}; reportkit needs Python 3.8 or newer")
        _PY_VERSION_CACHE[found] = (major, minor)
    return found


def target_spec(target: str, args: list[str], *, python: str | None = None, timeout: float = 300.0,
                isolate_file: bool = False, env: dict[str, str | None] | None = None,
                repo_root: Path | None = None, pytest_module: bool = False) -> tuple[RunSpec, str]:
    """Validate a target and build its :class:`RunSpec`; return it with the script's source.

    A pytest node id runs that test with pytest (in the target interpreter, from a mirror of the
    test's rootdir, so conftest.py files and the ini file apply); its failure is the test's.
    ``pytest_module``: run the whole module (a plain path) with pytest (a module that fails to import).
    """
    path, node = split_target(target)
    if pytest_module and node is None:
        node = ""
    source = read_script(path)
    # literals the script binds to secret names are known values of the redaction edge wherever they travel
    # (a failing test's message echoes them in ci's issue.md, not only in the reproducer)
    remember_code(source)
    env = dict(env or {})
    root = None
    if node is not None:
        if isolate_file:
            raise UserError("--isolate-file does not apply to a pytest test (its conftest.py files are needed)")
        env[PYTEST_NODE_ENV] = node
        root = pytest_root(path, repo_root)
    spec = RunSpec(script=path.resolve(), args=args, python=resolve_python(python or sys.executable),
                   timeout=timeout, isolate_file=isolate_file, env=env, root=root)
    return spec, source


# --------------------------------------------------------------------------- sandbox

_SESSION: dict[str, Path] = {}
_SESSION_LOCK = threading.Lock()


def session_root() -> Path:
    """The directory every scratch dir of this process lives in (made on first use, removed at exit):
    a warm server's sandbox binds it writable once, for all the runs it will serve. Its ``owner`` file says
    which process made it, so that a later reportkit removes it if that process was killed (SIGKILL, the OOM
    killer: no exit handler ran) and left it, with its copies of the project, behind."""
    with _SESSION_LOCK:
        root = _SESSION.get("root")
        if root is None or not root.is_dir():
            import atexit

            root = Path(tempfile.mkdtemp(prefix=protect.SESSION_PREFIX))
            _SESSION["root"] = root
            atexit.register(remove_tree, root)
            if protect.make_alias(root) is not None:  # (a long $TMPDIR: runs' sockets would not fit under it)
                atexit.register(protect.drop_alias, root)
            claim(root)
            remove_stale_sessions(root.parent, keep=root)
        return root


_OWNER_FILE = "owner"
# a bundle's workspace (reportkit.report.collect.Workspace): beside the session, with an owner file of its own, so that
# what a killed bundle collected (logs, compiler artifacts, not yet redacted) goes as a killed session does
WORKSPACE_PREFIX = "reportkit-workspace-"  # (not reportkit-bundle-: the name of `bundle`'s default output dir)


def claim(path: Path) -> None:
    """Write ``path``'s owner file: this process, so that a later reportkit removes ``path`` once it is gone."""
    owner = _process_identity(os.getpid())
    if owner is not None:
        (path / _OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")


def _process_identity(pid: int) -> dict | None:
    """What tells process ``pid`` from a later one of the same number: its start time (clock ticks after boot), the
    boot, and the PID namespace the number is in. None where /proc does not say (not Linux)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            start = int(fh.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as fh:
            boot = fh.read().strip()
        return {"pid": pid, "start": start, "boot": boot, "pidns": os.readlink("/proc/self/ns/pid")}
    except (OSError, ValueError, IndexError):
        return None


def remove_stale_sessions(temp_dir: Path, keep: Path | None = None, mine: dict | None = None) -> list[Path]:
    """Remove this user's session dirs in ``temp_dir`` whose reportkit is gone (its ``owner`` names a process of
    this boot and PID namespace that no longer runs, or another boot). A dir without a readable ``owner`` (being
    made now, or by an older reportkit), in another PID namespace (a container sharing ``/tmp``), of another user
    or not ``0700`` stays. ``mine``: this process's identity, if the caller has it. Returns what was removed."""
    mine = mine or _process_identity(os.getpid())
    if mine is None:
        return []
    removed = []
    for path in [*temp_dir.glob(protect.SESSION_PREFIX + "*"), *temp_dir.glob(WORKSPACE_PREFIX + "*")]:
        try:
            st = os.lstat(path)
            if path == keep or st.st_uid != os.geteuid() or not stat.S_ISDIR(st.st_mode) or \
                    stat.S_IMODE(st.st_mode) != 0o700:
                continue
            with open_regular(path / _OWNER_FILE) as fh:  # (never a FIFO's wait, never through a link)
                owner = json.loads(fh.read(4096))
            stale = owner["boot"] != mine["boot"] or (owner["pidns"] == mine["pidns"]
                                                      and _process_identity(int(owner["pid"])) != owner)
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if stale:
            removed.append(path)
    if removed:
        kill_left_in(removed)
    for path in removed:
        remove_tree(path)
    protect.remove_dead_aliases(temp_dir)
    return removed


def kill_left_in(sessions: list[Path]) -> list[int]:
    """Kill this user's processes whose command line names a path in one of ``sessions`` (dirs of reportkits that
    are gone): what a killed reportkit's runs left. bubblewrap's sandbox init binds its life to its parent's only
    once the parent has set it up (containers/bubblewrap#633): a reportkit killed in that moment takes the outer
    bwrap with it and leaves the init waiting for it for ever (ppid 1, no command started yet). Returns the pids."""
    prefixes = tuple(str(path) + os.sep for path in sessions)
    names = {str(path) for path in sessions}
    killed = []
    for proc in psutil.process_iter(["uids", "cmdline"]):
        try:
            if proc.pid == os.getpid() or proc.info["uids"] is None or proc.info["uids"].real != os.getuid():
                continue
            if any(arg in names or arg.startswith(prefixes) for arg in proc.info["cmdline"] or ()):
                proc.kill()
                killed.append(proc.pid)
        except (psutil.Error, OSError):
            continue
    if killed:
        psutil.wait_procs([p for p in map(_process_or_none, killed) if p is not None], timeout=5)
    return killed


def _process_or_none(pid: int) -> psutil.Process | None:
    try:
        return psutil.Process(pid)
    except psutil.Error:
        return None


class Sandbox:
    """Makes fresh scratch directories holding a copy of the script's directory (or the script).

    With ``mirror_root`` (pytest targets: the rootdir) the scratch directory mirrors that root instead,
    with the script's directory copied at its place inside it (see ``__init__``).
    """

    def __init__(self, script: Path, isolate_file: bool = False, mirror_root: Path | None = None) -> None:
        # (resolved once, by the caller's spec: resolving it again for each run would follow a link put at the
        # script's name since, into a file the runs could not read, and copy it for them with reportkit's rights)
        self.script = Path(os.path.abspath(script))
        self._check_place()
        self.isolate_file = isolate_file
        # with a mirror root above the script's directory, the run's working directory mirrors it:
        # the path down to the script's directory is made of real directories whose other entries
        # are symlinks to the originals (read in place, never copied); the script's directory is copied
        self.mirror_root = mirror_root.resolve() if mirror_root is not None else None
        if self.mirror_root == self.script.parent or (
                self.mirror_root is not None and self.mirror_root not in self.script.parents):
            self.mirror_root = None
        self.root = Path(tempfile.mkdtemp(prefix="reportkit-", dir=session_root()))
        if not isolate_file:
            self._check_copy_size(self.script.parent)

    def _check_copy_size(self, directory: Path) -> None:
        files = 0
        size = 0
        for dirpath, dirnames, filenames in os.walk(directory):
            ignored = _IGNORED(dirpath, dirnames + filenames)
            dirnames[:] = [d for d in dirnames if d not in ignored]
            for name in filenames:
                if name in ignored:
                    continue
                files += 1
                try:
                    size += os.lstat(os.path.join(dirpath, name)).st_size
                except OSError:
                    pass
                if files > COPY_MAX_FILES or size > COPY_MAX_BYTES:
                    raise UserError(
                        f"the script's directory {directory} is too large to copy for every run "
                        f"(more than {COPY_MAX_FILES} files or {COPY_MAX_BYTES // 2**20} MiB); "
                        "move the script to its own directory or pass --isolate-file")

    def _check_place(self) -> None:
        """The script and its directory are still what the runs may read (as root: what the permission bits let a
        capability-less root read): a script or directory swapped for a link to another user's private file since
        reportkit read it is refused, not copied for the runs with reportkit's rights."""
        try:
            parent = os.lstat(self.script.parent)
        except OSError as exc:
            raise UserError(f"{self.script.parent} is gone ({exc.strerror or exc}); reportkit stopped") from None
        if stat.S_ISLNK(parent.st_mode) or (os.path.lexists(self.script) and not readable_by_runs(self.script)):
            raise UserError(f"{self.script} changed while reportkit ran: it, or its directory, is now a link (or a file "
                            "the sandboxed runs could not read); reportkit does not read it for them")

    def make(self, source: str | None = None) -> tuple[Path, Path]:
        """Create a scratch dir; return (workdir, script path inside it)."""
        self._check_place()
        run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=self.root))
        work = run_dir / "work"
        script_dir = self._mirror(work) if self.mirror_root is not None else work
        if self.isolate_file:
            script_dir.mkdir()
            _copy_if_present(str(self.script), str(script_dir / self.script.name), [COPY_MAX_BYTES], self.script.parent)
        else:
            budget = [COPY_MAX_BYTES]  # (bytes left: a file that grows after the size check is not copied on)

            def copy(src: str, dst: str) -> None:
                if _runs_may_read(src):
                    _copy_if_present(src, dst, budget, self.script.parent)

            try:
                shutil.copytree(self.script.parent, script_dir, symlinks=True, ignore=_copy_ignore,
                                copy_function=copy)
            except shutil.Error as exc:
                _copy_errors(exc, self.script.parent)
        target = script_dir / self.script.name
        if source is not None:  # (never through a link the copy kept at the script's name: a new file in its place)
            target.unlink(missing_ok=True)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(source)
        (run_dir / "meta").mkdir()
        return work, target

    def _mirror(self, work: Path) -> Path:
        """Build the mirror of ``mirror_root`` down to (not including) the script's directory."""
        assert self.mirror_root is not None
        real, copy = self.mirror_root, work
        copy.mkdir()
        for part in self.script.parent.relative_to(self.mirror_root).parts:
            names = os.listdir(real)
            skipped = _IGNORED(str(real), names)
            for name in names:
                if name != part and name not in skipped:
                    _mirror_entry(real / name, copy / name)
            real, copy = real / part, copy / part
            if real != self.script.parent:
                copy.mkdir()
        return copy

    def cleanup(self) -> None:
        remove_tree(self.root)


def _copy_errors(exc: shutil.Error, directory: Path) -> None:
    """copytree's errors: what vanished since its directory was listed (another command's temporary output in the
    same directory, a bundle's ``.partial-`` staging dir) is not there to copy, as for a file; anything else is one
    clear error."""
    errors = exc.args[0] if exc.args and isinstance(exc.args[0], list) else [exc]
    left = [e for e in errors if not (isinstance(e, tuple) and len(e) == 3 and not os.path.lexists(e[0]))]
    if left:
        first = left[0]
        raise UserError(f"cannot copy the script's directory {directory} for its runs "
                        f"({first[-1] if isinstance(first, tuple) else first}); move the script to its own "
                        "directory or pass --isolate-file") from None


def _runs_may_read(path: str, search: bool = False) -> bool:
    """Whether the runs could read ``path`` where it is (and search it, a directory): what they may not read there
    (another user's private file or directory beside the script) is not copied for them with reportkit's rights,
    as root neither (round 17 of sandbox attacks: a 0600 file of another user reached the failure's message)."""
    return readable_by_runs(path) and os.access(path, os.R_OK | (os.X_OK if search else 0))


def _copy_ignore(directory: str, names: list[str]) -> set[str]:
    """copytree's ignore: :data:`COPY_IGNORE`, and the directories the runs could not read where they are."""
    ignored = set(_IGNORED(directory, names))
    for name in names:
        path = os.path.join(directory, name)
        if name not in ignored and os.path.isdir(path) and not os.path.islink(path) \
                and not _runs_may_read(path, search=True):
            ignored.add(name)
    return ignored


def _copy_if_present(src: str, dst: str, budget: list[int], directory: Path) -> None:
    """copytree's copy of one file, skipping one that vanished since the directory was listed (another
    run's output replaced or removed meanwhile) and one that is not a regular file (a named pipe, a socket, a
    device node: nothing to copy, and opening a pipe would wait for a writer); the script itself is written or
    checked after the copy. At most ``budget[0]`` bytes in all (the size check's limit): a file that grows while it
    is copied — a sparse file extended to gigabytes behind the check — stops the copy (round 10 of sandbox attacks:
    1 GiB copied, and more per run, of a file that had passed the check)."""
    try:
        with open_regular(src) as fi, open(dst, "wb") as fo:
            while True:
                chunk = fi.read(min(1 << 20, budget[0] + 1))
                if not chunk:
                    break
                budget[0] -= len(chunk)
                if budget[0] < 0:
                    raise UserError(f"the script's directory {directory} grew past {COPY_MAX_BYTES // 2**20} MiB while "
                                    "it was copied for a run; move the script to its own directory or pass --isolate-file")
                fo.write(chunk)
            fo.flush()
            st = os.fstat(fi.fileno())  # the mode and times of the file copied, not of what the name points to now
            os.fchmod(fo.fileno(), stat.S_IMODE(st.st_mode))
            os.utime(fo.fileno(), ns=(st.st_atime_ns, st.st_mtime_ns))
    except NotRegular:
        return
    except FileNotFoundError:
        if os.path.lexists(src):
            raise


MIRROR_COPY_MAX = 1024 * 1024  # files up to this size in a pytest mirror are copied, larger ones linked


def _mirror_entry(real: Path, copy: Path) -> None:
    """One entry of a pytest rootdir mirror: small regular files are copied (a test that writes to or
    deletes them changes the copy); directories and large files are symlinks, which the sandbox keeps
    read-only (bubblewrap: the whole file system but the scratch dir is mounted read-only; fallback:
    the guard resolves links before it allows a write)."""
    try:
        st = os.lstat(real)
    except OSError:
        return
    import stat

    if stat.S_ISREG(st.st_mode) and st.st_size <= MIRROR_COPY_MAX:
        if _runs_may_read(str(real)):  # (a file the runs may not read in place is not copied for them either)
            _copy_if_present(str(real), str(copy), [MIRROR_COPY_MAX], real.parent)  # (never through a link swapped in since)
    else:
        os.symlink(real, copy)


# --------------------------------------------------------------------------- running


KEEP_ENV_VAR = "REPORTKIT_KEEP_ENV"  # comma-separated names of secret-bearing variables the runs keep
_KEEP: set[str] = set()  # --keep-env NAME, for every run of this process


def keep_env(names) -> None:
    """Pass these variables (by name) to every run of this process although they hold secrets (replaces
    what an earlier call kept: one command, one list)."""
    _KEEP.clear()
    _KEEP.update(names)


def kept_names() -> frozenset[str]:
    """The names kept: ``--keep-env`` and ``$REPORTKIT_KEEP_ENV``."""
    extra = (n.strip() for n in os.environ.get(KEEP_ENV_VAR, "").split(","))
    return frozenset(_KEEP.union(n for n in extra if n))


@functools.lru_cache(maxsize=4096)
def _secret_bearing(name: str, value: str) -> bool:
    from reportkit.redact import is_secret_env

    return is_secret_env(name, value)


def withheld_env(overrides: Mapping[str, str | None], keep=None, base: Mapping[str, str] | None = None) -> list[str]:
    """Names of the variables of ``base`` (default: this process's environment) the runs do not see: those
    that hold a secret (:func:`reportkit.redact.is_secret_env`: by name, a URL with userinfo, a credential by
    value), unless kept by name (``keep``, default :func:`kept_names`) or set by the run itself (``--env``)."""
    env = os.environ if base is None else base
    keep = kept_names() if keep is None else frozenset(keep)
    return sorted(name for name, value in env.items()
                  if name not in keep and name not in overrides and _secret_bearing(name, value))


def build_env(overrides: Mapping[str, str | None], base: Mapping[str, str] | None = None, *,
              keep=None, scrub: bool = True) -> dict[str, str]:
    """The environment of a run: ``base`` (default: this process's) without its secret-bearing variables
    (:func:`withheld_env`; ``scrub=False`` keeps them: for the redactor, which must know their values) and
    the cache and debug locations it sets (:data:`INHERITED_WRITE_DIRS`), with the readability defaults and the
    run's own ``overrides`` (None unsets)."""
    env = dict(os.environ if base is None else base)
    if scrub:
        for name in withheld_env(overrides, keep, env):
            del env[name]
        for name in INHERITED_WRITE_DIRS:
            env.pop(name, None)
    env.update(BASE_ENV)
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def run_script(spec: RunSpec, source: str | None = None, sandbox: Sandbox | None = None) -> RunResult:
    """Run the script (or ``source`` in its place) once, in a fresh scratch dir."""
    own_sandbox = sandbox is None
    box = sandbox or Sandbox(spec.script, spec.isolate_file, spec.root)
    try:
        work, target = box.make(source)
        meta = work.parent / "meta"
        result = _run_in(spec, work, target, meta)
        if not spec.keep_workdir:
            remove_tree(work.parent)
        else:  # read after the run: what it left is read as it wrote it (io.scrub_tree)
            scrub_tree(work.parent)
        return result
    finally:
        if own_sandbox and not spec.keep_workdir:
            box.cleanup()


def meta_paths(meta: Path) -> dict[str, Path]:
    """The files a run writes into its ``meta`` dir (shared by every executor)."""
    return {"events": meta / "events.jsonl", "dump": meta / "stacks.txt", "children": meta / "children.json",
            "stdout": meta / "stdout.txt", "stderr": meta / "stderr.txt"}


# variables whose code runs when the interpreter starts, before the run could confine itself: the dynamic
# loader's (LD_PRELOAD, LD_AUDIT, LD_LIBRARY_PATH) and a path Python imports from at start (a sitecustomize, a
# module of the standard library's name)
_START_UP = ("PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "PYTHONSTARTUP", "PYTHONPLATLIBDIR")


def start_up_code(given: Mapping[str, str | None], prot: protect.Protection) -> str:
    """The variable the user gave (``--env``; what reportkit inherited, it runs with itself) that would run code
    in a warm server before anything confines it, or "": the loader's (``LD_*``, in the ``bwrap`` process
    itself), and without bubblewrap a ``PYTHON*`` path (the server is confined by bubblewrap only)."""
    if prot.mode == "none":
        return ""
    names = sorted(k for k, v in given.items() if v is not None and k.startswith("LD_"))
    if prot.mode != "bubblewrap":
        names += [k for k in _START_UP if given.get(k)]
    return names[0] if names else ""


def staged(cmd: list[str], env: dict[str, str], prot: protect.Protection,
           given: Mapping[str, str | None]) -> tuple[list[str], dict[str, str]]:
    """``cmd`` (``PYTHON BOOT ...``) and ``env`` for a run given start-up code (``given``, the ``--env``
    variables: ``LD_PRELOAD``, a ``PYTHONPATH`` with a ``sitecustomize``): the interpreter starts isolated
    (``-I -S``) with the loader's variables set aside, and ``_boot.confine_and_exec`` sets them again once the
    process is confined. Unchanged without such a variable or without a sandbox."""
    if prot.mode == "none" or not any(v is not None and (k.startswith("LD_") or k in _START_UP)
                                      for k, v in given.items()):
        return cmd, env
    return two_stage(cmd, env)


def two_stage(cmd: list[str], env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """``cmd`` (``PYTHON FILE ...``) started isolated (``-I -S``) with the loader's variables (``LD_*``) set aside
    in ``REPORTKIT_START_ENV``, for a first stage that confines the process and starts it again with them. ``-B``:
    the first stage imports reportkit's confinement code before it is confined, and ``-I`` ignores the
    ``PYTHONDONTWRITEBYTECODE`` every run has: it would write ``__pycache__`` into reportkit's installation."""
    loader = {k: v for k, v in env.items() if k.startswith("LD_")}
    env = {k: v for k, v in env.items() if k not in loader}
    env["REPORTKIT_START_ENV"] = json.dumps(loader)
    return [cmd[0], "-I", "-S", "-B", *cmd[1:]], env


def _run_in(spec: RunSpec, work: Path, target: Path, meta: Path) -> RunResult:
    paths = meta_paths(meta)
    boot = [str(spec.boot_wrapper), str(BOOT_FILE)] if spec.boot_wrapper else [str(BOOT_FILE)]
    prot = protect.protection()
    cmd, base_env = staged([spec.python, *boot, str(paths["events"]), str(paths["dump"]), str(target), *spec.args],
                           build_env(spec.env), prot, spec.env)
    from reportkit.run.hangwatch import sample_env

    for attempt in range(protect.BWRAP_SETUP_TRIES):
        # the sandbox: the run's own directory (and the scratch dirs reportkit hands it) writable, the rest not
        wrapped, env = protect.wrap(cmd, base_env, writable=[work.parent], scratch=work.parent,
                                    network=spec.network, prot=prot)
        env = {**env, **sample_env(spec, meta)}
        proc, timed_out, early, start = _start_and_wait(spec, wrapped, env, work, target, meta, prot)
        if attempt + 1 < protect.BWRAP_SETUP_TRIES and prot.mode == "bubblewrap" and proc.returncode == 1 \
                and not paths["events"].exists() and protect.bwrap_setup_failed(read_bounded(paths["stderr"], 4096)):
            continue  # bwrap could not build the sandbox (a socket it masks went away meanwhile): again
        break
    rc = proc.returncode
    if prot.mode == "bubblewrap" and rc is not None and 128 < rc < 128 + 65:
        rc = _bwrap_status(rc, paths["events"])
    result = collect_result(spec, work, target, meta, rc, timed_out, time.monotonic() - start)
    result.hang_early = early
    return result


def _start_and_wait(spec: RunSpec, cmd: list[str], env: dict[str, str], work: Path, target: Path, meta: Path,
                    prot: protect.Protection) -> tuple[subprocess.Popen, bool, str, float]:
    """Start the wrapped command, wait for it (hang watch, timeout), kill what is left of its tree."""
    from reportkit.run.hangwatch import wait_watching

    paths = meta_paths(meta)
    timed_out, early = False, ""
    start = time.monotonic()
    # (root: a pids cgroup of the run's own holds its number of tasks, and what is left in it goes at the end)
    with open(paths["stdout"], "wb") as out, open(paths["stderr"], "wb") as err, \
            protect.process_group(prot) as group:
        try:
            proc = protect.start(group.wrap(cmd), cwd=work, env=env, stdout=out, stderr=err,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            raise UserError(f"cannot start {spec.python}: {exc.strerror or exc}") from None
        keeper = prot.mode == "fallback"
        with _ACTIVE_LOCK:
            _ACTIVE[proc] = keeper
        try:
            ended, early = wait_watching(spec, meta, work, target, lambda t: _wait(proc, t))
            if not ended:
                timed_out = True
                _dump_then_kill(proc, paths["dump"], spec.grace, bwrap=prot.mode == "bubblewrap", keeper=keeper)
        except BaseException:  # Ctrl-C in reportkit: never leave the target running
            kill_tree(proc, keeper=keeper)
            raise
        finally:
            kill_tree(proc, keeper=keeper)  # stray members of the group (compile workers, helpers) go too
            with _ACTIVE_LOCK:
                _ACTIVE.pop(proc, None)
    return proc, timed_out, early, start


def _bwrap_status(rc: int, events: Path) -> int:
    """bwrap exits with 128+N when its command was killed by signal N: -N, unless the script itself
    asked for that exit code (``sys.exit(139)``, recorded by the boot)."""
    try:
        text = events.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("event") in ("exit", "end") and event.get("code") == rc:
            return rc
    return -(rc - 128)


def _regular(path: Path) -> bool:
    """``path`` is still a regular file, not a link, a pipe or gone (reportkit made it before the run)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _wait(proc: subprocess.Popen, seconds: float) -> bool:
    try:
        proc.wait(timeout=seconds)
        return True
    except subprocess.TimeoutExpired:
        return False


def collect_result(spec: RunSpec, work: Path, target: Path, meta: Path, rc: int | None, timed_out: bool,
                   duration: float) -> RunResult:
    """Build the :class:`RunResult` of a finished run from its exit status and the files in ``meta``.

    ``rc`` follows :attr:`subprocess.Popen.returncode`: ``-N`` means death by signal N.
    """
    paths = meta_paths(meta)
    result = RunResult(
        returncode=rc if rc is not None and rc >= 0 else None,
        signal=-rc if rc is not None and rc < 0 and not timed_out else None,
        timed_out=timed_out,
        duration=duration,
        stdout=read_bounded(paths["stdout"], spec.output_limit),
        stderr=read_bounded(paths["stderr"], spec.output_limit),
        workdir=str(work),
        script_path=str(target),
    )
    _read_events(paths["events"], result)
    result.replaced = tuple(paths[name].name for name in ("events", "stdout", "stderr") if not _regular(paths[name]))
    if timed_out and result.exception is not None:
        result.timed_out, result.hung_after_exception = False, True
    if spec.sample_stacks or spec.hang_watch is not None:
        from reportkit.run.hangwatch import block_timing

        result.block_timing = block_timing(meta, spec.hang_watch.interval if spec.hang_watch is not None
                                           else spec.sample_stacks)
    if timed_out:
        try:
            waits = json.loads(read_run_text(paths["children"]))
            result.child_waits = [str(w) for w in waits] if isinstance(waits, list) else None
        except ValueError:
            result.child_waits = None
    if timed_out or result.signal is not None:
        dump_path = paths["dump"]
        result.stacks = parse_faulthandler(read_run_text(dump_path))
        for stack in result.stacks:
            while stack.frames and _is_boot_frame(stack.frames[-1].file):  # the bootstrap is not the user's
                stack.frames.pop()
            # nor are its waker/wait wrappers (_boot._watch_wakers) between the script and a wait
            stack.frames = [f for f in stack.frames if f.file != str(BOOT_FILE)]
            for frame in stack.frames:  # faulthandler prints no source; read it while the files exist
                if frame.line and not frame.text:
                    frame.text = linecache.getline(frame.file, frame.line).strip()
        linecache.clearcache()
    return result


def _is_boot_frame(file: str) -> bool:
    return file in ("<frozen runpy>", str(BOOT_FILE), str(WARM_FILE), str(BACKEND_BOOT_FILE)) \
        or file.endswith("/runpy.py")


def request_dump(pid: int, dump_path: Path, grace: float, alive: Callable[[], bool]) -> None:
    """Ask faulthandler (SIGUSR1) in ``pid`` for all-thread stacks; return once the dump settles.

    Returns early when ``alive()`` turns false (the process ended) or after ``grace`` seconds.
    First, what the process's child processes wait in is written next to the dump (:func:`child_waits`).
    """
    try:
        dump_path.with_name("children.json").write_text(json.dumps(child_waits(pid)))
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGUSR1)
    except (ProcessLookupError, AttributeError):
        return
    _continue_if_stopped(pid)
    deadline = time.monotonic() + grace
    last = -1
    while time.monotonic() < deadline and alive():
        size = dump_path.stat().st_size if dump_path.exists() else 0
        if size > 0 and size == last:
            break
        last = size
        time.sleep(0.1)


def _continue_if_stopped(pid: int) -> None:
    """A run that stopped itself (SIGSTOP, its group stopped) holds the stack request pending: continued, it takes
    the request first, so the dump shows where it stopped (then the timeout ends it)."""
    try:
        if psutil.Process(pid).status() in (psutil.STATUS_STOPPED, psutil.STATUS_TRACING_STOP):
            os.kill(pid, signal.SIGCONT)
    except (psutil.Error, OSError):
        pass


def child_waits(pid: int) -> list[str]:
    """What the descendants of ``pid`` that have no children of their own are doing, as a sorted set:
    the kernel function a sleeping one waits in (``/proc/PID/wchan``: ``pipe_write``, ``do_wait``,
    ``futex_wait_queue``...), or ``running`` / ``zombie`` / ``stopped``. Part of a hang's signature: a
    child blocked writing to a full pipe is not the same hang as a child that keeps starting itself."""
    try:
        children = psutil.Process(pid).children(recursive=True)
    except (psutil.Error, OSError):
        return []
    parents = set()
    for child in children:
        try:
            parents.add(child.ppid())
        except (psutil.Error, OSError):
            continue
    waits: set[str] = set()
    for child in children:
        if child.pid in parents:
            continue
        wait = _child_wait(child)
        for _ in range(_RUNNING_CHECKS - 1):
            if wait != "running":
                break
            time.sleep(_RUNNING_RECHECK)
            wait = _child_wait(child)
        if wait is not None:
            waits.add(wait)
    return sorted(waits)


#: A child caught ``running`` is looked at again, a few times: one that polls (``stop.wait(0.05)`` in a
#: loop) sleeps between its checks and is caught running only now and then (more often on a loaded machine),
#: where a child that spins is running every time.
_RUNNING_CHECKS = 4
_RUNNING_RECHECK = 0.02


def _child_wait(child: psutil.Process) -> str | None:
    """What ``child`` is doing now: the kernel function it sleeps in, ``running``, ``zombie`` or
    ``stopped`` (None: it is gone)."""
    try:
        status = child.status()
    except (psutil.Error, OSError):
        return None
    if status in (psutil.STATUS_SLEEPING, psutil.STATUS_DISK_SLEEP, psutil.STATUS_IDLE):
        try:
            wchan = Path(f"/proc/{child.pid}/wchan").read_text().strip()
        except OSError:
            wchan = ""
        return wchan if wchan and wchan != "0" else "sleeping"
    return {psutil.STATUS_ZOMBIE: "zombie", psutil.STATUS_STOPPED: "stopped",
            psutil.STATUS_TRACING_STOP: "stopped"}.get(status, "running")


def _dump_then_kill(proc: subprocess.Popen, dump_path: Path, grace: float, bwrap: bool = False,
                    keeper: bool = False) -> None:
    """Ask faulthandler (SIGUSR1) for all-thread stacks, wait until the dump settles, then kill.
    Under bwrap the signal goes to the sandboxed interpreter, not to bwrap."""
    pid = protect.target_pid(proc.pid) if bwrap else _first_process(proc.pid, dump_path.with_name("events.jsonl"))
    if pid is not None:
        request_dump(pid, dump_path, grace, lambda: proc.poll() is None)
    kill_tree(proc, keeper=keeper)


def _first_process(pid: int, events: Path) -> int:
    """The run's first process: without bubblewrap the boot keeps a *keeper* process above it
    (:func:`reportkit.run._boot._keep`); the run's own pid is in its ``start`` event."""
    try:
        with open(events, encoding="utf-8", errors="replace") as fh:
            for line in fh:
                event = json.loads(line)
                if event.get("event") == "start":
                    run = int(event["pid"])
                    return run if psutil.Process(run).ppid() == pid else pid
    except (OSError, ValueError, KeyError, TypeError, AttributeError, psutil.Error):
        pass
    return pid


def kill_active() -> None:
    """Kill every run still in progress (other threads' candidates after Ctrl-C / SIGTERM)."""
    with _ACTIVE_LOCK:
        procs = list(_ACTIVE.items())
    for proc, keeper in procs:
        kill_tree(proc, keeper=keeper)


def kill_group(leader: int, process: psutil.Process | None = None) -> list[psutil.Process]:
    """SIGKILL the session/group led by ``leader`` and every descendant of it we can still see.

    ``process`` is the leader as a :class:`psutil.Process` captured while it was surely alive (it
    guards against pid reuse); without it the pid is looked up now. Returns the descendants that
    were signalled (for :func:`psutil.wait_procs`). The leader itself is killed but not reaped.
    """
    victims: list[psutil.Process] = []
    try:
        proc = process or psutil.Process(leader)
        victims = proc.children(recursive=True)
    except psutil.Error:
        proc = None
    try:
        os.killpg(leader, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for child in victims:  # descendants that left the group (setsid) are still ours to end
        try:
            child.kill()
        except psutil.Error:
            pass
    if proc is not None:
        try:
            proc.kill()
        except psutil.Error:
            pass
    return victims


KEEPER_GRACE = 5.0  # seconds a keeper gets to end its run's tree before it is killed itself


def kill_tree(proc: subprocess.Popen, *, keeper: bool = False) -> None:
    """Kill the process, its process group and every descendant we can still see; reap the process.

    ``keeper``: ``proc`` is the run's keeper (:func:`reportkit.run._boot._keep`, runs without bubblewrap), the
    subreaper every orphan of the run is reparented to while it lives. It is asked first (SIGTERM: it kills
    its tree until nothing is left, then exits): what a double fork made after our look at the tree is then
    still its, where a SIGKILL of the keeper first would hand it to init."""
    if keeper and proc.returncode is None:
        try:
            os.kill(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        else:
            _wait(proc, KEEPER_GRACE)
    if proc.returncode is None:
        victims = kill_group(proc.pid)
    else:  # already reaped: its pid may be anyone's now; only what is left of its group is ours
        victims = []
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass
    proc.wait()
    psutil.wait_procs(victims, timeout=5)


_PR_SET_CHILD_SUBREAPER, _PR_GET_CHILD_SUBREAPER = 36, 37


class OrphanReaper:
    """Adopt and end what runs leave behind (Linux): helpers that outlive their parent run.

    A run that exits normally may leave a descendant that left its process group (``setsid``, a
    daemonized helper): it is reparented to init and nobody would ever kill it. While a reaper is
    active this process is a *child subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``), so such orphans
    are reparented here instead; :meth:`collect` kills them (with their descendants) and reaps them.
    Call it when no run is in progress (it takes every new child of this process for an orphan).
    Elsewhere (no prctl) it does nothing.
    """

    def __init__(self) -> None:
        self._libc = None
        self._previous = 0
        self.active = False
        self.collected = 0
        self._before: set[int] = set()

    def start(self) -> bool:
        if not sys.platform.startswith("linux"):
            return False
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            previous = ctypes.c_int(0)
            libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(previous), 0, 0, 0)
            if libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
                return False
        except (OSError, AttributeError):
            return False
        self._libc, self._previous, self.active = libc, previous.value, True
        self._before = {p.pid for p in psutil.Process().children()}
        return True

    def collect(self) -> int:
        """Kill and reap every child of this process that appeared since :meth:`start` (and their
        descendants, which are reparented here as their parents die)."""
        if not self.active:
            return 0
        count = 0
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            orphans = [c for c in psutil.Process().children() if c.pid not in self._before]
            if not orphans:
                break
            for child in orphans:
                try:
                    victims = child.children(recursive=True)
                except psutil.Error:
                    victims = []
                for proc in [child, *victims]:
                    try:
                        proc.kill()
                    except psutil.Error:
                        pass
                try:
                    os.waitpid(child.pid, 0)
                    count += 1
                except ChildProcessError:
                    pass
        self.collected += count
        return count

    def stop(self) -> None:
        """Collect, then restore the subreaper flag as it was."""
        if not self.active:
            return
        self.collect()
        if self._libc is not None and not self._previous:
            self._libc.prctl(_PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        self.active = False


CUT_MARGIN = 64 * 1024  # how far a cut may move to fall between lines


def read_bounded(path: Path, limit: int) -> str:
    """Read a captured stream; past ``limit`` bytes keep the head and the (more telling) tail.

    The cuts fall at line ends (within :data:`CUT_MARGIN`, else at whitespace): a secret is never
    split by a cut, so that redaction, which runs later on what is kept, sees it whole.
    """
    try:  # the run could swap its output files (meta/ is writable for it): regular files only, no link followed
        fh = open_regular(path)
    except OSError:
        return ""
    with fh:
        size = os.fstat(fh.fileno()).st_size
        if size <= limit:
            data = fh.read()
        else:
            head_len = limit // 4
            head = fh.read(head_len + CUT_MARGIN)
            head = head[:_cut_after(head, head_len)]
            start = max(size - (limit - head_len) - CUT_MARGIN, len(head))
            fh.seek(start)
            tail = fh.read()
            tail = tail[_cut_before(tail, len(tail) - (limit - head_len)):]
            cut = size - len(head) - len(tail)
            data = head + f"\n[... {cut} bytes cut by reportkit ...]\n".encode() + tail
    return data.decode("utf-8", errors="replace")


def _cut_after(data: bytes, pos: int) -> int:
    """The end of the head: the first line end (else whitespace) at or after ``pos``."""
    for sep in (b"\n", b" ", b"\t"):
        at = data.find(sep, pos)
        if at >= 0:
            return at + 1
    return min(pos, len(data))


def _cut_before(data: bytes, pos: int) -> int:
    """The start of the tail: just after the last line end (else whitespace) before ``pos`` ... or the
    first one after it, so the tail never starts inside a line."""
    pos = max(pos, 0)
    for sep in (b"\n", b" ", b"\t"):
        at = data.find(sep, pos)
        if at >= 0:
            return at + 1
        at = data.rfind(sep, 0, pos)
        if at >= 0:
            return at + 1
    return pos


def _exception_from(record: object, depth: int = 0) -> ExceptionInfo | None:
    """The exception a run's event describes; None for a record that is not one. The events file is the run's to
    write (fd 3): a script may write any line there, so nothing in it is trusted to have the boot's shape."""
    if not isinstance(record, dict) or depth > _CHAIN_DEPTH or not isinstance(record.get("type"), str) \
            or not record["type"]:
        return None
    frames = record.get("frames")
    chain = record.get("chain")
    return ExceptionInfo(
        type=_text(record.get("type")),
        message=_text(record.get("message")),
        frames=[Frame(file=_text(f.get("file")), line=_line(f.get("line")), function=_text(f.get("function")),
                      module=_text(f.get("module")) or None, text=_text(f.get("text")), op=_text(f.get("op")),
                      expr=_text(f.get("expr")), training=_text(f.get("training")))
                for f in (frames if isinstance(frames, list) else []) if isinstance(f, dict)],
        chain=[c for c in (_exception_from(c, depth + 1) for c in (chain if isinstance(chain, list) else []))
               if c is not None],
        thread=record.get("thread") if isinstance(record.get("thread"), (int, str)) else None,
        type_module=_text(record.get("type_module")) or None,
        type_file=_text(record.get("type_file")) or None,
    )


_CHAIN_DEPTH = 64  # (Python's own chains are short; a forged record may nest without end)


def _text(value: object) -> str:
    return value if isinstance(value, str) else str(value) if isinstance(value, (int, float)) else ""


def _line(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _read_events(path: Path, result: RunResult) -> None:
    pid = None  # the run's own process (its start event): a forked child's wakers and waits are not its
    for line in read_run_text(path).splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a half-written line from a killed process
        if not isinstance(event, dict):
            continue  # (not the boot's: the run may write any line here)
        kind = event.get("event")
        if kind == "start":
            pid = event.get("pid") if pid is None else pid
            result.started = True
            result.main_thread_id = event.get("main_thread")
            confined = event.get("confined")
            if isinstance(confined, dict) and confined.get("gaps"):
                protect.note_gaps(str(gap) for gap in confined["gaps"])
        elif kind == "sandbox_error" and not result.started:  # (the boot's, before the script: not the script's)
            raise UserError(f"the sandbox could not be applied in the run: {event.get('error')} "
                            f"(set {protect.FORCE_ENV}=bwrap, or {protect.LANDLOCK_ENV}=0 for the fallback's "
                            "audit hook alone)")
        elif kind == "exception":
            result.exception = _exception_from(event.get("exception")) or result.exception
        elif kind == "thread_exception" and (info := _exception_from(event.get("exception"))) is not None:
            result.thread_exceptions.append(info)
        elif kind == "exit":
            result.exit_code_requested = event.get("code")
        elif kind == "pytest_failure":
            result.test_item = event.get("test")
        elif kind in ("waker", "wait") and event.get("pid") not in (None, pid):
            continue  # a forked child's (multiprocessing): the hang is the main process's
        elif kind == "waker" and isinstance(event.get("name"), str):
            result.wakers.add(event["name"])
            if isinstance(event.get("target"), str):
                result.thread_targets.add(event["target"])
            else:
                result.waker_calls.append((event["name"], event.get("obj", 0), str(event.get("thread", ""))))
        elif kind == "wait" and isinstance(event.get("name"), str):
            result.last_wait = (event["name"], event.get("obj", 0))


_THREAD_RE = re.compile(r"^(Current thread|Thread) (0x[0-9a-fA-F]+)(?: \[[^\]]*\])? \(most recent call first\):")
_FRAME_RE = re.compile(r'^\s+File "(.*)", line (\d+|\?\?\?) in (.*)$')


def parse_faulthandler(text: str) -> list[ThreadStack]:
    """Parse faulthandler's all-thread dump (the last dump in the text wins for each thread)."""
    stacks: dict[int, ThreadStack] = {}
    order: list[int] = []
    current: ThreadStack | None = None
    for line in text.splitlines():
        head = _THREAD_RE.match(line)
        if head:
            tid = int(head.group(2), 16)
            current = ThreadStack(thread_id=tid, current=head.group(1) == "Current thread", frames=[])
            if tid not in stacks:
                order.append(tid)
            stacks[tid] = current
            continue
        frame = _FRAME_RE.match(line)
        if frame and current is not None:
            lineno = frame.group(2)
            current.frames.append(Frame(file=frame.group(1), line=int(lineno) if lineno.isdigit() else None,
                                        function=frame.group(3).strip()))
        elif not line.strip():
            current = None
    return [stacks[t] for t in order]
