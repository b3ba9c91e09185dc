"""The reduction engine, driven by pure-Python predicates."""

from __future__ import annotations

import ast
import os
import re
import threading
import traceback
from collections import Counter
from pathlib import Path
from typing import Callable

import pytest

from reportkit.reduce import passes as P
from reportkit.reduce.schedule import Progress, ReduceResult, Stop, reduce_source

Predicate = Callable[[str], bool]


def raises(exc_type: type[BaseException], message: str, func: str | None = None) -> Predicate:
    """Interesting iff executing the candidate raises ``exc_type(message)`` (in function ``func``)."""

    def predicate(source: str) -> bool:
        namespace = {"__name__": "__main__", "print": lambda *a, **k: None}
        try:
            exec(compile(source, "<candidate>", "exec"), namespace)
        except exc_type as exc:
            if str(exc) != message:
                return False
            return func is None or traceback.extract_tb(exc.__traceback__)[-1].name == func
        except (Exception, SystemExit):
            return False
        return False

    return predicate


class Recorder:
    """Wraps a predicate: counts calls per content and checks every candidate parses."""

    def __init__(self, predicate: Predicate) -> None:
        self.predicate = predicate
        self.seen: Counter[str] = Counter()
        self.unparsable: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, source: str) -> bool:
        # compile the text, not an ast.parse() tree: with -j the predicate runs in worker threads, and
        # CPython 3.11's AST object conversion is not thread-safe ("AST constructor recursion depth
        # mismatch" when two threads convert trees at once; the reducer parses in the main thread)
        try:
            compile(source, "<check>", "exec", dont_inherit=True)
        except SyntaxError:
            with self.lock:
                self.unparsable.append(source)
        with self.lock:
            self.seen[source] += 1
        return self.predicate(source)

    @property
    def calls(self) -> int:
        return sum(self.seen.values())


def reduce_checked(source: str, predicate: Predicate, **kwargs: object) -> tuple[ReduceResult, Recorder]:
    assert predicate(source), "the test's input must be interesting"
    recorder = Recorder(predicate)
    improvements: list[str] = []
    result = reduce_source(source, recorder, on_improve=improvements.append, **kwargs)  # type: ignore[arg-type]
    assert recorder.unparsable == []
    assert max(recorder.seen.values(), default=1) == 1, "same content tested twice"
    assert source not in recorder.seen, "the original is assumed interesting"
    assert result.stats.tests_run == recorder.calls
    assert all(predicate(s) for s in improvements)
    assert result.source == (improvements[-1] if improvements else source)
    assert predicate(result.source)
    return result, recorder


# ---------------------------------------------------------------------- HDD behaviour
def test_dead_for_loop_goes_with_its_body() -> None:
    source = "total = 0\nfor i in range(3):\n    total += i\n    print(i)\nraise ValueError('boom')\n"
    result, recorder = reduce_checked(source, raises(ValueError, "boom"))
    assert result.source == "raise ValueError('boom')\n"
    # the loop was removed in one step, header and body together
    assert "total = 0\nraise ValueError('boom')\n" in recorder.seen


def test_nested_function_bodies_are_reduced() -> None:
    source = (
        "def outer():\n"
        "    def inner():\n"
        "        a = 1\n"
        "        b = 2\n"
        "        raise KeyError('x')\n"
        "    c = 3\n"
        "    inner()\n"
        "outer()\n"
    )
    result, _ = reduce_checked(source, raises(KeyError, "'x'", func="inner"))
    # outer was inlined (it is called once); inner must stay a function for the predicate
    assert result.source == "def inner():\n    raise KeyError('x')\ninner()\n"


def test_decorators_are_removed_with_the_def() -> None:
    source = (
        "import functools\n\n"
        "def deco(fn):\n"
        "    @functools.wraps(fn)\n"
        "    def wrapper(*a):\n"
        "        return fn(*a)\n"
        "    return wrapper\n\n"
        "@deco\n"
        "@functools.lru_cache(None)\n"
        "def unused_helper(x):\n"
        "    return x\n\n"
        'raise RuntimeError("kept")\n'
    )
    result, recorder = reduce_checked(source, raises(RuntimeError, "kept"))
    assert result.source == 'raise RuntimeError("kept")\n'
    for candidate in recorder.seen:  # a decorator never survives without its def
        assert ("@deco" in candidate) <= ("def unused_helper" in candidate)


def test_semicolon_lines() -> None:
    result, recorder = reduce_checked(
        "a = 7; b = 0; c = a / b; d = 4\n", raises(ZeroDivisionError, "division by zero")
    )
    assert "a = 7; b = 0; c = a / b\n" in recorder.seen  # ``; d = 4`` removed from the line
    assert "b = 0; 7 / b\n" in recorder.seen  # the first statement of the line removed
    assert result.source == "1 / 0\n"  # then single-use variables were inlined


def test_non_ascii_source() -> None:
    source = (
        'greeting = "héllo wörld 🐍"; unused = "ünïcödé"\n'
        "def f(msg):\n"
        '    prefix = "→ "\n'
        "    raise ValueError(prefix + msg)\n"
        "f(greeting)\n"
    )
    result, _ = reduce_checked(source, raises(ValueError, "→ héllo wörld 🐍"))
    assert result.source == 'raise ValueError("→ " + "héllo wörld 🐍")\n'


def test_emptied_bodies_get_pass() -> None:
    source = (
        "class Model:\n"
        "    def forward(self, x):\n"
        "        y = x * 2\n"
        "        return y\n"
        "    def helper(self):\n"
        "        return 1\n"
        "m = Model()\n"
        'raise TypeError("t")\n'
    )
    base = raises(TypeError, "t")
    result, _ = reduce_checked(source, lambda s: "class Model" in s and base(s))
    assert result.source == 'class Model:\n    pass\nraise TypeError("t")\n'


# ---------------------------------------------------------------- engine guarantees
@pytest.mark.parametrize(
    "source, predicate",
    [
        # deleting the only element of ``x = 7,`` gives ``x = ``
        ("x = 7,\nif len(x) == 1:\n    raise ValueError(len(x))\n", raises(ValueError, "1")),
        # deleting ``v = 1`` or inlining outer() leaves a ``nonlocal`` without binding:
        # ast.parse accepts that, compile() does not
        (
            "def outer():\n    v = 1\n    def inner():\n        nonlocal v\n        v += 1\n        raise ValueError(v)\n"
            "    inner()\nouter()\n",
            raises(ValueError, "2", func="inner"),
        ),
    ],
)
def test_unparsable_candidates_never_reach_the_predicate(source: str, predicate: Predicate) -> None:
    result, recorder = reduce_checked(source, predicate)
    assert result.stats.invalid_skipped > 0
    assert recorder.unparsable == []


