"""Is a candidate a valid module?  The answer of a full ``compile``, mostly without one.

A candidate is a source the reducer already knows compiles (the current one) with a few splices.
Compiling all of it again per candidate made the reducer's own work grow with the square of the
script's size (issue 40). Three cheaper ways to the same answer:

* **by construction** (:class:`WellFormed`): a candidate made from a compiling source by deleting
  whole statements on lines of their own (:meth:`reportkit.reduce.passes.edits.BodySeq.clean`) compiles;
  the ddmin renderer (:mod:`reportkit.reduce.dd`) marks such candidates and they are not compiled at all;
* **only what changed** (:class:`ParseCheck`): a module is a sequence of top-level statements. Split a
  source that compiles at *split points* (line starts between top-level statements: the text before
  and the text after are valid modules on their own). A candidate that differs from it only between
  the split points ``lo`` and ``hi`` is ``before + middle + after``; if ``middle`` alone is a valid
  module ending with a line break, the candidate is valid: the tokenizer is at a clean line start at
  both joins (nothing open, a statement at column 0 next), a statement sequence joined to a statement
  sequence is one, and what ``compile`` checks beyond the grammar is local to a top-level statement --
  but for ``from __future__`` imports (which must come first) and ``global`` at module level (which
  must come before the name's uses), where the whole candidate is compiled instead. If ``middle``
  alone is *not* valid the whole candidate is compiled too (text after it may close a bracket it
  opens), so the answer is always that of :func:`compiles`;
* **by content** : each answer is kept by the candidate's content, with the split points of a source
  that compiles (so a candidate that becomes the current source needs no parse to be split).
"""

from __future__ import annotations
import __future__

import ast
import bisect
import re
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

__all__ = ["Layout", "ParseCheck", "WellFormed", "compiles", "layout_of"]

_NEWLINE = re.compile(r"\r\n|\r|\n")
_GLOBAL = re.compile(r"\bglobal\b")
_FUTURE = "__future__"


def compiles(source: str) -> bool:
    """True if ``source`` is a valid module: parses *and* compiles.

    ``compile(..., 'exec')`` also runs the symbol table and code generator, which catch
    errors ``ast.parse`` alone accepts (``return`` outside a function, ``nonlocal`` at
    module level, ``break`` outside a loop, ...).
    """
    return _compiled(source) is not None


