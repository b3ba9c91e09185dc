"""Costly statements first (issue 38 item 7): the probe's clock per top-level statement, the statements it
proposes, and the reduction that drops them before anything else."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from reportkit.reduce.passes import COSTLY, MATERIALIZE, apply_edits, parses
from reportkit.reduce.passes.costly import MOST, costly_edits, durations, instrument
from reportkit.reduce.passes.materialize import CAPTURE_ENV
from reportkit.reduce.schedule import Problem, reduce_source

SLOW = textwrap.dedent('''
    """Loads a config."""
    from __future__ import annotations
    import json


    def busy(n):
        total = 0
        for i in range(n):
            total += i * i
        return total


    print("warm-up", busy(300_000))
    text = '{"rows": [1, 2, 3],}'
    print("text", len(text))
    json.loads(text)
    print("never reached")
''').lstrip("\n")


def run_probe(tmp_path, program: str) -> str | None:
    script, capture = tmp_path / "probe.py", tmp_path / "capture.json"
    script.write_text(program)
    capture.unlink(missing_ok=True)
    subprocess.run([sys.executable, str(script)], env={**os.environ, CAPTURE_ENV: str(capture)},
                   capture_output=True, timeout=60)
    return capture.read_text() if capture.exists() else None


def test_the_probe_times_each_statement_that_ran(tmp_path):
    made = instrument(SLOW)
    assert made is not None
    program, spans = made
    assert parses(program)
    assert program.startswith('"""Loads a config."""\nfrom __future__ import annotations\n')  # clock after these
    took = durations(run_probe(tmp_path, program))
    # timed from the import on (0) to the print of len (4); json.loads (5) raised, 6 never ran: no clock after them
    assert sorted(took) == [-1, 0, 1, 2, 3, 4]
    assert max((t, i) for i, t in took.items() if i >= 0)[1] == 2  # the warm-up
    assert took[-1] >= took[2]
    assert len(spans) == 7


def test_the_costly_statement_is_proposed_first_and_what_it_binds_for_later_is_not(tmp_path):
    src = textwrap.dedent('''
        import json
        table = list(range(10))
        print("warm-up")
        rows = sorted(table)
        print(len(rows))
        json.loads("{,}")
    ''').lstrip("\n")
    # statement 1 (table, read later) took most, then 2 (print), then 3 (rows, read later), 4 tiny
    ticks = {"ticks": [[-1, 0.0], [0, 0.1], [1, 5.1], [2, 7.1], [3, 9.1], [4, 9.15]], "end": 10.0}
    made = instrument(src)
    assert made is not None
    edits = costly_edits(src, made[1], json.dumps(ticks))
    assert len(edits) == 1  # table and rows are read later; print(len(rows)) took 0.5% of the run
    assert apply_edits(src, edits) == src.replace('print("warm-up")\n', "")


@pytest.mark.parametrize("captured", [None, "", "not json", json.dumps({"ticks": []}), json.dumps({"end": 1})])
def test_nothing_usable_captured_proposes_nothing(captured):
    src = 'print("a")\nprint("b")\nint("x")\n'
    made = instrument(src)
    assert made is not None
    assert costly_edits(src, made[1], captured) == []


def test_at_most_a_few_costly_statements_most_costly_first():
    src = "".join(f"print({i})\n" for i in range(6)) + 'int("x")\n'
    ticks = [[-1, 0.0]] + [[i, float(sum(range(1, i + 2)))] for i in range(6)]  # print(i) took i + 1 seconds
    made = instrument(src)
    assert made is not None
    edits = costly_edits(src, made[1], json.dumps({"ticks": ticks, "end": 22.0}))
    assert [e.index for e in edits] == [5, 4, 3][:MOST]


def test_a_short_script_has_nothing_to_time():
    assert instrument('int("x")\n') is None
    assert instrument('"""doc"""\nint("x")\n') is None


def test_the_reduction_drops_the_costly_statement_before_any_other_test(tmp_path):
    tested: list[str] = []

    def predicate(candidate: str) -> bool:
        tested.append(candidate)
        proc = subprocess.run([sys.executable, "-c", candidate], capture_output=True, text=True, timeout=60)
        return "JSONDecodeError: Expecting property name enclosed in double quotes" in proc.stderr

    result = reduce_source(SLOW, predicate, probe=lambda program, _source: run_probe(tmp_path, program))
    assert "json.loads" in result.source and "busy" not in result.source
    assert result.stats.tests_by_pass.get("costly") == 1
    # the first candidate is the script without the warm-up; no later one runs it
    assert "busy(300_000)" not in tested[0]
    assert not any("busy(300_000)" in c for c in tested)


def test_the_clock_s_capture_is_not_the_values_capture_of_the_same_source():
    runs: list[str] = []

    def probe(program: str, source: str) -> str:
        runs.append("values")
        return json.dumps({"0": ["2", 1]})

    def plain(program: str) -> str:
        runs.append("clock")
        return json.dumps({"ticks": [[-1, 0.0], [0, 0.0], [1, 9.0]], "end": 10.0})

    probe.plain = plain  # type: ignore[attr-defined]
    problem = Problem("a = f()\nb = g(a)\n", lambda s: True, probe=probe)
    costly = problem.capture(COSTLY, mark=False)
    assert costly and len(costly) == 1
    assert problem.capture(MATERIALIZE) is not None  # its own probe run, not the clock's capture
    assert runs == ["clock", "values"]


MAIN_GUARD = textwrap.dedent('''
    import json


    def busy(n):
        return sum(i * i for i in range(n))


    if __name__ == "__main__":
        print("warm-up", busy(300_000))
        text = '{"rows": [1, 2, 3],}'
        json.loads(text)
''').lstrip("\n")


def test_the_statements_of_a_main_guard_are_timed_and_proposed_in_it(tmp_path):
    made = instrument(MAIN_GUARD)
    assert made is not None
    program, places = made
    assert places == [(1, 0), (4, 0), (9, 4), (10, 4), (11, 4)]  # the guard's body instead of the guard
    assert "    __reportkit_tick__(2)\n" in program
    captured = run_probe(tmp_path, program)
    assert sorted(durations(captured)) == [-1, 0, 1, 2, 3]
    edits = costly_edits(MAIN_GUARD, places, captured)
    assert apply_edits(MAIN_GUARD, edits[:1]) == MAIN_GUARD.replace('    print("warm-up", busy(300_000))\n', "")
