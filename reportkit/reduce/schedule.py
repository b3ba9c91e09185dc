"""Reduce a Python source while a predicate keeps saying "still fails the same way".

The reducer never knows what a test is (picire style): it only gets
``is_interesting(candidate_source) -> bool``.  It proposes candidates that parse,
never asks about the same content twice, and keeps the smallest interesting source.

Three parts, shrinkray style:

* the round schedule here (:class:`_Schedule`): which pass runs next, until a fixpoint;
* the passes (:mod:`reportkit.reduce.passes`): each a name, what to try, and the kind of search it
  needs (:mod:`reportkit.reduce.passes.kinds`), run on a :class:`Problem`;
* the candidate tester (:mod:`reportkit.reduce.tester`, with the lazy differential check in
  :mod:`reportkit.reduce.confirm`) and the picire ddmin adapter (:mod:`reportkit.reduce.dd`).

Schedule::

    repeat (a round):
        [materialize values, first cut (needs a probe run); if that changed: hoist]
        repeat until unchanged:                       # structural phase
            HDD: for level 0, 1, 2, ...: picire ddmin over the statements at that depth
            unused names, compound -> body, inline one-use functions
        [if scaffolding passes (self attributes, class -> function, unused parameters, one-element
         containers, readability) change anything: the structural phase again]
        [materialize values (needs a probe run), hoist statements to module level]
        display elements, inline one-use variables
            (if one of these two changed anything: the next round, before any finer pass runs)
        call args, expressions -> 0 / a sub-expression, literals -> 1, smallest failing literal values
    until a round's fine-grained passes (but for the values of numbers) and an unpruned HDD sweep
        change nothing (rounds skip changes an earlier test rejected; a last round
        that skips nothing, nor searches smaller numbers, confirms the fixpoint)
    finally: drop comments, docstrings, blank lines / trailing whitespace (one try for all of them;
        one try each if that fails)

With ``jobs > 1`` the candidates a search will walk next (the complements of one ddmin
iteration, an EachPass's list) are evaluated speculatively in a thread pool before they
are walked sequentially, so the result is identical to ``jobs=1``.

An optional second condition (``confirm``: the differential run of a wrong-result bug) is
checked once per pass on its result rather than on every accepted candidate; see
:func:`reduce_source`.
"""

from __future__ import annotations

import functools
import tokenize
from dataclasses import dataclass
from typing import Callable, Hashable, Sequence

from reportkit.reduce import passes as P
from reportkit.reduce.bookkeeping import Progress, ReduceStats, Stop, Trace, key
from reportkit.reduce.dd import Ddmin
from reportkit.reduce.tester import Tester

__all__ = ["Problem", "Progress", "ReduceResult", "ReduceStats", "Stop", "reduce_source"]

_MAX_ROUNDS = 50


@dataclass
class ReduceResult:
    source: str
    stats: ReduceStats
    stopped_early: bool  # Stop was raised (budget, Ctrl-C handled by caller)


