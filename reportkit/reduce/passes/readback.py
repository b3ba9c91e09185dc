"""Values built only to be read back at once become the value itself.

- :func:`display_subscript_candidates`: a display subscripted by a literal where it is written,
  ``{**{"keep_days": 14}}["keep_days"]`` -> ``14``, ``{"a": x, "b": y}["b"]`` -> ``y``,
  ``[a, b, c][1]`` -> ``b``; the same for a method that reads one element of a fresh display,
  ``[x].pop()`` -> ``x`` (what inlining ``skips = [x]`` into ``skips.pop()`` leaves), ``[a, b].pop(0)``,
  ``{"k": v}.pop("k")`` / ``.get("k")``. Only when the result is the same: the keys are literals (``**`` of a
  display of such keys is flattened; later keys win, as in Python), the index is a literal found in
  the display (else it raises ``KeyError`` / ``IndexError``, and stays), and every other key and value
  the display evaluates can be dropped: names, literals, displays, attribute and subscript reads (no
  call, no walrus, no ``await``/``yield``, nothing starred).
- :func:`field_readback_candidates`: a plain data class built only to read one of its fields,
  ``Backup(name, created).created`` -> ``created``. The class is a module-level ``@dataclass`` (no
  ``init=False`` / ``kw_only`` / ``field(...)`` / ``ClassVar`` / ``InitVar``) or a plain class whose
  ``__init__`` only stores its parameters (``self.created = created``); either way no base, no
  metaclass, defined once, no ``__post_init__`` / ``__new__`` / attribute hooks, and nothing else in it
  named like the field. The arguments not read must be droppable as above (a default is used only
  when it is a literal).
- :func:`unused_field_candidates`: a field of such a ``@dataclass`` that nothing reads goes, with its
  argument at every construction (``Task(7, "rota", due)`` -> ``Task(due)`` when nothing reads ``.id``
  or ``.title``): HDD cannot delete the field line alone (the positional arguments would shift). Only
  when the class is used by calling it (an annotation or ``isinstance`` aside) with no ``*``/``**``
  arguments, and the program reads no attribute of that name and nothing that lists a record's fields
  (``asdict``, ``fields``, ``vars``, ``getattr``, ``__dict__``, ``match``...).
- :func:`argparse_default_candidates`: an option of an ``argparse`` parser read back where it is used,
  ``parser.parse_args().as_of`` / ``args.as_of`` -> the option's default as written (``"2026-11-27
  09:00"``; ``False`` for ``store_true``, ``None`` without one). The value the script ran with when no
  arguments are given, so the same value; the parser then goes by the other passes. Only for an
  optional (``--as-of``) whose default is a literal or computed from imported modules only
  (``tempfile.gettempdir()``: then computed where it is read), a ``type`` only with a literal default that
  is not a string (argparse converts string defaults only: ``type=int, default=10`` is 10), no ``nargs``, ``required``,
  ``dest`` other than a literal or an action beyond ``store``/``store_true``/``store_false``; only for a
  parser bound once, used by nothing but ``add_argument`` and ``parse_args()`` without arguments, whose
  result is read only as attributes.

The pass proposes; the tester decides.
"""

from __future__ import annotations

import ast

from .edits import Delete, Edit, Splice, apply_edits, apply_splices, walk_bodies
from .expressions import call_elements
from .scopes import Bindings, Scopes, enclosing_scope, import_binding, node_index, own_super_class, scopes_of
from .source import SourceMap, parses
from .statements import _parents, _parse
from .wrappers import _class_bases, _constant_expression, _defined_once, _module_level_at, _placed

_DROPPABLE = (ast.Constant, ast.Name, ast.List, ast.Tuple, ast.Set, ast.Dict, ast.Attribute, ast.Subscript,
              ast.Slice, ast.expr_context)
_HOOKS = {"__post_init__", "__new__", "__getattr__", "__getattribute__", "__setattr__", "__init_subclass__",
          "__class_getitem__", "__set_name__", "__delattr__"}
_DATACLASS_OPTIONS = {"frozen", "eq", "order", "repr", "unsafe_hash", "slots", "weakref_slot"}


def _droppable(node: ast.expr | None) -> bool:
    """Evaluating ``node`` has no effect but, at most, an exception (no call of any kind)."""
    return node is None or all(isinstance(n, _DROPPABLE) for n in ast.walk(node))


