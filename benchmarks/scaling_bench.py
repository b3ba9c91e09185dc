"""How reportkit's own cost grows with the size of the script it minimizes (issue 40).

Generated pure-Python scripts (made here, seeded: the same ``--seed`` gives the same scripts) of several
shapes and sizes, and a few long real scripts of the held-out corpora, are minimized with
:func:`reportkit.reduce.minimize.minimize` in-process (warm executor, ``--jobs``). For each run it prints
the tests, the wall time, the time spent inside the executor's ``run`` (the candidate runs, the
probes, the confirmation and verification runs: everything that runs the target) and the rest, which
is reportkit's own time, per test and against the median candidate run; per shape, the exponent of
wall time (and of own time) against the script's size, fitted by least squares on log-log.

Shapes (every generated script fails with a ``KeyError`` at its end; its reproducer has 1-2 lines):

``chain``     N small helpers defined first, called later in a chain (``state = step_7(state)``): the usual
              layout of a script, the worst case of issue 40;
``adjacent``  the same helpers, each called right after its definition;
``function``  one long function (a straight run of assignments) called at the end;
``classes``   many small classes (``__init__`` and one method), instantiated and applied in a chain;
``nested``    blocks nested 6 deep (``for`` / ``if`` / ``with`` / ``try`` / ``while``).

``--baseline DIR`` (a checkout of another version of reportkit, e.g. ``git worktree add /tmp/base
house``) minimizes every script with that code as well, in the same run, one measurement after the
other, and prints the ratios baseline/this code (wall, own time, own time per test) and whether the
results and the test counts are identical. Each measurement runs in a fresh interpreter (this script
with ``--worker``, its ``sys.path`` starting at the code measured).

Targets (printed with PASS/FAIL): own time per test <= the median candidate run on every generated
script; per shape the wall-time exponent <= 1.3 (from the smallest to the largest size; a run cut short
by ``--budget`` is left out of the fit and fails the target); with ``--target-2000``: a 2,000-line
``chain`` script minimized with ``-j 2`` in under 120 s.

    .venv/bin/python benchmarks/scaling_bench.py --sizes 100,200,400,800,1600,3200
    .venv/bin/python benchmarks/scaling_bench.py --shapes chain --sizes 130,500 --baseline /tmp/base --budget 600
    .venv/bin/python benchmarks/scaling_bench.py --shapes chain --sizes 500 --profile /tmp/prof   # cProfile dumps
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHAPES = ("chain", "adjacent", "function", "classes", "nested")
#: Long real scripts of the held-out corpora (pure Python; a pytest test of a library, folded with it).
CORPUS_CASES = ("corpus/c01-14-lib-inflection-ordinal", "corpus/c02-08-lib-semver-prerelease")
EXPONENT_TARGET = 1.3
TARGET_2000_SECONDS = 120.0


# ------------------------------------------------------------------------------------------ scripts
def _helper(rng: random.Random, i: int) -> list[str]:
    """A small helper ``step_i(state)`` of 4-6 lines that reads and writes a few keys of ``state``."""
    a, b = rng.randint(2, 97), rng.randint(2, 97)
    key = f"k{rng.randint(0, 9)}"
    body = [
        f"def step_{i}(state):",
        f"    total = state.get({key!r}, {a})",
        f"    total = (total * {b} + {i}) % 1009",
    ]
    if rng.random() < 0.5:
        body.append(f"    state[{key!r}] = total")
    else:
        body.append(f"    state.update({key}=total, last={i})")
    if rng.random() < 0.4:
        body.append(f"    state['seen'] = state.get('seen', 0) + {rng.randint(1, 5)}")
    body.append("    return state")
    return body


def _chain(rng: random.Random, lines: int) -> list[str]:
    out = ['"""Run the pipeline steps over the state."""', "", "", "STATE = {'k0': 1}", "", ""]
    calls, i = [], 0
    while len(out) + len(calls) + 3 < lines:
        out += _helper(rng, i) + [""]
        calls.append(f"state = step_{i}(state)")
        i += 1
    return out + ["", "state = dict(STATE)", *calls, "print(state['missing'])"]


def _adjacent(rng: random.Random, lines: int) -> list[str]:
    out = ['"""Run the pipeline steps over the state."""', "", "state = {'k0': 1}", ""]
    i = 0
    while len(out) + 2 < lines:
        out += _helper(rng, i) + [f"state = step_{i}(state)", ""]
        i += 1
    return out + ["print(state['missing'])"]


def _function(rng: random.Random, lines: int) -> list[str]:
    out = ['"""One long function."""', "", "", "def run(state):"]
    numbers: list[int] = []
    i = 0
    while len(out) + 4 < lines:
        key = f"k{rng.randint(0, 9)}"
        kind = rng.random()
        if kind < 0.4:
            out.append(f"    x{i} = state.get({key!r}, {rng.randint(1, 50)}) + {rng.randint(1, 50)}")
            numbers.append(i)
        elif kind < 0.7 and numbers:
            out.append(f"    x{i} = x{rng.choice(numbers)} * {rng.randint(2, 9)} % 1009")
            numbers.append(i)
        else:
            out.append(f"    x{i} = [{', '.join(str(rng.randint(0, 99)) for _ in range(rng.randint(1, 4)))}]")
        if rng.random() < 0.3 and numbers and numbers[-1] == i:
            out.append(f"    state[{key!r}] = x{i}")
        i += 1
    return out + ["    return state['missing']", "", "", "run({'k0': 1})"]


def _classes(rng: random.Random, lines: int) -> list[str]:
    out = ['"""Stages of a pipeline, as classes."""', "", ""]
    calls, i = [], 0
    while len(out) + len(calls) + 3 < lines:
        key = f"k{rng.randint(0, 9)}"
        out += [
            f"class Stage{i}:",
            f"    scale = {rng.randint(2, 9)}",
            "",
            "    def __init__(self, offset):",
            "        self.offset = offset",
            "",
            "    def apply(self, state):",
            f"        state[{key!r}] = state.get({key!r}, 1) * self.scale + self.offset",
            "        return state",
            "",
            "",
        ]
        calls.append(f"state = Stage{i}({rng.randint(0, 9)}).apply(state)")
        i += 1
    return out + ["state = {'k0': 1}", *calls, "print(state['missing'])"]


def _nested(rng: random.Random, lines: int) -> list[str]:
    out = ['"""Deeply nested blocks."""', "", "import contextlib", "", "state = {'k0': 1}", ""]
    i = 0
    while len(out) + 12 < lines:
        trys = []
        for depth in range(6):
            pad = "    " * depth
            kind = rng.choice(("for", "if", "with", "try", "while"))
            if kind == "for":
                out.append(f"{pad}for i{i} in range({rng.randint(1, 2)}):")
            elif kind == "if":
                out.append(f"{pad}if state.get('k0', 0) >= {rng.randint(-5, 0)}:")
            elif kind == "with":
                out.append(f"{pad}with contextlib.suppress(ZeroDivisionError):")
            elif kind == "while":
                out.append(f"{pad}while state.get('stop{i}') is None:")
                out.append(f"{pad}    state['stop{i}'] = {rng.randint(0, 9)}")
            else:
                out.append(f"{pad}try:")
                trys.append(pad)
            out.append(f"{pad}    state['k{rng.randint(0, 9)}'] = {rng.randint(0, 99)} + {i}")
            i += 1
        for pad in reversed(trys):  # the handlers close the try blocks, innermost first
            out += [f"{pad}except ValueError:", f"{pad}    pass"]
        out.append("")
    return out + ["print(state['missing'])"]


_GENERATORS = {"chain": _chain, "adjacent": _adjacent, "function": _function, "classes": _classes,
               "nested": _nested}


def generate(shape: str, lines: int, seed: int = 0) -> str:
    """A pure-Python script of about ``lines`` lines of ``shape`` that fails with a KeyError at its end."""
    rng = random.Random(f"{shape}-{lines}-{seed}")
    return "\n".join(_GENERATORS[shape](rng, lines)) + "\n"


# ------------------------------------------------------------------------------------------ worker
@dataclass
class Measured:
    name: str  # shape-size or the corpus case
    shape: str
    lines: int  # non-blank lines of what was minimized (the folded source for a corpus case)
    jobs: int
    code: str  # "this" or "baseline"
    tests: int = 0
    wall: float = 0.0  # minimize(), seconds
    runs: float = 0.0  # of it, inside the executor's run (the target running), summed over threads
    own: float = 0.0  # wall - runs (jobs 1), else wall - runs / jobs at best: see note
    run_median: float = 0.0  # median executor run, seconds
    own_per_test: float = 0.0
    cpu: float = 0.0  # CPU time of reportkit's process during minimize() (all its threads; the target's runs are
    #                   other processes): reportkit's own work, less sensitive to load from elsewhere than ``own``
    result_lines: int = 0
    result_sha: str = ""
    stopped_early: bool = False
    error: str = ""
    profile: str = ""
    notes: list[str] = field(default_factory=list)


def _time_executor_runs(durations: list[float]) -> None:
    """Record the wall time of every outermost executor ``run`` (the warm one falls back to the cold one)."""
    import threading

    from reportkit.run import executor as ex

    depth = threading.local()

    def timed(run):
        def wrapper(self, *args, **kwargs):
            level = getattr(depth, "n", 0)
            depth.n = level + 1
            start = time.perf_counter()
            try:
                return run(self, *args, **kwargs)
            finally:
                depth.n = level
                if level == 0:
                    durations.append(time.perf_counter() - start)  # (list.append is atomic)
        return wrapper

    for cls in (ex.ColdExecutor, ex.WarmExecutor):
        cls.run = timed(cls.run)
    ex.WarmExecutor.learn = timed(ex.WarmExecutor.learn)


def _spec_for_script(script: Path, timeout: float):
    from reportkit.run.runner import target_spec

    return target_spec(str(script), [], python=sys.executable, timeout=timeout)


def _spec_for_case(case_dir: Path, tmp: Path):
    sys.path.insert(1, str(HERE))
    import corpus_bench as cb  # noqa: E402  (after reportkit: its sys.path insert cannot shadow the code measured)

    case = next(c for c in cb.load_cases(case_dir.parent) if c.path.resolve() == case_dir.resolve())
    ws = cb.make_workspace(case, tmp)
    return cb.spec_for(case.target, ws.project, case.timeout, ws.env(), case.manifest.get("args"))


def worker(job: dict) -> Measured:
    """Minimize one script (``job``: what the parent process asks for) and measure it."""
    from reportkit.failure.check import establish
    from reportkit.failure.signature import MatchPolicy
    from reportkit.reduce.minimize import MinimizeOptions, count_lines, minimize

    m = Measured(job["name"], job["shape"], 0, job["jobs"], job["code"])
    durations: list[float] = []
    with tempfile.TemporaryDirectory(prefix="rk-scaling-") as tmp:
        if job.get("case"):
            spec, source = _spec_for_case(Path(job["case"]), Path(tmp))
        else:
            script = Path(tmp) / "pipeline.py"
            shutil.copyfile(job["script"], script)
            spec, source = _spec_for_script(script, 30.0)
        m.lines = count_lines(source)
        policy = MatchPolicy()
        rep = establish(spec, policy, runs=2)
        if not rep.deterministic:
            m.error = "flaky original"
            return m
        out = spec.script.with_name(("min_" + spec.script.name) if spec.pytest_node is not None
                                    else spec.script.stem + ".min.py")
        _time_executor_runs(durations)
        options = MinimizeOptions(output=out, jobs=job["jobs"], budget=job.get("budget"), executor="warm")
        profiler = None
        if job.get("profile"):
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        start, cpu = time.perf_counter(), time.process_time()
        report = minimize(spec, source, rep, policy, options)
        m.wall = time.perf_counter() - start
        m.cpu = time.process_time() - cpu
        if profiler is not None:
            profiler.disable()
            profiler.dump_stats(job["profile"])
            m.profile = job["profile"]
        text = out.read_text(encoding="utf-8") if out.exists() else source
    m.tests = report.tests_run
    m.runs = sum(durations)
    m.own = max(0.0, m.wall - m.runs / max(1, m.jobs))
    m.run_median = statistics.median(durations) if durations else 0.0
    m.own_per_test = m.own / max(1, m.tests)
    m.result_lines = count_lines(text)
    m.result_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    m.stopped_early = report.stopped_early
    if report.executor != "warm":
        m.notes.append(f"executor {report.executor}: {report.executor_note}")
    return m


# ------------------------------------------------------------------------------------------ parent
def run_worker(job: dict, code: Path) -> Measured:
    env = {**os.environ, "PYTHONPATH": str(code) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(job),
                           "--code", str(code)], capture_output=True, text=True, env=env)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            data = json.loads(line)
            return Measured(**data)
    tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
    return Measured(job["name"], job["shape"], 0, job["jobs"], job["code"], error=f"worker failed: {tail}")


def fit_exponent(points: list[tuple[float, float]]) -> float | None:
    """Slope of log(y) against log(x) by least squares (None with fewer than two distinct sizes)."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len({x for x, _ in pts}) < 2:
        return None
    mx = statistics.fmean(x for x, _ in pts)
    my = statistics.fmean(y for _, y in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def _row(m: Measured) -> str:
    cut = " (budget cut)" if m.stopped_early else ""
    if m.error:
        return f"  {m.name:<24} {m.code:<8} {m.error}"
    ratio = m.own_per_test / m.run_median if m.run_median else 0.0
    return (f"  {m.name:<24} {m.code:<8} {m.lines:>5} {m.tests:>6} {m.wall:>8.1f} {m.runs:>8.1f} {m.own:>8.1f} "
            f"{m.cpu:>7.1f} "
            f"{1000 * m.own_per_test:>9.1f} {1000 * m.run_median:>8.1f} {ratio:>6.2f} {m.result_lines:>4} "
            f"{m.result_sha}{cut}")


HEADER = (f"  {'script':<24} {'code':<8} {'lines':>5} {'tests':>6} {'wall s':>8} {'runs s':>8} {'own s':>8} "
          f"{'cpu s':>7} "
          f"{'own/test':>9} {'run med':>8} {'own/run':>6} {'out':>4} result")


def report(results: list[Measured], shapes: list[str], baseline: bool, target_2000: Measured | None) -> bool:
    print("\n" + HEADER.replace("own/test", "ms/test ").replace("run med", "ms run") + "\n  " + "-" * 118)
    for m in results:
        print(_row(m))
    ok = True
    print("\nEXPONENTS (least squares of log time on log lines; runs cut short left out)")
    for code in ("this", "baseline") if baseline else ("this",):
        for shape in shapes:
            done = [m for m in results if m.shape == shape and m.code == code and not m.error]
            full = [m for m in done if not m.stopped_early]
            wall = fit_exponent([(m.lines, m.wall) for m in full])
            own = fit_exponent([(m.lines, m.own) for m in full])
            tests = fit_exponent([(m.lines, m.tests) for m in full])
            sizes = f"{min(m.lines for m in done)}-{max(m.lines for m in done)} lines" if done else "no runs"
            print(f"  {code:<8} {shape:<9} wall {_exp(wall)}  own {_exp(own)}  tests {_exp(tests)}  ({sizes}, "
                  f"{len(full)}/{len(done)} complete)")
            if code == "this" and shape in SHAPES:
                passed = wall is not None and wall <= EXPONENT_TARGET and len(full) == len(done)
                ok &= passed
                print(f"           {'PASS' if passed else 'FAIL'}  wall-time exponent <= {EXPONENT_TARGET}")
    mine = [m for m in results if m.code == "this" and m.shape in SHAPES and not m.error]
    slow = [m for m in mine if m.own_per_test > m.run_median]
    ok &= bool(mine) and not slow
    print(f"\n  {'PASS' if mine and not slow else 'FAIL'}  own time per test <= median candidate run on every "
          f"generated script" + (f" (not on: {', '.join(m.name for m in slow)})" if slow else ""))
    if baseline:
        print("\nRATIOS baseline / this code (same scripts, same run)")
        for m in [m for m in results if m.code == "this"]:
            b = next((x for x in results if x.code == "baseline" and x.name == m.name and x.jobs == m.jobs), None)
            if b is None or b.error or m.error:
                continue
            same = "identical" if (b.result_sha, b.tests) == (m.result_sha, m.tests) else \
                f"DIFFERENT (tests {b.tests} vs {m.tests}, result {b.result_sha} vs {m.result_sha})"
            cut = " (baseline cut short: ratios are lower bounds)" if b.stopped_early else ""
            print(f"  {m.name:<24} wall {b.wall / m.wall:>6.1f}x  own {b.own / max(m.own, 1e-9):>6.1f}x  "
                  f"own/test {b.own_per_test / max(m.own_per_test, 1e-9):>6.1f}x  results {same}{cut}")
    if target_2000 is not None:
        passed = not target_2000.error and not target_2000.stopped_early and target_2000.wall < TARGET_2000_SECONDS
        ok &= passed
        print(f"\n  {'PASS' if passed else 'FAIL'}  {target_2000.lines}-line chain script with -j 2 in under "
              f"{TARGET_2000_SECONDS:.0f} s ({target_2000.wall:.1f} s, {target_2000.tests} tests)")
    return ok


def _exp(x: float | None) -> str:
    return f"{x:5.2f}" if x is not None else "  n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", default=",".join(SHAPES), help=f"comma-separated, of {', '.join(SHAPES)}")
    parser.add_argument("--sizes", default="100,200,400,800,1600,3200", help="script sizes in lines")
    parser.add_argument("--corpus-cases", default=",".join(CORPUS_CASES),
                        help="corpus case directories under benchmarks/ ('' for none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS", help="per minimization")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="also measure the reportkit code in DIR")
    parser.add_argument("--target-2000", action="store_true",
                        help="also minimize a 2,000-line chain script with -j 2 (target: under 120 s)")
    parser.add_argument("--profile", type=Path, metavar="DIR", help="write a cProfile dump per run into DIR")
    parser.add_argument("--keep-scripts", type=Path, metavar="DIR", help="write the generated scripts into DIR")
    parser.add_argument("--json", type=Path, metavar="OUT")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--code", type=Path, default=REPO, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        m = worker(json.loads(args.worker))
        print(json.dumps(asdict(m)))
        return 0
    shapes = [s for s in args.shapes.split(",") if s]
    unknown = set(shapes) - set(SHAPES)
    if unknown:
        parser.error(f"unknown shape(s): {', '.join(sorted(unknown))} (choose from {', '.join(SHAPES)})")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    codes = [("this", REPO)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    print(f"reportkit scaling benchmark — {time.strftime('%Y-%m-%d %H:%M:%S')}, {os.cpu_count()} CPU(s), Python "
          f"{sys.version.split()[0]}, jobs {args.jobs}, seed {args.seed}, budget {args.budget}"
          + (f", baseline {args.baseline}" if args.baseline else ""), flush=True)
    results: list[Measured] = []
    target: Measured | None = None
    with tempfile.TemporaryDirectory(prefix="rk-scaling-scripts-") as tmp:
        scripts_dir = args.keep_scripts or Path(tmp)
        scripts_dir.mkdir(parents=True, exist_ok=True)
        jobs: list[dict] = []
        for shape in shapes:
            for size in sizes:
                path = scripts_dir / f"{shape}_{size}.py"
                path.write_text(generate(shape, size, args.seed), encoding="utf-8")
                jobs.append({"name": f"{shape}-{size}", "shape": shape, "script": str(path), "jobs": args.jobs,
                             "budget": args.budget})
        for case in [c for c in args.corpus_cases.split(",") if c]:
            jobs.append({"name": case.split("/")[-1][:24], "shape": "corpus", "case": str(HERE / case),
                         "jobs": args.jobs, "budget": args.budget})
        if args.target_2000:
            path = scripts_dir / "chain_2000.py"
            path.write_text(generate("chain", 2000, args.seed), encoding="utf-8")
            jobs.append({"name": "chain-2000 (-j 2)", "shape": "target", "script": str(path), "jobs": 2,
                         "budget": args.budget})
        for job in jobs:
            for code, where in codes:
                job = {**job, "code": code}
                if args.profile:
                    job["profile"] = str(args.profile / f"{job['name'].split()[0]}-{code}.prof")
                m = run_worker(job, where)
                print(_row(m), flush=True)
                results.append(m)
                if job["shape"] == "target" and code == "this":
                    target = m
                if args.json:
                    args.json.write_text(json.dumps([asdict(r) for r in results], indent=2), encoding="utf-8")
    ok = report([m for m in results if m.shape != "target"], shapes + (["corpus"] if args.corpus_cases else []),
                bool(args.baseline), target)
    return 0 if ok else 1


if __name__ == "__main__":
    if "--worker" in sys.argv:  # measure the code named by --code: it must come first on sys.path
        code = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else str(REPO)
        sys.path.insert(0, code)
    sys.exit(main())
