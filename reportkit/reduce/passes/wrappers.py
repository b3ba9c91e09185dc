"""More scaffolding passes: the wrappers a person removes by hand around the failing code.

* a list built by ``xs = []`` and consecutive ``xs.append(a)`` becomes ``xs = [a, ...]``; a parallel
  assignment ``a, b = x, y`` becomes two -- :func:`list_build_candidates`;
* a chain called at once, ``nn.Sequential(a, b)(x)``, becomes ``b(a(x))`` --
  :func:`sequential_call_candidates` (and :func:`sequential_call_build_candidates` when more than one
  of the modules is built there: nested calls build them in the reverse order);
* a module whose ``forward`` only delegates to one submodule (``return self.m(x)``) is replaced,
  where it is constructed, by that submodule's construction (a forward that makes the submodule's inputs
  itself, ``return self.m(torch.randn(1, 2))``, gives them to each call of the object instead) --
  :func:`delegating_module_candidates`;
* a small helper (``def f(...): return EXPR``) called several times is inlined at every call site --
  :func:`helper_inline_candidates`;
* a factory ``@classmethod def build(cls, ...): return cls(...)`` becomes the constructor call at
  each ``C.build(...)`` -- :func:`factory_candidates`;
* a map-style dataset with a constant ``__len__`` and a ``__getitem__`` that reads nothing of
  ``self`` becomes the list of its items, built by that code -- :func:`dataset_list_candidates`;
* an expression statement whose result is never used, wrapped around a call that fails
  (``F.cross_entropy(model(x))``), becomes that call -- :func:`discarded_call_candidates`.

Substitutions are hygienic (:func:`_substitute_params`): an argument that is not a plain name or
constant is used exactly once and in its order, a default is used only if it is a constant
expression, and every other name of the inlined expression must mean the module-level binding both
where it was written and where it goes. Like every pass, these only propose candidates.
"""

from __future__ import annotations

import ast
import types
from typing import NamedTuple

from .edits import BodyInfo, Delete, Splice, apply_edits, apply_splices, walk_bodies
from .scopes import Scopes, node_index, own_super_class, scopes_of
from .source import SourceMap, block_text
from .statements import _SCOPED, _bind_arguments, _full_lines, _names_in, _parents, import_binding
from .statements import _parse as _shared_parse

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call, ast.List, ast.Tuple, ast.Dict,
          ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)
#: Arguments that may be substituted several times (or not at all): evaluating them has no effect.
_PURE = (ast.Name, ast.Constant)
_BUILDS = (ast.Call, ast.Lambda, ast.NamedExpr, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp,
           ast.SetComp, ast.GeneratorExp, ast.Await, ast.Yield, ast.YieldFrom)
#: What a function's returned expression may not hold to become a lambda's body.
_NOT_IN_LAMBDA = (ast.Yield, ast.YieldFrom, ast.Await, ast.NamedExpr)
_COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)
#: A dataset longer than this stays a class (its items would not be readable as a list).
_MAX_ITEMS = 16


def _parse(source: str) -> tuple[ast.Module, SourceMap]:
    return _shared_parse(source)  # (one tree per version for all passes, with its index and parent map)


def _first_match(matchers, *args) -> list[str]:
    """The candidates of the first of ``matchers`` that recognises its shape at ``args`` (a matcher returns
    None when the shape is not its own, a list, maybe empty, when it is); none if none does."""
    for matcher in matchers:
        found = matcher(*args)
        if found is not None:
            return found
    return []


def _wrapped(node: ast.expr, text: str) -> str:
    return text if isinstance(node, _ATOMS) else f"({text})"


def _placed(parents: dict[int, ast.AST], site: ast.expr, expr: ast.expr, text: str) -> str:
    """``text`` (of ``expr``) to replace ``site``: parenthesized unless an atom or where any
    expression stands alone (an argument, an element, a statement's value)."""
    parent = parents.get(id(site))
    alone = (isinstance(parent, (ast.keyword, ast.List, ast.Tuple, ast.Set, ast.Expr, ast.Return, ast.Assign))
             or isinstance(parent, ast.Call) and site is not parent.func)
    if isinstance(expr, ast.Tuple) and not text.startswith("("):
        return f"({text})"  # ``return a, b``: a bare tuple
    if "\n" in text:
        return f"({text})"  # implicit string concatenation or a line break outside brackets
    if alone and not isinstance(expr, (ast.Lambda, ast.NamedExpr, ast.Yield)):
        return text
    return _wrapped(expr, text)


def _callee(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _constant_expression(node: ast.expr) -> bool:
    allowed = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.unaryop, ast.operator, ast.expr_context)
    return all(isinstance(n, allowed) for n in ast.walk(node))


def _enclosing_stmt(parents: dict[int, ast.AST], node: ast.AST) -> tuple[ast.stmt | None, set[str]]:
    """The statement holding ``node`` and the names bound by lambdas / comprehensions around it."""
    bound: set[str] = set()
    cur: ast.AST | None = parents.get(id(node))
    while cur is not None and not isinstance(cur, ast.stmt):
        if isinstance(cur, _COMPS):
            if isinstance(cur, ast.Lambda):
                bound.update(a.arg for a in ast.walk(cur.args) if isinstance(a, ast.arg))
            else:
                bound.update(n.id for g in cur.generators for n in ast.walk(g.target) if isinstance(n, ast.Name))
        cur = parents.get(id(cur))
    return cur, bound


def _module_level_at(scopes: Scopes, parents: dict[int, ast.AST], node: ast.AST, name: str) -> bool:
    """``name`` read where ``node`` is means the module-level binding (or a builtin)."""
    stmt, bound = _enclosing_stmt(parents, node)
    if stmt is None or name in bound:
        return False
    scope = scopes.scope_of(stmt)
    if isinstance(scope, ast.ClassDef) and name in scopes.locals.get(id(scope), set()):
        return False
    return scopes.resolve(scope, name) is scopes.tree


def _without_first(args: ast.arguments) -> types.SimpleNamespace:
    """A function-like object whose parameters are ``args`` without ``self`` / ``cls``."""
    rest = args.args[1:]
    return types.SimpleNamespace(args=ast.arguments(
        posonlyargs=[], args=rest, vararg=None, kwonlyargs=args.kwonlyargs, kw_defaults=args.kw_defaults,
        kwarg=None, defaults=args.defaults[-len(rest):] if rest and args.defaults else []))


