"""Edits on source text and how a set of them is applied.

An *edit* is one independent thing a pass proposes (delete statement 3 of this body,
delete argument 2 of that call, replace this literal by ``1``...).  A set of edits is
turned into plain splices ``(start, end, text)`` on the source and applied together:

* sequence-aware deletions (statements of a body, elements of a call/list/...) are
  rendered per sequence, so separators (``,`` / ``;`` / whole lines) come out right and an
  emptied body gets ``pass``;
* a splice inside a deleted (or replaced) span is moot and dropped;
* overlapping deletions merge; any other partial overlap makes the candidate invalid.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Iterator, Sequence, Union

from .source import SourceMap
from .wellformed import Spliced

_BODY_FIELDS = ("body", "orelse", "finalbody")


@dataclass(frozen=True)
class Splice:
    start: int
    end: int
    text: str = ""


class BodySeq:
    """The statements of one body (module, function, loop, ``else`` part, ...). Where they are in the text
    (``spans``, ``groups``, ...) is worked out when first asked for: a pass walking the bodies to find one
    of them pays for that one only."""

    def __init__(
        self, smap: SourceMap, stmts: Sequence[ast.stmt], kind: str, header_start: int | None = None
    ):
        # kind: "module" (may become empty), "block" (needs ``pass`` when emptied) or
        # "orelse" (when emptied, the ``else:`` header at ``header_start`` goes too;
        # header_start is None for an ``elif`` chain, which just disappears).
        self.smap = smap
        self.stmts = list(stmts)
        self.kind = kind
        self.header_start = header_start

    @cached_property
    def spans(self) -> list[tuple[int, int]]:
        return [self.smap.stmt_span(s) for s in self.stmts]

    @cached_property
    def groups(self) -> list[list[int]]:
        """Indices of the statements sharing a line (``a = 1; b = 2``), each statement in one group."""
        smap, spans = self.smap, self.spans
        groups: list[list[int]] = []
        for i, (start, _end) in enumerate(spans):
            if groups and smap.lineno_of(start) == smap.lineno_of(spans[i - 1][1]):
                groups[-1].append(i)  # ``a = 1; b = 2``
            else:
                groups.append([i])
        return groups

    @cached_property
    def _group_of(self) -> dict[int, int]:
        return {i: g for g, group in enumerate(self.groups) for i in group}

    @cached_property
    def own_line(self) -> list[bool]:
        return [self.smap.blank_before(self.spans[g[0]][0]) for g in self.groups]

    @cached_property
    def group_lines(self) -> list[tuple[int, int]]:
        smap = self.smap
        return [
            (
                smap.line_start(smap.lineno_of(self.spans[g[0]][0])),
                smap.line_end(smap.lineno_of(self.spans[g[-1]][1])),
            )
            for g in self.groups
        ]

    def __len__(self) -> int:
        return len(self.stmts)

    def clean(self, index: int) -> bool:
        """Does deleting statement ``index`` -- with any other deletions of this kind, in any bodies -- leave
        a source that compiles compiling?  Yes when the statement is alone on whole lines of its own (no
        ``;`` neighbour, not on its header's line, no backslash continuation into or out of those lines)
        and is no ``from __future__`` import: the deletion removes whole logical lines (an emptied block
        gets ``pass`` on the same lines, an emptied ``else`` part goes with its header line), and no
        check of ``compile`` fails for a statement less -- but ``nonlocal`` (its binding may go), which
        the caller rules out (:func:`clean_deletions`)."""
        g = self._group_of[index]
        if len(self.groups[g]) != 1 or not self.own_line[g]:
            return False
        stmt = self.stmts[index]
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            return False
        start, end = self.group_lines[g]
        source = self.smap.source
        if _continued(source, start) or _continued(source, end):
            return False
        return not (self.kind == "orelse" and self.header_start is not None and _continued(source, self.header_start))

    @cached_property
    def region(self) -> tuple[int, int]:
        """Where every splice :meth:`splices` makes lies: its groups' lines, the ``else:`` header of an ``else``
        part, the span of a body on its header's line."""
        lo, hi = self.group_lines[0][0], self.group_lines[-1][1]
        if self.kind == "orelse" and self.header_start is not None:
            lo = min(lo, self.header_start)
        if self.kind == "block":
            splice = self.pass_splice()
            lo, hi = min(lo, splice.start), max(hi, splice.end)
        return lo, hi

    def pass_splice(self) -> Splice:
        """Replace the whole body by ``pass``."""
        smap = self.smap
        if self.own_line[0]:
            start, end = self.group_lines[0][0], self.group_lines[-1][1]
            indent = smap.source[start : self.spans[0][0]]
            last_line = smap.lineno_of(self.spans[-1][1])
            return Splice(start, end, indent + "pass" + smap.newline_of(last_line))
        return Splice(self.spans[0][0], self.spans[-1][1], "pass")

    def splices(self, deleted: set[int]) -> list[Splice]:
        """The splices deleting statements ``deleted`` (kept by that set: a ddmin renders the same deletions of
        a body for many of its candidates)."""
        k = frozenset(deleted)
        memo = self.__dict__.setdefault("_splice_memo", {})
        if k not in memo:
            memo[k] = self._splices(deleted)
        return list(memo[k])

    def _splices(self, deleted: set[int]) -> list[Splice]:
        if self.emptied(deleted):
            if self.kind == "block":
                return [self.pass_splice()]
            assert self.header_start is not None
            return [Splice(self.header_start, self.group_lines[-1][1])]
        out: list[Splice] = []
        group_of = self._group_of
        for g in sorted({group_of[i] for i in deleted if i in group_of}):  # (the groups losing a statement)
            out.extend(self.group_splices(g, deleted))
        return out

    def emptied(self, deleted: set[int] | frozenset[int]) -> bool:
        """Do the deletions ``deleted`` replace the whole body (by ``pass``, or with its ``else:`` header)?"""
        return len(deleted) >= len(self.stmts) and (
            self.kind == "block" or (self.kind == "orelse" and self.header_start is not None))

    def group_splices(self, g: int, deleted: set[int] | frozenset[int]) -> list[Splice]:
        """The splices deleting the statements ``deleted`` of group ``g`` (the body not :meth:`emptied`): all
        inside ``group_lines[g]``."""
        group = self.groups[g]
        if self.own_line[g] and all(i in deleted for i in group):
            return [Splice(*self.group_lines[g])]
        return _run_splices(group, deleted, self.spans)


def _continued(source: str, line_start: int) -> bool:
    """Does the line ending just before ``line_start`` end with a backslash continuation?"""
    end = line_start
    if end and source[end - 1] == "\n":
        end -= 1
    if end and source[end - 1] == "\r":  # (``\r\n``, or a lone ``\r``)
        end -= 1
    return end < line_start and end > 0 and source[end - 1] == "\\"


def clean_deletions(source: str, edits: Sequence[Edit]) -> bool:
    """Does applying any subset of ``edits`` to ``source`` (which compiles) give a source that compiles?
    Yes when every edit deletes a statement :meth:`BodySeq.clean` vouches for and ``source`` has no
    ``nonlocal`` (deleting the binding a ``nonlocal`` refers to is an error ``compile`` reports)."""
    return "nonlocal" not in source and all(
        isinstance(e, Delete) and isinstance(e.seq, BodySeq)
        and (e.seq.smap.source is source or e.seq.smap.source == source) and e.seq.clean(e.index)
        for e in edits)


def _run_splices(indices: Sequence[int], deleted: set[int], spans: Sequence[tuple[int, int]]) -> list[Splice]:
    """Delete runs of elements separated by a separator (``,`` or ``;``)."""
    out: list[Splice] = []
    k = 0
    n = len(indices)
    while k < n:
        if indices[k] not in deleted:
            k += 1
            continue
        j = k
        while j + 1 < n and indices[j + 1] in deleted:
            j += 1
        if j + 1 < n:
            out.append(Splice(spans[indices[k]][0], spans[indices[j + 1]][0]))
        elif k > 0:
            out.append(Splice(spans[indices[k - 1]][1], spans[indices[j]][1]))
        else:  # everything: caller handles
            out.append(Splice(spans[indices[0]][0], spans[indices[-1]][1]))
        k = j + 1
    return out


class ElementSeq:
    """Comma-separated elements: call arguments, list/tuple/set/dict displays."""

    def __init__(
        self,
        spans: Sequence[tuple[int, int]],
        tail: int,
        is_tuple: bool = False,
        commas: Sequence[int | None] = (),
    ):
        self.spans = list(spans)
        self.tail = tail  # end of the last element including a trailing comma
        self.is_tuple = is_tuple
        self.commas = list(commas)  # offset of the comma after each element (or None)

    def __len__(self) -> int:
        return len(self.spans)

    def splices(self, deleted: set[int]) -> list[Splice]:
        n = len(self.spans)
        kept = [i for i in range(n) if i not in deleted]
        if not kept:
            return [Splice(self.spans[0][0], self.tail)]
        out = _run_splices(range(n), deleted, self.spans)
        if self.is_tuple and len(kept) == 1:
            # A one-element tuple needs its comma.
            only = kept[0]
            comma = self.commas[only] if only < len(self.commas) else None
            if only + 1 < n and comma is not None:
                # the run after it started at the element's end; start after the comma instead
                out = [Splice(comma + 1, s.end) if s.start == self.spans[only][1] else s for s in out]
            elif comma is None:
                out.append(Splice(self.spans[only][1], self.spans[only][1], ","))
        return out


class ImportInfo:
    """An import statement whose aliases can be dropped one by one."""

    def __init__(self, smap: SourceMap, body: BodySeq, index: int):
        self.smap = smap
        self.body = body
        self.index = index
        self.stmt = body.stmts[index]
        assert isinstance(self.stmt, (ast.Import, ast.ImportFrom))
        self.names = list(self.stmt.names)

    def rewrite(self, deleted: set[int]) -> Splice:
        stmt = self.stmt
        parts = [
            a.name + (f" as {a.asname}" if a.asname else "")
            for i, a in enumerate(self.names)
            if i not in deleted
        ]
        if isinstance(stmt, ast.ImportFrom):
            head = "from " + "." * (stmt.level or 0) + (stmt.module or "") + " import "
        else:
            head = "import "
        start, end = self.body.spans[self.index]
        return Splice(start, end, head + ", ".join(parts))


@dataclass(frozen=True)
class Delete:
    """Delete element ``index`` of a body or an element sequence."""

    seq: Union[BodySeq, ElementSeq]
    index: int


@dataclass(frozen=True)
class DropAlias:
    imp: ImportInfo
    index: int


@dataclass(frozen=True)
class Together:
    """Splices that are tried only all together: one edit for the searches."""

    splices: tuple[Splice, ...]


Edit = Union[Splice, Delete, DropAlias, Together]


def to_splices(edits: Iterable[Edit]) -> list[Splice]:
    splices: list[Splice] = []
    deletions: dict[int, tuple[Union[BodySeq, ElementSeq], set[int]]] = {}
    aliases: dict[int, tuple[ImportInfo, set[int]]] = {}
    for edit in edits:
        if isinstance(edit, Splice):
            splices.append(edit)
        elif isinstance(edit, Together):
            splices.extend(edit.splices)
        elif isinstance(edit, Delete):
            deletions.setdefault(id(edit.seq), (edit.seq, set()))[1].add(edit.index)
        else:
            aliases.setdefault(id(edit.imp), (edit.imp, set()))[1].add(edit.index)
    for imp, gone in aliases.values():
        if len(gone) >= len(imp.names):
            deletions.setdefault(id(imp.body), (imp.body, set()))[1].add(imp.index)
        else:
            splices.append(imp.rewrite(gone))
    for seq, gone in deletions.values():
        splices.extend(seq.splices(gone))
    return splices


def apply_splices(source: str, splices: Iterable[Splice]) -> str | None:
    """Apply splices; nested ones inside a deleted/replaced span are moot. None on conflict."""
    done = _splice(source, splices)
    return None if done is None else done[0]


def spliced(source: str, splices: Iterable[Splice]) -> Spliced | None:
    """:func:`apply_splices`, as a :class:`~reportkit.reduce.passes.wellformed.Spliced` that knows where it
    differs from ``source`` (its parse check then compiles only the top-level statements there)."""
    done = _splice(source, splices)
    return None if done is None else Spliced(done[0], source, done[1])


def _splice(source: str, splices: Iterable[Splice]) -> tuple[str, list[tuple[int, int, int]]] | None:
    """The spliced text and its changes ``(start, end, length of the new text)`` in ``source``, ascending."""
    out: list[str] = []
    changes: list[tuple[int, int, int]] = []
    pos = 0
    last_text: str | None = None
    for sp in sorted(splices, key=lambda s: (s.start, -s.end)):
        if sp.start < pos:
            if sp.end <= pos:
                continue  # inside the previous span: moot
            if last_text == "" and sp.text == "":
                pos = sp.end  # overlapping deletions merge
                changes[-1] = (changes[-1][0], pos, 0)
                continue
            return None
        out.append(source[pos : sp.start])
        out.append(sp.text)
        changes.append((sp.start, sp.end, len(sp.text)))
        pos = sp.end
        last_text = sp.text
    out.append(source[pos:])
    return "".join(out), changes


def apply_edits(source: str, edits: Iterable[Edit]) -> str | None:
    return apply_splices(source, to_splices(edits))


class Deletions:
    """:func:`apply_edits` of subsets of one list of statement deletions (an HDD level: ``Delete`` edits of bodies
    that lie apart), worked out from the subset rendered last instead of from nothing: a ddmin renders many
    subsets, each the deletions accepted so far plus a few, and applying all of those again per candidate cost
    the program's size per test (issue 40).

    The source is cut into pieces: the text of each group of statements (:attr:`BodySeq.group_lines`) and the
    text around them. The splices of a body that is not :meth:`emptied <BodySeq.emptied>` are those of its
    groups, each inside its group's lines; an emptied body's one splice is inside the body's region. Bodies and
    their regions lie apart (checked: else :meth:`of` gives None), so applying all the splices is applying each
    group's (or each emptied body's) to its own piece: a subset is the last one's pieces with those of the
    groups and bodies its new deletions touch made again."""

    def __init__(self, base: str, seqs: list[BodySeq], where: list[tuple[int, int]], cuts: list[int]) -> None:
        self.base = base
        self._seqs = seqs
        self._where = where  # edit -> (its body's slot, the statement's index in that body)
        at = {c: i for i, c in enumerate(cuts)}
        self._region = [(at[s.region[0]], at[s.region[1]]) for s in seqs]  # (a body's pieces)
        self._piece = [[at[a] for a, _b in s.group_lines] for s in seqs]  # (each group's piece)
        self._pieces0 = [base[a:b] for a, b in zip(cuts, cuts[1:])]
        self._applied: frozenset[int] = frozenset()  # the subset the state below is of
        self._pieces = self._pieces0
        self._deleted: dict[int, frozenset[int]] = {}  # body slot -> its statements deleted in that subset

    @classmethod
    def of(cls, base: str, edits: Sequence[Edit]) -> Deletions | None:
        """The renderer of subsets of ``edits``, if they are all deletions of statements of bodies of ``base``
        whose regions lie apart; else None."""
        slots: dict[int, int] = {}
        seqs: list[BodySeq] = []
        where: list[tuple[int, int]] = []
        for edit in edits:
            if not (isinstance(edit, Delete) and isinstance(edit.seq, BodySeq)):
                return None
            seq = edit.seq
            if id(seq) not in slots:
                if seq.smap.source is not base and seq.smap.source != base:
                    return None
                slots[id(seq)] = len(seqs)
                seqs.append(seq)
            where.append((slots[id(seq)], edit.index))
        cuts = [0]
        for seq in sorted(seqs, key=lambda s: s.region[0]):
            lo, hi = seq.region
            marks = [lo, *(x for span in seq.group_lines for x in span), hi]
            if lo < cuts[-1] or any(b < a for a, b in zip(marks, marks[1:])):
                return None  # (bodies overlapping, or groups out of order: applied whole instead)
            cuts.extend(m for m in marks if m > cuts[-1])
        if cuts[-1] < len(base):
            cuts.append(len(base))
        return cls(base, seqs, where, cuts)

    def render(self, applied: Iterable[int]) -> str | None:
        """``apply_edits(base, [edits[i] for i in applied])``."""
        got = self._pieces_of(frozenset(applied))
        return None if got is None else "".join(got[0])

    def rebase(self, applied: Iterable[int]) -> None:
        """Work the next subsets out from this one (the ddmin went on with it)."""
        applied = frozenset(applied)
        got = self._pieces_of(applied)
        if got is not None:
            self._applied, (self._pieces, self._deleted) = applied, got

    def _pieces_of(self, applied: frozenset[int]) -> tuple[list[str], dict[int, frozenset[int]]] | None:
        if self._applied <= applied:
            new, pieces, deleted = applied - self._applied, list(self._pieces), dict(self._deleted)
        else:
            new, pieces, deleted = applied, list(self._pieces0), {}
        touched: dict[int, set[int]] = {}
        for i in new:
            slot, index = self._where[i]
            touched.setdefault(slot, set()).add(index)
        base = self.base
        for slot, indices in touched.items():
            seq = self._seqs[slot]
            gone = deleted[slot] = deleted.get(slot, frozenset()) | indices
            first, last = self._region[slot]
            if seq.emptied(gone):
                lo, hi = seq.region
                text = _splice(base[lo:hi], [Splice(s.start - lo, s.end - lo, s.text) for s in seq.splices(set(gone))])
                if text is None:
                    return None
                pieces[first:last] = [text[0]] + [""] * (last - first - 1)
                continue
            group_of = seq._group_of
            for g in {group_of[i] for i in indices}:
                lo, hi = seq.group_lines[g]
                text = _splice(base[lo:hi], [Splice(s.start - lo, s.end - lo, s.text) for s in seq.group_splices(g, gone)])
                if text is None:
                    return None
                pieces[self._piece[slot][g]] = text[0]
        return pieces, deleted


# ----------------------------------------------------------------------------- bodies
def child_bodies(smap: SourceMap, stmt: ast.stmt) -> list[tuple[list[ast.stmt], str, int | None]]:
    """The bodies directly inside a compound statement: (statements, kind, header_start)."""
    out: list[tuple[list[ast.stmt], str, int | None]] = []
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith)):
        out.append((stmt.body, "block", None))
    elif isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While)):
        out.append((stmt.body, "block", None))
        if stmt.orelse:
            out.append((stmt.orelse, "orelse", else_header(smap, stmt.orelse)))
    elif isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        out.append((stmt.body, "block", None))
        for handler in stmt.handlers:
            out.append((handler.body, "block", None))
        if stmt.orelse:
            out.append((stmt.orelse, "orelse", else_header(smap, stmt.orelse)))
        if stmt.finalbody:
            out.append((stmt.finalbody, "block", None))
    elif isinstance(stmt, getattr(ast, "Match", ())):
        for case in stmt.cases:  # type: ignore[attr-defined]
            out.append((case.body, "block", None))
    return out