def test_content_cache() -> None:
    source = REALISTIC_SCRIPT
    result, recorder = reduce_checked(source, raises(ZeroDivisionError, "division by zero", "compute_ratio"))
    assert result.stats.cache_hits > 0  # picire re-asks (its per-iteration assert, revisited configs)
    assert recorder.seen.most_common(1)[0][1] == 1


def stopping_after(budget: int, predicate: Predicate) -> Predicate:
    """``predicate``, raising Stop from its ``budget + 1``-th call on (thread-safe)."""
    lock = threading.Lock()
    calls = [0]

    def limited(source: str) -> bool:
        with lock:
            calls[0] += 1
            if calls[0] > budget:
                raise Stop()
        return predicate(source)

    return limited


@pytest.mark.parametrize("jobs", [1, 3])
@pytest.mark.parametrize("budget", [1, 4, 25])
def test_stop_returns_best_so_far(jobs: int, budget: int) -> None:
    predicate = raises(ZeroDivisionError, "division by zero", "compute_ratio")
    improvements: list[str] = []
    result = reduce_source(REALISTIC_SCRIPT, stopping_after(budget, predicate), jobs=jobs, on_improve=improvements.append)
    assert result.stopped_early
    assert all(predicate(s) for s in improvements)
    assert result.source == (improvements[-1] if improvements else REALISTIC_SCRIPT)
    assert budget < result.stats.tests_run <= budget + jobs


def test_keyboard_interrupt_leaves_progress_in_on_improve() -> None:
    predicate = raises(ZeroDivisionError, "division by zero", "compute_ratio")
    calls = [0]

    def interrupted(source: str) -> bool:
        calls[0] += 1
        if calls[0] > 30:
            raise KeyboardInterrupt
        return predicate(source)

    improvements: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        reduce_source(REALISTIC_SCRIPT, interrupted, on_improve=improvements.append)
    assert improvements, "30 tests should have improved something"
    assert all(predicate(s) for s in improvements)
    assert len(improvements[-1]) < len(REALISTIC_SCRIPT)


def test_stop_from_on_progress() -> None:
    seen: list[Progress] = []

    def on_progress(progress: Progress) -> None:
        seen.append(progress)
        if progress.phase == "hdd level 1":
            raise Stop()

    result = reduce_source(
        REALISTIC_SCRIPT,
        raises(ZeroDivisionError, "division by zero", "compute_ratio"),
        on_progress=on_progress,
    )
    assert result.stopped_early
    assert seen[-1].phase == "hdd level 1"
    assert any(p.phase == "hdd level 0" for p in seen)
    runs = [p.stats.tests_run for p in seen]
    assert runs == sorted(runs)
    assert result.source == seen[-1].source


@pytest.mark.parametrize("jobs", [2, 3, 5])
@pytest.mark.parametrize("case", ["realistic", "threshold", "nested"])
def test_jobs_give_identical_results(jobs: int, case: str) -> None:
    source, predicate = {
        "realistic": (REALISTIC_SCRIPT, raises(ZeroDivisionError, "division by zero", "compute_ratio")),
        "threshold": (THRESHOLD_SOURCE, randn_at_least(65)),
        "nested": (
            "def outer():\n    def inner():\n        a = [1, 2, 3]\n        raise KeyError(a[2])\n    inner()\nouter()\n",
            raises(KeyError, "3", func="inner"),
        ),
    }[case]
    serial, _ = reduce_checked(source, predicate)
    parallel, _ = reduce_checked(source, predicate, jobs=jobs)
    assert parallel.source == serial.source
    assert parallel.stats.passes == serial.stats.passes


def test_jobs_must_be_positive() -> None:
    with pytest.raises(ValueError):
        reduce_source("x = 1\n", lambda s: True, jobs=0)


# -------------------------------------------------------------------------- numbers
THRESHOLD_SOURCE = "import torch\nx = torch.randn(1000, 37)\ny = x + 2\n"


_RANDN_LITERAL = re.compile(r"\.randn\((\d+)\s*[,)]")


def randn_at_least(threshold: int) -> Predicate:
    """Interesting iff some ``randn(n, ...)`` call has a literal first argument ``n >= threshold``."""

    def predicate(source: str) -> bool:  # text only, no AST objects: it runs in worker threads (see Recorder)
        return any(int(m.group(1)) >= threshold for m in _RANDN_LITERAL.finditer(source))

    return predicate


@pytest.mark.parametrize("threshold", [2, 65, 999, 1000])
def test_numeric_shrink_finds_the_threshold(threshold: int) -> None:
    result, _ = reduce_checked(THRESHOLD_SOURCE, randn_at_least(threshold))
    assert result.source == f"torch.randn({threshold})\n"  # no import of torch left: no tensor, no shape
    # with torch imported (as any run needs it), the tensor keeps its rank (reportkit.reduce.passes.shapes)
    imported = randn_at_least(threshold)
    result, _ = reduce_checked(THRESHOLD_SOURCE, lambda s: "import torch" in s and imported(s))
    assert result.source == f"import torch\ntorch.randn({threshold}, 1)\n"


def test_numeric_shrink_only_accepts_interesting_values() -> None:
    # Not monotone: interesting iff the literal is a multiple of 7 and >= 14.
    def predicate(source: str) -> bool:
        values = [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)]
        return any(type(v) is int and v >= 14 and v % 7 == 0 for v in values)

    result, _ = reduce_checked("n = 700\n", predicate)
    (value,) = [n.value for n in ast.walk(ast.parse(result.source)) if isinstance(n, ast.Constant)]
    assert 14 <= value < 700 and value % 7 == 0


