"""The candidate tester: answers "is this candidate still interesting?" for the reducer.

The search (:mod:`reportkit.reduce.schedule`, :mod:`reportkit.reduce.dd`, the passes) never calls the
predicate itself: it asks :class:`Tester`, which

* answers from a content cache (never the same content twice) and never goes back to a
  former best source (going back could cycle);
* skips, while ``memo`` is on, a candidate whose change an earlier test rejected (see :class:`_Memo`);
* never runs a candidate that does not parse (checked without compiling it whole where it can be:
  :mod:`reportkit.reduce.passes.wellformed`), nor one of an inlining pass that builds a statement more complex
  than any of the original's (:mod:`reportkit.reduce.passes.complexity`);
* evaluates planned candidates in a thread pool ahead of the sequential walk (``jobs > 1``),
  so the answers and their order are those of ``jobs = 1``; a planned candidate is looked at (its
  content key, cache, memo, parse) only when the window is about to run it, not when it is planned;
* runs the lazy differential check through :class:`reportkit.reduce.confirm.LazyConfirm`;
* keeps :class:`ReduceStats` and reports :class:`Progress`.
"""

from __future__ import annotations

import ast
import re
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Callable, Iterable, Iterator, Sequence

from reportkit.cancel import Withdrawn, withdrawable
from reportkit.reduce import passes as P
from reportkit.reduce.bookkeeping import Odds, Progress, ReduceStats, Stop, Trace, key
from reportkit.reduce.confirm import LazyConfirm
from reportkit.reduce.passes import complexity, wellformed

__all__ = ["Tester"]

#: The phases whose candidates may not build a statement beyond the original's most complex (Tester._too_complex).
_INLINING = frozenset(p.name for p in P.INLINING)

#: A candidate is run ahead of the walk (``jobs > 1``) only while the chance that every candidate
#: ahead of it in the window is rejected -- so that its answer will be used -- is at least this: a run
#: whose answer is never used is a test spent for nothing (see :class:`Odds`).
_RUN_AHEAD_IF_USED = 0.7


