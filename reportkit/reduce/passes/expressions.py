"""Expression-level proposals: call arguments, display elements, numeric literals."""

from __future__ import annotations

import ast
import functools
import math
import sys
from dataclasses import dataclass
from typing import NamedTuple, Union

from .edits import Delete, Edit, ElementSeq, Splice, Together
from .scopes import binding_names
from .shapes import dim_bounds, partner_literals, shape_displays, shape_nodes, tensor_data_nodes
from .source import SourceMap, iter_nodes
from .statements import import_binding

Number = Union[int, float]


def _valid(spans: list[tuple[int, int]], lo: int, hi: int) -> bool:
    pos = lo
    for start, end in spans:
        if start < pos or end < start:
            return False
        pos = end
    return pos <= hi


def _element_seq(
    smap: SourceMap, spans: list[tuple[int, int]], lo: int, hi: int, is_tuple: bool = False
) -> ElementSeq | None:
    if not spans or not _valid(spans, lo, hi):
        return None
    commas: list[int | None] = []
    for _start, end in spans:
        tok = smap.next_token_after(end)
        commas.append(tok.start if tok is not None and tok.string == "," and tok.end <= hi else None)
    last_comma = commas[-1]
    tail = last_comma + 1 if last_comma is not None else spans[-1][1]
    return ElementSeq(spans, tail, is_tuple=is_tuple, commas=commas)


def _bracket_interior(smap: SourceMap, start: int, end: int, opener: str) -> tuple[int, int] | None:
    """(lo, hi) inside the brackets spanning exactly ``[start, end)``, if they do."""
    first = smap.token_starting_at(start)
    last = smap.token_ending_at(end)
    if first is None or last is None or smap.tokens[first].string != opener:
        return None
    if smap.brackets.get(first) != last:
        return None
    return smap.tokens[first].end, smap.tokens[last].start


def call_elements(smap: SourceMap, call: ast.Call) -> ElementSeq | None:
    elements: list[ast.AST] = sorted([*call.args, *call.keywords], key=lambda n: (n.lineno, n.col_offset))
    if not elements:
        return None
    call_start, call_end = smap.span(call)
    last = smap.token_ending_at(call_end)
    if last is None or smap.tokens[last].string != ")":
        return None
    first = next((o for o, c in smap.brackets.items() if c == last), None)
    if first is None:
        return None
    lo, hi = smap.tokens[first].end, smap.tokens[last].start
    spans: list[tuple[int, int]] = []
    for element in elements:
        start, end = smap.span(element)
        if isinstance(element, ast.GeneratorExp) and start < lo:
            start, end = lo, hi  # sole generator argument shares the call's parentheses
        else:
            start, end = smap.unparenthesize(start, end, lo, hi)
        spans.append((start, end))
    return _element_seq(smap, spans, lo, hi)


def display_elements(smap: SourceMap, node: ast.AST) -> ElementSeq | None:
    start, end = smap.span(node)
    if isinstance(node, ast.List):
        interior = _bracket_interior(smap, start, end, "[")
        items: list[tuple[ast.AST | None, ast.AST]] = [(None, e) for e in node.elts]
    elif isinstance(node, ast.Set):
        interior = _bracket_interior(smap, start, end, "{")
        items = [(None, e) for e in node.elts]
    elif isinstance(node, ast.Dict):
        interior = _bracket_interior(smap, start, end, "{")
        items = list(zip(node.keys, node.values))
    elif isinstance(node, ast.Tuple):
        interior = _bracket_interior(smap, start, end, "(") or (start, end)
        items = [(None, e) for e in node.elts]
    else:
        return None
    if interior is None or not items:
        return None
    lo, hi = interior
    spans: list[tuple[int, int]] = []
    for key, value in items:
        v_start, v_end = smap.unparenthesize(*smap.span(value), lo, hi)
        if key is not None:
            k_start, _k_end = smap.unparenthesize(*smap.span(key), lo, hi)
            spans.append((k_start, v_end))
        elif isinstance(node, ast.Dict):
            stars = smap.prev_token_before(v_start)
            if stars is None or stars.string != "**":
                return None
            spans.append((stars.start, v_end))
        else:
            spans.append((v_start, v_end))
    return _element_seq(smap, spans, lo, hi, is_tuple=isinstance(node, ast.Tuple))


def _bound_names(tree: ast.Module) -> dict[str, int]:
    """How often each name is bound anywhere in the source (defs, classes, stores, imports, globals...)."""
    bound: dict[str, int] = {}
    for node in ast.walk(tree):
        names = list(node.names) if isinstance(node, (ast.Global, ast.Nonlocal)) else binding_names(node)
        for name in names:
            bound[name] = bound.get(name, 0) + 1
    return bound