def _argument_nodes(args: ast.arguments, call: ast.Call) -> tuple[dict[str, ast.expr], dict[str, ast.expr]]:
    """(parameter -> its argument in ``call``, parameter -> its default) of the parameters ``args``."""
    arg_nodes: dict[str, ast.expr] = {p.arg: a for p, a in zip(args.args, call.args)}
    arg_nodes.update({k.arg: k.value for k in call.keywords if k.arg})
    defaults = dict(zip([p.arg for p in args.args][len(args.args) - len(args.defaults):], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return arg_nodes, defaults


def _parameter_uses(scopes: Scopes, parents: dict[int, ast.AST], call: ast.Call, expr: ast.expr, where: ast.AST,
                    params: list[str], exclude: frozenset[str]) -> dict[str, list[ast.Name]] | None:
    """The reads of each parameter in ``expr``; None where a parameter is stored to, or another name read
    there is a local where it is written (``where``) or means something else at ``call``."""
    names = [n for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id not in exclude]
    uses: dict[str, list[ast.Name]] = {}
    for n in names:
        if n.id in params:
            if not isinstance(n.ctx, ast.Load):
                return None
            uses.setdefault(n.id, []).append(n)
        elif scopes.resolve(where, n.id) is not scopes.tree or not _module_level_at(scopes, parents, call, n.id):
            return None
    return uses


def _evaluated_alike(params: list[str], arg_nodes: dict[str, ast.expr], defaults: dict[str, ast.expr],
                     uses: dict[str, list[ast.Name]]) -> bool:
    """Each parameter's value is evaluated as often where it is substituted as in the call: a default
    used only if it is a constant expression (it is evaluated once, where the function is defined), an
    argument with effects used exactly once."""
    for param in params:
        node = arg_nodes.get(param)
        count = len(uses.get(param, []))
        if node is None:
            if count and not _constant_expression(defaults[param]):
                return False
        elif not isinstance(node, _PURE) and count != 1:
            return False
    return True


def _effects_in_order(smap: SourceMap, arg_nodes: dict[str, ast.expr], uses: dict[str, list[ast.Name]],
                      expr: ast.expr) -> bool:
    """The arguments with effects, substituted, are evaluated in the order the call evaluated them, and
    before any call ``expr`` makes."""
    effectful = sorted((a for a in arg_nodes.values() if not isinstance(a, _PURE)),
                       key=lambda a: (a.lineno, a.col_offset))
    order = [smap.span(uses[p][0])[0] for a in effectful for p, v in arg_nodes.items() if v is a]
    if order != sorted(order):
        return False
    return not (order and any(isinstance(n, ast.Call) and smap.span(n)[1] <= order[-1] for n in ast.walk(expr)))


def _substitute_params(smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], func: object,
                       call: ast.Call, expr: ast.expr, where: ast.AST, *,
                       exclude: frozenset[str] = frozenset()) -> str | None:
    """The text of ``expr`` (written in ``func``) with ``call``'s arguments for ``func``'s parameters,
    to be placed where ``call`` is; None if that would not mean the same.

    ``func`` has ``args`` (an ``ast.arguments``, already without ``self``); ``where`` is the scope
    ``expr`` is written in. Names in ``exclude`` are neither parameters nor free names (the caller
    rewrites them). Arguments with effects (anything but a name or a constant) must be used exactly
    once, in the call's order, and before any call the expression makes.
    """
    args: ast.arguments = func.args  # type: ignore[attr-defined]
    if args.vararg or args.kwarg or args.posonlyargs:
        return None
    if any(isinstance(n, (*_SCOPED, ast.JoinedStr)) for n in ast.walk(expr)) or _in_fstring(parents, call):
        return None
    bound = _bind_arguments(smap, func, call)  # type: ignore[arg-type]
    if bound is None:
        return None
    params = [p.arg for p in [*args.args, *args.kwonlyargs]]
    arg_nodes, defaults = _argument_nodes(args, call)
    uses = _parameter_uses(scopes, parents, call, expr, where, params, exclude)
    if (uses is None or not _evaluated_alike(params, arg_nodes, defaults, uses)
            or not _effects_in_order(smap, arg_nodes, uses, expr)):
        return None
    start, end = smap.span(expr)
    splices = []
    for param, nodes in uses.items():
        node = arg_nodes.get(param, defaults.get(param))
        text = bound[param] if isinstance(node, _ATOMS) else f"({bound[param]})"
        splices.extend(Splice(smap.span(n)[0] - start, smap.span(n)[1] - start, text) for n in nodes)
    return apply_splices(smap.source[start:end], splices)


def _returned(func: ast.FunctionDef) -> ast.expr | None:
    body = [b for b in func.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
    if len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value is not None:
        return body[0].value
    return None


class _Names:
    """Per name, from one walk of the tree: its loads and how many bindings it has anywhere."""

    def __init__(self, tree: ast.Module) -> None:
        self.loads: dict[str, list[ast.Name]] = {}
        self.other: set[str] = set()  # stored, deleted, a parameter, imported, global/nonlocal somewhere
        self.defs: dict[str, int] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load):
                    self.loads.setdefault(node.id, []).append(node)
                else:
                    self.other.add(node.id)
            elif isinstance(node, (*_FUNCS, ast.ClassDef)):
                self.defs[node.name] = self.defs.get(node.name, 0) + 1
            elif isinstance(node, ast.alias):
                self.other.add(node.asname or node.name.split(".")[0])
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.other.update(node.names)
            elif isinstance(node, ast.arg):
                self.other.add(node.arg)


def _names(tree: ast.Module) -> _Names:
    index = getattr(tree, "_reportkit_names", None)
    if index is None:
        index = _Names(tree)
        tree._reportkit_names = index  # type: ignore[attr-defined]
    return index


def _calls_of(tree: ast.Module, parents: dict[int, ast.AST], name: str) -> list[ast.Call] | None:
    """Every load of the module-level ``name``, when each one is the function of a call."""
    calls = []
    for node in _names(tree).loads.get(name, []):
        if own_super_class(parents, node):
            continue
        parent = parents.get(id(node))
        if not (isinstance(parent, ast.Call) and parent.func is node):
            return None
        calls.append(parent)
    return calls


def _defined_once(tree: ast.Module, name: str) -> bool:
    """``name`` is bound by exactly one ``def`` / ``class`` and nothing else, anywhere."""
    index = _names(tree)
    return index.defs.get(name, 0) == 1 and name not in index.other


def _in_fstring(parents: dict[int, ast.AST], node: ast.AST) -> bool:
    cur = parents.get(id(node))
    while cur is not None and not isinstance(cur, ast.stmt):
        if isinstance(cur, ast.JoinedStr):
            return True
        cur = parents.get(id(cur))
    return False


def _delete_lines(smap: SourceMap, stmt: ast.stmt) -> Splice | None:
    where = _full_lines(smap, stmt)
    return None if where is None else Splice(where[0], where[1], "")


def _plain_functions(tree: ast.Module):
    """The module's top-level functions a pass may rewrite: no decorators, defined once (and bound nowhere else)."""
    for func in tree.body:
        if isinstance(func, ast.FunctionDef) and not func.decorator_list and _defined_once(tree, func.name):
            yield func


def _plain_classes(tree: ast.Module, bases: set[str]):
    """The module's top-level classes a pass may rewrite: no decorators, no metaclass keywords, no
    subclasses (``bases``: the names other classes derive from), defined once."""
    for cls in tree.body:
        if (isinstance(cls, ast.ClassDef) and not cls.decorator_list and not cls.keywords
                and cls.name not in bases and _defined_once(tree, cls.name)):
            yield cls


def _delete_member(smap: SourceMap, cls: ast.ClassDef, stmt: ast.stmt) -> Splice | None:
    """Delete ``stmt`` from the body of ``cls``; a body left without code gets a ``pass`` in its place."""
    gone = _delete_lines(smap, stmt)
    if gone is None or not all(s is stmt or _docstring_or_pass(s) for s in cls.body):
        return gone
    return Splice(gone.start, gone.end, f"{smap.source[gone.start:smap.stmt_span(stmt)[0]]}pass"
                                        f"{smap.default_newline()}")


# ------------------------------------------------------------------------ append-built lists
def _append_of(stmt: ast.stmt, name: str) -> ast.expr | None:
    """E of the statement ``name.append(E)``."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func = call.func
    if (isinstance(func, ast.Attribute) and func.attr == "append" and isinstance(func.value, ast.Name)
            and func.value.id == name and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], ast.Starred)):
        return call.args[0]
    return None


def _item_of(stmt: ast.stmt, name: str) -> tuple[ast.expr, ast.expr] | None:
    """(K, E) of the statement ``name[K] = E`` with a literal key ``K`` and an ``E`` that does not read ``name``.

    Not a computed key (``out[key] = value``): that is data flowing into the dict -- a merge, a copy --
    which, where the failure's values are the bug, is the computation to keep (tests/test_cause_rule.py)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Subscript)):
        return None
    target = stmt.targets[0]
    if (isinstance(target.value, ast.Name) and target.value.id == name and isinstance(target.slice, ast.Constant)
            and name not in {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)}):
        return target.slice, stmt.value
    return None


