"""picire's ddmin over a pass's edits: the adapter between picire and the candidate tester.

A configuration is the list of indices of the edits *not* applied, so ddmin maximises what
is applied.  picire is driven through its documented constructor arguments: the test
callable (``test(config, config_id) -> Outcome``: render the candidate, ask the tester),
the outcome cache, the split function and the subset/complement iterators
(complement-first, backward complement iteration, subsets skipped).  Each configuration
picire goes on with (a failing complement) is accepted by the tester as it is found.

The split halves on down, or goes from halves straight to single edits where the last
ddmin at the same site (pass, HDD level) applied less than half of its edits (near a
minimum that halves the cost), or straight to single edits where it applied none of them
(two halves that were both rejected last time are two tests spent for nothing). Near a minimum, a pass
whose edits come in groups (the elements of each list literal) has ddmin split first by group
(:class:`_Grouped`). After a subset goes, the subsets before it go with it as far as they still fail
(:meth:`_DD._extended`, :func:`find_integer`): a run of k removable edits costs about 2 log k tests, not k.
"""

from __future__ import annotations

import inspect
from typing import Callable, Hashable, Iterable, Protocol, Sequence

from reportkit.reduce._picire import DD, ConfigCache, Outcome, ZellerSplit, backward, picire, skip
from reportkit.reduce.passes import wellformed
from reportkit.reduce.passes.edits import Deletions, Edit, apply_edits, clean_deletions

__all__ = ["Ddmin", "check_picire", "find_integer", "halves_then_singles"]

#: ddmin halving on down costs about 2n tests when (almost) nothing can be removed, going from
#: halves straight to single edits about n, while halving on wins by far when most edits go. The
#: choice per ddmin site (a pass, an HDD level) follows what the last ddmin there achieved: below
#: this share of edits applied, the next one goes from halves to single edits.
_FINE_BELOW = 0.5

#: The range of picire releases this adapter is tested with (pinned in pyproject.toml).
PICIRE_RANGE = "picire>=21.8,<22"


Split = Callable[[list[list[int]]], list[list[int]]]


class DdTester(Protocol):
    """What the adapter needs from the candidate tester (:class:`reportkit.reduce.tester.Tester`)."""

    @property
    def current(self) -> str: ...

    def test(self, candidate: str) -> bool: ...

    def try_candidate(self, candidate: str | None, name: str, count: int) -> bool: ...

    def accept(self, candidate: str | None, name: str, count: int) -> bool: ...

    def count_invalid(self) -> None: ...

    def prefetch(self, candidates: Iterable[str | None]) -> None: ...

    def end_prefetch(self) -> None: ...


class Ddmin:
    """ddmin over edits for one reduction; remembers per site what the last ddmin there applied."""

    def __init__(self, tester: DdTester) -> None:
        self._tester = tester
        self._yields: dict[str, float] = {}  # ddmin site -> share of its edits the last ddmin there applied

    def __call__(self, edits: Sequence[Edit], name: str, *, site: str | None = None,
                 try_all_first: bool = False, sparse: bool = False,
                 groups: Sequence[Hashable] | None = None) -> bool:
        """picire ddmin over ``edits`` of the current source; True if it changed.

        ``site`` (default ``name``) names where the edits come from (a pass, an HDD level): when
        the last ddmin there applied less than half of its edits (or, the first time, when the
        pass is ``sparse``), this one goes from halves straight to single edits (see :data:`_FINE_BELOW`);
        when it applied none, straight to single edits.

        ``groups`` (one per edit: the container an element deletion belongs to): in the modes going to
        single edits, the first split is one subset per group of at least :data:`_GROUP_MIN` edits
        (:class:`_Grouped`), so that a container whose elements can all go goes in one test, not one test
        per element. Halving on down needs no groups: its halves already take a dead half in one test.
        """
        n = len(edits)
        if n == 0:
            return False
        site = site or name
        tester = self._tester
        start = tester.current
        render = _Renderer(start, edits, vouch=_vouchable(start, edits))
        applied = 0
        try:
            if try_all_first or n == 1:
                if tester.try_candidate(render([]), name, n):
                    applied = n
                    return True
                if n == 1:
                    return False
            last = self._yields.get(site)
            fine = (last if last is not None else 0.0 if sparse else 1.0) < _FINE_BELOW
            split = _split(fine, last == 0.0)
            if groups is not None and fine and len(set(groups)) > 1:
                split = _Grouped(groups, _singles)
            result = _DD(tester, render, name, n, split)(list(range(n)))
            applied = n - len(result)
            if len(result) == 1 and not try_all_first and tester.try_candidate(render([]), name, 1):
                applied = n  # picire never tests the empty configuration
            return tester.current != start
        finally:
            self._yields[site] = applied / n


