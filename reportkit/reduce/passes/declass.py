"""A class instantiated once, used only through its own members, becomes module-level code.

What a person does by hand with ``class Prefetcher`` built once as ``Prefetcher(make_shards()).run()``:
the attributes become module globals (``self.todo`` -> ``todo``), the methods become functions (a
property a function called where it was read: ``self.pad_id`` -> ``pad_id()``; ``__call__``, or an
``nn.Module``'s ``forward``, a function named like the class), and ``__init__``'s body runs where the
instance was built, after the constructor's arguments are bound to its parameters --
:func:`class_module_candidates`.

Only where that is the same program: the class is a plain module-level class (no decorators, no base
but ``object`` or ``nn.Module``, nothing derives from it, defined once), built exactly once, at module
scope, where the construction is the first thing its statement evaluates (``C(a).run()``,
``y = C(a)(x)``, ``for t in C(a).items():``) or bound once to a name every read of which takes one of
its members (``v = C(a)`` / ``v.encode(t)``); its methods use ``self`` only to read or set its own
attributes and call its own methods (no bare ``self``, no ``super()`` but ``super().__init__()`` in
``__init__``, no inherited attribute such as ``self.training``), have no decorators but ``@property``
and no dunder names but ``__init__`` / ``__call__``; ``__init__`` returns nothing early. Hygiene: no
new global (attribute, method, ``__init__``'s parameters and locals) may be a name the module binds or
reads as a global anywhere, nor a name used inside the class (a method's local would hide it), except
``self.x = x`` of a parameter ``x``. The pass proposes; the tester decides.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import NamedTuple

from .edits import Splice, apply_splices
from .scaffold import _constant_expression, _def_parens, _dotted, _function_header, _module_binding
from .scopes import Scopes
from .source import SourceMap, block_text
from .statements import _bind_arguments, _full_lines, _own_nodes, _parameter_assignment, _parents
from .wrappers import (
    _calls_of,
    _class_bases,
    _defined_once,
    _docstring_or_pass,
    _enclosing_stmt,
    _plain_classes,
    _super_init,
    _without_first,
)

_MODULE_BASES = {"nn.Module", "torch.nn.Module", "Module"}
_PURE = (ast.Name, ast.Constant)


class _Plan:
    """What becomes of one class: the text of every ``self.X`` and which attributes each method sets."""

    def __init__(self, cls: ast.ClassDef, kind: str) -> None:
        self.cls = cls
        self.kind = kind
        self.methods: dict[str, ast.FunctionDef] = {}
        self.properties: set[str] = set()
        self.attrs: set[str] = set()
        self.callable: str | None = None  # the method a call of the instance runs
        self.accesses: dict[ast.FunctionDef, list[ast.Attribute]] = {}
        self.stored_in: dict[ast.FunctionDef, set[str]] = {}

    def member_text(self, name: str) -> str | None:
        """The module-level text for the member ``name`` (None: not a member)."""
        if name == self.callable:
            return self.cls.name
        if name in self.properties:
            return f"{name}()"
        if name in self.methods and name != "__init__" or name in self.attrs:
            return name
        return None

    def members(self) -> set[str]:
        """The names that become module globals: the attributes, the methods but ``__init__`` and the callable."""
        return self.attrs | {n for n in self.methods if n not in ("__init__", self.callable)}


def _self_uses(method: ast.FunctionDef, self_name: str) -> list[ast.Attribute] | None:
    """The ``self.X`` nodes of ``method``; None if ``self`` is used otherwise (passed out, bare)."""
    parents = _parents(method)
    found: list[ast.Attribute] = []
    for node in ast.walk(method):
        if isinstance(node, ast.arg) and node.arg == self_name and node is not method.args.args[0]:
            return None  # a nested function's own ``self``
        if isinstance(node, ast.Name) and node.id == self_name:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.value is node):
                return None
            found.append(parent)
    return found


def _class_kind(cls: ast.ClassDef) -> str | None:
    """``class C:`` / ``class C(object):`` -> ``"plain"``, ``class C(nn.Module):`` -> ``"module"``; None for any
    other bases."""
    if not cls.bases:
        return "plain"
    if len(cls.bases) == 1 and _dotted(cls.bases[0]) == "object":
        return "plain"
    if len(cls.bases) == 1 and _dotted(cls.bases[0]) in _MODULE_BASES:
        return "module"
    return None


def _add_member(plan: _Plan, stmt: ast.stmt) -> bool:
    """One statement of the class body into ``plan``: ``def run(self, x): ...`` (defined once, with a ``self``, no
    positional-only parameter), ``@property`` / ``def pad_id(self): ...``, a docstring or ``pass``; False for
    anything else (a class attribute, ``@staticmethod``, a dunder method but ``__init__`` / ``__call__``)."""
    if _docstring_or_pass(stmt):
        return True
    if not isinstance(stmt, ast.FunctionDef) or stmt.name in plan.methods:
        return False
    args = stmt.args
    if not args.args or args.posonlyargs:
        return False
    if stmt.decorator_list:
        if not (len(stmt.decorator_list) == 1 and isinstance(stmt.decorator_list[0], ast.Name)
                and stmt.decorator_list[0].id == "property" and len(args.args) == 1
                and not (args.vararg or args.kwarg or args.kwonlyargs)):
            return False
        plan.properties.add(stmt.name)
    if stmt.name.startswith("__") and stmt.name.endswith("__") and stmt.name not in ("__init__", "__call__"):
        return False
    plan.methods[stmt.name] = stmt
    return True


def _add_accesses(plan: _Plan, method: ast.FunctionDef) -> bool:
    """The ``self.X`` of ``method`` into ``plan`` (the attributes it sets: ``self.todo = []``); False where ``self``
    is used otherwise (passed on, bare), a class is defined inside, ``super()`` / ``__class__`` is used (but
    ``super().__init__()`` in ``__init__``, which goes) or an attribute is set in a nested function."""
    self_name = method.args.args[0].arg
    uses = _self_uses(method, self_name)
    if uses is None or any(isinstance(n, ast.ClassDef) for n in ast.walk(method) if n is not method):
        return False
    kept = _without_super(method) if method.name == "__init__" else method.body
    if any(isinstance(n, ast.Name) and n.id in ("super", "__class__") for s in kept for n in ast.walk(s)):
        return False  # ``super().__init__()`` in ``__init__`` is dropped: nothing else may use the base
    plan.accesses[method] = uses
    own = {id(n) for n in _own_nodes(method.body)}
    stores = {u.attr for u in uses if not isinstance(u.ctx, ast.Load)}
    if any(not isinstance(u.ctx, ast.Load) and id(u) not in own for u in uses):
        return False  # set in a nested function: it would need its own ``global``
    plan.stored_in[method] = stores
    plan.attrs |= stores
    return True


def _plan(cls: ast.ClassDef) -> _Plan | None:
    """What ``cls`` becomes at module level (:class:`_Plan`); None if it cannot (:func:`_class_kind`,
    :func:`_add_member`, :func:`_add_accesses`, an attribute named like a method, an attribute read but never
    set or inherited such as ``self.training``)."""
    kind = _class_kind(cls)
    if kind is None:
        return None
    plan = _Plan(cls, kind)
    if not all(_add_member(plan, stmt) for stmt in cls.body):
        return None
    plan.callable = "forward" if kind == "module" else "__call__"
    if kind == "module" and "__call__" in plan.methods:
        return None
    if plan.callable not in plan.methods:
        plan.callable = None
    if not all(_add_accesses(plan, method) for method in plan.methods.values()):
        return None
    if plan.attrs & set(plan.methods):
        return None  # an attribute shadowing a method, or a property's setter
    for uses in plan.accesses.values():
        if any(plan.member_text(u.attr) is None for u in uses):
            return None  # inherited (``self.training``) or never set
    return plan


def _passed_through(init: ast.FunctionDef, call: ast.Call) -> set[str]:
    """The parameters of ``init`` whose argument is the parameter's own name, that ``init`` never rebinds
    nor reads in a nested function or lambda (it would read the name later, when it may be another value);
    to stay on the safe side, nor has as a nested function's parameter name."""
    stored = {n.id for n in ast.walk(init) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    stored |= {a.arg for f in ast.walk(init) if f is not init and isinstance(f, (ast.FunctionDef, ast.Lambda,
                                                                              ast.AsyncFunctionDef))
               for a in ast.walk(f.args) if isinstance(a, ast.arg)}
    deferred = {n.id for f in ast.walk(init) if f is not init and isinstance(f, (ast.FunctionDef, ast.Lambda,
                                                                              ast.AsyncFunctionDef, ast.ClassDef))
                for n in ast.walk(f) if isinstance(n, ast.Name)}
    given = {p.arg: a for p, a in zip(init.args.args[1:], call.args)}
    given.update({k.arg: k.value for k in call.keywords if k.arg})
    return {p for p, a in given.items() if isinstance(a, ast.Name) and a.id == p and p not in stored | deferred}


def _without_super(method: ast.FunctionDef) -> list[ast.stmt]:
    return [s for s in method.body if not (_super_init(s) and not s.value.args and not s.value.keywords)]  # type: ignore[attr-defined]


def _first_evaluated(parents: dict[int, ast.AST], node: ast.AST, stmt: ast.stmt) -> bool:
    """``node`` is what ``stmt`` evaluates first (besides name lookups): running code just before the
    statement is the same as running it when ``node`` is evaluated."""
    cur = node
    while cur is not stmt:
        parent = parents.get(id(cur))
        if parent is None:
            return False
        first = (
            isinstance(parent, ast.Attribute) and parent.value is cur
            or isinstance(parent, ast.Call) and (parent.func is cur or isinstance(parent.func, ast.Name)
                                                 and parent.args and parent.args[0] is cur)
            or isinstance(parent, ast.Subscript) and parent.value is cur
            or isinstance(parent, (ast.BinOp, ast.Compare)) and parent.left is cur
            or isinstance(parent, ast.BoolOp) and parent.values[0] is cur
            or isinstance(parent, (ast.Expr, ast.Assign)) and parent.value is cur
            or isinstance(parent, ast.For) and parent.iter is cur
            or isinstance(parent, ast.If) and parent.test is cur
            or isinstance(parent, ast.withitem) and parent.context_expr is cur
            or isinstance(parent, ast.With) and parent.items[0] is cur
        )
        if not first:
            return False
        cur = parent
    return True


def class_module_candidates(source: str) -> list[str]:
    """A module-level class built once and used only through its own members -> module-level code:
    attributes become globals, methods functions, ``__init__``'s body runs at the construction
    (see the module docstring for when it applies). One candidate per class."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    parents = _parents(tree)
    scopes = Scopes(tree)
    out: list[str] = []
    for cls in _plain_classes(tree, _class_bases(tree)):
        candidate = _declassed(source, tree, smap, parents, scopes, cls)
        if candidate is not None:
            out.append(candidate)
    out.extend(_shadowed_candidates(source, tree, smap))
    return out


def _shadowed_candidates(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``loss = loss()`` / ``loss.run(x)``: the one instance bound to its class's own name (the class is defined
    once, the instance bound once, at module level, after it; every other read of the name is a member of the
    instance, outside the class and not at module level before the binding). The same declassing on the program
    with the instance under a fresh name, kept where that name is gone from the result (``run(x)``)."""
    out: list[str] = []
    index = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
    for stmt in tree.body:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
                and stmt.value.func.id == stmt.targets[0].id and stmt.targets[0].id in index):
            continue
        renamed = _instance_renamed(source, tree, smap, index[stmt.targets[0].id], stmt)
        if renamed is None:
            continue
        text, fresh = renamed
        for candidate in class_module_candidates(text):
            if not re.search(rf"\b{fresh}\b", candidate):
                out.append(candidate)
    return out