def _empty_bound(stmt: ast.stmt, display: type, builtin: str) -> str | None:
    """``NAME`` of ``NAME = []`` or ``NAME = list()`` (``display`` ``ast.List``, ``builtin`` ``"list"``; of
    ``NAME = {}`` / ``NAME = dict()`` alike), else None."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    value = stmt.value
    empty = (isinstance(value, display) and not (value.keys if isinstance(value, ast.Dict) else value.elts)
             or isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == builtin
             and not value.args and not value.keywords)
    return stmt.targets[0].id if empty else None


def _consecutive(stmts: list[ast.stmt], i: int, name: str, item_of) -> tuple[int, int, list]:
    """After ``stmts[i]``, which binds ``name``: the statements that do not mention ``name`` are skipped, then
    the run of statements ``item_of(stmt, name)`` reads an item from is taken: (the index of the first of
    them, the index after the last, their items)."""
    j = i + 1
    while j < len(stmts) and item_of(stmts[j], name) is None and name not in _names_in([stmts[j]]):
        j += 1
    first = j
    items = []
    while j < len(stmts) and (item := item_of(stmts[j], name)) is not None:
        items.append(item)
        j += 1
    return first, j, items


def _dict_build(source: str, smap: SourceMap, scopes: Scopes, info: BodyInfo, i: int) -> list[str] | None:
    """``d = {}`` (or ``dict()``) followed by ``d["a"] = x`` / ``d["b"] = y`` -> ``d = {"a": x, "b": y}``, where the
    first item is set (statements between must not mention ``d``, as for lists).

    Literal keys only (a display evaluates each key before its value, an item assignment the value first:
    with literals the order of effects is the same); later duplicates win in both.
    """
    stmts = info.seq.stmts
    name = _empty_bound(stmts[i], ast.Dict, "dict")
    if name is None:
        return None
    first, j, items = _consecutive(stmts, i, name, _item_of)
    where = _full_lines(smap, stmts[first]) if items else None
    if where is None:
        return None
    nl = smap.default_newline()
    text = f"{where[2]}{name} = {{{', '.join(f'{smap.text(k)}: {smap.text(v)}' for k, v in items)}}}{nl}"
    deleted = [i, *range(first + 1, j)]
    candidate = apply_edits(source, [Splice(where[0], where[1], text), *(Delete(info.seq, k) for k in deleted)])
    return None if candidate is None else [candidate]


def _read_outside(scopes: Scopes, stmt: ast.stmt, names: set[str]) -> bool:
    """One of ``names`` occurs in the scope of ``stmt`` (nested scopes included) outside ``stmt``."""
    scope = scopes.scope_of(stmt)
    inside = {id(n) for n in ast.walk(stmt)}
    return any(isinstance(n, ast.Name) and n.id in names and id(n) not in inside for n in ast.walk(scope))


def _append_loop(smap: SourceMap, stmt: ast.stmt, name: str) -> tuple[str, set[str]] | None:
    """``for T in IT: name.append(E)`` (or ``for T in IT: if C: name.append(E)``) -> the text of
    ``[E for T in IT (if C)]`` and the loop's target names; None if it is not that loop."""
    if not isinstance(stmt, ast.For) or stmt.orelse or len(stmt.body) != 1:
        return None
    body, test = stmt.body[0], None
    if isinstance(body, ast.If) and not body.orelse and len(body.body) == 1:
        body, test = body.body[0], body.test
    value = _append_of(body, name)
    targets = {n.id for n in ast.walk(stmt.target) if isinstance(n, ast.Name)}
    if value is None or not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Store, ast.Load))
                                for n in ast.walk(stmt.target)):
        return None
    parts = [stmt.iter, value, *([test] if test is not None else [])]
    if any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)) or isinstance(n, ast.Name)
           and n.id == name for p in parts for n in ast.walk(p)):
        return None
    text = f"[{smap.text(value)} for {smap.text(stmt.target)} in {smap.text(stmt.iter)}"
    if test is not None:
        text += f" if {smap.text(test)}"
    return text + "]", targets


def _parallel_pairs(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr]] | None:
    """``a, (b, c) = x, (y, z)`` -> [(a, x), (b, y), (c, z)]: a display unpacked element by element
    into names (nested alike); None if not that."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if not (isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List))
            and len(target.elts) == len(value.elts)
            and not any(isinstance(e, ast.Starred) for e in [*target.elts, *value.elts])):
        return None
    pairs: list[tuple[str, ast.expr]] = []
    for t, v in zip(target.elts, value.elts):
        sub = _parallel_pairs(t, v)
        if sub is None:
            return None
        pairs.extend(sub)
    return pairs


def _parallel_assignment(source: str, smap: SourceMap, scopes: Scopes, info: BodyInfo, i: int) -> list[str] | None:
    """``a, b = x, y`` -> ``a = x`` / ``b = y`` (nested displays alike), when no value reads a target and no
    target repeats."""
    stmt = info.seq.stmts[i]
    pairs = (_parallel_pairs(stmt.targets[0], stmt.value)
             if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None)
    if pairs is None or len(pairs) < 2:
        return None
    targets = [t for t, _ in pairs]
    read = {n.id for n in ast.walk(stmt.value) if isinstance(n, ast.Name)}
    where = _full_lines(smap, stmt)
    if len(set(targets)) != len(targets) or read & set(targets) or where is None:
        return []
    nl = smap.default_newline()
    text = "".join(f"{where[2]}{t} = {smap.text(v)}{nl}" for t, v in pairs)
    return [source[:where[0]] + text + source[where[1]:]]


def _list_appends(source: str, smap: SourceMap, scopes: Scopes, info: BodyInfo, i: int) -> list[str] | None:
    """``xs = []`` followed by ``xs.append(a)`` / ``xs.append(b)`` -> ``xs = [a, b]``, where the first append is.

    The appends follow each other in the same body (an append inside an ``if`` or a loop is not one
    element), the statements between ``xs = []`` and them do not mention ``xs``, and the appended values
    do not read ``xs``: the list then holds the same elements, built in the same order."""
    stmts = info.seq.stmts
    name = _empty_bound(stmts[i], ast.List, "list")
    if name is None:
        return None
    first, j, values = _consecutive(stmts, i, name, _append_of)
    if not values:
        return None
    if any(name in {n.id for n in ast.walk(v) if isinstance(n, ast.Name)} for v in values):
        return []
    where = _full_lines(smap, stmts[first])
    if where is None:
        return []
    text = f"{where[2]}{name} = [{', '.join(smap.text(v) for v in values)}]{smap.default_newline()}"
    edits = [Delete(info.seq, k) for k in [i, *range(first + 1, j)]]
    edits.append(Splice(where[0], where[1], text))  # type: ignore[arg-type]
    candidate = apply_edits(source, edits)
    return [] if candidate is None else [candidate]


def _list_loop(source: str, smap: SourceMap, scopes: Scopes, info: BodyInfo, i: int) -> list[str] | None:
    """``xs = []`` followed by a loop that only appends, ``for t in it: xs.append(f(t))`` (optionally under
    an ``if``) -> ``xs = [f(t) for t in it]``, where nothing outside the loop reads its target (a
    comprehension does not leave it bound) and not in a class body (a comprehension there does not see the
    class's names)."""
    stmts = info.seq.stmts
    name = _empty_bound(stmts[i], ast.List, "list")
    if name is None:
        return None
    first, _end, values = _consecutive(stmts, i, name, _append_of)
    if values or first >= len(stmts):
        return None
    loop = _append_loop(smap, stmts[first], name)
    where = _full_lines(smap, stmts[first])
    if (loop is None or where is None or isinstance(info.owner, ast.ClassDef)
            or _read_outside(scopes, stmts[first], loop[1])):
        return []
    text = f"{where[2]}{name} = {loop[0]}{smap.default_newline()}"
    candidate = apply_edits(source, [Delete(info.seq, i), Splice(where[0], where[1], text)])
    return [] if candidate is None else [candidate]


#: The shapes :func:`list_build_candidates` writes as one statement, tried in this order at each statement.
_BUILDS_BY_HAND = (_parallel_assignment, _dict_build, _list_appends, _list_loop)


def list_build_candidates(source: str) -> list[str]:
    """A list or dict built element by element, or a parallel assignment, as one statement: one candidate
    per statement that starts such a build, from the first of :data:`_BUILDS_BY_HAND` that recognises
    it -- :func:`_parallel_assignment` (``a, b = x, y`` -> ``a = x`` / ``b = y``), :func:`_dict_build`
    (``d = {}; d["k"] = v`` -> ``d = {"k": v}``), :func:`_list_appends` (``xs = []; xs.append(a)`` ->
    ``xs = [a]``), :func:`_list_loop` (``xs = []; for t in it: xs.append(f(t))`` -> ``xs = [f(t) for t in
    it]``)."""
    tree, smap = _parse(source)
    scopes = scopes_of(tree)
    out: list[str] = []
    for info in walk_bodies(tree, smap):
        for i in range(len(info.seq.stmts)):
            out.extend(_first_match(_BUILDS_BY_HAND, source, smap, scopes, info, i))
    return out


# ------------------------------------------------------------------ nn.Sequential(...)(x)
def _sequential_modules(call: ast.Call) -> list[ast.expr] | None:
    """The modules of ``nn.Sequential(a, b)`` / ``nn.Sequential(*[a, b])``."""
    if _callee(call) != "Sequential" or call.keywords:
        return None
    if len(call.args) == 1 and isinstance(call.args[0], ast.Starred):
        inner = call.args[0].value
        if isinstance(inner, (ast.List, ast.Tuple)) and not any(isinstance(e, ast.Starred) for e in inner.elts):
            return list(inner.elts)
        return None
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    return list(call.args)


def _sequential_calls(source: str, *, builds: bool) -> list[str]:
    tree, smap = _parse(source)
    out: list[str] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and len(node.args) == 1
                and not node.keywords and not isinstance(node.args[0], ast.Starred)):
            continue
        modules = _sequential_modules(node.func)
        if not modules or len(modules) < 2:
            continue  # one module: the one-element pass
        building = sum(any(isinstance(n, _BUILDS) for n in ast.walk(m)) for m in modules)
        if (building > 1) != builds:
            continue
        text = smap.text(node.args[0])
        for module in modules:
            text = f"{_wrapped(module, smap.text(module))}({text})"
        candidate = apply_splices(source, [Splice(*smap.span(node), text)])
        if candidate is not None:
            out.append(candidate)
    return out


