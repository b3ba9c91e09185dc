"""Dead code by coverage: delete what the failing run never executed, in one test.

Statement deletion (HDD) learns which code the failure needs one test at a time. One *probe* run of
the current program with a line tracer says at once which statements never ran: branches not taken,
handlers never entered, statements after the failure, and functions and methods that were defined but
never called (a flattened project brings in whole modules of them, most referenced somewhere, so the
unused pass cannot drop them). Deleting all of them together is one candidate, tried first; the test
still decides (a function the failure only refers to, a body Dynamo ran as a graph without executing
its lines, a branch the good code needs), and ddmin finds the few that must stay.

The tracer (``sys.settrace`` and ``threading.settrace``, for frames of the script's own file only) is
installed after the script's leading imports, so that importing torch is not traced; it writes each
line the first time it runs to the capture file at once, so a run killed as a hang still reports what
it executed. Where the failure has a second condition (the fix check, a differential), the probe also
runs on that side (:func:`executed_either`): a statement that ran on either side is kept.
"""

from __future__ import annotations

import ast
import difflib

from .edits import Delete, Edit, walk_bodies
from .source import SourceMap, parses

CAPTURE_ENV = "REPORTKIT_CAPTURE"  # the same capture file as value materialization's probe

# One statement; runs inside the target program (any Python >= 3.8). Needs nothing from the script.
PROLOGUE = r'''
def __reportkit_cover__(frame):
    import os, sys, threading
    path = os.environ.get("REPORTKIT_CAPTURE")
    if not path:
        return
    out = open(path, "a", buffering=1)
    seen = set()
    name = frame.f_code.co_filename

    def lines(frame, event, arg):
        if event == "line" and frame.f_lineno not in seen:
            seen.add(frame.f_lineno)
            out.write("%d\n" % frame.f_lineno)
        return lines

    def calls(frame, event, arg):
        if frame.f_code.co_filename == name:
            return lines(frame, "line", arg)
        return None

    sys.settrace(calls)
    threading.settrace(calls)
    frame.f_trace = lines
__reportkit_cover__(__import__("sys")._getframe()); del __reportkit_cover__
'''

# statements that run no code of their own (no line event), or whose removal changes what others mean
_NO_EVENT = (ast.Global, ast.Nonlocal, ast.Pass)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _install_offset(source: str) -> int:
    """Where the tracer goes: after the docstring, ``from __future__`` and the leading imports (imports
    run untraced: importing torch under a tracer is slow, and import lines are executed anyway)."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    offset = 0
    for i, stmt in enumerate(tree.body):
        docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
            and isinstance(stmt.value.value, str)
        if docstring or isinstance(stmt, (ast.Import, ast.ImportFrom)):
            offset = smap.line_end(smap.lineno_of(smap.stmt_span(stmt)[1]))
        else:
            break
    return offset


def instrument(source: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The program with the tracer installed, and ``[(first traced line, lines inserted)]``; None when
    there is nothing to trace (only imports) or it does not parse."""
    try:
        cut = _install_offset(source)
    except SyntaxError:
        return None
    head, body = source[:cut], source[cut:]
    if not body.strip():
        return None
    if head and not head.endswith("\n"):
        head += "\n"
    prologue = PROLOGUE.lstrip("\n")
    program = head + prologue + body
    first = head.count("\n") + 1  # the first line of ``body`` in ``source``
    return (program, [(first, prologue.count("\n"))]) if parses(program) else None


def executed_lines(captured: str | None, shift: list[tuple[int, int]]) -> set[int] | None:
    """The source's lines the probe saw run (None: no capture); lines before the tracer count as run."""
    if not captured or not shift:
        return None
    first, inserted = shift[0]
    seen = set(range(1, first))
    for word in captured.split():
        if word.isdigit():
            n = int(word)
            if n >= first + inserted:
                seen.add(n - inserted)
    return seen


def _lines(node: ast.stmt) -> range:
    start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return range(start, (node.end_lineno or node.lineno) + 1)


def _body_lines(func: ast.FunctionDef | ast.AsyncFunctionDef) -> range:
    return range(func.body[0].lineno, (func.end_lineno or func.lineno) + 1)


def _referenced_uncalled(tree: ast.Module) -> set[str]:
    """Names read other than as the function of a call (``handlers = {"a": on_a}``, ``key=by_name``,
    ``callback=self.done``): a function or method so named may be referenced without being run."""
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    names: set[str] = set()
    for n in ast.walk(tree):
        if id(n) in called:
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            names.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load):
            names.add(n.attr)
    return names


def _docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, (str, type(...)))


def unexecuted_edits(source: str, shift: list[tuple[int, int]], captured: str | None) -> list[Edit]:
    """Deletions of the statements that never ran, and of the functions defined but never called (not
    those referenced other than by a call, nor decorated ones: a decorator may register the function, or
    compile it so that its lines never run as such), outermost only, in source order."""
    seen = executed_lines(captured, shift)
    if seen is None:
        return []
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    smap = SourceMap(source)
    values = _referenced_uncalled(tree)
    edits: list[Edit] = []
    gone: list[range] = []  # statements already deleted: nothing inside them is proposed
    for info in walk_bodies(tree, smap):
        for i, stmt in enumerate(info.seq.stmts):
            lines = _lines(stmt)
            if any(stmt.lineno in r for r in gone) or isinstance(stmt, _NO_EVENT) or _docstring(stmt):
                continue
            ran = any(n in seen for n in lines)
            uncalled = ran and isinstance(stmt, _FUNCS) and not stmt.decorator_list and stmt.name not in values \
                and not any(n in seen for n in _body_lines(stmt))
            if not ran or uncalled:
                edits.append(Delete(info.seq, i))
                gone.append(lines)
    return edits


def _remap(lines: set[int], source: str, other: str) -> set[int]:
    """``lines`` of ``other`` as lines of ``source``, where the two sources share the line."""
    a, b = source.splitlines(), other.splitlines()
    back: dict[int, int] = {}
    for tag, i1, i2, j1, _j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            back.update((j1 + k + 1, i1 + k + 1) for k in range(i2 - i1))
    return {back[n] for n in lines if n in back}


def executed_either(source: str, shift: list[tuple[int, int]], captured: str | None,
                    other_source: str, other_shift: list[tuple[int, int]], other_captured: str | None) -> str | None:
    """``captured`` (of ``source``'s probe) with the lines the other side's probe ran (of ``other_source``:
    the good form on the good code, or the same program under the switched environment) added, as a
    capture of ``source``: a statement either run executed is kept."""
    mine = executed_lines(captured, shift)
    theirs = executed_lines(other_captured, other_shift)
    if mine is None or theirs is None:
        return captured
    both = mine | _remap(theirs, source, other_source)
    first, inserted = shift[0]
    return "".join(f"{n + inserted if n >= first else n}\n" for n in sorted(both))
