"""Statement-level proposals: HDD levels, unused names, compound -> body, inlining, docstrings."""

from __future__ import annotations

import ast
from collections import Counter
from typing import Iterable, Iterator

from . import wellformed
from .chunks import Chunk, Lazy, Module, per_version
from .edits import (
    BodyInfo,
    Delete,
    DropAlias,
    Edit,
    ImportInfo,
    Splice,
    apply_edits,
    spliced,
    walk_bodies,
)
from .scopes import Scopes, import_binding, parent_map, scopes_of
from .source import SourceMap, block_text

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _parse(source: str) -> tuple[ast.Module, SourceMap]:
    """The tree and source map of ``source``, shared by the passes reading the same version (none changes them)."""
    return per_version("parse", source, lambda s: (wellformed.TREES.parse(s), SourceMap(s)))


def tree_of(source: str) -> ast.Module:
    """The tree of ``source`` the passes share (parsed once per version; nobody changes it)."""
    return _parse(source)[0]


def _scopes(source: str) -> Scopes:
    return per_version("scopes", source, lambda s: scopes_of(_parse(s)[0]))


# ------------------------------------------------------------------------------ HDD
def statement_levels(source: str, *, prune: bool = False) -> list[list[Edit]]:
    """HDD levels: level k deletes statements of any body at nesting depth k (source order).

    With ``prune``, statements that bind a name still read elsewhere (imports, defs,
    classes, plain assignments) are left out: deleting them alone can only raise
    ``NameError``, and once their readers are gone :func:`propose_unused` removes them
    with one test.  (Not exact -- e.g. a dead store ``x = 1; x = 2`` -- so the reducer
    finishes with an unpruned sweep.) Worked out once per source version.
    """
    levels = per_version(f"levels {prune}", source, lambda s: _statement_levels(s, prune))
    return [list(level) for level in levels]


def _statement_levels(source: str, prune: bool) -> list[list[Edit]]:
    tree, smap = _parse(source)
    scopes = _scopes(source) if prune else None
    levels: list[list[tuple[int, Edit]]] = []
    for info in walk_bodies(tree, smap):
        while len(levels) <= info.depth:
            levels.append([])
        for i, (start, _end) in enumerate(info.seq.spans):
            if scopes is not None and _binds_referenced_name(info.seq.stmts[i], scopes, smap):
                continue
            levels[info.depth].append((start, Delete(info.seq, i)))
    return [[edit for _start, edit in sorted(level, key=lambda t: t[0])] for level in levels]