def sequential_call_candidates(source: str) -> list[str]:
    """``nn.Sequential(a, b)(x)`` (or ``nn.Sequential(*[a, b])(x)``) -> ``b(a(x))``, where at most one
    of the modules is built there (nested calls evaluate the modules last to first)."""
    return _sequential_calls(source, builds=False)


def sequential_call_build_candidates(source: str) -> list[str]:
    """Like :func:`sequential_call_candidates` where several modules are built in the call: they are
    then built in the reverse order (random weights differ), so it is a rebuilding pass."""
    return _sequential_calls(source, builds=True)


# ------------------------------------------------------------------- delegating modules
def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef]:
    return {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)}


def _super_init(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute) and stmt.value.func.attr == "__init__"
            and isinstance(stmt.value.func.value, ast.Call) and isinstance(stmt.value.func.value.func, ast.Name)
            and stmt.value.func.value.func.id == "super")


def _docstring_or_pass(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Pass) or isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)


def _class_bases(tree: ast.Module) -> set[str]:
    return {n.id for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for b in c.bases for n in ast.walk(b)
            if isinstance(n, ast.Name)}


def _single_store(init: ast.FunctionDef) -> tuple[str, ast.expr] | None:
    """``(m, EXPR)`` of an ``__init__(self, ...)`` whose one statement (besides ``super().__init__()``, a
    docstring, ``pass``) is ``self.m = EXPR``."""
    self_name = init.args.args[0].arg if init.args.args else None
    stores = [s for s in init.body if not (_super_init(s) or _docstring_or_pass(s))]
    if (self_name is None or len(stores) != 1 or not isinstance(stores[0], ast.Assign)
            or len(stores[0].targets) != 1):
        return None
    target = stores[0].targets[0]
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == self_name):
        return None
    return target.attr, stores[0].value


def _delegates(forward: ast.FunctionDef, attr: str) -> bool:
    """``def forward(self, x, y): return self.m(x, y)`` (or the call ``self.m(x, y)`` as a statement: the
    call's value then is ``m``'s output, not None; the tester decides whether anything used it), for
    ``attr`` ``m``: its parameters passed on as they are, no defaults, no ``*``/``**``."""
    fargs = forward.args
    if (fargs.vararg or fargs.kwarg or fargs.kwonlyargs or fargs.posonlyargs or fargs.defaults
            or not fargs.args or len(forward.body) != 1 or not isinstance(forward.body[0], (ast.Return, ast.Expr))):
        return False
    ret = forward.body[0].value
    params = [a.arg for a in fargs.args[1:]]
    return (isinstance(ret, ast.Call) and not ret.keywords and isinstance(ret.func, ast.Attribute)
            and ret.func.attr == attr and isinstance(ret.func.value, ast.Name)
            and ret.func.value.id == fargs.args[0].arg
            and [a.id if isinstance(a, ast.Name) else None for a in ret.args] == params)


def _fixed_inputs(forward: ast.FunctionDef, attr: str) -> list[ast.expr] | None:
    """The arguments of ``def forward(self): return self.m(E, ...)`` (for ``attr`` ``m``): a forward of no
    parameter of its own that calls the submodule on inputs it makes itself (``torch.randn(1, 2)``), none of
    them reading ``self`` or a local name; None otherwise."""
    fargs = forward.args
    if (fargs.vararg or fargs.kwarg or fargs.kwonlyargs or fargs.posonlyargs or fargs.defaults
            or len(fargs.args) != 1 or len(forward.body) != 1 or not isinstance(forward.body[0], ast.Return)):
        return None
    ret = forward.body[0].value
    if not (isinstance(ret, ast.Call) and not ret.keywords and ret.args and isinstance(ret.func, ast.Attribute)
            and ret.func.attr == attr and isinstance(ret.func.value, ast.Name)
            and ret.func.value.id == fargs.args[0].arg):
        return None
    if any(isinstance(a, ast.Starred) or isinstance(n, (*_SCOPED, ast.NamedExpr, ast.JoinedStr))
           or isinstance(n, ast.Name) and n.id == fargs.args[0].arg for a in ret.args for n in ast.walk(a)):
        return None
    return ret.args


def _delegating(cls: ast.ClassDef) -> tuple[ast.FunctionDef, str, ast.expr, list[ast.expr] | None] | None:
    """``(__init__, m, EXPR, inputs)`` of a class of two undecorated methods, ``__init__`` storing one object
    (:func:`_single_store`, ``self.m = EXPR``) and ``forward`` delegating to it: passing its parameters on
    (:func:`_delegates`, ``return self.m(x)``; ``inputs`` None) or calling it on inputs of its own
    (:func:`_fixed_inputs`, ``return self.m(torch.randn(1, 2))``: ``inputs``); nothing else in its body but a
    docstring or ``pass``."""
    methods = _methods(cls)
    init, forward = methods.get("__init__"), methods.get("forward")
    if (init is None or forward is None or len(methods) != 2 or init.decorator_list or forward.decorator_list
            or any(not isinstance(s, ast.FunctionDef) and not _docstring_or_pass(s) for s in cls.body)):
        return None
    store = _single_store(init)
    if store is None:
        return None
    if _delegates(forward, store[0]):
        return init, store[0], store[1], None
    inputs = _fixed_inputs(forward, store[0])
    return None if inputs is None else (init, store[0], store[1], inputs)


def _inlined_calls(smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], func: object,
                   calls: list[ast.Call], expr: ast.expr, where: ast.AST) -> list[Splice] | None:
    """Each of ``calls`` replaced by ``expr`` (written in ``where``) with its arguments for ``func``'s
    parameters (:func:`_substitute_params`); None if one of them cannot be."""
    splices = []
    for call in calls:
        text = _substitute_params(smap, scopes, parents, func, call, expr, where)
        if text is None:
            return None
        splices.append(Splice(*smap.span(call), _placed(parents, call, expr, text)))
    return splices


def _no_arg_call(parents: dict[int, ast.AST], node: ast.expr) -> ast.Call | None:
    """The call ``node()`` of ``node``, with no argument; None where ``node`` is not so called."""
    parent = parents.get(id(node))
    if isinstance(parent, ast.Call) and parent.func is node and not parent.args and not parent.keywords:
        return parent
    return None


def _bound_once(tree: ast.Module, parents: dict[int, ast.AST], construction: ast.Call) -> str | None:
    """``net`` of a module-level ``net = C(...)`` that is the only binding of ``net`` anywhere."""
    stmt = parents.get(id(construction))
    if not (isinstance(stmt, ast.Assign) and stmt in tree.body and stmt.value is construction
            and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    name = stmt.targets[0].id
    stores = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)]
    index = _names(tree)
    return name if len(stores) == 1 and name not in index.defs and not any(
        isinstance(n, ast.alias) and (n.asname or n.name.split(".")[0]) == name
        or isinstance(n, ast.arg) and n.arg == name
        or isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in ast.walk(tree)) else None


def _input_calls(tree: ast.Module, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST],
                 forward: ast.FunctionDef, calls: list[ast.Call], inputs: list[ast.expr]) -> list[Splice] | None:
    """For a module whose forward calls its submodule on inputs of its own (:func:`_fixed_inputs`): each call of
    the module object, ``C(...)()`` or ``net()`` where ``net = C(...)`` is bound once at module level and read
    only so called or for an attribute (``net.eval()``), gets those inputs, ``net(torch.randn(1, 2))``; None
    where one is used otherwise, or a name the inputs read is not the module-level binding at a call."""
    text = ", ".join(smap.source[slice(*smap.span(a))] for a in inputs)
    names = {n.id for a in inputs for n in ast.walk(a) if isinstance(n, ast.Name)}
    if any(scopes.resolve(forward, name) is not scopes.tree for name in names):
        return None
    sites: list[ast.Call] = []
    for construction in calls:
        called = _no_arg_call(parents, construction)
        if called is not None:
            sites.append(called)
            continue
        name = _bound_once(tree, parents, construction)
        if name is None:
            return None
        for load in _names(tree).loads.get(name, []):
            called = _no_arg_call(parents, load)
            if called is not None:
                sites.append(called)
            elif not isinstance(parents.get(id(load)), ast.Attribute):
                return None
    if not sites or any(not _module_level_at(scopes, parents, site, name) for site in sites for name in names):
        return None
    return [Splice(smap.span(site)[1] - 1, smap.span(site)[1] - 1, text) for site in sites]


