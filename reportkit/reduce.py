"""Reduce a Python source while a predicate keeps saying "still fails the same way".

The engine never knows what a test is (picire style): it only gets
``is_interesting(candidate_source) -> bool``.  It proposes candidates that parse,
never asks about the same content twice, and keeps the smallest interesting source.

Algorithm (see :mod:`reportkit.passes` for the individual passes)::

    repeat (a round):
        repeat until unchanged:                       # structural phase
            HDD: for level 0, 1, 2, ...: picire ddmin over the statements at that depth
            unused names, compound -> body, inline one-use functions
        [materialize values (needs a probe run), hoist statements to module level]
        call args, display elements, literals -> 1, smallest failing literal values
    until a round's fine-grained passes and an unpruned HDD sweep change nothing
        (rounds after the first skip small changes an earlier test rejected; a last round
        that skips nothing confirms the fixpoint)
    finally: drop comments, docstrings, blank lines / trailing whitespace (one try each)

picire's ``DD`` (complement-first, backward complement iteration, subsets skipped) is the
ddmin engine. It halves on down, or goes from halves straight to single edits where the last
ddmin at the same site (pass, HDD level) applied less than half of its edits: near a minimum
that halves the cost.
With ``jobs > 1`` the complements of one ddmin iteration are evaluated speculatively in a
thread pool before picire walks them sequentially, so the result is identical to ``jobs=1``.

An optional second condition (``confirm``: the differential run of a wrong-result bug) is
checked once per pass on its result rather than on every accepted candidate; see
:func:`reduce_source`.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from . import passes as P
from ._picire import DD, Outcome, ZellerSplit, backward, skip

__all__ = ["Progress", "ReduceResult", "ReduceStats", "Stop", "reduce_source"]

_MAX_ROUNDS = 50
_MAX_STEPS = 100_000
#: ddmin halving on down costs about 2n tests when (almost) nothing can be removed, going from
#: halves straight to single edits about n, while halving on wins by far when most edits go. The
#: choice per ddmin site (a pass, an HDD level) follows what the last ddmin there achieved: below
#: this share of edits applied, the next one goes from halves to single edits.
_FINE_BELOW = 0.5
#: Rounds after the first skip a candidate that makes a change an earlier test rejected, if the
#: change spans at most this many lines (see _Engine._change); the last round skips nothing.
_MEMO_LINES = 3


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


@dataclass
class ReduceResult:
    source: str
    stats: ReduceStats
    stopped_early: bool  # Stop was raised (budget, Ctrl-C handled by caller)


@dataclass
class Progress:
    phase: str  # e.g. "ddmin level 2", "shrink-literals"
    source: str  # current best
    stats: ReduceStats


def reduce_source(
    source: str,
    is_interesting: Callable[[str], bool],
    *,
    jobs: int = 1,
    on_progress: Callable[[Progress], None] | None = None,
    on_improve: Callable[[str], None] | None = None,
    probe: Callable[[str], str | None] | None = None,
    oracle: bool = False,
    confirm: Callable[[str], bool] | None = None,
) -> ReduceResult:
    """Reduce ``source`` while ``is_interesting`` holds; ``source`` itself is assumed interesting.

    ``is_interesting`` is only called with candidates that parse and compile, never twice
    with the same content, and from up to ``jobs`` threads at once (so it must be
    thread-safe when ``jobs > 1``).  It may raise :class:`Stop` to end the reduction: the
    best source so far is returned with ``stopped_early=True``.  ``on_improve`` receives
    every new best source (always one the predicate accepted); ``on_progress`` is called
    at phase changes, after each test and after each improvement.

    ``probe``, when given, runs an *instrumented* program (not a candidate) and returns what it
    recorded (the text of the file named by ``$REPORTKIT_CAPTURE``), or None; it enables value
    materialization (:mod:`reportkit.passes.materialize`). Without it that pass is skipped.

    ``oracle``: the failure is a check of computed values (an assertion, a printed mismatch). Passes
    that replace a computed value by another value (:data:`reportkit.passes.VALUE_PASSES`) are off:
    they would keep "the same failure" while losing the computation that is wrong.

    ``confirm``, when given, is a second, costlier condition every result must meet as well (e.g. a
    differential run that must pass). It is checked lazily: once on the result of each pass (each
    HDD level), not on every candidate ``is_interesting`` accepts. When a pass's result fails it,
    the engine goes back to the last source accepted in that pass that meets it (bisecting the
    accepted ones) and repeats the pass from there, this time confirming each candidate before
    accepting it; a pass that failed once is confirmed that way from then on.
    ``on_improve`` and the returned source only ever see confirmed sources. Same thread rules as
    ``is_interesting``.
    """
    if jobs < 1:
        raise ValueError("jobs must be >= 1")
    engine = _Engine(source, is_interesting, jobs, on_progress, on_improve, None if oracle else probe, confirm)
    engine._oracle = oracle
    return engine.run()


def _key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


class _Engine:
    def __init__(
        self,
        source: str,
        predicate: Callable[[str], bool],
        jobs: int,
        on_progress: Callable[[Progress], None] | None,
        on_improve: Callable[[str], None] | None,
        probe: Callable[[str], str | None] | None = None,
        confirm: Callable[[str], bool] | None = None,
    ) -> None:
        self.current = source
        self._probe = probe
        self._oracle = False
        self._probed: dict[bytes, str | None] = {}  # source -> what its one probe run captured
        self.stats = ReduceStats()
        self.phase = "start"
        self.round = 0
        self._predicate = predicate
        self._jobs = jobs
        self._on_progress = on_progress
        self._on_improve = on_improve
        self._lock = threading.Lock()
        first = _key(source)
        self._cache: dict[bytes, bool] = {first: True}
        self._history: set[bytes] = {first}  # every source that was the best: never go back
        self._prefetched: set[bytes] = set()  # answered speculatively, not yet consumed
        self._stopped = False
        self._pool: ThreadPoolExecutor | None = None
        self._yields: dict[str, float] = {}  # ddmin site -> share of its edits the last ddmin there applied
        # Lazy confirmation (see reduce_source): ``current`` may be tentative; ``confirmed`` never is.
        self._confirm = confirm
        self.confirmed = source
        self._confirmed_passes: dict[str, int] = {}  # stats.passes as of ``confirmed``
        self._confirm_cache: dict[bytes, bool] = {first: True}
        self._tentative: list[tuple[bytes, str, dict[str, int]]] = []  # accepted since ``confirmed``: key,
        # source, stats.passes as of then
        self._strict = False  # confirm each candidate before accepting it (the current pass)
        self._strict_passes: set[str] = set()  # passes whose result failed confirm once
        self._redo = False  # repeating a pass after its result failed confirm
        # Rejected changes (see _change): while ``_memo``, a candidate making one again is not run.
        self._rejected: set[bytes] = set()
        self._memo = False
        self._verifying = False

    # ------------------------------------------------------------------ driver
    def run(self) -> ReduceResult:
        stopped = False
        clean = False
        if self._jobs > 1:
            self._pool = ThreadPoolExecutor(max_workers=self._jobs, thread_name_prefix="reportkit-reduce")
        try:
            self._set_phase("start")
            self._reduce()
            self._set_phase("done")
            clean = True
        except Stop:
            stopped = True
        finally:
            if self._pool is not None:
                # After Stop/Ctrl-C do not wait for tests still running; their results are unused.
                self._pool.shutdown(wait=clean, cancel_futures=True)
        return ReduceResult(self.confirmed, self._snapshot(), stopped)

    def _reduce(self) -> None:
        while self.round < _MAX_ROUNDS:
            self.round += 1
            self.stats.rounds = self.round
            if self._verifying:
                self._verifying = False
            else:
                self._memo = True
            if self._checked(P.MATERIALIZE.name, self._quick_materialize):
                self._run_pass(P.HOIST)
            for _ in range(_MAX_ROUNDS):
                before = self.current
                self._hdd(prune=True)
                for structural in P.STRUCTURAL:
                    self._run_pass(structural)
                if self.current == before:
                    break
            before = self.current
            for fine in P.FINE:
                if self._oracle and fine in P.VALUE_PASSES:
                    continue
                self._run_pass(fine)
            if self.current != before:
                continue
            # Fixpoint of the pruned search: one unpruned HDD sweep makes it 1-minimal.
            if self._hdd(prune=False):
                continue
            if not self._memo:
                break
            # A fixpoint with known-rejected changes skipped: one more round without skipping
            # anything makes it a real one (1-minimal w.r.t. every pass).
            self._memo = False
            self._verifying = True
        for final in P.FINAL:
            self._run_pass(final)

    def _run_pass(self, p: P.Pass) -> bool:
        return self._checked(p.name, lambda: self._run_pass_now(p))

    def _checked(self, name: str, step: Callable[[], bool]) -> bool:
        """Run one pass (or HDD level) and confirm its result; see ``confirm`` in reduce_source."""
        if self._confirm is None:
            return step()
        self._strict = name in self._strict_passes
        try:
            changed = step()
        finally:
            self._strict = False
        start = self.confirmed
        if self._settle():
            return changed
        changed = self.current != start
        with self._lock:
            self.stats.redone += 1
        self._strict_passes.add(name)
        self._strict = self._redo = True
        try:
            changed = step() or changed
        finally:
            self._strict = self._redo = False
        self._settle()  # every accepted candidate was confirmed: nothing left to check
        return changed

    def _settle(self) -> bool:
        """Confirm ``current``. False: it failed; ``current`` is back at the last source accepted on the
        way that does pass (found by bisecting the accepted ones), or at the last confirmed source."""
        if self.current == self.confirmed:
            return True
        if self._confirmed_ok(_key(self.current), self.current):
            self._mark_confirmed()
            return True
        chain = self._tentative
        good, bad = -1, len(chain) - 1  # chain[bad] is current: it failed
        while bad - good > 1:
            mid = (good + bad) // 2
            if self._confirmed_ok(chain[mid][0], chain[mid][1]):
                good = mid
            else:
                bad = mid
        # A source accepted after the good one may well be fine on its own: let the repeat reach it again.
        self._history.difference_update(key for key, _source, _passes in chain[good + 1:])
        if good >= 0:
            _unused, self.current, passes = chain[good]
            with self._lock:
                self.stats.passes = dict(passes)
            del chain[good + 1:]
            self._mark_confirmed()
        else:
            self.current = self.confirmed
            with self._lock:
                self.stats.passes = dict(self._confirmed_passes)
            chain.clear()
        self._progress()
        return False

    def _confirmed_ok(self, key: bytes, source: str) -> bool:
        with self._lock:
            ok = self._confirm_cache.get(key)
        return self._run_confirm(key, source) if ok is None else ok

    def _mark_confirmed(self) -> None:
        self.confirmed = self.current
        with self._lock:
            self._confirmed_passes = dict(self.stats.passes)
        self._tentative.clear()
        if self._on_improve is not None:
            self._on_improve(self.current)

    def _run_pass_now(self, p: P.Pass) -> bool:
        self._set_phase(p.name)
        if isinstance(p, P.ProbePass):
            return self._probe_pass(p)
        if isinstance(p, P.DdminPass):
            return self._ddmin_pass(p)
        if isinstance(p, P.EachPass):
            return self._each_pass(p)
        return self._search_pass(p)

    # ------------------------------------------------------------------ passes
    def _hdd(self, *, prune: bool) -> bool:
        start = self.current
        depth = 0
        while True:
            levels = P.statement_levels(self.current, prune=prune)
            if depth >= len(levels):
                break
            self._set_phase(f"hdd level {depth}")
            self._checked("hdd", functools.partial(self._hdd_level, depth, prune, self.current, levels[depth]))
            depth += 1
        return self.current != start

    def _hdd_level(self, depth: int, prune: bool, base: str, edits: list[P.Edit]) -> bool:
        """ddmin over ``edits`` (level ``depth`` of ``base``); a repeat that starts elsewhere recomputes them."""
        if self.current != base:
            levels = P.statement_levels(self.current, prune=prune)
            edits = levels[depth] if depth < len(levels) else []
        return self._ddmin(edits, "hdd", site=f"hdd {depth}")

    def _ddmin_pass(self, p: P.DdminPass) -> bool:
        start = self.current
        for _ in range(_MAX_ROUNDS):
            edits = p.propose(self.current)
            if not self._ddmin(edits, p.name, try_all_first=p.try_all_first, sparse=p.sparse) or not p.repeat:
                break
        return self.current != start

    def _ddmin(self, edits: Sequence[P.Edit], name: str, *, site: str | None = None,
               try_all_first: bool = False, sparse: bool = False) -> bool:
        """picire ddmin over ``edits``; config = indices of edits *not* applied.

        ``site`` (default ``name``) names where the edits come from (a pass, an HDD level): when
        the last ddmin there applied less than half of its edits (or, the first time, when the
        pass is ``sparse``), this one goes from halves straight to single edits (see :data:`_FINE_BELOW`).
        """
        n = len(edits)
        if n == 0:
            return False
        site = site or name
        start = self.current
        render = _Renderer(start, edits)
        applied = 0
        try:
            if try_all_first or n == 1:
                if self._try(render([]), name, n):
                    applied = n
                    return True
                if n == 1:
                    return False
            fine = self._yields.get(site, 0.0 if sparse else 1.0) < _FINE_BELOW
            result = _DD(self, render, name, fine=fine)(list(range(n)))
            applied = n - len(result)
            if len(result) == 1 and not try_all_first and self._try(render([]), name, 1):
                applied = n  # picire never tests the empty configuration
            return self.current != start
        finally:
            self._yields[site] = applied / n

    def _capture(self, p: P.ProbePass) -> list[P.Edit] | None:
        """Probe the current source once: the pass's edits (most recently evaluated first)."""
        key = _key(self.current)
        if self._probe is None or (key in self._probed and not self._redo):
            return None
        instrumented = p.instrument(self.current)
        if instrumented is None:
            return None
        program, sites = instrumented
        if key in self._probed:  # repeating the pass on the same source: same values
            captured = self._probed[key]
        else:
            captured = self._probed[key] = self._probe(program)
            with self._lock:
                self.stats.probes += 1
        return p.propose(self.current, sites, captured)

    def _quick_materialize(self) -> bool:
        """Cheap first cut of a long program: materialize all values, or the few evaluated last.

        A handful of tests instead of a ddmin over every site; the full ddmin runs with the fine
        passes once the program is small.
        """
        self._set_phase(P.MATERIALIZE.name)
        edits = self._capture(P.MATERIALIZE)
        if not edits:
            return False
        for k in sorted({len(edits), min(8, len(edits)), 1}, reverse=True):
            if self._try(P.apply_edits(self.current, edits[:k]), P.MATERIALIZE.name, k):
                return True
        return False

    def _probe_pass(self, p: P.ProbePass) -> bool:
        """One probe run of the instrumented program, then ddmin over the proposed splices."""
        edits = self._capture(p)
        return bool(edits) and self._ddmin(edits, p.name, try_all_first=True)

    def _each_pass(self, p: P.EachPass) -> bool:
        start = self.current
        i = 0
        candidates = p.candidates(self.current)
        for _ in range(_MAX_STEPS):
            if i >= len(candidates):
                break
            j = self.first_interesting(candidates[i:])
            if j is None:
                break
            self.accept(candidates[i + j], p.name, 1)
            i += j
            candidates = p.candidates(self.current)
        return self.current != start

    def _search_pass(self, p: P.SearchPass) -> bool:
        start = self.current
        index = 0
        while True:
            sites = p.sites(self.current)
            if index >= len(sites):
                break
            if sites[index].shrinkable:
                self._shrink_literal(p, index, sites[index])
            index += 1
        return self.current != start

    def _shrink_literal(self, p: P.SearchPass, index: int, site: P.NumericSite) -> None:
        """Smallest value that still fails: 0, 1, then binary search in (1, value)."""
        firsts: list[float | int] = [0.0, 1.0] if site.is_float else [0, 1]
        candidates = [site.render(v) for v in firsts]
        j = self.first_interesting(candidates)
        if j is not None:
            self.accept(candidates[j], p.name, 1)
            return
        if site.is_float or site.value < 3:
            return
        lo, hi = 1, int(site.value)
        if self.round > 1:
            # Already searched in an earlier round: check one below first (cheap 1-minimality).
            if not self._try(site.render(hi - 1), p.name, 1):
                return
            hi -= 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._try(p.sites(self.current)[index].render(mid), p.name, 1):
                hi = mid
            else:
                lo = mid

    # ----------------------------------------------------------------- testing
    def _try(self, candidate: str | None, name: str, count: int) -> bool:
        if candidate is None:
            self.count_invalid()
            return False
        if candidate == self.current or not self.test(candidate):
            return False
        return self.accept(candidate, name, count)

    def count_invalid(self) -> None:
        with self._lock:
            self.stats.invalid_skipped += 1

    def test(self, candidate: str) -> bool:
        """Is ``candidate`` interesting?  Main thread only; answers from the cache when possible."""
        if self._stopped:
            raise Stop()
        if candidate == self.current:
            self._hit()
            return True
        key = _key(candidate)
        if key in self._history:
            self._hit()
            return False  # a former best: going back could cycle
        known = self._known(key)
        if known is not None:
            if key in self._prefetched:
                self._prefetched.discard(key)
            else:
                self._hit()
            if not known:
                self._reject(candidate)
            return known
        if self._memo and self._change(candidate) in self._rejected:
            with self._lock:
                self.stats.memo_skips += 1
            return False
        if not P.parses(candidate):
            with self._lock:
                self._cache[key] = False
                self.stats.invalid_skipped += 1
            return False
        result = self._run(key, candidate)
        if not result:
            self._reject(candidate)
        self._progress()
        return result

    def _reject(self, candidate: str) -> None:
        change = self._change(candidate)
        if change is not None:
            self._rejected.add(change)

    def _change(self, candidate: str) -> bytes | None:
        """What ``candidate`` changes in ``current``: the differing lines, with one line around them;
        None for a change of more than :data:`_MEMO_LINES` lines.

        A small change rejected once is usually rejected again in a later round (the program around
        it shrank, the line did not). Rounds skip such changes (``_memo``); the last round does not.
        Larger ones (a block, half a body) depend more on the rest of the program: always run.
        """
        old, new = self.current.splitlines(keepends=True), candidate.splitlines(keepends=True)
        limit = min(len(old), len(new))
        head = 0
        while head < limit and old[head] == new[head]:
            head += 1
        tail = 0
        while tail < limit - head and old[-1 - tail] == new[-1 - tail]:
            tail += 1
        if max(len(old), len(new)) - head - tail > _MEMO_LINES:
            return None
        before = old[head - 1] if head else ""
        after = old[len(old) - tail] if tail else ""
        return _key(repr((before, old[head:len(old) - tail], new[head:len(new) - tail], after)))

    def _known(self, key: bytes) -> bool | None:
        """The cached answer for ``key`` (confirmed too while strict), None if a run is needed."""
        with self._lock:
            known = self._cache.get(key)
            if known and self._strict:
                return self._confirm_cache.get(key)
            return known

    def _hit(self) -> None:
        with self._lock:
            self.stats.cache_hits += 1

    def _run(self, key: bytes, candidate: str) -> bool:
        """Call the predicate, and ``confirm`` while strict (any thread)."""
        if self._stopped:
            raise Stop()
        with self._lock:
            result = self._cache.get(key)
        if result is None:
            with self._lock:
                self.stats.tests_run += 1
                name = self.phase.split(" level ")[0]
                self.stats.tests_by_pass[name] = self.stats.tests_by_pass.get(name, 0) + 1
            result = self._call(self._predicate, candidate)
            with self._lock:
                self._cache[key] = result
        if not (result and self._strict):
            return result
        with self._lock:
            confirmed = self._confirm_cache.get(key)
        return self._run_confirm(key, candidate) if confirmed is None else confirmed

    def _run_confirm(self, key: bytes, candidate: str) -> bool:
        assert self._confirm is not None
        if self._stopped:
            raise Stop()
        with self._lock:
            self.stats.confirms += 1
        result = self._call(self._confirm, candidate)
        with self._lock:
            self._confirm_cache[key] = result
        return result

    def _call(self, check: Callable[[str], bool], candidate: str) -> bool:
        try:
            return bool(check(candidate))
        except Stop:
            self._stopped = True
            raise

    def first_interesting(self, candidates: Sequence[str]) -> int | None:
        """Index of the first interesting candidate (sequential semantics, parallel speed-up)."""
        if self._pool is not None:
            self.prefetch(c for c in candidates if c != self.current)
        try:
            for i, candidate in enumerate(candidates):
                if candidate != self.current and self.test(candidate):
                    return i
            return None
        finally:
            self.end_prefetch()

    def prefetch(self, candidates: Iterable[str | None]) -> None:
        """Evaluate candidates concurrently, in order, up to the first interesting one."""
        if self._pool is None:
            return
        pending: list[tuple[bytes, str]] = []
        seen: set[bytes] = set()
        for candidate in candidates:
            if candidate is None:
                continue
            if candidate == self.current:
                break
            key = _key(candidate)
            if key in self._history or key in seen:
                continue
            known = self._known(key)
            if known is True:
                break
            if known is False or (self._memo and self._change(candidate) in self._rejected):
                continue
            if not P.parses(candidate):
                with self._lock:
                    self._cache[key] = False
                    self.stats.invalid_skipped += 1
                self._prefetched.add(key)
                continue
            seen.add(key)
            pending.append((key, candidate))
        self._run_window(pending)

    def _run_window(self, pending: list[tuple[bytes, str]]) -> None:
        assert self._pool is not None
        in_flight: deque[tuple[bytes, Future[bool]]] = deque()
        index = 0
        found = False
        try:
            while index < len(pending) or in_flight:
                while not found and index < len(pending) and len(in_flight) < self._jobs:
                    key, candidate = pending[index]
                    index += 1
                    in_flight.append((key, self._pool.submit(self._run, key, candidate)))
                if not in_flight:
                    break
                key, future = in_flight.popleft()
                result = future.result()
                self._prefetched.add(key)
                self._progress()
                found = found or result
        except BaseException:
            for _unused, future in in_flight:
                future.cancel()
            raise

    def end_prefetch(self) -> None:
        self._prefetched.clear()

    # ------------------------------------------------------------- improvement
    def accept(self, candidate: str | None, name: str, count: int) -> bool:
        if candidate is None or candidate == self.current:
            return False
        key = _key(candidate)
        with self._lock:
            assert self._cache.get(key) is True, "only interesting candidates are accepted"
            confirmed = self._confirm is None or self._confirm_cache.get(key) is True
            assert confirmed or not self._strict, "only confirmed candidates are accepted while strict"
            self.stats.passes[name] = self.stats.passes.get(name, 0) + count
        self.current = candidate
        self._history.add(key)
        if confirmed:
            self._mark_confirmed()
        else:
            with self._lock:
                self._tentative.append((key, candidate, dict(self.stats.passes)))
        self._progress()
        return True

    def _set_phase(self, phase: str) -> None:
        self.phase = phase
        self._progress()

    def _snapshot(self) -> ReduceStats:
        with self._lock:
            s = self.stats
            return ReduceStats(s.tests_run, s.cache_hits, s.invalid_skipped, dict(s.passes), s.rounds, s.probes,
                               dict(s.tests_by_pass), s.confirms, s.redone, s.memo_skips)

    def _progress(self) -> None:
        if self._on_progress is not None:
            self._on_progress(Progress(self.phase, self.current, self._snapshot()))