def _binds_elsewhere(node: ast.AST, name: str, cls: ast.ClassDef) -> bool:
    """``node`` binds ``name`` otherwise than ``cls``'s definition (a def, an import, a parameter, a global)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name and node is not cls
    if isinstance(node, ast.alias):
        return (node.asname or node.name.split(".")[0]) == name
    if isinstance(node, ast.arg):
        return node.arg == name
    return isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names


def _instance_renamed(source: str, tree: ast.Module, smap: SourceMap, cls: ast.ClassDef,
                      binding: ast.Assign) -> tuple[str, str] | None:
    """``source`` with the instance of ``binding`` (``C = C()``) and every read of it (``C.member``) under a fresh
    name; None when the name is bound anywhere else or read otherwise (the class itself, at module level before
    the binding, inside the class, or something that is no member of it)."""
    name = cls.name
    if cls.lineno > binding.lineno:
        return None
    members = {s.name for s in cls.body if isinstance(s, ast.FunctionDef)}
    parents = _parents(tree)
    cls_start, cls_end = smap.stmt_span(cls)
    bind_start = smap.stmt_span(binding)[0]
    spans = [smap.span(binding.targets[0])]
    for node in ast.walk(tree):
        if _binds_elsewhere(node, name, cls):
            return None
        if not (isinstance(node, ast.Name) and node.id == name) or node is binding.targets[0] \
                or node is binding.value.func:  # type: ignore[union-attr]
            continue
        start = smap.span(node)[0]
        up = parents.get(id(node))
        read = isinstance(node.ctx, ast.Load) and isinstance(up, ast.Attribute) and up.attr in members
        before = _enclosing_stmt(parents, node)[0] in tree.body and start < bind_start
        if not read or before or cls_start <= start < cls_end:
            return None
        spans.append(smap.span(node))
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {n.arg for n in ast.walk(tree)
                                                                         if isinstance(n, ast.arg)}
    fresh = next(f"{name}_{k}" for k in range(len(taken) + 1) if f"{name}_{k}" not in taken
                 and f"{name}_{k}" not in source)
    text = apply_splices(source, [Splice(a, b, fresh) for a, b in spans])
    return None if text is None else (text, fresh)


@dataclass(frozen=True)
class _Declassing:
    """One class on its way to module level: the program, the class, its plan and its one construction."""

    source: str
    tree: ast.Module
    smap: SourceMap
    parents: dict[int, ast.AST]
    scopes: Scopes
    cls: ast.ClassDef
    plan: _Plan
    init: ast.FunctionDef | None
    call: ast.Call  # the construction
    stmt: ast.stmt  # the statement it is in
    host: ast.AST  # the module, or a module-level function the instance is built in


class _Constructor(NamedTuple):
    """What ``__init__`` brings to the construction's place."""

    bound: dict[str, str]  # parameter -> the text of its argument
    names: set[str]  # its parameters and locals that become names there
    body: list[ast.stmt]  # its body as it runs there
    same: set[str]  # parameters ``x`` stored as ``self.x = x``: the global ``x`` is the parameter itself