def _bound_names(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [import_binding(stmt, a) for a in stmt.names if a.name != "*"]
    if isinstance(stmt, (*_FUNCS, ast.ClassDef)):
        return [stmt.name]
    return _bound_by_assignment(stmt) or []


def _binds_referenced_name(stmt: ast.stmt, scopes: Scopes, smap: SourceMap | None = None) -> bool:
    return any(_reads(stmt, name, scopes, smap) > 0 for name in _bound_names(stmt))


def _reads(stmt: ast.stmt, name: str, scopes: Scopes, smap: SourceMap | None) -> int:
    """``scopes.reads(stmt, name)``, without walking a definition whose lines hold its name once (in its
    header): then nothing in it loads that name. (Each load inside is one more occurrence of the name in its
    text, when the source is ASCII: a non-ASCII identifier may be spelled otherwise than its name.)"""
    if smap is not None and isinstance(stmt, (*_FUNCS, ast.ClassDef)) and _ascii(smap):
        first = min([stmt.lineno, *(d.lineno for d in stmt.decorator_list)])
        text = smap.source[smap.line_start(first):smap.line_end(stmt.end_lineno or stmt.lineno)]
        if text.count(name) <= 1:
            return scopes.reads(stmt, name, none_inside=True)
    return scopes.reads(stmt, name)


def _ascii(smap: SourceMap) -> bool:
    known = smap.__dict__.get("_ascii")
    if known is None:
        known = smap.__dict__["_ascii"] = smap.source.isascii()
    return known  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- unused
def loaded_names(tree: ast.AST) -> set[str]:
    """Names read anywhere (any scope), plus the strings listed in ``__all__``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                for sub in ast.walk(node.value):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        names.add(sub.value)
    return names


def _target_names(target: ast.expr) -> list[str] | None:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    if isinstance(target, (ast.Tuple, ast.List)):
        out: list[str] = []
        for elt in target.elts:
            sub = _target_names(elt)
            if sub is None:
                return None
            out.extend(sub)
        return out
    return None


def _bound_by_assignment(stmt: ast.stmt) -> list[str] | None:
    if isinstance(stmt, ast.Assign):
        names: list[str] = []
        for target in stmt.targets:
            sub = _target_names(target)
            if sub is None:
                return None
            names.extend(sub)
        return names
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    return None


def propose_unused(source: str) -> list[Edit]:
    """Delete imports (or single aliases), definitions and assignments whose names are never read, and
    assignments whose value nothing reads before the name is bound again (:func:`_dead_store`)."""
    return list(per_version("unused", source, _propose_unused))


def _propose_unused(source: str) -> list[Edit]:
    tree, smap = _parse(source)
    scopes = _scopes(source)
    edits: list[Edit] = []
    for info in walk_bodies(tree, smap):
        in_class = isinstance(info.owner, ast.ClassDef)
        for i, stmt in enumerate(info.seq.stmts):
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
                    continue
                unused = [
                    k
                    for k, alias in enumerate(stmt.names)
                    if alias.name != "*" and not scopes.reads(stmt, import_binding(stmt, alias))
                ]
                if len(unused) == len(stmt.names):
                    edits.append(Delete(info.seq, i))
                elif unused:
                    imp = ImportInfo(smap, info.seq, i)
                    edits.extend(DropAlias(imp, k) for k in unused)
            elif in_class:
                continue  # class attributes are read through attributes; HDD handles them
            elif isinstance(stmt, (*_FUNCS, ast.ClassDef)):
                if not _reads(stmt, stmt.name, scopes, smap):
                    edits.append(Delete(info.seq, i))
            else:
                names = _bound_by_assignment(stmt)
                if names and (not any(scopes.reads(stmt, n) for n in names) or _dead_store(tree, info, stmt, names)):
                    edits.append(Delete(info.seq, i))
    return edits


def drop_target_candidates(source: str) -> list[str]:
    """``x = f()`` whose ``x`` is never read -> ``f()`` (when deleting it outright fails). Not the last
    ``x = x + y`` of a body that reads ``x`` only before it (:func:`_dead_store`): the same lines, a test more
    each round (c21-06: 333 -> 335 tests, the same result)."""
    return list(_drop_target_candidates(source))


def lazy_drop_target_candidates(source: str) -> Lazy[str]:
    """:func:`drop_target_candidates`, each made when the search asks for it."""
    return Lazy(_drop_target_candidates(source))


def _drop_target_candidates(source: str) -> Iterator[str]:
    tree, smap = _parse(source)
    scopes = _scopes(source)
    for info in walk_bodies(tree, smap):
        if isinstance(info.owner, ast.ClassDef):
            continue
        for stmt in info.seq.stmts:
            if not isinstance(stmt, (ast.Assign, ast.AnnAssign)) or stmt.value is None:
                continue
            names = _bound_by_assignment(stmt)
            if not names:
                continue
            if any(scopes.reads(stmt, n) for n in names):
                yield from _drop_unpacked(source, smap, scopes, stmt)
                continue
            start, _end = smap.stmt_span(stmt)
            value_start, _value_end = smap.span(stmt.value)
            if smap.lineno_of(start) != smap.lineno_of(value_start):
                continue
            yield source[:start] + source[value_start:]


_INTROSPECTION = frozenset({"locals", "vars", "eval", "exec"})


def _dead_store(tree: ast.Module, info: BodyInfo, stmt: ast.stmt, names: list[str]) -> bool:
    """``x = ...`` that binds one name, in a function's own body (or the module's), whose value nothing reads:
    no read of ``x`` after it up to the next statement of that body that binds ``x`` again (its value
    included: ``x = f(x)`` reads it), or to the end (``x = f(x)`` then ``x = x + y`` at a forward's end, its
    ``return`` gone; ``model = f`` then ``model = torch.compile(f)``). Scope-wide counts
    (:meth:`Scopes.reads`) see the reads of the other bindings. Not where ``x`` is global or nonlocal there,
    read in a nested function, lambda or class (it may run later), or the scope calls ``locals()``,
    ``vars()``, ``eval()`` or ``exec()``."""
    scope = tree if info.owner is None else info.owner
    if len(names) != 1 or not (scope is tree or isinstance(scope, _FUNCS)):
        return False
    at = next((i for i, s in enumerate(scope.body) if s is stmt), None)
    if at is None or _opaque(scope, names[0]):
        return False
    kill = next((s for s in scope.body[at + 1:] if _bound_by_assignment(s) == names), None)
    end = (kill.end_lineno or 0, kill.end_col_offset or 0) if kill is not None else (1 << 30, 0)
    return not _read_within(scope, names[0], (stmt.end_lineno or 0, stmt.end_col_offset or 0), end)


def _opaque(scope: ast.AST, name: str) -> bool:
    """Can ``name``'s bindings in ``scope`` be read where no load of it stands there: global or nonlocal,
    loaded in a nested function, lambda, class or generator, or the scope calls an introspecting builtin."""
    for node in ast.walk(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _INTROSPECTION:
            return True
        if node is not scope and isinstance(node, (*_SCOPES, ast.GeneratorExp)) and any(
                isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(node)):
            return True
    return False


def _read_within(scope: ast.AST, name: str, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Is ``name`` read (loaded, deleted, augmented) in ``scope`` after ``start`` up to ``end``?"""
    for node in ast.walk(scope):
        read = (isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Store)) or (
            isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id == name)
        if read and start < (node.lineno, node.col_offset) <= end:
            return True
    return False


