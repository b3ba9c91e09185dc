"""Modules that do nothing, still built and called: their calls become what the call returns.

What reduction leaves of a model's head or a wrapper whose code went (``class ClassifierHead(nn.Module):
pass``, a ``forward`` that is ``pass`` or returns its input) is still built and called: ``self.head =
ClassifierHead()`` … ``return self.head(features)``. HDD cannot delete the call (its value is used) nor
the class (the call reads it). A person replaces the call by what it returns: ``features`` (an identity)
or ``None`` (a ``forward`` that returns nothing); the class and its constructions are then unused and the
unused-names pass removes them.
"""

from __future__ import annotations

import ast

from .edits import Splice, apply_splices
from .scaffold import _instance_calls
from .scopes import scopes_of
from .source import SourceMap
from .wrappers import _class_bases, _docstring_or_pass, _parents, _parse, _placed, _plain_classes, _super_init

__all__ = ["empty_subclass_candidates", "trivial_module_candidates"]


def _returns(func: ast.FunctionDef) -> int | None | bool:
    """What a method whose body does nothing returns: the index of the parameter it returns as it is
    (``return x``: 1), None (``pass``, ``return``, ``return None``), False when it does something else
    (or takes ``*``/``**``, keyword-only, positional-only parameters, or is decorated)."""
    a = func.args
    if func.decorator_list or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        return False
    body = [s for s in func.body if not _docstring_or_pass(s)]
    if not body:
        return None
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    value = body[0].value
    if value is None or isinstance(value, ast.Constant) and value.value is None:
        return None
    names = [p.arg for p in a.args]
    if isinstance(value, ast.Name) and value.id in names[1:]:
        return names.index(value.id)
    return False


def _trivial(cls: ast.ClassDef) -> tuple[ast.FunctionDef | None, int | None] | None:
    """``(callee, returned)`` of a class that does nothing: its body a docstring or ``pass``, an ``__init__``
    that only calls ``super().__init__()``, and at most the method its objects are called through — ``__call__``,
    or a torch module's ``forward`` (a class with a base) — doing nothing (:func:`_returns`). ``callee`` None:
    the objects cannot be called (a call is never reached where the failure stays: an identity stands for it)."""
    methods: dict[str, ast.FunctionDef] = {}
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef):
            methods[stmt.name] = stmt
        elif not _docstring_or_pass(stmt):
            return None
    init = methods.pop("__init__", None)
    if init is not None and (init.decorator_list or not all(_super_init(s) or _docstring_or_pass(s) for s in init.body)):
        return None
    name = "__call__" if "__call__" in methods or not cls.bases else "forward"
    callee = methods.pop(name, None)
    if methods:
        return None
    if callee is None:
        return None, 1
    returned = _returns(callee)
    if returned is False:
        return None
    return callee, returned  # type: ignore[return-value]


def _replacement(smap: SourceMap, parents: dict[int, ast.AST], call: ast.Call, callee: ast.FunctionDef | None,
                 returned: int | None) -> str | None:
    """The text for ``call`` of an object of a class that does nothing: the argument it returns (by
    position or by keyword), or ``None``; None when the call spreads ``*``/``**`` or lacks that argument."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if returned is None:
        return "None"
    arg: ast.expr | None = call.args[returned - 1] if returned - 1 < len(call.args) else None
    if arg is None and callee is not None:
        param = callee.args.args[returned].arg
        arg = next((k.value for k in call.keywords if k.arg == param), None)
    if arg is None or (callee is None and (len(call.args) != 1 or call.keywords)):
        return None
    return _placed(parents, call, arg, smap.text(arg))


def trivial_module_candidates(source: str) -> list[str]:
    """Each call of the objects of a module-level class that does nothing (:func:`_trivial`) replaced by what
    it returns: the input it returns (an identity; where the objects cannot be called at all, the call's one
    argument), or ``None`` (``forward`` is ``pass``). One candidate per class, every call of its objects at
    once; only where each of them is in sight (``C()(x)``, ``head = C()`` … ``head(x)``, ``self.head(x)`` where
    ``self.head = C()``: :func:`reportkit.reduce.passes.scaffold._instance_calls`; not an object passed on,
    kept in a container or exported), and no other class derives from it."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    for cls in _plain_classes(tree, _class_bases(tree)):
        found = _trivial(cls)
        if found is None:
            continue
        callee, returned = found
        calls = _instance_calls(tree, parents, scopes, cls)
        if not calls:
            continue
        splices: list[Splice] = []
        for call in calls:
            assert isinstance(call, ast.Call)
            text = _replacement(smap, parents, call, callee, returned)
            if text is None:
                break
            splices.append(Splice(*smap.span(call), text))
        else:
            candidate = apply_splices(source, splices)
            if candidate is not None:
                out.append(candidate)
    return out


def empty_subclass_candidates(source: str) -> list[str]:
    """A module-level class whose body is only a docstring or ``pass``, with one base and nothing else
    (``class Model(torch.nn.Module): pass``, what reduction leaves of a model whose layers went, still built:
    ``torch.optim.Adam(Model().parameters())``): every read of its name becomes its base (``torch.nn.Module()``),
    and the class, then unread, goes with the unused-names pass. One candidate per class; not where the name is
    bound more than once, nor an exception's class (its name is what a failure raises)."""
    tree, smap = _parse(source)
    out: list[str] = []
    for stmt in tree.body:
        if not (isinstance(stmt, ast.ClassDef) and len(stmt.bases) == 1 and not stmt.keywords
                and not stmt.decorator_list and all(_docstring_or_pass(s) for s in stmt.body)):
            continue
        names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == stmt.name]
        binds = [n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                 and n.name == stmt.name]
        reads = [n for n in names if isinstance(n.ctx, ast.Load)]
        if not reads or len(reads) != len(names) or len(binds) != 1:
            continue
        base = smap.text(stmt.bases[0])
        if base.rsplit(".", 1)[-1].endswith(("Error", "Exception", "Warning")):
            continue  # (an exception of the script's own: its name is what a failure raises and reports)
        candidate = apply_splices(source, [Splice(*smap.span(n), base) for n in reads])
        if candidate is not None:
            out.append(candidate)
    return out