def else_header(smap: SourceMap, orelse: list[ast.stmt]) -> int | None:
    """Start of the line holding the ``else:`` before ``orelse``; None for an ``elif``."""
    start = smap.stmt_span(orelse[0])[0]
    if smap.source.startswith("elif", start):
        return None
    colon = smap.prev_token_before(start)
    if colon is None or colon.string != ":":
        return None
    keyword = smap.prev_token_before(colon.start)
    if keyword is None or keyword.string != "else":
        return None
    return smap.line_start(smap.lineno_of(keyword.start))


@dataclass
class BodyInfo:
    seq: BodySeq
    depth: int
    owner: ast.stmt | None  # the compound statement the body belongs to (None for the module)
    children: list[BodyInfo] = field(default_factory=list)


def walk_bodies(tree: ast.Module, smap: SourceMap) -> Iterator[BodyInfo]:
    """All statement bodies in pre-order; the module body first, depth 0."""

    def visit(stmts: list[ast.stmt], kind: str, header: int | None, depth: int, owner: ast.stmt | None):
        info = BodyInfo(BodySeq(smap, stmts, kind, header), depth, owner)
        yield info
        for stmt in stmts:
            for sub, sub_kind, sub_header in child_bodies(smap, stmt):
                yield from visit(sub, sub_kind, sub_header, depth + 1, stmt)

    if tree.body:
        yield from visit(tree.body, "module", None, 0, None)