# ------------------------------------------------------------------- realistic script
REALISTIC_SCRIPT = '''\
"""Toy training-statistics script with a planted bug."""
import argparse
import json
import math
import os
from dataclasses import dataclass, field
from typing import List

DEFAULT_SCALE = 3.5
THRESHOLDS = [0.1, 0.25, 0.5, 0.75]


@dataclass
class Config:
    scale: float = DEFAULT_SCALE
    batches: int = 4
    verbose: bool = False
    tags: List[str] = field(default_factory=list)


class Meter:
    """Running average."""

    def __init__(self, name):
        self.name = name
        self.total = 0.0
        self.count = 0

    def update(self, value, n=1):
        self.total += value * n
        self.count += n

    def average(self):
        if self.count == 0:
            return 0.0
        return self.total / self.count


def parse_args(argv):
    parser = argparse.ArgumentParser(description="toy stats")
    parser.add_argument("--scale", type=float, default=DEFAULT_SCALE)
    parser.add_argument("--batches", type=int, default=4)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    return Config(scale=args.scale, batches=args.batches, verbose=args.verbose)


def make_batch(index, size=16):
    values = [math.sin(index + i) * 10 for i in range(size)]
    return [v for v in values if abs(v) > 0.5]


def select(values, limit):
    # keep only values above the limit (the planted bug: limit is too high)
    return [v for v in values if v > limit]


def compute_ratio(total, count):
    return total / count


def summarize(meter, config):
    report = {"name": meter.name, "avg": meter.average(), "scale": config.scale}
    if config.verbose:
        print(json.dumps(report, indent=2))
    return report


def main(argv=None):
    config = parse_args(argv)
    meter = Meter("loss")
    for index in range(config.batches):
        batch = make_batch(index)
        meter.update(sum(batch) / len(batch), n=len(batch))
    summary = summarize(meter, config)
    kept = select(make_batch(0), limit=config.scale * 100)
    ratio = compute_ratio(sum(kept), len(kept))
    print("ratio", ratio, summary, os.getcwd())
    return 0


if __name__ == "__main__":
    main([])
'''


def test_realistic_script(tmp_path: Path) -> None:
    predicate = raises(ZeroDivisionError, "division by zero", func="compute_ratio")
    result, recorder = reduce_checked(REALISTIC_SCRIPT, predicate)
    (tmp_path / "minimal.py").write_text(result.source, encoding="utf-8")
    lines = [line for line in result.source.splitlines() if line.strip()]
    print(
        f"\nrealistic script: {len(REALISTIC_SCRIPT.splitlines())} lines -> {len(lines)} lines, "
        f"{len(REALISTIC_SCRIPT)} -> {len(result.source)} bytes; predicate calls: {recorder.calls}; "
        f"stats: {result.stats}"
    )
    print(result.source)
    assert len(lines) <= 4
    assert "def compute_ratio" in result.source
    assert recorder.calls < 250  # plain line-level picire ddmin needs ~250-440 for 36 lines


def test_realistic_script_progress_and_stats() -> None:
    phases: list[str] = []
    result = reduce_source(
        REALISTIC_SCRIPT,
        raises(ZeroDivisionError, "division by zero", func="compute_ratio"),
        on_progress=lambda p: phases.append(p.phase),
    )
    assert not result.stopped_early
    assert result.stats.rounds >= 1
    assert result.stats.passes["hdd"] > 0
    assert {"hdd level 0", "hdd level 1", "unused", "unwrap", "inline", "args", "shrink-literals"} <= set(
        phases
    )
    assert phases[-1] == "done"
    # 1-minimal w.r.t. statement deletion: no single statement can go
    levels = P.statement_levels(result.source)
    predicate = raises(ZeroDivisionError, "division by zero", func="compute_ratio")
    for level in levels:
        for edit in level:
            candidate = P.apply_edits(result.source, [edit])
            assert candidate is None or not P.parses(candidate) or not predicate(candidate)


# ------------------------------------------------------------- lazy confirmation
def safe_run_prints_ratio(source: str) -> bool:
    """A differential check: with the division made safe, the candidate runs and prints its ratio line."""
    printed: list[tuple] = []
    namespace = {"__name__": "__main__", "print": lambda *a, **k: printed.append(a)}
    try:
        exec(compile(source.replace("total / count", "total / (count or 1)"), "<safe>", "exec"), namespace)
    except (Exception, SystemExit):
        return False
    return any(args[:1] == ("ratio",) for args in printed)


class Counted:
    def __init__(self, check: Predicate) -> None:
        self.check, self.calls, self.lock = check, 0, threading.Lock()

    def __call__(self, source: str) -> bool:
        with self.lock:
            self.calls += 1
        return self.check(source)


def test_confirm_always_true_changes_nothing_but_is_checked_once_per_pass() -> None:
    predicate = raises(ZeroDivisionError, "division by zero", func="compute_ratio")
    plain_improvements: list[str] = []
    plain = reduce_source(REALISTIC_SCRIPT, predicate, on_improve=plain_improvements.append)
    confirm = Counted(lambda source: True)
    lazy = reduce_source(REALISTIC_SCRIPT, predicate, confirm=confirm)
    assert lazy.source == plain.source
    assert lazy.stats.passes == plain.stats.passes
    assert lazy.stats.redone == 0
    assert confirm.calls == lazy.stats.confirms
    # once per pass (HDD level) that changed something, not once per accepted candidate: on this script
    # those passes accept two candidates or more on average
    assert 0 < confirm.calls <= len(plain_improvements) / 2


@pytest.mark.parametrize("jobs", [1, 3])
def test_confirm_failure_repeats_the_pass_and_results_always_pass_it(jobs: int) -> None:
    predicate = raises(ZeroDivisionError, "division by zero", func="compute_ratio")
    plain = reduce_source(REALISTIC_SCRIPT, predicate)
    assert not safe_run_prints_ratio(plain.source), "the predicate alone drops the print"
    confirm = Counted(safe_run_prints_ratio)
    improvements: list[str] = []
    result = reduce_source(REALISTIC_SCRIPT, Recorder(predicate), confirm=confirm, jobs=jobs,
                           on_improve=improvements.append)
    assert improvements and result.source == improvements[-1]
    assert all(predicate(s) and safe_run_prints_ratio(s) for s in improvements)
    assert result.stats.redone >= 1
    assert confirm.calls == result.stats.confirms
    strict = reduce_source(REALISTIC_SCRIPT, lambda s: predicate(s) and safe_run_prints_ratio(s))
    assert len(result.source) <= len(strict.source) * 1.1
    print(f"\nlazy: {result.stats.tests_run} tests + {confirm.calls} confirms; "
          f"strict: {strict.stats.tests_run} tests (each accepted one confirmed too)")


@pytest.mark.parametrize("budget", [5, 20, 60])
def test_stop_keeps_the_last_confirmed_source(budget: int) -> None:
    predicate = raises(ZeroDivisionError, "division by zero", func="compute_ratio")
    improvements: list[str] = []
    result = reduce_source(REALISTIC_SCRIPT, stopping_after(budget, predicate), confirm=safe_run_prints_ratio, on_improve=improvements.append)
    assert result.stopped_early
    assert result.source == (improvements[-1] if improvements else REALISTIC_SCRIPT)
    assert safe_run_prints_ratio(result.source) and predicate(result.source)


