"""``reportkit ci --good REV``: the failure-inducing change of each failed test, by delta debugging over
the diff (Zeller, "Yesterday, my program worked. Today, it does not. Why?").

The change is ``git diff REV`` (the working tree the tests ran on against the good commit), split into
hunks (:func:`reportkit.run.gitinfo.diff_hunks`, no context lines). Hunks in test code (test modules,
conftest.py, helpers in test directories) are part of the test, not of the change under suspicion: every
candidate has them. A *candidate* is REV's tree plus a subset of the other hunks, written into a scratch
copy of REV's tree (exported from git's object store, :func:`reportkit.run.gitinfo.export_commit`; the
user's checkout is only read). It runs the one failed test, through the one door
(:class:`reportkit.failure.check.Check`), in the sandbox, on a warm server when one runs the test as the
cold runner does, each configuration once (cached by the set of hunks applied, which is its content).

For each failed test:

1. HEAD's tree (every hunk): the test must fail there as it failed in the checkout; its failure there is
   what "fails the same way" means for the search.
2. REV's code with HEAD's tests: if the test fails the same way there, the failure is **pre-existing**
   (not caused by the change), unless it is REV's own test that passes, in which case the change to the
   test code is searched instead.
3. The culprits found for earlier tests are tried first (the same bug breaks many tests): a culprit C
   explains the test when REV + C fails the same way and C is minimal for it.
4. Else picire's ddmin over the hunks (:class:`reportkit.reduce.dd.Ddmin`, which knows nothing of tests:
   it reduces a text with one line per hunk, and a candidate text names the hunks applied): the smallest
   set of hunks that, applied to REV, makes the test fail the same way; then pairs of units needed only
   together are dropped (:func:`drop_pairs`).

Hunks that do not apply alone — a candidate file that no longer parses — are kept with the other hunks of
the smallest statement around them that parses with them, else of their function, else with their
neighbours in the file (:func:`make_units`); a candidate that does not parse is never run. Tests whose culprits coincide are one bug (:mod:`reportkit.ci.ci` groups them).
"""

from __future__ import annotations

import ast
import hashlib
import itertools
import os
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Optional

from reportkit.errors import UserError
from reportkit.failure.check import Check, Outcome
from reportkit.failure.signature import MatchPolicy, Signature, same_failure
from reportkit.io import read_run_file, remove_tree
from reportkit.reduce.dd import Ddmin
from reportkit.reduce.fixcheck import import_path, repo_dirs
from reportkit.reduce.passes.edits import Splice
from reportkit.run.executor import ColdExecutor, Executor, WarmExecutor, discover_preload
from reportkit.run.gitinfo import (
    DiffHunk,
    GoodRev,
    GoodRevError,
    commit_subjects,
    diff_hunks,
    export_commit,
    file_at,
    line_commits,
    removing_commits,
    working_file,
)
from reportkit.run.runner import COPY_IGNORE, Sandbox, session_root

#: more hunks than this and the search is not attempted (the diff is not a change, it is a history)
MAX_HUNKS = 2000
#: at most this many runs for one test (a search cut there reports what it has not found)
MAX_RUNS_PER_TEST = 60
#: a culprit of at most this many units is checked for pairs of units needed only together (drop_pairs)
MAX_PAIR_UNITS = 8
#: a candidate may take this many times as long as the test took on HEAD's tree (at least MIN_TIMEOUT s)
TIMEOUT_FACTOR = 10.0
MIN_TIMEOUT = 20.0
_EXCERPT_LINES = 12
_EXTENSIONS = (".so", ".pyd")


class SearchCut(Exception):
    """The search's run bound (or the per-test run cap, or the time budget) ended a search."""