def _key(node: ast.expr) -> tuple[bool, object]:
    """(True, value) for a hashable literal key, else (False, None)."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, type(...)):
        return True, node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return True, -node.operand.value
    return False, None


def _dict_entries(node: ast.Dict, out: list[tuple[ast.expr, ast.expr]]) -> bool:
    """The key/value pairs of a dict display in evaluation order, ``**{...}`` flattened; False when a
    key is not a literal or a ``**`` is not a display."""
    for key, value in zip(node.keys, node.values):
        if key is None:
            if not isinstance(value, ast.Dict) or not _dict_entries(value, out):
                return False
        else:
            out.append((key, value))
    return True


def _display_element(node: ast.Subscript) -> ast.expr | None:
    """The element ``node`` (a display subscripted by a literal) evaluates to, when every other part of the
    display can be dropped; None otherwise."""
    if not isinstance(node.ctx, ast.Load):
        return None
    ok, index = _key(node.slice)
    if not ok:
        return None
    display = node.value
    if isinstance(display, ast.Dict):
        entries: list[tuple[ast.expr, ast.expr]] = []
        if not _dict_entries(display, entries):
            return None
        chosen: dict[object, ast.expr] = {}
        for key, value in entries:
            ok, k = _key(key)
            if not ok:
                return None
            try:
                chosen[k] = value  # equal keys (``1`` / ``True``): the last value wins, as in Python
            except TypeError:
                return None
        try:
            element = chosen.get(index)
        except TypeError:
            return None
        others = [v for _, v in entries if v is not element]
    elif isinstance(display, (ast.List, ast.Tuple)):
        if type(index) is not int or any(isinstance(e, ast.Starred) for e in display.elts):
            return None
        if not -len(display.elts) <= index < len(display.elts):
            return None
        element = display.elts[index]
        others = [e for e in display.elts if e is not element]
    else:
        return None
    if element is None or not all(_droppable(o) for o in others):
        return None
    return element


def display_subscript_candidates(source: str) -> list[str]:
    """``{"k": v, ...}["k"]`` / ``[a, b][1]`` of literal keys -> the element (see the module docstring)."""
    tree = _parse(source)[0]
    smap = SourceMap(source)
    parents = _parents(tree)
    out: list[str] = []
    for node in ast.walk(tree):
        read = node if isinstance(node, ast.Subscript) else _method_read(node)
        element = None if read is None else _display_element(read)
        if element is None:
            continue
        text = _placed(parents, node, element, smap.text(element))
        candidate = apply_splices(source, [Splice(*smap.span(node), text)])
        if candidate is not None:
            out.append(candidate)
    return out


def _method_read(node: ast.AST) -> ast.Subscript | None:
    """``[a, b].pop()`` / ``[a, b].pop(0)`` of a list display, ``{"k": v}.pop("k")`` / ``.get("k")`` of a
    dict display, as the subscript that reads the same element (``[a, b][-1]``); None for anything else
    (a default argument, a key the display lacks: ``_display_element`` finds no element for it)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.keywords
            and len(node.args) <= 1 and not any(isinstance(a, ast.Starred) for a in node.args)):
        return None
    display, method = node.func.value, node.func.attr
    if isinstance(display, ast.List) and method == "pop":
        index = node.args[0] if node.args else ast.Constant(-1)
    elif isinstance(display, ast.Dict) and method in ("pop", "get") and node.args:
        index = node.args[0]
    else:
        return None
    return ast.Subscript(value=display, slice=index, ctx=ast.Load())


def display_copy_candidates(source: str) -> list[str]:
    """``{**{"k": v}}`` (a copy of a fresh display, nothing else) -> ``{"k": v}``: the same data, one
    dict less (so not a value pass: nothing is read out of it)."""
    tree = _parse(source)[0]
    smap = SourceMap(source)
    out: list[str] = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Dict) and len(node.keys) == 1 and node.keys[0] is None
                and isinstance(node.values[0], ast.Dict)):
            candidate = apply_splices(source, [Splice(*smap.span(node), smap.text(node.values[0]))])
            if candidate is not None:
                out.append(candidate)
    return out


# ----------------------------------------------------------------------------- constant lookup tables
_IMMUTABLE = (ast.Constant, ast.Tuple, ast.UnaryOp, ast.USub, ast.expr_context)
_DATA = (*_IMMUTABLE, ast.List, ast.Dict, ast.Set)
#: at most this many single-read candidates per table (besides the one with every read)
_MOST_SINGLE = 6


