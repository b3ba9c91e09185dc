"""The fix check of ``minimize``: a result must *pass* on the good code.

When the target lives in a git repository and a good version of the code is known — ``--good REV``,
or automatically HEAD when the working tree has uncommitted changes to tracked files other than the
target itself — every result the reducer keeps must fail the same way on the code as it is *and pass
on the good code*; a candidate that also fails there has lost the bug (e.g. an assertion whose
expected side was reduced away fails with the bug fixed too) and is rejected. It is a second
condition of the reducer's lazy ``confirm`` (:mod:`reportkit.reduce.confirm`, next to the differential
check of wrong results): checked on the result of each pass, the pass repeated per candidate from
the last good source when that result fails it.

The good code is ``REV``'s tree written from git's object database into a scratch directory (the
user's checkout and its ``.git`` are only read), plus the untracked files of the script's directory (the
run's set-up: data, the script itself when it is new). A candidate runs "on the good code" like
every run — a :class:`reportkit.failure.check.Check` through the sandbox — with the good tree in place of the
repository: the candidate is the script inside the good tree's copy of its directory (its working
directory and ``sys.path[0]``), and every other directory of the repository on the interpreter's
import path (``PYTHONPATH`` entries, ``.pth`` files of an editable install, setuptools' editable
finders) is replaced by the good tree's copy, put first on ``PYTHONPATH`` so that it shadows the
checkout.

A candidate carries code under test inside itself in two cases, and is then mapped to its *good form*
before the good run (:func:`good_form_map`, :class:`FoldMap`): each place where the script the
reduction starts from and its good counterpart differ is found in the candidate by its lines
(indentation and comments aside) and replaced by the good lines; a candidate in which such lines were changed, not
kept as written, cannot be mapped and is rejected without a run; one in which they were removed
altogether runs unchanged on the good code (and fails there when the bug went with them). So the
reducer keeps the code the fix touches as it is.

- Local modules folded into the script (:mod:`reportkit.reduce.flatten`): the script is folded a second
  time, from the good tree.
- The bug is in the target script itself: with ``--good REV``, when the script as it is now does not
  pass on REV's tree but the script as it is in REV does, the good counterpart is REV's script (a
  script that passes there as it is, or one added since REV, is its own good form: candidates run
  unchanged, and lines the script gained since REV, e.g. a new check, are not mapped away). In the automatic
  mode (HEAD) the target's own uncommitted diff is never used: the changes that trigger the check
  are those to *other* tracked files, and the target runs as the user has it now — a repro script
  written or edited in a repository is not a fix, and treating its new lines as "the bug" would
  only forbid reducing them. Both combine: a folded script's good counterpart is REV's script folded
  from REV's tree.
"""

from __future__ import annotations

import ast
import difflib
import json
import os
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportkit.failure.check import Check
from reportkit.io import remove_tree
from reportkit.reduce.passes.source import SourceMap, parses
from reportkit.run.executor import ColdExecutor, Executor
from reportkit.run.gitinfo import GoodRev, GoodRevError, export_commit, file_at
from reportkit.run.runner import COPY_IGNORE, Sandbox, session_root
from reportkit.run.spec import PYTEST_NODE_ENV

__all__ = ["FoldMap", "GoodCode", "GoodRevError", "NotRelevant", "good_form_map", "prepare_good_code"]

_MARK = "REPORTKIT-IMPORT-PATH:"
# Run in place of the script (same interpreter, environment, sandbox): where its imports come from.
_PATH_PROBE = f"""\
import json, os, sys
paths = [p for p in sys.path[1:] if isinstance(p, str)]
for finder in sys.meta_path:  # setuptools' editable finders: MAPPING = {{name: package dir or module file}}
    mapping = getattr(sys.modules.get(getattr(finder, "__module__", None) or ""), "MAPPING", None)
    if isinstance(mapping, dict):
        paths += [os.path.dirname(str(p)) for p in mapping.values()]
print({_MARK!r} + json.dumps(paths))
"""


def import_path(check: Check) -> list[str]:
    """The directories the target's interpreter imports from (besides the script's own), in order."""
    outcome = check.with_env({PYTEST_NODE_ENV: None}).run(_PATH_PROBE)
    for line in outcome.result.stdout.splitlines():
        if line.startswith(_MARK):
            try:
                paths = json.loads(line[len(_MARK):])
            except ValueError:
                return []
            return [p for p in paths if isinstance(p, str) and p]
    return []


def repo_dirs(paths: list[str], toplevel: Path) -> list[str]:
    """The entries of ``paths`` inside the repository ``toplevel``, relative to it ("." for the top), in order."""
    out: list[str] = []
    for entry in paths:
        try:
            rel = Path(entry).resolve().relative_to(toplevel).as_posix()
        except (ValueError, OSError):
            continue
        rel = rel or "."
        if rel not in out and not any(part in _SKIP_DIRS for part in Path(rel).parts):
            out.append(rel)
    return out


# compiled extension modules: untracked build products the good tree's packages need to import
_EXTENSIONS = (".so", ".pyd")
# the automatic check exports at most this many files (a whole large repository is only with --good)
AUTO_MAX_FILES = 5000
_SKIP_DIRS = {".git", ".venv", "venv", "site-packages", "dist-packages", "node_modules"}