def _compiled(source: str, flags: int = 0, tree: ast.Module | None = None) -> ast.Module | None:
    """The tree of ``source`` if it compiles, else None; ``flags``: the ``__future__`` features of the module
    ``source`` is a part of. As for a whole module, they apply to compiling the tree, not to parsing it (the
    parser does not see the module's own future imports: ``<>`` is no operator even after ``barry_as_FLUFL``;
    ``annotations`` forbids ``yield`` in an annotation). ``tree``: ``ast.parse(source)``, when the caller has it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if tree is None:
                tree = ast.parse(source)
            compile(tree, "<candidate>", "exec", flags, dont_inherit=True)
    except (SyntaxError, ValueError, OverflowError, RecursionError, MemoryError):
        return None
    return tree


class _Trees:
    """``ast.parse`` of the last few whole sources, shared by whoever parses the same version: the check of a
    new current source (:meth:`ParseCheck.layout`) and the passes reading it (``statements.tree_of``) each parsed
    it (on a long script a parse is most of a version's fixed cost). Nobody changes a tree it is given (a
    candidate is a new source, parsed anew)."""

    def __init__(self, limit: int = 4, chars: int = 600_000) -> None:
        self._limit = limit
        self._chars = chars
        self._trees: OrderedDict[str, ast.Module] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, source: str) -> ast.Module | None:
        with self._lock:
            tree = self._trees.get(source)
            if tree is not None:
                self._trees.move_to_end(source)
            return tree

    def parse(self, source: str) -> ast.Module:
        """``ast.parse(source)`` (raising as it does), kept for the next asker."""
        tree = self.get(source)
        if tree is None:
            tree = ast.parse(source)
            self.keep(source, tree)
        return tree

    def tree(self, source: str) -> ast.Module:
        """The kept tree of ``source``, else ``ast.parse(source)`` (raising as it does) not kept: for readers of
        a source that may be a candidate (which must not push the versions in use out)."""
        tree = self.get(source)
        return tree if tree is not None else ast.parse(source)

    def keep(self, source: str, tree: ast.Module) -> None:
        if len(source) > self._chars:
            return
        source = str(source)  # (not a candidate object holding the source it was made from)
        with self._lock:
            self._trees[source] = tree
            self._trees.move_to_end(source)
            total = sum(map(len, self._trees))
            while len(self._trees) > 1 and (len(self._trees) > self._limit or total > self._chars):
                old, _tree = self._trees.popitem(last=False)
                total -= len(old)


#: The trees of recently parsed whole sources (see :class:`_Trees`).
TREES = _Trees()


class WellFormed(str):
    """A candidate known to compile by construction (see the module doc): the tester does not compile it."""


class Spliced(str):
    """A candidate made from ``origin`` by replacing spans of it: ``changes`` are ``(start, end, length of
    the new text)`` in ``origin``, ascending and apart. Its check compiles the top-level statements around
    each change, not the text between two changes far apart (a function inlined where it is called)."""

    origin: str
    changes: tuple[tuple[int, int, int], ...]

    def __new__(cls, text: str, origin: str, changes: list[tuple[int, int, int]]) -> Spliced:
        self = super().__new__(cls, text)
        self.origin = origin
        self.changes = tuple(changes)
        return self


@dataclass(frozen=True)
class Layout:
    """Where a source that compiles splits into valid modules, and what stops a check of a part alone."""

    bounds: tuple[int, ...]  # split points, ascending: 0, line starts of top-level statements, len(source)
    future_end: int  # the end of the line of the last ``from __future__`` import (0: none)
    future_flags: int  # the compiler flags of those imports (a part is compiled with them)
    has_global: bool  # a ``global`` statement at module level (then every candidate is compiled whole)


def _line_starts(source: str) -> list[int]:
    starts = [0]
    starts.extend(m.end() for m in _NEWLINE.finditer(source))
    return starts


def layout_of(source: str, tree: ast.Module) -> Layout:
    """The :class:`Layout` of ``source`` (which compiles), from its tree."""
    starts = _line_starts(source)
    bounds = [0]
    last_line = 0  # last line of the statement before
    future_end = future_flags = 0
    has_global = False
    globals_possible = _GLOBAL.search(source) is not None
    for stmt in tree.body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        if first > last_line and stmt.col_offset == 0 and first - 1 < len(starts) and starts[first - 1] > 0:
            bounds.append(starts[first - 1])
        last_line = stmt.end_lineno or stmt.lineno
        if isinstance(stmt, ast.ImportFrom) and stmt.module == _FUTURE:
            future_end = starts[last_line] if last_line < len(starts) else len(source)
            for alias in stmt.names:
                future_flags |= getattr(__future__, alias.name).compiler_flag
        has_global = has_global or (globals_possible and _module_global(stmt))
    if bounds[-1] != len(source):
        bounds.append(len(source))
    return Layout(tuple(bounds), future_end, future_flags, has_global)


def _module_global(stmt: ast.stmt) -> bool:
    """Does ``stmt`` hold a ``global`` statement of the module scope (not inside a def, class or lambda)?"""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Global):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def common_ends(a: Sequence[object], b: Sequence[object]) -> tuple[int, int]:
    """Lengths of the common prefix and of the common suffix (not overlapping it) of two sequences (strings,
    lists of lines), with O(log n) slice comparisons (each a C-level compare) instead of an element loop:
    this runs for every candidate, on the whole program."""
    limit = min(len(a), len(b))
    lo, hi = 0, limit
    while lo < hi:  # largest head with a[:head] == b[:head]
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    head = lo
    lo, hi = 0, limit - head
    la, lb = len(a), len(b)
    while lo < hi:  # largest tail with a[-tail:] == b[-tail:]
        mid = (lo + hi + 1) // 2
        if a[la - mid:la - lo] == b[lb - mid:lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return head, lo


class ParseCheck:
    """``compiles(candidate)``, answered by construction, by content or by compiling only what changed
    (see the module doc). Thread-safe; ``stats``: how each answer was found."""

    def __init__(self, limit: int = 256) -> None:
        self._limit = limit
        self._layouts: OrderedDict[str, Layout | None] = OrderedDict()  # source -> its layout (None: no compile)
        self._lock = threading.Lock()
        self.stats = {"vouched": 0, "known": 0, "part": 0, "whole": 0}

    def __call__(self, candidate: str, reference: str | None = None) -> bool:
        """Does ``candidate`` compile?  ``reference``: a source it was made from (the current one)."""
        if isinstance(candidate, WellFormed):
            self._count("vouched")
            return True
        with self._lock:
            known = self._layouts.get(candidate, False)
        if known is not False:
            self._count("known")
            return known is not None
        got = self._by_parts(candidate, reference)
        if got is not None:
            self._count("part")
            self._keep(candidate, got)
            return True
        self._count("whole")
        return self._whole(candidate) is not None

    def _by_parts(self, candidate: str, reference: str | None) -> Layout | None:
        """The candidate's layout if compiling where it differs from a source it was made from shows that it
        compiles; None when that does not tell."""
        made = _made_from(candidate, reference)
        if made is None:
            return None
        base, changes = made
        layout = self.layout(base)
        return None if layout is None else _in_parts(candidate, len(base), layout, changes)

    def changed_parts(self, candidate: str, reference: str) -> list[str] | None:
        """The texts of the ranges of top-level statements where ``candidate`` differs from ``reference`` (a
        source that compiles; ``candidate`` compiles too): outside them ``candidate`` is ``reference``'s text,
        so its statements there are ``reference``'s. Each part is a valid module on its own whose statements
        are those of ``candidate`` in that range (:func:`ast.parse` of it gives their very nodes). None when
        that does not tell (a part that does not parse alone, or ``reference`` does not compile)."""
        if candidate is reference:
            return []
        if isinstance(candidate, Spliced) and candidate.origin is not reference and candidate.origin != reference:
            candidate = str(candidate)  # (made from another source: its changes are not those from ``reference``)
        made = _made_from(candidate, reference)
        layout = None if made is None else self.layout(made[0])
        if made is None or layout is None:
            return None
        parts = []
        for lo, hi, shift, growth in _ranges(layout.bounds, made[1]):
            middle = candidate[lo + shift:hi + shift + growth]
            if not _clean(middle, lo, hi, len(made[0])):
                return None
            parts.append(middle)
        return parts

    def layout(self, source: str) -> Layout | None:
        """The layout of ``source`` (None if it does not compile); compiled once, then known."""
        with self._lock:
            known = self._layouts.get(source, False)
        if known is not False:
            return known
        return self._whole(source)

    def _whole(self, source: str) -> Layout | None:
        shared = TREES.get(source)
        tree = _compiled(source, tree=shared)
        if tree is not None and shared is None:
            TREES.keep(source, tree)
        layout = layout_of(source, tree) if tree is not None else None
        self._keep(source, layout)
        return layout

    def _keep(self, source: str, layout: Layout | None) -> None:
        with self._lock:
            self._layouts[source] = layout
            self._layouts.move_to_end(source)
            while len(self._layouts) > self._limit:
                self._layouts.popitem(last=False)

    def _count(self, how: str) -> None:
        with self._lock:
            self.stats[how] += 1



def _made_from(candidate: str, reference: str | None) -> tuple[str, Sequence[tuple[int, int, int]]] | None:
    """The source ``candidate`` was made from and the changes ``(start, end, length of the new text)`` in it:
    a :class:`Spliced` candidate's own, else one span, where it differs from ``reference``."""
    if isinstance(candidate, Spliced):
        return candidate.origin, candidate.changes
    if reference is None or reference is candidate:
        return None
    head, tail = common_ends(reference, candidate)
    return reference, [(head, len(reference) - tail, len(candidate) - tail - head)]