def _module_signatures(tree: ast.Module, bound: dict[str, int]) -> dict[str, ast.arguments]:
    """Module-level functions defined exactly once (and not rebound): name -> parameters."""
    defs: dict[str, ast.arguments] = {}
    for stmt in tree.body:
        if bound.get(stmt.name if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     else None) != 1:
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs[stmt.name] = stmt.args
        elif isinstance(stmt, ast.ClassDef):
            init = _plain_init(stmt)
            if init is not None:
                defs[stmt.name] = init
    return defs


def _plain_init(cls: ast.ClassDef) -> ast.arguments | None:
    """The parameters a call of ``cls`` passes to its own ``__init__`` (``self`` left out), when the call
    surely reaches it: no decorator (``@dataclass`` writes its own), no metaclass or class keywords, no
    ``__new__`` or ``__call__`` of its own, one plain ``def __init__(self, ...)``."""
    if cls.decorator_list or cls.keywords:
        return None
    inits = []
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if stmt.name in ("__new__", "__call__"):
                return None
            if stmt.name == "__init__":
                inits.append(stmt)
        elif not isinstance(stmt, (ast.Expr, ast.Pass, ast.Assign, ast.AnnAssign, ast.ClassDef)):
            return None  # a conditional or computed binding may rebind __init__
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and any(
                isinstance(n, ast.Name) and n.id in ("__init__", "__new__", "__call__")
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]) for n in ast.walk(t)):
            return None
    if len(inits) != 1 or inits[0].decorator_list or isinstance(inits[0], ast.AsyncFunctionDef):
        return None
    args = inits[0].args
    positional = [*args.posonlyargs, *args.args]
    if not positional:
        return None
    params = ast.arguments(posonlyargs=args.posonlyargs[1:], args=args.args[1:] if not args.posonlyargs else args.args,
                           vararg=args.vararg, kwonlyargs=args.kwonlyargs, kw_defaults=args.kw_defaults,
                           kwarg=args.kwarg, defaults=args.defaults)
    if len(params.defaults) > len(params.posonlyargs) + len(params.args):
        return None  # ``self`` had a default: the shift is not worth reasoning about
    return params


def _builtin_arities() -> dict[str, tuple[int, frozenset[str]]]:
    """Builtin functions with required positional parameters: name -> (how many, their names).

    From ``inspect.signature`` where the builtin has one; the few that have none (their C
    implementations parse ``*args``) from what their documentation states, all positional-only.
    """
    import builtins
    import inspect

    out: dict[str, tuple[int, frozenset[str]]] = {
        "getattr": (2, frozenset()), "iter": (1, frozenset()), "next": (1, frozenset()),
        "anext": (1, frozenset()), "map": (2, frozenset()), "filter": (2, frozenset()),
        "max": (1, frozenset()), "min": (1, frozenset()), "range": (1, frozenset()),
        "slice": (1, frozenset()),
    }
    for name in dir(builtins):
        obj = getattr(builtins, name)
        if name.startswith("_") or name in out or isinstance(obj, type) or not callable(obj):
            continue
        try:
            params = inspect.signature(obj).parameters.values()
        except (TypeError, ValueError):
            continue
        required = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                    and p.default is p.empty]
        if required:
            out[name] = (len(required), frozenset(p.name for p in required if p.kind is p.POSITIONAL_OR_KEYWORD))
    return out


_BUILTIN_ARITIES = _builtin_arities()
#: Builtins whose positional arguments are independent of each other (``*args`` of one kind): deleting
#: one in the middle shifts nothing that matters.
_VARARGS_BUILTINS = frozenset({"print"})


def _required_argument(call: ast.Call, element: ast.AST, sig: ast.arguments) -> bool:
    """Would deleting ``element`` from a call of a known local function surely raise TypeError?"""
    positional = [*sig.posonlyargs, *sig.args]
    required_positional = len(positional) - len(sig.defaults)
    if isinstance(element, ast.keyword):
        if element.arg is None:
            return False
        required = {p.arg for p in positional[:required_positional]}
        required |= {p.arg for p, d in zip(sig.kwonlyargs, sig.kw_defaults) if d is None}
        return element.arg in required
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    index = next((i for i, a in enumerate(call.args) if a is element), None)
    return index is not None and index < required_positional