class Tester:
    """Tests candidates against ``current`` (the smallest interesting source so far); see the module doc."""

    def __init__(
        self,
        source: str,
        predicate: Callable[[str], bool],
        *,
        jobs: int = 1,
        on_progress: Callable[[Progress], None] | None = None,
        on_improve: Callable[[str], None] | None = None,
        confirm: Callable[[str], bool] | None = None,
        trace: Trace | None = None,
        screen: Callable[[str], str | None] | None = None,
    ) -> None:
        self.current = source  # (a property: see below)
        self.trace = trace
        self._screen = screen
        self.stats = ReduceStats()
        self.phase = "start"
        self.lock = threading.Lock()
        self.memo = False  # skip candidates making a change rejected before (see _Memo)
        self.verifying = False  # a round without memo to confirm a fixpoint: memo again once it changes anything
        self._predicate = predicate
        self._on_progress = on_progress
        first = key(source)
        self._cache: dict[bytes, bool] = {first: True}
        self.history: set[bytes] = {first}  # every source that was the best: never go back
        self._rejected = _Memo()
        self._stopped = False
        self._window = _Window(jobs) if jobs > 1 else None
        self._odds = Odds()
        self.confirm: LazyConfirm = LazyConfirm(self, confirm, on_improve)
        self._original = source
        self._cap_nodes: complexity.MostNodes | None = None  # what inlining may build (see _too_complex)
        self._current_nodes: tuple[str, int] | None = None  # a source, its most complex statement

    @property
    def current(self) -> str:
        """The smallest interesting source so far (the source the passes make their candidates from)."""
        return self._current

    @current.setter
    def current(self, source: str) -> None:
        self._current = source
        wellformed.set_reference(source)  # (the passes' own parse checks compare with it too)

    # ------------------------------------------------------------------ answers
    def test(self, candidate: str) -> bool:
        """Is ``candidate`` interesting?  Main thread only; answers from the cache when possible."""
        if self._stopped:
            raise Stop()
        if candidate == self.current:
            self._hit()
            return True
        k = key(candidate)
        if k in self.history:
            self._hit()
            return False  # a former best: going back could cycle
        known = self._known(k)
        if known is not None:
            if self._window is None or not self._window.consume(k):
                self._hit()
                if self.trace is not None:
                    self.trace.line(self.phase, candidate, "cache", known, "answered before")
            if not known:
                self._rejected.add(self.current, candidate)
            return known
        if self._screened(k, candidate):
            return False
        if self._memo_skips(candidate):
            if self.trace is not None:
                self.trace.line(self.phase, candidate, "memo", False, "its change was rejected before")
            return False
        if not self._parses(k, candidate) or self._too_complex(k, candidate):
            return False
        result = self._run(k, candidate)
        if not result:
            self._rejected.add(self.current, candidate)
        self.progress()
        return result

    def try_candidate(self, candidate: str | None, name: str, count: int) -> bool:
        """Test ``candidate`` (None: an edit that does not apply) and accept it if it is interesting."""
        if candidate is None:
            self.count_invalid()
            return False
        if candidate == self.current or not self.test(candidate):
            return False
        return self.accept(candidate, name, count)

    def first_interesting(self, candidates: Sequence[str]) -> int | None:
        """Index of the first interesting candidate (sequential semantics, parallel speed-up)."""
        self.prefetch(c for c in candidates if c != self.current)
        try:
            for i, candidate in enumerate(candidates):
                if candidate != self.current and self.test(candidate):
                    return i
            return None
        finally:
            self.end_prefetch()

    def accept(self, candidate: str | None, name: str, count: int) -> bool:
        """Make an interesting ``candidate`` current; ``count`` accepted edits go to pass ``name``."""
        if candidate is None or candidate == self.current:
            return False
        k = key(candidate)
        with self.lock:
            assert self._cache.get(k) is True, "only interesting candidates are accepted"
            self.stats.passes[name] = self.stats.passes.get(name, 0) + count
        if isinstance(candidate, wellformed.Spliced):
            candidate = str(candidate)  # (not the source it was made from: the sources accepted before stay garbage)
        self.current = candidate
        self.history.add(k)
        if self.verifying:  # no fixpoint: the rest of the round skips known-rejected changes again
            self.verifying = False
            self.memo = True
        if self.trace is not None:
            self.trace.line(self.phase, candidate, "accept", None, name)
        self.confirm.accepted(k, candidate)
        self.progress()
        return True

    def count_invalid(self) -> None:
        with self.lock:
            self.stats.invalid_skipped += 1

    # ----------------------------------------------------------------- helpers
    def _known(self, k: bytes) -> bool | None:
        """The cached answer for ``k`` (confirmed too while strict), None if a run is needed. A candidate
        the second condition rejected once is rejected in every pass, strict or not: accepting it would
        only make the pass's result fail that condition (and the pass be redone)."""
        with self.lock:
            known = self._cache.get(k)
        confirmed = self.confirm.cached(k)
        if confirmed is False:  # also one the second condition rejected before its own run (good first)
            return False
        if known and self.confirm.strict:
            return confirmed
        return known

    def _screened(self, k: bytes, candidate: str) -> bool:
        """Does ``screen`` know, without a run, that the second condition rejects ``candidate``?  Then it
        is rejected like one that does not parse: never run, on either side."""
        if self._screen is None:
            return False
        why = self._screen(candidate)
        if why is None:
            return False
        with self.lock:
            self._cache[k] = False
            self.stats.screened += 1
        if self.trace is not None:
            self.trace.line(self.phase, candidate, "screen", False, why)
        return True

    def _hit(self) -> None:
        with self.lock:
            self.stats.cache_hits += 1

    def _parses(self, k: bytes, candidate: str) -> bool:
        if wellformed.CHECK(candidate, self.current):
            return True
        with self.lock:
            self._cache[k] = False
            self.stats.invalid_skipped += 1
        return False

    def _too_complex(self, k: bytes, candidate: str) -> bool:
        """A candidate of an inlining pass (:data:`reportkit.reduce.passes.INLINING`) holding a statement with
        more nodes than the original's most complex one and than the current source's: rejected without a run
        (the value stays named, a maintainer reads the plain steps faster).

        Only the statements where the candidate differs from the current source are counted: the others are
        the current source's, no more complex than its most complex, which is counted (whole, once per
        source) only when a changed statement is beyond the original's."""
        if self.phase not in _INLINING:
            return False
        current = self.current
        stmts = complexity.changed_statements(candidate, current)  # (parsed once for both counts)
        if stmts is None:
            stmts = complexity.statements(P.tree_of(candidate))  # (it parses: checked before)
        nodes = complexity.most_nodes(stmts, complexity.imported_modules(candidate))
        if self._original_nodes.at_least(nodes):  # (the original's statements counted only until one is as large)
            return False
        if self._current_nodes is None or (self._current_nodes[0] is not current and self._current_nodes[0] != current):
            self._current_nodes = (current, _most_nodes(current))
        if complexity.most_nodes(stmts) <= self._current_nodes[1]:  # every node, as the current's: no ratchet
            return False
        with self.lock:
            self._cache[k] = False
            self.stats.too_complex += 1
        if self.trace is not None:
            self.trace.line(self.phase, candidate, "complex", False,
                            f"a statement of {nodes} nodes (the original's most complex: {self._cap})")
        return True

    @property
    def _original_nodes(self) -> complexity.MostNodes:
        """The nodes of the original's statements, counted when an inlining pass first asks (of the tree the
        passes share, when they still have the original's), as far as its questions need."""
        if self._cap_nodes is None:
            try:
                tree = P.tree_of(self._original)
            except (SyntaxError, ValueError):
                tree = ast.Module(body=[], type_ignores=[])
            self._cap_nodes = complexity.MostNodes(tree)
        return self._cap_nodes

    @property
    def _cap(self) -> int:
        """The nodes of the original's most complex statement."""
        return self._original_nodes.value

    def _memo_skips(self, candidate: str) -> bool:
        if not (self.memo and self._rejected.has(self.current, candidate)):
            return False
        with self.lock:
            self.stats.memo_skips += 1
        return True

    def _run(self, k: bytes, candidate: str) -> bool:
        """Call the predicate, and ``confirm`` while strict (any thread): the predicate first, unless
        ``confirm`` has rejected more of this phase's candidates lately than the predicate (see
        :meth:`reportkit.reduce.confirm.LazyConfirm.first`): then ``confirm`` first, and a candidate it rejects
        costs one run instead of two (its predicate never runs)."""
        if self._stopped:
            raise Stop()
        if type(candidate) is not str:
            candidate = str(candidate)  # the checks get plain text (a Spliced one carries its origin)
        with self.lock:
            result = self._cache.get(k)
        if result is None and self.confirm.strict and self.confirm.first(self.phase) and not self.confirm.ok(k, candidate):
            return False  # the second condition first: it rejects most of this pass's candidates (one run, not two)
        if result is None:
            with self.lock:
                self.stats.tests_run += 1
                name = self.phase.split(" level ")[0]
                self.stats.tests_by_pass[name] = self.stats.tests_by_pass.get(name, 0) + 1
            phase = self.phase
            began = time.monotonic()
            result = self.call(self._predicate, candidate)
            with self.lock:
                self.stats.seconds_by_pass[name] = self.stats.seconds_by_pass.get(name, 0.0) + time.monotonic() - began
                self._cache[k] = result
                self._odds.update(self.phase, result)
            if self.trace is not None:
                self.trace.line(phase, candidate, "bad", result)
        if not (result and self.confirm.strict):
            return result
        return self.confirm.ok(k, candidate)

    @property
    def stopped(self) -> bool:
        return self._stopped

    def call(self, check: Callable[[str], bool], candidate: str) -> bool:
        """``check(candidate)``; a Stop from it stops every later test too."""
        try:
            return bool(check(candidate))
        except Stop:
            self._stopped = True
            raise

    # ---------------------------------------------------------------- prefetch
    @property
    def parallel(self) -> bool:
        return self._window is not None

    def prefetch(self, candidates: Iterable[str | None]) -> None:
        """Evaluate candidates concurrently, in order, up to the first interesting one (``jobs > 1``).

        ``candidates`` is consumed lazily: the window takes the next one to run only when a slot is free,
        so a long plan (every complement of a ddmin iteration, every candidate of a pass) costs nothing
        beyond what is run. What is decided about a candidate (known, memo, parse, screen) does not depend
        on the runs before it in the window (each run only answers its own content), so the window runs
        the very candidates, in the same order, that looking at the whole plan first would have run."""
        if self._window is None:
            return
        ahead: list[tuple[bytes, str]] = []  # the candidates handed to the window (run, or run ahead)
        phase, base = self.phase, self.current
        self._window.run(self._runnable(candidates, ahead), self._run, self.progress, width=lambda: self._width(phase))
        # A change run ahead and rejected is known even when the walk never asks for it (it stopped at
        # an interesting candidate before it): a later sweep or round skips it like any rejected change.
        for k, candidate in ahead:
            if self._known(k) is False:
                self._rejected.add(base, candidate)

    def _runnable(self, candidates: Iterable[str | None], ahead: list[tuple[bytes, str]]) -> Iterator[tuple[bytes, str]]:
        """The candidates of a plan that need a run, up to the first known to be interesting (or ``current``)."""
        assert self._window is not None
        seen: set[bytes] = set()
        for candidate in candidates:
            if candidate is None:
                continue
            if candidate == self.current:
                return
            k = key(candidate)
            if k in self.history or k in seen:
                continue
            known = self._known(k)
            if known is True:
                return
            if known is False or (self.memo and self._rejected.has(self.current, candidate)):
                continue
            if not self._parses(k, candidate) or self._too_complex(k, candidate) or self._screened(k, candidate):
                self._window.add(k)
                continue
            seen.add(k)
            ahead.append((k, candidate))
            yield k, candidate

    def _width(self, phase: str) -> int:
        """How many candidates may be in flight at once in ``phase`` (see :data:`_RUN_AHEAD_IF_USED`)."""
        assert self._window is not None
        with self.lock:
            p = self._odds.of(phase)
        return self._window.width(p)

    def end_prefetch(self) -> None:
        if self._window is not None:
            self._window.clear()

    def close(self, *, wait: bool) -> None:
        """Shut the thread pool down; after Stop/Ctrl-C (``wait=False``) without waiting for tests still running."""
        if self._window is not None:
            self._window.close(wait=wait)

    # ---------------------------------------------------------------- progress
    def set_phase(self, phase: str) -> None:
        self.phase = phase
        self.progress()

    def snapshot(self) -> ReduceStats:
        with self.lock:
            s = self.stats
            return ReduceStats(s.tests_run, s.cache_hits, s.invalid_skipped, dict(s.passes), s.rounds, s.probes,
                               dict(s.tests_by_pass), s.confirms, s.redone, s.memo_skips, s.screened,
                               dict(s.seconds_by_pass), s.too_complex)

    def progress(self) -> None:
        if self._on_progress is not None:
            self._on_progress(Progress(self.phase, self.current, self.snapshot()))