def delegating_module_candidates(source: str) -> list[str]:
    """A module-level class whose ``__init__`` stores one object and whose ``forward`` only delegates to it
    (:func:`_delegating`: ``self.m = EXPR`` / ``return self.m(x)``): each construction ``C(args)`` becomes
    ``EXPR`` with the arguments for the constructor's parameters, and the class goes. A forward that calls the
    submodule on inputs of its own (``return self.m(torch.randn(1, 2))``) gives them to each call of the object
    instead (:func:`_input_calls`: ``net()`` -> ``net(torch.randn(1, 2))``).

    Only where ``C`` is used for constructions only, no other class derives from it, nothing else
    reads an attribute named ``m``, and the substitution is hygienic.
    """
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    bases = _class_bases(tree)
    attr_reads: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            attr_reads[node.attr] = attr_reads.get(node.attr, 0) + 1
    out: list[str] = []
    for cls in _plain_classes(tree, bases):
        found = _delegating(cls)
        if found is None or attr_reads.get(found[1], 0) != 2:  # the store in __init__ and the read in forward
            continue
        init, _attr, expr, inputs = found
        calls = _calls_of(tree, parents, cls.name)
        splices = _inlined_calls(smap, scopes, parents, _without_first(init.args), calls, expr, init) if calls else None
        if splices is not None and inputs is not None:
            given = _input_calls(tree, smap, scopes, parents, _methods(cls)["forward"], calls, inputs)
            splices = None if given is None else [*splices, *given]
        if splices is None:
            continue
        gone = _delete_lines(smap, cls)
        candidate = apply_splices(source, [*splices, *([gone] if gone else [])])
        if candidate is not None:
            out.append(candidate)
    return out


# ------------------------------------------------------------------- class constants
def _self_attributes(cls: ast.ClassDef) -> set[int]:
    """The ``self.X`` nodes (by id) in the class's own undecorated methods (``self``: the first parameter)."""
    return {id(n) for m in cls.body if isinstance(m, _FUNCS) and not m.decorator_list and m.args.args
            for n in ast.walk(m) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
            and n.value.id == m.args.args[0].arg}


def _class_body_reads(cls: ast.ClassDef) -> set[str]:
    """The names the class body reads outside its methods."""
    return {n.id for s in cls.body if not isinstance(s, _FUNCS) for n in ast.walk(s)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _class_constant(stmt: ast.stmt) -> str | None:
    """``NAME`` of a class body's ``NAME = ((16, 2, 2),)``: literals and operators only."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and _constant_expression(stmt.value)):
        return stmt.targets[0].id
    return None


def _constant_reads(tree: ast.Module, parents: dict[int, ast.AST], cls: ast.ClassDef, name: str,
                    own: set[int]) -> list[ast.Attribute] | None:
    """Every read of an attribute ``name``, when each one is ``self.name`` in the class's own methods
    (``own``) or ``C.name``, and none is in an f-string; None otherwise or when there is none."""
    reads = list(node_index(tree).attributes.get(name, ()))
    if not reads or any(not (id(r) in own or isinstance(r.value, ast.Name) and r.value.id == cls.name)
                        or _in_fstring(parents, r) for r in reads):
        return None
    return reads


def class_constant_candidates(source: str) -> list[str]:
    """A class-level constant (:func:`_class_constant`, ``LAYOUT = ((16, 2, 2),)``) read as ``self.LAYOUT``
    in the class's own methods or as ``C.LAYOUT`` (:func:`_constant_reads`) -> the literal at each read,
    and the assignment gone. Only where nothing stores that attribute, no class derives from ``C``, and
    the class body itself does not read the name."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    bases = _class_bases(tree)
    stored = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load)}
    out: list[str] = []
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef) or cls.name in bases or cls.decorator_list:
            continue
        own = _self_attributes(cls)
        body_names = _class_body_reads(cls)
        for stmt in cls.body:
            name = _class_constant(stmt)
            if name is None or name in stored or name in body_names:
                continue
            reads = _constant_reads(tree, parents, cls, name, own)
            gone = _delete_member(smap, cls, stmt) if reads else None
            if gone is None:
                continue
            text = smap.text(stmt.value)
            splices = [Splice(*smap.span(r), _placed(parents, r, stmt.value, text)) for r in reads]
            candidate = apply_splices(source, [*splices, gone])
            if candidate is not None:
                out.append(candidate)
    return out


# ------------------------------------------------------------------ modules called once
def _init_and_call(cls: ast.ClassDef) -> tuple[ast.FunctionDef, ast.FunctionDef] | None:
    """``__init__`` and ``forward`` (or ``__call__``) of a class of these two methods only (besides a
    docstring or ``pass``), both plain: no decorator, ``self`` first, no ``*``/``**``, keyword-only or
    positional-only parameters."""
    methods = _methods(cls)
    init = methods.get("__init__")
    call_name = "forward" if "forward" in methods else "__call__"
    forward = methods.get(call_name)
    if (init is None or forward is None or len(methods) != 2
            or any(not isinstance(s, ast.FunctionDef) and not _docstring_or_pass(s) for s in cls.body)):
        return None
    for m in (init, forward):
        a = m.args
        if (m.decorator_list or not a.args or a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs
                or isinstance(m, ast.AsyncFunctionDef)):
            return None
    return init, forward


