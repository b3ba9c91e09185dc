"""A module built inside another one whose ``forward`` is one expression becomes that expression.

What a person does with ``PatchEmbed`` of a ViT built as ``self.patch_embed = PatchEmbed(size, patch, dim)`` in
``VisionTransformer.__init__`` and called as ``self.patch_embed(images)`` in its ``forward``, when
``PatchEmbed.forward`` is ``return self.proj(x).flatten(2).transpose(1, 2)``: the layers ``PatchEmbed.__init__``
builds become the outer module's own (``self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)`` where
the construction was, its parameters replaced by the construction's arguments), each call becomes the
expression (``self.proj(images).flatten(2).transpose(1, 2)``), a read of one of its attributes the outer
module's (``self.patch_embed.num_patches`` -> ``self.num_patches``), and the class goes --
:func:`nested_module_candidates`. The declassing of module-level constructions
(:mod:`reportkit.reduce.passes.declass`) and the delegating/called-once module passes
(:mod:`reportkit.reduce.passes.wrappers`) then see one class where there were two.

Only where that is the same program: the inner class is a plain module-level class (see ``_plain_classes``)
of ``__init__`` and ``forward`` only, ``__init__`` only ``super().__init__()`` and ``self.a = EXPR`` stores
(the values read no ``self``), ``forward`` one ``return EXPR`` reading ``self`` only as the attributes
``__init__`` stored; it is built exactly once, as ``self.m = C(args)`` in a method of another class, with
names and constants as arguments; every read of an attribute ``m`` anywhere is that class's ``self.m(...)`` or
``self.m.a``; the outer class uses none of the inner one's attribute names (else they get the prefix
``m_``). Substitutions are hygienic (:func:`reportkit.reduce.passes.wrappers._substitute_params`).
"""

from __future__ import annotations

import ast

from .edits import Splice, apply_splices
from .scopes import scopes_of
from .source import SourceMap
from .statements import _SCOPED, _bind_arguments, _full_lines, _parents
from .wrappers import (
    _ATOMS,
    _FUNCS,
    _calls_of,
    _class_bases,
    _constant_expression,
    _docstring_or_pass,
    _methods,
    _parameter_uses,
    _parse,
    _placed,
    _plain_classes,
    _substitute_params,
    _super_init,
    _without_first,
)


def _self_name(method: ast.FunctionDef) -> str | None:
    return method.args.args[0].arg if method.args.args else None


def _stores(init: ast.FunctionDef) -> dict[str, ast.expr] | None:
    """``a -> EXPR`` of ``__init__``'s ``self.a = EXPR`` statements, when that (besides ``super().__init__()``,
    a docstring or ``pass``) is all it does, each attribute stored once and no value reading ``self``."""
    me = _self_name(init)
    a = init.args
    if me is None or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or init.decorator_list:
        return None
    stores: dict[str, ast.expr] = {}
    for stmt in init.body:
        if _super_init(stmt) or _docstring_or_pass(stmt):
            continue
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
                and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == me):
            return None
        attr = stmt.targets[0].attr
        if attr in stores or any(isinstance(n, ast.Name) and n.id in (me, "super", "__class__")
                                 for n in ast.walk(stmt.value)):
            return None
        stores[attr] = stmt.value
    return stores or None


def _one_expression(forward: ast.FunctionDef, stores: dict[str, ast.expr]) -> ast.expr | None:
    """The ``EXPR`` of ``def forward(self, x): return EXPR`` reading ``self`` only as stored attributes."""
    a = forward.args
    me = _self_name(forward)
    if (me is None or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults or forward.decorator_list
            or len(forward.body) != 1 or not isinstance(forward.body[0], ast.Return) or forward.body[0].value is None):
        return None
    expr = forward.body[0].value
    parents = _parents(expr)
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id in ("super", "__class__"):
            return None
        if isinstance(node, ast.Name) and node.id == me:
            parent = parents.get(id(node))
            if not (isinstance(parent, ast.Attribute) and parent.attr in stores and isinstance(parent.ctx, ast.Load)):
                return None
    return expr


_MODULE_BASES = {"nn.Module", "torch.nn.Module", "Module"}


