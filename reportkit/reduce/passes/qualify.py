"""Imports of one package gathered into ``import package``, their names spelled in full where they are read.

A reduced script often keeps the author's import block: ``import torch``, ``from torch.func import vmap``,
``from torch.optim.lr_scheduler import MultiplicativeLR``: three lines for one package, where the reproducer
a maintainer posts says ``import torch`` and ``torch.func.vmap(...)``; the full name tells a reader where the
API lives, too. A candidate per package (the first module of the dotted name) imported by two statements or
more: they become one ``import package`` where the first stood, and every read of a name a ``from`` import
bound becomes its dotted path (``vmap`` -> ``torch.func.vmap``). A module's alias (``import
torch.nn.functional as F``, ``import numpy as np``) is a short name its author chose for it, read all through a
script: it stays. The test says whether ``import package`` alone makes the names reachable (a submodule the
package does not import itself is not).

Only where the text says the same thing: module-level whole-line imports, no relative import nor ``*``;
each name is bound by its import alone and read by name at most :data:`MAX_READS` times, never in an f-string
(a name read more often is a convention of its own: ``nn.``, ``F.``); the package's own name bound by
imports only; no ``globals()``, ``eval``... of the program; no line longer than the longest the script had
(or :data:`~reportkit.reduce.passes.cosmetic.MAX_LINE`).
"""

from __future__ import annotations

import ast
from collections import Counter

from .cosmetic import MAX_LINE
from .cosmetic import _whole_lines as whole_lines
from .edits import Splice, apply_splices
from .scopes import binding_names
from .source import SourceMap

__all__ = ["MAX_READS", "qualify_import_candidates"]

#: A name read more often than this keeps its import (``nn.Linear``... all through a model).
MAX_READS = 3

_DYNAMIC = ("globals", "vars", "eval", "exec", "locals", "__import__")


class _Program:
    """One walk of the tree: every name's bindings, its loads, the names declared ``global``/``nonlocal`` and
    the names read inside an f-string (whose positions are unreliable before Python 3.12)."""

    def __init__(self, tree: ast.Module) -> None:
        self.bindings: Counter[str] = Counter()
        self.loads: dict[str, list[ast.Name]] = {}
        self.declared: set[str] = set()
        self.in_fstring: set[str] = set()
        self.dynamic = False
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                self.loads.setdefault(node.id, []).append(node)
                self.dynamic = self.dynamic or node.id in _DYNAMIC
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.declared.update(node.names)
            elif isinstance(node, ast.JoinedStr):
                self.in_fstring.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name))
            for name in binding_names(node):
                self.bindings[name] += 1


def _members(stmt: ast.stmt) -> tuple[str, dict[str, str], int] | None:
    """``(package, {name bound: its dotted path}, how many times the statement binds the package's own name)``
    of a module-level import of one package; None for any other statement."""
    if isinstance(stmt, ast.ImportFrom):
        if stmt.level or not stmt.module or stmt.module == "__future__" or any(a.name == "*" for a in stmt.names):
            return None
        return stmt.module.split(".")[0], {a.asname or a.name: f"{stmt.module}.{a.name}" for a in stmt.names}, 0
    if not isinstance(stmt, ast.Import):
        return None
    roots = {a.name.split(".")[0] for a in stmt.names}
    if len(roots) != 1 or any(a.asname for a in stmt.names):
        return None  # (``import torch.nn.functional as F``: a short name of the author's, kept)
    return roots.pop(), {}, len(stmt.names)


def _whole_lines(smap: SourceMap, stmt: ast.stmt) -> tuple[int, int] | None:
    """The lines ``stmt`` fills alone; None where it shares one (``import a; import b``, a comment)."""
    if not whole_lines(smap, *smap.stmt_span(stmt)):
        return None
    return smap.line_start(stmt.lineno), smap.line_end(stmt.end_lineno or stmt.lineno)


def qualify_import_candidates(source: str) -> list[str]:
    """One candidate per package imported by two module-level statements or more (see the module's text),
    those saving the most lines first."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    program = _Program(tree)
    if program.dynamic:
        return []
    smap = SourceMap(source)
    groups: dict[str, list[tuple[ast.stmt, dict[str, str], int]]] = {}
    for stmt in tree.body:
        members = _members(stmt)
        if members is not None and _whole_lines(smap, stmt) is not None:
            groups.setdefault(members[0], []).append((stmt, members[1], members[2]))
    longest = max(MAX_LINE, *(len(line) for line in source.splitlines()))
    found = []
    for root, members in groups.items():
        candidate = _gathered(source, smap, program, root, members, longest) if len(members) >= 2 else None
        if candidate is not None:
            found.append((len(candidate.splitlines()), candidate))
    return [candidate for _, candidate in sorted(found, key=lambda f: f[0])]


def _gathered(source: str, smap: SourceMap, program: _Program, root: str,
              members: list[tuple[ast.stmt, dict[str, str], int]], longest: int) -> str | None:
    """The imports of ``root`` (``members``: all of them) whose names may be spelled in full as one ``import
    root``, their names read as dotted paths, in order as long as no line grows past ``longest``; None where
    fewer than two may."""
    if program.bindings[root] != sum(own for _, _, own in members) or root in program.declared:
        return None

    def spelled(name: str) -> bool:
        return (name != root and program.bindings[name] == 1 and name not in program.declared
                and name not in program.in_fstring and len(program.loads.get(name, [])) <= MAX_READS)

    gathered: list[tuple[ast.stmt, dict[str, str]]] = []
    candidate = None
    for stmt, named, _ in members:
        if not all(spelled(name) for name in named):
            continue
        tried = _spelled_out(source, smap, program, [*gathered, (stmt, named)], root)
        if tried is not None and max(len(line) for line in tried.splitlines()) <= longest:
            gathered.append((stmt, named))
            candidate = tried
    return candidate if len(gathered) >= 2 else None


def _spelled_out(source: str, smap: SourceMap, program: _Program, gathered: list[tuple[ast.stmt, dict[str, str]]],
                 root: str) -> str | None:
    """``gathered`` (imports and the names they bind) as one ``import root`` where the first stood, each name
    read as its dotted path."""
    splices = []
    for k, (stmt, named) in enumerate(gathered):
        for name, path in named.items():
            splices.extend(Splice(*smap.span(load), path) for load in program.loads.get(name, []))
        lines = _whole_lines(smap, stmt)
        assert lines is not None
        newline = smap.newline_of(stmt.end_lineno or stmt.lineno) or smap.default_newline()
        splices.append(Splice(*lines, f"import {root}{newline}" if k == 0 else ""))
    return apply_splices(source, splices)