@dataclass
class Hunk:
    """A hunk of the change, with the lines it replaces and the lines it puts there."""

    id: int
    diff: DiffHunk
    old: list[bytes]  # the good file's lines (whole file, with line ends); [] for an added file
    new: list[bytes]  # the working tree's lines
    test: bool  # in test code: every candidate has it
    function: str = ""  # the innermost def/class around it (HEAD's file, REV's for a deletion)
    commits: list[str] = field(default_factory=list)  # short SHAs that made it ("uncommitted" for the rest)

    @property
    def file(self) -> str:
        return self.diff.file

    @property
    def whole(self) -> bool:
        return self.diff.kind != "text"

    def removed(self) -> list[bytes]:
        d = self.diff
        return [] if self.whole else self.old[d.old_start - 1:d.old_start - 1 + d.old_len] if d.old_len else []

    def added(self) -> list[bytes]:
        d = self.diff
        return [] if self.whole else self.new[d.new_start - 1:d.new_start - 1 + d.new_len] if d.new_len else []

    def lines(self) -> tuple[int, int]:
        """Where it is in the working tree's file: its lines, or for a deletion the two lines around it."""
        d = self.diff
        if self.whole:
            return (1, max(1, len(self.new)))
        if d.new_len == 0:
            return (max(1, d.new_start), d.new_start + 1)
        return (d.new_start, d.new_start + d.new_len - 1)

    def where(self) -> str:
        a, b = self.lines()
        return f"{self.file}:{a}" + (f"-{b}" if b != a else "")

    def excerpt(self, limit: int = _EXCERPT_LINES) -> str:
        """The hunk as a unified diff body (``-`` and ``+`` lines), at most ``limit`` lines."""
        if self.whole:
            return f"({self.diff.kind} file {self.file})"
        rows = [f"-{_text(line)}" for line in self.removed()] + [f"+{_text(line)}" for line in self.added()]
        if len(rows) > limit:
            rows = rows[:limit] + [f"... ({len(rows) - limit} more lines)"]
        return "\n".join(rows)

    def identity(self) -> str:
        """What the hunk is, without where (line numbers move): its file and its lines, whitespace folded."""
        if self.whole:
            return f"{self.file}\x1f{self.diff.kind}\x1f{hashlib.sha256(b''.join(self.new)).hexdigest()}"
        rows = [" ".join(_text(line).split()) for line in self.removed()] + ["\x1e"] + \
               [" ".join(_text(line).split()) for line in self.added()]
        return f"{self.file}\x1f" + "\n".join(rows)

    def to_dict(self) -> dict:
        a, b = self.lines()
        return {"file": self.file, "lines": [a, b], "function": self.function, "commits": self.commits,
                "excerpt": self.excerpt(), "kind": self.diff.kind}


def _text(line: bytes) -> str:
    return line.decode("utf-8", "replace").rstrip("\r\n")


def culprit_fingerprint(hunks: Iterable[Hunk]) -> str:
    """16 hex digits for a culprit: the hunks' files and lines (not where they are: the same change found
    from another good revision, or after unrelated edits above it, is the same bug)."""
    parts = sorted(h.identity() for h in hunks)
    return hashlib.sha256("\x1d".join(["culprit", *parts]).encode("utf-8", "surrogateescape")).hexdigest()[:16]


# --------------------------------------------------------------------------- the change


def load_hunks(good: GoodRev, is_test: Callable[[str], bool], max_hunks: int = MAX_HUNKS) -> list[Hunk]:
    """The change since ``good`` as :class:`Hunk`\\ s (the files' contents read once per file)."""
    diffs = diff_hunks(good, max_hunks=max_hunks)
    contents: dict[str, tuple[list[bytes], list[bytes]]] = {}
    hunks = []
    for i, d in enumerate(diffs):
        if d.file not in contents:
            old = file_at(good, good.toplevel / d.file) if d.kind != "added" else None
            new = working_file(good, d.file) if d.kind != "deleted" else None
            contents[d.file] = ((old or b"").splitlines(keepends=True), (new or b"").splitlines(keepends=True))
        old_lines, new_lines = contents[d.file]
        hunk = Hunk(i, d, old_lines, new_lines, is_test(d.file))
        hunk.function = _function_of(hunk)
        hunks.append(hunk)
    return hunks


def _function_of(hunk: Hunk) -> str:
    """``Class.method`` (or ``function``) around the hunk, "" at module level or in a file that is not Python.
    Where the hunk's lines are in the working tree's file; for a deletion, where they were in the good one."""
    if hunk.whole or not hunk.file.endswith(".py"):
        return ""
    d = hunk.diff
    if d.new_len:
        lines, first, last = hunk.new, d.new_start, d.new_start + d.new_len - 1
    else:
        lines, first, last = hunk.old, d.old_start, d.old_start + d.old_len - 1
    try:
        tree = ast.parse(b"".join(lines))
    except (SyntaxError, ValueError):
        return ""
    path: list[str] = []
    node: ast.AST = tree
    while True:
        inner = next((c for c in ast.walk(node) if c is not node and isinstance(c, _SCOPES)
                      and min([c.lineno] + [x.lineno for x in c.decorator_list]) <= first
                      and last <= (c.end_lineno or c.lineno)), None)
        if inner is None:
            return ".".join(path)
        path.append(inner.name)
        node = inner


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def add_commits(good: GoodRev, hunks: list[Hunk]) -> None:
    """Fill each hunk's :attr:`Hunk.commits` (``git blame``; only for the hunks shown: it costs a git call each)."""
    for h in hunks:
        if h.commits:
            continue
        d = h.diff
        if h.whole or d.new_len:
            start, count = (1, max(1, len(h.new))) if h.whole else (d.new_start, d.new_len)
            h.commits = line_commits(good, h.file, start, count) if h.new else []
        if not h.commits and (d.old_len or h.whole) and h.old:
            start, count = (1, len(h.old)) if h.whole else (d.old_start, d.old_len)
            h.commits = removing_commits(good, h.file, start, count)