def _literal_table(stmt: ast.stmt) -> dict[object, ast.expr] | None:
    """Key -> value of a module-level ``config = {"workers": 2, "chunk": 400}``: literal keys (``**`` of such a
    display flattened), values of literal data only; None if ``stmt`` is not one."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Dict)):
        return None
    entries: list[tuple[ast.expr, ast.expr]] = []
    if not _dict_entries(stmt.value, entries):
        return None
    table: dict[object, ast.expr] = {}
    try:
        for key, value in entries:
            ok, k = _key(key)
            if not ok or not all(isinstance(n, _DATA) for n in ast.walk(value)):
                raise TypeError
            table[k] = value
    except TypeError:
        return None
    return table


def _table_reads(smap: SourceMap, parents: dict[int, ast.AST], bindings: Bindings, tree: ast.Module,
                 stmt: ast.stmt, table: dict[object, ast.expr]) -> list[tuple[ast.Subscript, ast.expr]]:
    """``config["workers"]`` -> ``2``: (the read, the value) of each use of the table bound by ``stmt``; none
    when the table is bound more than once or a use is not a read by a key it has."""
    assert isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name)  # (:func:`_literal_table`)
    binding = stmt.targets[0]
    if not bindings.bound_once(binding, binding.id):
        return []
    stmt_start = smap.stmt_span(stmt)[0]
    reads: list[tuple[ast.Subscript, ast.expr]] = []
    for node in bindings.loads(binding, binding.id):
        up = parents.get(id(node))
        if not (isinstance(up, ast.Subscript) and up.value is node and isinstance(up.ctx, ast.Load)):
            return []  # the table itself is used (passed on, iterated, ``.get``, written)
        ok, k = _key(up.slice)
        try:
            value = table.get(k) if ok else None
        except TypeError:
            value = None
        if value is None:
            return []  # a computed or missing key
        if smap.span(node)[0] < stmt_start and enclosing_scope(parents, node) is tree:
            return []  # read at module level before it is bound: a NameError, stays
        reads.append((up, value))
    return reads


def lookup_table_candidates(source: str) -> list[str]:
    """A module-level dict of literal data (:func:`_literal_table`, ``config = {"workers": 2, "chunk": 400}``),
    bound once and only ever read by literal keys it has (:func:`_table_reads`, ``config["workers"]``), is
    read where it is used: each read becomes the value (``2``). A value that is a mutable display (a list,
    a dict) only where its key is read once (two reads of one list are one object; two displays would be
    two). The assignment stays (the unused-names pass removes it). One candidate with every read, then one
    per read."""
    tree = _parse(source)[0]
    smap = SourceMap(source)
    parents = _parents(tree)
    bindings = Bindings(tree, parents)
    out: list[str] = []
    for stmt in tree.body:
        table = _literal_table(stmt)
        reads = _table_reads(smap, parents, bindings, tree, stmt, table) if table is not None else []
        per_value: dict[int, int] = {}
        for _, value in reads:
            per_value[id(value)] = per_value.get(id(value), 0) + 1
        usable = [(up, value) for up, value in reads
                  if all(isinstance(n, _IMMUTABLE) for n in ast.walk(value)) or per_value[id(value)] == 1]
        if not usable:
            continue
        splices = [Splice(*smap.span(up), _placed(parents, up, value, smap.text(value))) for up, value in usable]
        every = apply_splices(source, splices)
        singles = [apply_splices(source, [splice]) for splice in splices[:_MOST_SINGLE]] if len(splices) > 1 else []
        out.extend(c for c in [every, *singles] if c is not None)
    return out


# ----------------------------------------------------------------------------- data classes
def _is_dataclass_decorator(node: ast.expr) -> bool:
    def named(n: ast.expr) -> bool:
        return (isinstance(n, ast.Name) and n.id == "dataclass"
                or isinstance(n, ast.Attribute) and n.attr == "dataclass" and isinstance(n.value, ast.Name)
                and n.value.id == "dataclasses")
    if isinstance(node, ast.Call):
        return (named(node.func) and not node.args
                and all(k.arg in _DATACLASS_OPTIONS and isinstance(k.value, ast.Constant) for k in node.keywords))
    return named(node)


def _class_names(cls: ast.ClassDef) -> set[str] | None:
    """The names a class body binds (methods, class attributes, nested classes); None when it defines an
    attribute hook (``__post_init__``, ``__getattr__``...: :data:`_HOOKS`)."""
    names: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if stmt.name in _HOOKS:
                return None
            names.add(stmt.name)
        elif isinstance(stmt, (ast.Assign, ast.AugAssign)):
            names |= {n.id for t in getattr(stmt, "targets", [getattr(stmt, "target", None)])
                      for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(stmt, ast.ClassDef):
            names.add(stmt.name)
    return names


def _dataclass_field(stmt: ast.AnnAssign, params: list[ast.arg], defaults: list[ast.expr], names: set[str]) -> bool:
    """Add the field ``stmt`` (``b: int = 0``) of a ``@dataclass`` to its ``params`` and ``defaults``; False
    where it is not a plain field (``ClassVar``, ``InitVar``, ``KW_ONLY``, ``field(...)``), is named like
    another name of the class (``names``) or has no default after one with."""
    if not isinstance(stmt.target, ast.Name):
        return False
    annotation = ast.unparse(stmt.annotation)
    if any(word in annotation for word in ("ClassVar", "InitVar", "KW_ONLY")):
        return False
    if stmt.value is None:
        if defaults:
            return False  # a field without a default after one with: a TypeError at class creation
    elif isinstance(stmt.value, ast.Call):
        return False  # ``field(...)``: a factory, ``init=False``...
    else:
        defaults.append(stmt.value)
    if stmt.target.id in names or any(p.arg == stmt.target.id for p in params):
        return False
    params.append(ast.arg(arg=stmt.target.id))
    return True


def _dataclass_fields(cls: ast.ClassDef, names: set[str]) -> tuple[list[ast.arg], list[ast.expr], dict[str, str]] | None:
    """``@dataclass class C: a: int; b: int = 0`` -> the parameters ``a, b``, the defaults ``0``, each field
    stored as itself; no ``__init__`` of its own."""
    params: list[ast.arg] = []
    defaults: list[ast.expr] = []
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and not _dataclass_field(stmt, params, defaults, names):
            return None
    if "__init__" in names:
        return None
    return params, defaults, {p.arg: p.arg for p in params}


def _stored_parameter(stmt: ast.stmt, self_name: str, params: set[str]) -> tuple[str, str] | None:
    """``(field, parameter)`` of ``self.field = parameter`` (``self``: ``self_name``, one of ``params``)."""
    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute)
            and isinstance(stmt.targets[0].value, ast.Name) and stmt.targets[0].value.id == self_name
            and isinstance(stmt.value, ast.Name) and stmt.value.id in params):
        return stmt.targets[0].attr, stmt.value.id
    return None


def _plain_init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    """The ``__init__(self, ...)`` of an undecorated class: undecorated, positional parameters only."""
    if cls.decorator_list:
        return None
    init = next((s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)
    if init is None or init.decorator_list:
        return None
    args = init.args
    if args.posonlyargs or args.vararg or args.kwarg or args.kwonlyargs or not args.args:
        return None
    return init


def _init_fields(cls: ast.ClassDef, names: set[str]) -> tuple[list[ast.arg], list[ast.expr], dict[str, str]] | None:
    """``class C: def __init__(self, a, b=0): self.a = a; self.b = b`` -> the parameters ``a, b``, the defaults
    ``0``, field -> parameter: an undecorated class whose ``__init__`` only stores its parameters, each field
    once and none named like another name of the class (``names``)."""
    init = _plain_init(cls)
    if init is None:
        return None
    args = init.args
    params = args.args[1:]
    param_names = {p.arg for p in params}
    stored: dict[str, str] = {}
    for stmt in init.body:
        if (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)) or isinstance(stmt, ast.Pass):
            continue
        pair = _stored_parameter(stmt, args.args[0].arg, param_names)
        if pair is None:
            return None
        stored[pair[0]] = pair[1]
    if set(stored) & (names - {"__init__"}) or len(set(stored)) != sum(1 for s in init.body if isinstance(s, ast.Assign)):
        return None  # a field named like a method / class attribute, or set twice
    return params, list(args.defaults), stored


def _fields(cls: ast.ClassDef) -> tuple[list[ast.arg], list[ast.expr], dict[str, str]] | None:
    """(parameters, defaults of the last ones, field -> parameter) of a record class, or None: a
    ``@dataclass`` (:func:`_dataclass_fields`) or a class whose ``__init__`` stores its parameters
    (:func:`_init_fields`), without bases, metaclass, ``__slots__`` or attribute hooks."""
    if cls.bases or cls.keywords:
        return None
    if any(isinstance(n, ast.Name) and n.id == "__slots__" for s in cls.body for n in ast.walk(s)):
        return None  # an attribute left out of ``__slots__`` fails where it is set
    names = _class_names(cls)
    if names is None:
        return None
    if len(cls.decorator_list) == 1 and _is_dataclass_decorator(cls.decorator_list[0]):
        return _dataclass_fields(cls, names)
    return _init_fields(cls, names)


def _records(tree: ast.Module) -> dict[str, tuple[list[ast.arg], list[ast.expr], dict[str, str]]]:
    """Name -> :func:`_fields` of the module-level record classes no class derives from, defined once."""
    bases = _class_bases(tree)
    records = {}
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef) and cls.name not in bases and _defined_once(tree, cls.name):
            got = _fields(cls)
            if got is not None:
                records[cls.name] = got
    return records


def _record_variable(bindings: Bindings, parents: dict[int, ast.AST], records: dict,
                     node: ast.AST) -> list[ast.Attribute] | None:
    """The reads of ``b`` where ``node`` is ``b = C(...)`` of a record class, ``b`` bound once and read only
    as attributes; else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id in records):
        return None
    var = node.targets[0].id
    reads = [parents.get(id(n)) for n in bindings.loads(node.targets[0], var)]
    if not reads or not all(isinstance(r, ast.Attribute) and isinstance(r.ctx, ast.Load) for r in reads):
        return None
    if not bindings.bound_once(node.targets[0], var):
        return None
    return reads  # type: ignore[return-value]


