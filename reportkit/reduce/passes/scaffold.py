"""Scaffolding passes: undo the structure a model script wraps around the failing operation.

What a PyTorch user does by hand when cutting a reproducer out of a model:

* ``self.NAME = EXPR`` in ``__init__`` becomes ``EXPR`` where ``self.NAME`` is read ("hoisting
  through ``self``"; constructor parameters in ``EXPR`` become the constant arguments of the one
  construction, or their defaults) -- :func:`self_attr_candidates`, and
  :func:`self_attr_build_candidates` for an ``EXPR`` that builds something (a value pass);
* a class whose ``__init__`` does nothing but ``super().__init__()`` and that has one method
  becomes a function of that method (``C()(x)`` -> ``C(x)``, ``C().run(x)`` -> ``C(x)``), so that
  the function inliner can put its body at the call site -- :func:`class_function_candidates`;
* function / constructor parameters that nothing reads go, with their arguments at every call
  site -- :func:`unused_parameter_candidates`;
* a parameter every call passes the same module-level name (``Encoder(cfg)``, ``train(model)``) reads
  that name instead, so that it is a parameter nothing reads -- :func:`global_argument_candidates`;
* a one-element container used once becomes its element: ``next(iter([m]))``, ``[m][0]``,
  ``for b in [m]: ...``, ``nn.Sequential(m)``, ``nn.ModuleList(m for _ in range(1))``,
  ``[Block(s) for s in (2,)]`` -> ``[Block(2)]`` --
  :func:`one_element_candidates`;
* data spelled indirectly becomes the literal (``json.loads("{...}")``, round-trip copies) --
  :func:`data_literal_candidates`;
* readability: a loop whose tuple target unpacks nothing that is read gets ``_``; an ``assert``
  of constants guards nothing; ``x if None is None else y`` is ``x``; ``next(iter(blocks))`` is
  ``blocks[0]`` and ``next(iter(range(3)))`` ``0``; ``if t: pass / else: b`` is ``if not t: b``; a last
  ``elif None is None:`` is ``else:``; ``return (x)`` is ``return x`` --
  :func:`readability_candidates`.

Each function only proposes candidate sources; the reducer keeps one only if it still fails the
same way. They move code, they do not compute; only :func:`self_attr_build_candidates` may change
a value (an object built per call instead of once), so it is one of the value passes.
"""

from __future__ import annotations

import ast
import json
import keyword
import re
import types
import weakref
from collections import Counter
from typing import Callable, Iterator

from .edits import (
    BodyInfo,
    BodySeq,
    Delete,
    Edit,
    ElementSeq,
    Splice,
    apply_edits,
    apply_splices,
    walk_bodies,
)
from .expressions import _bound_names, _element_seq, call_elements, display_elements
from .scopes import Bindings, Scopes, enclosing_scope, node_index, own_super_class, scopes_of
from .source import SourceMap, block_text, parses
from .statements import _bind_arguments, _full_lines, _names_in, _parents, _target_names
from .statements import _parse as _shared_parse

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: Expressions whose text can replace a name or an attribute without parentheses.
_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call, ast.List, ast.Tuple, ast.Dict,
          ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
#: Expressions that build a new object each time they are evaluated (or run arbitrary code).
_BUILDS = (ast.Call, ast.Lambda, ast.NamedExpr, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp,
           ast.SetComp, ast.GeneratorExp, ast.Await, ast.Yield, ast.YieldFrom)
#: ``nn.Module`` methods that return the module itself: ``C().eval()`` is ``C()``.
_RETURNS_SELF = {"eval", "train", "to", "cpu", "cuda", "float", "double", "half", "bfloat16", "requires_grad_"}


def _parse(source: str) -> tuple[ast.Module, SourceMap]:
    return _shared_parse(source)  # (one tree per version for all passes, with its index and parent map)


def _wrapped(node: ast.expr, text: str) -> str:
    return text if isinstance(node, _ATOMS) else f"({text})"


def _substitute(smap: SourceMap, expr: ast.expr, texts: dict[int, str]) -> str | None:
    """The text of ``expr`` with the nodes whose ids are in ``texts`` replaced by those texts."""
    start, end = smap.span(expr)
    splices = [Splice(smap.span(n)[0] - start, smap.span(n)[1] - start, texts[id(n)])
               for n in ast.walk(expr) if id(n) in texts]
    return apply_splices(smap.source[start:end], splices)


def _constant_expression(node: ast.expr) -> bool:
    """Literals combined with operators only (no names, no calls): safe to evaluate anywhere."""
    allowed = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.List, ast.unaryop, ast.operator,
               ast.expr_context)
    return all(isinstance(n, allowed) for n in ast.walk(node))


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)}


def _self_name(func: ast.FunctionDef) -> str | None:
    args = [*func.args.posonlyargs, *func.args.args]
    return args[0].arg if args else None


def _constructions(tree: ast.Module, parents: dict[int, ast.AST], name: str) -> list[ast.Call] | None:
    """The calls ``name(...)`` when every load of ``name`` is one (None otherwise)."""
    calls: list[ast.Call] = []
    for node in node_index(tree).loads.get(name, ()):
        if own_super_class(parents, node):
            continue
        call = parents.get(id(node))
        if not (isinstance(call, ast.Call) and call.func is node):
            return None
        calls.append(call)
    return calls


# ------------------------------------------------------------------ hoisting through self
def _attr_assignment(stmt: ast.stmt, self_name: str) -> tuple[str, ast.expr] | None:
    """``self.NAME = EXPR`` or ``self.register_buffer("NAME", EXPR)``: (NAME, EXPR)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                and target.value.id == self_name):
            return target.attr, stmt.value
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        func = call.func
        if (isinstance(func, ast.Attribute) and func.attr in ("register_buffer", "register_parameter")
                and isinstance(func.value, ast.Name) and func.value.id == self_name
                and len(call.args) == 2 and not call.keywords
                and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)):
            return call.args[0].value, call.args[1]
    return None


def _init_bindings(smap: SourceMap, init: ast.FunctionDef, calls: list[ast.Call],
                   module_name: Callable[[ast.Call, str], bool] | None = None) -> dict[str, str]:
    """Constructor parameter -> the text of its value, where that value is a constant expression or
    (with ``module_name``) a name that ``module_name(call, name)`` says is bound once, at module level:
    read later it is the same object."""
    args = init.args
    if len(calls) != 1 or args.vararg or args.kwarg or args.posonlyargs:
        return {}
    rest = args.args[1:]
    without_self = types.SimpleNamespace(args=ast.arguments(
        posonlyargs=[], args=rest, vararg=None, kwonlyargs=args.kwonlyargs, kw_defaults=args.kw_defaults,
        kwarg=None, defaults=args.defaults[-len(rest):] if rest else []))
    bound = _bind_arguments(smap, without_self, calls[0])  # type: ignore[arg-type]
    if bound is None:
        return {}
    call = calls[0]
    values: dict[str, ast.expr] = {p.arg: a for p, a in zip(args.args[1:], call.args)}
    values.update({k.arg: k.value for k in call.keywords if k.arg})
    names = [p.arg for p in args.args[1:]]
    defaults = dict(zip(names[len(names) - len(args.defaults):], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    rebound = {n.id for n in ast.walk(init) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    out: dict[str, str] = {}
    for name, text in bound.items():
        node = values.get(name, defaults.get(name))
        if name in rebound or node is None:
            continue
        if _constant_expression(node) or (node is values.get(name) and isinstance(node, ast.Name)
                                           and module_name is not None and module_name(call, node.id)):
            out[name] = _wrapped(node, text)
    return out


def _self_accesses(tree: ast.Module) -> dict[int, tuple[ast.ClassDef, ast.FunctionDef]]:
    """Attribute node id -> (class, method) for each ``self.X`` inside a method of a class
    (``self`` being the method's first parameter; nested functions see it too)."""
    owners: dict[int, tuple[ast.ClassDef, ast.FunctionDef]] = {}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for method in cls.body:
            if not isinstance(method, _FUNCS) or method.decorator_list:
                continue
            self_name = _self_name(method)  # type: ignore[arg-type]
            for node in ast.walk(method):
                if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                        and node.value.id == self_name):
                    owners[id(node)] = (cls, method)  # type: ignore[assignment]
    return owners


def self_attr_candidates(source: str) -> list[str]:
    """``self.NAME = EXPR`` in ``__init__`` -> ``EXPR`` at its reads in the class's methods, for an
    ``EXPR`` that builds nothing (constants, names, operators, tuples): the same value at every read.

    Only where ``NAME`` is stored once through the class's ``self`` (and never through anything
    else), read only through the class's ``self``, and ``EXPR`` reads nothing local to
    ``__init__`` (constructor parameters bound to constants are substituted).
    """
    return _self_attr_candidates(source, builds=False)


def self_attr_build_candidates(source: str) -> list[str]:
    """Like :func:`self_attr_candidates` for an ``EXPR`` that builds something (a module, a tensor, a
    list or dict), moved to its single read. A value pass: the object is built at each call of the
    method instead of once (a module's random weights differ between two calls)."""
    return _self_attr_candidates(source, builds=True)


def _attr_stores_and_reads(tree: ast.Module, owners: dict[int, tuple[ast.ClassDef, ast.FunctionDef]]
                           ) -> tuple[Counter[tuple[int, str]], dict[tuple[int, str], list[ast.Attribute]]]:
    """Per (id of the class whose ``self`` it goes through, or 0 for anything else; attribute name): how
    often the attribute is stored, and its reads."""
    stores: Counter[tuple[int, str]] = Counter()
    reads: dict[tuple[int, str], list[ast.Attribute]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            owner = owners.get(id(node))
            k = (id(owner[0]) if owner else 0, node.attr)
            if isinstance(node.ctx, ast.Load):
                reads.setdefault(k, []).append(node)
            else:
                stores[k] += 1
    return stores, reads


def _hoisting_classes(tree: ast.Module) -> Iterator[tuple[ast.ClassDef, ast.FunctionDef, str]]:
    """(class, its ``__init__``, the name of its ``self``) of each class nothing derives from (a subclass's
    methods read the attribute through their own ``self``) with an undecorated ``__init__``."""
    bases = {n.id for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for b in c.bases for n in ast.walk(b)
             if isinstance(n, ast.Name)}
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef) or cls.name in bases:
            continue
        init = _methods(cls).get("__init__")
        self_name = _self_name(init) if init is not None else None
        if init is None or self_name is None or init.decorator_list:
            continue
        yield cls, init, self_name