def _under(name: str, directory: str) -> bool:
    return directory == "." or name == directory or name.startswith(directory.rstrip("/") + "/")


# --------------------------------------------------------------------------- folded scripts


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _reindent(lines: list[str], delta: int) -> list[str] | None:
    if delta >= 0:
        return [(" " * delta + line) if line.strip() else line for line in lines]
    out = []
    for line in lines:
        if line.strip() and _indent(line) < -delta:
            return None
        out.append(line[-delta:] if line.strip() else line)
    return out


@dataclass
class _Hunk:
    bad: list[str]  # non-blank lines of the folded script on the code as it is
    good: list[str]  # what the good tree's folded script has there (as written)
    anchor: str | None  # the non-blank line before (stripped): where a pure insertion goes
    anchor_indent: int = 0
    evidence: set[str] = field(default_factory=set)  # bad lines found nowhere else in the script
    group: int = 0  # hunks of one region of the change (a few unchanged lines apart) stand or fall together
    in_method: bool = False  # the change is in a method: where a candidate has it outside one, ``self.x`` is ``x``
    before: list[str] = field(default_factory=list)  # the non-blank lines before it (stripped), nearest last
    every: bool = False  # the fix makes this change at every place its lines stand (:func:`_merge_twins`)


# a line as tokens, each with the whitespace before it: names and numbers, or one other character
_PIECE = re.compile(r"\s*(?:\w+|\S)")
# an edited line is taken for the changed line only when it keeps at least this share of its tokens
_KEEP_SHARE = 0.5


def _pieces(line: str) -> list[str]:
    return _PIECE.findall(line.strip())