def _field_readback(source: str, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST], records: dict,
                    via: dict, node: ast.Attribute, call: ast.Call) -> str | None:
    """``C(a, b).field`` -> the argument bound to ``field`` (the others droppable); through a variable
    (``via``: ``x = C(a, b)`` read only as ``x.field``) -> ``x = b`` and each ``x.field`` -> ``x``."""
    if not (isinstance(call.func, ast.Name) and call.func.id in records):
        return None
    if not _module_level_at(scopes, parents, call.func, call.func.id):
        return None
    params, defaults, stored = records[call.func.id]
    if node.attr not in stored:
        return None
    values = _call_values(call, params, defaults)
    value = values[stored[node.attr]] if values is not None else None
    if value is None:
        return None  # (a default evaluated once, where the class was defined)
    others = [a for a in [*call.args, *(k.value for k in call.keywords)] if a is not value]
    if not all(_droppable(o) for o in others):
        return None
    if node.value is call:
        splices = [Splice(*smap.span(node), _placed(parents, node, value, smap.text(value)))]
    else:  # through a variable: it holds the field's value from the construction on
        splices = [Splice(*smap.span(call), _placed(parents, call, value, smap.text(value)))]
        splices += [Splice(*smap.span(r), smap.text(r.value)) for r in via[id(call)][1]]
    return apply_splices(source, splices)