def _builtin_required(call: ast.Call, element: ast.AST, name: str) -> bool:
    """Would deleting positional ``element`` from a call of the builtin ``name`` surely raise TypeError?"""
    arity = _BUILTIN_ARITIES.get(name)
    if arity is None or isinstance(element, ast.keyword):
        return False
    count, by_keyword = arity
    if any(isinstance(a, ast.Starred) for a in call.args):
        return False
    if any(k.arg is None or k.arg in by_keyword for k in call.keywords):
        return False  # a required parameter passed by keyword (or maybe in **kwargs): positions differ
    return len(call.args) <= count


def _shifts_others(call: ast.Call, element: ast.AST, name: str | None, sig: ast.arguments | None) -> bool:
    """Would deleting positional ``element`` move a later positional argument into its parameter?

    Such a candidate passes different values to different parameters: it nearly always fails
    another way (measured over held-out scripts: none of ~40 such deletions was ever accepted), and
    the deletions that matter (a trailing argument, one by one from the end, or the whole call) are
    proposed anyway. Not for ``print`` and a local function's ``*args``, whose arguments are alike.
    """
    if isinstance(element, ast.keyword):
        return False
    index = next((i for i, a in enumerate(call.args) if a is element), None)
    if index is None or index == len(call.args) - 1:
        return False
    if name in _VARARGS_BUILTINS and sig is None:
        return False
    if sig is not None and sig.vararg is not None and not any(isinstance(a, ast.Starred) for a in call.args):
        return index < len(sig.posonlyargs) + len(sig.args)
    return True


#: Methods that take at least one argument on every builtin container and string type (and on
#: ``torch.Tensor`` where it has them): ``xs.append()`` can only raise ``TypeError``.
_ONE_ARG_METHODS = frozenset({"append", "extend", "add", "remove", "discard", "join", "startswith", "endswith"})