def _most_nodes(source: str) -> int:
    """:func:`complexity.max_statement_nodes` of ``source``, from the tree the passes share, every node counted (as
    the original's: a candidate allowed before the lenient count of constructors is allowed still)."""
    try:
        return complexity.max_statement_nodes(P.tree_of(source))
    except (SyntaxError, ValueError):
        return 0


class _Memo:
    """Changes some test rejected (see :meth:`change`)."""

    def __init__(self) -> None:
        self._changes: set[bytes] = set()
        self._current: tuple[str, list[str]] = ("", [])  # the last current source and its lines

    def add(self, current: str, candidate: str) -> None:
        self._changes.add(self.change(current, candidate, self._lines(current)))

    def has(self, current: str, candidate: str) -> bool:
        return self.change(current, candidate, self._lines(current)) in self._changes

    def _lines(self, current: str) -> list[str]:
        """``current``'s lines, split once per current source (not once per candidate)."""
        last = self._current
        if last[0] is not current:
            last = self._current = (current, current.splitlines(keepends=True))
        return last[1]

    @staticmethod
    def change(current: str, candidate: str, lines: list[str] | None = None) -> bytes:
        """What ``candidate`` changes in ``current``: the differing lines, indentation aside, and the
        functions and classes they are in (:func:`_scope`); a change inside one line: the innermost
        bracketed expression around it, with the name before it (:func:`_local`), wherever that
        expression now stands.

        A change rejected once is usually rejected again in a later sweep or round while its lines and
        where they are stay the same (the program elsewhere shrank). Rounds skip such changes
        (``Tester.memo``); the last round does not. That holds for a large change too (half a body, a
        needed method): without the memo it is re-run in every structural sweep and every round.
        """
        old = current.splitlines(keepends=True) if lines is None else lines  # (``lines``: those of ``current``)
        new = candidate.splitlines(keepends=True)
        head, tail = wellformed.common_ends(old, new)
        if len(old) - tail - head == 1 and len(new) - tail - head == 1:
            local = _local(old[head], new[head])
            if local is not None:
                return key(repr(local))
        changed = [*old[head:len(old) - tail], "\0", *new[head:len(new) - tail], "\0", *_scope(old, head, tail)]
        return key(repr([line.strip() for line in changed]))