def _own_reads(smap: SourceMap, owners: dict[int, tuple[ast.ClassDef, ast.FunctionDef]],
               stores: Counter[tuple[int, str]], reads: dict[tuple[int, str], list[ast.Attribute]],
               cls: ast.ClassDef, init: ast.FunctionDef, stmt: ast.stmt, name: str) -> list[ast.Attribute]:
    """The reads of ``self.NAME`` where ``stmt`` of ``__init__`` is its one store and every access goes through
    the class's ``self``, none in ``__init__`` before ``stmt`` (``self.k = 3`` and ``self.k`` in ``forward``);
    empty otherwise."""
    k = (id(cls), name)
    own_stores = stores[k] + (0 if isinstance(stmt, ast.Assign) else 1)
    uses = reads.get(k, [])
    if own_stores != 1 or stores[(0, name)] or reads.get((0, name)) or not uses:
        return []
    if any(owners[id(r)][1] is init and smap.span(r)[0] < smap.stmt_span(stmt)[1] for r in uses):
        return []
    return uses


def _read_texts(expr: ast.expr, init_locals: set[str], bindings: dict[str, str],
                reading: list[set[str]]) -> dict[int, str] | None:
    """The replacements that make ``expr`` (``self.scale = factor * 2`` in ``__init__(self, factor)``, built
    as ``C(3)``) mean the same where it is read (``3 * 2``): each local of ``__init__`` becomes its binding;
    None where one has none, or a name would mean something else in a reading method (``reading``: the
    locals of each)."""
    subst: dict[int, str] = {}
    for n in ast.walk(expr):
        if not isinstance(n, ast.Name):
            continue
        if n.id in init_locals:
            if n.id not in bindings:
                return None
            subst[id(n)] = bindings[n.id]
            if any(bindings[n.id] in names for names in reading):
                return None  # a module-level name the reading method binds itself
        elif any(n.id in names for names in reading):
            return None  # the name means something else where it would be read
    return subst


def _self_attr_candidates(source: str, *, builds: bool) -> list[str]:
    """``self.NAME = EXPR`` in ``__init__`` (:func:`_attr_assignment`) -> ``EXPR`` where ``self.NAME`` is read:
    ``self.k = 3`` / ``return x * self.k`` -> ``return x * 3`` (``builds``: only an ``EXPR`` that builds
    something, read once; else only one that builds nothing)."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    owners = _self_accesses(tree)
    stores, reads = _attr_stores_and_reads(tree, owners)
    out: list[str] = []
    first_body: dict[int, BodyInfo] = {}  # owner id -> its first body (walk_bodies' order)
    for info in walk_bodies(tree, smap):
        first_body.setdefault(id(info.owner), info)
    for cls, init, self_name in _hoisting_classes(tree):
        bindings = _init_bindings(smap, init, _constructions(tree, parents, cls.name) or [],
                                  lambda call, name: _module_binding(tree, scopes, parents, call, name))
        init_locals = scopes.locals.get(id(init), set())
        init_info = first_body.get(id(init))
        if init_info is None:
            continue
        for index, stmt in enumerate(init_info.seq.stmts):
            found = _attr_assignment(stmt, self_name)
            if found is None:
                continue
            name, expr = found
            uses = _own_reads(smap, owners, stores, reads, cls, init, stmt, name)
            if not uses:
                continue
            reading = [scopes.locals.get(id(owners[id(r)][1]), set()) for r in uses]
            subst = _read_texts(expr, init_locals, bindings, reading)
            calls_something = any(isinstance(n, _BUILDS) for n in ast.walk(expr))
            if subst is None or calls_something != builds or (builds and len(uses) > 1):
                continue
            text = _substitute(smap, expr, subst)
            if text is None:
                continue
            text = _wrapped(expr, text)
            edits: list[Edit] = [Delete(init_info.seq, index)]
            edits.extend(Splice(*smap.span(r), text) for r in uses)
            candidate = apply_edits(source, edits)
            if candidate is not None:
                out.append(candidate)
    return out


def _module_binding(tree: ast.Module, scopes: Scopes, parents: dict[int, ast.AST], call: ast.Call,
                    name: str) -> bool:
    """``name`` at ``call`` is a module-level name bound exactly once in the whole program."""
    from .wrappers import _enclosing_stmt, _module_level_at

    count = 0
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
            stmt: ast.AST | None = node
        elif isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            stmt = _enclosing_stmt(parents, node)[0]
        elif isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name:
            stmt = parents.get(id(node))
        elif isinstance(node, ast.Global) and name in node.names:
            return False
        else:
            continue
        if stmt is None or scopes.resolve(scopes.scope_of(stmt), name) is tree:  # type: ignore[arg-type]
            count += 1
    return count == 1 and _module_level_at(scopes, parents, call, name)


# ------------------------------------------------------------------- class -> function
def _trivial_init(init: ast.FunctionDef) -> bool:
    """``__init__`` that only calls ``super().__init__()`` (or passes)."""
    for stmt in init.body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
                and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "__init__"
                and isinstance(stmt.value.func.value, ast.Call)
                and isinstance(stmt.value.func.value.func, ast.Name)
                and stmt.value.func.value.func.id == "super" and not stmt.value.args):
            continue
        return False
    return True


def _def_parens(smap: SourceMap, func: ast.FunctionDef) -> tuple[int, int] | None:
    """Token indices of the parentheses of ``def name(...)``."""
    i = smap.token_starting_at(smap.span(func)[0])
    if i is None:
        return None
    while i < len(smap.tokens) and smap.tokens[i].string != "(":
        i += 1
    if i >= len(smap.tokens) or i not in smap.brackets:
        return None
    return i, smap.brackets[i]


def _function_header(smap: SourceMap, method: ast.FunctionDef, parens: tuple[int, int], name: str,
                     indent: str) -> str:
    """The ``def`` line of ``method`` as a function ``name``: ``def forward(self, x) -> T:`` -> ``def NAME(x) -> T:``
    (its parameters but ``self``; ``parens``: :func:`_def_parens`)."""
    after_self = smap.span(method.args.args[0])[1]
    params = smap.source[after_self:smap.tokens[parens[1]].start].strip().lstrip(",").strip()
    returns = f" -> {smap.text(method.returns)}" if method.returns else ""
    prefix = "async def" if isinstance(method, ast.AsyncFunctionDef) else "def"
    return f"{indent}{prefix} {name}({params}){returns}:{smap.default_newline()}"


def _used_as_callable(node: ast.AST, parent: ast.AST | None) -> bool:
    """``node`` (an instance) is called, compiled, or bound to a plain name."""
    if isinstance(parent, ast.Call):
        return parent.func is node or (bool(parent.args) and parent.args[0] is node and _callee(parent) == "compile")
    if isinstance(parent, ast.Assign):
        return len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
    return isinstance(parent, ast.Expr)


def _method_calls_through(tree: ast.Module, scopes: Scopes, parents: dict[int, ast.AST], parent: ast.AST | None,
                          node: ast.AST, method: str) -> list[ast.Attribute] | None:
    """For ``v = C(...)`` (``node`` the construction, ``parent`` the assignment) where ``v`` is a
    module-level name bound once and every read of it is a call ``v.method(...)``: those attributes."""
    if not (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name) and scopes.scope_of(parent) is tree):
        return None
    name = parent.targets[0].id
    if not _module_binding(tree, scopes, parents, node, name):  # type: ignore[arg-type]
        return None
    found: list[ast.Attribute] = []
    for load in ast.walk(tree):
        if not (isinstance(load, ast.Name) and load.id == name and isinstance(load.ctx, ast.Load)):
            continue
        attr = parents.get(id(load))
        call = parents.get(id(attr))
        if not (isinstance(attr, ast.Attribute) and attr.attr == method and isinstance(call, ast.Call)
                and call.func is attr and _module_binding(tree, scopes, parents, call, name)):
            return None
        found.append(attr)
    return found or None


def _lone_method(cls: ast.ClassDef) -> ast.FunctionDef | None:
    """The one method of a class that is a function in disguise: ``class Scale(nn.Module):`` /
    ``def __init__(self): super().__init__()`` / ``def forward(self, x): return x * 2`` -> ``forward`` (besides
    it only a trivial ``__init__``, docstrings and ``pass``; no decorator, no keyword, the method reads neither
    ``self`` nor ``super`` / ``__class__``, has no positional-only parameter)."""
    if cls.decorator_list or cls.keywords:
        return None
    methods = _methods(cls)
    rest = [s for s in cls.body if not (isinstance(s, (ast.Pass, ast.FunctionDef))
                                        or isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    others = [m for name, m in methods.items() if name != "__init__"]
    if rest or len(others) != 1 or ("__init__" in methods and not _trivial_init(methods["__init__"])):
        return None
    method = others[0]
    self_name = _self_name(method)
    if (self_name is None or method.decorator_list or method.args.posonlyargs
            or self_name in _names_in(method.body) or {"super", "__class__"} & _names_in(method.body)):
        return None
    return method


def _construction_splices(smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], cls: ast.ClassDef,
                          method: ast.FunctionDef, call: ast.Call) -> list[Splice] | None:
    """One construction ``C(...)`` (through ``.eval()`` / ``.to(d)``...) -> ``C``: ``C(a).run(x)`` -> ``C(x)``'s
    ``C``, ``C()(x)`` for ``forward`` / ``__call__`` -> ``C(x)``, ``v = C()`` / ``v.run(x)`` -> ``v = C`` /
    ``v(x)``; None where the instance is used otherwise (a child of ``nn.Sequential``: a function is no module)."""
    node: ast.AST = call
    parent = parents.get(id(node))
    if (isinstance(parent, ast.Attribute) and parent.attr in _RETURNS_SELF
            and isinstance(parents.get(id(parent)), ast.Call)):
        node = parents[id(parent)]
        parent = parents.get(id(node))
    if isinstance(parent, ast.Attribute) and parent.attr == method.name:
        return [Splice(*smap.span(parent), cls.name)]  # C(...).method
    if method.name in ("forward", "__call__") and _used_as_callable(node, parent):
        return [Splice(*smap.span(node), cls.name)]
    through = _method_calls_through(scopes.tree, scopes, parents, parent, node, method.name)
    if through is None:
        return None
    return [*(Splice(*smap.span(a), smap.text(a.value)) for a in through),  # v.method -> v
            Splice(*smap.span(node), cls.name)]


def _class_as_function(source: str, smap: SourceMap, cls: ast.ClassDef, method: ast.FunctionDef,
                       where: tuple[int, int, str], parens: tuple[int, int], splices: list[Splice]) -> str | None:
    """The class's lines -> ``def C(x): BODY`` (the method's parameters but ``self``, its body), with ``splices``."""
    line_start, line_end, indent = where
    text = _function_header(smap, method, parens, cls.name, indent)
    text += block_text(smap, method.body, indent + "    ")
    return apply_splices(source, [Splice(line_start, line_end, text), *splices])


def class_function_candidates(source: str) -> list[str]:
    """A module-level class with a trivial ``__init__`` and one method that does not use ``self``
    becomes a function named like the class; each construction ``C(...)`` becomes ``C`` (a
    ``C(...).method`` or ``C(...).eval()`` chain too, and ``v = C(...)`` where every read of the
    module-level ``v`` is a call ``v.method(...)``: ``v = C`` and ``v(...)``)."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    for cls in tree.body:
        method = _lone_method(cls) if isinstance(cls, ast.ClassDef) else None
        if method is None:
            continue
        calls = _constructions(tree, parents, cls.name)
        where = _full_lines(smap, cls)
        parens = _def_parens(smap, method)
        if not calls or where is None or parens is None:
            continue
        splices: list[Splice] = []
        for call in calls:
            found = _construction_splices(smap, scopes, parents, cls, method, call)
            if found is None:
                break
            splices.extend(found)
        else:
            candidate = _class_as_function(source, smap, cls, method, where, parens, splices)
            if candidate is not None:
                out.append(candidate)
    return out