def field_readback_candidates(source: str) -> list[str]:
    """``C(a, b).field`` of a record class (:func:`_fields`) -> the argument bound to that field, also through
    a variable read as one field only (:func:`_field_readback`); a variable read as several fields
    (``cfg.dim``, ``cfg.seed``) -> the literals they hold (:func:`_constant_field_reads`). See the module
    docstring."""
    tree = _parse(source)[0]
    smap = SourceMap(source)
    parents = _parents(tree)
    scopes = scopes_of(tree)
    records = _records(tree)
    out: list[str] = []
    if not records:
        return out
    # ``b = C(...)`` read only as ``b.field``, one field: ``b = <that argument>`` and ``b.field`` -> ``b``
    via: dict[int, tuple[ast.Attribute, list[ast.Attribute]]] = {}  # id(call) -> a read, every read
    bindings = Bindings(tree, parents, scopes)
    for node in ast.walk(tree):
        reads = _record_variable(bindings, parents, records, node)
        if reads is None:
            continue
        if len({r.attr for r in reads}) == 1:
            via[id(node.value)] = (reads[0], reads)  # type: ignore[attr-defined]
        else:
            out.extend(_constant_field_reads(source, smap, scopes, parents, records, node, reads))  # type: ignore[arg-type]
    sites: list[tuple[ast.Attribute, ast.Call]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Call):
            sites.append((node, node.value))
        elif isinstance(node, ast.Call) and id(node) in via:
            sites.append((via[id(node)][0], node))
    for node, call in sites:
        candidate = _field_readback(source, smap, scopes, parents, records, via, node, call)
        if candidate is not None:
            out.append(candidate)
    return out


def _call_values(call: ast.Call, params: list[ast.arg], defaults: list[ast.expr]) -> dict[str, ast.expr | None] | None:
    """Parameter -> the expression a record class's construction ``call`` binds to it (its argument, or its
    default: None for a default that is not a literal); None when the call cannot be read so (``*``/``**``
    arguments, a TypeError)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    if len(call.args) > len(params):
        return None
    bound: dict[str, ast.expr | None] = {p.arg: a for p, a in zip(params, call.args)}
    if any(k.arg in bound or k.arg not in {p.arg for p in params} for k in call.keywords):
        return None
    bound.update({k.arg: k.value for k in call.keywords})  # type: ignore[misc]
    default_of = dict(zip([p.arg for p in params][len(params) - len(defaults):], defaults))
    if any(p.arg not in bound and p.arg not in default_of for p in params):
        return None  # a TypeError: stays
    for p in params:
        if p.arg not in bound:
            default = default_of[p.arg]
            bound[p.arg] = default if _constant_expression(default) else None
    return bound


def _constant_field_reads(source: str, smap: SourceMap, scopes: Scopes, parents: dict[int, ast.AST],
                          records: dict, assign: ast.Assign, reads: list[ast.Attribute]) -> list[str]:
    """``cfg = Config(dim=8)`` (a record class, bound once) read only as its fields, several of them
    (``cfg.dim``, ``cfg.seed``): each read whose field holds a literal (its argument, or the class's
    default) becomes that literal, every such read at once (a configuration object is scaffolding around
    its values). Not when a read is not a field (a method may change the fields), nor when a read comes
    before the binding in the binding's own scope (a NameError)."""
    call = assign.value
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
    if not _module_level_at(scopes, parents, call.func, call.func.id):
        return []
    params, defaults, stored = records[call.func.id]
    if any(r.attr not in stored for r in reads):
        return []
    values = _call_values(call, params, defaults)
    if values is None:
        return []
    start = smap.stmt_span(assign)[0]
    scope = enclosing_scope(parents, assign)
    splices = []
    for read in reads:
        value = values[stored[read.attr]]
        if value is None or not _constant_expression(value):
            continue
        if smap.span(read)[0] < start and enclosing_scope(parents, read) is scope:
            return []
        splices.append(Splice(*smap.span(read), _placed(parents, read, value, smap.text(value))))
    candidate = apply_splices(source, splices) if splices else None
    return [candidate] if candidate is not None and parses(candidate) else []