def _clean(middle: str, lo: int, hi: int, n: int) -> bool:
    """Does the range ``[lo, hi)`` of a source of length ``n``, now ``middle``, end at a line end (or at the
    end) and start without a byte order mark: the tokenizer's state at both joins is that of a new module?"""
    if hi < n and middle and middle[-1] not in "\r\n":
        return False
    return not (lo > 0 and middle.startswith("\ufeff"))


def _ranges(bounds: tuple[int, ...], changes: Sequence[tuple[int, int, int]]) -> list[list[int]]:
    """The ranges ``[lo, hi, shift, growth]`` between split points that hold the changes (``shift``: how much
    the text before the range grew, ``growth``: how much the range did), ascending and apart."""
    ranges: list[list[int]] = []
    shift = 0
    for start, end, length in changes:
        lo = bounds[bisect.bisect_right(bounds, start) - 1]
        hi = bounds[bisect.bisect_left(bounds, end)]
        growth = length - (end - start)
        if ranges and lo < ranges[-1][1]:
            ranges[-1][1] = max(hi, ranges[-1][1])
            ranges[-1][3] += growth
        else:
            ranges.append([lo, hi, shift, growth])
        shift += growth
    return ranges


def _in_parts(candidate: str, n: int, layout: Layout, changes: Sequence[tuple[int, int, int]]) -> Layout | None:
    """The layout of ``candidate`` (made from a source of length ``n`` and ``layout`` by ``changes``) if every
    range of top-level statements it changed compiles on its own; None when that does not tell."""
    if layout.has_global or not changes:
        return None
    bounds = layout.bounds
    ranges = _ranges(bounds, changes)
    if ranges[0][0] < layout.future_end:
        return None
    new: list[int] = []
    done = 0  # index in bounds of the first split point not placed yet
    for lo, hi, shift, growth in ranges:
        middle = candidate[lo + shift:hi + shift + growth]
        if not _clean(middle, lo, hi, n) or _FUTURE in middle or _GLOBAL.search(middle):
            return None
        tree = _compiled(middle, layout.future_flags)
        if tree is None:
            return None
        first = bisect.bisect_right(bounds, lo, done)  # split points up to lo: before the range
        new.extend(b + shift for b in bounds[done:first])
        new.extend(lo + shift + b for b in layout_of(middle, tree).bounds)
        done = bisect.bisect_left(bounds, hi, first)  # split points inside the range are gone
    shift = ranges[-1][2] + ranges[-1][3]
    new.extend(b + shift for b in bounds[done:])
    return Layout(tuple(sorted(set(new))), layout.future_end, layout.future_flags, False)


#: The checker shared by :func:`reportkit.reduce.passes.source.parses` (passes that check their own
#: candidates) and the candidate tester.
CHECK = ParseCheck()
#: The source the passes' candidates are made from, as last told (:func:`set_reference`).
_reference: list[str | None] = [None]


def set_reference(source: str) -> None:
    """Candidates checked from now on are mostly made from ``source`` (the reducer's current source)."""
    _reference[0] = source


def parses(source: str, reference: str | None = None) -> bool:
    """:func:`compiles`, answered by :data:`CHECK` against ``reference`` (default: the last one set)."""
    return CHECK(source, reference if reference is not None else _reference[0])