def reduce_source(
    source: str,
    is_interesting: Callable[[str], bool],
    *,
    jobs: int = 1,
    on_progress: Callable[[Progress], None] | None = None,
    on_improve: Callable[[str], None] | None = None,
    probe: Callable[[str, str], str | None] | None = None,
    oracle: bool = False,
    confirm: Callable[[str], bool] | None = None,
    rebuild: bool | None = None,
    guarded: bool = False,
    inputs: bool = False,
    assertion: bool = False,
    trace: Trace | None = None,
    screen: Callable[[str], str | None] | None = None,
) -> ReduceResult:
    """Reduce ``source`` while ``is_interesting`` holds; ``source`` itself is assumed interesting.

    ``is_interesting`` is only called with candidates that parse and compile, never twice
    with the same content, and from up to ``jobs`` threads at once (so it must be
    thread-safe when ``jobs > 1``).  It may raise :class:`Stop` to end the reduction: the
    best source so far is returned with ``stopped_early=True``.  ``on_improve`` receives
    every new best source (always one the predicate accepted); ``on_progress`` is called
    at phase changes, after each test and after each improvement.

    ``probe(program, source)``, when given, runs an *instrumented* program (not a candidate; made from
    the current ``source``) and returns what it recorded (the text of the file named by
    ``$REPORTKIT_CAPTURE``), or None; it enables value
    materialization (:mod:`reportkit.reduce.passes.materialize`). Without it that pass is skipped.

    ``oracle``: the values the failure operates on are the bug (a check of computed values — an
    assertion, a printed mismatch — or a failure the script's own code raised, see
    :func:`reportkit.reduce.minimize.keeps_values`). Passes that replace a computed value or a literal by
    another value (:data:`reportkit.reduce.passes.VALUE_PASSES`) are off: they would keep "the same failure"
    while losing the computation that is wrong.

    ``rebuild``: passes that keep a computation as code but run it at each use
    (:data:`reportkit.reduce.passes.REBUILDING_PASSES`: an object built once in ``__init__`` built where it is
    read) may run. Default: ``not oracle``. A failure the script's own code raised keeps them (its
    values stay code); a check of computed values does not (random weights differ between builds).

    ``guarded``: ``confirm`` is a fix check (the result must pass on the good code), which keeps the cause
    by itself: the value passes that only drop data (:data:`reportkit.reduce.passes.DATA_PASSES`: rows of a text
    pasted as a string) run for an oracle too.

    ``inputs``: with ``oracle``, the values are the bug because a tensor operator in the script's own code
    raised (:attr:`reportkit.reduce.minimize.Keep.inputs`); the data fed to torch models may still become
    random tensors of their shape (:data:`reportkit.reduce.passes.MODEL_INPUTS`, needs ``probe``).

    ``assertion``: the failure is an ``assert`` of the script failing (its own ``AssertionError``): the pass
    that turns an assert into its test (:data:`reportkit.reduce.passes.ASSERT_TESTS`) is off, its candidates
    would all pass.

    ``confirm``, when given, is a second, costlier condition every result must meet as well (e.g. a
    differential run that must pass). It is checked lazily: once on the result of each pass (each
    HDD level), not on every candidate ``is_interesting`` accepts. When a pass's result fails it,
    the engine goes back to the last source accepted in that pass that meets it (bisecting the
    accepted ones) and repeats the pass from there, this time confirming each candidate before
    accepting it; a pass that failed once is confirmed that way from then on.
    ``on_improve`` and the returned source only ever see confirmed sources. Same thread rules as
    ``is_interesting``.

    ``trace``: a :class:`reportkit.reduce.bookkeeping.Trace` receiving one line per decision about a candidate.
    ``screen``: tells without a run that ``confirm`` rejects a candidate (returns why, else None); such a
    candidate is never run (e.g. the fix check's candidates that have no good form).
    """
    if jobs < 1:
        raise ValueError("jobs must be >= 1")
    problem = Problem(source, is_interesting, jobs=jobs, on_progress=on_progress, on_improve=on_improve,
                      probe=None if oracle and not inputs else probe, confirm=confirm, trace=trace, screen=screen)
    return _Schedule(problem, oracle=oracle, rebuild=not oracle if rebuild is None else rebuild,
                     guarded=guarded, inputs=inputs, assertion=assertion).run()


