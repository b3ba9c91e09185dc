"""Scope-aware reads: which binding does each name load refer to?

Deciding that ``x = ...`` inside ``f`` is dead needs the loads of *that* ``x``: a parameter ``x``
of another function, or a module-level ``x``, must not keep it alive. This follows Python's rules
closely enough for reduction: function, lambda and comprehension scopes; class bodies are not
visible from the functions nested in them; ``global``/``nonlocal`` declarations. ``__all__``
strings count as loads of module names.
"""

from __future__ import annotations

import ast
import weakref
from collections import Counter
from typing import Iterator

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SCOPES = (*_FUNCS, ast.ClassDef, *_COMPS)


def import_binding(stmt: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    """The name ``alias`` of the import ``stmt`` binds."""
    if alias.asname:
        return alias.asname
    if isinstance(stmt, ast.Import):
        return alias.name.split(".")[0]  # ``import a.b`` binds ``a``
    return alias.name


def enclosing_scope(parents: dict[int, ast.AST], node: ast.AST) -> ast.AST | None:
    """The scope ``node`` is evaluated in: the nearest function, lambda, class or comprehension around
    it, else the module (``parents``: child id -> parent node, the module included)."""
    cur = parents.get(id(node))
    while cur is not None and not isinstance(cur, (ast.Module, *_SCOPES)):
        cur = parents.get(id(cur))
    return cur


def own_super_class(parents: dict[int, ast.AST], node: ast.AST) -> bool:
    """``node`` names the class of a two-argument ``super(C, self)`` inside that class's own body: no
    construction of ``C``, no call of its objects, and gone with the class (a subclass, which may call
    ``C.__init__``, names ``C`` among its bases: a use of its own)."""
    call = parents.get(id(node))
    if not (isinstance(node, ast.Name) and isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "super" and len(call.args) == 2 and call.args[0] is node and not call.keywords):
        return False
    outer = parents.get(id(call))
    while outer is not None and not (isinstance(outer, ast.ClassDef) and outer.name == node.id):
        outer = parents.get(id(outer))
    return outer is not None


def _own_names(scope: ast.AST) -> list[str]:
    """The names a scope binds on entry: a function's parameters, a comprehension's targets."""
    if isinstance(scope, _FUNCS):
        args = scope.args
        return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
                if a is not None]
    if isinstance(scope, _COMPS):
        return [sub.id for gen in scope.generators for sub in ast.walk(gen.target) if isinstance(sub, ast.Name)]
    return []


def _header_expressions(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[ast.expr]:
    """Decorators, bases and class keywords: evaluated in the enclosing scope."""
    return [*node.decorator_list, *getattr(node, "bases", []), *[k.value for k in getattr(node, "keywords", [])]]


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.expr]:
    """Parameter defaults: evaluated in the enclosing scope."""
    return [*node.args.defaults, *[d for d in node.args.kw_defaults if d]]


def _children(node: ast.AST) -> Iterator[ast.AST]:
    """:func:`ast.iter_child_nodes`, without its generator of fields."""
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, ast.AST):
            yield value
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    yield item