def describe_culprit(good: GoodRev, hunks: list[Hunk]) -> dict:
    """The culprit as the manifest, the summary and the issue show it."""
    add_commits(good, hunks)
    commits = list(dict.fromkeys(c for h in hunks for c in h.commits))
    subjects = commit_subjects(good, commits)
    return {"good": good.describe(), "good_commit": good.commit,
            "commits": [{"sha": c, "subject": subjects.get(c, "")} for c in commits],
            "hunks": [h.to_dict() for h in hunks], "fingerprint": culprit_fingerprint(hunks)}


def culprit_markdown(culprit: dict) -> str:
    """The culprit section of an issue (Markdown)."""
    hunks = culprit.get("hunks") or []
    commits = culprit.get("commits") or []
    lines = ["### Culprit change", "",
             f"Found by delta debugging over `git diff {culprit.get('good', '?')}` (the smallest set of hunks that, "
             f"applied to the good revision, makes the test fail the same way): {len(hunks)} hunk(s)"
             + (" in " + ", ".join(f"`{c['sha']}`" + (f" ({c['subject']})" if c.get("subject") else "")
                                   for c in commits) if commits else "") + ".", ""]
    for h in hunks:
        a, b = h["lines"]
        where = f"`{h['file']}:{a}" + (f"-{b}" if b != a else "") + "`" + (f" in `{h['function']}`" if h["function"]
                                                                           else "")
        fence = "```"
        while fence in h["excerpt"]:
            fence += "`"
        lines += [where, "", f"{fence}diff", h["excerpt"], fence, ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------- hunks that do not apply alone


def apply_hunks(old: list[bytes], hunks: Iterable[Hunk]) -> list[bytes]:
    """``old`` (a file's lines) with ``hunks`` (text hunks of that file) applied."""
    out = list(old)
    for h in sorted(hunks, key=lambda h: h.diff.old_start, reverse=True):
        d = h.diff
        start = d.old_start if d.old_len == 0 else d.old_start - 1
        out[start:start + d.old_len] = h.added()
    return out


def file_content(hunks_of_file: list[Hunk], applied: set[int]) -> Optional[bytes]:
    """A changed file's content with the hunks ``applied`` (ids) of its ``hunks_of_file``; None: absent."""
    first = hunks_of_file[0]
    if first.whole:
        if first.id in applied:
            return None if first.diff.kind == "deleted" else b"".join(first.new)
        return None if first.diff.kind == "added" else b"".join(first.old)
    return b"".join(apply_hunks(first.old, [h for h in hunks_of_file if h.id in applied]))


def parses(name: str, content: Optional[bytes]) -> bool:
    """Does a candidate's file parse (files that are not Python, or absent, always do)?"""
    if content is None or not name.endswith(".py"):
        return True
    try:
        ast.parse(content)
    except (SyntaxError, ValueError):
        return False
    except RecursionError:
        return True
    return True


def make_units(hunks: list[Hunk], applied: frozenset[int] = frozenset()) -> list[tuple[int, ...]]:
    """``hunks`` (all the hunks of their files) as units of the search: one hunk each, except a hunk whose file
    does not parse with it alone (on top of ``applied``) — it is kept with the other hunks of the smallest
    statement around it (in the working tree's file) with which it parses (an ``else:`` added with the ``if``
    it now belongs to, not with every hunk of the function), else with the other hunks of its function, else
    with its neighbours in the file, until the unit parses (at worst: all the file's hunks)."""
    by_file: dict[str, list[Hunk]] = {}
    for h in hunks:
        by_file.setdefault(h.file, []).append(h)
    units: list[tuple[int, ...]] = []
    for name, file_hunks in by_file.items():
        groups: list[list[Hunk]] = [[h] for h in file_hunks]
        spans = statement_spans(file_hunks[0].new) if name.endswith(".py") and not file_hunks[0].whole else []

        def ok(group: list[Hunk], name: str = name, file_hunks: list[Hunk] = file_hunks) -> bool:
            return parses(name, file_content(file_hunks, set(applied) | {h.id for h in group}))

        while len(groups) > 1:
            bad = next((i for i, g in enumerate(groups) if not ok(g)), None)
            if bad is None:
                break
            same = _enclosing_members(groups, bad, spans, ok)
            if same is None:
                same = _function_or_neighbour(groups, bad, ok)
            merged = sorted(groups[bad] + [h for i in same for h in groups[i]], key=lambda h: h.id)
            groups = [g for i, g in enumerate(groups) if i != bad and i not in same]
            groups.append(merged)
            groups.sort(key=lambda g: g[0].id)
        units += [tuple(h.id for h in g) for g in groups]
    return units


def statement_spans(lines: list[bytes]) -> list[tuple[int, int]]:
    """The (first, last) lines of every statement (and ``except`` clause) of a file, decorators included,
    smallest first; [] when the file does not parse."""
    try:
        tree = ast.parse(b"".join(lines))
    except (SyntaxError, ValueError, RecursionError):
        return []
    spans = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.stmt, ast.excepthandler)):
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            spans.add((first, node.end_lineno or node.lineno))
    return sorted(spans, key=lambda s: (s[1] - s[0], s[0]))


