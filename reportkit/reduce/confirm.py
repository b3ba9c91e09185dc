"""The lazy differential check: ``confirm`` of :func:`reportkit.reduce.schedule.reduce_source`.

``confirm`` is a second, costlier condition every result must meet as well (e.g. a
differential run that must pass).  It is checked once on the result of each pass (each HDD
level), not on every candidate the predicate accepts.  When a pass's result fails it, the
source goes back to the last one accepted in that pass that meets it (bisecting the
accepted ones) and the pass is repeated from there "strict": each candidate confirmed
before it is accepted.  A pass that failed once is strict from then on, until a strict run of it
checks candidates and the check passes every one of them (then it is lazy again); a lazy pass whose
result failed it before has its 1st, 2nd, 4th ... accepted source confirmed at once.
``confirmed`` (what ``on_improve`` and the result see) never is a source that failed it.
"""

from __future__ import annotations

import threading
from typing import Callable, Protocol

from reportkit.reduce.bookkeeping import Odds, ReduceStats, Stop, Trace, key

__all__ = ["LazyConfirm"]


# a phase's candidates pass the check this often until it has checked some (most candidates that fail
# the same way pass on the good code too: the predicate goes first)
_GOOD_PRIOR = 0.8


class Tester(Protocol):
    """What the lazy check reads and moves of its tester (:class:`reportkit.reduce.tester.Tester`)."""

    current: str  # the best source so far (the check moves it back when a result fails)
    history: set[bytes]  # keys of every source that was the best
    lock: threading.Lock
    stats: ReduceStats
    trace: Trace | None
    phase: str
    _odds: Odds  # the predicate's odds per phase

    @property
    def stopped(self) -> bool: ...

    def call(self, check: Callable[[str], bool], candidate: str) -> bool: ...

    def progress(self) -> None: ...


class _Broke(Exception):
    """A source a lazy pass accepted failed the check: the pass ends there (:meth:`LazyConfirm.checked`)."""


