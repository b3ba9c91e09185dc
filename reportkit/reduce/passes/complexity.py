"""How complex a statement is to read: its AST nodes, for the cap on what inlining may build.

Inlining one-use variables and functions shortens a reproducer by lines, and can end in one statement
more tangled than anything its author wrote (``key, value = next(iter({...}[[a[1:] for a in
(sys.argv[1:] or ["+adam"]) if a.startswith("+")][0]].items()))``). A maintainer reads the plain steps
faster: so no candidate of an inlining pass (:data:`reportkit.reduce.passes.INLINING`) may hold a statement
with more nodes than the most complex statement of the original (nor than the current source's, which
materialized values may have made larger); the value stays named instead
(:class:`reportkit.reduce.tester.Tester`).

A statement's nodes are those of its own expressions, not of the statements in its body (an ``if``'s test,
not its branches); names' contexts and operators are not nodes of their own, and a literal of constants
(``{"lr": 0.1, "betas": (0.9, 0.99)}``, ``-1``) counts as one: it is data, read at a glance; a name bound
(``x = …``) counts as none: ``x = EXPR`` is no more complex than the ``return EXPR`` it was inlined from. A parallel
assignment (``a, b = x, f(y)``, how an inlined function's parameters are bound) counts as its most complex
single assignment: the readability pass splits it.

A candidate differs from the current source in a few places: only its statements there are counted
(:func:`max_changed_nodes`); the others are the current source's, no more complex than its most complex.
"""

from __future__ import annotations

import ast

from . import wellformed

__all__ = ["MostNodes", "max_changed_nodes", "max_statement_nodes", "statement_nodes", "statements"]

_NOT_NODES = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)


def _data(node: ast.AST) -> bool:
    """A literal of constants: a constant, a signed number, a tuple, list, set or dict display of such."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_data(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _data(k) for k in node.keys) and all(_data(v) for v in node.values)
    return False


def _nodes(node: ast.AST) -> int:
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return 0  # ``x = EXPR`` is no more complex than ``return EXPR`` (an inlined function's result)
    if isinstance(node, ast.expr) and _data(node):
        return 1
    return 1 + sum(_nodes(child) for child in ast.iter_child_nodes(node)
                   if not isinstance(child, (ast.stmt, *_NOT_NODES)))


def _pairs(stmt: ast.stmt) -> list[tuple[ast.expr, ast.expr]] | None:
    """The (target, value) pairs of a parallel assignment ``a, b = x, y`` (what inlining a function binds its
    parameters with); None for any other statement."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple)
            and isinstance(stmt.value, ast.Tuple)):
        return None
    targets, values = stmt.targets[0].elts, stmt.value.elts
    if len(targets) != len(values) or any(isinstance(e, ast.Starred) for e in (*targets, *values)):
        return None
    return list(zip(targets, values))


def statement_nodes(stmt: ast.stmt) -> int:
    """The nodes of ``stmt``'s own expressions (see the module doc); a parallel assignment ``a, b = x, y``
    counts as its most complex single assignment (``a = x``: what the readability pass splits it into)."""
    pairs = _pairs(stmt)
    if pairs:
        return max(1 + _nodes(t) + _nodes(v) for t, v in pairs)
    return _nodes(stmt)


def max_statement_nodes(source: str | ast.AST) -> int:
    """The nodes of the most complex statement of ``source`` (0 without statements, or when it does not parse)."""
    try:
        tree = ast.parse(source) if isinstance(source, str) else source
    except (SyntaxError, ValueError):
        return 0
    return max((statement_nodes(n) for n in statements(tree)), default=0)


class MostNodes:
    """:func:`max_statement_nodes` of a tree, counted only as far as the questions asked need: "does some
    statement have at least ``n`` nodes?" is answered by the first such statement (usually one of the first few
    looked at), the whole tree is counted only when none has."""

    def __init__(self, tree: ast.AST) -> None:
        self._todo: list[ast.stmt] | None = statements(tree)
        self.most = 0  # of the statements counted so far

    def at_least(self, n: int) -> bool:
        """Does some statement of the tree have ``n`` nodes or more?"""
        while self.most < n and self._todo:
            self.most = max(self.most, statement_nodes(self._todo.pop()))
        return self.most >= n

    @property
    def value(self) -> int:
        """The nodes of the most complex statement (0 without statements)."""
        while self._todo:
            self.most = max(self.most, statement_nodes(self._todo.pop()))
        return self.most


def statements(tree: ast.AST) -> list[ast.stmt]:
    """Every statement of ``tree`` (as :func:`ast.walk` finds them, in another order), without walking into
    expressions: no statement is inside one (a lambda's body is an expression)."""
    out: list[ast.stmt] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt):
            out.append(node)
        stack.extend(child for child in ast.iter_child_nodes(node) if not isinstance(child, ast.expr))
    return out


def max_changed_nodes(candidate: str, current: str) -> int | None:
    """The nodes of the most complex statement of ``candidate`` (which compiles) among the top-level statements
    where it differs from ``current`` (which compiles too), parsing only those
    (:meth:`reportkit.reduce.passes.wellformed.ParseCheck.changed_parts`); the statements elsewhere are
    ``current``'s. None when the changed statements cannot be parsed apart: count the whole candidate then."""
    parts = wellformed.CHECK.changed_parts(candidate, current)
    if parts is None:
        return None
    most = 0
    for part in parts:
        try:
            tree = ast.parse(part)
        except (SyntaxError, ValueError):
            return None
        most = max(most, max_statement_nodes(tree))
    return most
