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
(``{"lr": 0.1, "betas": (0.9, 0.99)}``, ``-1``) counts as one: it is data, read at a glance. So does a library's
constructor given only such literals and dotted constants (``torch.randn(2, 3)``, ``torch.tensor([1.0, 2.0],
dtype=torch.float64)``, ``nn.Linear(4, 2)``, ``np.zeros(3)``): a tensor or a module of literal shape, the
literal of its kind (a hand-written reproducer nests them freely: ``torch.cdist(a, torch.randn(2, 2))``);
only a call of an imported module's attribute (``mod.name(…)``), not ``merged.items()`` or a bare ``f(2)``. That
leniency is for the candidates against the original only: the cap counts every node of the original's statements
(``self.mods = nn.ModuleList([nn.Identity(), nn.Identity()])`` says its author nests calls that deep), so a
candidate allowed before is allowed still; beyond that cap a candidate may still be as complex as the current
source's most complex statement, both counted whole (counted leniently against a current count that grows with
every constructor inlined, one inlining after another made a six-line statement of a script whose most complex
had 16 nodes). A name bound
(``x = …``) counts as none: ``x = EXPR`` is no more complex than the ``return EXPR`` it was inlined from. A parallel
assignment (``a, b = x, f(y)``, how an inlined function's parameters are bound) counts as its most complex
single assignment: the readability pass splits it.

A candidate differs from the current source in a few places: only its statements there are counted
(:func:`changed_statements`); the others are the current source's, no more complex than its most complex.
"""

from __future__ import annotations

import ast
import re

from . import wellformed

__all__ = ["MostNodes", "changed_statements", "imported_modules", "max_statement_nodes", "most_nodes", "statement_nodes",
           "statements"]

_NOT_NODES = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop)


def _root(node: ast.AST) -> str | None:
    """``torch`` of ``torch.nn.Linear``: the name attribute reads start from (None for anything else)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _constant_build(node: ast.Call, modules: frozenset[str]) -> bool:
    """``torch.randn(2, 3)``, ``nn.Linear(4, 2, bias=False)``, ``torch.zeros(2, dtype=torch.long)``: a call of an
    imported module's attribute whose arguments are all literals of constants or attributes of imported modules
    (not ``merged.items()``: a method of a value)."""
    if not (isinstance(node.func, ast.Attribute) and _root(node.func) in modules):
        return False
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return False
    return all(_data(v, modules) or (isinstance(v, ast.Attribute) and _root(v) in modules)
               for v in (*node.args, *(k.value for k in node.keywords)))


def _data(node: ast.AST, modules: frozenset[str]) -> bool:
    """A literal of constants: a constant, a signed number, a tuple, list, set or dict display of such; an
    imported module's constructor of such (:func:`_constant_build`)."""
    if isinstance(node, ast.Call):
        return _constant_build(node, modules)
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_data(e, modules) for e in node.elts)
    if isinstance(node, ast.Dict):
        return (all(k is not None and _data(k, modules) for k in node.keys)
                and all(_data(v, modules) for v in node.values))
    return False


def _nodes(node: ast.AST, modules: frozenset[str]) -> int:
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        return 0  # ``x = EXPR`` is no more complex than ``return EXPR`` (an inlined function's result)
    if isinstance(node, ast.expr) and _data(node, modules):
        return 1
    return 1 + sum(_nodes(child, modules) for child in ast.iter_child_nodes(node)
                   if not isinstance(child, (ast.stmt, *_NOT_NODES)))


#: ``import torch``, ``import numpy as np``, ``from torch import nn``: the names an import line binds.
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]+\(?([^#\n]*)", re.MULTILINE)


def _bound_by_imports(stmts: list[ast.stmt]) -> frozenset[str]:
    return frozenset((a.asname or a.name.split(".")[0]) for n in stmts if isinstance(n, (ast.Import, ast.ImportFrom))
                     for a in n.names)


def imported_modules(source: str | ast.AST) -> frozenset[str]:
    """The names the imports of ``source`` bind (``np`` of ``import numpy as np``, ``torch`` of
    ``import torch.nn``, ``nn`` of ``from torch import nn``): from its tree, or from its import lines (cheap:
    the candidates whose changed statements alone are parsed)."""
    if isinstance(source, ast.AST):
        return _bound_by_imports(statements(source))
    names: set[str] = set()
    for match in _IMPORT_LINE.finditer(source):
        for part in match.group(1).split(","):
            words = part.replace(")", " ").split()
            if words:
                names.add(words[-1] if len(words) == 3 and words[1] == "as" else words[0].split(".")[0])
    return frozenset(names)


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


def statement_nodes(stmt: ast.stmt, modules: frozenset[str] = frozenset()) -> int:
    """The nodes of ``stmt``'s own expressions (see the module doc), ``modules`` the names its program's imports
    bind; a parallel assignment ``a, b = x, y`` counts as its most complex single assignment (``a = x``: what the
    readability pass splits it into)."""
    pairs = _pairs(stmt)
    if pairs:
        return max(1 + _nodes(t, modules) + _nodes(v, modules) for t, v in pairs)
    return _nodes(stmt, modules)


def max_statement_nodes(source: str | ast.AST, *, lenient: bool = False) -> int:
    """The nodes of the most complex statement of ``source`` (0 without statements, or when it does not parse);
    ``lenient``: a module's constructor of constants counts as one (how a candidate is counted; the cap it is
    held to, the original's and the current source's most complex statement, counts every node)."""
    try:
        tree = ast.parse(source) if isinstance(source, str) else source
    except (SyntaxError, ValueError):
        return 0
    todo = statements(tree)
    return most_nodes(todo, _bound_by_imports(todo) if lenient else frozenset())


class MostNodes:
    """:func:`max_statement_nodes` of a tree (every node counted: the cap), counted only as far as the questions asked need: "does some
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


def changed_statements(candidate: str, current: str) -> list[ast.stmt] | None:
    """The statements of ``candidate`` (which compiles) in the top-level statements where it differs from
    ``current`` (which compiles too), parsing only those
    (:meth:`reportkit.reduce.passes.wellformed.ParseCheck.changed_parts`); the statements elsewhere are
    ``current``'s. None when the changed statements cannot be parsed apart: count the whole candidate then."""
    parts = wellformed.CHECK.changed_parts(candidate, current)
    if parts is None:
        return None
    out: list[ast.stmt] = []
    for part in parts:
        try:
            out.extend(statements(ast.parse(part)))
        except (SyntaxError, ValueError):
            return None
    return out


def most_nodes(stmts: list[ast.stmt], modules: frozenset[str] = frozenset()) -> int:
    """The nodes of the most complex of ``stmts`` (0 for none); ``modules`` (the names the program's imports bind,
    :func:`imported_modules`): count their constructors of constants leniently, as one."""
    return max((statement_nodes(n, modules) for n in stmts), default=0)

