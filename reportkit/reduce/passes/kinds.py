"""The kinds of search a reduction pass can ask for, and the problem a pass works on.

A pass is any object with a ``name`` and a ``run(problem) -> bool`` (True: it changed
``problem.current``).  Most passes only say *what* to try (a function from the current
source to edits or candidate sources) and pick one of the kinds below for *how*:

* :class:`DdminPass` -- many independent edits; picire's ddmin over them, config = edits
  *not* applied (so ddmin maximises what is applied).
* :class:`EachPass` -- a list of alternative candidate sources, tried one at a time.
* :class:`ProbePass` -- one probe run of an instrumented program, then ddmin over the edits
  it proposes from what the probe recorded; :class:`FirstCutPass` tries a few prefixes of
  those edits instead of a full ddmin.
* :class:`NumericPass` -- numeric literals, each searched for the smallest failing value.

Passes never run anything themselves: they ask the :class:`Problem` (shrinkray's
``ReductionProblem``), which tests candidates and keeps the smallest interesting source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Protocol, Sequence

from .chunks import Lazy
from .edits import Delete, Edit, ElementSeq, Together, apply_edits
from .expressions import NumericSite, format_number

#: Upper bound on the candidates an EachPass accepts in one run (a guard against a pass that
#: keeps proposing changes forever).
_MAX_STEPS = 100_000
#: Upper bound on a repeating DdminPass's re-proposals in one run.
_MAX_REPEATS = 50


class Problem(Protocol):
    """What a pass sees (implemented by :class:`reportkit.reduce.schedule.Problem`)."""

    @property
    def current(self) -> str:
        """The smallest interesting source so far."""

    @property
    def round(self) -> int:
        """1 in the first round of the reduction, then 2, 3, ..."""

    def first_interesting(self, candidates: Sequence[str]) -> int | None:
        """Index of the first interesting candidate (tested in order; in parallel with ``-j``)."""

    def accept(self, candidate: str | None, name: str, count: int) -> bool:
        """Make an interesting ``candidate`` the current source; ``count`` edits go to pass ``name``."""

    def try_candidate(self, candidate: str | None, name: str, count: int) -> bool:
        """Test ``candidate`` (None: an edit that does not apply) and accept it if it is interesting."""

    def ddmin(self, edits: Sequence[Edit], name: str, *, site: str | None = None,
              try_all_first: bool = False, sparse: bool = False, groups: Sequence[Hashable] | None = None) -> bool:
        """picire's ddmin over ``edits`` of the current source, accepting each reduction it finds
        (``groups``: one per edit; near a minimum, ddmin's first split is one subset per group)."""

    def capture(self, p: ProbePass, *, mark: bool = True) -> list[Edit] | None:
        """One probe run of ``p``'s instrumented program: the edits ``p`` proposes (None: no probe; or
        ``p`` ran on this source before, unless ``mark=False``: a look that is not ``p``'s run here)."""


class Pass(Protocol):
    """A reduction pass: its name (in stats and progress) and one run over the problem."""

    @property
    def name(self) -> str: ...

    def run(self, problem: Problem) -> bool:
        """Reduce ``problem.current`` with this pass once; True if it changed."""


@dataclass(frozen=True)
class DdminPass:
    name: str
    propose: Callable[[str], list[Edit]]
    try_all_first: bool = False  # most proposals are expected to succeed together
    repeat: bool = False  # re-propose on the result until nothing is accepted
    sparse: bool = False  # most proposals are expected to fail: ddmin goes from halves to single edits
    by_sequence: bool = False  # ddmin's first split: one subset per sequence the deleted elements are in

    def run(self, problem: Problem) -> bool:
        start = problem.current
        for _ in range(_MAX_REPEATS):
            edits = self.propose(problem.current)
            groups = _outer_sequences(edits) if self.by_sequence else None
            changed = problem.ddmin(edits, self.name, try_all_first=self.try_all_first, sparse=self.sparse,
                                    groups=groups)
            if not changed or not self.repeat:
                break
        return problem.current != start


def _outer_sequences(edits: Sequence[Edit]) -> list[object]:
    """One group per edit for :class:`DdminPass` ``by_sequence``: the sequence an element deletion is in,
    when that sequence is not itself inside an element another edit deletes (the rows of a table of
    tuples are no groups of their own: a hundred two-element rows, each tried first, would be a hundred
    tests); else the edit alone."""
    seqs = {id(e.seq): e.seq for e in edits if isinstance(e, Delete) and isinstance(e.seq, ElementSeq) and e.seq.spans}
    deleted = [(id(e.seq), e.seq.spans[e.index]) for e in edits if isinstance(e, Delete) and id(e.seq) in seqs]
    outer = {k for k, seq in seqs.items()
             if not any(other != k and lo <= seq.spans[0][0] and seq.spans[-1][1] <= hi
                        for other, (lo, hi) in deleted)}
    return [id(e.seq) if isinstance(e, Delete) and id(e.seq) in outer else object() for e in edits]


@dataclass(frozen=True)
class EachPass:
    """``candidates(source)``: a list, or a :class:`~reportkit.reduce.passes.chunks.Lazy` sequence whose
    candidates are made only as far as the search looks (after each accepted one the list is made anew)."""

    name: str
    candidates: Callable[[str], Sequence[str]]

    def run(self, problem: Problem) -> bool:
        """Accept the first interesting candidate, re-propose on the result, go on from the same index."""
        start = problem.current
        i = 0
        candidates = self.candidates(problem.current)
        for _ in range(_MAX_STEPS):
            if not (candidates.has(i) if isinstance(candidates, Lazy) else i < len(candidates)):
                break
            j = problem.first_interesting(candidates[i:])
            if j is None:
                break
            problem.accept(candidates[i + j], self.name, 1)
            i += j
            candidates = self.candidates(problem.current)
        return problem.current != start


@dataclass(frozen=True)
class ProbePass:
    """Needs one probe run of an instrumented program; then ddmin over the proposed splices.

    A :class:`~reportkit.reduce.passes.edits.Together` edit (the sites whose values varied) is not part of the
    ddmin: it is tried once, alone, on the ddmin's result (probed again if the ddmin changed it)."""

    name: str
    instrument: Callable[[str], tuple[str, list[tuple[int, int]]] | None]
    propose: Callable[[str, list[tuple[int, int]], str | None], list[Edit]]

    def run(self, problem: Problem) -> bool:
        edits = problem.capture(self)
        if not edits:
            return False
        plain = _apart(edits)
        changed = bool(plain) and problem.ddmin(plain, self.name, try_all_first=True)
        if len(plain) == len(edits):
            return changed
        if changed:  # the values on what is left (the pass's next run here still proposes them all)
            edits = problem.capture(self, mark=False) or []
        together = [e for e in edits if isinstance(e, Together)]
        return bool(together and problem.try_candidate(apply_edits(problem.current, together), self.name, 1)) or changed


def _apart(edits: Sequence[Edit]) -> list[Edit]:
    """The edits that may be tried apart from the others (not a :class:`Together`)."""
    return [e for e in edits if not isinstance(e, Together)]


@dataclass(frozen=True)
class FirstCutPass:
    """Cheap first cut of a long program with a probe pass's edits: all of them but a
    :class:`~reportkit.reduce.passes.edits.Together`; all of them (every site at the failing evaluation's value);
    or the few evaluated last (not a ``Together``).

    A handful of tests instead of a ddmin over every site; the full :class:`ProbePass` runs with
    the fine passes once the program is small.
    """

    probe: ProbePass

    @property
    def name(self) -> str:
        return self.probe.name

    def run(self, problem: Problem) -> bool:
        edits = problem.capture(self.probe)
        if not edits:
            return False
        plain = _apart(edits)
        tries = [plain, *([list(edits)] if len(plain) < len(edits) else [])]
        tries += [plain[:k] for k in sorted({min(8, len(plain)), 1} - {len(plain)}, reverse=True)]
        return any(problem.try_candidate(apply_edits(problem.current, t), self.name, len(t)) for t in tries if t)


@dataclass(frozen=True)
class NumericPass:
    """Each numeric literal (in source order) searched for the smallest value that still fails.

    ``groups`` (optional): spans of literals that move together (partner dims of tensors,
    :func:`reportkit.reduce.passes.shapes.partner_literals`): one search for the whole group, over values
    >= 2, every member set to the value tried. Groups are taken from the source as the pass starts; a
    literal keeps its place among the source's literals while values change (none is added or removed)."""

    name: str
    sites: Callable[[str], list[NumericSite]]
    groups: Callable[[str], list[list[tuple[int, int]]]] | None = None

    def run(self, problem: Problem) -> bool:
        start = problem.current
        for ordinals in self._units(problem.current):
            sites = self.sites(problem.current)
            if ordinals[-1] >= len(sites):
                break
            if len(ordinals) == 1 and sites[ordinals[0]].shrinkable:
                self._shrink(problem, ordinals, sites[ordinals[0]].value, floor=0)
            elif len(ordinals) > 1:
                self._shrink(problem, ordinals, sites[ordinals[0]].value, floor=2)
        return problem.current != start

    def _units(self, source: str) -> list[tuple[int, ...]]:
        """The literals' places (their index among :attr:`sites`), one tuple per search: a group's members
        together, at its first member's place; every other literal alone."""
        sites = self.sites(source)
        place = {(s.start, s.end): i for i, s in enumerate(sites)}
        grouped: dict[int, tuple[int, ...]] = {}
        for spans in (self.groups(source) if self.groups else []):
            members = tuple(sorted(place[span] for span in spans if span in place))
            if len(members) > 1 and not any(m in grouped for m in members):
                grouped.update((m, members) for m in members)
        units = []
        for i in range(len(sites)):
            unit = grouped.get(i, (i,))
            if unit[0] == i:
                units.append(unit)
        return units

    def _render(self, source: str, ordinals: tuple[int, ...], value: float | int) -> str:
        sites = self.sites(source)
        for i in sorted(ordinals, key=lambda o: -sites[o].start):  # from the end: earlier spans stay put
            source = source[:sites[i].start] + format_number(value) + source[sites[i].end:]
        return source

    def _shrink(self, problem: Problem, ordinals: tuple[int, ...], value: float | int, floor: int) -> None:
        """0, 1, then binary search in (1, value); a group (``floor`` 2): binary search in [2, value)."""
        is_float = isinstance(value, float)
        if not floor:
            firsts: list[float | int] = [0.0, 1.0] if is_float else [0, 1]
            candidates = [self._render(problem.current, ordinals, v) for v in firsts]
            j = problem.first_interesting(candidates)
            if j is not None:
                problem.accept(candidates[j], self.name, 1)
                return
        if is_float or value < 3:
            return
        lo, hi = max(floor - 1, 1), int(value)
        if problem.round > 1:
            # Already searched in an earlier round: check one below first (cheap 1-minimality).
            if hi - 1 <= lo or not problem.try_candidate(self._render(problem.current, ordinals, hi - 1), self.name, 1):
                return
            hi -= 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if problem.try_candidate(self._render(problem.current, ordinals, mid), self.name, 1):
                hi = mid
            else:
                lo = mid
