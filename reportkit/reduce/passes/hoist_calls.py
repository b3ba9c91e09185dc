"""A one-use function called inside a statement runs just before it: its body hoisted, the call its result.

``shards = Prefetcher(make_shards()).run()`` with ``def make_shards(n=12): ...; return shards`` becomes
``n = 12`` / the body / ``Prefetcher(shards).run()``: what a person does with a helper called once as an
argument (the statement-level inliner only takes ``x = f(...)`` / ``f(...)`` / ``return f(...)``).

Only where that is the same program: the function is module-level, defined and used once, returns only
at its end (``return E``), has no ``yield`` / ``await`` / ``global``; the call is the first thing its
statement evaluates (the first argument of a plain call, the object of an attribute or subscript, the
left operand, an ``if`` / ``for`` / ``with`` header: see :func:`reportkit.reduce.passes.declass._first_evaluated`),
not in an ``elif``, a ``while`` test, a lambda or a comprehension; a default it uses is a literal (a
default is evaluated once, where the function is defined); its locals mean nothing else where it lands
(the inliner's rule, and no mention of them in the rest of the statement); in a function, no name the
body reads as a global is a local there. The pass proposes; the tester decides.
"""

from __future__ import annotations

import ast

from .declass import _first_evaluated
from .edits import Splice, apply_splices
from .scopes import Scopes
from .source import SourceMap, block_text, parses
from .statements import (
    _bind_arguments,
    _full_lines,
    _inlinable,
    _locals_clash,
    _names_in,
    _one_use_calls,
    _parameter_assignment,
)
from .wrappers import _constant_expression, _enclosing_stmt, _placed


def _returned(func: ast.FunctionDef) -> ast.expr | None:
    """``E`` of a function that can run inline and returns only at its end: ``def make(n=12): ...; return E``
    (no ``yield`` / ``await`` / ``global``, no decorator, no ``*args``); None otherwise."""
    if not _inlinable(func) or not func.body or not isinstance(func.body[-1], ast.Return):
        return None
    return func.body[-1].value


def _hoist_site(smap: SourceMap, parents: dict[int, ast.AST], call: ast.Call) -> ast.stmt | None:
    """The statement ``call`` is the first thing of, not alone: ``Prefetcher(make()).run()``, ``y = make() + 1``,
    ``for t in make():``; None for ``x = make()`` / ``make()`` / ``return make()`` (the statement-level
    inliner's), a ``while`` test or an ``elif`` (evaluated again, or only after other tests), a call in a
    lambda, a comprehension or a function header, or one evaluated after something else (``f(a, make())``)."""
    site, bound_here = _enclosing_stmt(parents, call)
    if site is None or bound_here or isinstance(site, (ast.While, ast.FunctionDef, ast.AsyncFunctionDef,
                                                         ast.ClassDef)):
        return None
    if parents.get(id(call)) is site and isinstance(site, (ast.Expr, ast.Assign, ast.Return)):
        return None  # the statement-level inliner's
    if isinstance(site, ast.If) and smap.source.startswith("elif", smap.span(site)[0]):
        return None
    return site if _first_evaluated(parents, call, site) else None


def _late_default(func: ast.FunctionDef, call: ast.Call, bound: dict[str, str]) -> bool:
    """A default the body reads and the call does not pass is not a literal (``def f(d=make_dict())``: evaluated
    once, where the function is defined, not where its body lands)."""
    passed = {p.arg for p in func.args.args[:len(call.args)]} | {k.arg for k in call.keywords}
    defaults = dict(zip([a.arg for a in func.args.args][len(func.args.args) - len(func.args.defaults):],
                        func.args.defaults))
    defaults.update({a.arg: d for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is not None})
    used = _names_in(func.body)
    return any(name in used and name not in passed and not _constant_expression(defaults[name])
               for name in bound if name in defaults)


def _lands_elsewhere(scopes: Scopes, parents: dict[int, ast.AST], func: ast.FunctionDef, call: ast.Call,
                     site: ast.stmt, bound: dict[str, str]) -> bool:
    """The hoisted body's names would mean something else at ``site``: a local of ``func`` the site's scope
    uses (the inliner's rule, :func:`_locals_clash`) or the rest of the statement mentions (``y = make() + n``
    for a body binding ``n``), or, in a function, a global the body reads that is a local there."""
    own = scopes.locals.get(id(func), set())
    if _locals_clash(scopes, parents, func, site, bound):
        return True
    call_nodes = {id(n) for n in ast.walk(call)}
    rest = {n.id for n in ast.walk(site) if isinstance(n, ast.Name) and id(n) not in call_nodes}
    if own & rest:
        return True  # the statement reads (or binds) a name the hoisted body binds
    site_scope = scopes.scope_of(site)
    if site_scope is not scopes.tree:
        free = {n.id for n in ast.walk(func) if isinstance(n, ast.Name) and n.id not in own}
        if free & scopes.locals.get(id(site_scope), set()):
            return True  # a global the body reads is a local where it lands
    return False


def _hoisted(source: str, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], func: ast.FunctionDef,
             call: ast.Call, site: ast.stmt, result: ast.expr) -> str | None:
    """``s = P(make()).run()`` with ``def make(n=12): BODY; return E`` -> ``n = 12`` / ``BODY`` /
    ``s = P(E).run()``, the definition gone; None where that is not the same program (module docstring)."""
    def_start = smap.stmt_span(func)[0]
    site_scope = scopes.scope_of(site)
    if site_scope is scopes.tree and smap.stmt_span(site)[0] < def_start:
        return None  # called before it is defined: a NameError
    if isinstance(site_scope, ast.ClassDef):
        return None
    bound = _bind_arguments(smap, func, call)
    where = _full_lines(smap, site)
    def_lines = _full_lines(smap, func)
    if bound is None or where is None or def_lines is None:
        return None
    if _late_default(func, call, bound) or _lands_elsewhere(scopes, parents, func, call, site, bound):
        return None
    line_start, line_end, indent = where
    text = _parameter_assignment(bound, _names_in(func.body), indent, smap.default_newline())
    if func.body[:-1]:
        text += block_text(smap, func.body[:-1], indent)
    call_start, call_end = smap.span(call)
    value = _placed(parents, call, result, smap.text(result))
    if (isinstance(parents.get(id(call)), (ast.If, ast.For, ast.withitem)) and "\n" not in value
            and not isinstance(result, (ast.Tuple, ast.NamedExpr, ast.Yield, ast.Lambda))):
        value = smap.text(result)  # a header's expression stands alone
    statement = source[line_start:call_start] + value + source[call_end:line_end]
    candidate = apply_splices(source, [Splice(line_start, line_end, text + statement),
                                       Splice(def_lines[0], def_lines[1], "")])
    return candidate if candidate is not None and parses(candidate) else None


def hoist_call_candidates(source: str) -> list[str]:
    """One candidate per one-use function called (not alone) as the first thing a statement evaluates."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    scopes: Scopes | None = None
    out: list[str] = []
    for func, call, parents in _one_use_calls(tree):
        result = _returned(func)
        site = None if result is None else _hoist_site(smap, parents, call)
        if result is None or site is None:
            continue
        def_start, def_end = smap.stmt_span(func)
        if def_start <= smap.stmt_span(site)[0] < def_end:
            continue  # recursive
        scopes = scopes or Scopes(tree)
        candidate = _hoisted(source, smap, scopes, parents, func, call, site, result)
        if candidate is not None:
            out.append(candidate)
    return out


__all__ = ["hoist_call_candidates"]
