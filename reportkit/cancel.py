"""Withdrawn questions: the reducer tells an executor that a candidate's answer is no longer needed.

The prefetch window (:mod:`reportkit.reduce.tester`) tests the planned candidates ahead, in parallel; once one
of them is interesting, the answers of the later ones in flight will not be consumed. It sets their
*withdraw events*; an executor that can stop a run early (the Ray executor: it kills the candidate's
process tree on its host) checks :func:`current` from the thread that called ``run`` and raises
:class:`Withdrawn` instead of returning a result. A withdrawn run never becomes a verdict: the
exception passes the cache by. Executors that cannot stop early ignore the event and answer as usual.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator, Optional

_local = threading.local()


class Withdrawn(Exception):
    """The run was stopped because its answer is no longer needed (no verdict)."""


@contextmanager
def withdrawable(event: threading.Event) -> Iterator[None]:
    """Runs in this thread may be withdrawn by setting ``event``."""
    previous = getattr(_local, "event", None)
    _local.event = event
    try:
        yield
    finally:
        _local.event = previous


def current() -> Optional[threading.Event]:
    """The withdraw event of the question this thread is answering, if any."""
    return getattr(_local, "event", None)