def _span(hunk: Hunk) -> tuple[int, int]:
    """Where the hunk is in the working tree's file; a deletion: the line before it and the line after."""
    d = hunk.diff
    return (d.new_start, d.new_start + d.new_len - 1) if d.new_len else (d.new_start, d.new_start + 1)


def _inside(hunk: Hunk, first: int, last: int) -> bool:
    """Does the hunk touch the lines ``first``..``last`` (a deletion: is it between two of them)?"""
    a, b = _span(hunk)
    return first <= a and b <= last if not hunk.diff.new_len else a <= last and b >= first


def _enclosing_members(groups: list[list[Hunk]], bad: int, spans: list[tuple[int, int]],
                       ok: Callable[[list[Hunk]], bool]) -> Optional[list[int]]:
    """The other groups inside the smallest statement around group ``bad`` that parses with them; None: none."""
    first = min(_span(h)[0] for h in groups[bad])
    last = max(_span(h)[1] for h in groups[bad])
    tried: set[tuple[int, ...]] = set()
    for s, e in spans:
        if not (s <= first and last <= e):
            continue
        members = tuple(i for i, g in enumerate(groups) if i != bad and any(_inside(h, s, e) for h in g))
        if not members or members in tried:
            continue
        tried.add(members)
        if ok(groups[bad] + [h for i in members for h in groups[i]]):
            return list(members)
    return None


def _function_or_neighbour(groups: list[list[Hunk]], bad: int, ok: Callable[[list[Hunk]], bool]) -> list[int]:
    """The other groups of group ``bad``'s function if it parses with them, else its next (or last) neighbour."""
    functions = {h.function for h in groups[bad] if h.function}
    same = [i for i, g in enumerate(groups) if i != bad and functions & {h.function for h in g}]
    if same and not ok(groups[bad] + [h for i in same for h in groups[i]]):
        same = []  # the function's hunks together do not parse either: the neighbours then
    return same or [bad + 1 if bad + 1 < len(groups) else bad - 1]


# --------------------------------------------------------------------------- candidate trees


class Tree:
    """REV's tree in scratch, and the changed files written as a configuration has them."""

    def __init__(self, root: Path, hunks: list[Hunk]) -> None:
        self.root = root
        self.files: dict[str, list[Hunk]] = {}
        for h in hunks:
            self.files.setdefault(h.file, []).append(h)
        self._state: dict[str, Optional[bytes]] = {name: file_content(hs, set()) for name, hs in self.files.items()}

    def contents(self, applied: frozenset[int]) -> dict[str, Optional[bytes]]:
        return {name: file_content(hs, set(applied)) for name, hs in self.files.items()}

    def valid(self, applied: frozenset[int]) -> bool:
        return all(parses(name, content) for name, content in self.contents(applied).items())

    def write(self, applied: frozenset[int]) -> None:
        for name, content in self.contents(applied).items():
            if content == self._state.get(name):
                continue
            path = self.root / name
            if content is None:
                path.unlink(missing_ok=True)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_name(f".{path.name}.rk-tmp")
                tmp.write_bytes(content)
                os.replace(tmp, path)
            self._state[name] = content


class _UnitTester:
    """The candidate tester :class:`reportkit.reduce.dd.Ddmin` drives: a candidate is a text with one line
    (``u<i>``) per unit applied; it is interesting when that configuration fails the same way."""

    def __init__(self, units: list[tuple[int, ...]], fails: Callable[[frozenset[int]], Optional[bool]]) -> None:
        self.units = units
        self._fails = fails
        self.current = "".join(f"u{i}\n" for i in range(len(units)))

    def config(self, candidate: str) -> frozenset[int]:
        return frozenset(h for line in candidate.splitlines() for h in self.units[int(line[1:])])

    def test(self, candidate: str) -> bool:
        return bool(self._fails(self.config(candidate)))

    def try_candidate(self, candidate: Optional[str], name: str, count: int) -> bool:
        if candidate is None or not self.test(candidate):
            return False
        return self.accept(candidate, name, count)

    def accept(self, candidate: Optional[str], name: str, count: int) -> bool:
        if candidate is None:
            return False
        self.current = candidate
        return True

    def count_invalid(self) -> None:
        pass

    def prefetch(self, candidates) -> None:
        pass

    def end_prefetch(self) -> None:
        pass

    def edits(self) -> list[Splice]:
        """Deleting each unit's line: ddmin keeps as few as still fail."""
        edits, pos = [], 0
        for i in range(len(self.units)):
            edits.append(Splice(pos, pos + len(f"u{i}\n")))
            pos += len(f"u{i}\n")
        return edits