# -------------------------------------------------------------------- unused parameters
class _ThreadSite:
    """Where a thread or process is started to run a function: ``Thread(target=f, args=(a, b))``; its
    ``args`` display holds the arguments ``f`` is called with (no keyword arguments)."""

    def __init__(self, display: ast.Tuple | ast.List | None) -> None:
        self.display = display
        self.args: list[ast.expr] = list(display.elts) if display is not None else []
        self.keywords: list[ast.keyword] = []


def _thread_start(parents: dict[int, ast.AST], target: ast.keyword) -> _ThreadSite | None:
    """``Thread(target=f, args=(a, b))`` / ``Process(target=f)`` for the ``target=f`` keyword: the start (its
    ``args`` a tuple or list display, no ``*``, no ``kwargs=``, no ``**``, no positional argument); None for
    anything else (``pool.submit(target=f)``, ``Thread(target=f, args=xs)``)."""
    start = parents.get(id(target))
    func = _dotted(start.func) if isinstance(start, ast.Call) else None
    if func is None or func.rsplit(".", 1)[-1] not in ("Thread", "Process"):
        return None
    assert isinstance(start, ast.Call)
    extra = {k.arg: k.value for k in start.keywords if k.arg in ("args", "kwargs")}
    args = extra.get("args")
    if "kwargs" in extra or None in (k.arg for k in start.keywords) or start.args or (
            args is not None and not (isinstance(args, (ast.Tuple, ast.List))
                                      and not any(isinstance(e, ast.Starred) for e in args.elts))):
        return None
    return _ThreadSite(args)  # type: ignore[arg-type]


#: How ``torch.export.export`` is spelled where its first argument is the module exported.
_EXPORTS = {"export", "export.export", "torch.export.export"}


class _ExportSite:
    """``torch.export.export(model, (a, b), dynamic_shapes={"x": ..., "y": ...})``: a call of ``model``'s
    ``forward`` with the elements of the ``args`` display; ``shapes`` is the ``dynamic_shapes`` display (a dict
    keyed by the parameters' names, or a tuple or list in their order), None without one. A parameter goes
    with its argument and its entry there, in one candidate: apart, export refuses the mismatch."""

    def __init__(self, display: ast.Tuple | ast.List, shapes: ast.Dict | ast.Tuple | ast.List | None) -> None:
        self.display = display
        self.args: list[ast.expr] = list(display.elts)
        self.keywords: list[ast.keyword] = []
        self.shapes = shapes


def _export_site(call: ast.Call, node: ast.expr) -> _ExportSite | None:
    """``call`` exports the module ``node`` with an ``args`` display (positional or ``args=``) and no
    ``kwargs``; its ``dynamic_shapes``, if any, a dict display with string keys or a display as long as the
    ``args``. None for anything else."""
    if _dotted(call.func) not in _EXPORTS or not call.args or call.args[0] is not node:
        return None
    keywords = {k.arg: k.value for k in call.keywords}
    if None in keywords or "kwargs" in keywords or len(call.args) > 2:
        return None
    display = call.args[1] if len(call.args) == 2 else keywords.get("args")
    if not isinstance(display, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in display.elts):
        return None
    shapes = keywords.get("dynamic_shapes")
    if shapes is None or isinstance(shapes, ast.Constant) and shapes.value is None:
        return _ExportSite(display, None)
    if isinstance(shapes, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                            for k in shapes.keys):
        return _ExportSite(display, shapes)
    if isinstance(shapes, (ast.Tuple, ast.List)) and len(shapes.elts) == len(display.elts) \
            and not any(isinstance(e, ast.Starred) for e in shapes.elts):
        return _ExportSite(display, shapes)
    return None


def _compiled_call(parents: dict[int, ast.AST], node: ast.Name) -> ast.Call | None:
    """``torch.compile(f)(x)`` / ``compile(f, ...)(x)`` for the load ``f``: the outer call; None otherwise."""
    parent = parents.get(id(node))
    outer = parents.get(id(parent))
    if (isinstance(parent, ast.Call) and parent.args and parent.args[0] is node
            and isinstance(parent.func, (ast.Name, ast.Attribute))
            and (getattr(parent.func, "attr", None) or getattr(parent.func, "id", None)) == "compile"
            and isinstance(outer, ast.Call) and outer.func is parent):
        return outer
    return None


def _call_site(parents: dict[int, ast.AST], node: ast.Name, threads: bool) -> ast.Call | _ThreadSite | None:
    """What a load of a function's name is: ``f(x)``, ``torch.compile(f)(x)`` (the call), with ``threads``
    ``Thread(target=f, args=(x,))`` (:func:`_thread_start`); None for any other use (``g(f)``, ``fs = [f]``)."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Call) and parent.func is node:
        return parent
    if threads and isinstance(parent, ast.keyword) and parent.arg == "target":
        return _thread_start(parents, parent)
    return _compiled_call(parents, node)


def _call_sites(tree: ast.Module, parents: dict[int, ast.AST], name: str,
                threads: bool = False) -> list[ast.Call | _ThreadSite] | None:
    """Calls of ``name``: ``name(...)`` and ``torch.compile(name, ...)(...)``, with ``threads`` also the
    starts ``Thread(target=name, args=(...))`` (and ``Process``); None if it is used otherwise."""
    calls: list[ast.Call | _ThreadSite] = []
    for node in node_index(tree).loads.get(name, ()):
        if own_super_class(parents, node):
            continue
        site = _call_site(parents, node, threads)
        if site is None:
            return None
        calls.append(site)
    return calls


def _param_seq(smap: SourceMap, func: ast.FunctionDef) -> ElementSeq | None:
    parens = _def_parens(smap, func)
    if parens is None:
        return None
    args = func.args.args
    defaults = dict(zip(range(len(args) - len(func.args.defaults), len(args)), func.args.defaults))
    spans = [(smap.span(a)[0], smap.span(defaults[i])[1] if i in defaults else smap.span(a)[1])
             for i, a in enumerate(args)]
    return _element_seq(smap, spans, smap.tokens[parens[0]].end, smap.tokens[parens[1]].start)


def _callables(tree: ast.Module):
    """(function, the name it is called by, parameters to skip) of the module-level functions and the
    ``__init__`` of module-level classes (called as ``C(...)``, ``self`` skipped)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            yield stmt, stmt.name, 0
        elif isinstance(stmt, ast.ClassDef) and "__init__" in _methods(stmt) and not stmt.keywords:
            yield _methods(stmt)["__init__"], stmt.name, 1