# ------------------------------------------- cheaper near a minimum: split choice, memo
def single_step_candidates(source: str) -> list[str]:
    """Every candidate one step of any pass proposes on ``source`` (materialization needs a probe: not here)."""
    edits: list[P.Edit] = [e for level in P.statement_levels(source) for e in level]
    for ddmin_pass in (P.UNUSED, P.ARGS, P.ELEMENTS, P.LITERALS_TO_ONE):
        edits += ddmin_pass.propose(source)
    out = [P.apply_edits(source, [edit]) for edit in edits]
    for each_pass in (P.DROP_TARGET, P.UNWRAP, P.INLINE, P.INLINE_EXPRESSIONS, P.INLINE_VARIABLES,
                      P.SIMPLIFY, P.HOIST):
        out += each_pass.candidates(source)
    for site in P.numeric_literals(source):
        if site.shrinkable:
            out += [site.render(v) for v in (0, 1)] + ([] if site.is_float else [site.render(int(site.value) - 1)])
    return [c for c in out if c is not None and c != source and P.parses(c)]


ONE_DEPENDENCY = "calls = []\ncalls.append(0)\ncalls.append(1)\nif len(calls) == 2:\n    raise ValueError('x')\n"


@pytest.mark.parametrize("source, predicate", [
    (REALISTIC_SCRIPT, raises(ZeroDivisionError, "division by zero", func="compute_ratio")),
    (ONE_DEPENDENCY, raises(ValueError, "x")),
    ("def outer():\n    def inner():\n        a = [1, 2, 3]\n        raise KeyError(a[2])\n    inner()\nouter()\n",
     raises(KeyError, "3", func="inner")),
])
def test_result_is_a_fixpoint_of_every_pass(source: str, predicate: Predicate) -> None:
    result, _ = reduce_checked(source, predicate)
    candidates = single_step_candidates(result.source)
    assert candidates, "the check needs something to check"
    assert not [c for c in candidates if predicate(c)]


def test_a_rejected_change_is_known_where_it_stands_not_by_its_neighbours() -> None:
    """The memo knows a change by its lines and the functions and classes around it: deleting
    ``super().__init__()`` is the same change after the signature and the next statement changed, and a
    different one in another class."""
    from reportkit.reduce.tester import _Memo

    def module(cls: str, params: str, first: str) -> str:
        return (f"import torch\n\nclass {cls}(torch.nn.Module):\n    def __init__(self{params}):\n"
                f"        super().__init__()\n        {first}\n\nrun()\n")

    def deletion(source: str) -> bytes:
        return _Memo.change(source, source.replace("        super().__init__()\n", ""))

    first = deletion(module("Encoder", ", cfg", "self.fc = torch.nn.Linear(cfg.dim, 2)"))
    assert deletion(module("Encoder", "", "self.norm = torch.nn.LayerNorm(4)")) == first
    assert deletion(module("Decoder", ", cfg", "self.fc = torch.nn.Linear(cfg.dim, 2)")) != first
    # at module level: the lines themselves
    assert _Memo.change("a = 1\nb = 2\nc = 3\n", "a = 1\nc = 3\n") == _Memo.change("x = 0\nb = 2\n", "x = 0\n")


def test_a_verifying_round_skips_known_rejections_again_once_it_changes_something() -> None:
    """The round without memo that confirms a fixpoint is an ordinary round from its first accepted change
    on (another verifying round follows): it does not re-run every known-rejected change of the round."""
    from reportkit.reduce.schedule import Problem

    problem = Problem("a = 1\nb = 2\n", lambda s: True)
    problem.memo, problem.verifying = False, True
    assert problem.try_candidate("a = 1\n", "hdd", 1)
    assert problem.memo and not problem.verifying


def test_skipped_changes_are_retried_in_the_last_round() -> None:
    # Deleting `drop_me()` is rejected while `gate()` stands; once `gate()` is gone the same change
    # (same lines around it) is skipped as known-rejected, and the last round (skipping nothing)
    # removes it.
    def predicate(candidate: str) -> bool:  # text only
        lines = candidate.splitlines()
        return "keep1()" in lines and "keep2()" in lines and ("gate()" not in lines or "drop_me()" in lines)

    result, recorder = reduce_checked("gate()\nkeep1()\ndrop_me()\nkeep2()\n", predicate)
    assert result.source == "keep1()\nkeep2()\n"
    assert result.stats.memo_skips >= 1
    assert recorder.seen["gate()\nkeep1()\nkeep2()\n"] == 1  # rejected once, while gate() stood


def test_needed_statements_cost_about_n_tests_per_sweep_after_the_first() -> None:
    n = 32
    appends = "".join(f"calls.append({i})\n" for i in range(n))
    source = "calls = []\n" + appends + "limit = max(500, 7)\n"

    def predicate(candidate: str) -> bool:  # text only (worker threads)
        return candidate.startswith("calls = []\n" + appends + "limit = ")

    result, _ = reduce_checked(source, predicate)
    assert result.source in {"calls = []\n" + appends + f"limit = {v}\n" for v in (0, 1)}  # so: more rounds
    # first sweep halving on down: ~2n; the last (verification) sweep from halves to single
    # statements: ~n (halving on down again: another ~2n); the sweep between skips the single
    # deletions already rejected
    assert result.stats.rounds >= 3
    assert result.stats.memo_skips >= n - 2
    assert result.stats.tests_by_pass["hdd"] <= 3 * n + 10


@pytest.mark.parametrize("size", [1, 2, 5, 8])
def test_halves_then_singles_split(size: int) -> None:
    from reportkit.reduce.dd import halves_then_singles

    config = list(range(size))
    halves = halves_then_singles([config])
    assert [c for s in halves for c in s] == config and len(halves) == min(2, size)
    assert halves_then_singles(halves) == [[c] for c in config]


def test_grouped_split_first_splits_by_group() -> None:
    from reportkit.reduce.dd import _Grouped, _singles

    groups = ["a", "a", "a", "a", "b", "c", "c"]
    split = _Grouped(groups, _singles)
    first = split([list(range(7))])
    assert first == [[0, 1, 2, 3], [4], [5], [6]]  # a group under three edits: single edits already
    assert split(first) == [[0, 1], [2, 3], [4], [5], [6]]  # then a whole group in halves
    assert split([[0, 1], [5, 6]]) == [[0], [1], [5], [6]]  # any part of one by ``inner``


def test_rows_of_a_table_are_no_groups_of_their_own() -> None:
    """The elements of a list literal are a group; the elements of a row inside it are not (each row would
    be tried first); each of them is a group of its own."""
    from reportkit.reduce.passes.kinds import _outer_sequences

    source = "table = [(1, 'a'), (2, 'b'), (3, 'c')]\nflat = [4, 5]\n"
    edits = P.propose_display_elements(source)
    groups = _outer_sequences(edits)
    rows = [g for g, e in zip(groups, edits) if "(" in source[slice(*e.seq.spans[e.index])]]
    assert len(rows) == 3 and len(set(rows)) == 1  # the table's three rows: one group
    assert len(set(groups)) == 1 + 6 + 1  # the table, each row element alone, ``flat``