def _changes(a: list[str], b: list[str]) -> list[tuple[int, int, list[str]]]:
    """Where token list ``b`` differs from ``a``: (start, end) in ``a`` replaced by these pieces of ``b``."""
    ka, kb = [t.strip() for t in a], [t.strip() for t in b]
    matcher = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    return [(i1, i2, b[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _conflict(x: tuple[int, int, list[str]], y: tuple[int, int, list[str]]) -> bool:
    """Do two changes of the same line touch the same tokens (or insert at the same place)?"""
    (a1, a2, _), (b1, b2, _) = x, y
    if a1 < a2 and b1 < b2:
        return a1 < b2 and b1 < a2
    if a1 == a2 and b1 == b2:
        return a1 == b1
    if a1 == a2:
        return b1 < a1 < b2
    return a1 < b1 < a2


# ``self.`` in a line: gone where a class became module code (its attributes are variables there)
_SELF = re.compile(r"\bself\.")


def _in_method(lines: list[tuple[int, str]], k: int) -> bool:
    """Is non-blank line ``k`` of ``lines`` inside a function whose first parameter is ``self`` (or in a
    function nested in one: ``self`` is seen there too)?"""
    return _method_above([line for _i, line in lines[:k]], _indent(lines[k][1]))


def _method_above(prior: list[str], indent: int) -> bool:
    """Is a line indented by ``indent`` after the non-blank lines ``prior`` inside such a function?"""
    for line in reversed(prior):
        if indent == 0:
            return False
        if _indent(line) >= indent:
            continue
        indent = _indent(line)
        if re.match(r"(?:async\s+)?def\s+\w+\s*\(\s*self\b", line.strip()):
            return True
    return False


def merge_line(bad: str, edited: str, good: str) -> str | None:
    """The fix (``bad`` -> ``good``, one line) applied to ``edited``, a version of ``bad`` a pass changed
    elsewhere: a three-way merge of the lines' tokens. None when the edit touches the tokens the fix
    changes, the token next to them or another use of a name among them, or keeps less than half of
    ``bad``'s tokens (then it is not taken for that line)."""
    base, mine, theirs = _pieces(bad), _pieces(edited), _pieces(good)
    fix, edit = _changes(base, theirs), _changes(base, mine)
    if not fix or not base:
        return None
    if sum(i2 - i1 for i1, i2, _ in edit) > (1 - _KEEP_SHARE) * len(base):
        return None
    # the fix's tokens and one token on each side of them stay as they are, and so does every other
    # use in the line of a name the fix's tokens mention (``pad_to(ids, len(ids))``: the first ``ids``)
    guarded = [(max(i1 - 1, 0), min(i2 + 1, len(base)), new) for i1, i2, new in fix]
    names = {t.strip() for i1, i2, _ in fix for t in base[i1:i2] if t.strip().isidentifier()}
    guarded += [(i, i + 1, []) for i, t in enumerate(base) if t.strip() in names]
    if any(_conflict(e, f) for e in edit for f in guarded):
        return None
    kept = list(base)  # the tokens ``edited`` kept, spelled (spaced) as there
    matcher = difflib.SequenceMatcher(None, [t.strip() for t in base], [t.strip() for t in mine], autojunk=False)
    for tag, i1, i2, j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            kept[i1:i2] = mine[j1:j1 + i2 - i1]
    out: list[str] = []
    pos = 0
    for i1, i2, new in sorted(edit + fix, key=lambda c: (c[0], c[1])):
        out += kept[pos:i1] + new
        pos = i2
    out += kept[pos:]
    return "".join(out).strip()


#: :meth:`FoldMap.mapped`'s word for a candidate in which none of the changed lines are left: its good
#: form is the candidate itself
GONE = "the changed lines are gone: runs as it is"

# hunks fewer than this many unchanged non-blank lines apart are one region of the change (a unified
# diff's context shows them together): a candidate keeps all of a region's hunks or none
REGION_GAP = 3


class FoldMap:
    """Candidate (reduced from the script ``bad``) -> the same candidate on the good code, where that
    script is ``good``; None when it cannot be told: the lines the fix changes were edited, or some
    hunks of one region of the change were removed while others were kept (applying the rest of the
    fix to such a candidate fixes another bug than the one it came from: a worker whose skipped
    ``task_done()`` was removed altogether gets the fix's ``finally: task_done()`` all the same)."""

    def __init__(self, bad: str, good: str) -> None:
        self.target = good  # the good counterpart of the whole start
        self._defined: set[str] | None = None
        # (lines are matched by their code, comments aside, here and in every candidate: the cosmetic pass that
        # drops comments must not make the fix's lines look removed; the good lines go in as written)
        a, b, written = _code_lines(bad), _code_lines(good), good.splitlines()
        self.hunks: list[_Hunk] = []
        matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
        # lines the change leaves alone, as written: such a line in a candidate is not an edited changed line
        self._unchanged = {a[i].strip() for tag, i1, i2, _j1, _j2 in matcher.get_opcodes() if tag == "equal"
                           for i in range(i1, i2)}
        group, last = 0, None  # ``last``: where the previous hunk ended in ``a``
        for tag, i1, i2, j1, j2 in _one_statement_each(matcher.get_opcodes(), a, b):
            if tag == "equal":
                continue
            if tag == "apart":  # (one of several assignments each changed alone: a region of its own)
                group, last = group + 1, None
            if last is not None and sum(1 for line in a[last:i1] if line.strip()) >= REGION_GAP:
                group += 1
            last = i2
            before = [line for line in a[:i1] if line.strip()]
            hunk = _Hunk([line for line in a[i1:i2] if line.strip()], written[j1:j2],
                         before[-1].strip() if before else None, _indent(before[-1]) if before else 0)
            rest = {line.strip() for line in a[:i1] + a[i2:]}
            hunk.evidence = {line.strip() for line in hunk.bad} - rest
            hunk.group = group
            hunk.before = [line.strip() for line in before]
            first = next((line for line in [*a[i1:i2], *b[j1:j2]] if line.strip()), "")
            hunk.in_method = _method_above(before, _indent(first))
            self.hunks.append(hunk)
        self.hunks = _merge_twins(self.hunks, [line.strip() for line in a if line.strip()])

    @property
    def identity(self) -> bool:
        return not self.hunks

    @property
    def defined(self) -> set[str]:
        """The names and ``self.x`` attributes the good program binds itself (:func:`_user_defined`)."""
        if self._defined is None:
            self._defined = _user_defined(self.target)
        return self._defined

    def _edited(self, hunk: _Hunk, text: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """The lines of the candidate that could be ``hunk``'s changed line with other tokens edited (a
        value made a literal, an argument dropped, the line moved into its caller), and their good forms;
        one such line is that line, several cannot be told apart."""
        bad, good = hunk.bad[0], hunk.good[0]
        found = []
        for k, (_i, line) in enumerate(text):
            if line.strip() in self._unchanged:
                continue
            merged = None
            if (_SELF.search(bad) or _SELF.search(good)) and not _in_method(text, k):
                # the line is no longer a method's (its class became module code, or it was inlined into
                # module code): ``self.x`` there is ``x``, in the fix's tokens too (``self.max_len`` ->
                # ``max_len``, the variable the attribute became)
                merged = merge_line(_SELF.sub("", bad), line, _SELF.sub("", good))
            if merged is None:
                merged = merge_line(bad, line, good)
            if merged is not None:
                found.append((k, merged))
        return found

    @staticmethod
    def _good_lines(hunk: _Hunk, prior: list[str], indent: int) -> list[str]:
        """The fix's lines for ``hunk`` where they go in a candidate (indented by ``indent``, after the
        non-blank lines ``prior``): as written, or without ``self.`` where the change was in a method and
        that place no longer is (its class became module code: the attributes are variables there)."""
        if hunk.in_method and not _method_above(prior, indent):
            return [_SELF.sub("", line) for line in hunk.good]
        return hunk.good

    def __call__(self, candidate: str) -> str | None:
        return self.mapped(candidate)[0]

    def _place_changed(self, hunk: _Hunk, lines: list[str], text: list[tuple[int, str]], stripped: list[str],
                       present: set[str]) -> tuple[int, int, list[str] | None] | None:
        """Where the changed lines ``hunk.bad`` are in the candidate (as written, or without ``self.`` where
        their class became module code), with the good lines to put there, reindented (None: they do not fit
        the indentation); else the changed line edited elsewhere (:meth:`_place_edited`)."""
        hits = _occurrences(text, stripped, [line.strip() for line in hunk.bad], hunk.in_method)
        if len(hits) > 1:
            hits = _nearest_context(hits, stripped, hunk.before)
        if len(hits) > 1:
            raise _Unmappable(f"the changed lines occur {len(hits)} times")
        if not hits:
            return self._place_edited(hunk, lines, text, present)
        start, end = text[hits[0]][0], text[hits[0] + len(hunk.bad) - 1][0] + 1
        prior = [line for _i, line in text[:hits[0]]]
        return start, end, _reindent(self._good_lines(hunk, prior, _indent(lines[start])),
                                     _indent(lines[start]) - _indent(hunk.bad[0]))

    def _place_edited(self, hunk: _Hunk, lines: list[str], text: list[tuple[int, str]],
                      present: set[str]) -> tuple[int, int, list[str] | None] | None:
        """A changed line a pass edited elsewhere (``x = f(a, 2)`` -> ``x = f(a, 1)``; the fix
        ``f(a, 2)`` -> ``g(a, 2)``) with the fix merged into it (:meth:`_edited`); None when the changed
        lines are gone altogether (nothing to undo). Unmappable when several lines could be the edited one,
        or part of the changed lines is still there, changed."""
        if len(hunk.bad) == 1 and len(hunk.good) == 1 and hunk.good[0].strip():
            merged = self._edited(hunk, text)
            if len(merged) > 1:
                raise _Unmappable(f"the changed line, edited, could be any of {len(merged)} lines")
            if merged:  # the changed line, edited elsewhere: the fix applies to it
                k, line = merged[0]
                start = text[k][0]
                return start, start + 1, [" " * _indent(lines[start]) + line]
        if (hunk.evidence | {_SELF.sub("", e) for e in hunk.evidence}) & present:
            raise _Unmappable("the changed lines were edited")  # part of it is still there, changed
        return None

    def _place_insertion(self, hunk: _Hunk, lines: list[str], text: list[tuple[int, str]],
                         stripped: list[str]) -> tuple[int, int, list[str] | None] | None:
        """Where lines the fix inserts go: after the line they follow (:attr:`_Hunk.anchor`, found as for
        changed lines), reindented like it; at the top when there is none; None when that line is gone."""
        if hunk.anchor is None:
            return 0, 0, list(hunk.good)
        hits = _occurrences(text, stripped, [hunk.anchor], hunk.in_method)
        if len(hits) > 1:
            raise _Unmappable(f"the line an insertion follows occurs {len(hits)} times")
        if not hits:
            return None
        start = text[hits[0]][0] + 1
        delta = _indent(lines[start - 1]) - hunk.anchor_indent
        first = next((line for line in hunk.good if line.strip()), "")
        prior = [line for _i, line in text[:hits[0] + 1]]
        return start, start, _reindent(self._good_lines(hunk, prior, _indent(first) + delta), delta)

    def _place_every(self, hunk: _Hunk, lines: list[str], text: list[tuple[int, str]], stripped: list[str],
                     present: set[str]) -> list[tuple[int, int, list[str] | None]]:
        """The places of a change the fix makes wherever its lines stand (:attr:`_Hunk.every`): each of them, or
        the changed line edited elsewhere (:meth:`_place_edited`); none when they are gone."""
        hits = _occurrences(text, stripped, [line.strip() for line in hunk.bad], hunk.in_method)
        if not hits:
            place = self._place_edited(hunk, lines, text, present)
            return [] if place is None else [place]
        places = []
        for hit in hits:
            start, end = text[hit][0], text[hit + len(hunk.bad) - 1][0] + 1
            prior = [line for _i, line in text[:hit]]
            places.append((start, end, _reindent(self._good_lines(hunk, prior, _indent(lines[start])),
                                                 _indent(lines[start]) - _indent(hunk.bad[0]))))
        return places

    def mapped(self, candidate: str) -> tuple[str | None, str]:
        """The good form of ``candidate`` (None: there is none), and why not: each hunk's changed lines
        (:meth:`_place_changed`) or insertion (:meth:`_place_insertion`) placed in it, all of a region's
        hunks or none (:func:`_apply_places`)."""
        lines = candidate.splitlines()
        text = [(i, line) for i, line in enumerate(_code_lines(candidate)) if line.strip()]  # code lines, with index
        stripped = [line.strip() for _, line in text]
        present = set(stripped)
        edits: list[tuple[int, int, list[str]]] = []  # (start, end) of lines replaced by these
        kept: dict[int, set[bool]] = {}  # region -> were its hunks found (True) / gone (False)
        try:
            for hunk in self.hunks:
                if hunk.every:
                    places = self._place_every(hunk, lines, text, stripped, present)
                else:
                    place = (self._place_changed(hunk, lines, text, stripped, present) if hunk.bad
                             else self._place_insertion(hunk, lines, text, stripped))
                    places = [] if place is None else [place]
                kept.setdefault(hunk.group, set()).add(bool(places))
                if any(place[2] is None for place in places):
                    raise _Unmappable("the fix's lines do not fit the indentation there")
                edits.extend(places)  # type: ignore[arg-type]
        except _Unmappable as exc:
            return None, str(exc)
        return _apply_places(candidate, lines, edits, kept)


def _code_lines(source: str) -> list[str]:
    """The lines of ``source`` without their comments (a comment-only line is blank), one for each line (the
    comments :class:`~reportkit.reduce.passes.source.SourceMap` finds: those before a point where it stops
    tokenizing)."""
    lines = source.splitlines()
    smap = SourceMap(source)
    for comment in smap.comments:
        lineno = smap.lineno_of(comment.start)
        if lineno <= len(lines):
            lines[lineno - 1] = lines[lineno - 1][:comment.start - smap.line_start(lineno)].rstrip()
    return lines


class _Unmappable(Exception):
    """A candidate has no good form (:meth:`FoldMap.mapped`); the message says why."""


def _occurrences(text: list[tuple[int, str]], stripped: list[str], want: list[str], in_method: bool) -> list[int]:
    """Where the lines ``want`` (stripped) stand in a row among the candidate's non-blank lines (``text``,
    ``stripped``); where nowhere and they were in a method (``in_method``), where they stand without
    ``self.`` outside one (their class became module code)."""
    n = len(want)
    hits = [k for k in range(len(stripped) - n + 1) if stripped[k:k + n] == want]
    plain = [_SELF.sub("", w) for w in want]
    if not hits and in_method and plain != want:
        hits = [k for k in range(len(stripped) - n + 1) if stripped[k:k + n] == plain and not _in_method(text, k)]
    return hits


def _one_statement_each(opcodes, a: list[str], b: list[str]):
    """difflib's opcodes, a block of lines replaced by as many where each line is an assignment changed alone
    (the same target, another value: ``dz = Dim("dz")`` -> ``dz = Dim.DYNAMIC``, r01-05's four Dims) made one
    ``"apart"`` opcode per line: each such line is a change of its own, and a candidate that dropped one of
    those assignments (a Dim nothing reads) still has a good form."""
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "replace" and i2 - i1 == j2 - j1 > 1 and _independent(a[i1:i2], b[j1:j2]):
            for k in range(i2 - i1):
                yield "apart", i1 + k, i1 + k + 1, j1 + k, j1 + k + 1
        else:
            yield tag, i1, i2, j1, j2


def _independent(bad: list[str], good: list[str]) -> bool:
    """Is each line of ``bad`` one whole assignment, of the same target as the line of ``good`` in its place,
    none reading a name another binds (``y = x + 1`` then ``z = y * 2`` changed together is one change)?"""
    bound: set[str] = set()
    reads: set[str] = set()
    for old, new in zip(bad, good):
        one, other = _assignment(old), _assignment(new)
        if one is None or other is None or [ast.dump(t) for t in one[0]] != [ast.dump(t) for t in other[0]]:
            return False
        for stmt_targets, value in (one, other):
            bound.update(n.id for t in stmt_targets for n in ast.walk(t) if isinstance(n, ast.Name))
            reads.update(n.id for n in ast.walk(value) if isinstance(n, ast.Name))
    return not bound & reads


def _assignment(line: str) -> tuple[list[ast.expr], ast.expr] | None:
    """The targets and value of a line that is one whole assignment (``x = ...``, ``self.x: int = ...``)."""
    try:
        tree = ast.parse(line.strip())
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], (ast.Assign, ast.AnnAssign)) or tree.body[0].value is None:
        return None
    stmt = tree.body[0]
    return (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]), stmt.value  # type: ignore[return-value]


def _merge_twins(hunks: list[_Hunk], stripped: list[str]) -> list[_Hunk]:
    """One hunk for the same change made at every place its lines stand in the script (``stripped``: its
    non-blank lines), marked :attr:`_Hunk.every`: r01-10's two blocks each compile with
    ``backend='aot_eager'`` and the fix makes both ``'eager'``. A candidate that kept one of the two has it
    once, and which hunk it was is nobody's business: the change there is the same. Not where some place of
    those lines is left as it is (then which one is changed matters: :func:`_nearest_context`)."""
    out: list[_Hunk] = []
    seen: dict[tuple, tuple[_Hunk, int]] = {}
    for hunk in hunks:
        key = (tuple(line.strip() for line in hunk.bad), tuple(line.strip() for line in hunk.good), hunk.in_method)
        if hunk.bad and key in seen:
            seen[key] = (seen[key][0], seen[key][1] + 1)
            continue
        seen[key] = (hunk, 1)
        out.append(hunk)
    for (bad, _good, _m), (hunk, count) in seen.items():
        n = len(bad)
        places = sum(1 for k in range(len(stripped) - n + 1) if tuple(stripped[k:k + n]) == bad)
        if count > 1 and count == places:
            hunk.every = True
        elif count > 1:  # some place stays as it is: the twins stay apart (and no group is merged)
            for each in hunks:
                each.every = False
            return hunks
    return out


def _nearest_context(hits: list[int], stripped: list[str], before: list[str]) -> list[int]:
    """Of several places where the changed lines stand (``hits``), the one whose lines before it match the
    script's lines before the change the longest way back (the fix's own context, as a unified diff's
    hunk locates it): a call repeated with the same keyword line, ``args=(x,),`` then ``dynamic_shapes=...``,
    told apart by the line above (``model,`` or ``unflattened_module,``). All of them when no one matches
    longer than every other."""
    def matched(k: int) -> int:
        n = 0
        while n < min(k, len(before)) and stripped[k - 1 - n] == before[-1 - n]:
            n += 1
        return n

    scores = [matched(k) for k in hits]
    best = max(scores)
    return [hits[scores.index(best)]] if best and scores.count(best) == 1 else hits


def _apply_places(candidate: str, lines: list[str], edits: list[tuple[int, int, list[str]]],
                  kept: dict[int, set[bool]]) -> tuple[str | None, str]:
    """``candidate`` (its ``lines``) with the good lines in their places (``edits``), and how; None, and why,
    when a region of the change is partly removed (``kept``), two places overlap, or the result does not
    parse where the candidate does (a ``finally:`` after a ``continue`` in no ``try``)."""
    if any(len(found) > 1 for found in kept.values()):
        return None, "a region of the change is partly removed"  # its good form is not the fix's
    edits.sort()
    for (_s1, e1, _), (s2, _e2, _) in zip(edits, edits[1:]):
        if s2 < e1:
            return None, "places of the change overlap"
    for start, end, new in reversed(edits):
        lines[start:end] = new
    how = "mapped" if edits else GONE
    good = "\n".join(lines) + ("\n" if candidate.endswith("\n") or not candidate else "")
    if edits and not parses(good) and parses(candidate):
        return None, "the fix's lines do not fit the code there"
    return good, how


# anything that could define a name or an attribute without spelling it, catch the failure to read it, or
# run the read where its failure does not end the run (a thread, a finalizer)
_DYNAMIC = re.compile(r"import\s+\*|\bsetattr\s*\(|__dict__|__getattr__|__getattribute__|\bglobals\s*\(|"
                      r"\bvars\s*\(|\blocals\s*\(|\bexec\s*\(|\beval\s*\(|\bsuppress\s*\(|__builtins__|"
                      r"__exit__|\braises\s*\(|assertRaises|\bthreading\b|\bThread\b|concurrent|multiprocessing|"
                      r"asyncio|__del__|atexit|\bsignal\b")
_CATCHES = {"Exception", "BaseException", "NameError", "AttributeError", "UnboundLocalError"}


def _user_defined(source: str) -> set[str]:
    """Names the code binds itself (assignments, definitions, imports, parameters) and ``self.x``
    attributes it assigns: what a line of the fix may read that something in the program provides."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) \
                and isinstance(node.value, ast.Name) and node.value.id == "self":
            out.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, ast.alias):
            out.add((node.asname or node.name).split(".")[0])
    return out


def _line_reads(line: ast.AST) -> tuple[set[str], set[str]]:
    """(the plain names, the ``self.x`` attributes) a parsed line reads."""
    names: set[str] = set()
    attributes: set[str] = set()
    for node in ast.walk(line):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
              and node.value.id == "self"):
            attributes.add(node.attr)
    return names, attributes


def _unread(names: set[str], attributes: set[str], rest: str) -> list[str]:
    """Of ``names`` and ``attributes`` (``self.x``) read by the fix's line, those ``rest`` (the other lines of
    the good form) does not define. A plain name: any mention elsewhere may bind it. An attribute: set
    anywhere (``.x``), a class-body name or method, or spelled in a string (getattr, a dataclass field); a
    parameter of that name does not set it."""
    unread = [f"{name}, which nothing else in the good form defines" for name in sorted(names)
              if not re.search(rf"\b{re.escape(name)}\b", rest)]
    unread += [f"self.{attr}, which nothing else in the good form sets" for attr in sorted(attributes)
               if not re.search(rf"\.\s*{re.escape(attr)}\b|^\s*(def\s+|async\s+def\s+)?{re.escape(attr)}\b\s*[:=(]"
                                rf"|['\"]{re.escape(attr)}['\"]", rest, re.M)]
    return unread


def _may_catch(tree: ast.Module) -> bool:
    """A handler in ``tree`` could catch a ``NameError`` / ``AttributeError``: a bare ``except``, one of a type
    that is not a plain name, or of a name of :data:`_CATCHES`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler):
            if node.type is None or not all(isinstance(n, (ast.Name, ast.Tuple, ast.Load)) for n in ast.walk(node.type)):
                return True
            if {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)} & _CATCHES:
                return True
    return False


