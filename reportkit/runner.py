"""Stage 1, *run*: execute a target script in its own process, sandboxed, and observe how it ends.

The script runs under :mod:`reportkit._boot` in the user's interpreter (``--python``), in a fresh
scratch directory (a copy of the script's directory, or of the script alone), in a new session so
that the whole process group can be killed on timeout. What comes back is a :class:`RunResult`:
exit code or signal, bounded stdout/stderr, wall time, the uncaught exception exactly as the boot
recorded it, and on a hang the stacks of all threads dumped by faulthandler just before the kill.
"""

from __future__ import annotations

import json
import linecache
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

import psutil

from reportkit.errors import UserError

BOOT_FILE = Path(__file__).with_name("_boot.py")
DEFAULT_OUTPUT_LIMIT = 4 * 1024 * 1024
# What a scratch copy of the script's directory may hold before we ask for --isolate-file.
COPY_MAX_FILES = 2000
COPY_MAX_BYTES = 200 * 1024 * 1024
COPY_IGNORE = (".git", ".hg", ".svn", "__pycache__", ".venv", "venv", "node_modules", ".mypy_cache",
               ".pytest_cache", ".ruff_cache", "torch_compile_debug", "*.pyc")
# Defaults that make a failing run easier to read without changing what it computes.
BASE_ENV = {"PYTHONUNBUFFERED": "1", "PYTHONDONTWRITEBYTECODE": "1"}

# Processes started by run_script and not yet reaped (several at once with parallel candidates).
_ACTIVE: set[subprocess.Popen] = set()
_ACTIVE_LOCK = threading.Lock()


@dataclass
class Frame:
    file: str
    line: int | None
    function: str
    module: str | None = None
    text: str = ""


@dataclass
class ExceptionInfo:
    type: str
    message: str
    frames: list[Frame] = field(default_factory=list)
    chain: list[ExceptionInfo] = field(default_factory=list)
    thread: str | None = None


@dataclass
class ThreadStack:
    thread_id: int
    current: bool
    frames: list[Frame]  # innermost first, as faulthandler prints them


@dataclass
class RunResult:
    returncode: int | None
    signal: int | None
    timed_out: bool
    duration: float
    stdout: str
    stderr: str
    exception: ExceptionInfo | None = None
    thread_exceptions: list[ExceptionInfo] = field(default_factory=list)
    exit_code_requested: int | str | None = None
    stacks: list[ThreadStack] = field(default_factory=list)  # hang or fatal-signal dump
    main_thread_id: int | None = None
    workdir: str = ""  # the scratch directory the script ran in (removed unless kept)
    script_path: str = ""  # the script's path inside workdir
    started: bool = False  # the boot came up (False: the interpreter itself failed)

    @property
    def main_stack(self) -> ThreadStack | None:
        for stack in self.stacks:
            if self.main_thread_id is not None and stack.thread_id == self.main_thread_id:
                return stack
        for stack in self.stacks:
            if stack.current:
                return stack
        return self.stacks[0] if self.stacks else None


@dataclass
class RunSpec:
    script: Path
    args: list[str] = field(default_factory=list)
    python: str = sys.executable
    timeout: float = 300.0
    isolate_file: bool = False
    env: dict[str, str | None] = field(default_factory=dict)  # None unsets a variable
    output_limit: int = DEFAULT_OUTPUT_LIMIT
    keep_workdir: bool = False
    grace: float = 3.0  # seconds given to faulthandler to dump stacks before the kill


# --------------------------------------------------------------------------- input validation


