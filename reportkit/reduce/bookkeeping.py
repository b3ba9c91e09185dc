"""What the reducer's parts share: the stop signal, stats, progress reports, the content key, the odds
of a phase's next candidate, and the debugging trace (``REPORTKIT_TRACE``).

The search (:mod:`reportkit.reduce.schedule`), the tester (:mod:`reportkit.reduce.tester`) and the lazy
differential check (:mod:`reportkit.reduce.confirm`) all speak in these terms; none of them owns them.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass, field

from reportkit.errors import UserError
from reportkit.io import append_text
from reportkit.redact import redact_output


class Stop(Exception):
    """Raised by the predicate (or on_progress) to end the reduction early; reduce_source returns the best so far."""


@dataclass
class ReduceStats:
    tests_run: int = 0  # real predicate calls
    cache_hits: int = 0  # candidates answered from the content cache
    invalid_skipped: int = 0  # candidates never run because they do not parse
    passes: dict[str, int] = field(default_factory=dict)  # pass name -> number of accepted edits
    rounds: int = 0
    probes: int = 0  # instrumented runs for value materialization (not candidates)
    tests_by_pass: dict[str, int] = field(default_factory=dict)  # pass name -> predicate calls made in it
    confirms: int = 0  # calls of ``confirm`` (not in tests_run)
    redone: int = 0  # passes repeated because their result failed ``confirm``
    memo_skips: int = 0  # candidates not run: they make a change rejected in an earlier test
    screened: int = 0  # candidates not run: ``screen`` knew the second condition rejects them
    seconds_by_pass: dict[str, float] = field(default_factory=dict)  # pass name -> wall time of its predicate calls
    too_complex: int = 0  # candidates of inlining passes not run: a statement beyond the original's most complex


@dataclass
class Progress:
    phase: str  # e.g. "ddmin level 2", "shrink-literals"
    source: str  # current best
    stats: ReduceStats


def key(text: str) -> bytes:
    """The content-cache key of a source."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


#: ``REPORTKIT_TRACE=FILE``: the reducer's decisions, one line each, appended to FILE (see :class:`Trace`).
TRACE_ENV = "REPORTKIT_TRACE"


_TRACE_REASON_MAX = 300  # characters of a trace line's "why"


class Trace:
    """A debugging trace of a reduction: one tab-separated line per decision about a candidate.

    Columns: seconds since the start, phase (pass or HDD level), non-blank lines and bytes of the
    candidate, the check (``bad``: the predicate, does it fail the same way; ``good``: the lazy second
    condition, e.g. the fix check's run on the good code; ``memo``: skipped, its change was rejected
    before; ``accept``: it became the current source; ``redo``: a pass's result failed the second
    condition, the pass is repeated; ``back``: the source went back to the last one that met it;
    ``screen``: rejected without a run, the second condition is known to reject it; ``cache``: answered
    from the content cache; ``round``: a round of the schedule begins, the current source),
    the verdict (``yes``/``no``/``-``), why (what the run did, from :meth:`why`), and the candidate's
    content key (8 hex digits: the same candidate on several lines). Every line passes reportkit's
    redaction edge (:func:`reportkit.redact.redact_output`) before it is written.
    """

    HEADER = "seconds\tphase\tlines\tbytes\tcheck\tverdict\twhy\tkey\n"

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = path
        self._start = time.monotonic()
        self._lock = threading.Lock()
        self._why: dict[tuple[bytes, str], str] = {}
        try:
            self._emit(self.HEADER)
        except OSError as exc:  # (a link planted at that name: refused, never written through)
            raise UserError(f"{TRACE_ENV}={os.fspath(path)}: cannot write the trace there ({exc.strerror or exc})") \
                from None

    @classmethod
    def from_env(cls) -> Trace | None:
        path = os.environ.get(TRACE_ENV, "")
        return cls(path) if path else None

    def why(self, candidate: str, check: str, reason: str) -> None:
        """What the ``check`` ("bad", "good") of ``candidate`` found, for its line (any thread)."""
        with self._lock:
            self._why[(key(candidate), check)] = reason

    def line(self, phase: str, candidate: str, check: str, verdict: bool | None, reason: str = "") -> None:
        k = key(candidate)
        with self._lock:
            reason = reason or self._why.pop((k, check), "")
        # the reason is redacted whole, then made one line and cut: a secret cut in two or spread over lines
        # (a PEM block in a message) is no longer one the rules can see
        reason = " ".join(redact_output(reason, home="").split())
        if len(reason) > _TRACE_REASON_MAX:
            reason = reason[:_TRACE_REASON_MAX - 1] + "…"
        fields = [f"{time.monotonic() - self._start:.2f}", phase,
                  str(sum(1 for line in candidate.splitlines() if line.strip())), str(len(candidate.encode())),
                  check, "-" if verdict is None else ("yes" if verdict else "no"), reason, k.hex()[:8]]
        self._emit("\t".join(" ".join(f.split()) for f in fields) + "\n")

    def _emit(self, text: str) -> None:
        with self._lock:
            append_text(self.path, redact_output(text, home=""))


class Odds:
    """Per phase (a pass, an HDD level): how likely its next candidate is interesting, from its recent
    answers (an exponential moving average; a phase not seen yet starts at :data:`_PRIOR`)."""

    _PRIOR = 0.5
    _WEIGHT = 0.3  # of the newest answer

    def __init__(self, prior: float = _PRIOR) -> None:
        self._p: dict[str, float] = {}
        self._prior = prior

    def of(self, phase: str) -> float:
        return self._p.get(phase, self._prior)

    def update(self, phase: str, interesting: bool) -> None:
        self._p[phase] = (1 - self._WEIGHT) * self.of(phase) + self._WEIGHT * interesting