class LazyConfirm:
    """``confirmed`` and the sources accepted since (tentative while ``check`` has not seen them)."""

    def __init__(self, tester: Tester, check: Callable[[str], bool] | None,
                 on_improve: Callable[[str], None] | None) -> None:
        self._tester = tester
        self._check = check
        self._on_improve = on_improve
        self.confirmed = tester.current
        self._passes: dict[str, int] = {}  # stats.passes as of ``confirmed``
        self._cache: dict[bytes, bool] = {key(tester.current): True}
        self._tentative: list[tuple[bytes, str, dict[str, int]]] = []  # accepted since ``confirmed``: key,
        # source, stats.passes as of then
        self.strict = False  # confirm each candidate before accepting it (the current pass)
        self.redo = False  # repeating a pass after its result failed the check
        self._strict_passes: set[str] = set()  # passes whose result failed the check (strict until a clean run)
        self._failed: set[str] = set()  # passes whose result failed the check once
        self._accepts: int | None = None  # sources accepted so far by the pass running lazily
        self._odds = Odds(prior=_GOOD_PRIOR)  # per phase: how likely the check passes its next candidate
        self._rejected = 0  # runs of the check that it rejected (all its runs: the tester's stats.confirms)

    # ------------------------------------------------------------- per pass
    def checked(self, name: str, step: Callable[[], bool]) -> bool:
        """Run one pass (or HDD level) as ``step`` and confirm its result; repeat it strict if that fails.

        Once its result has failed the check (it is then likely to fail again), a pass running lazily
        (again) has its 1st, 2nd, 4th, 8th ... accepted source confirmed at once (see :meth:`accepted`):
        a pass whose edits break the check is caught after a few accepts, instead of at its end, after
        every later candidate was tested on top of a source that is then undone. A pass whose result never
        failed it is confirmed on its result only."""
        if self._check is None:
            return step()
        t = self._tester
        begin = t.current
        self.strict = strict = name in self._strict_passes
        self._accepts = 0 if name in self._failed else None  # early checks once the pass broke the check
        runs, rejected = t.stats.confirms, self._rejected
        try:
            step()
        except _Broke:
            pass  # an accepted source failed the check: settle it below
        finally:
            self.strict = False
            self._accepts = None
        if strict and t.stats.confirms > runs and self._rejected == rejected:
            self._strict_passes.discard(name)  # checked candidates again and again, all passed: lazy next time
        if self._settle():
            return t.current != begin
        with t.lock:
            t.stats.redone += 1
        if t.trace is not None:
            t.trace.line(name, t.current, "redo", None, "the pass's result failed the second condition: "
                         "repeated, each candidate checked")
        self._strict_passes.add(name)
        self._failed.add(name)
        self.strict = self.redo = True
        try:
            step()
        finally:
            self.strict = self.redo = False
        self._settle()  # every accepted candidate was confirmed: nothing left to check
        return t.current != begin

    def _settle(self) -> bool:
        """Confirm ``current``. False: it failed; ``current`` is back at the last source accepted on the
        way that does pass (found by bisecting the accepted ones), or at the last confirmed source."""
        t = self._tester
        if t.current == self.confirmed:
            return True
        if self.ok(key(t.current), t.current):
            self._mark()
            return True
        chain = self._tentative
        good, bad = -1, len(chain) - 1  # chain[bad] is current: it failed
        while bad - good > 1:
            mid = (good + bad) // 2
            if self.ok(chain[mid][0], chain[mid][1]):
                good = mid
            else:
                bad = mid
        undone = len(chain) - good - 1
        # A source accepted after the good one may well be fine on its own: let the repeat reach it again.
        t.history.difference_update(k for k, _source, _passes in chain[good + 1:])
        if good >= 0:
            _unused, t.current, passes = chain[good]
            with t.lock:
                t.stats.passes = dict(passes)
            del chain[good + 1:]
            self._mark()
        else:
            t.current = self.confirmed
            with t.lock:
                t.stats.passes = dict(self._passes)
            chain.clear()
        if t.trace is not None:
            t.trace.line(t.phase, t.current, "back", None, f"{undone} accepted source(s) undone")
        t.progress()
        return False

    # -------------------------------------------------------- per candidate
    def cached(self, k: bytes) -> bool | None:
        with self._tester.lock:
            return self._cache.get(k)

    def ok(self, k: bytes, source: str) -> bool:
        """Does ``source`` (content key ``k``) meet the check?  Runs it unless known."""
        known = self.cached(k)
        return self._run(k, source) if known is None else known

    def first(self, phase: str) -> bool:
        """While strict, check a candidate of ``phase`` before the predicate runs it?  Yes when the check
        has lately rejected a larger share of the phase's candidates than the predicate has (e.g. literal
        shrinking whose every value fails on the good code: the good run alone rejects it, one run instead
        of two); else the predicate first (most candidates do not fail the same way at all)."""
        t = self._tester
        with t.lock:
            return 1 - self._odds.of(phase) > 1 - t._odds.of(phase)

    def _run(self, k: bytes, source: str) -> bool:
        assert self._check is not None
        t = self._tester
        if t.stopped:
            raise Stop()
        with t.lock:
            t.stats.confirms += 1
        phase = t.phase
        result = t.call(self._check, source)
        with t.lock:
            self._rejected += not result
            self._cache[k] = result
            self._odds.update(phase, result)
        if t.trace is not None:
            t.trace.line(phase, source, "good", result)
        return result

    def accepted(self, k: bytes, source: str) -> None:
        """``source`` (key ``k``) became current: confirmed if the check already passed it, else tentative."""
        t = self._tester
        with t.lock:
            confirmed = self._check is None or self._cache.get(k) is True
            assert confirmed or not self.strict, "only confirmed candidates are accepted while strict"
        if confirmed:
            self._mark()
            return
        with t.lock:
            self._tentative.append((k, source, dict(t.stats.passes)))
        if self._accepts is None:
            return
        self._accepts += 1
        if self._accepts & (self._accepts - 1) == 0:  # the 1st, 2nd, 4th, 8th ... accept of a lazy pass
            if not self.ok(k, source):
                raise _Broke()
            self._mark()

    def _mark(self) -> None:
        t = self._tester
        self.confirmed = t.current
        with t.lock:
            self._passes = dict(t.stats.passes)
        self._tentative.clear()
        if self._on_improve is not None:
            self._on_improve(t.current)
