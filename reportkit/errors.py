"""Errors that end a command with one clear message instead of a traceback, and interruptions."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


class UserError(Exception):
    """Bad input or an unusable situation: the CLI prints the message and exits with ``exit_code``."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class NothingToReproduce(UserError):
    """The target ran and did not fail (or not the way the options ask for): exit 2."""

    def __init__(self, why: str) -> None:
        super().__init__(f"nothing to reproduce: {why}")
        self.why = why


class FlakyFailure(UserError):
    """The failure does not reproduce on every run, and what was asked needs it to: exit 1."""

    def __init__(self, message: str, failures: int, runs: int) -> None:
        super().__init__(message, exit_code=1)
        self.failures, self.runs = failures, runs


_interrupted = threading.Event()


def was_interrupted() -> bool:
    """Whether a signal (Ctrl-C, SIGTERM, SIGHUP) raised KeyboardInterrupt in this process inside
    :func:`sigterm_as_interrupt`: typer turns an interruption that reaches it into exit 130 itself, so the CLI
    asks this to tell that exit from a command's own."""
    return _interrupted.is_set()


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Inside: SIGTERM (a cancelled CI job, ``kill``) and SIGHUP (the terminal went away) raise KeyboardInterrupt
    like Ctrl-C (SIGINT, which is handled here too so that :func:`was_interrupted` knows of it), so the code that ends
    the runs in progress and keeps the best result so far on Ctrl-C runs for them too. A signal ignored when
    reportkit started (``nohup``) stays ignored. Main thread only (elsewhere: no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            previous[signum] = signal.signal(signum, _raise_interrupt)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _raise_interrupt(signum, frame):
    _interrupted.set()
    raise KeyboardInterrupt