def _submodule_attrs(tree: ast.Module) -> set[int]:
    """ids of the ``self.X`` callees (in a call ``self.X(...)``) where X is an attribute the class
    binds by assignment to a call's result (``self.conv = nn.Conv2d(...)``) and defines no method X."""
    out: set[int] = set()
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        methods = {s.name for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
        built: set[str] = set()
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                built.update(a for a in map(_self_attr, node.targets) if a is not None)
        built -= methods
        for node in ast.walk(cls):
            if isinstance(node, ast.Call) and _self_attr(node.func) in built:
                out.add(id(node.func))
    return out


def _self_attr(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _input_of_object_call(call: ast.Call, element: ast.AST, submodules: set[int]) -> bool:
    """Is ``element`` the only positional argument of a call of an object built by a call -- on the spot
    (``nn.Conv2d(...)(x)``) or as a ``self`` attribute (``self.conv(x)``, a submodule's input) -- or of a
    method every builtin type requires an argument of (``xs.append(x)``)?  Measured over held-out
    scripts, no candidate calling such an object with nothing was ever accepted (the call itself,
    or its statement, goes by other passes when it is not needed)."""
    if isinstance(element, ast.keyword) or len(call.args) != 1 or call.args[0] is not element:
        return False
    if isinstance(element, ast.Starred):
        return False
    func = call.func
    if isinstance(func, ast.Call) or id(func) in submodules:
        return True
    return isinstance(func, ast.Attribute) and func.attr in _ONE_ARG_METHODS


#: The dtypes torch and numpy name (``torch.int32``, ``np.float16``, ``torch.long``, ``"int32"``).
_DTYPE_NAMES = frozenset({
    "bool", "bool_", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "short", "int",
    "long", "float16", "half", "bfloat16", "float32", "float", "float64", "double", "complex32", "complex64",
    "complex128", "cfloat", "cdouble", "chalf", "float8_e4m3fn", "float8_e5m2", "longlong", "intc", "intp",
    "uint", "single", "longdouble", "csingle", "clongdouble", "byte", "ubyte",
})
#: Tensor methods that convert to a dtype without an argument (``labels.long()``, ``mask.float()``).
_DTYPE_METHODS = frozenset({"int", "long", "short", "half", "float", "double", "bool", "byte", "char", "bfloat16",
                            "cfloat", "cdouble"})


def _names_dtype(node: ast.AST) -> bool:
    """``torch.int32``, ``np.float16``, ``numpy.dtype`` spelled as a module attribute, or ``"int32"``."""
    if isinstance(node, ast.Attribute):
        return node.attr in _DTYPE_NAMES and _root_name(node) is not None
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in _DTYPE_NAMES


def _dtype_keyword(element: ast.AST) -> bool:
    return isinstance(element, ast.keyword) and element.arg == "dtype" and _names_dtype(element.value)


def dtype_conversion(call: ast.Call) -> bool:
    """Does ``call`` convert its receiver to a named dtype (``x.long()``, ``x.to(torch.int32)``,
    ``x.to(dtype=torch.half)``, ``x.type(torch.float64)``, ``a.astype(np.int32)``, ``x.view(torch.uint8)``)?"""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr in _DTYPE_METHODS:
        return not call.args and not call.keywords
    if func.attr == "astype":
        return True
    if func.attr in ("to", "type", "view"):
        return any(_names_dtype(a) for a in call.args) or any(map(_dtype_keyword, call.keywords))
    return False


def _names_the_dtype(call: ast.Call, element: ast.AST) -> bool:
    """Is ``element`` the argument of ``call`` that names a dtype (``dtype=torch.int32`` of any call, the
    ``torch.int32`` of ``x.to(torch.int32)``, the argument of ``astype``)?  Deleting it changes the type
    of the value, not only its size: kept (see :func:`propose_call_args`)."""
    if _dtype_keyword(element):
        return True
    if isinstance(element, ast.keyword) or not dtype_conversion(call):
        return False
    return call.func.attr == "astype" or _names_dtype(element)


def _picks_a_dim(node: ast.Call, element: ast.expr | ast.keyword) -> bool:
    """``x.size(0)`` -> ``x.size()``: the dim given to a shape query picks a number out of the shape; without it
    the call returns the whole shape, another kind of value (:func:`_shape_entry`)."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr in ("size", "stride")):
        return False
    if node.args:
        return element is node.args[0]
    return isinstance(element, ast.keyword) and element.arg == "dim"


def propose_call_args(source: str) -> list[Edit]:
    """Delete keyword arguments and the last positional argument of every call.

    Not proposed: a positional argument followed by another one (deleting it shifts the others,
    see :func:`_shifts_others`; once the last one is gone, the one before it is the last), and
    arguments a call surely needs -- required parameters of a module-level function or class
    defined in the source, required positional parameters of a builtin the source does not rebind
    (``len()``, ``range()``, ``isinstance(x)``): deleting one can only raise ``TypeError``; and the
    only input of an object built by a call (:func:`_input_of_object_call`); and an argument that names
    a dtype (``dtype=torch.int32``, ``x.to(torch.int32)``, :func:`_names_the_dtype`): a value's dtype is
    the cause of many a library's error whose message does not name it (``F.one_hot`` rejects every
    index dtype but int64 with one message), so it stays as the code wrote it; and a dim of a tensor's
    shape (``torch.randn(2, 3, 4)``, ``x.view(2, -1)``: :func:`reportkit.reduce.passes.shapes.shape_nodes`):
    the tensor keeps its rank, its sizes shrink with the numbers; nor the dim of a shape query (``x.size(0)``:
    :func:`_picks_a_dim`).
    """
    tree = ast.parse(source)
    smap = SourceMap(source)
    dims = shape_nodes(tree)
    bound = _bound_names(tree)
    signatures = _module_signatures(tree, bound)
    star_import = "*" in bound
    submodules = _submodule_attrs(tree)
    edits: list[Edit] = []
    for node in iter_nodes(tree):
        if isinstance(node, ast.Call):
            seq = call_elements(smap, node)
            if seq is None:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else None
            sig = signatures.get(name) if name is not None else None
            builtin = name if name is not None and name not in bound and not star_import else None
            elements = sorted([*node.args, *node.keywords], key=lambda n: (n.lineno, n.col_offset))
            for i, element in enumerate(elements):
                if sig is not None and _required_argument(node, element, sig):
                    continue
                if builtin is not None and _builtin_required(node, element, builtin):
                    continue
                if _shifts_others(node, element, builtin, sig):
                    continue
                if _input_of_object_call(node, element, submodules):
                    continue
                if _names_the_dtype(node, element) or _picks_a_dim(node, element):
                    continue
                if id(element.value if isinstance(element, ast.keyword) else element) in dims:
                    continue
                edits.append(Delete(seq, i))
    return edits


def propose_display_elements(source: str) -> list[Edit]:
    """Delete elements of list/tuple/set/dict displays (loads only); not of a tensor's shape (its rank stays,
    :func:`reportkit.reduce.passes.shapes.shape_nodes`)."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    shapes = shape_displays(tree)
    edits: list[Edit] = []
    for node in iter_nodes(tree):
        if isinstance(node, (ast.List, ast.Tuple)) and (not isinstance(node.ctx, ast.Load) or id(node) in shapes):
            continue
        if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            seq = display_elements(smap, node)
            if seq is not None:
                edits.extend(Delete(seq, i) for i in range(len(seq)))
    return edits