def unbound_fix_read(candidate: str, good_form: str, provided: set[str]) -> str | None:
    """Why ``good_form`` (``candidate`` with the fix's line put back) certainly fails on the good code, or
    None: the fix is one line, and it reads a name — ``x``, or ``self.x`` — that the whole good program
    defines itself (``provided``: :attr:`FoldMap.defined`) but that appears nowhere else in ``good_form`` (the candidate deleted
    ``self.max_len = max_len``, which only the fixed line reads).

    Where that line runs, the read raises (``NameError``, ``AttributeError``); where it does not, the
    good form runs exactly as the candidate does, which fails. Either way it does not pass, unless
    something defines names dynamically, catches the error (:func:`_may_catch`), or runs the line where its
    error does not end the run: then None (it has to run). Only where the good code differs from the
    checkout in nothing but what the candidate carries (:attr:`GoodCode.carried`): else, where the line
    does not run, the rest of the fix could still make the good form pass."""
    a, b = candidate.splitlines(), good_form.splitlines()
    fixed = [j for tag, _i1, _i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
             if tag in ("replace", "insert") for j in range(j1, j2) if b[j].strip()]
    if len(fixed) != 1 or _DYNAMIC.search(good_form):
        return None
    try:
        line = ast.parse(b[fixed[0]].strip())
    except SyntaxError:
        return None  # a header or part of a statement: not judged
    names, attributes = _line_reads(line)
    own = _user_defined(b[fixed[0]].strip())  # bound by the line itself (a comprehension, a walrus)
    rest = "\n".join(text for j, text in enumerate(b) if j != fixed[0])
    unread = _unread((names - own) & provided, (attributes - own) & provided, rest)
    if not unread:
        return None
    # a handler that could catch the error (only looked for once there is one to catch)
    try:
        tree = ast.parse(good_form)
    except SyntaxError:
        return None
    return None if _may_catch(tree) else f"the fix's line reads {unread[0]}: fails there"