def minimal_culprit(units: list[tuple[int, ...]], fails: Callable[[frozenset[int]], Optional[bool]],
                    max_pairs: int = MAX_PAIR_UNITS) -> tuple[int, ...]:
    """The hunk ids of a failing subset of ``units``: picire's ddmin (1-minimal: no one unit can go), then
    :func:`drop_pairs` (nor two that are needed only together)."""
    tester = _UnitTester(units, fails)
    Ddmin(tester)(tester.edits(), "culprit")
    kept = [units[int(line[1:])] for line in tester.current.splitlines()]
    return tuple(sorted(h for u in drop_pairs(kept, fails, max_pairs) for h in u))


def drop_pairs(kept: list[tuple[int, ...]], fails: Callable[[frozenset[int]], Optional[bool]],
               max_pairs: int = MAX_PAIR_UNITS) -> list[tuple[int, ...]]:
    """``kept`` (a 1-minimal failing set of units) without the pairs of units that can go together: a variable
    renamed in two hunks is needed only with both or neither (either alone leaves a name undefined, another
    failure), so each hunk is kept by ddmin while the two together change nothing (held-out sqlparse: the
    culprit of a one-line bug was that line and a rename's two hunks). Tried while ``kept`` has at most
    ``max_pairs`` units (C(n, 2) runs at most per round); a run cut by the budget ends it with what it has."""
    def ids(units: list[tuple[int, ...]]) -> frozenset[int]:
        return frozenset(h for u in units for h in u)

    changed = True
    while changed and 3 <= len(kept) <= max_pairs:
        changed = False
        for i, j in itertools.combinations(range(len(kept)), 2):
            rest = [u for k, u in enumerate(kept) if k not in (i, j)]
            try:
                if not fails(ids(rest)):
                    continue
            except SearchCut:
                return kept
            tester = _UnitTester(rest, fails)  # what is left is made 1-minimal again
            try:
                Ddmin(tester)(tester.edits(), "culprit")
            except SearchCut:
                pass  # what it accepted so far fails the same way
            kept, changed = [rest[int(line[1:])] for line in tester.current.splitlines()], True
            break
    return kept


# --------------------------------------------------------------------------- the search


@dataclass
class TestCulprit:
    """What the search found for one failed test."""

    test: str
    verdict: str  # "culprit" | "pre-existing" | "unknown"
    hunks: tuple[int, ...] = ()  # the culprit's hunk ids
    note: str = ""
    runs: int = 0
    seconds: float = 0.0
    signature: Optional[Signature] = None  # its failure on HEAD's tree