def _vouchable(base: str, edits: Sequence[Edit]) -> bool:
    """Does every candidate made of ``edits`` compile by construction (so the tester need not compile it)?"""
    return clean_deletions(base, edits) and (isinstance(base, wellformed.WellFormed)
                                             or wellformed.CHECK.layout(base) is not None)


class _Renderer:
    """Config (indices of edits kept *unapplied*) -> candidate source, memoized. ``vouch``: every candidate
    compiles by construction (:func:`_vouchable`) and is handed out as a
    :class:`~reportkit.reduce.passes.wellformed.WellFormed`."""

    def __init__(self, base: str, edits: Sequence[Edit], *, vouch: bool = False) -> None:
        self.base = base
        self.edits = list(edits)
        self._vouch = vouch
        self._memo: dict[tuple[int, ...], str | None] = {}
        # statement deletions (an HDD level): each candidate worked out from the one the ddmin went on with
        self._deletions = Deletions.of(base, self.edits)
        self._all = frozenset(range(len(self.edits)))

    def __call__(self, kept: Sequence[int]) -> str | None:
        k = tuple(kept)
        if k not in self._memo:
            if self._deletions is not None:
                applied = self._all.difference(k)
                text = self._deletions.render(applied) if applied else self.base
            else:
                keep = set(k)
                applied = [e for i, e in enumerate(self.edits) if i not in keep]
                text = apply_edits(self.base, applied) if applied else self.base
            self._memo[k] = wellformed.WellFormed(text) if self._vouch and text is not None and applied else text
        return self._memo[k]

    def went_on_with(self, kept: Sequence[int]) -> None:
        """The ddmin goes on with the configuration ``kept``: the candidates after it are made from it."""
        if self._deletions is not None:
            self._deletions.rebase(self._all.difference(kept))


def halves_then_singles(subsets: list[list[int]]) -> list[list[int]]:
    """A ddmin split for configurations that are (nearly) minimal already: the whole config into
    halves (two tests when everything can go at once), any finer split straight into single edits
    (about n tests to confirm nothing can go, where halving on down costs about 2n)."""
    if len(subsets) == 1:
        return ZellerSplit(n=2)(subsets)
    return [[c] for s in subsets for c in s]


def _singles(subsets: list[list[int]]) -> list[list[int]]:
    """A ddmin split straight into single edits: about n tests, none on chunks that will not go."""
    return [[c] for s in subsets for c in s]


def _split(fine: bool, singles: bool) -> Split:
    return _singles if singles else halves_then_singles if fine else ZellerSplit(n=2)


#: A group this large is tried as a whole first (a group of two as a whole costs a test more than its
#: two elements when one of them is needed).
_GROUP_MIN = 3


class _Grouped:
    """A ddmin split for a site near its minimum (going to single edits): its first step is one subset per
    group of at least :data:`_GROUP_MIN` edits (e.g. the elements of one list literal), in order, and
    single edits for the rest; a whole group is then split into halves (a list indexed by position keeps
    its head: the tail goes in one test), any part of one by ``inner``."""

    def __init__(self, groups: Sequence[Hashable], inner: Split) -> None:
        self._groups = list(groups)
        self._inner = inner
        self._members: dict[Hashable, list[int]] = {}
        for c, g in enumerate(self._groups):
            self._members.setdefault(g, []).append(c)

    def __call__(self, subsets: list[list[int]]) -> list[list[int]]:
        if len(subsets) == 1:
            by: dict[Hashable, list[int]] = {}
            for c in subsets[0]:
                by.setdefault(self._groups[c], []).append(c)
            if len(by) > 1:
                return [part for g in by.values() for part in ([g] if len(g) >= _GROUP_MIN else [[c] for c in g])]
        return [part for s in subsets for part in self._split(s)]

    def _split(self, subset: list[int]) -> list[list[int]]:
        if len(subset) < 2:
            return [subset]
        if subset == self._members[self._groups[subset[0]]]:
            return ZellerSplit(n=2)([subset])
        return self._inner([subset])


class _Configs(ConfigCache):  # type: ignore[misc]
    """picire's :class:`ConfigCache` (the outcome of each configuration tested), as a dict keyed by the
    configuration: the same answers (a configuration's own outcome, or None), but a lookup or an addition hashes
    the configuration in C instead of walking a tree of it in Python, one node per index (a ddmin of n edits
    costs about n steps per test and adds about n nodes: issue 40)."""

    def __init__(self) -> None:
        self._outcomes: dict[tuple[int, ...], Outcome] = {}

    def add(self, config: Sequence[int], result: Outcome) -> None:
        self._outcomes[tuple(config)] = result

    def lookup(self, config: Sequence[int]) -> Outcome | None:
        return self._outcomes.get(tuple(config))

    def clear(self) -> None:
        self._outcomes.clear()

    def __str__(self) -> str:
        return "{\n" + "".join(f"\t[{', '.join(map(repr, c))}]: {r.name!r},\n"
                                for c, r in sorted(self._outcomes.items())) + "}"