def _instance_calls(tree: ast.Module, parents: dict[int, ast.AST], scopes: Scopes, cls: ast.ClassDef,
                    exports: bool = False) -> list[ast.Call | _ExportSite] | None:
    """The calls of the objects of module class ``cls`` (its ``forward`` through ``__call__``, or
    ``.forward(...)`` itself): ``C(a)(x)``, ``C(a).to(d)(x)``, ``torch.compile(C(a))(x)``, ``m(x)`` where a
    name is bound once to such an object, ``self.m(x)`` where a method of a class stores it in ``self.m``;
    with ``exports`` also ``torch.export.export(C(a), (x,), ...)`` (:class:`_ExportSite`).
    None when an object may be called where this cannot see it: ``C`` used otherwise than constructed, an
    object passed on, returned, kept in a container, a name or attribute bound to it more than once."""
    calls: list[ast.Call | _ExportSite] = []
    attrs = Counter(n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store))

    def follow(node: ast.expr) -> bool:
        """``node`` evaluates to an object of ``cls``: collect its calls; False where it escapes."""
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            calls.append(parent)
            return True
        if isinstance(parent, ast.Attribute) and parent.value is node:
            outer = parents.get(id(parent))
            called = isinstance(outer, ast.Call) and outer.func is parent
            if parent.attr == "forward":
                if not called:
                    return False
                calls.append(outer)
                return True
            if called and parent.attr in _RETURNS_SELF:
                return follow(outer)
            return parent.attr not in ("__call__", "_call_impl", "register_forward_hook", "register_forward_pre_hook")
        if (isinstance(parent, ast.Call) and parent.args and parent.args[0] is node and len(parent.args) == 1
                and _dotted(parent.func) in ("torch.compile", "compile")):
            return follow(parent)
        if exports and isinstance(parent, ast.Call):
            site = _export_site(parent, node)
            if site is not None:
                calls.append(site)
                return True
        if isinstance(parent, ast.Expr):  # ``model.eval()`` as a statement: its value goes nowhere
            return True
        if isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1:
            target = parent.targets[0]
            if isinstance(target, ast.Name):
                return bound_name(parent, target.id)
            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
                    and attrs[target.attr] == 1):
                return self_attribute(target.attr)
        return False

    tracked: set[tuple[int, str]] = set()

    def rebinds(store: ast.Name) -> bool:
        """``model = torch.compile(model)``, ``model = model.to(d)``: the name bound again to its object."""
        assign = parents.get(id(store))
        value = assign.value if isinstance(assign, ast.Assign) and len(assign.targets) == 1 else None
        while isinstance(value, ast.Call):
            if isinstance(value.func, ast.Attribute) and value.func.attr in _RETURNS_SELF:
                value = value.func.value
            elif _dotted(value.func) in ("torch.compile", "compile") and len(value.args) == 1:
                value = value.args[0]
            else:
                break
        return isinstance(value, ast.Name) and value.id == store.id

    def bound_name(assign: ast.Assign, name: str) -> bool:
        scope = scopes.scope_of(assign)
        if isinstance(scope, ast.ClassDef):
            return False
        if (id(scope), name) in tracked:  # ``model = torch.compile(model)``: the same object, followed already
            return True
        tracked.add((id(scope), name))
        stores = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name
                  and not isinstance(n.ctx, ast.Load) and scopes.resolve(enclosing_scope(parents, n), name) is scope]
        if sum(1 for n in stores if not rebinds(n)) != 1:
            return False
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) \
                    and scopes.resolve(enclosing_scope(parents, n), name) is scope and not follow(n):
                return False
        return True

    def self_attribute(attr: str) -> bool:
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute) and n.attr == attr and isinstance(n.ctx, ast.Load) \
                    and isinstance(n.value, ast.Name) and n.value.id == "self" and not follow(n):
                return False
        return True

    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == cls.name and isinstance(node.ctx, ast.Load) \
                and not own_super_class(parents, node):
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Call) and parent.func is node) or not follow(parent):
                return None
    return calls


def _forward_callables(tree: ast.Module, parents: dict[int, ast.AST], scopes: Scopes):
    """(``forward``, a function finding the calls of it, parameters to skip) of each module-level class with
    a ``forward`` that no other class derives from and that is defined once (:func:`_instance_calls`)."""
    bases = {b.id for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for b in c.bases if isinstance(b, ast.Name)}
    names = Counter(s.name for s in tree.body if isinstance(s, (ast.ClassDef, ast.FunctionDef)))
    classes = {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef)}
    for stmt in tree.body:
        if not isinstance(stmt, ast.ClassDef) or stmt.name in bases or names[stmt.name] != 1 or stmt.keywords \
                or stmt.decorator_list or any(isinstance(b, ast.Name) and b.id in classes for b in stmt.bases):
            continue  # a base of the script's own may call forward its own way
        forward = _methods(stmt).get("forward")
        if forward is None or "__call__" in _methods(stmt):
            continue
        yield forward, lambda cls=stmt: _instance_calls(tree, parents, scopes, cls, exports=True) or None, 1


def _plain_signature(func: ast.FunctionDef) -> bool:
    """Positional-or-keyword parameters only (no ``*args``, ``**kw``, keyword- or positional-only ones) and no
    decorator: which argument a call passes for which parameter is in the source."""
    a = func.args
    return not (a.vararg or a.kwarg or a.posonlyargs or a.kwonlyargs or func.decorator_list)


def unused_parameter_candidates(source: str) -> list[str]:
    """Drop parameters nothing reads, with their arguments at every call site.

    Module-level functions (called by name, or compiled: ``torch.compile(f)(...)``), the
    ``__init__`` of module-level classes (called as ``C(...)``) and their ``forward`` (a torch module's,
    called through its objects: ``C(a)(x)``, ``model = C(a)`` then ``model(x)``, ``self.block(x)`` where
    ``self.block = C(a)``; :func:`_instance_calls`). The first candidate drops all of them at once, then
    one parameter at a time.
    """
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    groups: list[list[Edit]] = []
    named = [(func, lambda name=name, skip=skip: _call_sites(tree, parents, name, threads=skip == 0), skip)
             for func, name, skip in _callables(tree)]
    for func, sites, skip in [*named, *_forward_callables(tree, parents, scopes)]:
        args = func.args
        if not _plain_signature(func):
            continue
        unused = [i for i, a in enumerate(args.args)
                  if i >= skip and not scopes.loads[(id(func), a.arg)]]
        if not unused:
            continue
        calls, seq = sites(), _param_seq(smap, func)
        if calls is None or seq is None:
            continue
        if any(any(isinstance(a, ast.Starred) for a in c.args) or any(k.arg is None for k in c.keywords)
               for c in calls):
            continue
        groups.extend(_param_drop_edits(smap, func, skip, calls, seq, i) for i in unused)
    groups.extend([Delete(seq, i)] for seq, i in _pytest_unused_parameters(tree, smap, scopes))
    out: list[str] = []
    out.extend(_unused_star_candidates(source, tree, smap, parents, scopes))
    if len(groups) > 1:
        together = apply_edits(source, [e for g in groups for e in g])
        if together is not None:
            out.append(together)
    for group in groups:
        candidate = apply_edits(source, group)
        if candidate is not None:
            out.append(candidate)
    return out