@dataclass
class SearchStats:
    hunks: int = 0  # of the change
    searched: int = 0  # not in test code, inside what the tests import
    units: int = 0
    tests: int = 0  # tests searched
    runs: int = 0  # test runs (cache hits not counted)
    cached: int = 0
    invalid: int = 0  # candidates that did not parse: not run
    narrowed: int = 0  # culprits a second opinion narrowed (CulpritSearch.reconcile)
    seconds: float = 0.0
    executor: str = "cold"
    note: str = ""

    def to_dict(self) -> dict:
        return {k: (round(v, 1) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def _repo_relative_dir(good: GoodRev, path: Path, script: Path) -> str:
    """``path`` relative to the top level (posix, "." for the top); GoodRevError when the test is outside it."""
    try:
        return path.resolve().relative_to(good.toplevel).as_posix() or "."
    except ValueError:
        raise GoodRevError(f"the test {script} is not inside the repository {good.toplevel}") from None


def _built_globs(changed: set[str]) -> tuple[str, ...]:
    """Globs of the untracked build products next to the changed code (a generated _version.py, compiled
    extensions)."""
    parents = {Path(name).parent.as_posix() for name in changed if Path(name).parent.as_posix() != "."}
    return tuple(f"{p}/*{suffix}" for p in parents for suffix in (".py", *_EXTENSIONS))


def _warm_preload(root: Path, check: Check) -> list[str]:
    """The modules the warm server imports ahead: pytest and the test's imports that are not the repository's."""
    names = _repo_names(root)
    return ["pytest"] + [m for m in discover_preload(_read(check.spec.script), check.spec.script)
                         if m.split(".")[0] not in names and m != "pytest"]


class CulpritSearch:
    """The search for the failures of one ``reportkit ci`` run (one scratch tree, one warm server)."""

    def __init__(self, good: GoodRev, *, is_test: Callable[[str], bool], policy: Optional[MatchPolicy] = None,
                 deadline: Optional[float] = None, on_step: Callable[[str], None] = lambda m: None,
                 executor: str = "warm", max_runs: Optional[int] = None) -> None:
        self.good = good
        self.policy = policy or MatchPolicy()
        self.deadline = deadline
        self.max_runs = max_runs  # test runs in all (cache hits not counted): the search's load-independent bound
        self.on_step = on_step
        self.want_warm = executor == "warm"
        self.stats = SearchStats()
        start = time.monotonic()
        self.hunks = load_hunks(good, is_test)
        self.stats.hunks = len(self.hunks)
        self.stats.seconds += time.monotonic() - start
        self._scratch: Optional[Path] = None
        self.tree: Optional[Tree] = None
        self.units: list[tuple[int, ...]] = []
        self.test_hunks: frozenset[int] = frozenset()
        self._env: dict[str, Optional[str]] = {}
        self._sandboxes: dict[tuple[Path, Optional[Path]], Sandbox] = {}
        self._executor: Executor = ColdExecutor()
        self._warm: Optional[WarmExecutor] = None
        self._warm_checked = False
        self._cache: dict[tuple[str, frozenset[int]], Outcome] = {}
        self._known: list[tuple[int, ...]] = []  # culprits found so far, in order
        self.results: dict[str, TestCulprit] = {}
        self._checks: dict[str, Check] = {}  # each searched test's Check on the tree (reconcile runs it again)

    # ------------------------------------------------------------------ set-up
    def prepare(self, checks: list[Check]) -> None:
        """Export REV's tree for the tests of ``checks`` (their pytest rootdirs, and the directories of the
        import path that hold a changed file), and decide the units."""
        start = time.monotonic()
        try:
            self._prepare(checks)
        finally:
            self.stats.seconds += time.monotonic() - start

    def _prepare(self, checks: list[Check]) -> None:
        dirs = self._test_dirs(checks)
        changed = {h.file for h in self.hunks}
        imports = [d for d in repo_dirs(import_path(checks[0]), self.good.toplevel)
                   if any(_under(name, d) for name in changed)]
        only = tuple(dict.fromkeys(dirs + imports))
        self._keep_hunks_inside(only)
        self._scratch = Path(tempfile.mkdtemp(prefix="culprit-", dir=session_root()))
        root = export_commit(self.good, self._scratch / "tree",
                             keep_untracked=tuple(self.good.toplevel / d for d in dirs),
                             exclude=COPY_IGNORE, only=only, built=_built_globs(changed))
        self.tree = Tree(root, self.hunks)
        self.units = make_units([h for h in self.hunks if not h.test], self.test_hunks)
        self.stats.units = len(self.units)
        self._set_pythonpath(root, imports, checks[0])
        if self.want_warm:
            self._warm = WarmExecutor(_warm_preload(root, checks[0]))

    def _test_dirs(self, checks: list[Check]) -> list[str]:
        """The tests' pytest rootdirs and directories, relative to the top level (in order, once each)."""
        dirs: list[str] = []
        for check in checks:
            spec = check.spec
            for path in (spec.root or spec.script.parent, spec.script.parent):
                rel = _repo_relative_dir(self.good, path, spec.script)
                if rel not in dirs:
                    dirs.append(rel)
        return dirs

    def _keep_hunks_inside(self, only: tuple[str, ...]) -> None:
        """Keep (and renumber) the hunks under the directories ``only``; note how many were left out."""
        inside = [h for h in self.hunks if any(_under(h.file, d) for d in only)]
        outside = len(self.hunks) - len(inside)
        self.hunks = [replace(h, id=i) for i, h in enumerate(inside)]
        self.test_hunks = frozenset(h.id for h in self.hunks if h.test)
        self.stats.searched = sum(not h.test for h in self.hunks)
        if outside:
            self.stats.note = f"{outside} hunk(s) outside the tests' rootdir and import path left out"

    def _set_pythonpath(self, root: Path, imports: list[str], check: Check) -> None:
        """Put the exported tree's import-path directories ahead of the test's PYTHONPATH."""
        paths = [str(root / d) for d in imports if (root / d).is_dir()]
        if paths:
            current = check.run_spec.env.get("PYTHONPATH", os.environ.get("PYTHONPATH"))
            self._env["PYTHONPATH"] = os.pathsep.join(paths + ([current] if current else []))

    def close(self) -> None:
        if self._warm is not None:
            self._warm.close()
            self._warm = None
        for sandbox in self._sandboxes.values():
            sandbox.cleanup()
        self._sandboxes.clear()
        if self._scratch is not None:
            remove_tree(self._scratch)
            self._scratch = None

    def __enter__(self) -> CulpritSearch:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ running a configuration
    def _tree_check(self, check: Check) -> Check:
        assert self.tree is not None
        spec = check.spec
        script = self.tree.root / spec.script.resolve().relative_to(self.good.toplevel)
        root = None if spec.root is None else self.tree.root / spec.root.resolve().relative_to(self.good.toplevel)
        key = (script, root)
        if key not in self._sandboxes:
            self._sandboxes[key] = Sandbox(script, spec.isolate_file, root)
        return replace(check.with_spec(script=script, root=root).with_env(self._env), sandbox=self._sandboxes[key],
                       executor=self._executor, expected=None, passes=False)

    def _run(self, node: str, check: Check, applied: frozenset[int], budget: list[int]) -> Optional[Outcome]:
        """The outcome of the test on the configuration ``applied`` (None: it does not parse, not run)."""
        assert self.tree is not None
        key = (node, applied)
        if key in self._cache:
            self.stats.cached += 1
            return self._cache[key]
        if not self.tree.valid(applied):
            self.stats.invalid += 1
            return None
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchCut("the time budget was used up")
        if self.max_runs is not None and self.stats.runs >= self.max_runs:
            raise SearchCut(f"the search's bound of {self.max_runs} runs was reached")
        if budget[0] <= 0:
            raise SearchCut(f"more than {MAX_RUNS_PER_TEST} runs")
        budget[0] -= 1
        self.tree.write(applied)
        outcome = check.run()
        self.stats.runs += 1
        self._cache[key] = outcome
        return outcome

    def _admit_warm(self, node: str, check: Check, reference: Outcome) -> Check:
        """Use the warm server from now on if it runs this test as the cold runner did (``reference``)."""
        if self._warm_checked or self._warm is None:
            return check
        self._warm_checked = True
        warm = self._warm
        note = ""
        if warm.start(check.run_spec):
            got = check.on(warm).run()
            same = same_failure(reference.signature, got.signature, self.policy) and \
                same_failure(got.signature, reference.signature, self.policy) and warm.warm_runs > 0
            if same:
                self._executor = warm
                self.stats.executor = "warm"
                return check.on(warm)
            note = "the warm server runs the test differently"
        self.stats.executor = "cold" + (f" ({note or '; '.join(warm.notes) or 'no warm server'})")
        warm.close()
        self._warm = None
        return check

    # ------------------------------------------------------------------ one test
    def search(self, node: str, check: Check, expected: Optional[Signature] = None,
               prefer: Iterable[tuple[int, ...]] = ()) -> TestCulprit:
        """The culprit of the failed test ``node`` (``check``: its Check in the checkout; ``expected``: its
        failure there, when confirmed). ``prefer``: culprits to try first (those of tests that failed alike)."""
        start = time.monotonic()
        result = TestCulprit(node, "unknown")
        runs_before = self.stats.runs
        try:
            self._search(node, check, expected, list(prefer), result)
        except SearchCut as exc:
            result.verdict, result.note = "unknown", f"search cut: {exc}"
        except UserError as exc:
            result.verdict, result.note = "unknown", exc.message.splitlines()[0]
        finally:
            result.seconds = time.monotonic() - start
            result.runs = self.stats.runs - runs_before
            self.stats.seconds += result.seconds
            self.stats.tests += 1
        if result.verdict == "culprit" and result.hunks not in self._known:
            self._known.append(result.hunks)
        self.results[node] = result
        return result

    def reconcile(self) -> int:
        """A second opinion where two tests' culprits disagree: a test whose culprit holds another test's
        culprit (a smaller one; the same bug usually breaks both) is run once more, uncached, with that one
        only; if it fails the same way, that is its culprit. A run that came out otherwise by chance (a
        loaded machine) would have kept a hunk in one test's culprit and made its bug two issues. Returns
        how many culprits it narrowed; the time budget ends it."""
        found = sorted({r.hunks for r in self.results.values() if r.verdict == "culprit"}, key=len)
        narrowed = 0
        start = time.monotonic()
        try:
            for node, result in self.results.items():
                if result.verdict != "culprit" or result.signature is None or node not in self._checks:
                    continue
                for smaller in (k for k in found if set(k) < set(result.hunks)):
                    if self._fails_with(node, result.signature, smaller):
                        result.hunks, result.note = smaller, "narrowed by a second opinion (another test's culprit)"
                        narrowed += 1
                        break
        except SearchCut:
            pass
        finally:
            self.stats.seconds += time.monotonic() - start
            self.stats.narrowed += narrowed
        return narrowed

    def _fails_with(self, node: str, sig: Signature, hunks: tuple[int, ...]) -> bool:
        """Does ``node`` fail as ``sig`` says on REV + ``hunks`` (and the test code's), run afresh?"""
        applied = self.test_hunks | frozenset(hunks)
        self._cache.pop((node, applied), None)
        got = self._run(node, self._checks[node], applied, [1])
        return got is not None and same_failure(sig, got.signature, self.policy)

    def _search(self, node: str, check: Check, expected: Optional[Signature], prefer: list[tuple[int, ...]],
                result: TestCulprit) -> None:
        assert self.tree is not None
        budget = [MAX_RUNS_PER_TEST]
        tcheck = self._tree_check(check)
        everything = frozenset(h.id for h in self.hunks)
        head = self._run(node, tcheck, everything, budget)
        if head is not None and (not head.signature.failed or (expected is not None and not same_failure(
                expected, head.signature, self.policy))):
            # a second opinion before giving up on the test: one run that came out otherwise (a loaded machine,
            # a sandbox that failed to start) would leave its failure without a culprit
            self._cache.pop((node, everything), None)
            head = self._run(node, tcheck, everything, budget)
        if head is None or not head.signature.failed:
            result.note = ("HEAD's tree, exported from git, does not parse" if head is None else
                           f"on HEAD's tree exported from git the test ends with {head.signature.headline()} "
                           "(untracked files it needs?)")
            return
        if expected is not None and not same_failure(expected, head.signature, self.policy):
            result.note = (f"on HEAD's tree exported from git the test ends with {head.signature.headline()}, in "
                           f"the checkout with {expected.headline()}")
            return
        result.signature = head.signature
        tcheck = self._admit_warm(node, tcheck, head)
        limit = replace(tcheck.spec, timeout=min(tcheck.spec.timeout,
                                                 max(MIN_TIMEOUT, TIMEOUT_FACTOR * head.result.duration)))
        patient, tcheck = tcheck, replace(tcheck, spec=limit)
        self._checks[node] = tcheck
        sig = head.signature

        def fails(applied: frozenset[int]) -> Optional[bool]:
            got = self._run(node, tcheck, applied, budget)
            if got is not None and got.result.timed_out and not head.result.timed_out \
                    and limit.timeout < patient.spec.timeout:
                # ended at the search's short timeout (TIMEOUT_FACTOR x HEAD's time): on a loaded machine a run can
                # take that long; once more with the test's own --timeout before it counts as a hang (not failing
                # the same way, it would put another hunk into the culprit)
                self._cache.pop((node, applied), None)
                got = self._run(node, patient, applied, budget)
            return None if got is None else same_failure(sig, got.signature, self.policy)

        if fails(self.test_hunks):  # REV's code, HEAD's tests
            if not self.test_hunks or fails(frozenset()):
                result.verdict, result.note = "pre-existing", "fails the same way on the good revision's code"
                return
            found = self._ddmin(make_units([h for h in self.hunks if h.test]), frozenset(), fails)
            result.verdict, result.hunks = "culprit", found
            result.note = "the change to the test code"
            return
        for known in [*prefer, *self._known]:
            if not known or any(h in self.test_hunks for h in known):
                continue
            if not fails(self.test_hunks | frozenset(known)):
                continue
            if len(known) == 1:
                result.verdict, result.hunks = "culprit", tuple(known)
                return
            units = [u for u in self.units if set(u) <= set(known)] or [tuple(known)]
            result.verdict, result.hunks = "culprit", self._ddmin(units, self.test_hunks, fails)
            return
        self.on_step(f"  searching {len(self.units)} unit(s) of the change for the culprit of {node} ...")
        result.verdict, result.hunks = "culprit", self._ddmin(self.units, self.test_hunks, fails)

    def _ddmin(self, units: list[tuple[int, ...]], base: frozenset[int],
               fails: Callable[[frozenset[int]], Optional[bool]]) -> tuple[int, ...]:
        """picire's ddmin (through the project's adapter) over ``units`` on top of ``base``: the hunk ids of a
        1-minimal failing subset."""
        return minimal_culprit(units, lambda applied: fails(base | applied))

    def hunks_of(self, ids: Iterable[int]) -> list[Hunk]:
        wanted = set(ids)
        return [h for h in self.hunks if h.id in wanted]


def _under(name: str, directory: str) -> bool:
    return directory == "." or name == directory or name.startswith(directory.rstrip("/") + "/")


def _repo_names(root: Path) -> set[str]:
    """Every directory and module name in the exported tree: imports by such a name are the code under test
    (never preloaded in the warm server, which would run the checkout's copy instead of the candidate's)."""
    names: set[str] = set()
    for _dirpath, dirnames, filenames in os.walk(root):
        names.update(dirnames)
        names.update(f[:-3] for f in filenames if f.endswith(".py"))
        names.update(f.split(".")[0] for f in filenames if f.endswith(_EXTENSIONS))
    return names


def _read(path: Path) -> str:
    try:
        return read_run_file(path, follow=True).decode("utf-8")  # (a FIFO or a device in the checkout: not read)
    except UnicodeDecodeError:
        return ""