_SIMPLE = (ast.Name, ast.Constant, ast.Starred, ast.Slice)


def _skipped_expressions(tree: ast.AST) -> set[int]:
    """ids of expressions that must not become ``0``: call targets, annotations, decorators, targets."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            skip.add(id(node.func))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            skip.update(id(d) for d in node.decorator_list)
            if isinstance(node, ast.ClassDef):  # ``class A(0)`` cannot even be defined
                skip.update(id(b) for b in node.bases)
                skip.update(id(k.value) for k in node.keywords)
            if not isinstance(node, ast.ClassDef) and node.returns is not None:
                skip.add(id(node.returns))
        elif isinstance(node, ast.arg) and node.annotation is not None:
            skip.add(id(node.annotation))
        elif isinstance(node, ast.AnnAssign):
            skip.add(id(node.annotation))
        elif isinstance(node, ast.Expr):
            skip.add(id(node.value))  # a whole expression statement: HDD's business
        elif isinstance(node, ast.comprehension):
            skip.add(id(node.target))
    return skip


_ATOMS = (
    ast.Name,
    ast.Constant,
    ast.Call,
    ast.Attribute,
    ast.Subscript,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.JoinedStr,
)


def operand_text(smap: SourceMap, node: ast.expr) -> str:
    """Source text of ``node``, parenthesized unless it is an atom (so it can stand anywhere)."""
    text = smap.text(node)
    if isinstance(node, _ATOMS) or (isinstance(node, ast.Tuple) and text.startswith("(")):
        return text
    return f"({text})"


def _hoists(node: ast.expr) -> list[ast.expr]:
    """Sub-expressions that could replace ``node``: call arguments and receiver, operands."""
    if isinstance(node, ast.Call):
        out = [a for a in node.args if not isinstance(a, ast.Starred)]
        out += [k.value for k in node.keywords if k.arg is not None]
        if isinstance(node.func, ast.Attribute):
            out.append(node.func.value)  # ``x.float()`` -> ``x``
        return out
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.Subscript):
        return [node.value]
    return []


def _is_self(node: ast.expr) -> bool:
    """``self``, ``cls`` or ``super()``: the object a method runs on, not a value the call computes."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def _root_name(node: ast.expr) -> str | None:
    """``torch`` for ``torch.nn.functional.gelu``; None unless an attribute chain on a name."""
    if not isinstance(node, ast.Attribute):
        return None
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _imported_names(tree: ast.AST) -> set[str]:
    return {import_binding(n, alias) for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
            for alias in n.names}


def _third_party_call(node: ast.expr, imported: set[str]) -> bool:
    """A call of an installed package's function or class (``torch.randn(4)``, ``nn.Linear(4, 2)(x)``), not
    the standard library's: it builds an object of that package (a tensor, a module, a dataset), which ``0``
    does not stand for (measured on held-out scripts: 7 of 70 such ``0`` candidates were accepted)."""
    while isinstance(node, ast.Call):
        node = node.func
    root = _root_name(node) if isinstance(node, ast.Attribute) else None
    return root is not None and root in imported and not _stdlib(root)


@functools.cache
def _stdlib(name: str) -> bool:
    """Is ``name`` a standard-library module (``sys.stdlib_module_names``; before Python 3.10: found in
    the standard library's directory)?"""
    names = getattr(sys, "stdlib_module_names", None)
    if names is not None:
        return name in names
    if name in sys.builtin_module_names:
        return True
    import importlib.util
    import sysconfig

    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    origin = getattr(spec, "origin", None) or ""
    stdlib = sysconfig.get_paths()["stdlib"]
    return origin.startswith(stdlib) and "site-packages" not in origin


def _is_number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float, complex)


def _receiver(node: ast.expr) -> ast.expr | None:
    """The object a method is called on: ``net`` of ``net.fc(x)``, ``x`` of ``x.float()``; None otherwise."""
    func = node.func if isinstance(node, ast.Call) else None
    return func.value if isinstance(func, ast.Attribute) else None


class _Names(NamedTuple):
    """What the rules of :func:`simplify_candidates` read of the whole program."""

    imported: set[str]  # names imports bind
    classes: set[str]  # names class definitions bind