def _code_text(text: str) -> list[str]:
    return [line.rstrip() for line in _code_lines(text) if line.strip()]


def good_form_map(start: str, good_script: Path, good_source: str, *, folded: bool,
                  root: Path | None = None, conftests: bool = False) -> FoldMap | None:
    """How a candidate reduced from ``start`` maps to its good form: a :class:`FoldMap` from ``start`` to
    its good counterpart — ``good_source`` (the target script on the good code), or with ``folded``
    (``start`` is the target with its local modules folded in) ``good_source`` folded from the good
    tree, where ``good_script`` is the target's path (``root``: a pytest target's rootdir there; with
    ``conftests`` its conftest.py files folded in too, :func:`reportkit.reduce.flatten.fold_target`).

    None when there is no good counterpart: the good script imports no local module (``folded``), or
    the map does not turn ``start`` itself into its counterpart (lines the change touches occur more
    than once). :class:`reportkit.reduce.flatten.NotFlattenable` (and ``ValueError``, ``RecursionError``)
    when the good script cannot be folded."""
    target = good_source
    if folded:
        from reportkit.reduce.flatten import fold_target

        flat = fold_target(good_script, good_source, root, conftests)
        if flat is None:
            return None
        target = flat.source
    fold = FoldMap(start, target)
    mapped = fold(start)
    if mapped is None or _code_text(mapped) != _code_text(target):  # (comments aside: they do not run)
        return None
    return fold