class _Renderer:
    """Config (indices of edits kept *unapplied*) -> candidate source, memoized."""

    def __init__(self, base: str, edits: Sequence[P.Edit]) -> None:
        self.base = base
        self.edits = list(edits)
        self._memo: dict[tuple[int, ...], str | None] = {}

    def __call__(self, kept: Sequence[int]) -> str | None:
        key = tuple(kept)
        if key not in self._memo:
            keep = set(key)
            applied = [e for i, e in enumerate(self.edits) if i not in keep]
            self._memo[key] = P.apply_edits(self.base, applied) if applied else self.base
        return self._memo[key]


def _halves_then_singles(subsets: list[list[int]]) -> list[list[int]]:
    """A ddmin split for configurations that are (nearly) minimal already: the whole config into
    halves (two tests when everything can go at once), any finer split straight into single edits
    (about n tests to confirm nothing can go, where halving on down costs about 2n)."""
    if len(subsets) == 1:
        return ZellerSplit(n=2)(subsets)
    return [[c] for s in subsets for c in s]


class _DD(DD):  # type: ignore[misc]
    """picire's ddmin, reporting each accepted reduction and prefetching tests in parallel."""

    def __init__(self, engine: _Engine, render: _Renderer, name: str, *, fine: bool = False) -> None:
        super().__init__(
            self._outcome,
            split=_halves_then_singles if fine else ZellerSplit(n=2),
            subset_first=False,
            subset_iterator=skip,
            complement_iterator=backward,
        )
        self._engine = engine
        self._render = render
        self._name = name

    def _outcome(self, config: Sequence[int], config_id: Any) -> Outcome:
        candidate = self._render(config)
        if candidate is None:
            self._engine.count_invalid()
            return Outcome.PASS
        return Outcome.FAIL if self._engine.test(candidate) else Outcome.PASS

    def _planned(self, subsets: list[list[int]], offset: float) -> Iterable[str | None]:
        """The configurations picire's DD will test in this iteration, in its order."""
        n = len(subsets)
        for step in (self._first_reduce, self._second_reduce):
            if step == self._reduce_to_complement:
                for i in self._complement_iterator(n):
                    if i is None:
                        continue
                    i = int((i + offset) % n)
                    config = [c for si, s in enumerate(subsets) for c in s if si != i]
                    if self._cache.lookup(config) is None:
                        yield self._render(config)
            else:
                for i in self._subset_iterator(n):
                    if i is not None and self._cache.lookup(subsets[i]) is None:
                        yield self._render(subsets[i])

    def _reduce_config(self, run: int, subsets: list[list[int]], complement_offset: float) -> Any:
        engine = self._engine
        if engine._pool is not None:
            engine.prefetch(self._planned(subsets, complement_offset))
        try:
            next_subsets, offset = super()._reduce_config(run, subsets, complement_offset)
        finally:
            engine.end_prefetch()
        if next_subsets is not None:
            before = sum(len(s) for s in subsets)
            config = [c for s in next_subsets for c in s]
            engine.accept(self._render(config), self._name, before - len(config))
        return next_subsets, offset