class _Use(NamedTuple):
    """How the instance is used, as splices."""

    site: list[Splice]  # inside the construction's statement
    elsewhere: list[Splice]
    drop_stmt: bool  # the statement only bound the instance: it goes


def _construction(tree: ast.Module, smap: SourceMap, parents: dict[int, ast.AST], scopes: Scopes,
                  cls: ast.ClassDef) -> tuple[ast.Call, ast.stmt, ast.AST] | None:
    """The one construction of ``cls`` (``Prefetcher(make_shards()).run()``): outside the class, not in a lambda
    or a comprehension, in a statement of the module or of a module-level function defined once: (the call,
    its statement, that scope)."""
    calls = _calls_of(tree, parents, cls.name)
    if calls is None or len(calls) != 1:
        return None
    call = calls[0]
    stmt, bound_here = _enclosing_stmt(parents, call)
    if stmt is None or bound_here:
        return None
    host = scopes.scope_of(stmt)  # the module, or a module-level function the instance is built in
    if host is not tree and not (isinstance(host, ast.FunctionDef) and host in tree.body
                                 and _defined_once(tree, host.name)):
        return None
    cls_start, cls_end = smap.stmt_span(cls)
    if cls_start <= smap.span(call)[0] < cls_end:
        return None
    return call, stmt, host