def _fusable(init: ast.FunctionDef, forward: ast.FunctionDef, init_body: list[ast.stmt]) -> bool:
    """``__init__``'s code (``init_body``) then ``forward``'s can run as one function: neither reads ``self``
    (nor ``super`` / ``__class__``), ``__init__`` has no default (it would sit before ``forward``'s required
    parameters), returns nothing, binds no name ``forward`` reads and shares no parameter with it."""
    iparams = [a.arg for a in init.args.args[1:]]
    fparams = [a.arg for a in forward.args.args[1:]]
    if (init.args.defaults or set(iparams) & set(fparams)
            or any(isinstance(n, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal))
                   for s in init_body for n in ast.walk(s))
            or {init.args.args[0].arg, "super", "__class__"} & _names_in(init_body)
            or {forward.args.args[0].arg, "super", "__class__"} & _names_in(forward.body)
            or set(fparams) & _names_in(init_body)):
        return False
    init_bound = set(iparams) | {n.id for s in init_body for n in ast.walk(s)
                                 if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    init_bound |= {n.name for s in init_body for n in ast.walk(s) if isinstance(n, (*_FUNCS, ast.ClassDef))}
    return not init_bound & _names_in(forward.body)  # else forward would see __init__'s locals


def _called_at_once(smap: SourceMap, parents: dict[int, ast.AST], name: str, calls: list[ast.Call],
                    nparams: int) -> list[Splice] | None:
    """``C(a)(x)`` -> ``C(a, x)`` at each of ``calls`` (constructions of ``C``, ``name``, whose ``__init__``
    takes ``nparams`` arguments); None where one is not called at once with plain positional arguments."""
    splices = []
    for call in calls:
        outer = parents.get(id(call))
        if not (isinstance(outer, ast.Call) and outer.func is call
                and not any(isinstance(a, ast.Starred) for a in [*call.args, *outer.args])
                and not any(k.arg is None for k in [*call.keywords, *outer.keywords])
                and not call.keywords and not outer.keywords):
            return None
        args = [smap.text(a) for a in [*call.args, *outer.args]]
        if len(call.args) != nparams:
            return None
        splices.append(Splice(*smap.span(outer), f"{name}({', '.join(args)})"))
    return splices


def _fused_def(smap: SourceMap, name: str, indent: str, init_body: list[ast.stmt], init: ast.FunctionDef,
               forward: ast.FunctionDef) -> str:
    """``def C(init params..., forward params...):`` running ``init_body`` then ``forward``'s body."""
    iparams = [a.arg for a in init.args.args[1:]]
    fdefaults = forward.args.defaults
    params = iparams + [a.arg for a in forward.args.args[1:len(forward.args.args) - len(fdefaults)]]
    params += [f"{a.arg}={smap.text(d)}" for a, d in
               zip(forward.args.args[len(forward.args.args) - len(fdefaults):], fdefaults)]
    text = f"{indent}def {name}({', '.join(params)}):{smap.default_newline()}"
    if init_body:
        text += block_text(smap, init_body, indent + "    ")
    return text + block_text(smap, forward.body, indent + "    ")


def module_call_candidates(source: str) -> list[str]:
    """A module-level class with ``__init__`` and ``forward`` (or ``__call__``) (:func:`_init_and_call`)
    that use nothing of ``self`` but ``super().__init__()`` (:func:`_fusable`), each construction called at
    once (:func:`_called_at_once`: ``C(a)(x)`` -> ``C(a, x)``) -> a function ``C(init params..., forward
    params...)`` running ``__init__``'s code then ``forward``'s (:func:`_fused_def`); the function inliner
    can then put it at its call site."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    bases = _class_bases(tree)
    out: list[str] = []
    for cls in _plain_classes(tree, bases):
        methods = _init_and_call(cls)
        if methods is None:
            continue
        init, forward = methods
        init_body = [s for s in init.body if not (_super_init(s) or _docstring_or_pass(s))]
        if not _fusable(init, forward, init_body):
            continue
        calls = _calls_of(tree, parents, cls.name)
        splices = _called_at_once(smap, parents, cls.name, calls, len(init.args.args) - 1) if calls else None
        where = _full_lines(smap, cls) if splices is not None else None
        if where is None:
            continue
        text = _fused_def(smap, cls.name, where[2], init_body, init, forward)
        candidate = apply_splices(source, [Splice(where[0], where[1], text), *splices])
        if candidate is not None:
            out.append(candidate)
    return out


# --------------------------------------------------------------------------- helpers
def _free_names(func: ast.FunctionDef, expr: ast.expr) -> set[str]:
    """The names ``expr`` (``func``'s returned expression) reads that are not ``func``'s parameters."""
    return {n.id for n in ast.walk(expr) if isinstance(n, ast.Name)} - {a.arg for a in ast.walk(func.args)
                                                                         if isinstance(a, ast.arg)}


def helper_inline_candidates(source: str) -> list[str]:
    """A module-level function ``def f(params): return EXPR`` called more than once (and used for
    nothing else) -> ``(EXPR)`` with the arguments substituted at every call, and the def gone: one
    candidate per function. (Called once: :func:`reportkit.reduce.passes.inline_expression_candidates`.)"""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    for func in _plain_functions(tree):
        expr = _returned(func)
        calls = _calls_of(tree, parents, func.name)
        if expr is None or calls is None or len(calls) < 2:
            continue
        def_start, def_end = smap.stmt_span(func)
        free = _free_names(func, expr)
        if any(scopes.resolve(func, name) is not tree for name in free):
            continue
        splices = []
        for call in calls:
            start, end = smap.span(call)
            text = None if def_start <= start < def_end else _substitute_params(smap, scopes, parents, func,
                                                                                    call, expr, func)
            if text is None:
                break
            splices.append(Splice(start, end, _placed(parents, call, expr, text)))
        else:
            gone = _delete_lines(smap, func)
            if gone is None:
                continue
            candidate = apply_splices(source, [*splices, gone])
            if candidate is not None:
                out.append(candidate)
    return out


# --------------------------------------------------------------------------- forwarding functions
def _forwarded(func: ast.FunctionDef | ast.Lambda) -> ast.expr | None:
    """``def f(a, b): return g(a, b)`` (``lambda a, b: g(a, b)``), its parameters passed on as they come and nothing
    else: ``g`` (a name or a dotted name that reads no parameter); None for any other shape."""
    args = func.args
    if args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults or not args.args:
        return None
    call = func.body if isinstance(func, ast.Lambda) else _returned(func)
    params = [a.arg for a in args.args]
    if not isinstance(call, ast.Call) or call.keywords \
            or [a.id if isinstance(a, ast.Name) else None for a in call.args] != params:
        return None
    root = call.func
    while isinstance(root, ast.Attribute):
        root = root.value
    return call.func if isinstance(root, ast.Name) and root.id not in params else None


def _positional_use(parents: dict[int, ast.AST], use: ast.Name) -> bool:
    """``use`` is passed as a value, or called with positional arguments only (a keyword's name is the wrapper's)."""
    call = parents.get(id(use))
    if isinstance(call, ast.Call) and call.func is use:
        return not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args)
    return True


def forwarding_function_candidates(source: str) -> list[str]:
    """A module-level ``def f(a, b): return g(a, b)`` (a wrapper that only forwards its arguments: a person
    passes ``g`` itself) -> ``g`` at every read of ``f`` (``torch.compile(f)`` -> ``torch.compile(g)``), the
    def gone: one candidate per function. ``g``'s names must mean the module-level bindings at every read."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    for func in _plain_functions(tree):
        callee = _forwarded(func)
        if callee is None:
            continue
        root = callee
        while isinstance(root, ast.Attribute):
            root = root.value
        assert isinstance(root, ast.Name)
        uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == func.name]
        if not uses or not all(isinstance(u.ctx, ast.Load) and _positional_use(parents, u)
                               and _module_level_at(scopes, parents, u, func.name)
                               and _module_level_at(scopes, parents, u, root.id) for u in uses):
            continue
        a, b = smap.span(callee)
        text = source[a:b]
        gone = _delete_lines(smap, func)
        if gone is None:
            continue
        candidate = apply_splices(source, [*(Splice(*smap.span(u), text) for u in uses), gone])
        if candidate is not None:
            out.append(candidate)
    return out + _forwarding_lambdas(source, smap, tree, parents, scopes)


def _forwarding_lambdas(source: str, smap: SourceMap, tree: ast.Module, parents: dict[int, ast.AST],
                        scopes: Scopes) -> list[str]:
    """``lambda a, b: g(a, b)`` -> ``g`` (:func:`forwarding_function_candidates`), where ``g``'s names mean the
    module-level bindings both inside the lambda and where it stands."""
    out = []
    for lam in ast.walk(tree):
        callee = _forwarded(lam) if isinstance(lam, ast.Lambda) else None
        if callee is None or _in_fstring(parents, lam):
            continue
        root = callee
        while isinstance(root, ast.Attribute):
            root = root.value
        assert isinstance(root, ast.Name)
        if not (_module_level_at(scopes, parents, lam, root.id) and _module_level_at(scopes, parents, root, root.id)):
            continue
        a, b = smap.span(callee)
        candidate = apply_splices(source, [Splice(*smap.span(lam), source[a:b])])
        if candidate is not None:
            out.append(candidate)
    return out


# --------------------------------------------------------------------------- lambdas
def _lambda_params(args: ast.arguments) -> str | None:
    """``a, b=1, *c`` of a def's parameters for a lambda (annotations dropped); None where a default is not a
    constant (a def evaluates it once where it stands, a lambda where it is written)."""
    if not all(_constant_expression(d) for d in [*args.defaults, *(k for k in args.kw_defaults if k)]):
        return None
    bare = ast.arguments(
        posonlyargs=[ast.arg(a.arg) for a in args.posonlyargs], args=[ast.arg(a.arg) for a in args.args],
        vararg=args.vararg and ast.arg(args.vararg.arg), kwonlyargs=[ast.arg(a.arg) for a in args.kwonlyargs],
        kw_defaults=args.kw_defaults, kwarg=args.kwarg and ast.arg(args.kwarg.arg), defaults=args.defaults)
    return ast.unparse(bare)


def _passed_as_argument(parents: dict[int, ast.AST], use: ast.Name) -> bool:
    """``use`` is an argument of a call (``g(f)``, ``g(x, key=f)``), not the function called."""
    parent = parents.get(id(use))
    return (isinstance(parent, ast.Call) and use in parent.args
            or isinstance(parent, ast.keyword) and isinstance(parents.get(id(parent)), ast.Call))


def _lambda_of(source: str, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], tree: ast.Module,
               func: ast.FunctionDef) -> tuple[ast.Name, str] | None:
    """(the one read of ``func``, ``lambda params: EXPR``) where ``func`` may become a lambda there."""
    expr = _returned(func)
    uses = _names(tree).loads.get(func.name, [])
    if expr is None or len(uses) != 1 or any(isinstance(n, _NOT_IN_LAMBDA) for n in ast.walk(expr)):
        return None
    use = uses[0]
    def_start, def_end = smap.stmt_span(func)
    if (not _passed_as_argument(parents, use) or def_start <= smap.span(use)[0] < def_end
            or _in_fstring(parents, use) or not _module_level_at(scopes, parents, use, func.name)):
        return None
    params = _lambda_params(func.args)
    free = _free_names(func, expr)
    if params is None or any(scopes.resolve(func, name) is not tree or not _module_level_at(scopes, parents, use, name)
                             for name in free):
        return None
    a, b = smap.span(expr)
    body = source[a:b] if "\n" not in source[a:b] else f"({source[a:b]})"  # (inside the call's brackets)
    return use, f"lambda {params}: {body}" if params else f"lambda: {body}"