def _elements_tests(source: str, predicate: Predicate, by_sequence: bool) -> tuple[str, int]:
    from dataclasses import replace

    from reportkit.reduce.schedule import Problem

    problem = Problem(source, predicate)
    problem._ddmin._yields["elements"] = 0.25  # the last elements ddmin applied few: near a minimum
    replace(P.ELEMENTS, by_sequence=by_sequence).run(problem)
    return problem.current, problem.stats.tests_run


def test_elements_of_a_container_that_can_all_go_go_in_one_test() -> None:
    """Near a minimum (the last elements ddmin applied few of its edits: single edits next), elements are
    deleted container by container first: a list whose every element can go costs one test, not one per
    element."""
    source = ("texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g', 'hh']\n"
              "shape = (2, 3, 4)\n"
              "table = {'x': 1, 'y': 2}\n"
              "raise ValueError(shape, table)\n")

    def predicate(candidate: str) -> bool:
        return "(2, 3, 4)" in candidate and "{'x': 1, 'y': 2}" in candidate and "raise" in candidate

    grouped, grouped_tests = _elements_tests(source, predicate, True)
    flat, flat_tests = _elements_tests(source, predicate, False)
    assert grouped == flat == source.replace(source.splitlines()[0], "texts = []")
    assert grouped_tests < flat_tests
    assert grouped_tests <= 1 + 5 * 2  # texts in one test; each needed element of the others at most twice


def test_a_table_of_rows_costs_no_more_on_the_first_ddmin() -> None:
    """A parametrize-style table of two-element rows (c01-14): the first ddmin halves and uses no groups,
    so the grouped elements pass costs what the plain one does (grouping every row first cost c01-14
    61 -> 226 tests)."""
    rows = ", ".join(f"({i}, 'r{i}')" for i in range(30))
    source = f"table = [{rows}]\nassert (7, 'r7') not in table\n"

    def predicate(candidate: str) -> bool:
        return "(7, 'r7')]" in candidate or "(7, 'r7'), " in candidate

    def tests(by_sequence: bool) -> int:
        from dataclasses import replace

        from reportkit.reduce.schedule import Problem

        problem = Problem(source, predicate)
        replace(P.ELEMENTS, by_sequence=by_sequence).run(problem)
        return problem.stats.tests_run

    assert tests(True) <= tests(False)


# ------------------------------------------------------------------------- scaffolding
def test_scaffolding_around_the_failing_statement_goes() -> None:
    """Modules around the failing op: self attributes, a one-method class, unused constructor
    parameters and a one-element container are undone, leaving a function of the failing line."""
    source = (
        "class Block:\n"
        "    def __init__(self, dim, depth=2):\n"
        "        self.items = {'a': 1}\n"
        "\n"
        "    def forward(self, key):\n"
        "        return self.items[key]\n"
        "\n"
        "class Model:\n"
        "    def __init__(self, dim=4):\n"
        "        self.blocks = [Block(dim) for _ in range(1)]\n"
        "\n"
        "    def forward(self, key):\n"
        "        for blk in self.blocks:\n"
        "            out = blk.forward(key)\n"
        "        return out\n"
        "\n"
        "Model().forward('missing')\n"
    )
    result, _ = reduce_checked(source, raises(KeyError, "'missing'"))
    assert "class" not in result.source and "range" not in result.source and "blk" not in result.source
    for name in ("class-to-function", "self-attr-builds", "one-element", "unused-params"):
        assert result.stats.passes.get(name), (name, result.stats.passes)
    assert result.source == "{}['missing']\n"


@pytest.mark.parametrize("oracle, rebuild, materialize, builds", [
    (False, True, True, True),  # library code raised: everything runs
    (True, True, False, True),  # the script's own code raised: values stay, an object may be built where read
    (True, False, False, False),  # a check of computed values: neither
])
def test_value_and_rebuilding_passes_by_what_the_failure_keeps(oracle, rebuild, materialize, builds):
    from reportkit.reduce.schedule import Problem, _Schedule

    schedule = _Schedule(Problem("x = 1\n", lambda s: True), oracle=oracle, rebuild=rebuild)
    assert schedule._allowed(P.MATERIALIZE) is materialize
    assert schedule._allowed(P.SELF_ATTR_BUILDS) is builds
    assert schedule._allowed(P.UNUSED) is True
    assert schedule._allowed(P.STRING_LINES) is not oracle  # rows of pasted data: a value pass
    guarded = _Schedule(Problem("x = 1\n", lambda s: True), oracle=oracle, rebuild=rebuild, guarded=True)
    assert guarded._allowed(P.STRING_LINES) is True  # a fix check keeps the rows the bug needs
    assert guarded._allowed(P.MATERIALIZE) is materialize


# ------------------------------------------------------------- running candidates ahead (-j)
def test_run_ahead_width_follows_the_chance_that_the_answer_is_used() -> None:
    from reportkit.reduce.tester import _Window

    # the k-th candidate is run too while the k-1 before it are all rejected with a chance >= 0.7
    for jobs, p, width in [(2, 0.0, 2), (2, 0.3, 2), (2, 0.35, 1), (2, 1.0, 1), (4, 0.1, 4), (4, 0.2, 2),
                           (4, 0.0, 4), (1, 0.0, 1)]:
        window = _Window(jobs)
        try:
            assert window.width(p) == width, (jobs, p)
        finally:
            window.close(wait=True)


def _one_line_deletions(source: str) -> list[str]:
    lines = source.splitlines(keepends=True)
    return ["".join(lines[:i] + lines[i + 1:]) for i in range(len(lines) - 1)]


@pytest.mark.parametrize("interesting", [True, False])
def test_candidates_likely_interesting_are_not_run_ahead(interesting: bool) -> None:
    """A pass whose candidates are (nearly) all accepted runs (nearly) no candidate whose answer goes
    unused with -j 2; one whose candidates are all rejected still runs them two at a time."""
    from reportkit.reduce.passes.kinds import EachPass
    from reportkit.reduce.schedule import Problem

    source = "".join(f"x{i} = {i}\n" for i in range(20)) + "raise ValueError('x')\n"
    counts = {}
    for jobs in (1, 2):
        asked: list[str] = []
        lock = threading.Lock()

        def predicate(candidate: str, asked=asked, lock=lock) -> bool:
            with lock:
                asked.append(candidate)
            return interesting

        problem = Problem(source, predicate, jobs=jobs)
        problem.set_phase("each")
        try:
            EachPass("each", _one_line_deletions).run(problem)
        finally:
            problem.close(wait=True)
        counts[jobs] = problem.stats.tests_run
        assert problem.stats.tests_run == len(asked)
        assert problem.current == ("raise ValueError('x')\n" if interesting else source)
    if interesting:
        assert counts[1] == 20 and counts[2] <= counts[1] + 2
    else:
        assert counts[1] == counts[2] == 20