def _stored_parameters(plan: _Plan, init: ast.FunctionDef, body: list[ast.stmt]) -> set[str]:
    """``self.x = x`` of a parameter ``x`` never rebound, ``self.x`` set nowhere else: the ``x``s (the global ``x``
    is the parameter itself; in a function, ``x`` is among the globals it declares)."""
    params = {a.arg for a in [*init.args.args[1:], *init.args.kwonlyargs]}
    rebound = {n.id for n in ast.walk(init) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    self_name = init.args.args[0].arg
    same: set[str] = set()
    for s in body:
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Attribute)
                and isinstance(s.targets[0].value, ast.Name) and s.targets[0].value.id == self_name
                and isinstance(s.value, ast.Name) and s.value.id == s.targets[0].attr
                and s.value.id in params and s.value.id not in rebound):
            same.add(s.value.id)
    stores = [u.attr for m in plan.methods.values() for u in plan.accesses[m] if not isinstance(u.ctx, ast.Load)]
    return {n for n in same if stores.count(n) == 1}


def _constructor(d: _Declassing) -> _Constructor | None:
    """``__init__`` at the construction: ``Prefetcher(make_shards())`` binds ``shards`` to ``make_shards()``; its
    body without ``super().__init__()`` and without the ``self.x = x`` of :func:`_stored_parameters`. None for an
    ``__init__`` that returns, yields, awaits or declares a global, takes ``*args`` / ``**kwargs``, or arguments
    that do not bind (any argument when there is no ``__init__``)."""
    init, call = d.init, d.call
    if init is None:
        return None if call.args or call.keywords else _Constructor({}, set(), [], set())
    own = list(_own_nodes(init.body))
    if any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)) for n in own):
        return None
    func = _without_first(init.args)
    if init.args.vararg or init.args.kwarg:
        return None
    bound = _bind_arguments(d.smap, func, call)  # type: ignore[arg-type]
    if bound is None:
        return None
    names = d.scopes.locals.get(id(init), set()) - {init.args.args[0].arg}
    body = _without_super(init)
    # a parameter passed its own name (``Prefetcher(shards)`` for ``shards``), never rebound nor read
    # in a nested function: it needs no binding, ``__init__``'s body reads the caller's ``shards`` there
    names -= _passed_through(init, call)
    same = _stored_parameters(d.plan, init, body)
    body = [s for s in body if not (isinstance(s, ast.Assign) and isinstance(s.value, ast.Name) and s.value.id in same
                                    and isinstance(s.targets[0], ast.Attribute) and s.targets[0].attr == s.value.id)]
    return _Constructor(bound, names, body, same)