def analyse_ahead(source: str) -> None:
    """Work out what :func:`reduce_source` reads first of ``source``: its pruned HDD levels (its tree and its
    scopes with them). They are kept per version (:func:`reportkit.reduce.passes.chunks.per_version`, a pure
    function of the text): the reduction finds them done. For a caller with time to spare (while the warm server
    starts); nothing when ``source`` does not parse."""
    try:
        P.statement_levels(source, prune=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        pass


class Problem(Tester):
    """What a pass works on (:class:`reportkit.reduce.passes.kinds.Problem`): the candidate tester plus the
    searches a pass can ask for, picire's ddmin over edits and one probe run."""

    def __init__(
        self,
        source: str,
        predicate: Callable[[str], bool],
        *,
        jobs: int = 1,
        on_progress: Callable[[Progress], None] | None = None,
        on_improve: Callable[[str], None] | None = None,
        probe: Callable[[str, str], str | None] | None = None,
        confirm: Callable[[str], bool] | None = None,
        trace: Trace | None = None,
        screen: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__(source, predicate, jobs=jobs, on_progress=on_progress, on_improve=on_improve,
                         confirm=confirm, trace=trace, screen=screen)
        self._ddmin = Ddmin(self)
        self._probe = probe
        self._captured: dict[tuple[object, bytes], str | None] = {}  # (instrument, source) -> what its probe run captured
        self._probed: set[bytes] = set()  # sources a probe pass ran on (capture() without mark=False)

    @property
    def round(self) -> int:
        return self.stats.rounds

    def ddmin(self, edits: Sequence[P.Edit], name: str, *, site: str | None = None,
              try_all_first: bool = False, sparse: bool = False, groups: Sequence[Hashable] | None = None) -> bool:
        return self._ddmin(edits, name, site=site, try_all_first=try_all_first, sparse=sparse, groups=groups)

    def capture(self, p: P.ProbePass, *, mark: bool = True) -> list[P.Edit] | None:
        """Probe the current source once: the pass's edits (most recently evaluated first). ``mark=False``:
        a look at the values that does not count as the pass's run on this source (the next one here still
        proposes them; its probe run is not repeated)."""
        k = key(self.current)
        if self._probe is None or (mark and k in self._probed and not self.confirm.redo):
            return None
        instrumented = p.instrument(self.current)
        if instrumented is None:
            return None
        program, sites = instrumented
        # one capture per instrumentation and source (the value passes share theirs); a ``plain`` pass's
        # program runs on the candidates' side only (``probe.plain``), without the second condition's run
        plain = getattr(p, "plain", False)
        ck = (p.instrument, k)
        if ck in self._captured:  # repeating the pass on the same source, or after a look: same values
            captured = self._captured[ck]
        else:
            run = getattr(self._probe, "plain", None) if plain else None
            captured = self._captured[ck] = run(program) if run is not None else self._probe(program, self.current)
            with self.lock:
                self.stats.probes += 1
        if mark:
            self._probed.add(k)
        return p.propose(self.current, sites, captured)


class _Schedule:
    """The round schedule: which pass (or HDD level) runs next, each result confirmed (see reduce_source)."""

    def __init__(self, problem: Problem, *, oracle: bool, rebuild: bool = True, guarded: bool = False,
                 inputs: bool = False, assertion: bool = False) -> None:
        self.problem = problem
        self._oracle = oracle
        self._rebuild = rebuild
        self._guarded = guarded
        self._inputs = inputs
        self._assertion = assertion

    def run(self) -> ReduceResult:
        problem = self.problem
        stopped = False
        clean = False
        try:
            problem.set_phase("start")
            self._reduce()
            problem.set_phase("done")
            clean = True
        except Stop:
            stopped = True
        finally:
            problem.close(wait=clean)
        return ReduceResult(problem.confirm.confirmed, problem.snapshot(), stopped)

    def _reduce(self) -> None:
        problem = self.problem
        while problem.round < _MAX_ROUNDS:
            problem.stats.rounds += 1
            verifying = problem.verifying
            if not verifying:  # (a verifying round runs without memo until it changes something)
                problem.memo = True
            if problem.trace is not None:
                problem.trace.line("round", problem.current, "round", None,
                                   f"round {problem.round}" + (" (verifying: no memo)" if problem.verifying else ""))
            if problem.round == 1:  # the statements that make every run slow, before anything else
                self._run_pass(P.COSTLY)
            first_cut = P.MATERIALIZE_FIRST_CUT if self._allowed(P.MATERIALIZE) else P.MODEL_INPUTS_FIRST_CUT
            if self._allowed(first_cut.probe) and self._run_pass(first_cut):
                self._run_pass(P.HOIST)
            self._structural()
            if self._scaffold():
                self._structural()
            before = problem.current
            for fine in P.FINE:
                if verifying and fine in P.NUMBER_SEARCHES:
                    continue  # (below)
                if self._allowed(fine) and self._run_pass(fine) and fine in P.RESHAPING:
                    break  # the structural and scaffolding passes first, on what it opened up
            # A round whose fine passes changed numbers only is no reason for another round: literals
            # that bound each other (a sample count and a batch size whose floor division is the bug)
            # went down one step per round, each round re-running every pass (corpus13/01: 30 rounds,
            # 1,222 tests). Likewise a verifying round does not search smaller values: numbers one
            # step lower are no smaller reproducer.
            if problem.current != before and not _numbers_only(before, problem.current):
                continue
            # Fixpoint of the pruned search: one unpruned HDD sweep makes it 1-minimal.
            if self._hdd(prune=False):
                continue
            if not problem.memo:
                break
            # A fixpoint with known-rejected changes skipped: one more round without skipping
            # anything makes it a real one (1-minimal w.r.t. every pass). Its first accepted change
            # turns the memo back on (Tester.accept): the rest of that round is an ordinary one, and
            # another verifying round follows.
            problem.memo = False
            problem.verifying = True
        self._final()

    def _final(self) -> None:
        """The cosmetic passes: all of them as one candidate (one test), one by one only if that fails. The
        riders (:data:`reportkit.reduce.passes.FINAL_RIDERS`) only join a change of the others: never a test
        of their own. Gathering imports is the one that may fail (a submodule the package does not import
        itself): when all together fail, the others together before any one alone."""
        changed: list[str] = []
        if self._together(P.FINAL_RIDERS, changed):
            return
        riders = tuple(p for p in P.FINAL_RIDERS if p is not P.QUALIFY_IMPORTS)
        if P.QUALIFY_IMPORTS.name in changed and self._together(riders, []):
            return
        for final in P.FINAL:
            self._run_pass(final)

    def _together(self, riders: tuple[P.Pass, ...], changed: list[str]) -> bool:
        """The final passes and ``riders`` applied one after the other, as one candidate: accepted? (False where
        fewer than two of them change anything: the one-by-one runs try it.) ``changed``: the names of those
        that changed anything, filled in."""
        problem = self.problem
        source = problem.current
        for final in (*P.FINAL, *riders):
            if final in riders and not changed:
                break
            proposed = final.candidates(source)
            if proposed:
                source = proposed[0]
                changed.append(final.name)
        if len(changed) < 2:
            return False

        def together() -> bool:
            problem.set_phase("final")
            if source == problem.current or not problem.test(source):
                return False
            with problem.lock:
                for name in changed[1:]:
                    problem.stats.passes[name] = problem.stats.passes.get(name, 0) + 1
            return problem.accept(source, changed[0], 1)

        return problem.confirm.checked("final", together)

    def _structural(self) -> None:
        for _ in range(_MAX_ROUNDS):
            before = self.problem.current
            self._hdd(prune=True)
            for structural in P.STRUCTURAL:
                self._run_pass(structural)
            if self.problem.current == before:
                break

    def _allowed(self, p: P.Pass) -> bool:
        """Value passes are off for an oracle (those that only drop data not when a fix check guards the
        cause); rebuilding passes are on only with ``rebuild``."""
        if p in P.REBUILDING_PASSES:
            return self._rebuild
        if p is P.ASSERT_TESTS:
            return not self._assertion
        if p is P.MODEL_INPUTS:  # (where every value may become a literal, materialize does it all)
            return self._oracle and self._inputs
        if self._guarded and p in P.DATA_PASSES:
            return True
        return not (self._oracle and p in P.VALUE_PASSES)

    def _scaffold(self) -> bool:
        """The scaffolding passes until none of them changes anything."""
        start = self.problem.current
        for _ in range(_MAX_ROUNDS):
            before = self.problem.current
            for scaffold in P.SCAFFOLD:
                if self._allowed(scaffold):
                    self._run_pass(scaffold)
            if self.problem.current == before:
                break
        return self.problem.current != start

    def _run_pass(self, p: P.Pass) -> bool:
        def step() -> bool:
            self.problem.set_phase(p.name)
            return p.run(self.problem)

        return self.problem.confirm.checked(p.name, step)

    def _hdd(self, *, prune: bool) -> bool:
        """HDD: ddmin over the statements of each depth in turn (a level counts as the pass "hdd")."""
        problem = self.problem
        start = problem.current
        depth = 0
        while True:
            levels = P.statement_levels(problem.current, prune=prune)
            if depth >= len(levels):
                break
            problem.set_phase(f"hdd level {depth}")
            level = functools.partial(self._hdd_level, depth, prune, problem.current, levels[depth])
            problem.confirm.checked("hdd", level)
            depth += 1
        return problem.current != start

    def _hdd_level(self, depth: int, prune: bool, base: str, edits: list[P.Edit]) -> bool:
        """ddmin over ``edits`` (level ``depth`` of ``base``); a repeat that starts elsewhere recomputes them."""
        problem = self.problem
        if problem.current != base:
            levels = P.statement_levels(problem.current, prune=prune)
            edits = levels[depth] if depth < len(levels) else []
        if not prune:
            edits = _pruned_out(problem.current, depth, edits)
        # sparse: the statements of a body mostly need each other (measured over held-out scripts,
        # halving on down cost about twice the tests of halves-then-singles on the first sweep);
        # the halves still take a dead half of a level in two tests
        return problem.ddmin(edits, "hdd", site=f"hdd {depth}", sparse=True)


def _numbers_only(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` differ in the values of numeric literals only (the same tokens otherwise)?"""
    ta, tb = P.SourceMap(a).tokens, P.SourceMap(b).tokens
    return len(ta) == len(tb) and all(x.string == y.string or x.type == y.type == tokenize.NUMBER
                                      for x, y in zip(ta, tb))


def _pruned_out(source: str, depth: int, edits: list[P.Edit]) -> list[P.Edit]:
    """The statements of an unpruned level that the pruned levels leave out.

    The unpruned sweep runs on a fixpoint of the pruned HDD (every statement it proposes was tried
    alone on this very source): only the statements pruning skipped are new.
    """
    pruned = P.statement_levels(source, prune=True)
    kept = {_start(e) for e in pruned[depth]} if depth < len(pruned) else set()
    return [e for e in edits if _start(e) not in kept]


def _start(edit: P.Edit) -> int:
    assert isinstance(edit, P.Delete)
    return edit.seq.spans[edit.index][0]