def _drop_unpacked(source: str, smap: SourceMap, scopes: Scopes, stmt: ast.stmt) -> list[str]:
    """``a, b = x, y`` where ``b`` is never read -> ``a = x`` (what inlining a function leaves of its
    parameters); one candidate dropping every unread pair."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple)
            and isinstance(stmt.value, ast.Tuple)):
        return []
    targets, values = stmt.targets[0].elts, stmt.value.elts
    if len(targets) != len(values) or not all(isinstance(t, ast.Name) for t in targets) \
            or any(isinstance(v, ast.Starred) for v in values):
        return []
    kept = [i for i, t in enumerate(targets) if scopes.reads(stmt, t.id)]
    if not kept or len(kept) == len(targets):
        return []
    start, end = smap.stmt_span(stmt)
    text = ", ".join(targets[i].id for i in kept) + " = " + ", ".join(smap.text(values[i]) for i in kept)
    return [source[:start] + text + source[end:]]


def unread_targets(source: str) -> str | None:
    """``best, labels = images`` where ``labels`` is never read -> ``best, _ = images`` (an unpacking of one
    value: it still checks the length), every such assignment at once; not where ``_`` is read anywhere.
    A final cosmetic pass: it changes no behaviour, and earlier the statement mostly goes anyway."""
    tree, smap = _parse(source)
    if "_" in loaded_names(tree):
        return None
    scopes = _scopes(source)
    splices: list[Edit] = []
    for stmt in ast.walk(tree):
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], (ast.Tuple, ast.List))):
            continue
        names = [n for n in ast.walk(stmt.targets[0])
                 if not isinstance(n, (ast.Tuple, ast.List, ast.Starred, ast.expr_context))]
        if not all(isinstance(t, ast.Name) for t in names):
            continue
        unread = [t for t in names if t.id != "_" and not scopes.reads(stmt, t.id)]  # type: ignore[attr-defined]
        if len(unread) < len(names):  # (none read: the unused-names and drop-target passes' business)
            splices.extend(Splice(*smap.span(t), "_") for t in unread)
    return apply_edits(source, splices) if splices else None


# --------------------------------------------------------------- compound -> body
def _full_lines(smap: SourceMap, stmt: ast.stmt) -> tuple[int, int, str] | None:
    """Line range of an own-line statement and its indentation (None if it shares lines)."""
    start, end = smap.stmt_span(stmt)
    if not smap.blank_before(start):
        return None
    rest = smap.source[end : smap.line_end(smap.lineno_of(end))].strip()
    if rest and not rest.startswith("#"):
        return None
    line_start = smap.line_start(smap.lineno_of(start))
    return line_start, smap.line_end(smap.lineno_of(end)), smap.source[line_start:start]


def _names_in(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for stmt in nodes for n in ast.walk(stmt) if isinstance(n, ast.Name)}


def _computed_range(node: ast.expr) -> bool:
    """``range(...)`` with a bound that is not a literal (``range(x.numel() // per)``). Its loop, read by
    its body, stays a loop: as a binding its first value is ``next(iter(range(...)))``, which a person
    writes as the loop; once the bounds are literals its first value is a literal (the scaffold pass)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and any(not (isinstance(a, ast.Constant) or isinstance(a, ast.UnaryOp) and isinstance(a.operand, ast.Constant))
                    for a in node.args))


def _exits_first_time(loop: ast.For | ast.AsyncFor) -> bool:
    """Does the loop's body end with an unconditional ``return`` or ``break``, so that it never gets past
    its first item? Such a loop is its first item already: unwrapping it (``row = next(iter(rows))``)
    is always accepted and removes only the text of a classic bug, a ``return`` indented into the loop
    (corpus22/03: one parcel of three loaded). It stays a loop."""
    return isinstance(loop.body[-1], (ast.Return, ast.Break))


def _unwrap_blocks(smap: SourceMap, stmt: ast.stmt, indent: str) -> list[str]:
    """Replacement texts for a compound statement, best first."""
    blocks: list[str] = []
    nl = smap.default_newline()
    if isinstance(stmt, ast.If):
        blocks.append(block_text(smap, stmt.body, indent))
        if stmt.orelse:
            first = stmt.orelse[0]
            start, _ = smap.stmt_span(first)
            if smap.source.startswith("elif", start):
                _s, end = smap.stmt_span(stmt.orelse[-1])
                tail = smap.source[start + 4 : smap.line_end(smap.lineno_of(end))]
                blocks.append(indent + "if" + tail)
            else:
                blocks.append(block_text(smap, stmt.orelse, indent))
    elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
        if isinstance(stmt, (ast.For, ast.AsyncFor)) and _exits_first_time(stmt):
            return blocks  # unwrapping it changes nothing but the text that carries the bug
        text = block_text(smap, stmt.body, indent)
        if stmt.orelse:
            text += block_text(smap, stmt.orelse, indent)
        if isinstance(stmt, ast.For):
            targets = _target_names(stmt.target) or []
            if set(targets) & _names_in(stmt.body):
                if _computed_range(stmt.iter):
                    return blocks  # ``i = next(iter(range(n // per)))``: nobody writes it; the loop says it
                binding = f"{smap.text(stmt.target)} = next(iter({smap.text(stmt.iter)}))"
                text = indent + binding + nl + text
        blocks.append(text)
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        unread = _with_names(stmt)
        if unread:  # the body alone where no name the ``with`` binds is read (:func:`_unwrap_candidates`)
            blocks.append(_Unread(block_text(smap, stmt.body, indent), unread))
        bindings = [
            f"{indent}{smap.text(item.optional_vars)} = {smap.text(item.context_expr)}{nl}"
            for item in stmt.items
            if item.optional_vars is not None
        ]
        blocks.append("".join(bindings) + block_text(smap, stmt.body, indent))
    elif isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
        text = block_text(smap, stmt.body, indent)
        if stmt.orelse:
            text += block_text(smap, stmt.orelse, indent)
        if stmt.finalbody:
            text += block_text(smap, stmt.finalbody, indent)
        blocks.append(text)
    return blocks


class _Unread(str):
    """An unwrapped block proposed only where none of ``names`` is read anywhere in the module: ``with Pool()
    as pool:`` around code that never uses ``pool`` becomes its body, without ``pool = Pool()`` (an object
    built and never closed: a pool's workers, an open file, may fail or hang at exit where the ``with``
    closed them)."""

    names: frozenset[str]

    def __new__(cls, text: str, names: frozenset[str]) -> _Unread:
        block = super().__new__(cls, text)
        block.names = names
        return block


def _with_names(stmt: ast.With | ast.AsyncWith) -> frozenset[str]:
    """The names a ``with`` binds (``as name``; empty when one binds something else: ``as self.x``, ``as (a,
    b)`` count by their names, an attribute target makes it empty)."""
    names: list[str] = []
    for item in stmt.items:
        if item.optional_vars is None:
            continue
        sub = _target_names(item.optional_vars)
        if sub is None:
            return frozenset()
        names.extend(sub)
    return frozenset(names)


def unwrap_candidates(source: str) -> list[str]:
    """Replace a compound statement (if/for/while/with/try) by its body, re-indented."""
    return list(_unwrap_candidates(Module.of(source)))


def lazy_unwrap_candidates(source: str) -> Lazy[str]:
    """:func:`unwrap_candidates`, each made when the search asks for it."""
    return Lazy(_unwrap_candidates(Module.of(source)))


def _unwrap_candidates(module: Module) -> Iterator[str]:
    """In the order of :func:`walk_bodies` over the module: every top-level statement first (chunk by
    chunk), then the nested ones (chunk by chunk, each in its own walk's order)."""
    for nested in (False, True):
        for k, chunk in enumerate(module.chunks):
            at = module.offsets[k]
            pieces = chunk.get(f"unwrap {nested}", lambda c: _unwrap_pieces(c, nested))  # noqa: B023
            for start, end, block in pieces:
                if isinstance(block, _Unread):
                    loads = module.total("loads", lambda c: _chunk_name_counts(c)[0])
                    if any(loads[n] for n in block.names):
                        continue
                    block = str(block)
                yield spliced(module.source, [Splice(at + start, at + end, block)])  # type: ignore[misc]


def _unwrap_pieces(chunk: Chunk, nested: bool) -> list[tuple[int, int, str]]:
    """``(line_start, line_end, block)`` in ``chunk`` for its top-level statements (or the nested ones)."""
    smap = chunk.smap
    out: list[tuple[int, int, str]] = []
    for info in walk_bodies(chunk.tree, smap):
        if (info.depth > 0) != nested:
            continue
        for stmt in info.seq.stmts:
            where = _full_lines(smap, stmt)
            if where is None:
                continue
            line_start, line_end, indent = where
            out.extend((line_start, line_end, block) for block in _unwrap_blocks(smap, stmt, indent))
    return out


# --------------------------------------------------------------------------- inline
_parents = parent_map


def _own_nodes(stmts: list[ast.stmt]) -> Iterator[ast.AST]:
    """Nodes of a function body, not descending into nested scopes."""
    stack: list[ast.AST] = list(reversed(stmts))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            continue
        stack.extend(ast.iter_child_nodes(node))


def _inlinable(func: ast.FunctionDef) -> bool:
    args = func.args
    if args.vararg or args.kwarg or func.decorator_list:
        return False
    body = func.body
    for node in _own_nodes(body):
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await, ast.Global, ast.Nonlocal)):
            return False
        if isinstance(node, ast.Return) and node is not body[-1]:
            return False
    return True