def unused_defaults_of_values(source: str) -> str | None:
    """A module-level function passed as a value (``jacrev(func)``, ``map(f, xs)``, a callback) without the
    parameters that have a default and that nothing reads (``_input: Tensor = None``), all at once; None if
    there is none. Who calls such a function is not in the source (:func:`unused_parameter_candidates` leaves
    it), so only a defaulted parameter can go: a caller that passes it makes the candidate fail. A final
    rider (:data:`reportkit.reduce.passes.FINAL_RIDERS`): cosmetic, never a test of its own."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    edits: list[Edit] = []
    for func, name, skip in _callables(tree):
        args = func.args
        if skip or not _plain_signature(func):
            continue
        first_default = len(args.args) - len(args.defaults)
        unused = [i for i, a in enumerate(args.args) if i >= first_default and not scopes.loads[(id(func), a.arg)]]
        seq = _param_seq(smap, func) if unused else None
        if seq is None or _call_sites(tree, parents, name) is not None:
            continue  # (called only where the source shows it: unused_parameter_candidates's)
        edits.extend(Delete(seq, i) for i in unused)
    return apply_edits(source, edits) if edits else None


def _param_drop_edits(smap: SourceMap, func: ast.FunctionDef, skip: int, calls: list, seq: ElementSeq,
                      i: int) -> list[Edit]:
    """Drop parameter ``i`` of ``func`` and its argument at every call in ``calls`` (``skip``: the parameters
    calls do not pass, ``self``)."""
    edits: list[Edit] = [Delete(seq, i)]
    param = func.args.args[i].arg
    for call in calls:
        if isinstance(call, _ThreadSite) and call.display is None:
            continue
        if isinstance(call, _ExportSite) and call.shapes is not None:
            edits.extend(_shape_entry_edits(smap, call.shapes, param, i - skip))
        displayed = isinstance(call, (_ThreadSite, _ExportSite))
        elements = display_elements(smap, call.display) if displayed else call_elements(smap, call)
        order = sorted([*call.args, *call.keywords], key=lambda n: (n.lineno, n.col_offset))
        target: ast.AST | None = None
        if i - skip < len(call.args):
            target = call.args[i - skip]
        else:
            target = next((k for k in call.keywords if k.arg == param), None)
        if target is not None and elements is not None:
            edits.append(Delete(elements, next(j for j, n in enumerate(order) if n is target)))
    return edits


def _shape_entry_edits(smap: SourceMap, shapes: ast.Dict | ast.Tuple | ast.List, param: str, index: int) -> list[Edit]:
    """Deleting parameter ``param`` (argument ``index``) from an export's ``dynamic_shapes``: its key's entry
    of a dict, its element of a tuple or list (none where the dict has no entry for it)."""
    elements = display_elements(smap, shapes)
    if elements is None:
        return []
    if isinstance(shapes, ast.Dict):
        keys = [j for j, k in enumerate(shapes.keys) if isinstance(k, ast.Constant) and k.value == param]
        return [Delete(elements, j) for j in keys]
    return [Delete(elements, index)] if index < len(shapes.elts) else []


def _spread_call(calls: list) -> bool:
    """A call passes ``*xs`` or ``**kw``: which parameter gets what is not in the source."""
    return any(any(isinstance(a, ast.Starred) for a in c.args) or any(k.arg is None for k in c.keywords)
               for c in calls)


def _passed_global(bindings: Bindings, calls: list, index: int, param: ast.arg) -> str | None:
    """The one module-level name every call passes for parameter ``param`` (``index``: its position in the
    calls' arguments): ``cfg`` of ``Encoder(cfg)`` and ``Encoder(config=cfg)``; None otherwise."""
    passed: set[str] = set()
    for call in calls:
        arg = call.args[index] if index < len(call.args) else next(
            (k.value for k in call.keywords if k.arg == param.arg), None)
        if not isinstance(arg, ast.Name) or bindings.owner(arg, arg.id) is not bindings.tree:
            return None
        passed.add(arg.id)
    return passed.pop() if len(passed) == 1 else None


def _global_argument(source: str, smap: SourceMap, bindings: Bindings, func: ast.FunctionDef, skip: int,
                     calls: list, seq: ElementSeq, i: int) -> str | None:
    """``def train(model): model.fit()`` called as ``train(net)`` only, ``net`` bound once at module level (not in
    a loop) -> ``def train(): net.fit()`` and ``train()``; None where the parameter is bound otherwise, unread,
    or a scope between a read and the module binds ``net`` (:func:`_reaches_module`)."""
    tree = bindings.tree
    param = func.args.args[i]
    glob = _passed_global(bindings, calls, i - skip, param)
    if glob is None:
        return None
    if not bindings.bound_once(tree, glob) or bindings.bound[(id(func), param.arg)] != 1 \
            or any(bindings.in_loop(site) for site in bindings.sites.get((id(tree), glob), [])):
        return None  # bound in a loop: the name moves on, a value the function kept would not
    reads = bindings.loads(param, param.arg)
    if not reads or not all(_reaches_module(bindings, r, glob, func, param.arg) for r in reads):
        return None
    edits: list[Edit] = [Splice(*smap.span(r), glob) for r in reads if glob != param.arg]
    candidate = apply_edits(source, [*edits, *_param_drop_edits(smap, func, skip, calls, seq, i)])
    return candidate if candidate is not None and parses(candidate) else None


def global_argument_candidates(source: str) -> list[str]:
    """A parameter of a module-level function or class ``__init__`` to which every call passes the same
    module-level name (``Encoder(cfg)``, ``train(model, data)``) reads that name where it read the parameter:
    the same object, since the module binds the name once (not in a loop), every call passes it, and no
    scope between a read and the module binds that name. The parameter is then unread and the unused-parameters pass
    drops it with its arguments; a configuration object the function read through it becomes one read
    only as fields (the field-readbacks pass). One candidate per parameter.

    Only plain parameters (no ``*``/``**``, positional-only or keyword-only ones, no decorator), a
    function called by name only (none used otherwise), a class nothing subclasses; the parameter bound
    only as the parameter, and read."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    bindings = Bindings(tree, parents)
    based = {b.id for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for b in c.bases if isinstance(b, ast.Name)}
    out: list[str] = []
    for func, name, skip in _callables(tree):
        args = func.args
        if not _plain_signature(func) or name in based:
            continue
        calls = _call_sites(tree, parents, name)
        seq = _param_seq(smap, func)
        if not calls or seq is None or _spread_call(calls):
            continue
        for i in range(skip, len(args.args)):
            candidate = _global_argument(source, smap, bindings, func, skip, calls, seq, i)
            if candidate is not None:
                out.append(candidate)
    return out


def _reaches_module(bindings: Bindings, read: ast.Name, name: str, func: ast.AST, param: str) -> bool:
    """``name`` read where ``read`` is would be the module's ``name`` once ``func`` no longer has the parameter
    ``param``: no scope from the read's out to the module binds ``name`` (``func`` only by that parameter)."""
    cur: ast.AST | None = bindings.scope_of(read)
    while cur is not None and cur is not bindings.tree:
        if name in bindings.scopes.locals.get(id(cur), set()) and not (cur is func and name == param):
            return False
        cur = bindings.scopes.parent.get(id(cur))
    return True


def _pytest_unused_parameters(tree: ast.Module, smap: SourceMap, scopes: Scopes) -> list[tuple[ElementSeq, int]]:
    """The parameters nothing reads of the decorated functions pytest calls itself: a module-level ``test_*``
    function (``@pytest.mark...``) or a ``@pytest.fixture`` (a fixture they ask for, nothing passes them as
    arguments; an undecorated one is any module-level function without calls), each except those
    a ``parametrize`` of the function names (its first argument a string or a list of strings; anything
    else: the function is left alone). The tester decides whether the fixture it stops asking for
    mattered (an ``autouse`` one still runs)."""
    out: list[tuple[ElementSeq, int]] = []
    for func in tree.body:
        if not isinstance(func, ast.FunctionDef):
            continue
        decorators = [ast.unparse(d) for d in func.decorator_list]
        fixture = any(re.match(r"(pytest\.)?fixture\b", d) for d in decorators)
        if not (fixture or func.name.startswith("test")) or not func.decorator_list or func.args.vararg \
                or func.args.kwarg or func.args.posonlyargs or func.args.kwonlyargs or func.args.defaults:
            continue  # undecorated: a module-level function, done with its call sites (there are none)
        named = _parametrized_names(func)
        if named is None:
            continue
        seq = _param_seq(smap, func)
        if seq is None:
            continue
        out += [(seq, i) for i, a in enumerate(func.args.args)
                if a.arg not in named and a.arg != "request" and not scopes.loads[(id(func), a.arg)]]
    return out


def _parametrized_names(func: ast.FunctionDef) -> set[str] | None:
    """The argument names the ``parametrize`` decorators of ``func`` give; None when one is not literal."""
    names: set[str] = set()
    for deco in func.decorator_list:
        if not (isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith("parametrize")):
            continue
        first = deco.args[0] if deco.args else next((k.value for k in deco.keywords if k.arg == "argnames"), None)
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names |= {n.strip() for n in first.value.split(",") if n.strip()}
        elif isinstance(first, (ast.List, ast.Tuple)) and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in first.elts):
            names |= {e.value for e in first.elts}
        else:
            return None
    return names


def _unused_star_candidates(source: str, tree: ast.Module, smap: SourceMap, parents: dict[int, ast.AST],
                            scopes: Scopes) -> list[str]:
    """``*args`` / ``**kwargs`` nothing reads, where no call passes anything into them: gone."""
    out: list[str] = []
    for func, name, skip in _callables(tree):
        args = func.args
        stars = [a for a in (args.vararg, args.kwarg) if a is not None]
        if (not stars or args.posonlyargs or args.kwonlyargs or func.decorator_list
                or any(scopes.loads[(id(func), a.arg)] for a in stars)):
            continue
        calls = _call_sites(tree, parents, name)
        parens = _def_parens(smap, func)
        names = {a.arg for a in args.args[skip:]}
        if not calls or parens is None or any(
                any(isinstance(a, ast.Starred) for a in c.args) or len(c.args) > len(args.args) - skip
                or any(k.arg not in names for k in c.keywords) for c in calls):
            continue
        defaults = dict(zip(args.args[len(args.args) - len(args.defaults):], args.defaults))
        params = [smap.source[smap.span(a)[0]:smap.span(defaults[a])[1] if a in defaults else smap.span(a)[1]]
                  for a in args.args]
        start, end = smap.tokens[parens[0]].end, smap.tokens[parens[1]].start
        candidate = apply_splices(source, [Splice(start, end, ", ".join(params))])
        if candidate is not None:
            out.append(candidate)
    return out


# ---------------------------------------------------------------- one-element containers
_CONTAINERS = {"list", "tuple", "ModuleList", "iter"}


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _range_of_one(node: ast.expr) -> bool:
    if not (isinstance(node, ast.Call) and _callee(node) == "range" and not node.keywords):
        return False
    values = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
    return values in ([1], [0, 1])


def single_element(node: ast.expr) -> ast.expr | None:
    """The one element ``node`` holds (a display, a comprehension over ``range(1)``, ``list``/
    ``tuple``/``iter``/``nn.ModuleList``/``nn.Sequential`` of one), or None."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        if len(node.elts) == 1 and not isinstance(node.elts[0], ast.Starred):
            return node.elts[0]
        return None
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        if len(node.generators) != 1:
            return None
        gen = node.generators[0]
        names = set(_target_names(gen.target) or ["?"])
        used = {n.id for n in ast.walk(node.elt) if isinstance(n, ast.Name)}
        if gen.ifs or gen.is_async or names & used:
            return None
        if _range_of_one(gen.iter) or single_element(gen.iter) is not None:
            return node.elt
        return None
    if isinstance(node, ast.Call) and not node.keywords and len(node.args) == 1:
        callee = _callee(node)
        arg = node.args[0]
        if callee in _CONTAINERS:
            return single_element(arg)
        if callee == "Sequential":
            return single_element(arg.value) if isinstance(arg, ast.Starred) else arg
    return None


def _single_item_text(smap: SourceMap, node: ast.expr) -> str | None:
    """The one item of ``{K: V}.items()`` (``(K, V)``), ``.keys()`` (``K``), ``.values()`` (``V``)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args
            and not node.keywords and isinstance(node.func.value, ast.Dict) and len(node.func.value.keys) == 1
            and node.func.value.keys[0] is not None):
        return None
    key, value = node.func.value.keys[0], node.func.value.values[0]
    if node.func.attr == "items":
        return f"({smap.text(key)}, {smap.text(value)})"
    if node.func.attr == "keys":
        return _element_text(smap, key)
    if node.func.attr == "values":
        return _element_text(smap, value)
    return None


def _element_text(smap: SourceMap, node: ast.expr) -> str:
    return _wrapped(node, smap.text(node))


def _substituted_comprehension(smap: SourceMap, node: ast.ListComp | ast.GeneratorExp) -> str | None:
    """``[f(t) for t in (a,)]`` -> ``[f(a)]`` (``range(1)``: ``0``), where ``a`` is a name or a
    constant, or ``t`` is read once; None otherwise."""
    if len(node.generators) != 1:
        return None
    gen = node.generators[0]
    if gen.ifs or gen.is_async or not isinstance(gen.target, ast.Name):
        return None
    if _range_of_one(gen.iter):
        element_text, pure = "0", True
    else:
        element = single_element(gen.iter) if isinstance(gen.iter, (ast.List, ast.Tuple)) else None
        if element is None:
            return None
        element_text, pure = _element_text(smap, element), isinstance(element, (ast.Name, ast.Constant))
    name = gen.target.id
    if any(isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr))
           for n in ast.walk(node.elt)):
        return None
    uses = [n for n in ast.walk(node.elt) if isinstance(n, ast.Name) and n.id == name]
    if not uses or (len(uses) > 1 and not pure):
        return None
    text = _substitute(smap, node.elt, {id(n): element_text for n in uses})
    return None if text is None else f"[{text}]"


def _element_splice(smap: SourceMap, node: ast.AST, element: ast.expr | None) -> Splice | None:
    """``node`` -> the text of its one ``element`` (None: it holds no single element)."""
    return None if element is None else Splice(*smap.span(node), _element_text(smap, element))