# ------------------------------------------------------------------------------ hygiene
def _module_clash(d: _Declassing, names: set[str]) -> bool:
    """A new global is a name the module binds or reads as a global already (``self.model`` where the module has
    a ``model``), or ``super`` / ``self`` / ``__class__``."""
    module_names = d.scopes.locals.get(id(d.tree), set()) - {d.cls.name}
    return any(name in module_names or d.scopes.loads[(id(d.tree), name)] or name in ("super", "self", "__class__")
               for name in names)


def _hidden_member(d: _Declassing, ctor: _Constructor, members: set[str]) -> bool:
    """A member is a name a method uses otherwise (``self.out`` and a local ``out`` in ``forward``): that local,
    or parameter, would hide the global (``__init__``'s own ``self.x = x`` of :func:`_stored_parameters` aside)."""
    init = d.init
    init_own = ({n.id for n in ast.walk(init) if isinstance(n, ast.Name)} | {a.arg for a in ast.walk(init.args)
                                                                             if isinstance(a, ast.arg)}
                if init is not None else set())
    others: set[str] = set()
    for m in d.plan.methods.values():
        if m is not init:
            others |= {n.id for n in ast.walk(m) if isinstance(n, ast.Name)}
            others |= {a.arg for a in ast.walk(m) if isinstance(a, ast.arg)}
            others |= {n.name for n in ast.walk(m) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                      ast.ClassDef)) and n is not m}
    self_names = {m.args.args[0].arg for m in d.plan.methods.values()}
    return any(name in others - self_names or name in init_own - self_names - ctor.same for name in members)


def _host_clash(d: _Declassing, names: set[str]) -> bool:
    """Built in a function: ``__init__``'s parameters and locals become its locals, the attributes module globals
    it declares ``global``; one of them is a name the function uses already."""
    host = d.host
    in_host = ({n.id for n in ast.walk(host) if isinstance(n, ast.Name)}
               | {a.arg for a in ast.walk(host) if isinstance(a, ast.arg)}
               | {n.name for n in ast.walk(host) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                     ast.ClassDef)) and n is not host}
               | {n for g in ast.walk(host) if isinstance(g, (ast.Global, ast.Nonlocal)) for n in g.names})
    return bool(names & in_host)