def test_cosmetic_passes_cost_one_test_together() -> None:
    source = "# setup\nimport os  # unused\n\n\n\nraise ValueError(os.sep)   \n\n\n"
    result, recorder = reduce_checked(source, raises(ValueError, "/"))
    assert result.source == "import os\n\nraise ValueError(os.sep)\n"
    assert result.stats.tests_by_pass.get("final") == 1
    assert result.stats.passes.get("comments") == result.stats.passes.get("whitespace") == 1


def test_cosmetic_passes_one_by_one_when_together_fails() -> None:
    # the predicate needs the comment: dropping it with the whitespace fails, the whitespace alone passes
    source = "raise ValueError('x')  # keep\n\n\n"

    def predicate(candidate: str) -> bool:
        return "# keep" in candidate and raises(ValueError, "x")(candidate)

    result, _ = reduce_checked(source, predicate)
    assert result.source == "raise ValueError('x')  # keep\n"
    assert result.stats.passes.get("whitespace") == 1 and not result.stats.passes.get("comments")


def test_a_rejected_change_of_many_lines_is_not_rerun_while_its_lines_stay() -> None:
    from reportkit.reduce.tester import Tester

    body = "".join(f"    a{i} = {i}\n" for i in range(6))
    source = "x = 1\n\n\ndef f():\n" + body + "    return a5\n\n\nf()\n"
    asked: list[str] = []

    def predicate(candidate: str) -> bool:
        asked.append(candidate)
        return candidate.startswith("x = 2") and body in candidate

    tester = Tester(source, predicate)
    tester.memo = True
    assert not tester.test(source.replace(body, "    a5 = 5\n"))  # five lines: rejected
    changed = source.replace("x = 1", "x = 2")
    assert tester.try_candidate(changed, "elsewhere", 1)
    assert not tester.test(changed.replace(body, "    a5 = 5\n"))  # the same change: skipped
    assert len(asked) == 2 and tester.stats.memo_skips == 1
    tester.memo = False  # the last round re-runs it
    assert not tester.test(changed.replace(body, "    a5 = 5\n")) and len(asked) == 3


def test_a_change_rejected_ahead_of_the_walk_is_memoized_although_never_asked_for() -> None:
    """-j 2: the second candidate runs while the first is tested; the first is accepted, so the walk
    never asks about the second. Its rejection still counts: the same change on the new source is skipped."""
    from reportkit.reduce.tester import Tester

    source = "a = 1\nb = 2\nc = 3\n"
    asked: list[str] = []
    lock = threading.Lock()

    def predicate(candidate: str) -> bool:
        with lock:
            asked.append(candidate)
        return "c = 3" in candidate

    tester = Tester(source, predicate, jobs=2)
    try:
        tester.memo = True
        assert not tester.test("x = 0\n") and not tester.test("y = 0\n")  # this phase's candidates: mostly rejected
        first, second = "b = 2\nc = 3\n", "a = 1\nb = 2\n"
        assert tester.first_interesting([first, second]) == 0
        assert second in asked  # run ahead, its answer unused
        assert tester.accept(first, "each", 1)
        assert not tester.test("b = 2\n")  # the same change (drop ``c = 3``) on the new source: not run
        assert tester.stats.memo_skips == 1 and "b = 2\n" not in asked and len(asked) == 4
    finally:
        tester.close(wait=True)


def test_a_reshaping_fine_pass_that_changed_something_starts_the_round_over(monkeypatch) -> None:
    """The finer passes after a reshaping one (elements, inline-variables...) wait for the structural and
    scaffolding passes to work on what it opened up: they would test code those are about to remove."""
    from dataclasses import dataclass

    from reportkit.reduce import schedule as R

    calls: list[tuple[str, int, bool]] = []

    @dataclass(frozen=True)
    class Fake:
        name: str
        change: str | None = None

        def run(self, problem) -> bool:
            changed = False
            if self.change is not None and self.change not in problem.current:
                changed = problem.try_candidate(problem.current.replace("x = 1", self.change), self.name, 1)
            calls.append((self.name, problem.round, changed))
            return changed

    reshaper, finer = Fake("reshaper", "x = 1  # reshaped"), Fake("finer")
    monkeypatch.setattr(R.P, "FINE", (reshaper, finer))
    monkeypatch.setattr(R.P, "RESHAPING", (reshaper,))
    result = R.reduce_source("x = 1\n", lambda s: "x = 1" in s)
    assert "x = 1" in result.source
    changed_in = {r for name, r, changed in calls if name == "reshaper" and changed}
    assert changed_in == {1}
    assert all(r not in changed_in for name, r, _ in calls if name == "finer")
    assert any(name == "finer" for name, _, _ in calls)


def test_find_integer() -> None:
    from reportkit.reduce.dd import find_integer

    for limit in (0, 1, 3, 4, 5, 7, 8, 9, 30, 100):
        asked: list[int] = []

        def holds(k: int, limit: int = limit, asked: list[int] = asked) -> bool:
            asked.append(k)
            return k <= limit

        assert find_integer(holds) == limit
        assert len(set(asked)) == len(asked)  # never the same k twice
        if limit < 4:
            assert asked == list(range(1, limit + 2))  # the small ones in turn
        else:
            assert len(asked) <= 4 + 2 * limit.bit_length()


def _hdd_tests(source: str, predicate: Predicate, extend: bool, monkeypatch) -> tuple[str, int]:
    from reportkit.reduce.dd import _DD
    from reportkit.reduce.schedule import Problem

    if not extend:
        monkeypatch.setattr(_DD, "_extended", lambda self, run, subsets, i: (subsets, i))
    problem = Problem(source, predicate)
    problem._ddmin._yields["hdd 0"] = 0.25  # near a minimum: halves, then single statements
    problem.ddmin(P.statement_levels(source)[0], "hdd", site="hdd 0", sparse=True)
    monkeypatch.undo()
    return problem.current, problem.stats.tests_run