# one-element shapes: (smap, parents, a node) -> the splice that makes the node its element, or None
def _next_of_one(smap: SourceMap, parents: dict[int, ast.AST], node: ast.AST) -> Splice | None:
    """``next(iter([m]))`` -> ``m``; ``next(iter({"a": 1}.items()))`` -> ``("a", 1)`` (``.keys()``: ``"a"``,
    ``.values()``: ``1``)."""
    if not (isinstance(node, ast.Call) and _callee(node) == "next" and isinstance(node.func, ast.Name)):
        return None
    if len(node.args) != 1 or node.keywords:
        return None
    element = single_element(node.args[0])
    arg = node.args[0]
    item = (_single_item_text(smap, arg.args[0]) if isinstance(arg, ast.Call) and _callee(arg) == "iter"
            and isinstance(arg.func, ast.Name) and len(arg.args) == 1 and not arg.keywords else None)
    if item is not None:
        return Splice(*smap.span(node), item)
    return _element_splice(smap, node, element)


def _index_of_one(smap: SourceMap, parents: dict[int, ast.AST], node: ast.AST) -> Splice | None:
    """``[m][0]``, ``(m,)[-1]`` -> ``m``."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
            and isinstance(node.slice, ast.Constant) and node.slice.value in (0, -1)):
        return None
    return _element_splice(smap, node, single_element(node.value))


def _sequential_of_one(smap: SourceMap, parents: dict[int, ast.AST], node: ast.AST) -> Splice | None:
    """``nn.Sequential(m)`` -> ``m`` (``nn.Sequential(*[m])`` too)."""
    if not (isinstance(node, ast.Call) and _callee(node) == "Sequential"):
        return None
    return _element_splice(smap, node, single_element(node))


def _comprehension_of_one(smap: SourceMap, parents: dict[int, ast.AST], node: ast.AST) -> Splice | None:
    """``[m for _ in range(1)]`` -> ``[m]``, ``nn.ModuleList(m for _ in range(1))`` -> ``nn.ModuleList([m])``,
    ``[Block(s) for s in (2,)]`` -> ``[Block(2)]`` (:func:`_substituted_comprehension`)."""
    if not isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return None
    inner = single_element(node)
    text = f"[{smap.text(inner)}]" if inner is not None else _substituted_comprehension(smap, node)
    if text is None:
        return None
    start, end = smap.span(node)
    parent = parents.get(id(node))
    own = (isinstance(parent, ast.Call) and len(parent.args) == 1 and not parent.keywords
           and smap.source[start] == "(" and smap.span(parent.func)[1] == start)
    return Splice(start, end, f"({text})" if own else text)


_ONE_ELEMENT_SHAPES = (_next_of_one, _index_of_one, _sequential_of_one, _comprehension_of_one)


def _loops_over_one(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``for b in [m]: BODY`` -> ``b = m`` / ``BODY`` (``BODY`` alone where nothing reads ``b`` and ``m`` is a name
    or a constant; ``m`` as a statement where nothing reads ``b``)."""
    out: list[str] = []
    nl = smap.default_newline()
    for info in walk_bodies(tree, smap):
        for stmt in info.seq.stmts:
            if not isinstance(stmt, ast.For) or stmt.orelse:
                continue
            element = single_element(stmt.iter)
            where = _full_lines(smap, stmt)
            if element is None or where is None:
                continue
            line_start, line_end, indent = where
            targets = set(_target_names(stmt.target) or ["?"])
            if targets & _names_in(stmt.body):
                head = f"{indent}{smap.text(stmt.target)} = {smap.text(element)}{nl}"
            elif isinstance(element, (ast.Name, ast.Constant)):
                head = ""
            else:
                head = f"{indent}{smap.text(element)}{nl}"
            out.append(source[:line_start] + head + block_text(smap, stmt.body, indent) + source[line_end:])
    return out


def one_element_candidates(source: str) -> list[str]:
    """A one-element container used once becomes its element: the shapes of :data:`_ONE_ELEMENT_SHAPES` (each
    node, one candidate each), then :func:`_loops_over_one`."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    splices = [splice for node in ast.walk(tree) for shape in _ONE_ELEMENT_SHAPES
               if (splice := shape(smap, parents, node)) is not None]
    out = [c for c in (apply_splices(source, [s]) for s in splices) if c is not None]
    return out + _loops_over_one(source, tree, smap)


# ----------------------------------------------------------------------------- readability
def readability_candidates(source: str) -> list[str]:
    """``for a, b in xs:`` with neither read -> ``for _ in xs:``; ``assert`` of constants -> gone;
    ``a if None is None else b`` (a test of literals) -> ``a``; ``next(iter(xs))`` -> ``xs[0]``; ``[f(x)]`` as
    a statement -> ``f(x)``; ``for _ in xs: pass`` -> ``list(xs)``; ``return (x)`` and ``f((x))`` -> ``x``,
    ``f(x)``; a comprehension's target that unpacks nothing read -> ``_``; ``f(*(a, b))`` -> ``f(a, b)``,
    ``f(**{"k": v})`` -> ``f(k=v)``; ``not False`` -> ``True``.

    The shapes, in the order their candidates come: :data:`_STATEMENT_SHAPES` (each statement of each
    body), :data:`_NODE_SHAPES` (each node), :data:`_PROGRAM_SHAPES` (the whole program)."""
    tree, smap = _parse(source)
    out: list[str] = []
    for info in walk_bodies(tree, smap):
        for index, stmt in enumerate(info.seq.stmts):
            for shape in _STATEMENT_SHAPES:
                out.extend(shape(source, smap, info.seq, index, stmt))
    for node in ast.walk(tree):
        for node_shape in _NODE_SHAPES:
            out.extend(node_shape(source, smap, tree, node))
    for program_shape in _PROGRAM_SHAPES:
        out.extend(program_shape(source, tree, smap))
    return out


def _replaced(source: str, smap: SourceMap, node: ast.AST, text: str) -> list[str]:
    """The source with ``node`` replaced by ``text`` (none where the splice does not apply)."""
    candidate = apply_splices(source, [Splice(*smap.span(node), text)])
    return [] if candidate is None else [candidate]


# statement shapes: (source, smap, the body, the statement's index in it, the statement) -> candidates
def _unread_loop_target(source: str, smap: SourceMap, seq: BodySeq, index: int, stmt: ast.stmt) -> list[str]:
    """``for a, b in pairs: print(1)`` -> ``for _ in pairs: print(1)``: a tuple target nothing in the loop reads."""
    if not (isinstance(stmt, (ast.For, ast.AsyncFor)) and isinstance(stmt.target, (ast.Tuple, ast.List))):
        return []
    names = _target_names(stmt.target)
    if names is None or set(names) & _names_in([*stmt.body, *stmt.orelse]):
        return []
    start, end = smap.span(stmt.target)
    return [source[:start] + "_" + source[end:]]


def _if_shapes(source: str, smap: SourceMap, seq: BodySeq, index: int, stmt: ast.stmt) -> list[str]:
    """``if t: pass / else: b`` -> ``if not t: b`` and the other shapes of :func:`_if_candidates`."""
    return _if_candidates(source, smap, stmt) if isinstance(stmt, ast.If) else []


def _constant_assert(source: str, smap: SourceMap, seq: BodySeq, index: int, stmt: ast.stmt) -> list[str]:
    """``assert 2 > 1`` -> gone: an ``assert`` of constants guards nothing."""
    if not (isinstance(stmt, ast.Assert) and _constant_expression_or_compare(stmt.test)):
        return []
    candidate = apply_edits(source, [Delete(seq, index)])
    return [] if candidate is None else [candidate]


_STATEMENT_SHAPES = (_unread_loop_target, _if_shapes, _constant_assert)


# node shapes: (source, smap, tree, a node of it) -> candidates
def _literal_test_branch(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``a if None is None else b`` -> ``a`` (a test of literals: its branch)."""
    if not (isinstance(node, ast.IfExp) and all(isinstance(n, _TEST_NODES) for n in ast.walk(node.test))):
        return []
    truth = _constant_truth(node.test)
    branch = None if truth is None else node.body if truth else node.orelse
    return [] if branch is None else _replaced(source, smap, node, _element_text(smap, branch))


def _next_iter_subscript(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``next(iter(blocks))`` -> ``blocks[0]`` (a sequence: :func:`_next_iter_argument`)."""
    inner = _next_iter_argument(node)
    return [] if inner is None else _replaced(source, smap, node, f"{_element_text(smap, inner)}[0]")


def _negated_constant(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``not False`` -> ``True`` (an option's ``not args.unidirectional`` read back: the literal it is)."""
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant)):
        return []
    return _replaced(source, smap, node, repr(not node.operand.value))