def _inner(cls: ast.ClassDef) -> tuple[ast.FunctionDef, dict[str, ast.expr], ast.FunctionDef, ast.expr] | None:
    """``__init__``, its stores, ``forward`` and its one expression of an ``nn.Module`` class (``self.m(x)`` runs
    ``forward``: of another class it would run ``__call__``)."""
    if len(cls.bases) != 1 or ast.unparse(cls.bases[0]) not in _MODULE_BASES:
        return None
    methods = _methods(cls)
    init, forward = methods.get("__init__"), methods.get("forward")
    if (init is None or forward is None or len(methods) != 2 or isinstance(forward, ast.AsyncFunctionDef)
            or any(not isinstance(s, _FUNCS) and not _docstring_or_pass(s) for s in cls.body)):
        return None
    stores = _stores(init)
    expr = _one_expression(forward, stores) if stores else None
    return None if expr is None else (init, stores, forward, expr)


def _construction(tree: ast.Module, parents: dict[int, ast.AST], cls: ast.ClassDef):
    """(outer class, its method, the statement ``self.m = C(args)``, the call, ``m``) of ``cls``'s one
    construction, with names and constant expressions as its arguments."""
    calls = _calls_of(tree, parents, cls.name)
    if not calls or len(calls) != 1:
        return None
    call = calls[0]
    stmt = parents.get(id(call))
    method = parents.get(id(stmt))
    outer = parents.get(id(method))
    if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
            and isinstance(method, ast.FunctionDef) and stmt in method.body and isinstance(outer, ast.ClassDef)
            and outer is not cls and outer in tree.body):
        return None
    target = stmt.targets[0]
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == _self_name(method)):
        return None
    if not all(_plain_value(a) for a in [*call.args, *(k.value for k in call.keywords)]):
        return None
    return outer, method, stmt, call, target.attr


