"""One parametrized case of a pytest test, its id pinned.

A test reduced for one failing case (``tests/test_filesize.py::test_naturalsize[test_args11-1.0K]``)
keeps its ``@pytest.mark.parametrize`` list: the node id names the case by the id pytest generated for
it, and an id made from the case's position (``test_args11``: a list value is named by its argument and
index) moves when an entry before it goes, so the eleven cases before it stay. This pass proposes, for
each case of such a list, the list of that case alone with the id pytest gave it written out,
``[pytest.param([1024, False, True], "1.0K", id="test_args11-1.0K")]``: the same node id collects the
same case (a case whose id is made from its values alone stays as written: its id does not move). The
tester keeps the one whose node id still collects and fails the same way. A list whose ids are all
made from the values is left to the element passes, which drop the other cases in fewer tests.

Only where the ids are pytest's own and computable from the source: one ``pytest.mark.parametrize`` on
the function (none on its class, no module-level ``pytestmark``), argument names as a literal, no
``ids=`` or ``indirect=``, the values a list or tuple display of at most :data:`MOST` cases, none of them
a ``pytest.param`` or starred; a value's id is its text for a number, a bool, None or a printable ASCII
string (pytest's rule), else the argument's name and the case's index; a case whose id two cases share
(pytest then adds a suffix) is left alone.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from .edits import Splice, apply_splices
from .source import SourceMap, parses

#: Lists longer than this are left to the element passes (one candidate per case).
MOST = 32


def _argnames(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        names = [n.strip() for n in node.value.split(",") if n.strip()]
    elif isinstance(node, (ast.List, ast.Tuple)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        names = [e.value for e in node.elts]  # type: ignore[attr-defined]
    else:
        return None
    return names if names and all(n.isidentifier() for n in names) else None


def _literal(node: ast.expr) -> tuple[bool, object]:
    if isinstance(node, ast.Constant):
        return True, node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)) \
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float):
        value = node.operand.value
        return True, -value if isinstance(node.op, ast.USub) else value
    return False, None


def _value_id(node: ast.expr, argname: str, index: int) -> str | None:
    """The id pytest gives ``node`` as the value of ``argname`` in case ``index``; None: not computable."""
    ok, value = _literal(node)
    if not ok:
        return f"{argname}{index}"
    if value is None or isinstance(value, (bool, int, float)):
        return str(value)
    if isinstance(value, str):
        return value if value and value.isascii() and value.isprintable() else None
    return None  # bytes, complex, Ellipsis: escaped or spelled otherwise


def _is_parametrize(deco: ast.expr) -> bool:
    return isinstance(deco, ast.Call) and ast.unparse(deco.func) == "pytest.mark.parametrize"


def _mentions_parametrize(deco: ast.expr) -> bool:
    return "parametrize" in ast.unparse(deco)


class _Case(NamedTuple):
    parts: list[ast.expr]  # the case's value of each argument name
    case_id: str | None  # the id pytest gives it (None: not computable)
    entry: ast.expr  # the case as written
    positional: bool  # its id is made from its position (``test_args11``): it moves when a case before it goes


def _pytest_module(tree: ast.Module) -> bool:
    """A module whose ids come from its tests alone: ``import pytest`` (no alias) and no module-level
    ``pytestmark = pytest.mark.parametrize(...)``."""
    if any(isinstance(t, ast.Name) and t.id == "pytestmark" for s in tree.body if isinstance(s, ast.Assign)
           for t in s.targets):
        return False
    return any(isinstance(s, ast.Import) and any(a.name == "pytest" and a.asname is None for a in s.names)
               for s in tree.body)


def _test_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    """The module-level functions, and the methods of the classes no mark parametrizes
    (``@pytest.mark.parametrize("m", [1, 2])`` on ``class TestK``: its methods are left alone)."""
    functions: list[ast.FunctionDef] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            functions.append(stmt)
        elif isinstance(stmt, ast.ClassDef) and not any(_mentions_parametrize(d) for d in stmt.decorator_list):
            functions.extend(s for s in stmt.body if isinstance(s, ast.FunctionDef))
    return functions


def _parametrize_list(func: ast.FunctionDef) -> tuple[list[str], ast.List | ast.Tuple] | None:
    """``@pytest.mark.parametrize("n, s", [(1, "a"), (2, "b")])``, the one mark of ``func`` that mentions
    parametrize, without ``ids=`` / ``indirect=``, its names literal, 2 to :data:`MOST` cases in a list or
    tuple display: (``["n", "s"]``, the display)."""
    decos = [d for d in func.decorator_list if _mentions_parametrize(d)]
    if len(decos) != 1 or not _is_parametrize(decos[0]):
        return None
    deco = decos[0]
    assert isinstance(deco, ast.Call)
    if len(deco.args) != 2 or deco.keywords:
        return None
    names = _argnames(deco.args[0])
    values = deco.args[1]
    if names is None or not isinstance(values, (ast.List, ast.Tuple)) or not 2 <= len(values.elts) <= MOST:
        return None
    return names, values


def _case_parts(entry: ast.expr, names: list[str]) -> list[ast.expr] | None:
    """The value of each name in one case: ``3`` for ``"n"``, ``(1, "a")`` -> ``1``, ``"a"`` for ``"n, s"``;
    None for a case written otherwise (``*more``, ``pytest.param(2, id="two")``, a tuple of another length)."""
    if isinstance(entry, ast.Starred) or (isinstance(entry, ast.Call) and "param" in ast.unparse(entry.func)):
        return None
    if len(names) == 1:
        return [entry]
    if isinstance(entry, (ast.Tuple, ast.List)) and len(entry.elts) == len(names) \
            and not any(isinstance(e, ast.Starred) for e in entry.elts):
        return list(entry.elts)
    return None


def _cases(names: list[str], values: ast.List | ast.Tuple) -> list[_Case]:
    """Each case of the list with its id (``[([300], "300 Bytes")]`` for ``"test_args, expected"``:
    ``test_args0-300 Bytes``); empty when one case is written otherwise (:func:`_case_parts`)."""
    cases: list[_Case] = []
    for index, entry in enumerate(values.elts):
        parts = _case_parts(entry, names)
        if parts is None:
            return []
        ids = [_value_id(p, n, index) for p, n in zip(parts, names)]
        # an id made from the values alone does not move with the case: the case as written keeps it
        positional = any(i == f"{n}{index}" and not _literal(p)[0] for i, p, n in zip(ids, parts, names))
        cases.append(_Case(parts, None if None in ids else "-".join(ids), entry, positional))  # type: ignore[arg-type]
    return cases


def _case_text(smap: SourceMap, case: _Case) -> str:
    """The case alone: ``pytest.param([1024, False, True], "1.0K", id='test_args5-1.0K')`` where its id is made
    from its position, else the case as written (``(None, True)``: its id is its values)."""
    if case.positional:
        return "pytest.param(" + ", ".join(smap.text(p) for p in case.parts) + f", id={case.case_id!r})"
    return smap.text(case.entry)


def parametrize_case_candidates(source: str) -> list[str]:
    """For each case of a test's ``parametrize`` list: the list of that case alone, its id pinned (module
    docstring)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    if not _pytest_module(tree):
        return []
    smap = SourceMap(source)
    out: list[str] = []
    for func in _test_functions(tree):
        found = _parametrize_list(func)
        cases = _cases(*found) if found is not None else []
        if not any(case.positional for case in cases):
            continue  # every id is made from the values: the element passes drop the other cases
        taken = [case.case_id for case in cases]
        for case in cases:
            if case.case_id is None or taken.count(case.case_id) > 1:
                continue
            candidate = apply_splices(source, [Splice(*smap.span(found[1]), f"[{_case_text(smap, case)}]")])
            if candidate is not None and parses(candidate):
                out.append(candidate)
    return out


__all__ = ["parametrize_case_candidates"]
