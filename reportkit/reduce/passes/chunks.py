"""A source seen as runs of top-level statements ("chunks"), each parsed and analysed once per text.

A pass that re-reads the whole program after every accepted candidate costs the program's size per
test (issue 40: inlining N functions one by one re-parsed and re-walked the program N times). An
accepted edit changes a few top-level statements; the others are the same text, only further up or
down. So a :class:`Module` (one source version) is its chunks -- the text between the split points of
:mod:`reportkit.reduce.passes.wellformed` (known for a candidate checked there without a parse) -- and
each :class:`Chunk` is parsed on its own, with positions relative to its first line, and kept by its
text: what a pass computes on a chunk (``Chunk.memo``) is computed once for all the versions holding
it. Analyses of the whole module are sums of the chunks' (name counts), or look at the chunks that
matter (the one defining a function, the one calling it).

Parsed alone, a chunk has the same tree as inside the module (but for positions): it starts at a line
start at column 0 with nothing open (and a module's own future imports do not change how it parses). A
source that does not compile is one chunk (then everything is as if the module were read whole). The
same text twice in a module is one :class:`Chunk` in two places: a pass locates a node by the chunk's
index, never by the node alone.
"""

from __future__ import annotations

import ast
import re
import weakref
from collections import Counter, OrderedDict
from functools import cached_property
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence, TypeVar, overload

from . import wellformed
from .scopes import Scopes, parent_map
from .source import SourceMap

__all__ = ["Chunk", "Lazy", "Module", "per_version"]

_NEWLINE = re.compile(r"\r\n|\r|\n")
_T = TypeVar("_T")


class Chunk:
    """Whole top-level statements of a module, parsed on their own (line 1: the chunk's first line)."""

    def __init__(self, text: str, newline: str) -> None:
        self.text = text
        self.tree: ast.Module = ast.parse(text)  # (the module's future imports do not change how it parses)
        self.smap = SourceMap(text, newline=newline)
        self.lines = len(self.smap.line_starts) - 1  # line breaks in the chunk
        self.memo: dict[str, Any] = {}  # what passes computed on this chunk, by name

    @cached_property
    def parents(self) -> dict[int, ast.AST]:
        return parent_map(self.tree)

    @cached_property
    def scopes(self) -> Scopes:
        return Scopes(self.tree)

    def get(self, name: str, compute: Callable[[Chunk], _T]) -> _T:
        """``compute(self)``, once for this chunk's text (kept under ``name``)."""
        if name not in self.memo:
            self.memo[name] = compute(self)
        return self.memo[name]  # type: ignore[no-any-return]


#: The caches hold what was read of recent texts (trees: some 100 bytes per character of source), up to
#: about this many characters of source each.
_CACHE_CHARS = 1_500_000

_CHUNKS: OrderedDict[tuple[str, str], Chunk] = OrderedDict()
_chunk_chars = [0]
_MODULES: OrderedDict[str, Module] = OrderedDict()
_MODULE_LIMIT = 8


def _chunk(text: str, newline: str) -> Chunk:
    k = (text, newline)
    chunk = _CHUNKS.get(k)
    if chunk is None:
        chunk = _CHUNKS[k] = Chunk(text, newline)
        _chunk_chars[0] += len(text)
        while _chunk_chars[0] > _CACHE_CHARS and len(_CHUNKS) > 1:
            (old, _nl), _old = _CHUNKS.popitem(last=False)
            _chunk_chars[0] -= len(old)
    else:
        _CHUNKS.move_to_end(k)
    return chunk