#: Names whose presence anywhere means fields may be listed or read by name: no field is dropped then.
_FIELD_LISTERS = {"asdict", "astuple", "fields", "replace", "vars", "getattr", "setattr", "delattr", "hasattr",
                  "__dict__", "__dataclass_fields__", "__match_args__", "__slots__", "__annotations__"}


def _fields_listed(tree: ast.Module) -> bool:
    """Something may list a record's fields or match them by position: a ``match`` statement (a class
    pattern matches fields by position, ``__match_args__``), or a name of :data:`_FIELD_LISTERS` anywhere
    (``asdict(x)``, ``vars(x)``, ``x.__dict__``, ``dataclasses.fields``, ``from dataclasses import fields``)."""
    if any(isinstance(n, getattr(ast, "Match", ())) for n in ast.walk(tree)):
        return True
    words = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    words |= {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)
              and (n.attr.startswith("__") or isinstance(n.value, ast.Name) and n.value.id == "dataclasses")}
    words |= {a.name.split(".")[-1] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    return bool(words & _FIELD_LISTERS)


def _dataclass_params(tree: ast.Module, bases: set[str], bodies: dict[int, object], cls: ast.ClassDef) -> list[str] | None:
    """The fields, in order, of a module-level ``@dataclass`` (every decorator a dataclass one, plain fields:
    :func:`_fields`) that no class derives from, defined once; None for any other class."""
    if not (cls.decorator_list and cls.name not in bases and _defined_once(tree, cls.name) and id(cls) in bodies):
        return None
    got = _fields(cls)
    if got is None or not all(_is_dataclass_decorator(d) for d in cls.decorator_list):
        return None
    return [p.arg for p in got[0]]


def _field_dropped(smap: SourceMap, seq: object, cls: ast.ClassDef, calls: list[ast.Call], k: int,
                   name: str) -> list[Edit] | None:
    """The ``k``-th field, ``name``, deleted from the class body (``seq``) and its argument from each of
    ``calls`` (``Task(7, "rota", due)`` -> ``Task(7, due)``); None where a call's arguments cannot be edited."""
    stmts = [s for s in cls.body if isinstance(s, ast.AnnAssign)]
    edits: list[Edit] = [Delete(seq, cls.body.index(stmts[k]))]  # type: ignore[arg-type]
    for call in calls:
        elements_seq = call_elements(smap, call)
        elements = sorted([*call.args, *call.keywords], key=lambda n: (n.lineno, n.col_offset))
        arg = call.args[k] if k < len(call.args) else next((kw for kw in call.keywords if kw.arg == name), None)
        if arg is None:
            continue
        if elements_seq is None:
            return None
        edits.append(Delete(elements_seq, elements.index(arg)))
    return edits


def unused_field_candidates(source: str) -> list[str]:
    """A ``@dataclass`` field nothing reads (:func:`_dataclass_params`), and its argument at every
    construction (:func:`_field_dropped`); not where fields may be listed (:func:`_fields_listed`). See the
    module docstring."""
    tree = _parse(source)[0]
    if _fields_listed(tree):
        return []
    smap = SourceMap(source)
    parents = _parents(tree)
    bases = _class_bases(tree)
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    bodies = {id(info.owner): info.seq for info in walk_bodies(tree, smap) if isinstance(info.owner, ast.ClassDef)}
    out: list[str] = []
    for cls in (stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef)):
        params = _dataclass_params(tree, bases, bodies, cls)
        if params is None:
            continue
        calls = _constructions(tree, parents, cls.name)
        if calls is None:
            continue
        for k, name in enumerate(params):
            if name in attrs:
                continue
            edits = _field_dropped(smap, bodies[id(cls)], cls, calls, k, name)
            candidate = apply_edits(source, edits) if edits is not None else None
            if candidate is not None:
                out.append(candidate)
    return out


def _constructions(tree: ast.Module, parents: dict[int, ast.AST], name: str) -> list[ast.Call] | None:
    """Every ``name(...)`` call, or None when ``name`` is also used otherwise (passed as a value, with
    ``*``/``**`` arguments); an annotation or ``isinstance(x, name)`` is no use."""
    calls: list[ast.Call] = []
    for node in node_index(tree).loads.get(name, ()):
        parent = parents.get(id(node))
        if isinstance(parent, ast.Call) and parent.func is node:
            if any(isinstance(a, ast.Starred) for a in parent.args) or any(k.arg is None for k in parent.keywords):
                return None
            calls.append(parent)
        elif isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
                and parent.func.id in ("isinstance", "issubclass") and node in parent.args[1:]:
            continue
        elif not (_in_annotation(parents, node) or own_super_class(parents, node)):
            return None
    return calls