def lambda_candidates(source: str) -> list[str]:
    """A module-level ``def f(params): return EXPR`` read once, passed as a call's argument (``symbolic_trace(f)``,
    ``torch.compile(f)``, ``gradcheck(f, …)``, ``key=f``) -> ``lambda params: EXPR`` there,
    the def gone, as a maintainer writes it: one candidate per function. (Called once:
    :func:`reportkit.reduce.passes.inline_expression_candidates`; a wrapper of another function:
    :func:`forwarding_function_candidates`.) Every name ``EXPR`` reads must mean the module-level binding
    there as in the def."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    for func in _plain_functions(tree):
        found = _lambda_of(source, smap, scopes, parents, tree, func)
        gone = None if found is None else _delete_lines(smap, func)
        if gone is None:
            continue
        use, text = found
        candidate = apply_splices(source, [Splice(*smap.span(use), text), gone])
        if candidate is not None:
            out.append(candidate)
    return out


# --------------------------------------------------------------------------- factories
def _classmethod_factory(cls: ast.ClassDef, method: ast.FunctionDef, expr: ast.Call) -> object | None:
    """``@classmethod def build(cls, a): return cls(a)`` (or ``C(a)``), ``cls`` read nowhere else: the
    parameters without ``cls``."""
    if not method.args.args:
        return None
    cls_param = method.args.args[0].arg
    made = expr.func
    if not (isinstance(made, ast.Name) and made.id in (cls_param, cls.name)):
        return None
    if cls_param in {n.id for n in ast.walk(expr) if n is not made and isinstance(n, ast.Name)}:
        return None
    return _without_first(method.args)


def _staticmethod_factory(cls: ast.ClassDef, method: ast.FunctionDef, expr: ast.Call) -> object | None:
    """``@staticmethod def build(a): return C(a)``: its parameters."""
    made = expr.func
    return method if isinstance(made, ast.Name) and made.id == cls.name else None


#: decorator -> the matcher of a factory method of that kind
_FACTORIES = {"classmethod": _classmethod_factory, "staticmethod": _staticmethod_factory}


def _factory_calls(smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], tree: ast.Module,
                   cls: ast.ClassDef, method: ast.FunctionDef, func: object, expr: ast.Call) -> list[Splice] | None:
    """``C.build(x)`` -> ``C(x)`` (``expr`` with the arguments substituted, the class named ``C``) at each read
    of an attribute named like the factory; None where one is not such a call or none is there."""
    made = expr.func
    assert isinstance(made, ast.Name)
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and n.attr == method.name]
    splices = []
    for use in uses:
        call = parents.get(id(use))
        if not (isinstance(use.value, ast.Name) and use.value.id == cls.name
                and isinstance(call, ast.Call) and call.func is use
                and _module_level_at(scopes, parents, call, cls.name)):
            return None
        text = _substitute_params(smap, scopes, parents, func, call, expr, method, exclude=frozenset({made.id}))
        if text is None:
            return None
        m_start = smap.span(made)[0] - smap.span(expr)[0]
        text = text[:m_start] + cls.name + text[m_start + len(made.id):]
        splices.append(Splice(*smap.span(call), text))
    return splices or None


def factory_candidates(source: str) -> list[str]:
    """A factory method -- ``@classmethod def build(cls, ...): return cls(ARGS)`` (or ``C(ARGS)``,
    :func:`_classmethod_factory`), a ``@staticmethod`` returning ``C(ARGS)`` (:func:`_staticmethod_factory`)
    -> ``C(ARGS)`` with the arguments substituted at each ``C.build(...)`` (:func:`_factory_calls`), and the
    factory gone. Only where every ``.build`` read in the program is such a call."""
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or not _defined_once(tree, cls.name):
            continue
        for method in cls.body:
            if not isinstance(method, ast.FunctionDef) or len(method.decorator_list) != 1:
                continue
            deco = method.decorator_list[0]
            matcher = _FACTORIES.get(deco.id) if isinstance(deco, ast.Name) else None
            expr = _returned(method)
            func = matcher(cls, method, expr) if matcher is not None and isinstance(expr, ast.Call) else None
            splices = _factory_calls(smap, scopes, parents, tree, cls, method, func, expr) if func else None
            gone = _delete_member(smap, cls, method) if splices else None
            candidate = apply_splices(source, [*splices, gone]) if gone is not None else None
            if candidate is not None:
                out.append(candidate)
    return out


# ----------------------------------------------------------------------------- datasets
def _constant_len(func: ast.FunctionDef | None) -> int | None:
    expr = _returned(func) if func is not None else None
    if isinstance(expr, ast.Constant) and type(expr.value) is int and 0 < expr.value <= _MAX_ITEMS:
        return expr.value
    return None


class _Dataset(NamedTuple):
    """A map-style dataset class a list can replace (:func:`_dataset`)."""

    cls: ast.ClassDef
    getitem: ast.FunctionDef
    n: int  # its constant length
    calls: list[ast.Call]  # its constructions
    where: tuple[int, int, str]  # its lines and indentation


def _dataset_methods(cls: ast.ClassDef) -> tuple[ast.FunctionDef, int] | None:
    """``(__getitem__, n)`` of a class of ``__len__`` returning a small constant ``n``, an undecorated
    ``__getitem__(self, i)`` reading nothing of ``self`` and, maybe, an ``__init__`` doing nothing but
    ``super().__init__()``; nothing else in its body but a docstring or ``pass``."""
    methods = _methods(cls)
    getitem, init = methods.get("__getitem__"), methods.get("__init__")
    n = _constant_len(methods.get("__len__"))
    if (n is None or getitem is None or set(methods) - {"__init__", "__len__", "__getitem__"}
            or any(not isinstance(s, ast.FunctionDef) and not _docstring_or_pass(s) for s in cls.body)
            or init is not None and any(not (_super_init(s) or _docstring_or_pass(s)) for s in init.body)):
        return None
    gargs = getitem.args
    if (getitem.decorator_list or len(gargs.args) != 2 or gargs.vararg or gargs.kwarg or gargs.kwonlyargs
            or gargs.posonlyargs or {gargs.args[0].arg, "super", "__class__"} & _names_in(getitem.body)):
        return None
    return getitem, n


def _dataset(tree: ast.Module, smap: SourceMap, parents: dict[int, ast.AST], cls: ast.ClassDef) -> _Dataset | None:
    """``cls`` as a :class:`_Dataset` (:func:`_dataset_methods`), constructed only with plain names or
    constants as arguments and on lines of its own; None if it is not one."""
    found = _dataset_methods(cls)
    if found is None:
        return None
    calls = _calls_of(tree, parents, cls.name)
    if not calls or any(not isinstance(a, _PURE) for c in calls for a in [*c.args, *(k.value for k in c.keywords)]):
        return None
    where = _full_lines(smap, cls)
    return None if where is None else _Dataset(cls, found[0], found[1], calls, where)


def _dataset_comprehension(source: str, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST],
                           ds: _Dataset) -> list[str] | None:
    """``def __getitem__(self, i): return EXPR`` -> ``[EXPR for i in range(n)]`` at each construction, and
    the class gone; where every other name ``EXPR`` reads is the module-level one, there and at each
    construction."""
    expr = _returned(ds.getitem)
    if expr is None or any(isinstance(x, _SCOPED) for x in ast.walk(expr)):
        return None
    index = ds.getitem.args.args[1].arg
    free = ({x.id for x in ast.walk(expr) if isinstance(x, ast.Name)} - {index}) | {"range"}
    if not all(scopes.resolve(ds.getitem, name) is scopes.tree
               and all(_module_level_at(scopes, parents, c, name) for c in ds.calls) for name in free):
        return None
    item = f"[{smap.text(expr)} for {index} in range({ds.n})]"
    candidate = apply_splices(source, [Splice(ds.where[0], ds.where[1], ""),
                                       *(Splice(*smap.span(c), item) for c in ds.calls)])
    return [] if candidate is None else [candidate]


def _dataset_function(source: str, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST],
                      ds: _Dataset) -> list[str] | None:
    """A longer ``__getitem__(self, i)`` -> a function ``def C(i):`` with its body, in the class's place, and
    each construction ``C()`` -> ``[C(0), C(1), ...]``."""
    indent = ds.where[2]
    gargs = ds.getitem.args
    params = smap.source[smap.span(gargs.args[1])[0]:smap.span(gargs.args[-1])[1]]
    head = f"{indent}def {ds.cls.name}({params}):{smap.default_newline()}"
    text = head + block_text(smap, ds.getitem.body, indent + "    ")
    items = "[" + ", ".join(f"{ds.cls.name}({i})" for i in range(ds.n)) + "]"
    candidate = apply_splices(source, [Splice(ds.where[0], ds.where[1], text),
                                       *(Splice(*smap.span(c), items) for c in ds.calls)])
    return [] if candidate is None else [candidate]


#: The ways :func:`dataset_list_candidates` writes a dataset as a list, the first that fits.
_DATASET_LISTS = (_dataset_comprehension, _dataset_function)


def dataset_list_candidates(source: str) -> list[str]:
    """A module-level map-style dataset -- ``__len__`` returns a small constant ``n``, ``__getitem__``
    reads nothing of ``self``, ``__init__`` (if any) does nothing but ``super().__init__()`` -- whose
    constructions take only plain names or constants (:func:`_dataset`): each construction becomes the
    list of its items, by the first of :data:`_DATASET_LISTS` that fits.

    ``__getitem__(self, i): return EXPR`` gives ``[EXPR for i in range(n)]`` and the class goes
    (:func:`_dataset_comprehension`); a longer ``__getitem__`` becomes a function named like the class and
    the construction ``[C(0), C(1), ...]`` (:func:`_dataset_function`). The items are the same objects,
    computed by the same code, in index order.
    """
    tree, smap = _parse(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    out: list[str] = []
    bases = _class_bases(tree)
    for cls in _plain_classes(tree, bases):
        ds = _dataset(tree, smap, parents, cls)
        if ds is not None:
            out.extend(_first_match(_DATASET_LISTS, source, smap, scopes, parents, ds))
    return out


# ------------------------------------------------------------------- discarded results
def _formatted(node: ast.expr) -> list[ast.expr]:
    """An f-string's formatted expressions (``f"{a} {g(b)}"`` -> ``a``, ``g(b)``), else the node itself."""
    if isinstance(node, ast.JoinedStr):
        return [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
    return [node]


def _operands(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of binary operators (``a + b * c`` -> ``a``, ``b * c``)."""
    if isinstance(node, ast.BinOp):
        return _operands(node.left) + _operands(node.right)
    return [node]


def _discarded_parts(value: ast.expr, imported: set[str]) -> list[ast.expr]:
    """What an expression statement whose value nobody uses may be cut down to: the arguments of a call of
    a plain name or of an imported module's function (and the calls an f-string argument formats), the
    expressions an f-string formats, the operands of an arithmetic chain or a comparison, the elements of a
    display, the receiver of a method called on something that is not a name or an attribute (mostly a
    value computed on the spot), the object an attribute or a subscript is read from (``fn(x).shape``,
    ``model(x)[0]``: a value read and dropped)."""
    if isinstance(value, (ast.Attribute, ast.Subscript)):
        return [value.value]
    if isinstance(value, ast.Call):
        if isinstance(value.func, ast.Attribute) and not isinstance(value.func.value, (ast.Name, ast.Attribute)):
            # a method of a receiver that is not a name or an attribute: mostly a value computed on the spot
            # (``(y == t).float().mean().item()``), whose method nobody sees the effect of; a subscript's
            # element (``rows[0].append(x)``) is held by its container: the tester decides, as for HDD
            # deleting the whole statement; the receiver
            return [value.func.value]
        root = value.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name) or (root is not value.func and root.id not in imported):
            return []  # a method of an object (``xs.append(...)``) has effects of its own
        parts = [p for arg in [*value.args, *(k.value for k in value.keywords)] for p in _formatted(arg)]
        return [p for p in parts if isinstance(p, (ast.Call, ast.BinOp, ast.Subscript, ast.Attribute))]
    if isinstance(value, ast.JoinedStr):
        return _formatted(value)
    if isinstance(value, ast.BinOp):
        return _operands(value)
    if isinstance(value, ast.Compare):
        return [value.left, *value.comparators]
    if isinstance(value, (ast.Tuple, ast.List, ast.Set)):
        return list(value.elts)
    return []


def discarded_call_candidates(source: str) -> list[str]:
    """An expression statement whose result nobody uses, around a call -> that call's expression: one
    candidate per part that calls something. ``f(..., g(...), ...)`` -> ``g(...)`` where ``f`` is a plain
    name or a function of an imported module (``F.cross_entropy``, not a method like ``xs.append``), also
    a call an f-string argument formats (``print(f"{g(x)}")``); an f-string or an arithmetic chain left as a
    statement (``f"<nav>{render(m)}</nav>"``, ``x + self.attn(x)``: an inlined function's return value) ->
    a formatted expression, an operand; a tuple or list display -> an element; an attribute or subscript read
    of a computed value (``fn(x).shape``, ``print(net(x).shape)`` -> ``net(x).shape``) -> that value. If the
    failure is raised
    inside ``g(...)``, the rest never ran or only consumed its value; if it is raised by ``f`` (or by the
    ``+``) the candidate does not fail that way and is rejected."""
    tree, smap = _parse(source)
    imported = {import_binding(n, a) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                for a in n.names}
    out: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Expr):
            continue
        for part in _discarded_parts(node.value, imported):
            if isinstance(part, ast.Starred) or not any(isinstance(n, ast.Call) for n in ast.walk(part)):
                continue
            text = smap.text(part)
            if "\n" in text:
                text = f"({text})"
            candidate = apply_splices(source, [Splice(*smap.span(node), text)])  # with the statement's parentheses
            if candidate is not None:
                out.append(candidate)
    return out


def assert_test_candidates(source: str) -> list[str]:
    """An ``assert`` whose test calls something -> its test as an expression statement (``assert (f(x) ==
    expected).all()`` -> ``(f(x) == expected).all()``, which :func:`discarded_call_candidates` then cuts down):
    when the failure is raised while the test is computed, the comparison around it is a leftover. When the
    failure is an assertion's own ``AssertionError`` the pass is off (reportkit.reduce.schedule: its candidates
    would pass, and a guarded failure keeps its condition)."""
    tree, smap = _parse(source)
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and any(isinstance(n, ast.Call) for n in ast.walk(node.test)):
            text = smap.text(node.test)
            candidate = apply_splices(source, [Splice(*smap.span(node), f"({text})" if "\n" in text else text)])
            if candidate is not None:
                out.append(candidate)
    return out


def comprehension_loop_candidates(source: str) -> list[str]:
    """A list, set or dict comprehension left as a statement (its result unused: ``{path(p): render(p) for p
    in pages}``, once the assignment went) -> the same loop as statements::

        for p in pages:
            path(p)
            render(p)

    It runs the same code in the same order; as statements, HDD can delete the parts that do not matter
    (the key, a filter) and the loop can go on being reduced (one element, its target). One candidate per
    comprehension (not an async one)."""
    tree, smap = _parse(source)
    out: list[str] = []

    def text(node: ast.AST) -> str:
        t = smap.text(node)
        return f"({t})" if "\n" in t else t

    for node in ast.walk(tree):
        if not (isinstance(node, ast.Expr) and isinstance(node.value, (ast.ListComp, ast.SetComp, ast.DictComp))):
            continue
        comp = node.value
        if any(g.is_async for g in comp.generators):
            continue
        start, end = smap.span(node)
        if not smap.blank_before(start):
            continue  # ``a = 1; [...]``: a compound statement cannot follow a semicolon
        indent = source[smap.line_start(smap.lineno_of(start)):start]
        lines: list[str] = []
        pad = indent
        for gen in comp.generators:
            lines.append(f"{pad}for {text(gen.target)} in {text(gen.iter)}:")
            pad += "    "
            for cond in gen.ifs:
                lines.append(f"{pad}if {text(cond)}:")
                pad += "    "
        elements = [comp.key, comp.value] if isinstance(comp, ast.DictComp) else [comp.elt]
        lines += [pad + text(e) for e in elements]
        candidate = apply_splices(source, [Splice(start, end, "\n".join(lines)[len(indent):])])
        if candidate is not None:
            out.append(candidate)
    return out


__all__ = [
    "class_constant_candidates",
    "comprehension_loop_candidates",
    "dataset_list_candidates",
    "delegating_module_candidates",
    "discarded_call_candidates",
    "factory_candidates",
    "helper_inline_candidates",
    "list_build_candidates",
    "module_call_candidates",
    "sequential_call_build_candidates",
    "sequential_call_candidates",
]
