"""benchmarks/minimize_bench.py: the test-count target's verdict (no tool runs)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "minimize_bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("minimize_bench", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["minimize_bench"] = module  # dataclasses resolve their module by name
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("minimize_bench", None)


def row(bench, example: str, rk: int, pc: int, *, rk_cut: bool = False, pc_cut: bool = False):
    return bench.ExampleResult(
        example=example, script="x.py", lines_before=10, bytes_before=100, minimal_lines=2, test_timeout=10.0,
        signature="ValueError: x", last_stderr="ValueError: x",
        tools=[bench.ToolResult("reportkit", lines=2, bytes=20, tests=rk, budget_cut=rk_cut),
               bench.ToolResult("picire-lines", lines=5, bytes=50, tests=pc, budget_cut=pc_cut)])


@pytest.mark.parametrize("rows, verdict", [
    ([("01", 100, 700, False, False)], True),
    ([("01", 100, 700, False, False), ("05", 800, 700, False, False)], False),  # one example misses it
    ([("03", 70, 670, False, True)], True),   # picire cut short at 670 tests: complete, it needs more
    ([("03", 900, 670, False, True)], None),  # more than a cut-short count: nothing follows
    ([("03", 70, 670, True, False)], None),   # reportkit cut short
    ([("01", 100, 700, False, False), ("03", 900, 670, False, True)], True),  # the comparable one decides
])
def test_fewer_tests_verdict(bench, rows, verdict) -> None:
    results = [row(bench, ex, rk, pc, rk_cut=rc, pc_cut=pcut) for ex, rk, pc, rc, pcut in rows]
    got, notes = bench.fewer_tests(results)
    assert got is verdict
    assert len(notes) == len(rows)


@pytest.mark.parametrize("counts", [(5, 5), (2, 6), (6, 1)])
def test_take_turns_alternates_until_one_side_is_done(bench, counts) -> None:
    """--sandbox both: the two minimizations take turns run by run; when one side is done, the other
    goes on alone (no deadlock), and a nested gated call is part of the caller's turn."""
    import threading

    cond = threading.Condition()
    state = [0, 0, 0]
    log: list[int] = []

    def side(n: int, who: int) -> None:
        inner = bench.take_turns(cond, state, who, lambda: log.append(who))
        outer = bench.take_turns(cond, state, who, lambda: inner())
        try:
            for _ in range(n):
                outer()
        finally:
            with cond:
                state[1 + who] = 1
                cond.notify_all()

    threads = [threading.Thread(target=side, args=(n, who)) for who, n in enumerate(counts)]
    for t in threads[::-1]:  # side 1 starts first and must still wait for side 0's turn
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert not any(t.is_alive() for t in threads)
    shared = 2 * min(counts)
    assert log[:shared] == [0, 1] * min(counts)
    longer = 0 if counts[0] > counts[1] else 1
    assert log[shared:] == [longer] * (max(counts) - min(counts))