def _in_annotation(parents: dict[int, ast.AST], node: ast.AST) -> bool:
    child, cur = node, parents.get(id(node))
    while cur is not None:
        if isinstance(cur, (ast.AnnAssign, ast.arg)) and getattr(cur, "annotation", None) is child:
            return True
        if isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef)) and cur.returns is child:
            return True
        if isinstance(cur, ast.stmt):
            return False
        child, cur = cur, parents.get(id(cur))
    return False


_ARG_ACTIONS = {"store": None, "store_true": "False", "store_false": "True"}


def _parser_target(node: ast.AST) -> ast.Name | None:
    """``parser`` of ``parser = argparse.ArgumentParser(...)`` (or ``ArgumentParser(...)``)."""
    if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call) and _is_parser_class(node.value.func)):
        return node.targets[0]
    return None


def _parser_options(smap: SourceMap, parents: dict[int, ast.AST], bindings: Bindings, imported: set[str],
                    parser: ast.Name) -> tuple[dict[str, str], list[ast.Call]] | None:
    """(dest -> default text of each option this pass can read back, the ``parse_args()`` calls) of a parser
    used by nothing but ``parser.add_argument(...)`` statements and ``parser.parse_args()``; None otherwise
    (``parse_known_args``, ``set_defaults``, subparsers, groups, passed on...)."""
    defaults: dict[str, str] = {}
    results: list[ast.Call] = []
    usable = True
    for use in bindings.loads(parser, parser.id):
        attr = parents.get(id(use))
        call = parents.get(id(attr))
        if not (isinstance(attr, ast.Attribute) and isinstance(call, ast.Call) and call.func is attr):
            usable = False
        elif attr.attr == "parse_args" and not call.args and not call.keywords:
            results.append(call)
        elif attr.attr == "add_argument" and isinstance(parents.get(id(call)), ast.Expr):
            option = _option_default(call, smap, imported)
            if option is not None:
                defaults[option[0]] = option[1]
            elif any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
                usable = False  # (an option left alone, a positional, a ``type=``...: its reads stay)
        else:
            usable = False
    return (defaults, results) if usable else None


def argparse_default_candidates(source: str) -> list[str]:
    """``args.name`` of an ``argparse`` option -> its default (module docstring), one option at a time: a
    parser (:func:`_parser_target`) used only to add options and parse no arguments
    (:func:`_parser_options`), each option's default as :func:`_option_default` reads it, the parsed
    result read only as attributes (:func:`_parsed_reads`)."""
    tree = _parse(source)[0]
    smap = SourceMap(source)
    parents = _parents(tree)
    bindings = Bindings(tree, parents)
    imported = _module_imports(tree)
    out: list[str] = []
    for node in ast.walk(tree):
        parser = _parser_target(node)
        if parser is None or not bindings.bound_once(parser, parser.id):
            continue
        options = _parser_options(smap, parents, bindings, imported, parser)
        if options is None or not options[0]:
            continue
        defaults, results = options
        reads = _parsed_reads(bindings, parents, results)
        if reads is None:
            continue
        for dest, text in defaults.items():
            splices = [Splice(*smap.span(r), f"({text})" if text[:1].isdigit()
                              and isinstance(parents.get(id(r)), ast.Attribute) else text)
                       for r in reads if r.attr == dest]  # ``(3).bit_length()``
            candidate = apply_splices(source, splices) if splices else None
            if candidate is not None and parses(candidate):
                out.append(candidate)
    return out


def _is_parser_class(func: ast.expr) -> bool:
    return (isinstance(func, ast.Attribute) and func.attr == "ArgumentParser" and isinstance(func.value, ast.Name)
            and func.value.id == "argparse") or (isinstance(func, ast.Name) and func.id == "ArgumentParser")


#: What a default computed from imported modules may be made of (no lambda, walrus, comprehension, await).
_MOVABLE = (ast.Call, ast.Attribute, ast.Name, ast.Constant, ast.keyword, ast.BinOp, ast.operator, ast.Subscript,
            ast.Tuple, ast.List, ast.JoinedStr, ast.FormattedValue, ast.expr_context)


def _module_imports(tree: ast.Module) -> set[str]:
    """The names the module's top-level imports bind and nothing else binds."""
    names = {import_binding(stmt, alias) for stmt in tree.body if isinstance(stmt, (ast.Import, ast.ImportFrom))
             for alias in stmt.names if alias.name != "*"}
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    stored |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    return names - stored