def read_script(path: Path) -> str:
    """Return the script's text, or raise :class:`UserError` with one clear message."""
    if not path.exists():
        raise UserError(f"no such file: {path}")
    if path.is_dir():
        raise UserError(f"{path} is a directory; give the path of a Python script")
    data = path.read_bytes()
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
            out = subprocess.run([found, "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=60)
            major, minor = (int(x) for x in out.stdout.split())
        except (OSError, ValueError, subprocess.SubprocessError):
            raise UserError(f"{python} does not run as a Python interpreter") from None
        if (major, minor) < (3, 8):
            raise UserError(f"{python} is Python {major}.{minor}; reportkit needs Python 3.8 or newer")
        _PY_VERSION_CACHE[found] = (major, minor)
    return found


# --------------------------------------------------------------------------- sandbox


class Sandbox:
    """Makes fresh scratch directories holding a copy of the script's directory (or the script)."""

    def __init__(self, script: Path, isolate_file: bool = False) -> None:
        self.script = script.resolve()
        self.isolate_file = isolate_file
        self.root = Path(tempfile.mkdtemp(prefix="reportkit-"))
        if not isolate_file:
            self._check_copy_size(self.script.parent)

    def _check_copy_size(self, directory: Path) -> None:
        files = 0
        size = 0
        ignore = shutil.ignore_patterns(*COPY_IGNORE)
        for dirpath, dirnames, filenames in os.walk(directory):
            ignored = ignore(dirpath, dirnames + filenames)
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

    def make(self, source: str | None = None) -> tuple[Path, Path]:
        """Create a scratch dir; return (workdir, script path inside it)."""
        run_dir = Path(tempfile.mkdtemp(prefix="run-", dir=self.root))
        work = run_dir / "work"
        if self.isolate_file:
            work.mkdir()
            shutil.copy2(self.script, work / self.script.name)
        else:
            shutil.copytree(self.script.parent, work, symlinks=True,
                            ignore=shutil.ignore_patterns(*COPY_IGNORE))
        target = work / self.script.name
        if source is not None:
            target.write_text(source, encoding="utf-8")
        (run_dir / "meta").mkdir()
        return work, target

    def cleanup(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


# --------------------------------------------------------------------------- running


def build_env(overrides: Mapping[str, str | None], base: Mapping[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
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
    box = sandbox or Sandbox(spec.script, spec.isolate_file)
    try:
        work, target = box.make(source)
        meta = work.parent / "meta"
        result = _run_in(spec, work, target, meta)
        if not spec.keep_workdir:
            shutil.rmtree(work.parent, ignore_errors=True)
        return result
    finally:
        if own_sandbox and not spec.keep_workdir:
            box.cleanup()


def _run_in(spec: RunSpec, work: Path, target: Path, meta: Path) -> RunResult:
    events_path, dump_path = meta / "events.jsonl", meta / "stacks.txt"
    out_path, err_path = meta / "stdout.txt", meta / "stderr.txt"
    cmd = [spec.python, str(BOOT_FILE), str(events_path), str(dump_path), str(target), *spec.args]
    env = build_env(spec.env)
    timed_out = False
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=out, stderr=err,
                                    stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            raise UserError(f"cannot start {spec.python}: {exc.strerror or exc}") from None
        with _ACTIVE_LOCK:
            _ACTIVE.add(proc)
        try:
            proc.wait(timeout=spec.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            _dump_then_kill(proc, dump_path, spec.grace)
        except BaseException:  # Ctrl-C in reportkit: never leave the target running
            kill_tree(proc)
            raise
        finally:
            kill_tree(proc)  # stray members of the group (compile workers, helpers) go too
            with _ACTIVE_LOCK:
                _ACTIVE.discard(proc)
    duration = time.monotonic() - start
    rc = proc.returncode
    result = RunResult(
        returncode=rc if rc is not None and rc >= 0 else None,
        signal=-rc if rc is not None and rc < 0 and not timed_out else None,
        timed_out=timed_out,
        duration=duration,
        stdout=read_bounded(out_path, spec.output_limit),
        stderr=read_bounded(err_path, spec.output_limit),
        workdir=str(work),
        script_path=str(target),
    )
    _read_events(events_path, result)
    if timed_out or result.signal is not None:
        result.stacks = parse_faulthandler(dump_path.read_text(encoding="utf-8", errors="replace")
                                           if dump_path.exists() else "")
        for stack in result.stacks:
            while stack.frames and _is_boot_frame(stack.frames[-1].file):  # the bootstrap is not the user's
                stack.frames.pop()
            for frame in stack.frames:  # faulthandler prints no source; read it while the files exist
                if frame.line and not frame.text:
                    frame.text = linecache.getline(frame.file, frame.line).strip()
        linecache.clearcache()
    return result


def _is_boot_frame(file: str) -> bool:
    return file in ("<frozen runpy>", str(BOOT_FILE)) or file.endswith("/runpy.py")


def _dump_then_kill(proc: subprocess.Popen, dump_path: Path, grace: float) -> None:
    """Ask faulthandler (SIGUSR1) for all-thread stacks, wait until the dump settles, then kill."""
    try:
        os.kill(proc.pid, signal.SIGUSR1)
    except (ProcessLookupError, AttributeError):
        pass
    deadline = time.monotonic() + grace
    last = -1
    while time.monotonic() < deadline and proc.poll() is None:
        size = dump_path.stat().st_size if dump_path.exists() else 0
        if size > 0 and size == last:
            break
        last = size
        time.sleep(0.1)
    kill_tree(proc)


def kill_active() -> None:
    """Kill every run still in progress (other threads' candidates after Ctrl-C / SIGTERM)."""
    with _ACTIVE_LOCK:
        procs = list(_ACTIVE)
    for proc in procs:
        kill_tree(proc)


def kill_tree(proc: subprocess.Popen) -> None:
    """Kill the process, its process group and every descendant we can still see; reap the process."""
    victims: list[psutil.Process] = []
    try:
        victims = psutil.Process(proc.pid).children(recursive=True)
    except psutil.Error:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for child in victims:  # descendants that left the group (setsid) are still ours to end
        try:
            child.kill()
        except psutil.Error:
            pass
    try:
        proc.kill()
    except ProcessLookupError:
        pass
    proc.wait()
    psutil.wait_procs(victims, timeout=5)


def read_bounded(path: Path, limit: int) -> str:
    """Read a captured stream; past ``limit`` bytes keep the head and the (more telling) tail."""
    if not path.exists():
        return ""
    size = path.stat().st_size
    with open(path, "rb") as fh:
        if size <= limit:
            data = fh.read()
        else:
            head_len = limit // 4
            head = fh.read(head_len)
            fh.seek(size - (limit - head_len))
            tail = fh.read()
            data = head + f"\n[... {size - limit} bytes cut by reportkit ...]\n".encode() + tail
    return data.decode("utf-8", errors="replace")


def _exception_from(record: dict) -> ExceptionInfo:
    return ExceptionInfo(
        type=str(record.get("type", "")),
        message=str(record.get("message", "")),
        frames=[Frame(file=f.get("file", ""), line=f.get("line"), function=f.get("function", ""),
                      module=f.get("module"), text=f.get("text") or "") for f in record.get("frames", [])],
        chain=[_exception_from(c) for c in record.get("chain", [])],
        thread=record.get("thread"),
    )


def _read_events(path: Path, result: RunResult) -> None:
    if not path.exists():
        return
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue  # a half-written line from a killed process
        kind = event.get("event")
        if kind == "start":
            result.started = True
            result.main_thread_id = event.get("main_thread")
        elif kind == "exception":
            result.exception = _exception_from(event["exception"])
        elif kind == "thread_exception":
            result.thread_exceptions.append(_exception_from(event["exception"]))
        elif kind == "exit":
            result.exit_code_requested = event.get("code")


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
