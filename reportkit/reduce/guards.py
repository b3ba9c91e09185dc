"""A failure the script raised behind a condition keeps its condition (:attr:`reportkit.reduce.minimize.Keep.guarded`).

``if len(key) > 24: raise ValueError("keys of at most 24 characters")`` must not become the bare
``raise ValueError(...)``: it "fails the same way" and tells a maintainer nothing. The guard and the
values that made it true are the cause; a reducer may shrink them, not drop them.

A *guarded* failure is a ``raise`` inside the body (or ``else``) of an ``if``/``while`` whose test reads a
value (a name, an attribute, a call, a subscript: not ``if True:`` nor ``if 1 > 0:``) or inside an
``except`` handler, within its own function; or an ``assert`` whose test reads a value.
"""

from __future__ import annotations

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def reads_a_value(test: ast.expr) -> bool:
    """Does the test depend on a value the program computed? ``len(key) > 24``, ``x``, ``cfg.strict``:
    yes; ``True``, ``1 > 0``, ``not None``: no."""
    return any(isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) for node in ast.walk(test))


def _failing_statement(tree: ast.Module, line: int) -> tuple[ast.stmt, list[ast.AST]] | None:
    """The innermost statement spanning ``line`` and its ancestors (outermost first)."""
    found: tuple[ast.stmt, list[ast.AST]] | None = None
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        for child in ast.iter_child_nodes(node):
            start, end = getattr(child, "lineno", None), getattr(child, "end_lineno", None)
            if start is None or end is None or not start <= line <= end:
                continue
            if isinstance(child, ast.stmt):
                found = (child, parents + [node])
            stack.append((child, parents + [node]))
    return found


def _under_a_guard(statement: ast.stmt, parents: list[ast.AST]) -> bool:
    """Is ``statement`` inside a branch taken on a value (or on an exception) within its own scope?"""
    inner = [statement, *reversed(parents)]
    for node, parent in zip(inner, inner[1:]):
        if isinstance(parent, _SCOPES):
            return False
        if isinstance(parent, (ast.If, ast.While)) and node is not parent.test and reads_a_value(parent.test):
            return True
        if isinstance(parent, ast.excepthandler):
            return True
    return False


def guarded_failure(source: str, line: int | None) -> bool:
    """Is the statement at ``line`` of ``source`` a guarded ``raise`` or ``assert`` (see the module doc)?
    False when the source does not parse or no such statement spans the line."""
    if line is None:
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    found = _failing_statement(tree, line)
    if found is None:
        return False
    statement, parents = found
    if isinstance(statement, ast.Assert):
        return reads_a_value(statement.test)
    return isinstance(statement, ast.Raise) and _under_a_guard(statement, parents)
