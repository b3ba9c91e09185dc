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


def parametrize_case_candidates(source: str) -> list[str]:
    """For each case of a test's ``parametrize`` list: the list of that case alone, its id pinned (module
    docstring)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    if any(isinstance(t, ast.Name) and t.id == "pytestmark" for s in tree.body if isinstance(s, ast.Assign)
           for t in s.targets):
        return []
    if not any(isinstance(s, ast.Import) and any(a.name == "pytest" and a.asname is None for a in s.names)
               for s in tree.body):
        return []
    smap = SourceMap(source)
    functions: list[ast.FunctionDef] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            functions.append(stmt)
        elif isinstance(stmt, ast.ClassDef) and not any(_mentions_parametrize(d) for d in stmt.decorator_list):
            functions.extend(s for s in stmt.body if isinstance(s, ast.FunctionDef))
    out: list[str] = []
    for func in functions:
        decos = [d for d in func.decorator_list if _mentions_parametrize(d)]
        if len(decos) != 1 or not _is_parametrize(decos[0]):
            continue
        deco = decos[0]
        assert isinstance(deco, ast.Call)
        if len(deco.args) != 2 or deco.keywords:
            continue
        names = _argnames(deco.args[0])
        values = deco.args[1]
        if names is None or not isinstance(values, (ast.List, ast.Tuple)) or not 2 <= len(values.elts) <= MOST:
            continue
        cases: list[tuple[list[ast.expr], str | None, ast.expr, bool]] = []
        for index, entry in enumerate(values.elts):
            if isinstance(entry, ast.Starred) or (isinstance(entry, ast.Call) and "param" in ast.unparse(entry.func)):
                cases = []
                break
            if len(names) == 1:
                parts = [entry]
            elif isinstance(entry, (ast.Tuple, ast.List)) and len(entry.elts) == len(names) \
                    and not any(isinstance(e, ast.Starred) for e in entry.elts):
                parts = list(entry.elts)
            else:
                cases = []
                break
            ids = [_value_id(p, n, index) for p, n in zip(parts, names)]
            # an id made from the values alone does not move with the case: the case as written keeps it
            positional = any(i == f"{n}{index}" and not _literal(p)[0] for i, p, n in zip(ids, parts, names))
            cases.append((parts, None if None in ids else "-".join(ids), entry, positional))  # type: ignore[arg-type]
        if not cases:
            continue
        if not any(positional for *_, positional in cases):
            continue  # every id is made from the values: the element passes drop the other cases
        taken = [case_id for _, case_id, _, _ in cases]
        for parts, case_id, entry, positional in cases:
            if case_id is None or taken.count(case_id) > 1:
                continue
            if positional:
                param = "pytest.param(" + ", ".join(smap.text(p) for p in parts) + f", id={case_id!r})"
            else:
                param = smap.text(entry)
            candidate = apply_splices(source, [Splice(*smap.span(values), f"[{param}]")])
            if candidate is not None and parses(candidate):
                out.append(candidate)
    return out


__all__ = ["parametrize_case_candidates"]