def test_a_run_of_removable_statements_goes_in_about_log_tests(monkeypatch) -> None:
    """Near a minimum, ddmin goes from halves to single statements and walks them backward: a run of k
    removable statements between needed ones used to cost k tests, one per statement. After one goes, the
    ones before it go too as far as they still fail (1, 2, 3, 4, then doubling, then bisecting)."""
    lines = ["needed_a = 1"] + [f"dead_{i} = {i}" for i in range(40)] + ["needed_b = 2"] \
        + [f"dead_{i} = {i}" for i in range(40, 43)] + ["raise ValueError(needed_a, needed_b)"]
    source = "\n".join(lines) + "\n"

    def predicate(candidate: str) -> bool:
        return all(s in candidate for s in ("needed_a = 1", "needed_b = 2", "raise ValueError"))

    want = "needed_a = 1\nneeded_b = 2\nraise ValueError(needed_a, needed_b)\n"
    extended, extended_tests = _hdd_tests(source, predicate, True, monkeypatch)
    walked, walked_tests = _hdd_tests(source, predicate, False, monkeypatch)
    assert extended == walked == want
    assert walked_tests >= 43 and extended_tests <= 30, (walked_tests, extended_tests)


def test_isolated_removable_statements_cost_no_more(monkeypatch) -> None:
    """Removable statements one at a time between needed ones: the extension's tests are the very ones
    the walk makes next (answered from picire's cache), so it costs nothing."""
    lines = []
    for i in range(12):
        lines += [f"keep_{i} = {i}", f"dead_{i} = {i}"]
    source = "\n".join(lines + ["raise ValueError(" + ", ".join(f"keep_{i}" for i in range(12)) + ")"]) + "\n"

    def predicate(candidate: str) -> bool:
        return all(f"keep_{i} = {i}" in candidate for i in range(12)) and "raise ValueError" in candidate

    extended, extended_tests = _hdd_tests(source, predicate, True, monkeypatch)
    walked, walked_tests = _hdd_tests(source, predicate, False, monkeypatch)
    assert extended == walked and "dead_" not in extended
    assert extended_tests <= walked_tests


def test_a_strict_pass_whose_checked_candidates_all_pass_is_lazy_again() -> None:
    """A pass whose result failed the second condition is repeated strict (each candidate checked before
    it is accepted) and stays strict while the check keeps rejecting some of its candidates; a strict run
    in which the check passed every candidate it saw makes it lazy again (checked on its result only)."""
    from reportkit.reduce.schedule import Problem

    checked: list[str] = []

    def confirm(source: str) -> bool:
        checked.append(source)
        return "keep = 1" in source

    problem = Problem("keep = 1\na = 1\nb = 2\nc = 3\nd = 4\n", lambda s: True, confirm=confirm)
    lazy = problem.confirm

    def step(*candidates: str):
        return lambda: [problem.try_candidate(c, "p", 1) for c in candidates]

    lazy.checked("p", step("a = 1\nb = 2\nc = 3\nd = 4\n"))  # loses ``keep``: the result fails, redone strict
    assert problem.current.startswith("keep = 1") and "p" in lazy._strict_passes
    lazy.checked("p", step("b = 2\nc = 3\nd = 4\n", "keep = 1\nb = 2\nc = 3\nd = 4\n"))  # rejects one: strict
    assert problem.current == "keep = 1\nb = 2\nc = 3\nd = 4\n" and "p" in lazy._strict_passes
    checked.clear()
    lazy.checked("p", step("keep = 1\nc = 3\nd = 4\n", "keep = 1\nd = 4\n"))  # all pass: lazy next time
    assert problem.current == "keep = 1\nd = 4\n" and len(checked) == 2
    assert "p" not in lazy._strict_passes
    checked.clear()
    lazy.checked("p", step("keep = 1\n"))
    assert problem.current == "keep = 1\n" and checked == ["keep = 1\n"]  # lazy: its result, once


def test_early_checks_only_for_a_pass_whose_result_failed_before() -> None:
    """After some pass's result failed the second condition, a lazy pass that never failed it is still
    checked on its result only; one that failed before has its 1st, 2nd, 4th ... accepted source checked
    at once (a pass that breaks the check again is caught early)."""
    from reportkit.reduce.schedule import Problem

    checked: list[str] = []

    def confirm(source: str) -> bool:
        checked.append(source)
        return "keep = 1" in source

    lines = [f"v{i} = {i}" for i in range(8)]
    problem = Problem("keep = 1\n" + "\n".join(lines) + "\n", lambda s: True, confirm=confirm)
    lazy = problem.confirm

    def step(name: str, *candidates: str):
        return lambda: [problem.try_candidate(c, name, 1) for c in candidates]

    lazy.checked("breaks", step("breaks", "\n".join(lines) + "\n"))  # fails the check: redone strict
    assert "breaks" in lazy._strict_passes
    checked.clear()
    shrinking = ["keep = 1\n" + "\n".join(lines[k:]) + "\n" for k in range(1, 6)]
    lazy.checked("other", step("other", *shrinking))  # never failed: its result only
    assert problem.current == shrinking[-1] and checked == [shrinking[-1]]
    lazy._strict_passes.clear()  # as after a clean strict run of "breaks": lazy again
    checked.clear()
    more = ["keep = 1\n" + "\n".join(lines[k:]) + "\n" for k in range(6, 9)]
    lazy.checked("breaks", step("breaks", *more))
    assert checked == [more[0], more[1], more[2]]  # the 1st and 2nd at once; the 3rd as the result


def test_numbers_that_bound_each_other_do_not_start_round_after_round() -> None:
    """Two literals that can only go down a step at a time, each given the other (|a - b| <= 1): a round
    whose fine passes changed numbers only ends the search; it used to start another round (every pass
    again) per step, up to the round limit."""
    import re

    def predicate(candidate: str) -> bool:  # text only (worker threads)
        m = re.fullmatch(r"a = (\d+)\nb = (\d+)\nprint\(a, b\)\n", candidate)
        return m is not None and abs(int(m[1]) - int(m[2])) <= 1 and int(m[1]) + int(m[2]) >= 9

    result, _ = reduce_checked("a = 40\nb = 40\nprint(a, b)\n", predicate)
    assert result.source != "a = 40\nb = 40\nprint(a, b)\n"  # the numbers went down
    assert result.stats.rounds <= 3
    assert result.stats.tests_run <= 40


# ------------------------------------------------------------------ the cap on what inlining builds
PRESET_SCRIPT = '''\
PRESETS = {"adam": {"lr": 0.1, "beta": 0.9}, "sgd": {"lr": 1.0}}
DEFAULTS = {"lr": 0.01, "beta": None}
argv = ["+sgd"]
names = [a[1:] for a in argv if a.startswith("+")]
preset = PRESETS[names[0]]
merged = {**DEFAULTS, **preset}
unset = [k for k, v in merged.items() if v is None]
raise ValueError(unset[0])
'''


