"""What a run is (:class:`RunSpec`) and what it did (:class:`RunResult`): plain data, no behaviour.

Every stage hands these around: the runner and the executors fill a ``RunResult`` from the files the
boot wrote; :mod:`reportkit.failure.signature` reads it; the hang watch (:mod:`reportkit.run.hangwatch`)
rides on a ``RunSpec``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_OUTPUT_LIMIT = 4 * 1024 * 1024
PYTEST_NODE_ENV = "REPORTKIT_PYTEST_NODE"  # read (and removed) by _boot.py: run this node with pytest


@dataclass
class Frame:
    file: str
    line: int | None
    function: str
    module: str | None = None
    text: str = ""
    op: str = ""  # exceptions: the bytecode instruction the frame was at (reportkit.run._boot._opname)
    expr: str = ""  # exceptions: that instruction's source, the sub-expression that raised (_boot._segment)
    # exceptions: "train"/"eval", the mode of the frame's module where it read it before it raised (_boot._training)
    training: str = ""


@dataclass
class ExceptionInfo:
    type: str
    message: str
    frames: list[Frame] = field(default_factory=list)
    chain: list[ExceptionInfo] = field(default_factory=list)
    thread: str | None = None
    type_module: str | None = None  # the module that defines the exception's class (None: a builtin)
    type_file: str | None = None  # that module's file, where known (not for ``__main__``)


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
    child_waits: list[str] | None = None  # hang: what its leaf child processes waited in (child_waits); None: unknown
    main_thread_id: int | None = None
    workdir: str = ""  # the scratch directory the script ran in (removed unless kept)
    script_path: str = ""  # the script's path inside workdir
    started: bool = False  # the boot came up (False: the interpreter itself failed)
    test_item: dict | None = None  # pytest targets: the failing test item (node id, params, fixtures)
    # the main thread ended with an uncaught exception, then the process did not exit within the timeout
    # (a non-daemon thread kept running): the run is the exception, not a hang
    hung_after_exception: bool = False
    # stack-sampled runs (reportkit.run.hangwatch): when the main thread entered the frame it was last in,
    # its longest earlier stay there, its longest quiet and no-new-call stretches (seconds; hangwatch.block_timing)
    block_timing: tuple[float, float, float, float] | None = None
    hang_early: str = ""  # ended by the hang watch before the timeout: why ("frame", "quiet" or "spin", see hangwatch)
    # waking methods the script's own code called ("threading.Event.set", "queue.Queue.task_done"; _boot._WAKERS)
    wakers: set[str] = field(default_factory=set)
    # each waking call: (method, id of its receiver, the function of the thread making it: "" main thread)
    waker_calls: list[tuple[str, int, str]] = field(default_factory=list)
    thread_targets: set[str] = field(default_factory=set)  # functions the threads/processes it started run
    last_wait: tuple[str, int] | None = None  # the main thread's last wait in the script's code: (method, id)
    replaced: tuple[str, ...] = ()  # the records reportkit keeps of the run (meta/) that the run replaced or removed

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
    # a stdlib-only script run (by path) instead of _boot.py, given _boot.py's path first: it wraps the
    # boot (e.g. reportkit/run/_backend_boot.py, which forces torch.compile's backend for bundle's ladder)
    boot_wrapper: Path | None = None
    # the directory whose mirror is the run's working directory (pytest targets: the rootdir, so that
    # conftest.py files and the ini file above the test module apply); None: the script's directory
    root: Path | None = None
    # the network inside the sandbox; None: the process-wide default (``reportkit --no-network``)
    network: bool | None = None
    # stack sampling (reportkit.run.hangwatch): every N seconds (0: off); a HangWatch ends a run that sits
    # in the original's blocked frame long enough as a hang, without waiting for the timeout
    sample_stacks: float = 0.0
    hang_watch: object | None = None

    @property
    def pytest_node(self) -> str | None:
        """For a pytest target (``tests/test_x.py::TestA::test_b[1]``): the part after the file."""
        return self.env.get(PYTEST_NODE_ENV)

    def target_name(self, name: str | None = None) -> str:
        """``name`` (default: the script's file name) with ``::node`` for a pytest test. A pytest
        target with an empty node is the whole module (a module that fails to import)."""
        name = name or self.script.name
        return f"{name}::{self.pytest_node}" if self.pytest_node else name