# --------------------------------------------------------------------------- the check


@dataclass
class GoodCode:
    """The good code of a minimization and the check that a candidate passes there."""

    good: GoodRev
    auto: bool  # HEAD because of uncommitted changes (not --good)
    tree: Path  # the exported good tree
    check: Check  # the candidate in the good tree's place: must pass (exit 0, not the failure)
    import_path: list[str]  # the good tree's directories put first on PYTHONPATH
    fold: FoldMap | None = None  # the candidate's good form (folded modules, the script's own diff to REV)
    script_source: str | None = None  # the target as it is in REV (--good, when REV has it and it differs)
    folded: bool = False  # ``fold`` maps the folded script (else: the script's own diff, or nothing)
    warm: Executor | None = None  # a warm server of its own running ``check`` (closed with this)
    # the good code differs from the checkout only in files the candidate carries itself (the target, and
    # local modules folded into it): a candidate whose good form is itself runs there as it does on the
    # checkout, so it fails there the way it fails here (see :meth:`screen`)
    carried: bool = False
    runs: int = 0  # candidates run on the good code
    rejected: int = 0  # of the candidates checked: failed there (or rejected without a run)
    unmapped: int = 0  # of ``rejected``: the lines the fix changes were edited, no good form (not run)
    screened: int = 0  # of ``rejected``: not run (``unmapped``, and the fix's lines gone with ``carried``)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def good_form(self, candidate: str) -> str | None:
        return candidate if self.fold is None else self.fold(candidate)

    def screen(self, candidate: str) -> str | None:
        """Why ``candidate`` certainly fails the check, known without a run (None: it has to run): it has
        no good form; or, when the good code differs only in what the candidate carries (``carried``), none
        of the lines the fix changes are left in it, so it would run on the good code as it is on the
        checkout, where it fails (or it is rejected there anyway); or a line of the fix reads a name that
        nothing in its good form defines any more (:func:`unbound_fix_read`). The reducer asks this
        before running a candidate on either side."""
        if self.fold is None or self.fold.identity:
            return None
        program, why = self.fold.mapped(candidate)
        if program is not None and why != GONE:
            unbound = unbound_fix_read(candidate, program, self.fold.defined) if self.carried else None
            if unbound is None:
                return None
            with self.lock:
                self.screened += 1
                self.rejected += 1
            return unbound
        if program is not None and not self.carried:
            return None
        with self.lock:
            self.screened += 1
            self.rejected += 1
            self.unmapped += program is None
        if program is None:
            return f"no good form: {why}"
        return "the lines the fix changes are gone and nothing else differs on the good code: fails there too"

    def mapping(self, candidate: str) -> str:
        """How ``candidate`` maps to its good form (for the trace): mapped, runs as it is, or why it cannot."""
        return "runs as it is" if self.fold is None else self.fold.mapped(candidate)[1]

    def run(self, candidate: str, cold: bool = False):
        """Run ``candidate`` on the good code (``cold``: in a fresh interpreter even when a warm server
        is there): its outcome, or None when it could not be mapped."""
        program = self.good_form(candidate)
        if program is None:
            with self.lock:
                self.unmapped += 1
                self.rejected += 1
            return None
        outcome = (self.check.on(ColdExecutor()) if cold else self.check).run(program)
        with self.lock:
            self.runs += 1
            self.rejected += not outcome.ok
        return outcome

    def describe(self) -> str:
        why = "automatic: uncommitted changes to " + _files(self.good.changed) if self.auto else "--good"
        return f"candidates must pass on {self.good.describe()} ({why})"

    def kill_active(self) -> None:
        if self.warm is not None:
            self.warm.kill_active()

    def close(self) -> None:
        if self.warm is not None:
            self.warm.close()
            self.warm = None
        if self.check.sandbox is not None:
            self.check.sandbox.cleanup()
        remove_tree(self.tree.parent)

    def to_dict(self) -> dict:
        return {"rev": self.good.rev, "commit": self.good.commit, "automatic": self.auto,
                "changed": list(self.good.changed),
                "import_path": [Path(p).relative_to(self.tree).as_posix() or "." for p in self.import_path],
                "folded_mapped": self.folded, "script_mapped": self.script_source is not None,
                "warm": self.warm is not None, "runs": self.runs, "rejected": self.rejected,
                "unmapped": self.unmapped, "screened": self.screened, "carried": self.carried}