def _bind_arguments(smap: SourceMap, func: ast.FunctionDef, call: ast.Call,
                    def_smap: SourceMap | None = None) -> dict[str, str] | None:
    """Parameter name -> argument text, or None if the call is not simple enough. ``def_smap``: where the
    defaults' text is, when ``func`` is in another chunk than ``call`` (:mod:`reportkit.reduce.passes.chunks`)."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    names = [p.arg for p in positional]
    kwonly = [p.arg for p in args.kwonlyargs]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if len(call.args) > len(positional):
        return None
    bound = {p.arg: smap.text(a) for p, a in zip(positional, call.args)}
    posonly = {p.arg for p in args.posonlyargs}
    for kw in call.keywords:
        if kw.arg in bound or kw.arg in posonly or (kw.arg not in names and kw.arg not in kwonly):
            return None
        bound[kw.arg] = smap.text(kw.value)  # type: ignore[index]
    return _with_defaults(func, [*names, *kwonly], bound, def_smap or smap)


def _with_defaults(func: ast.FunctionDef, names: list[str], bound: dict[str, str],
                   smap: SourceMap) -> dict[str, str] | None:
    """``bound`` with the defaults' text for the parameters ``names`` it lacks (None: one has no default)."""
    args = func.args
    positional = [p.arg for p in [*args.posonlyargs, *args.args]]
    defaults = dict(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    for name in names:
        if name not in bound:
            if name not in defaults:
                return None
            bound[name] = smap.text(defaults[name])
    return bound


def _call_prefix(smap: SourceMap, stmt: ast.stmt, call: ast.Call) -> str | None:
    """Text before the call in its statement (``x = ``, ``return ``...) if simple, else None."""
    start, end = smap.stmt_span(stmt)
    call_start, call_end = smap.span(call)
    if call_end != end:
        return None
    prefix = smap.source[start:call_start]
    if "\n" in prefix or "\r" in prefix or "(" in prefix:
        return None
    if isinstance(stmt, ast.Expr):
        return "" if prefix == "" else None
    if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return prefix if prefix.rstrip().endswith("=") else None
    if isinstance(stmt, ast.Return):
        return prefix if prefix.strip() == "return" else None
    return None


def _name_counts(tree: ast.AST) -> tuple[Counter[str], Counter[str], dict[str, ast.Name]]:
    """Per name: how often it is loaded, how often bound (defs, imports, assignments; ``global`` /
    ``nonlocal`` count as two), and its last load node (the call site of a one-use name)."""
    loads: Counter[str] = Counter()
    bindings: Counter[str] = Counter()
    load_nodes: dict[str, ast.Name] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads[node.id] += 1
                load_nodes[node.id] = node
            else:
                bindings[node.id] += 1
        elif isinstance(node, (*_FUNCS, ast.ClassDef)):
            bindings[node.name] += 1
        elif isinstance(node, ast.alias):
            bindings[node.asname or node.name.split(".")[0]] += 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bindings[name] += 2
    return loads, bindings, load_nodes


def _one_use_calls(tree: ast.Module) -> Iterator[tuple[ast.FunctionDef, ast.Call, dict[int, ast.AST]]]:
    """Each module-level function defined once and loaded once, as the function of a call: (def, call, parents)."""
    parents = _parents(tree)
    loads, bindings, load_nodes = _name_counts(tree)
    for func in tree.body:
        if not isinstance(func, ast.FunctionDef) or loads[func.name] != 1 or bindings[func.name] != 1:
            continue
        name_node = load_nodes[func.name]
        call = parents.get(id(name_node))
        if isinstance(call, ast.Call) and call.func is name_node:
            yield func, call, parents


def inline_candidates(source: str) -> list[str]:
    """Inline module-level functions that are defined once and called once (statement-level call)."""
    return list(_inline_candidates(Module.of(source)))


def lazy_inline_candidates(source: str) -> Lazy[str]:
    """:func:`inline_candidates`, each made when the search asks for it."""
    return Lazy(_inline_candidates(Module.of(source)))


def _chunk_name_counts(chunk: Chunk) -> tuple[Counter[str], Counter[str], dict[str, ast.Name]]:
    return chunk.get("name_counts", lambda c: _name_counts(c.tree))


def _holder(module: Module, name: str) -> int:
    """The (last) chunk loading ``name``."""
    return max(k for k, chunk in enumerate(module.chunks) if name in _chunk_name_counts(chunk)[0])


def _chunk_one_use_calls(module: Module) -> Iterator[tuple[int, ast.FunctionDef, int, ast.Call]]:
    """:func:`_one_use_calls` on chunks: ``(i, def, j, call)``, the def in chunk ``i``, the call in chunk ``j``."""
    loads = module.total("loads", lambda c: _chunk_name_counts(c)[0])
    bindings = module.total("bindings", lambda c: _chunk_name_counts(c)[1])
    for i, chunk in enumerate(module.chunks):
        for func in chunk.tree.body:
            if not isinstance(func, ast.FunctionDef) or loads[func.name] != 1 or bindings[func.name] != 1:
                continue
            j = _holder(module, func.name)
            site_chunk = module.chunks[j]
            name_node = _chunk_name_counts(site_chunk)[2][func.name]
            call = site_chunk.parents.get(id(name_node))
            if isinstance(call, ast.Call) and call.func is name_node:
                yield i, func, j, call


def _inline_candidates(module: Module) -> Iterator[str]:
    """The candidates of :func:`inline_candidates`, in order, from the chunks (:func:`_one_use_calls` and
    :func:`_locals_clash` on them: what a chunk holds is read once per text)."""
    for i, func, j, call in _chunk_one_use_calls(module):
        candidate = _inlined(module, i, func, j, call)
        if candidate is not None:
            yield candidate


def _inlined(module: Module, i: int, func: ast.FunctionDef, j: int, call: ast.Call) -> str | None:
    """``func`` (chunk ``i``) inlined where ``call`` (chunk ``j``) is, with its definition gone; None if it cannot be."""
    fchunk, schunk = module.chunks[i], module.chunks[j]
    site = schunk.parents.get(id(call))
    if not _inlinable(func) or not isinstance(site, ast.stmt):
        return None
    if i == j:
        def_start, def_end = fchunk.smap.stmt_span(func)
        if def_start <= schunk.smap.stmt_span(site)[0] < def_end:
            return None  # recursive
    where = _full_lines(schunk.smap, site)
    prefix = _call_prefix(schunk.smap, site, call)
    bound = _bind_arguments(schunk.smap, func, call, fchunk.smap)
    def_lines = _full_lines(fchunk.smap, func)
    if where is None or prefix is None or bound is None or def_lines is None:
        return None
    if _chunk_locals_clash(module, fchunk, func, j, site, bound):
        return None
    line_start, line_end, indent = where
    text = _inlined_body(fchunk.smap, func, bound, prefix, indent)
    at, def_at = module.offsets[j], module.offsets[i]
    return spliced(module.source, [Splice(at + line_start, at + line_end, text),
                                   Splice(def_at + def_lines[0], def_at + def_lines[1], "")])


class _Site:
    """Where a function would be inlined (``site``, a statement of ``scope``) and which reads of its locals
    there clash (:func:`_locals_clash`): any in a nested function or class body; else, unless the site
    rebinds the name itself or leaves the function, any after the site, or any at all when the site is
    not directly in the scope's body (a loop or a block around it)."""

    def __init__(self, site: ast.stmt, scope: ast.AST, parents: dict[int, ast.AST],
                 end: tuple[int, int] | None = None) -> None:
        self.targets = set(_bound_by_assignment(site) or []) if isinstance(site, ast.Assign) else set()
        self.end = end or (site.end_lineno or site.lineno, site.end_col_offset or 0)
        self.in_body = any(s is site for s in getattr(scope, "body", []))
        # ``return f(...)``: nothing of the function runs after the site (unless a ``finally`` does)
        self.leaves = isinstance(site, ast.Return) and not _in_finally_scope(parents, site, scope)

    def clashes(self, name: str, reads: Iterable[tuple[tuple[int, int], bool]]) -> bool:
        """Does one of ``reads`` (position, in a nested scope) of ``name`` clash?"""
        for position, nested in reads:
            if nested:
                return True  # read in a nested function (or a class body)
            if name in self.targets or self.leaves:
                continue
            if not self.in_body or position >= self.end:
                return True
        return False


def _clashing_locals(scopes: Scopes, func: ast.FunctionDef, bound: dict[str, str]) -> list[str]:
    """The locals of ``func`` that inlining binds at the site: all but a parameter passed a name of its own
    spelling that the function never rebinds."""
    body = list(_own_nodes(func.body))
    rebound = {n.id for n in body if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    rebound |= {n.name for n in body if isinstance(n, (*_FUNCS, ast.ClassDef))}
    rebound |= {import_binding(n, a) for n in body if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    return [name for name in scopes.locals.get(id(func), set()) if bound.get(name) != name or name in rebound]


def _function_site_clash(scopes: Scopes, scope: ast.AST, name: str) -> bool | None:
    """In a function site scope: True when ``name`` clashes whatever reads it (declared global there, or
    mentioned there without being bound there: it would become local); False when it is not mentioned
    at all; None when it is a local there (its reads decide)."""
    if name in scopes._declared_global.get(id(scope), set()):
        return True
    if name not in scopes.locals.get(id(scope), set()):
        return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(scope))
    return None


def _nested(scopes: Scopes, stmt: ast.stmt | None, scope: ast.AST) -> bool:
    """A read in statement ``stmt`` is not directly in ``scope`` (a nested function, a class body, a default)."""
    return stmt is None or scopes.scope_of(stmt) is not scope or isinstance(stmt, _SCOPES)


def _locals_clash(scopes: Scopes, parents: dict[int, ast.AST], func: ast.FunctionDef, site: ast.stmt,
                  bound: dict[str, str]) -> bool:
    """Inlined at ``site``, a local of ``func`` would mean something else there: the site's scope
    reads that name where the inlined binding changes what is read -- in a nested function (it may
    run while the inlined body does), or after the site (but for the site's own target, rebound by
    the site anyway; after a ``return`` site nothing runs); before the site is fine unless the site is
    in a loop or a block (:class:`_Site`). In a function that does not bind the name itself, any
    mention of it clashes (it would become local there). A parameter bound to a name of its own
    spelling that the function never rebinds is no binding."""
    site_scope = scopes.scope_of(site)
    if isinstance(site_scope, ast.ClassDef):
        return True
    return _clash_at(scopes, parents, site, site_scope, _clashing_locals(scopes, func, bound))


def _clash_at(scopes: Scopes, parents: dict[int, ast.AST], site: ast.stmt, site_scope: ast.AST,
              names: list[str]) -> bool:
    """Does binding ``names`` at ``site`` (a statement of ``site_scope``, the module or a function) clash?"""
    rule = _Site(site, site_scope, parents)
    for name in names:
        if site_scope is not scopes.tree:
            clash = _function_site_clash(scopes, site_scope, name)
            if clash is not None:
                if clash:
                    return True
                continue
        reads = (((node.lineno, node.col_offset), _nested(scopes, stmt, site_scope))
                 for node, stmt in _reads_of(scopes, parents, name, site_scope))
        if rule.clashes(name, reads):
            return True
    return False


def _chunk_locals_clash(module: Module, fchunk: Chunk, func: ast.FunctionDef, j: int, site: ast.stmt,
                        bound: dict[str, str]) -> bool:
    """:func:`_locals_clash` on chunks: ``func`` of chunk ``fchunk``, ``site`` of chunk ``j``. A site in a
    function is all in its chunk; at module level, the reads of a name are each chunk's module-level
    reads of it (:func:`_module_reads`), at their places in the module."""
    schunk = module.chunks[j]
    scopes = schunk.scopes
    site_scope = scopes.scope_of(site)
    if isinstance(site_scope, ast.ClassDef):
        return True
    names = _clashing_locals(fchunk.scopes, func, bound)
    if site_scope is not scopes.tree:  # (all in the site's chunk)
        return _clash_at(scopes, schunk.parents, site, site_scope, names)
    end = (module.first_line[j] + (site.end_lineno or site.lineno), site.end_col_offset or 0)
    rule = _Site(site, site_scope, schunk.parents, end)
    chunk_reads = [chunk.get("module_reads", _module_reads) for chunk in module.chunks]
    for name in names:
        reads = (((module.first_line[k] + line, col), nested)
                 for k, found in enumerate(chunk_reads) if name in found for line, col, nested in found[name])
        if rule.clashes(name, reads):
            return True
    return False


def _module_reads(chunk: Chunk) -> dict[str, list[tuple[int, int, bool]]]:
    """Per name, the loads in ``chunk`` of the module's binding of it (:func:`_reads_of` of the module):
    ``(lineno, col_offset, nested)`` (positions in the chunk; ``nested``: see :func:`_nested`)."""
    scopes, parents = chunk.scopes, chunk.parents
    out: dict[str, list[tuple[int, int, bool]]] = {}
    for node in ast.walk(chunk.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            stmt = _statement_of(parents, node)
            if _owner(scopes, stmt, node.id) is chunk.tree:
                out.setdefault(node.id, []).append((node.lineno, node.col_offset, _nested(scopes, stmt, chunk.tree)))
    return out


def _in_finally_scope(parents: dict[int, ast.AST], node: ast.AST, scope: ast.AST) -> bool:
    """``node`` is inside a ``try`` with a ``finally`` (within ``scope``)."""
    cur = parents.get(id(node))
    while cur is not None and cur is not scope:
        if isinstance(cur, ast.Try) and cur.finalbody:
            return True
        cur = parents.get(id(cur))
    return False


def _statement_of(parents: dict[int, ast.AST], node: ast.AST) -> ast.stmt | None:
    """The statement ``node`` is in (itself if it is one)."""
    stmt: ast.AST | None = node
    while stmt is not None and not isinstance(stmt, ast.stmt):
        stmt = parents.get(id(stmt))
    return stmt if isinstance(stmt, ast.stmt) else None


def _owner(scopes: Scopes, stmt: ast.stmt | None, name: str) -> ast.AST:
    """The scope whose binding of ``name`` a load in ``stmt`` reads (a default or decorator: conservatively
    the def's own)."""
    scope = scopes.scope_of(stmt) if stmt is not None else scopes.tree
    if isinstance(stmt, _SCOPES):
        scope = stmt
    return scopes.resolve(scope, name)


def _reads_of(scopes: Scopes, parents: dict[int, ast.AST], name: str,
              owner: ast.AST) -> Iterator[tuple[ast.Name, ast.stmt | None]]:
    """Loads of ``owner``'s binding of ``name`` (``owner``: the module or a function) and their statements."""
    for node in ast.walk(owner):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load):
            stmt = _statement_of(parents, node)
            if _owner(scopes, stmt, name) is owner:
                yield node, stmt


def _parameter_assignment(bound: dict[str, str], used: set[str], indent: str, nl: str) -> str:
    """The line binding an inlined function's parameters the body reads to their arguments' texts
    (``n = 12`` / ``a, b = x, y``; none for a parameter passed a name like its own)."""
    assigned = [(name, text) for name, text in bound.items() if name in used and name != text]
    if not assigned:
        return ""
    return f"{indent}{', '.join(n for n, _ in assigned)} = {', '.join(t for _, t in assigned)}{nl}"


def _inlined_body(smap: SourceMap, func: ast.FunctionDef, bound: dict[str, str], prefix: str, indent: str) -> str:
    """The statements replacing ``prefix func(args)``: the parameters assigned, the body, the result."""
    nl = smap.default_newline()
    text = _parameter_assignment(bound, _names_in(func.body), indent, nl)
    body = list(func.body)
    replacements: list[tuple[int, int, str]] = []
    result_done = False
    last = body[-1]
    if isinstance(last, ast.Return):
        if last.value is None:
            body.pop()
        elif isinstance(last.value, ast.Name) and prefix.rstrip().endswith("=") and \
                prefix.rstrip()[:-1].strip() == last.value.id:
            body.pop()  # ``x = f()`` with ``return x``: no ``x = x``
            result_done = True
        else:
            ret_start = smap.stmt_span(last)[0]
            value_start = ret_start + len("return")  # ``return (x)``: the value's span starts inside
            while smap.source[value_start] in " \t":
                value_start += 1
            replacements.append((ret_start, value_start, prefix))
            result_done = True
    if body:
        text += block_text(smap, body, indent, replacements)
    if not result_done and prefix:
        text += f"{indent}{prefix}None{nl}"
    return text or f"{indent}pass{nl}"


#: Nodes that bind names of their own or suspend: an expression with one is not inlined.
_SCOPED = (ast.Lambda, ast.NamedExpr, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
           ast.Yield, ast.YieldFrom, ast.Await)
#: Argument nodes substituted without parentheses.
_ATOMS = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call)


def inline_expression_candidates(source: str) -> list[str]:
    """Inline a module-level one-use function whose body is ``return EXPR`` where it is called inside an
    expression (``if not is_copy(node):`` -> ``if not (node.target == "clone"):``).

    Parameters are replaced by the arguments' text (parenthesized); an argument that is not a plain
    name or constant may be substituted only once (no repeated evaluation). Functions whose
    expression binds names of its own (lambda, comprehension, walrus) are left alone.
    """
    return list(_inline_expression_candidates(Module.of(source)))


def lazy_inline_expression_candidates(source: str) -> Lazy[str]:
    """:func:`inline_expression_candidates`, each made when the search asks for it."""
    return Lazy(_inline_expression_candidates(Module.of(source)))


def _inline_expression_candidates(module: Module) -> Iterator[str]:
    for i, func, j, call in _chunk_one_use_calls(module):
        fchunk, schunk = module.chunks[i], module.chunks[j]
        expr = _returned_expression(func)
        if expr is None or isinstance(schunk.parents.get(id(call)), ast.Expr):
            continue  # not ``return EXPR``; or a statement-level call: the statement pass inlines those
        call_start, call_end = schunk.smap.span(call)
        if i == j:
            def_start, def_end = fchunk.smap.stmt_span(func)
            if def_start <= call_start < def_end:
                continue  # recursive
        text = _substituted(schunk.smap, func, call, expr, fchunk.smap)
        def_lines = _full_lines(fchunk.smap, func)
        if text is None or def_lines is None:
            continue
        at, def_at = module.offsets[j], module.offsets[i]
        candidate = spliced(module.source, [Splice(at + call_start, at + call_end, f"({text})"),
                                            Splice(def_at + def_lines[0], def_at + def_lines[1], "")])
        if candidate is not None:
            yield candidate


def _returned_expression(func: ast.FunctionDef) -> ast.expr | None:
    """EXPR when ``func``'s body is (a docstring and) ``return EXPR`` and EXPR binds no names of its own."""
    body = [b for b in func.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None or not _inlinable(func):
        return None
    expr = body[0].value
    if any(isinstance(n, _SCOPED) for n in ast.walk(expr)):
        return None
    return expr


def _substituted(smap: SourceMap, func: ast.FunctionDef, call: ast.Call, expr: ast.expr,
                 def_smap: SourceMap | None = None) -> str | None:
    """The text of ``expr`` with ``call``'s arguments for the parameters; None if that could evaluate
    an argument more than once (or the arguments do not bind). ``def_smap``: where ``func``'s text is, when
    not in ``smap`` (a chunk of its own)."""
    bound = _bind_arguments(smap, func, call, def_smap)
    if bound is None:
        return None
    arg_nodes = {p.arg: a for p, a in zip([*func.args.posonlyargs, *func.args.args], call.args)}
    arg_nodes.update({k.arg: k.value for k in call.keywords if k.arg})
    uses = Counter(n.id for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in bound)
    if any(count > 1 and not isinstance(arg_nodes.get(name), (ast.Name, ast.Constant))
           for name, count in uses.items()):
        return None
    fsmap = def_smap or smap
    e_start, e_end = fsmap.span(expr)
    text_of = {name: bound[name] if isinstance(arg_nodes.get(name), _ATOMS) else f"({bound[name]})"
               for name in bound}
    splices = sorted(((fsmap.span(n)[0] - e_start, fsmap.span(n)[1] - e_start, text_of[n.id])
                      for n in ast.walk(expr) if isinstance(n, ast.Name) and n.id in bound), reverse=True)
    text = fsmap.source[e_start:e_end]
    for start, end, replacement in splices:
        text = text[:start] + replacement + text[end:]
    return text


# ----------------------------------------------------------------------- docstrings
def _docstring_index(info: BodyInfo) -> bool:
    if info.owner is not None and not isinstance(info.owner, (*_FUNCS, ast.ClassDef)):
        return False
    first = info.seq.stmts[0]
    if info.owner is not None and first is not info.owner.body[0]:  # type: ignore[attr-defined]
        return False
    return (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )


def drop_docstrings(source: str) -> str | None:
    """The source without module/class/function docstrings (None if there are none)."""
    tree, smap = _parse(source)
    edits: list[Edit] = []
    for info in walk_bodies(tree, smap):
        if info.seq.stmts and _docstring_index(info):
            edits.append(Delete(info.seq, 0))
    if not edits:
        return None
    return apply_edits(source, edits)


__all__ = [
    "drop_docstrings",
    "drop_target_candidates",
    "import_binding",
    "inline_candidates",
    "inline_expression_candidates",
    "loaded_names",
    "propose_unused",
    "statement_levels",
    "unwrap_candidates",
]
