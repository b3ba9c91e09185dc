"""Tensor shapes in a source: which expressions are a tensor's dims, and which dims are partners.

A shape's dims say a tensor's rank as well as its sizes, and a library op checks both: a rank it does not
accept is one error, sizes that do not match another input's are another (``mat1 and mat2 shapes cannot be
multiplied``), a size of 1 broadcasts where a larger one would not. So the passes that delete call arguments
and display elements leave a shape's dims alone (its rank stays; its sizes shrink with the numbers), and the
number passes move partner dims together (:func:`partner_literals`).

What counts as a shape: the sizes given to a tensor factory (``torch.randn(2, 3)``, ``torch.zeros((2, 3))``,
``torch.full((2, 3), 0.5)``, ``torch.randint(0, 9, (2, 3))``, ``size=``), to a tensor method that takes a
shape (``x.view(2, -1)``, ``reshape``, ``expand``, ``repeat``, ``tile``, ``broadcast_to``, ``new_zeros`` ...),
and a tuple display bound to a name that only such calls read (``shape = (2, 3)``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .source import SourceMap, iter_nodes

#: Tensor factories whose positional arguments are the sizes (or whose first one is a tuple of them).
SIZE_FACTORIES = frozenset({"randn", "rand", "zeros", "ones", "empty"})
#: Factories whose first positional argument is the shape and the rest something else (``full(size, value)``).
FIRST_ARG_SHAPE = frozenset({"full", "new_zeros", "new_ones", "new_empty", "new_full", "broadcast_to"})
#: Tensor methods whose positional arguments are the sizes (or one tuple of them).
SHAPE_METHODS = frozenset({"view", "reshape", "expand", "repeat", "tile"})
#: Calls that make a tensor of their first argument (its data, or a tensor it wraps): without it, an empty one.
TENSOR_CONSTRUCTORS = frozenset({"tensor", "as_tensor", "from_numpy", "Tensor", "Variable", "Parameter", "DoubleTensor",
                                 "FloatTensor", "HalfTensor", "BFloat16Tensor", "LongTensor", "IntTensor", "ShortTensor",
                                 "ByteTensor", "CharTensor", "BoolTensor"})


def _callee(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _method(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute)


def shape_arguments(call: ast.Call, foreign: frozenset[str] = frozenset(),
                    arrays: frozenset[str] = frozenset()) -> list[ast.expr]:
    """The arguments of ``call`` that are a tensor's shape: each dim given alone, or one tuple/list display
    of them (empty when ``call`` takes no shape, or is a function of a module in ``foreign``: ``random.randint``)."""
    name = _callee(call)
    if name is None or _root(call.func) in foreign:
        return []
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    if name in SIZE_FACTORIES or (name in SHAPE_METHODS and _method(call)):
        shape = args
    elif name in FIRST_ARG_SHAPE and (_method(call) or name == "full"):
        shape = args[:1]
    elif name == "randint":  # randint(high, size) / randint(low, high, size)
        shape = args[2:3] if len(args) >= 3 else args[1:2]
    elif isinstance(call.func, ast.Attribute) and _root(call.func) in arrays:
        shape = []  # np.random.uniform(size=...), torch.rand_like(..., size=...): the keyword only
    else:
        return []
    return shape + [k.value for k in call.keywords if k.arg in ("size", "shape")]


def _foreign(tree: ast.AST) -> frozenset[str] | None:
    """Names bound by imports of modules other than torch and numpy (``random``, ``from os import path``); None
    when the module imports neither (it makes no tensor: ``r.randint(1, 6)`` of a ``random.Random``)."""
    out = set()
    arrays = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update((a.asname or a.name.split(".")[0]) for a in node.names
                       if a.name.split(".")[0] not in _ARRAY_MODULES)
            arrays = arrays or any(a.name.split(".")[0] in _ARRAY_MODULES for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] not in _ARRAY_MODULES):
            out.update(a.asname or a.name for a in node.names if a.name != "*")
        elif isinstance(node, ast.ImportFrom):
            arrays = True
    return frozenset(out) if arrays else None


_ARRAY_MODULES = {"torch", "numpy", "torch_spyre"}


def _array_aliases(tree: ast.AST) -> frozenset[str]:
    """The names ``import torch`` / ``import numpy as np`` bind."""
    return frozenset((a.asname or a.name.split(".")[0]) for node in ast.walk(tree) if isinstance(node, ast.Import)
                     for a in node.names if a.name.split(".")[0] in _ARRAY_MODULES)


def _displays(tree: ast.AST) -> dict[str, list[ast.expr]]:
    """Name -> the tuple/list displays assigned to it (``shape = (2, 3)``)."""
    out: dict[str, list[ast.expr]] = {}
    for node in iter_nodes(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and isinstance(node.value, (ast.Tuple, ast.List)):
            out.setdefault(node.targets[0].id, []).append(node.value)
    return out


def _shape_arguments(tree: ast.AST) -> Iterator[tuple[ast.Call, ast.expr, list[ast.Tuple | ast.List]]]:
    """Every shape argument in ``tree``: (the call it shapes, the argument, the displays that hold its dims —
    the argument itself, or the ones a name passed alone as the shape was bound to; none for a dim given alone)."""
    named = _displays(tree)
    foreign, arrays = _foreign(tree), _array_aliases(tree)
    if foreign is None:
        return
    for node in iter_nodes(tree):
        if not isinstance(node, ast.Call):
            continue
        shape = shape_arguments(node, foreign, arrays)
        for arg in shape:
            if isinstance(arg, (ast.Tuple, ast.List)):
                yield node, arg, [arg]
            elif isinstance(arg, ast.Name) and arg.id in named and len(shape) == 1:
                yield node, arg, named[arg.id]
            else:
                yield node, arg, []


def shape_dims(tree: ast.AST) -> list[tuple[ast.Call, ast.expr]]:
    """Every dim of a shape in ``tree`` with the call it shapes: the elements of a shape's display (or of the
    display a name passed as the shape was bound to) and the dims passed one by one."""
    dims: list[tuple[ast.Call, ast.expr]] = []
    for node, arg, displays in _shape_arguments(tree):
        if displays:
            dims.extend((node, e) for display in displays for e in display.elts)
        else:
            dims.append((node, arg))
    return dims


def shape_nodes(tree: ast.AST) -> set[int]:
    """ids of the dims of every shape of ``tree`` (:func:`shape_dims`) and of the displays that hold them, and of
    the data a tensor is made of (the first argument of ``torch.tensor(data)``, ``Variable(t)``,
    ``torch.DoubleTensor(a)``: :data:`TENSOR_CONSTRUCTORS`): deleting one changes a tensor's rank (``Variable()``
    is an empty tensor; :func:`reportkit.reduce.passes.expressions.propose_call_args` and
    ``propose_display_elements`` leave them alone)."""
    out: set[int] = tensor_data_nodes(tree)
    for _node, arg, displays in _shape_arguments(tree):
        out.add(id(arg))
        for display in displays:
            out.add(id(display))
            out.update(id(e) for e in display.elts)
    return out


def shape_displays(tree: ast.AST) -> set[int]:
    """ids of the tuple/list displays that are a whole shape (``(2, 3)`` of ``torch.zeros((2, 3))``, or bound to a
    name passed as one): ``0`` or one of its dims in its place is another rank."""
    return {id(display) for _node, _arg, displays in _shape_arguments(tree) for display in displays}


def tensor_data_nodes(tree: ast.AST) -> set[int]:
    """ids of the data a tensor is made of: the first argument of a :data:`TENSOR_CONSTRUCTORS` call (``0`` or a
    part of it in its place makes another tensor, of another rank: ``torch.DoubleTensor(0)`` is empty)."""
    foreign = _foreign(tree)
    if foreign is None:
        return set()
    return {id(node.args[0]) for node in iter_nodes(tree)
            if isinstance(node, ast.Call) and _callee(node) in TENSOR_CONSTRUCTORS and node.args
            and not isinstance(node.args[0], ast.Starred) and _root(node.func) not in foreign}


def dim_bounds(tree: ast.AST) -> set[int]:
    """ids of the numbers that bound a symbolic dimension: the ``min=``/``max=`` of ``torch.export.Dim("d", min=16,
    max=64)`` and of ``Dim.DYNAMIC(min=1, max=1024)`` (``Dim.AUTO``, ``Dim.STATIC``) in a module that imports torch.
    Export's solver reasons over that range: its guards hold for some ranges and not for others (a range that
    shrinks to one value is a dim "specialized to a constant", another violation under the same headline), and
    its message quotes it (``in the specified range 16 <= d <= 64``, ``torch/fx/experimental/symbolic_shapes.py``).
    Such a number is what the failure is about, not a size that costs time (export traces symbolically): the
    number passes leave it alone."""
    if not _torch_aliases(tree):  # type: ignore[arg-type]
        return set()
    out: set[int] = set()
    for node in iter_nodes(tree):
        if isinstance(node, ast.Call) and _names_dim(node.func):
            out.update(id(k.value) for k in node.keywords if k.arg in ("min", "max"))
    return out


def _names_dim(func: ast.expr) -> bool:
    """``Dim``, ``torch.export.Dim``, ``Dim.DYNAMIC``, ``export.Dim.AUTO``: a call of export's ``Dim`` or of one of
    its members."""
    if isinstance(func, ast.Name):
        return func.id == "Dim"
    return isinstance(func, ast.Attribute) and (func.attr == "Dim" or _names_dim(func.value))


def _int_literal(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _sized_literals(tree: ast.Module) -> list[tuple[ast.Call, ast.Constant]]:
    """Int literals that are sizes: the dims of a shape (:func:`shape_dims`), and the positional int arguments
    of a call of a torch module or function (``nn.Linear(64, 10)``, ``nn.LayerNorm(64)``: the sizes it
    checks its inputs against) — the calls whose name is reached from a name ``torch`` was imported as."""
    torch_names = _torch_aliases(tree)
    out = [(call, dim) for call, dim in shape_dims(tree) if _int_literal(dim) is not None]
    for node in iter_nodes(tree):
        if isinstance(node, ast.Call) and _root(node.func) in torch_names and not shape_arguments(node, frozenset()):
            out.extend((node, a) for a in node.args if _int_literal(a) is not None)
    return out  # type: ignore[return-value]


def _root(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _torch_aliases(tree: ast.Module) -> set[str]:
    """The names the module binds to torch or one of its modules/classes (``torch``, ``nn``, ``F``, ``Linear``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name.split(".")[0]) for a in node.names
                         if a.name == "torch" or a.name.startswith("torch."))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and (node.module == "torch" or node.module.startswith("torch.")):
            names.update(a.asname or a.name for a in node.names if a.name != "*")
    return names


def partner_literals(source: str) -> list[list[tuple[int, int]]]:
    """Groups of int literals (their spans in ``source``) that are sizes (:func:`_sized_literals`) of the same
    value >= 2 in two calls or more: the dims a shape check compares (a matmul's inner dims, the ``head_dim``
    of q, k and v, a layer's ``in_features`` and its input's last dim). A group shrinks together, so partners
    stay equal (and sizes that differed stay different: each keeps its own group), and never to 1 (a dim of 1
    broadcasts, and a check that reads it may pass or fail for another reason)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    smap = SourceMap(source)
    by_value: dict[int, dict[tuple[int, int], int]] = {}
    for call, literal in _sized_literals(tree):
        if literal.value < 2:
            continue
        span = smap.span(literal)
        if source[span[0]:span[1]] != repr(literal.value):
            continue
        by_value.setdefault(literal.value, {})[span] = id(call)
    groups = []
    for spans in by_value.values():
        if len(set(spans.values())) >= 2:
            groups.append(sorted(spans))
    return sorted(groups)