class Module:
    """One source version as its chunks: ``chunks[i]`` starts at offset ``offsets[i]`` and line ``first_line[i] + 1``."""

    def __init__(self, source: str, previous: Module | None = None, *, whole: bool = False) -> None:
        """``whole``: one chunk, the module read whole (what a chunked analysis must give the same answers as)."""
        self.source = source
        # the version made before this one (most likely the one this was made from): sums over the chunks
        # are carried over from it (see :meth:`total`)
        self._previous = weakref.ref(previous) if previous is not None else None
        layout = wellformed.CHECK.layout(source)
        bounds = layout.bounds if layout is not None and not whole else (0, len(source))
        m = _NEWLINE.search(source)
        self.newline = m.group(0) if m else "\n"
        self.offsets: list[int] = []
        self.chunks: list[Chunk] = []
        self.first_line: list[int] = []  # line breaks before the chunk
        line = 0
        for start, end in zip(bounds, bounds[1:]):
            chunk = _chunk(source[start:end], self.newline)
            self.offsets.append(start)
            self.chunks.append(chunk)
            self.first_line.append(line)
            line += chunk.lines
        self.memo: dict[str, Any] = {}  # what passes computed on this version, by name

    @classmethod
    def of(cls, source: str) -> Module:
        """The module of ``source``, shared by the passes looking at the same version."""
        module = _MODULES.get(source)
        if module is None:
            previous = next(reversed(_MODULES.values()), None)
            module = _MODULES[source] = cls(source, previous)
            while len(_MODULES) > _MODULE_LIMIT:
                _MODULES.popitem(last=False)
        else:
            _MODULES.move_to_end(source)
        return module

    def get(self, name: str, compute: Callable[[Module], _T]) -> _T:
        """``compute(self)``, once for this version (kept under ``name``)."""
        if name not in self.memo:
            self.memo[name] = compute(self)
        return self.memo[name]  # type: ignore[no-any-return]

    def total(self, name: str, counts: Callable[[Chunk], Mapping[str, int]]) -> Counter[str]:
        """The sum of ``counts(chunk)`` (kept by the chunk under ``name``) over the chunks. Worked out from the
        previous version's sum when it has one: minus the chunks it had that this one has not, plus the new
        ones (counted as multisets: a chunk is the same object wherever its text is)."""
        k = "total " + name
        if k in self.memo:
            return self.memo[k]  # type: ignore[no-any-return]
        previous = self._previous() if self._previous is not None else None
        of = lambda chunk: chunk.get(name, counts)  # noqa: E731
        if previous is not None and k in previous.memo:
            total = Counter(previous.memo[k])
            before, now = Counter(map(id, previous.chunks)), Counter(map(id, self.chunks))
            chunks = {id(c): c for c in (*previous.chunks, *self.chunks)}
            for cid, times in (before - now).items():
                for _ in range(times):
                    total.subtract(of(chunks[cid]))
            for cid, times in (now - before).items():
                for _ in range(times):
                    total.update(of(chunks[cid]))
        else:
            total = Counter()
            for chunk in self.chunks:
                total.update(of(chunk))
        self.memo[k] = total
        return total

    def position(self, index: int, node: ast.AST) -> tuple[int, int]:
        """``(lineno, col_offset)`` of ``node`` of chunk ``index`` in the module."""
        return self.first_line[index] + node.lineno, node.col_offset  # type: ignore[attr-defined]


_VERSIONS: OrderedDict[tuple[str, str], Any] = OrderedDict()
_version_chars = [0]


def per_version(name: str, source: str, compute: Callable[[str], _T]) -> _T:
    """``compute(source)``, once per source version (the last few kept): what several passes read of the
    same version (its tree), or what one pass gives again when nothing changed since (a structural sweep
    that accepted nothing). ``compute`` must be a pure function of the text, its result not changed by
    the callers."""
    k = (name, source)
    if k in _VERSIONS:
        _VERSIONS.move_to_end(k)
        return _VERSIONS[k]  # type: ignore[no-any-return]
    value = _VERSIONS[k] = compute(source)
    _version_chars[0] += len(source)
    while _version_chars[0] > _CACHE_CHARS and len(_VERSIONS) > 1:
        (_name, old), _value = _VERSIONS.popitem(last=False)
        _version_chars[0] -= len(old)
    return value


class Lazy(Sequence[_T]):
    """A sequence whose items are made when first asked for (in order) by an iterator: a pass's candidates,
    of which the search usually looks at the first few only. ``len`` makes them all."""

    def __init__(self, items: Iterable[_T]) -> None:
        self._items: list[_T] = []
        self._source: Iterator[_T] | None = iter(items)

    def _fill(self, n: int | None) -> None:
        while self._source is not None and (n is None or len(self._items) < n):
            item = next(self._source, _END)
            if item is _END:
                self._source = None
            else:
                self._items.append(item)  # type: ignore[arg-type]

    def __len__(self) -> int:
        self._fill(None)
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[_T]: ...

    def __getitem__(self, index: int | slice) -> _T | Sequence[_T]:
        if isinstance(index, slice):
            if index.step in (None, 1) and (index.start or 0) >= 0 and index.stop is None:
                return _Tail(self, index.start or 0)
            self._fill(None)
            return self._items[index]
        if index < 0:
            self._fill(None)
        else:
            self._fill(index + 1)
        return self._items[index]

    def __iter__(self) -> Iterator[_T]:
        i = 0
        while True:
            self._fill(i + 1)
            if i >= len(self._items):
                return
            yield self._items[i]
            i += 1

    def has(self, index: int) -> bool:
        """Is there an item ``index`` (made up to it, not beyond)?"""
        self._fill(index + 1)
        return index < len(self._items)


_END = object()


class _Tail(Sequence[_T]):
    """``lazy[start:]`` without making the items."""

    def __init__(self, lazy: Lazy[_T], start: int) -> None:
        self._lazy = lazy
        self._start = start

    def __len__(self) -> int:
        return max(0, len(self._lazy) - self._start)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            return list(self)[index]
        return self._lazy[self._start + index]

    def __iter__(self) -> Iterator[_T]:
        i = self._start
        while self._lazy.has(i):
            yield self._lazy[i]
            i += 1