class Scopes:
    """Load counts per (scope, name) and the scope of every statement.

    One walk over the tree binds the names of each scope and notes the loads; the loads are resolved
    once every scope's names are known (a name bound later in a function is local to all of it). A
    nested scope's name, decorators, bases, keywords and defaults belong to the scope around it; their
    sub-expressions are walked in that scope (the header expression itself is only a load)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.parent: dict[int, ast.AST | None] = {id(tree): None}
        self.locals: dict[int, set[str]] = {}
        self.stmt_scope: dict[int, ast.AST] = {}
        self.loads: Counter[tuple[int, str]] = Counter()
        self._declared_global: dict[int, set[str]] = {}
        self._pending: list[tuple[ast.AST, ast.AST]] = []  # (scope, a load or an AugAssign), resolved below
        self._start(tree)
        self._walk(tree, _children(tree))
        for scope, node in self._pending:
            self._count_node(scope, node)
        del self._pending
        self._dunder_all()

    # ---------------------------------------------------------------- binding
    def _start(self, scope: ast.AST) -> None:
        self.locals.setdefault(id(scope), set()).update(_own_names(scope))
        self._declared_global.setdefault(id(scope), set())

    def _note(self, scope: ast.AST, node: ast.AST) -> None:
        if (isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store)) or \
                (isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name)):
            self._pending.append((scope, node))

    def _walk(self, scope: ast.AST, children: Iterator[ast.AST]) -> None:
        """Bind and note, depth first in source order, the nodes ``children`` (and below) evaluated in ``scope``."""
        stack: list[tuple[ast.AST, Iterator[ast.AST]]] = [(scope, children)]
        while stack:
            scope, todo = stack[-1]
            child = next(todo, None)
            if child is None:
                stack.pop()
                continue
            if isinstance(child, ast.stmt) and id(child) not in self.stmt_scope:
                self.stmt_scope[id(child)] = scope
            if isinstance(child, _SCOPES):
                stack.extend(self._enter(scope, child))
                continue
            self._bind(child, self.locals[id(scope)], self._declared_global[id(scope)])
            self._note(scope, child)
            stack.append((scope, _children(child)))

    def _enter(self, scope: ast.AST, child: ast.AST) -> list[tuple[ast.AST, Iterator[ast.AST]]]:
        """A nested scope: its name, decorators, bases and defaults belong to ``scope``, its body to itself.
        Returns what to walk, last first: the header expressions' insides, the defaults', the body."""
        outer: list[ast.expr] = []
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.locals[id(scope)].add(child.name)
            outer.extend(_header_expressions(child))
        if isinstance(child, _FUNCS):
            outer.extend(_defaults(child))
        for expr in outer:
            self._note(scope, expr)
        self.parent[id(child)] = scope
        self._start(child)
        return [(child, _children(child)), (scope, (c for expr in outer for c in _children(expr)))]

    def _bind(self, child: ast.AST, names: set[str], declared: set[str]) -> None:
        """The names ``child`` itself binds (or declares global/nonlocal) in the current scope."""
        if isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Load):
            names.add(child.id)
        elif isinstance(child, (ast.Import, ast.ImportFrom)):
            names.update(import_binding(child, alias) for alias in child.names if alias.name != "*")
        elif isinstance(child, ast.Global):
            declared.update(child.names)
            self.locals.setdefault(id(self.tree), set()).update(child.names)
        elif isinstance(child, ast.Nonlocal):
            declared.update(child.names)
        elif isinstance(child, ast.ExceptHandler) and child.name:
            names.add(child.name)

    def _is_local(self, scope: ast.AST, name: str) -> bool:
        return name in self.locals.get(id(scope), set()) and name not in self._declared_global.get(id(scope), set())

    def resolve(self, scope: ast.AST, name: str) -> ast.AST:
        """The scope whose binding of ``name`` a load in ``scope`` refers to."""
        cur: ast.AST | None = scope
        first = True
        while cur is not None and cur is not self.tree:
            # a class body is visible only to loads directly in it
            if (first or not isinstance(cur, ast.ClassDef)) and self._is_local(cur, name):
                return cur
            first = False
            cur = self.parent.get(id(cur))
        return self.tree

    # ---------------------------------------------------------------- loads
    def _count_node(self, scope: ast.AST, node: ast.AST) -> None:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            self.loads[(id(self.resolve(scope, node.id)), node.id)] += 1
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            self.loads[(id(self.resolve(scope, node.target.id)), node.target.id)] += 1

    def _dunder_all(self) -> None:
        for node in self.tree.body:
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                    for sub in ast.walk(node.value):
                        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                            self.loads[(id(self.tree), sub.value)] += 1

    # ---------------------------------------------------------------- queries
    def scope_of(self, stmt: ast.stmt) -> ast.AST:
        return self.stmt_scope.get(id(stmt), self.tree)

    def reads(self, stmt: ast.stmt, name: str, *, none_inside: bool = False) -> int:
        """Loads of the binding ``stmt`` makes of ``name``, outside ``stmt`` itself (``none_inside``: the caller
        knows ``stmt`` holds no load of ``name``, e.g. from its text: it is not walked)."""
        scope = self.scope_of(stmt)
        owner = self.resolve(scope, name) if not isinstance(scope, ast.ClassDef) else scope
        total = self.loads[(id(owner), name)]
        if total == 0 or none_inside:
            return total
        inside = Scopes._own_loads(stmt, name)
        return max(0, total - inside)

    @staticmethod
    def _own_loads(stmt: ast.stmt, name: str) -> int:
        count = 0
        stack: list[ast.AST] = [stmt]
        while stack:
            sub = stack.pop()
            if isinstance(sub, ast.Name):
                count += sub.id == name and not isinstance(sub.ctx, ast.Store)
                continue  # (a name has no loads below it)
            if isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name) and sub.target.id == name:
                count += 1
            stack.extend(_children(sub))
        return count


class NodeIndex:
    """The nodes of one tree a pass looks up by name, each list in ``ast.walk`` order (the order a walk of the
    whole tree would meet them): ``loads[name]``, the ``ast.Name`` loads of ``name``; ``attributes[attr]``,
    every ``ast.Attribute`` ``X.attr`` (any context). Built by :func:`node_index` in one walk, so that a
    question asked per class or per function (where is ``C`` constructed, who reads ``X.scale``) costs
    the size of its answer, not a walk of the program each time."""

    def __init__(self, tree: ast.AST) -> None:
        self.loads: dict[str, list[ast.Name]] = {}
        self.attributes: dict[str, list[ast.Attribute]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self.loads.setdefault(node.id, []).append(node)
            elif isinstance(node, ast.Attribute):
                self.attributes.setdefault(node.attr, []).append(node)


_INDEXES: weakref.WeakKeyDictionary[ast.AST, NodeIndex] = weakref.WeakKeyDictionary()


def node_index(tree: ast.AST) -> NodeIndex:
    """The :class:`NodeIndex` of ``tree``, built on first use and kept while the tree lives (the passes never
    change a tree they parsed: a candidate is a new source, parsed anew)."""
    index = _INDEXES.get(tree)
    if index is None:
        index = _INDEXES[tree] = NodeIndex(tree)
    return index


_PARENTS: weakref.WeakKeyDictionary[ast.AST, dict[int, ast.AST]] = weakref.WeakKeyDictionary()


def parent_map(tree: ast.AST) -> dict[int, ast.AST]:
    """Child id -> its parent node, for every node of ``tree`` (made once per tree: the passes read it, never
    change it, and several passes read the same version's tree)."""
    parents = _PARENTS.get(tree)
    if parents is None:
        parents = {}
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        _PARENTS[tree] = parents
    return parents


_SCOPES_OF: weakref.WeakKeyDictionary[ast.AST, Scopes] = weakref.WeakKeyDictionary()


def scopes_of(tree: ast.Module) -> Scopes:
    """``Scopes(tree)``, made once per tree (read only by the passes, like :func:`parent_map`)."""
    scopes = _SCOPES_OF.get(tree)
    if scopes is None:
        scopes = _SCOPES_OF[tree] = Scopes(tree)
    return scopes


def binding_names(node: ast.AST) -> list[str]:
    """The names ``node`` itself binds: a def's or a class's name, a name stored or deleted, an import's
    name, a parameter, an ``except`` or ``match`` target (``global`` / ``nonlocal`` declare, not bind)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Name):
        return [] if isinstance(node.ctx, ast.Load) else [node.id]
    if isinstance(node, ast.alias):  # ``from m import *`` binds "*": unknown names (callers look for it)
        return [node.asname or node.name.split(".")[0]]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    return []


class Bindings:
    """Scope-aware binding counts and loads: for a (scope, name), how often that scope binds the name
    and which loads, in any scope, refer to that binding. ``p = ArgumentParser()`` at module level is
    bound once even when a comprehension of the program binds a ``p`` of its own
    (``{n: p.grad for n, p in model.named_parameters()}``): that ``p`` and its loads are the
    comprehension's."""

    def __init__(self, tree: ast.Module, parents: dict[int, ast.AST] | None = None,
                 scopes: Scopes | None = None) -> None:
        # ``parents`` (:func:`parent_map`) and ``scopes``: the caller's, when it has them for this tree
        self.scopes = scopes or scopes_of(tree)
        self.tree = tree
        self.parents = parents = parents if parents is not None else parent_map(tree)
        self.bound: Counter[tuple[int, str]] = Counter()
        self.sites: dict[tuple[int, str], list[ast.AST]] = {}  # the nodes that bind it
        self.name_loads: dict[tuple[int, str], list[ast.Name]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                owner = self.owner(node, node.id)
                self.name_loads.setdefault((id(owner), node.id), []).append(node)
            elif isinstance(node, ast.arg):
                # a parameter: bound in its function (the node's enclosing scope is the function itself)
                func = parents.get(id(parents.get(id(node))))
                if func is not None:
                    self.bound[(id(func), node.arg)] += 1
            else:
                for name in binding_names(node):
                    key = (id(self.owner(node, name)), name)
                    self.bound[key] += 1
                    self.sites.setdefault(key, []).append(node)

    def scope_of(self, node: ast.AST) -> ast.AST:
        """The scope ``node`` is evaluated in (a def's or class's own name: the scope around it)."""
        return enclosing_scope(self.parents, node) or self.tree

    def owner(self, node: ast.AST, name: str) -> ast.AST:
        """The scope whose binding of ``name`` the ``name`` at ``node`` refers to."""
        return self.scopes.resolve(self.scope_of(node), name)

    def bound_once(self, node: ast.AST, name: str) -> bool:
        """The binding of ``name`` at ``node`` is the only one its scope makes (no parameter, def, import,
        loop or ``except`` target, ``global`` store elsewhere, ``del``), and no scope is reached by name at
        run time (``globals()``, ``vars()``, ``eval``, ``exec``, ``locals()``)."""
        return self.bound[(id(self.owner(node, name)), name)] == 1 and not self.dynamic()

    def in_loop(self, node: ast.AST) -> bool:
        """``node`` is inside a ``for`` or ``while`` of its own scope: it runs again at each iteration."""
        cur = self.parents.get(id(node))
        while cur is not None and not isinstance(cur, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                                       ast.ClassDef, ast.Lambda)):
            if isinstance(cur, (ast.For, ast.AsyncFor, ast.While)):
                return True
            cur = self.parents.get(id(cur))
        return False

    def loads(self, node: ast.AST, name: str) -> list[ast.Name]:
        """The loads, in any scope, of the binding of ``name`` at ``node``."""
        return self.name_loads.get((id(self.owner(node, name)), name), [])

    def dynamic(self) -> bool:
        cached = getattr(self, "_dynamic", None)
        if cached is None:
            cached = self._dynamic = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id in ("globals", "vars", "eval", "exec", "locals") for n in ast.walk(self.tree))
        return cached