def _hygienic(d: _Declassing, ctor: _Constructor) -> bool:
    """No new global (attribute, method, ``__init__``'s parameters and locals) means something else anywhere."""
    members = d.plan.members()
    if members & ctor.names - ctor.same:
        return False
    if _module_clash(d, members | ctor.names) or _hidden_member(d, ctor, members):
        return False
    return d.host is d.tree or not _host_clash(d, members | ctor.names)


# ------------------------------------------------------------------------- instance uses
def _member_use(d: _Declassing, names: set[str]) -> _Use | None:
    """``Prefetcher(shards).run()`` -> ``run()``: a member of the construction read, the first thing its statement
    evaluates (:func:`_first_evaluated`)."""
    parent = d.parents.get(id(d.call))
    if not (isinstance(parent, ast.Attribute) and parent.value is d.call):
        return None
    text = d.plan.member_text(parent.attr)
    if text is None or not isinstance(parent.ctx, ast.Load) or not _first_evaluated(d.parents, parent, d.stmt):
        return None
    return _Use([Splice(*d.smap.span(parent), text)], [], False)


def _call_use(d: _Declassing, names: set[str]) -> _Use | None:
    """``y = Scale(2)(x)`` -> ``y = Scale(x)``: the instance called (its ``__call__`` or ``forward``, now a function
    named like the class), the first thing its statement evaluates."""
    parent = d.parents.get(id(d.call))
    if not (isinstance(parent, ast.Call) and parent.func is d.call) or d.plan.callable is None:
        return None
    if not _first_evaluated(d.parents, parent, d.stmt):
        return None
    return _Use([Splice(*d.smap.span(d.call), d.cls.name)], [], False)


def _bound_use(d: _Declassing, names: set[str]) -> _Use | None:
    """``tok = Tokenizer(vocab)`` / ``tok.encode(t)`` / ``tok(t)`` -> ``encode(t)`` / ``Tokenizer(t)``, the
    binding gone: a module-level name bound once to the instance (not one of the new names), every read of it
    outside the class a member or a call."""
    stmt = d.stmt
    if not (d.parents.get(id(d.call)) is stmt and isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name) and d.host is d.tree):
        return None
    var = stmt.targets[0].id
    if not _module_binding(d.tree, d.scopes, d.parents, d.call, var) or var in names:
        return None
    cls_start, cls_end = d.smap.stmt_span(d.cls)
    splices: list[Splice] = []
    for load in ast.walk(d.tree):
        if not (isinstance(load, ast.Name) and load.id == var and isinstance(load.ctx, ast.Load)):
            continue
        if cls_start <= d.smap.span(load)[0] < cls_end:
            return None
        up = d.parents.get(id(load))
        if isinstance(up, ast.Attribute) and isinstance(up.ctx, ast.Load):
            text = d.plan.member_text(up.attr)
            if text is None:
                return None
            splices.append(Splice(*d.smap.span(up), text))
        elif isinstance(up, ast.Call) and up.func is load and d.plan.callable is not None:
            splices.append(Splice(*d.smap.span(load), d.cls.name))
        else:
            return None  # the instance itself is passed on
    return _Use([], splices, True)


#: How the one instance may be used: (declassing, the new names) -> its splices, or None.
_INSTANCE_USES = (_member_use, _call_use, _bound_use)


# ------------------------------------------------------------------------ the new code
def _member_replacements(d: _Declassing, method: ast.FunctionDef) -> list[tuple[int, int, str]]:
    """``self.X`` in ``method`` -> the member's module-level text (``self.pad_id`` -> ``pad_id()``)."""
    return [(*d.smap.span(u), d.plan.member_text(u.attr) or u.attr) for u in d.plan.accesses[method]]


def _parameter_values(d: _Declassing, ctor: _Constructor) -> dict[str, str] | None:
    """The parameters to bind where ``__init__``'s body runs, to their arguments' texts (``shards`` ->
    ``make_shards()``): those the body reads, and those passed anything but a name or a constant (evaluated
    once, as before); a default only where the body reads it. None for a default the body reads that is not
    a literal (evaluated once, where the class was defined)."""
    init, call = d.init, d.call
    assert init is not None
    arg_nodes: dict[str, ast.expr] = {p.arg: a for p, a in zip(init.args.args[1:], call.args)}
    arg_nodes.update({k.arg: k.value for k in call.keywords if k.arg})
    read = {n.id for s in _without_super(init) for n in ast.walk(s) if isinstance(n, ast.Name)}
    assigned: dict[str, str] = {}
    for name, text in ctor.bound.items():
        node_arg = arg_nodes.get(name)
        if node_arg is None:  # the default
            defaults = dict(zip([a.arg for a in init.args.args][len(init.args.args) - len(init.args.defaults):],
                                init.args.defaults))
            defaults.update({a.arg: default for a, default in zip(init.args.kwonlyargs, init.args.kw_defaults)
                             if default})
            if name in read and not _constant_expression(defaults[name]):
                return None  # evaluated once, where the class was defined
            if name not in read:
                continue
        elif name not in read and isinstance(node_arg, _PURE):
            continue
        if name != text:
            assigned[name] = f"({text})" if "\n" in text else text
    return assigned


