"""Hoist: move a statement from inside a function to module level, right after the imports.

When the statement that fails no longer depends on the function's parameters or locals (often the
case after value materialization), running it at module level reproduces the failure before
anything else runs, and everything else becomes dead code for the next HDD sweep. ``return e``
is hoisted as the expression statement ``e``. It is a move, never a copy, so a candidate is never
larger than the source (a copy that still fails would be accepted again and again).
"""

from __future__ import annotations

import ast
import builtins

from .edits import Delete, Splice, apply_edits, walk_bodies
from .scopes import import_binding
from .source import SourceMap

_SIMPLE = (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_BUILTINS = set(dir(builtins)) - {"super", "__class__"}  # these need the enclosing class


def _bound_by(stmt: ast.stmt) -> set[str]:
    names: set[str] = set()
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            if alias.name != "*":
                names.add(import_binding(stmt, alias))
    elif isinstance(stmt, (*_FUNCS, ast.ClassDef)):
        names.add(stmt.name)
    else:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                names.add(node.id)
    return names


def _free_names(stmt: ast.stmt) -> set[str] | None:
    """Names ``stmt`` reads that it does not bind itself; None if it cannot stand at module level."""
    loads: set[str] = set()
    stores: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await, ast.Nonlocal, ast.Global)):
            return None
        if isinstance(node, ast.Name):
            (loads if isinstance(node.ctx, ast.Load) else stores).add(node.id)
        elif isinstance(node, ast.arg):
            stores.add(node.arg)
    return loads - stores


def _insertion_point(tree: ast.Module, smap: SourceMap) -> tuple[int, set[str]] | None:
    last = None
    for i, stmt in enumerate(tree.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            last = i
    if last is None:
        return None
    bound: set[str] = set()
    for stmt in tree.body[: last + 1]:
        bound |= _bound_by(stmt)
    end = smap.stmt_span(tree.body[last])[1]
    return smap.line_end(smap.lineno_of(end)), bound


def _function_statements(tree: ast.Module) -> set[int]:
    inside: set[int] = set()
    for func in ast.walk(tree):
        if isinstance(func, _FUNCS):
            inside.update(id(n) for stmt in func.body for n in ast.walk(stmt) if isinstance(n, ast.stmt))
    return inside


def hoist_candidates(source: str) -> list[str]:
    tree = ast.parse(source)
    smap = SourceMap(source)
    point = _insertion_point(tree, smap)
    if point is None:
        return []
    offset, bound = point
    allowed = bound | _BUILTINS
    inside = _function_statements(tree)
    out: list[str] = []
    seen: set[str] = set()
    for info in walk_bodies(tree, smap):
        for index, stmt in enumerate(info.seq.stmts):
            if id(stmt) not in inside or not isinstance(stmt, _SIMPLE):
                continue
            if isinstance(stmt, ast.Return) and stmt.value is None:
                continue
            free = _free_names(stmt)
            if free is None or not free <= allowed:
                continue
            node = stmt.value if isinstance(stmt, ast.Return) else stmt
            text = smap.text(node)
            if text in seen:
                continue
            seen.add(text)
            candidate = apply_edits(source, [Delete(info.seq, index), Splice(offset, offset, text + "\n")])
            if candidate is not None:
                out.append(candidate)
    return out