class _DD(DD):  # type: ignore[misc]
    """picire's ddmin with the tester as its test; prefetches each iteration's tests when parallel."""

    def __init__(self, tester: DdTester, render: _Renderer, name: str, size: int, split: Split) -> None:
        self._configs = _Configs()
        super().__init__(
            self._outcome,
            split=split,
            cache=self._configs,
            subset_first=False,
            subset_iterator=skip,
            complement_iterator=backward,
        )
        self._tester = tester
        self._render = render
        self._name = name
        self._size = size  # length of the configuration picire is reducing

    def _outcome(self, config: Sequence[int], config_id: object) -> Outcome:
        candidate = self._render(config)
        if candidate is None:
            self._tester.count_invalid()
            return Outcome.PASS
        if not self._tester.test(candidate):
            return Outcome.PASS
        if len(config) < self._size:  # a failing complement: picire goes on with it
            count, self._size = self._size - len(config), len(config)
            self._tester.accept(candidate, self._name, count)
            self._render.went_on_with(config)
        return Outcome.FAIL

    def _planned(self, subsets: list[list[int]], offset: float) -> Iterable[str | None]:
        """The configurations this iteration will test, in its order (the iterators given above)."""
        n = len(subsets)
        for i in backward(n):
            i = int((i + offset) % n)
            config = [c for si, s in enumerate(subsets) for c in s if si != i]
            if self._configs.lookup(config) is None:
                yield self._render(config)

    # No documented picire extension point sees an iteration's subsets before it tests them, which
    # prefetching (testing the planned order ahead in a thread pool, with -j) needs: this overrides
    # the private DD._reduce_config(run, subsets, complement_offset) of picire 21.8, keeping its walk
    # unchanged. pyproject pins the tested range (PICIRE_RANGE); check_picire() fails loudly outside it.
    def _reduce_config(self, run: int, subsets: list[list[int]], complement_offset: float) -> object:
        self._tester.prefetch(self._planned(subsets, complement_offset))
        try:
            reduced, offset = super()._reduce_config(run, subsets, complement_offset)
        finally:
            self._tester.end_prefetch()
        if reduced is None:
            return reduced, offset
        return self._extended(run, reduced, int(offset))

    def _extended(self, run: int, subsets: list[list[int]], i: int) -> tuple[list[list[int]], int]:
        """Subset ``i`` of the iteration just went (``subsets`` is the rest): remove the subsets before it
        too, as many as still fail, found by :func:`find_integer` (1, 2, 3, 4, then doubling, then
        bisecting). The walk tests those next anyway, one by one (backward from ``i``): up to 4 the tests
        are the very configurations it would test next (picire's cache answers them then), beyond that a
        run of k removable subsets costs about 2 log k tests instead of k."""

        def fails(k: int) -> bool:  # the config without the k subsets before i as well
            config = [c for s in subsets[:i - k] + subsets[i:] for c in s]
            config_id = (f"r{run}", f"x{k}")
            return (self._lookup_cache(config, config_id) or self._test_config(config, config_id)) is Outcome.FAIL

        most = i if i < len(subsets) else i - 1  # never the empty configuration (picire never tests it)
        k = find_integer(lambda k: k <= most and fails(k))
        return subsets[:i - k] + subsets[i:], i - k


def find_integer(holds: Callable[[int], bool]) -> int:
    """The largest k >= 0 with ``holds(k)``, assuming ``holds(0)`` and a monotone ``holds`` (shrinkray's
    ``find_integer``): 1, 2, 3, 4 in turn, then doubling, then bisecting between the last k that held and
    the first that did not."""
    for k in range(1, 5):
        if not holds(k):
            return k - 1
    lo, hi = 4, 8
    while holds(hi):
        lo, hi = hi, hi * 2
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if holds(mid):
            lo = mid
        else:
            hi = mid
    return lo


def check_picire(dd_class: type = DD, version: str | None = None) -> None:
    """Raise ImportError, naming the tested range, when picire's ``DD`` lacks the hook ``_DD`` overrides."""
    version = version or getattr(picire, "__version__", "unknown")
    hook = getattr(dd_class, "_reduce_config", None)
    try:
        params = list(inspect.signature(hook).parameters) if callable(hook) else None
    except (TypeError, ValueError):
        params = None
    if params != ["self", "run", "subsets", "complement_offset"]:
        found = "missing" if hook is None else f"has the parameters {params}"
        raise ImportError(
            f"reportkit needs {PICIRE_RANGE}, but the installed picire {version} is incompatible: "
            f"picire.DD._reduce_config(run, subsets, complement_offset), the hook reportkit's parallel "
            f"ddmin extends, is {found}. Install a tested release: pip install '{PICIRE_RANGE}'"
        )


check_picire()