def test_inlining_builds_no_statement_beyond_the_originals_most_complex() -> None:
    """One-use variables inlined all the way make one statement of 31 nodes (the original's most complex has
    12): the candidates past the cap are not run, the intermediate values stay named."""
    from reportkit.reduce.passes.complexity import max_statement_nodes
    from reportkit.reduce.schedule import Problem

    problem = Problem(PRESET_SCRIPT, raises(ValueError, "beta"))
    problem.set_phase(P.INLINE_VARIABLES.name)
    assert P.INLINE_VARIABLES.run(problem)
    assert max_statement_nodes(problem.current) <= max_statement_nodes(PRESET_SCRIPT) == 12
    assert problem.stats.too_complex > 0
    assert "names = [a[1:] for a in" in problem.current and "unset = [k for k, v in merged" in problem.current


CONSTANT_BUILD_SCRIPT = """\
import fractions
third = fractions.Fraction(1, 3)
pair = divmod(third, 1)
raise ValueError(pair[1])
"""


def test_a_modules_constructor_of_constants_is_inlined_as_a_literal_would_be() -> None:
    """``third = fractions.Fraction(1, 3)`` read once goes into its reader as a literal would
    (``pair = divmod(fractions.Fraction(1, 3), 1)``: a value of its kind read at a glance, as a hand-written
    reproducer nests ``torch.randn(2, 2)``), where counting the call's parts made it more complex than anything
    the original wrote; a method of a value with the same arguments is no such literal."""
    from reportkit.reduce.schedule import Problem

    problem = Problem(CONSTANT_BUILD_SCRIPT, raises(ValueError, "1/3"))
    problem.set_phase(P.INLINE_VARIABLES.name)
    assert P.INLINE_VARIABLES.run(problem)
    assert "pair = divmod(fractions.Fraction(1, 3), 1)" in problem.current, problem.current  # (pair: beyond the cap)
    # the same shape, but a method of a value: the cap holds
    method = CONSTANT_BUILD_SCRIPT.replace("import fractions\n", "import fractions\nitems = [0]\n")
    method = method.replace("fractions.Fraction(1, 3)", "items.index(0, 0)")
    problem = Problem(method, raises(ValueError, "0"))
    problem.set_phase(P.INLINE_VARIABLES.name)
    P.INLINE_VARIABLES.run(problem)
    assert "pair = divmod(third, 1)" in problem.current and problem.stats.too_complex > 0, problem.current


def test_the_cap_counts_every_node_of_the_originals_constructors() -> None:
    """The leniency is the candidates': an original whose most complex statement nests constructors
    (``fractions.Fraction(fractions.Fraction(1, 3), …)``, 14 nodes counted all) allows a candidate of 7
    (``run(make(x, y))``) as before, though that statement is one literal (2) to the candidates' count."""
    from reportkit.reduce.schedule import Problem

    original = ("import fractions\nthird = fractions.Fraction(fractions.Fraction(1, 3), fractions.Fraction(2, 3))\n"
                "m = make(x, y)\nrun(m)\n")
    problem = Problem(original, lambda s: True)
    problem.set_phase(P.INLINE_VARIABLES.name)
    assert problem.test(original.replace("m = make(x, y)\nrun(m)\n", "run(make(x, y))\n"))
    assert problem.stats.too_complex == 0


def test_constructors_inlined_do_not_raise_the_cap_step_by_step() -> None:
    """A statement of the current source counts whole (a 7-dim ``torch.zeros`` is 10 nodes, not 1): a candidate
    beyond the original's cap may be as complex as it only counted the same way, or each constructor inlined
    would allow the next inlining a statement as large (r13-02 became one six-line statement)."""
    from reportkit.reduce.schedule import Problem

    original = "import torch\nx = h(1)\ny = k(x)\n"
    current = "import torch\nc = torch.zeros(1, 2, 3, 4, 5, 6, 7)\nx = h(1)\ny = k(x)\n"
    problem = Problem(original, lambda s: True)
    problem.set_phase(P.INLINE_VARIABLES.name)
    problem.current = current
    assert not problem.test("import torch\nx = h(1)\ny = k(h(torch.zeros(1, 2, 3, 4, 5, 6, 7)), x)\n")
    assert problem.stats.too_complex == 1
    assert problem.test("import torch\nc = torch.zeros(1, 2, 3, 4, 5, 6, 7)\ny = k(h(1))\n")  # within the cap


def test_the_cap_is_for_inlining_passes_only() -> None:
    """A pass that does not inline (here: simplify, one expression by a sub-expression) is not capped, even
    where the source already holds a statement beyond the original's most complex."""
    from reportkit.reduce.schedule import Problem

    problem = Problem("x = 1\n", lambda s: True)
    big = "y = [f(g(h(a, b), c), d) for a in range(3) for b in range(4) if a < b]\n"
    problem.set_phase(P.SIMPLIFY.name)
    assert problem.test(big)
    problem.set_phase(P.INLINE_VARIABLES.name)
    assert not problem.test(big + "z = 2\n")
    assert problem.stats.too_complex == 1


@pytest.mark.parametrize("comment", ["", "  # the pair"])
def test_unread_targets_ride_along_with_the_final_passes(comment: str) -> None:
    """``a, b = divmod(7, 6)`` with ``b`` unread becomes ``a, _ = …`` only in the final passes' one test (here
    with a comment dropped), never in a test of its own."""
    source = f"a, b = divmod(7, 6){comment}\nraise ValueError(a)\n"
    result, _recorder = reduce_checked(source, raises(ValueError, "1"))
    assert ("a, _ = divmod(" in result.source) == bool(comment), result.source
    assert "#" not in result.source


@pytest.mark.parametrize("gathering_holds", [False, True])
def test_imports_are_gathered_in_the_final_passes_one_test(gathering_holds: bool) -> None:
    """``from os.path import join`` beside ``import os`` becomes ``os.path.join`` in the final passes' one test;
    where that fails (here: the predicate rejects it, as a submodule ``import os`` alone does not load would), the
    other final passes together, not one by one."""
    source = "import os\nfrom os.path import join  # where\n\n\n\nraise ValueError(((join(\n    os.sep, 'b'))))\n"
    predicate = raises(ValueError, os.path.join(os.sep, "b"))

    def interesting(candidate: str) -> bool:
        return (gathering_holds or "os.path.join" not in candidate) and predicate(candidate)

    result, recorder = reduce_checked(source, interesting)
    expected = ("import os\n\nraise ValueError(os.path.join(os.sep, 'b'))\n" if gathering_holds
                else "import os\nfrom os.path import join\n\nraise ValueError(join(os.sep, 'b'))\n")
    assert result.source == expected
    assert len([c for c in recorder.seen if "os.path.join" in c]) == 1
    assert len([c for c in recorder.seen if "# where" not in c]) == (2 if gathering_holds else 3), list(recorder.seen)
