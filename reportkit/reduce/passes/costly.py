"""Costly statements first: a top-level statement whose run takes much of the script's time is tried early.

Every candidate runs what the script still holds, so the statements a maintainer drops first are the ones
that make each run slow: an eager run before the compiled one, a 10-million-item DataLoader drained, a
warm-up loop. HDD finds them too, but late (ddmin walks the statements backward from the failing one): every
test before that pays for them. One probe run of the script with a clock read after each top-level statement
(and each of an ``if __name__ == "__main__":`` body; :func:`instrument`) tells what each took; :func:`costly_edits` proposes deleting those that took at least
:data:`SHARE` of the run (the failing statement and those after it never count), most costly first, where
deleting one alone can succeed (HDD's pruned levels: the statement binds no name something still reads).
:class:`CostlyPass` tries each alone, in that order (one test each; HDD would have tried each alone on
the same script anyway) -- a handful of tests that make every later one faster.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass

from .edits import Delete, Edit, apply_edits
from .kinds import Problem
from .source import parses
from .statements import statement_levels

#: A statement is costly when its run took at least this share of the probe run's (from the first
#: statement to the end of the run).
SHARE = 0.1
#: At most this many costly statements are tried (each a test).
MOST = 3

TICK = "__reportkit_tick__"

PROLOGUE = f"""
def __reportkit_costs__():
    import atexit, json, os, time
    ticks = [[-1, time.perf_counter()]]

    def dump():
        path = os.environ.get("REPORTKIT_CAPTURE")
        if path:
            with open(path, "w") as fh:
                json.dump({{"ticks": ticks, "end": time.perf_counter()}}, fh)

    atexit.register(dump)
    return lambda i: ticks.append([i, time.perf_counter()])


{TICK} = __reportkit_costs__()
del __reportkit_costs__
"""


def instrument(source: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The program with ``__reportkit_tick__(k)`` after timed statement ``k`` (on a line of its own, at its
    indentation), the clock's prologue before the first statement that is no docstring or ``from __future__``
    import, and each timed statement's ``(line, column)``; None when there is nothing to time (fewer than two
    statements). Timed: the top-level statements, and those of an ``if __name__ == "__main__":`` body instead
    of the guard itself (what a script runs at its top level)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    body = tree.body
    first = next((i for i, s in enumerate(body) if not _prelude(i, s)), len(body))
    timed = [u for s in body[first:] for u in (_guarded(s) or [s])]
    if len(timed) < 2:
        return None
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    after: dict[int, list[str]] = {}  # line number (1-based) -> the ticks to insert after it
    for k, stmt in enumerate(timed):
        end = stmt.end_lineno or stmt.lineno
        if k + 1 < len(timed) and _start(timed[k + 1]) <= end:
            continue  # ``a; b`` on one line: timed together with the next
        after.setdefault(end, []).append(f"{' ' * stmt.col_offset}{TICK}({k})\n")
    prologue_at = _start(body[first])
    out = []
    for n, line in enumerate(lines, start=1):
        if n == prologue_at:
            out.append(PROLOGUE.lstrip("\n"))
        out.append(line)
        out.extend(after.get(n, []))
    program = "".join(out)
    places = [(s.lineno, s.col_offset) for s in timed]
    return (program, places) if parses(program) else None


def _guarded(stmt: ast.stmt) -> list[ast.stmt] | None:
    """The body of ``if __name__ == "__main__":`` (when its statements start on lines of their own)."""
    if not (isinstance(stmt, ast.If) and isinstance(stmt.test, ast.Compare) and len(stmt.test.ops) == 1
            and isinstance(stmt.test.ops[0], ast.Eq) and isinstance(stmt.test.left, ast.Name)
            and stmt.test.left.id == "__name__" and isinstance(stmt.test.comparators[0], ast.Constant)
            and stmt.test.comparators[0].value == "__main__"):
        return None
    return stmt.body if _start(stmt.body[0]) > stmt.lineno else None


def _prelude(i: int, stmt: ast.stmt) -> bool:
    """A docstring or a ``from __future__`` import: the clock goes after these."""
    docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)
    return docstring or (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__")


def _start(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None) or []
    return min([d.lineno for d in decorators] + [stmt.lineno])


def durations(captured: str | None) -> dict[int, float]:
    """Statement index -> seconds its run took (from the clock read before it to the one after it), and
    ``-1`` -> the whole run's seconds (from before the first statement to the end); empty when nothing
    usable was captured."""
    if not captured:
        return {}
    try:
        data = json.loads(captured)
        ticks = [(int(i), float(t)) for i, t in data["ticks"]]
        end = float(data["end"])
    except (ValueError, KeyError, TypeError):
        return {}
    if not ticks:
        return {}
    out = {i: t - prev for (_, prev), (i, t) in zip(ticks, ticks[1:])}
    out[-1] = end - ticks[0][1]
    return out


def costly_edits(source: str, places: list[tuple[int, int]], captured: str | None) -> list[Edit]:
    """Deletions of the timed statements that took at least :data:`SHARE` of the run, most costly first (at
    most :data:`MOST`), where deleting one alone can succeed (HDD's pruned levels 0 and 1)."""
    took = durations(captured)
    whole = took.pop(-1, 0.0)
    if whole <= 0:
        return []
    levels = statement_levels(source, prune=True)
    deletable = {(e.seq.stmts[e.index].lineno, e.seq.stmts[e.index].col_offset): e
                 for level in levels[:2] for e in level if isinstance(e, Delete)}
    ranked = sorted((t, k) for k, t in took.items()
                    if 0 <= k < len(places) and places[k] in deletable and t >= SHARE * whole)
    return [deletable[places[k]] for _t, k in reversed(ranked)][:MOST]


@dataclass(frozen=True)
class CostlyPass:
    """One probe run (the script timed per top-level statement), then each costly statement's deletion
    alone, most costly first (:func:`costly_edits`). ``plain``: the probe runs on the candidates' side only
    (no second condition: a timing has no values to compare)."""

    name: str = "costly"
    plain: bool = True

    @staticmethod
    def instrument(source: str) -> tuple[str, list[tuple[int, int]]] | None:
        return instrument(source)

    @staticmethod
    def propose(source: str, spans: list[tuple[int, int]], captured: str | None) -> list[Edit]:
        return costly_edits(source, spans, captured)

    def run(self, problem: Problem) -> bool:
        base = problem.current
        edits = problem.capture(self, mark=False)
        if not edits:
            return False
        gone: list[Edit] = []
        for edit in edits:
            if problem.current != apply_edits(base, gone):  # (another change came in between: stop)
                break
            if problem.try_candidate(apply_edits(base, [*gone, edit]), self.name, 1):
                gone.append(edit)
        return bool(gone)