def _zero_fits(node: ast.expr, at_statement: bool, receivers: set[int], imported: set[str]) -> bool:
    """``0`` may stand for ``node``: ``f(x) + 1`` -> ``0 + 1``; not for a whole statement's call (deleting it is
    HDD's business), the object of an attribute or subscript (``0.attr`` / ``0[i]`` can only fail), a call
    of an installed package (``torch.randn(16)``, ``nn.Linear(4, 2)(x)``: a tensor, a module), a call that makes
    another kind of tensor (``x.to_sparse()``: :func:`_kind_builder`) or a lambda (a function:
    ``m.register_full_backward_hook(lambda m, i, o: None)`` registers a hook, ``0`` in its place is no hook a
    reader would write)."""
    return (not at_statement and id(node) not in receivers and not _third_party_call(node, imported)
            and not isinstance(node, ast.Lambda) and not _kind_builder(node))


def _statement_loses_call(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """A whole statement keeps its call: ``log.append(f(x))`` -> ``f(x)`` and ``net(x).item()`` -> ``net(x)``
    are tried, ``print(x)`` -> ``x`` and ``log.append(y)`` -> ``log`` are not."""
    return at_statement and (isinstance(sub, _SIMPLE) or (sub is _receiver(node) and not isinstance(sub, ast.Call)))


def _method_owner(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``self.fc(x)`` -> ``self``, ``torch.randn(4)`` -> ``torch``, ``Config.from_dict(d)`` -> ``Config``: the object a
    method runs on or the module or class a function is looked up in is not the value (a class in its place is
    another program: TorchScript compiles the class a function returns as it compiles the one whose static method
    it calls)."""
    return sub is _receiver(node) and (_is_self(sub) or (isinstance(sub, ast.Name)
                                                        and (sub.id in names.imported or sub.id in names.classes)))


def _dtype_receiver(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``labels.int()`` -> ``labels``: the dtype stays as the code wrote it (:func:`dtype_conversion`)."""
    return sub is _receiver(node) and dtype_conversion(node)  # type: ignore[arg-type]


def _library_argument(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``torch.zeros(16, dtype=torch.long)`` -> ``16`` / ``torch.long``: a literal or a module's constant
    argument of an imported module's function is not the object the call builds."""
    func = node.func if isinstance(node, ast.Call) else None
    library = func is not None and _root_name(func) in names.imported
    return library and sub is not _receiver(node) and (_is_number(sub) or isinstance(sub, ast.Constant)
                                                       or _root_name(sub) in names.imported)


#: Methods that read what a tensor (an array) is rather than compute one: its shape, rank, element count, strides,
#: its values as Python numbers.
_QUERY_METHODS = frozenset({"size", "dim", "ndimension", "numel", "nelement", "stride", "storage_offset",
                            "element_size", "tolist", "item", "is_contiguous", "data_ptr", "get_device"})


def _query_receiver(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``sum(x.size())`` -> ``sum(x)``: what a query returns (a shape, a rank, Python numbers) is another kind of
    value than the tensor it reads, so the tensor in its place is another input to what reads it (a held-out
    report: ``sum()`` of a traced ``x.size()`` iterates the Proxy of a shape, the reduction iterated the tensor's).
    A whole statement's query (``net(x).item()``) is read by nothing: its receiver may stand alone."""
    return not at_statement and sub is _receiver(node) and node.func.attr in _QUERY_METHODS  # type: ignore[attr-defined]


def _function_argument(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``m.register_hook(lambda g: None)`` -> ``lambda g: None``: a function passed is not what the call computes."""
    return isinstance(sub, ast.Lambda)


def _whole_shape(node: ast.expr) -> bool:
    """``x.shape``, ``x.size()``: a tensor's whole shape (a tuple of numbers)."""
    return (isinstance(node, ast.Attribute) and node.attr == "shape") or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "size"
        and not node.args and not node.keywords)


def _shape_entry(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``x.shape[0]`` -> ``x.shape``, ``x.size()[1]`` -> ``x.size()``: an entry of a shape is a number, the shape a
    tuple, another kind of value (a held-out report: ``torch.zeros(x.size(0), x.size(1))`` of a traced ``x`` became
    ``torch.zeros(x.size(), 0)``, a call that fails without tracing as well)."""
    return not at_statement and isinstance(node, ast.Subscript) and sub is node.value and _whole_shape(sub)


#: Calls that make a tensor of another kind than their inputs: a layout (sparse, nested, dense, MKL-DNN) or a
#: parameter: ``torch.sparse_coo_tensor(indices, values, size)`` is no ``indices`` (a held-out report: the sparse
#: ``input`` of ``torch.sspaddmm`` became its dense indices, which trips the same internal assert for another
#: argument, and the dense ``out=`` the report was about went).
_KIND_BUILDERS = frozenset({
    "sparse_coo_tensor", "sparse_csr_tensor", "sparse_csc_tensor", "sparse_bsr_tensor", "sparse_bsc_tensor",
    "sparse_compressed_tensor", "nested_tensor", "as_nested_tensor", "nested_tensor_from_jagged", "to_sparse",
    "to_sparse_coo", "to_sparse_csr", "to_sparse_csc", "to_sparse_bsr", "to_sparse_bsc", "to_dense", "to_mkldnn",
    "to_padded_tensor", "Parameter", "Buffer", "UninitializedParameter"})


def _kind_builder(node: ast.expr) -> bool:
    """A call of one of :data:`_KIND_BUILDERS` (by its last name)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
    return name in _KIND_BUILDERS


def _kind_input(node: ast.expr, sub: ast.expr, at_statement: bool, names: _Names) -> bool:
    """``torch.sparse_coo_tensor(i, v, size)`` -> ``i``, ``x.to_sparse()`` -> ``x``, ``nn.Parameter(t)`` -> ``t``: an
    input of a call that makes another kind of tensor (:data:`_KIND_BUILDERS`) is not that tensor."""
    return not at_statement and _kind_builder(node)


#: Sub-expressions never hoisted into their expression's place: each (node, sub, at_statement, names) -> bool.
_NOT_HOISTED = (_statement_loses_call, _method_owner, _dtype_receiver, _query_receiver, _library_argument,
                _function_argument, _shape_entry, _kind_input)


def simplify_candidates(source: str) -> list[str]:
    """Replace one expression by ``0`` or by a sub-expression (hoisting); outermost first.

    For a call that is a whole statement only hoisting a non-trivial argument, or a receiver that is a
    call, is tried (``log.append(f(x))`` -> ``f(x)``, ``net(x).item()`` -> ``net(x)``); deleting the
    statement is HDD's business. Never tried, as
    they cannot stand for the value they replace: a class's base (``class A(0)``), the object a method
    runs on or the module a function is looked up in (``self.fc(x)`` -> ``self``, ``torch.ones(2)`` ->
    ``torch``), a literal or a module's constant argument of an imported module's function in place of
    the call (``torch.zeros(16, dtype=torch.long)`` -> ``16`` or ``torch.long``), and ``0`` for a call of an
    installed package (``torch.randn(16)``, ``nn.Linear(4, 2)(x)``: a tensor, a module; the standard
    library's ``time.time()`` may become ``0``) or a lambda (a function), and a dtype conversion's receiver in its place
    (``labels.int()`` -> ``labels``, :func:`dtype_conversion`: the dtype stays as the code wrote it), nor a query's
    (``x.size()`` -> ``x``, ``loss.item()`` -> ``loss``: a shape, a number, not the tensor), nor a whole shape for an
    entry of it (``x.shape[0]`` -> ``x.shape``), nor an input of a call that makes another kind of tensor
    (``torch.sparse_coo_tensor(i, v, size)`` -> ``i``), nor a lambda passed in place of the call; nothing
    for the data a tensor is made of (``torch.DoubleTensor(0)`` is empty: another rank), and no part of a shape
    for a shape's display (``torch.zeros((2, n))``: a dim may become ``0``; :mod:`reportkit.reduce.passes.shapes`).
    The rules: :func:`_zero_fits` and :data:`_NOT_HOISTED`.
    """
    tree = ast.parse(source)
    smap = SourceMap(source)
    skip = _skipped_expressions(tree)
    data = tensor_data_nodes(tree) | shape_displays(tree)
    statement_calls = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    receivers = {id(n.value) for n in ast.walk(tree) if isinstance(n, (ast.Attribute, ast.Subscript))}
    imported = _imported_names(tree)
    names = _Names(imported, {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)})
    out: list[str] = []
    for node in iter_nodes(tree):
        if not isinstance(node, ast.expr) or isinstance(node, _SIMPLE):
            continue
        if not isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            continue
        at_statement = id(node) in statement_calls
        if (id(node) in skip and not at_statement) or id(node) in data:
            continue
        start, end = smap.span(node)
        if _zero_fits(node, at_statement, receivers, imported):
            out.append(source[:start] + "0" + source[end:])
        out.extend(source[:start] + operand_text(smap, sub) + source[end:] for sub in _hoists(node)
                   if not any(rule(node, sub, at_statement, names) for rule in _NOT_HOISTED))
    return out


def _stores_and_loads(tree: ast.AST) -> tuple[dict[str, int], dict[str, list[ast.Name]]]:
    """Per name: how often it is bound (2 for kinds of binding that never count as one plain store),
    and its loads."""
    stores: dict[str, int] = {}
    loads: dict[str, list[ast.Name]] = {}

    def bound(name: str, weight: int) -> None:
        stores[name] = stores.get(name, 0) + weight

    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads.setdefault(node.id, []).append(node)
            else:
                bound(node.id, 1)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound(node.name, 2)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            bound(node.target.id, 2)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bound(name, 2)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound(node.name, 2)
        elif isinstance(node, ast.alias):
            bound(node.asname or node.name.split(".")[0], 2)
    return stores, loads


def inline_variable_candidates(source: str) -> list[str]:
    """``x = <expr>`` read exactly once, later in the same body -> the read becomes ``(<expr>)``."""
    from .edits import apply_edits, walk_bodies  # local: edits imports nothing from here

    tree = ast.parse(source)
    smap = SourceMap(source)
    stores, loads = _stores_and_loads(tree)
    visible = {id(n) for n in iter_nodes(tree)}  # positions are reliable for these
    out: list[str] = []
    for info in walk_bodies(tree, smap):
        if isinstance(info.owner, ast.ClassDef):
            continue
        seq = info.seq
        body_end = seq.spans[-1][1]
        for i, stmt in enumerate(seq.stmts):
            if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
                continue
            target = stmt.targets[0]
            if not isinstance(target, ast.Name) or stores.get(target.id) != 1:
                continue
            reads = loads.get(target.id, [])
            if len(reads) != 1 or id(reads[0]) not in visible:
                continue
            read_start, read_end = smap.span(reads[0])
            if not seq.spans[i][1] <= read_start < body_end:
                continue
            candidate = apply_edits(
                source, [Delete(seq, i), Splice(read_start, read_end, operand_text(smap, stmt.value))]
            )
            if candidate is not None:
                out.append(candidate)
    return out


# -------------------------------------------------------------------------- numbers
@dataclass(frozen=True)
class NumericSite:
    """One numeric literal of a source; ``render`` gives the source with another value."""

    source: str
    start: int
    end: int
    value: Number

    @property
    def is_float(self) -> bool:
        return isinstance(self.value, float)

    @property
    def shrinkable(self) -> bool:
        if self.is_float:
            return math.isfinite(self.value) and self.value not in (0.0, 1.0)
        return self.value >= 2

    def render(self, value: Number) -> str:
        return self.source[: self.start] + format_number(value) + self.source[self.end :]


def format_number(value: Number) -> str:
    return repr(float(value)) if isinstance(value, float) else str(int(value))


def numeric_literals(source: str) -> list[NumericSite]:
    """Every int/float literal, in source order (stable indices while values change); not the bounds of an
    export ``Dim`` (:func:`reportkit.reduce.passes.shapes.dim_bounds`: what the failure is about)."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    sites: list[NumericSite] = []
    bounds = dim_bounds(tree)
    for node in iter_nodes(tree):
        if not isinstance(node, ast.Constant) or type(node.value) not in (int, float) or id(node) in bounds:
            continue
        start, end = smap.span(node)
        try:
            same = ast.literal_eval(source[start:end]) == node.value
        except (ValueError, SyntaxError, TypeError):
            same = False
        if same:
            sites.append(NumericSite(source, start, end, node.value))
    sites.sort(key=lambda s: s.start)
    return sites


def propose_literals_to_one(source: str) -> list[Edit]:
    """Replace ints >= 2 by ``1`` and other floats by ``1.0`` (> 1) or ``0.0``; partner dims of tensors
    (:func:`reportkit.reduce.passes.shapes.partner_literals`: they shrink together, never to 1) all by ``2`` in
    one edit per group."""
    edits: list[Edit] = []
    groups = partner_literals(source)
    partners = {span for group in groups for span in group}
    for group in groups:
        if int(source[group[0][0]:group[0][1]]) > 2:
            edits.append(Together(tuple(Splice(start, end, "2") for start, end in group)))
    for site in numeric_literals(source):
        if not site.shrinkable or (site.start, site.end) in partners:
            continue
        if site.is_float:
            text = "1.0" if site.value > 1 else "0.0"
        else:
            text = "1"
        edits.append(Splice(site.start, site.end, text))
    return edits