_HEADER = re.compile(r"\s*(?:async\s+def|def|class)\s+(\w+)")


def _scope(old: list[str], head: int, tail: int) -> list[str]:
    """Where a change of lines ``old[head:len(old) - tail]`` stands: the names of the functions and classes
    around it, innermost first (``forward``, ``Encoder``), and its own indentation. Not the lines next
    to it: they change as the code around shrinks (``super().__init__()`` then sits under another
    signature, above another first statement), and the same rejected change was run again each time."""
    changed = [line for line in old[head:len(old) - tail] if line.strip()] or \
        [line for line in old[head:head + 1] if line.strip()] or [""]
    indent = min(len(line) - len(line.lstrip()) for line in changed)
    out = [str(indent)]
    if indent == 0:
        return out
    for line in reversed(old[:head]):
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if depth < indent:
            indent = depth
            m = _HEADER.match(line)
            if m:
                out.append(m.group(1))
            if depth == 0:
                break
    return out


_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def _local(old: str, new: str) -> tuple[str, str] | None:
    """A change inside one line: the innermost bracketed group around it, with the name before it."""
    a, b = wellformed.common_ends(old, new)
    depth = 0
    left = a - 1
    while left >= 0:
        c = old[left]
        if c in _CLOSE:
            depth += 1
        elif c in _OPEN:
            if depth == 0:
                break
            depth -= 1
        left -= 1
    if left < 0:
        return None
    depth = 0
    right = len(old) - b
    while right < len(old):
        c = old[right]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            if depth == 0:
                break
            depth -= 1
        right += 1
    if right >= len(old) or old[right] != _OPEN[old[left]]:
        return None
    while left > 0 and (old[left - 1].isalnum() or old[left - 1] in "_."):
        left -= 1
    return old[left:right + 1], new[left:right + 1 + len(new) - len(old)]