def _movable(node: ast.expr, imported: set[str]) -> bool:
    """A default computed from imported modules only (``tempfile.gettempdir()``,
    ``os.environ.get("DATA", "data")``, ``Path.home() / "cache"``): read where the option is read, it is
    computed there the same way."""
    return all(isinstance(n, _MOVABLE) for n in ast.walk(node)) and all(
        n.id in imported for n in ast.walk(node) if isinstance(n, ast.Name))


def _option_flags(call: ast.Call) -> list[str] | None:
    """The flags of ``add_argument("-n", "--as-of", ...)`` of an optional; None for a positional (required
    unless nargs says otherwise) or a flag that is not a literal string."""
    if not call.args or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args):
        return None
    flags = [a.value for a in call.args]  # type: ignore[attr-defined]
    return flags if all(f.startswith("-") for f in flags) else None


def _option_keywords(call: ast.Call) -> dict[str, ast.expr] | None:
    """The keywords of an ``add_argument`` whose value this pass can tell: no ``**``, ``nargs``, ``required``
    or ``const``..., and a ``type`` only with a default argparse does not convert (``type=int,
    default="3"`` is 3: not the text as written)."""
    kw = {k.arg: k.value for k in call.keywords}
    if None in kw or set(kw) - {"default", "action", "help", "dest", "metavar", "choices", "type"}:
        return None
    if "type" in kw and "default" in kw and not (_constant_expression(kw["default"]) and not any(
            isinstance(n, ast.Constant) and isinstance(n.value, (str, bytes)) for n in ast.walk(kw["default"]))):
        return None
    return kw  # type: ignore[return-value]


def _option_dest(kw: dict[str, ast.expr], flags: list[str]) -> str | None:
    """Where argparse stores the option: ``dest="x"``, else its first long flag (``--as-of`` -> ``as_of``),
    else its first flag; None for a ``dest`` that is not a literal, or not an identifier."""
    if "dest" in kw:
        if not (isinstance(kw["dest"], ast.Constant) and isinstance(kw["dest"].value, str)):
            return None
        dest = kw["dest"].value
    else:
        long = next((f for f in flags if f.startswith("--")), flags[0])
        dest = long.lstrip("-").replace("-", "_")
    return dest if dest.isidentifier() else None


def _default_text(kw: dict[str, ast.expr], kind: str, smap: SourceMap, imported: set[str]) -> str | None:
    """The text of the option's value when no arguments are given: its ``default`` (a literal or
    :func:`_movable`, parenthesized where it needs to be), else what its action stores (``False`` for
    ``store_true``, ``None`` for ``store``)."""
    if "default" not in kw:
        return _ARG_ACTIONS[kind] or "None"
    if not (_constant_expression(kw["default"]) or _movable(kw["default"], imported)):
        return None
    text = smap.text(kw["default"])
    if "\n" in text or isinstance(kw["default"], (ast.UnaryOp, ast.BinOp, ast.Tuple)):
        text = f"({text})"
    return text


def _option_default(call: ast.Call, smap: SourceMap, imported: set[str] = frozenset()) -> tuple[str, str] | None:
    """(dest, default text) of an ``add_argument`` this pass can read back, else None: an optional
    (:func:`_option_flags`) with keywords it can tell (:func:`_option_keywords`), a ``store``,
    ``store_true`` or ``store_false`` action, a literal default or one computed from imported modules
    (:func:`_default_text`)."""
    flags = _option_flags(call)
    kw = _option_keywords(call) if flags is not None else None
    if kw is None:
        return None
    action = kw.get("action")
    if action is None:
        kind = "store"
    elif isinstance(action, ast.Constant) and action.value in _ARG_ACTIONS:
        kind = action.value
    else:
        return None
    dest = _option_dest(kw, flags)  # type: ignore[arg-type]
    text = _default_text(kw, kind, smap, imported) if dest is not None else None
    return None if text is None else (dest, text)  # type: ignore[return-value]


def _parsed_reads(bindings: Bindings, parents: dict[int, ast.AST], results: list[ast.Call]) -> list[ast.Attribute] | None:
    """The attribute reads of the parsed arguments: ``parser.parse_args().x`` or, through a name bound
    once, ``args.x``; None when a result is used otherwise (passed on, ``vars(args)``, assigned to)."""
    reads: list[ast.Attribute] = []
    for call in results:
        parent = parents.get(id(call))
        if isinstance(parent, ast.Attribute) and isinstance(parent.ctx, ast.Load):
            reads.append(parent)
            continue
        if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)
                and bindings.bound_once(parent.targets[0], parent.targets[0].id)):
            return None
        for use in bindings.loads(parent.targets[0], parent.targets[0].id):
            attr = parents.get(id(use))
            if not (isinstance(attr, ast.Attribute) and isinstance(attr.ctx, ast.Load)):
                return None
            reads.append(attr)
    return reads


__all__ = ["argparse_default_candidates", "display_copy_candidates", "display_subscript_candidates", "field_readback_candidates", "lookup_table_candidates",
           "unused_field_candidates"]