def _files(names: list[str], most: int = 3) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")


class NotRelevant(Exception):
    """The automatic check has nothing to check: no changed file is where the script imports from."""


def _script_at(good: GoodRev, script: Path) -> str | None:
    """The target as it is in ``good`` when that differs from the checkout's (None: the same, or not there)."""
    data = file_at(good, script)
    if data is None or data == script.read_bytes():
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def prepare_good_code(good: GoodRev, auto: bool, check: Check) -> GoodCode:
    """Export ``good`` and build the check running a candidate on it. ``check``: the cold per-candidate
    check of the original failure (its spec, policy, sandbox and environment are the model).

    Only what the run can import is exported: the script's directory (a pytest target's root), and the
    directories of the interpreter's import path inside the repository that hold a changed file (the
    others are the same in both trees: the checkout's copy serves). ``auto`` with no changed file in
    any of them raises :class:`NotRelevant`.
    """
    spec = check.spec
    script = spec.script.resolve()
    try:
        script_dir = script.parent.relative_to(good.toplevel).as_posix() or "."
    except ValueError:
        raise GoodRevError(f"the target {script} is not inside the repository {good.toplevel}") from None
    root_dir = None
    if spec.root is not None:
        try:
            root_dir = spec.root.resolve().relative_to(good.toplevel).as_posix() or "."
        except ValueError:
            root_dir = None
    entries = [d for d in repo_dirs(import_path(check), good.toplevel)
               if any(_under(name, d) for name in good.changed)]
    own = [d for d in (script_dir, root_dir) if d is not None]
    if auto and not entries and not any(_under(name, d) for name in good.changed for d in own):
        raise NotRelevant(f"the uncommitted changes ({_files(good.changed)}) are outside the script's "
                          "directory and import path")
    scratch = Path(tempfile.mkdtemp(prefix="good-", dir=session_root()))
    try:
        built = tuple(f"{'' if d == '.' else d + '/'}*{suffix}" for d in entries for suffix in _EXTENSIONS)
        tree = export_commit(good, scratch / "tree", keep_untracked=(script.parent,), exclude=COPY_IGNORE,
                             only=tuple(dict.fromkeys(own + entries)), built=built,
                             max_files=AUTO_MAX_FILES if auto else None)
        good_script = tree / script.relative_to(good.toplevel)
        if not good_script.exists():  # e.g. the script is ignored by git: it is the run's set-up all the same
            good_script.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(script, good_script)
        root = spec.root if root_dir is None else tree / root_dir
        paths = [str(tree / d) for d in entries if (tree / d).is_dir() and tree / d != good_script.parent]
        env: dict[str, str | None] = {}
        if paths:
            current = check.run_spec.env.get("PYTHONPATH", os.environ.get("PYTHONPATH"))
            env["PYTHONPATH"] = os.pathsep.join(paths + ([current] if current else []))
        sandbox = Sandbox(good_script, spec.isolate_file, root)
        good_check = replace(check.with_spec(script=good_script, root=root).with_env(env),
                             sandbox=sandbox, executor=ColdExecutor()).expecting_pass()
        return GoodCode(good, auto, tree, good_check, paths, script_source=None if auto else _script_at(good, script))
    except BaseException:
        remove_tree(scratch)
        raise