def _init_block(d: _Declassing, ctor: _Constructor, indent: str) -> str | None:
    """``__init__`` where the instance was built: in a function the ``global`` of the attributes it sets, the
    parameters bound (``shards = make_shards()``), its body with ``self.X`` as the members' texts."""
    if d.init is None:
        return ""
    assigned = _parameter_values(d, ctor)
    if assigned is None:
        return None
    nl = d.smap.default_newline()
    block = ""
    if d.host is not d.tree and d.plan.stored_in.get(d.init):
        block += f"{indent}global {', '.join(sorted(d.plan.stored_in[d.init]))}{nl}"
    block += _parameter_assignment(assigned, set(assigned), indent, nl)
    if ctor.body:
        block += block_text(d.smap, ctor.body, indent, _member_replacements(d, d.init))
    return block


def _methods_as_functions(d: _Declassing, indent: str) -> list[str] | None:
    """Each method but ``__init__`` as a function: ``def run(self):`` -> ``def run():`` (the method a call of the
    instance runs named like the class), ``global`` of the attributes it sets, ``self.X`` as the members' texts."""
    nl = d.smap.default_newline()
    functions = []
    for method in d.plan.methods.values():
        if method is d.init:
            continue
        parens = _def_parens(d.smap, method)
        if parens is None:
            return None
        name = d.cls.name if method.name == d.plan.callable else method.name
        text = _function_header(d.smap, method, parens, name, indent)
        declared = sorted(d.plan.stored_in.get(method, set()))
        if declared:
            text += f"{indent}    global {', '.join(declared)}{nl}"
        text += block_text(d.smap, method.body, indent + "    ", _member_replacements(d, method))
        functions.append(text)
    return functions


def _declassed(source: str, tree: ast.Module, smap: SourceMap, parents: dict[int, ast.AST], scopes: Scopes,
               cls: ast.ClassDef) -> str | None:
    """``cls`` as module-level code (module docstring): its plan, its one construction, ``__init__`` there, the
    names kept apart, the use of the instance (:data:`_INSTANCE_USES`), the methods as functions; None where
    that is not the same program."""
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    plan = _plan(cls)
    found = None if plan is None else _construction(tree, smap, parents, scopes, cls)
    if plan is None or found is None:
        return None
    d = _Declassing(source, tree, smap, parents, scopes, cls, plan, init, *found)
    ctor = _constructor(d)
    if ctor is None or not _hygienic(d, ctor):
        return None
    names = plan.members() | ctor.names
    use = next((u for shape in _INSTANCE_USES if (u := shape(d, names)) is not None), None)
    where = _full_lines(smap, d.stmt)
    cls_lines = _full_lines(smap, cls)
    if use is None or where is None or cls_lines is None:
        return None
    line_start, line_end, indent = where
    block = _init_block(d, ctor, indent)
    if block is None:
        return None
    region = source[line_start:line_end]
    for sp in sorted(use.site, key=lambda s: -s.start):
        region = region[:sp.start - line_start] + sp.text + region[sp.end - line_start:]
    functions = _methods_as_functions(d, cls_lines[2])
    if functions is None:
        return None
    site_text = block if use.drop_stmt else block + region
    splices = [Splice(cls_lines[0], cls_lines[1], smap.default_newline().join(functions)),
               Splice(line_start, line_end, site_text), *use.elsewhere]
    candidate = apply_splices(source, splices)
    if candidate is None:
        return None
    try:
        ast.parse(candidate)
    except SyntaxError:
        return None
    return candidate


__all__ = ["class_module_candidates"]