def _plain_value(node: ast.expr) -> bool:
    """A name, a constant expression or a name's attribute (``cfg.hidden``): a value read, that reads the same
    however often (and whether) the stores it is substituted into read it."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) or _constant_expression(node)


def _stored_value(smap: SourceMap, scopes, parents: dict[int, ast.AST], init: ast.FunctionDef, call: ast.Call,
                  value: ast.expr) -> str | None:
    """The text of a value ``__init__`` stores (``value``) with the construction's arguments (plain values,
    :func:`_plain_value`) for its parameters, to run where the construction was; None if a name in it would mean
    something else there, or a default it reads is not a constant."""
    func = _without_first(init.args)
    bound = _bind_arguments(smap, func, call)  # type: ignore[arg-type]
    params = [p.arg for p in init.args.args[1:]]
    if bound is None or any(isinstance(n, (*_SCOPED, ast.JoinedStr)) for n in ast.walk(value)):
        return None
    uses = _parameter_uses(scopes, parents, call, value, init, params, frozenset())
    if uses is None:
        return None
    given = {p.arg for p, _a in zip(init.args.args[1:], call.args)} | {k.arg for k in call.keywords}
    defaults = dict(zip(params[len(params) - len(init.args.defaults):], init.args.defaults))
    if any(p not in given and not _constant_expression(defaults[p]) for p in uses):
        return None
    start, end = smap.span(value)
    splices = []
    for param, nodes in uses.items():
        arg = next((a for p, a in zip(params, call.args) if p == param),
                   next((k.value for k in call.keywords if k.arg == param), defaults.get(param)))
        text = bound[param] if isinstance(arg, _ATOMS) else f"({bound[param]})"
        splices.extend(Splice(smap.span(n)[0] - start, smap.span(n)[1] - start, text) for n in nodes)
    return apply_splices(smap.source[start:end], splices)


def _uses(tree: ast.Module, parents: dict[int, ast.AST], outer: ast.ClassDef, target: ast.Attribute, m: str,
          stores: dict[str, ast.expr]) -> tuple[list[ast.Call], list[ast.Attribute]] | None:
    """Every read of an attribute ``m``: calls ``self.m(args)`` and reads ``self.m.a`` of a stored ``a``, all in the
    outer class's methods (``self`` each one's first parameter); None if any is something else."""
    calls, reads = [], []
    selves = {id(n): _self_name(f) for f in outer.body if isinstance(f, ast.FunctionDef)
              for n in ast.walk(f) if isinstance(n, ast.Attribute)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or node.attr != m or node is target:
            continue
        if not (id(node) in selves and isinstance(node.value, ast.Name) and node.value.id == selves[id(node)]
                and isinstance(node.ctx, ast.Load)):
            return None
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node and not parent.keywords \
                and not any(isinstance(a, ast.Starred) for a in parent.args):
            calls.append(parent)
        elif isinstance(parent, ast.Attribute) and parent.attr in stores and isinstance(parent.ctx, ast.Load):
            reads.append(parent)
        else:
            return None
    return (calls, reads) if calls else None


def _renamed(text: str, me: str, outer_self: str, names: dict[str, str]) -> str | None:
    """``text`` (an expression) with each ``me.a`` of ``names`` as ``outer_self.<names[a]>``."""
    try:
        expr = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    smap = SourceMap(text)
    splices = [Splice(*smap.span(n), f"{outer_self}.{names[n.attr]}") for n in ast.walk(expr)
               if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == me and n.attr in names]
    return apply_splices(text, splices)


def _new_names(tree: ast.Module, outer: ast.ClassDef, m: str, stores: dict[str, ast.expr],
               reads: list[ast.Attribute]) -> dict[str, str] | None:
    """The outer module's attribute for each stored one: its own name where the outer class uses no attribute of
    that name (but the reads ``self.m.a`` that become it), else ``m_a`` where nothing in the module does."""
    rewritten = {id(r) for r in reads}
    in_outer = {n.attr for n in ast.walk(outer) if isinstance(n, ast.Attribute) and id(n) not in rewritten}
    anywhere = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names = {}
    for attr in stores:
        name = attr if attr not in in_outer else f"{m}_{attr}"
        if name != attr and name in anywhere:
            return None
        names[attr] = name
    return names if len(set(names.values())) == len(names) else None


def _candidate(source: str, tree: ast.Module, smap: SourceMap, parents: dict[int, ast.AST], scopes,
               cls: ast.ClassDef) -> str | None:
    inner = _inner(cls)
    found = _construction(tree, parents, cls) if inner else None
    if found is None:
        return None
    init, stores, forward, expr = inner
    outer, method, stmt, call, m = found
    uses = _uses(tree, parents, outer, stmt.targets[0], m, stores)
    names = _new_names(tree, outer, m, stores, uses[1]) if uses else None
    where = _full_lines(smap, stmt) if names else None
    gone = _full_lines(smap, cls) if where else None
    if gone is None:
        return None
    outer_self = _self_name(method)
    lines = []
    for attr, value in stores.items():
        text = _stored_value(smap, scopes, parents, init, call, value)
        if text is None:
            return None
        lines.append(f"{where[2]}{outer_self}.{names[attr]} = {text}{smap.default_newline()}")
    splices = [Splice(where[0], where[1], "".join(lines)), Splice(gone[0], gone[1], "")]
    me = _self_name(forward)
    for use in uses[0]:
        use_self = use.func.value.id  # type: ignore[attr-defined]
        text = _substitute_params(smap, scopes, parents, _without_first(forward.args), use, expr, forward,
                                  exclude=frozenset({me}))
        text = _renamed(text, me, use_self, names) if text is not None else None
        if text is None:
            return None
        splices.append(Splice(*smap.span(use), _placed(parents, use, expr, text)))
    for read in uses[1]:
        splices.append(Splice(*smap.span(read), f"{read.value.value.id}.{names[read.attr]}"))  # type: ignore[attr-defined]
    return apply_splices(source, splices)


def nested_module_candidates(source: str) -> list[str]:
    """One candidate per module class built once inside another module, whose ``forward`` is one expression
    (see the module's docstring)."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    bases = _class_bases(tree)
    out = []
    for cls in _plain_classes(tree, bases):
        candidate = _candidate(source, tree, smap, parents, scopes, cls)
        if candidate is not None and candidate != source:
            out.append(candidate)
    return out