class _Window:
    """The prefetch window: up to ``jobs`` planned candidates in flight, answers consumed in order."""

    def __init__(self, jobs: int) -> None:
        self._jobs = jobs
        self._pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="reportkit-reduce")
        self._prefetched: set[bytes] = set()  # answered speculatively, not yet consumed

    def width(self, p: float) -> int:
        """Candidates in flight when each is interesting with chance ``p``: the k-th one is run too while
        the chance that the k-1 before it are all rejected (its answer is used) is at least
        :data:`_RUN_AHEAD_IF_USED`; at least one, at most ``jobs``."""
        width, used = 1, 1.0 - p
        while width < self._jobs and used >= _RUN_AHEAD_IF_USED:
            width += 1
            used *= 1.0 - p
        return width

    def add(self, k: bytes) -> None:
        """``k`` was answered ahead of the walk (without a run: it does not parse)."""
        self._prefetched.add(k)

    def consume(self, k: bytes) -> bool:
        """Was ``k`` answered by the window and not asked for yet?  (Then it is no cache hit.)"""
        if k in self._prefetched:
            self._prefetched.discard(k)
            return True
        return False

    def clear(self) -> None:
        self._prefetched.clear()

    def run(self, pending: Iterable[tuple[bytes, str]], run: Callable[[bytes, str], bool],
            progress: Callable[[], None], width: Callable[[], int] | None = None) -> None:
        """Run ``pending`` (taken lazily, in order) up to ``width()`` at a time until one is interesting."""
        in_flight: deque[tuple[bytes, Future[bool], threading.Event]] = deque()
        todo = iter(pending)
        more = True
        found = False
        try:
            while more or in_flight:
                limit = self._jobs if width is None else width()
                while not found and more and len(in_flight) < max(1, limit):
                    nxt = next(todo, None)
                    if nxt is None:
                        more = False
                        break
                    k, candidate = nxt
                    event = threading.Event()
                    in_flight.append((k, self._pool.submit(_withdrawable, event, run, k, candidate), event))
                if not in_flight:
                    break
                k, future, event = in_flight.popleft()
                try:
                    result = future.result()
                except Withdrawn:
                    continue  # stopped early (cancel.py): no answer, nothing cached
                self._prefetched.add(k)
                progress()
                if not found and result:  # the walk stops here: later answers will not be consumed
                    found = True
                    for _k, _future, later in in_flight:
                        later.set()
        except BaseException:
            for _unused, future, event in in_flight:
                event.set()
                future.cancel()
            raise

    def close(self, *, wait: bool) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=True)


def _withdrawable(event: threading.Event, run: Callable[[bytes, str], bool], k: bytes, candidate: str) -> bool:
    with withdrawable(event):
        return run(k, candidate)