def _indexed_comprehension_element(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``[Thread(target=work) for i in range(3)][0]`` -> ``Thread(target=work)`` (:func:`_indexed_comprehension`)."""
    element = _indexed_comprehension(node)
    return [] if element is None else _replaced(source, smap, node, _element_text(smap, element))


def _first_of_range_value(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``next(iter(range(2, 5)))`` -> ``2`` (:func:`_first_of_range`)."""
    first = _first_of_range(node)
    return [] if first is None else _replaced(source, smap, node, first)


def _one_element_statement(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``[f(x)]`` as a statement -> ``f(x)`` (what is left of a comprehension or a list built to be dropped)."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, (ast.List, ast.Tuple, ast.Set))
            and len(node.value.elts) == 1 and not isinstance(node.value.elts[0], ast.Starred)):
        return []
    return _replaced(source, smap, node.value, _element_text(smap, node.value.elts[0]))


def _argument_parens(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``range((n // k))`` -> ``range(n // k)``: an argument in parentheses that change nothing (the same tree)."""
    if not isinstance(node, ast.Call):
        return []
    out: list[str] = []
    func_end = smap.span(node.func)[1]
    for arg in [*node.args, *(k.value for k in node.keywords)]:
        if source[func_end:smap.span(arg)[0]].strip(" \t") == "(":
            continue  # ``f(x)``: the parentheses are the call's own (without them it is another program)
        candidate = _without_parens(source, smap, arg)
        if candidate is not None and ast.dump(ast.parse(candidate)) == _dump(tree):
            out.append(candidate)
    return out


_DUMPS: weakref.WeakKeyDictionary[ast.AST, str] = weakref.WeakKeyDictionary()


def _dump(tree: ast.AST) -> str:
    """``ast.dump(tree)``, once per tree (compared with each candidate's)."""
    text = _DUMPS.get(tree)
    if text is None:
        text = _DUMPS[tree] = ast.dump(tree)
    return text


def _spread_arguments(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``f(*(a, b))`` -> ``f(a, b)``, ``f(**{"k": v})`` -> ``f(k=v)`` (:func:`_spread_candidates`)."""
    return _spread_candidates(source, smap, node) if isinstance(node, ast.Call) else []


def _unread_comprehension_target(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``[f(b) for a, b in zip(xs, ys)]`` with ``a`` read nowhere -> ``... for _ in ...`` (a comprehension's tuple
    target none of whose names the comprehension reads)."""
    if not isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        return []
    loaded = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    out: list[str] = []
    for gen in node.generators:
        names = _target_names(gen.target) if isinstance(gen.target, (ast.Tuple, ast.List)) else None
        if names is not None and not set(names) & loaded:
            out.extend(_replaced(source, smap, gen.target, "_"))
    return out


def _statement_value_parens(source: str, smap: SourceMap, tree: ast.Module, node: ast.AST) -> list[str]:
    """``return (derive())`` -> ``return derive()`` (an assignment's, a return's or an expression statement's
    value: :func:`_without_parens`)."""
    if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)):
        return []
    candidate = _without_parens(source, smap, node.value)
    return [] if candidate is None else [candidate]


_NODE_SHAPES = (_literal_test_branch, _next_iter_subscript, _negated_constant, _indexed_comprehension_element,
                _first_of_range_value, _one_element_statement, _argument_parens, _spread_arguments,
                _unread_comprehension_target, _statement_value_parens)


def _spread_candidates(source: str, smap: SourceMap, call: ast.Call) -> list[str]:
    """``f(*(a, b))`` -> ``f(a, b)`` and ``f(**{"k": v})`` -> ``f(k=v)``: an argument tuple or keyword dict
    spelled out where it is unpacked (what is left once ``batch = (x, y)`` / ``model(*batch)`` is inlined)."""
    out = []
    for arg in call.args:
        if isinstance(arg, ast.Starred) and isinstance(arg.value, (ast.Tuple, ast.List)) and arg.value.elts:
            text = ", ".join(_element_text(smap, e) for e in arg.value.elts)
            candidate = apply_splices(source, [Splice(*smap.span(arg), text)])
            if candidate is not None:
                out.append(candidate)
    for kw in call.keywords:
        d = kw.value
        if kw.arg is None and isinstance(d, ast.Dict) and d.keys and all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isidentifier()
                and not keyword.iskeyword(k.value) for k in d.keys):
            text = ", ".join(f"{k.value}={_element_text(smap, v)}" for k, v in zip(d.keys, d.values))  # type: ignore[union-attr]
            start = smap.prev_token_before(smap.span(d)[0])  # the ``**``
            if start is not None and start.string == "**":
                candidate = apply_splices(source, [Splice(start.start, smap.span(d)[1], text)])
                if candidate is not None:
                    out.append(candidate)
    return out


def _drained_loop_candidates(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``for _ in loader:\\n    pass`` -> ``list(loader)``: a loop that only drains its iterable (the target
    never read, no ``else``, the builtin ``list``)."""
    if _bound_names(tree).get("list"):
        return []
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Store)}
    out: list[str] = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.For) and not node.orelse and len(node.body) == 1
                and isinstance(node.body[0], ast.Pass) and isinstance(node.target, ast.Name)
                and node.target.id not in read and not isinstance(node.iter, ast.Starred)):
            text = smap.text(node.iter)
            if isinstance(node.iter, ast.Tuple) and not text.startswith("("):
                text = f"({text})"
            start, end = smap.span(node)
            candidate = source[:start] + f"list({text})" + source[end:]
            if parses(candidate):
                out.append(candidate)
    return out


def _enumerate_loops(tree: ast.Module) -> Iterator[tuple[ast.For | ast.AsyncFor | ast.comprehension, set[str]]]:
    """Each loop statement with the names the module reads (its target outlives it), and each comprehension's
    ``for`` with the names that comprehension reads."""
    loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor)):
            yield node, loaded
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            reads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            for gen in node.generators:
                yield gen, reads


def _counted(loop: ast.For | ast.AsyncFor | ast.comprehension, reads: set[str]) -> bool:
    """``for i, x in enumerate(xs)`` (or ``enumerate(xs, 1)``, ``enumerate(xs, start=1)``) whose counter ``i``
    is not in ``reads``."""
    target, it = loop.target, loop.iter
    if not (isinstance(target, ast.Tuple) and len(target.elts) == 2 and isinstance(target.elts[0], ast.Name)
            and not isinstance(target.elts[1], ast.Starred) and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name) and it.func.id == "enumerate" and len(it.args) >= 1
            and not isinstance(it.args[0], ast.Starred) and len(it.args) + len(it.keywords) <= 2):
        return False
    extra = [*it.args[1:], *(k.value for k in it.keywords)]
    if any(k.arg != "start" for k in it.keywords) or not all(isinstance(e, ast.Constant) for e in extra):
        return False
    return target.elts[0].id not in reads


def _unused_counter_candidates(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``for i, x in enumerate(xs):`` whose counter ``i`` nothing reads -> ``for x in xs:`` (a loop, or
    a comprehension's ``for``). Only the builtin ``enumerate`` (the module binds no such name), with
    one argument or a literal ``start``; for a loop statement, ``i`` is read nowhere in the module (it
    outlives the loop)."""
    if "enumerate" in _bound_names(tree):
        return []
    out: list[str] = []
    for loop, reads in _enumerate_loops(tree):
        if not _counted(loop, reads):
            continue
        target, it = loop.target, loop.iter
        assert isinstance(target, ast.Tuple) and isinstance(it, ast.Call)
        item = target.elts[1]
        candidate = apply_splices(source, [Splice(*smap.span(target), _element_text(smap, item)
                                                  if isinstance(item, ast.Tuple) else smap.text(item)),
                                           Splice(*smap.span(it), smap.text(it.args[0]))])
        if candidate is not None and parses(candidate):
            out.append(candidate)
    return out


# truth fillers: operands that cannot change an outcome
def _truth_tests(tree: ast.Module) -> list[ast.expr]:
    """The expressions only whose truth counts: the test of an ``if`` / ``while`` / ``assert`` / conditional
    expression, the operand of ``not``, a comprehension's ``if``."""
    tests: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            tests.append(node.test)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            tests.append(node.operand)
        elif isinstance(node, ast.comprehension):
            tests.extend(node.ifs)
    return tests


def _neutral(value: ast.expr, conjunction: bool) -> bool:
    """A literal that cannot change the truth of its ``and`` (``True``) or its ``or`` (``False``, ``None``, ``0``,
    ``""``)."""
    return (isinstance(value, ast.Constant) and bool(value.value) is conjunction
            and (value.value is True if conjunction else not value.value))


def _neutral_operands(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """Where only truth counts (:func:`_truth_tests`): ``if a and True:`` -> ``if a:``, ``while x or False:`` ->
    ``while x:``."""
    out: list[str] = []
    for test in _truth_tests(tree):
        if not (isinstance(test, ast.BoolOp) and len(test.values) >= 2):
            continue
        conjunction = bool(isinstance(test.op, ast.And))
        kept = [v for v in test.values if not _neutral(v, conjunction)]
        if not kept or len(kept) == len(test.values):
            continue
        word = " and " if conjunction else " or "
        loose = (ast.BoolOp, ast.IfExp, ast.NamedExpr, ast.Lambda)
        start, end = smap.span(test)
        enclosed = source[:start].rstrip().endswith("(") and source[end:].lstrip().startswith(")")
        text = word.join(f"({smap.text(v)})" if isinstance(v, loose) and not (enclosed and len(kept) == 1)
                         else smap.text(v) for v in kept)
        if "\n" in text and not enclosed:
            text = f"({text})"
        candidate = apply_splices(source, [Splice(start, end, text)])
        if candidate is not None and parses(candidate):
            out.append(candidate)
    return out


def _bool_op_replaced(source: str, smap: SourceMap, node: ast.BoolOp, text: str) -> list[str]:
    """The source with the whole ``node`` replaced by ``text`` (parenthesized across lines), if it parses."""
    start, end = smap.span(node)
    candidate = apply_splices(source, [Splice(start, end, f"({text})" if "\n" in text else text)])
    return [candidate] if candidate is not None and parses(candidate) else []


def _deciding_first_operand(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``{"a": 1} or b`` -> ``{"a": 1}``, ``None and b`` -> ``None``: a first operand whose truth is fixed is the
    value (the rest never runs)."""
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BoolOp) and _decides(node.values[0], isinstance(node.op, ast.Or)):
            out.extend(_bool_op_replaced(source, smap, node, smap.text(node.values[0])))
    return out


def _passing_first_literal(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``None or b`` -> ``b``, ``True and b`` -> ``b``, ``[] or b`` -> ``b``: a first literal that passes on to
    the rest."""
    out: list[str] = []
    for node in ast.walk(tree):
        first = node.values[0] if isinstance(node, ast.BoolOp) else None
        if not ((isinstance(first, ast.Constant) or isinstance(first, (ast.List, ast.Tuple, ast.Set, ast.Dict))
                 and not (first.keys if isinstance(first, ast.Dict) else first.elts))
                and _decides(first, not isinstance(node.op, ast.Or))):  # type: ignore[attr-defined]
            continue
        assert isinstance(node, ast.BoolOp)
        rest = node.values[1:]
        text = source[smap.span(rest[0])[0]:smap.span(node)[1]] if len(rest) > 1 else _element_text(smap, rest[0])
        out.extend(_bool_op_replaced(source, smap, node, text))
    return out


def _true_filter(source: str, tree: ast.Module, smap: SourceMap) -> list[str]:
    """``[x for x in xs if True]`` -> ``[x for x in xs]``: a comprehension's ``if True`` filters nothing."""
    out: list[str] = []
    for node in ast.walk(tree):
        for test in node.ifs if isinstance(node, ast.comprehension) else []:
            if isinstance(test, ast.Constant) and test.value is True:
                keyword = smap.prev_token_before(smap.span(test)[0])
                if keyword is not None and keyword.string == "if":
                    candidate = source[:keyword.start].rstrip(" ") + source[smap.span(test)[1]:]
                    if parses(candidate):
                        out.append(candidate)
    return out


#: Shapes found over the whole program: (source, tree, smap) -> candidates.
_PROGRAM_SHAPES = (_unused_counter_candidates, _neutral_operands, _deciding_first_operand, _passing_first_literal,
                   _true_filter, _drained_loop_candidates)


def _decides(node: ast.expr, truthy: bool) -> bool:
    """``node`` is a literal or display whose truth is ``truthy`` whatever it holds (no ``*``/``**``)."""
    if isinstance(node, ast.Constant):
        return bool(node.value) is truthy
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        elements = node.elts
    elif isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            return False
        elements = node.values
    else:
        return False
    return not any(isinstance(e, ast.Starred) for e in elements) and bool(elements) is truthy


def _if_candidates(source: str, smap: SourceMap, stmt: ast.If) -> list[str]:
    """``if T: pass / else: BODY`` -> ``if not T: BODY``; ``if T: pass`` -> ``T``; ``elif None is None:`` (a test of literals
    that is true, the last branch) -> ``else:``."""
    out: list[str] = []
    nl = smap.default_newline()
    elif_ = (len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], ast.If)
             and smap.source.startswith("elif", smap.span(stmt.orelse[0])[0]))
    if (all(isinstance(b, ast.Pass) for b in stmt.body) and stmt.orelse and not elif_
            and not smap.source.startswith("elif", smap.span(stmt)[0])):
        where = _full_lines(smap, stmt)
        if where is not None:
            test = smap.text(stmt.test)
            atom = isinstance(stmt.test, (ast.Compare, ast.Call, ast.Name, ast.Attribute, ast.Subscript, ast.Constant))
            neg = f"not {test}" if atom and "\n" not in test else f"not ({test})"
            text = f"{where[2]}if {neg}:{nl}" + block_text(smap, stmt.orelse, where[2] + "    ")
            out.append(source[:where[0]] + text + source[where[1]:])
    if (all(isinstance(b, ast.Pass) for b in stmt.body) and not stmt.orelse
            and not smap.source.startswith("elif", smap.span(stmt)[0])):
        # ``if T: pass`` -> ``T``: the test is still evaluated (and its truth, which nothing uses, is not
        # taken: a ``__bool__`` that raises is the one thing this drops, and the tester sees that)
        where = _full_lines(smap, stmt)
        if where is not None:
            test = smap.text(stmt.test)
            if "\n" in test or isinstance(stmt.test, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Tuple)):
                test = f"({test})"
            out.append(source[:where[0]] + f"{where[2]}{test}{nl}" + source[where[1]:])
    if elif_:
        inner = stmt.orelse[0]
        assert isinstance(inner, ast.If)
        if (not inner.orelse and all(isinstance(n, _TEST_NODES) for n in ast.walk(inner.test))
                and _constant_truth(inner.test) is True):
            start = smap.span(inner)[0]
            candidate = apply_splices(source, [Splice(start, smap.span(inner.test)[1], "else")])
            if candidate is not None:
                out.append(candidate)
    return out


def _next_iter_of(node: ast.AST) -> ast.expr | None:
    """X of ``next(iter(X))`` (plain calls of the builtins, one argument each), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "next"
            and len(node.args) == 1 and not node.keywords):
        return None
    arg = node.args[0]
    if not (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "iter"
            and len(arg.args) == 1 and not arg.keywords):
        return None
    return arg.args[0]


def _indexed_comprehension(node: ast.AST) -> ast.expr | None:
    """``[E for v in xs][k]`` (one loop, no condition, a literal index, ``E`` reading no loop name): ``E``,
    built once instead of once per item (the tester decides whether the others mattered)."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.ListComp)
            and isinstance(node.slice, (ast.Constant, ast.UnaryOp)) and len(node.value.generators) == 1):
        return None
    index = node.slice.operand if isinstance(node.slice, ast.UnaryOp) else node.slice
    gen = node.value.generators[0]
    if not (isinstance(index, ast.Constant) and type(index.value) is int) or gen.ifs or gen.is_async:
        return None
    bound = {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    element = node.value.elt
    if any(isinstance(n, ast.Name) and n.id in bound for n in ast.walk(element)):
        return None
    return element


def _first_of_range(node: ast.AST) -> str | None:
    """``next(iter(range(3)))`` / ``next(iter(range(2, 5)))`` of literal bounds, not empty: the first
    value (exactly: the range has one, so ``next`` cannot raise)."""
    rng = _next_iter_of(node)
    if not (isinstance(rng, ast.Call) and isinstance(rng.func, ast.Name) and rng.func.id == "range"
            and not rng.keywords and 1 <= len(rng.args) <= 3):
        return None
    values = [a.value if isinstance(a, ast.Constant) and type(a.value) is int else None for a in rng.args]
    if None in values or len(values) == 3 and values[2] == 0:
        return None
    r = range(*values)  # type: ignore[arg-type]
    return str(r[0]) if len(r) else None


def _without_parens(source: str, smap: SourceMap, value: ast.expr | None) -> str | None:
    """The statement's whole value in redundant parentheses (``return (derive())``) -> without them."""
    if value is None or isinstance(value, (ast.Tuple, ast.GeneratorExp, ast.Yield, ast.YieldFrom, ast.NamedExpr)):
        return None
    start, end = smap.span(value)
    before = start - 1
    while before >= 0 and source[before] in " \t":
        before -= 1
    after = end
    while after < len(source) and source[after] in " \t":
        after += 1
    if before < 0 or source[before] != "(" or after >= len(source) or source[after] != ")":
        return None
    if "\n" in source[before:after] or "\r" in source[before:after]:
        return None  # the parentheses may continue the line
    candidate = source[:before] + source[start:end] + source[after + 1:]
    try:
        ast.parse(candidate)
    except SyntaxError:
        return None
    return candidate


def _next_iter_argument(node: ast.AST) -> ast.expr | None:
    """X of ``next(iter(X))`` where X may be a sequence (not a range, a generator, a set, a dict)."""
    inner = _next_iter_of(node)
    if inner is None:
        return None
    unordered = (ast.Set, ast.Dict, ast.SetComp, ast.DictComp, ast.GeneratorExp)
    if isinstance(inner, unordered) or single_element(inner) is not None:
        return None  # one element: the one-element pass does those
    if isinstance(inner, ast.Call) and not (isinstance(inner.func, ast.Name) and inner.func.id in ("list", "tuple",
                                                                                                  "sorted")):
        return None  # ``range``, ``zip``, ``d.items()``... are not subscriptable (or not sequences)
    return inner


def _json_display(value: object) -> str:
    """``repr`` of a value decoded from JSON, with its strings in double quotes as the JSON text had them
    (where ``repr`` would pick single quotes and nothing needs escaping)."""
    if isinstance(value, str):
        text = repr(value)
        return f'"{text[1:-1]}"' if text.startswith("'") and '"' not in value and "\\" not in text else text
    if isinstance(value, list):
        return "[" + ", ".join(_json_display(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_json_display(k)}: {_json_display(v)}" for k, v in value.items()) + "}"
    return repr(value)


def _literal_text(value: object) -> str | None:
    """Python source for a value decoded from JSON, or None if it does not round-trip."""
    try:
        text = _json_display(value)
    except RecursionError:
        return None
    try:
        same = ast.literal_eval(text) == value
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return None
    return text if same else None


def data_literal_candidates(source: str) -> list[str]:
    """Data spelled indirectly becomes the literal: ``json.loads("...")`` of a constant string ->
    the Python display (so that the element passes can shrink it); a round-trip copy
    ``json.loads(json.dumps(x))`` / ``copy.deepcopy(x)`` / ``copy.copy(x)`` -> ``x``."""
    tree, smap = _parse(source)
    out: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
            continue
        arg = node.args[0]
        text: str | None = None
        if _dotted(node.func) == "json.loads":
            if isinstance(arg, ast.Constant) and isinstance(arg.value, (str, bytes)):
                try:
                    value = json.loads(arg.value)
                except (ValueError, RecursionError):
                    continue
                text = _literal_text(value)
            elif (isinstance(arg, ast.Call) and _dotted(arg.func) == "json.dumps" and len(arg.args) == 1
                  and not arg.keywords):
                text = _element_text(smap, arg.args[0])
        elif _dotted(node.func) in ("copy.deepcopy", "copy.copy", "deepcopy"):
            text = _element_text(smap, arg)
        if text is not None:
            candidate = apply_splices(source, [Splice(*smap.span(node), text)])
            if candidate is not None:
                out.append(candidate)
    return out


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


#: A test of literals cheap to evaluate (no arithmetic: ``2 ** 10 ** 10`` never runs here).
_TEST_NODES = (ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.cmpop, ast.boolop, ast.unaryop, ast.Tuple,
               ast.expr_context)


def _constant_truth(test: ast.expr) -> bool | None:
    """The truth of a test made of literals only (``None is None``, ``0 == 0``); None if it raises."""
    try:
        return bool(eval(compile(ast.Expression(test), "<test>", "eval"), {"__builtins__": {}}))
    except Exception:  # noqa: BLE001 - e.g. 1 / 0, "a" < 1
        return None


def _constant_expression_or_compare(node: ast.expr) -> bool:
    allowed = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.BoolOp, ast.Compare, ast.Tuple, ast.List,
               ast.unaryop, ast.operator, ast.boolop, ast.cmpop, ast.expr_context)
    return all(isinstance(n, allowed) for n in ast.walk(node))


__all__ = [
    "class_function_candidates",
    "data_literal_candidates",
    "one_element_candidates",
    "readability_candidates",
    "self_attr_build_candidates",
    "self_attr_candidates",
    "single_element",
    "unused_defaults_of_values",
    "unused_parameter_candidates",
]
