"""Benchmark ``reportkit minimize`` against plain picire line-level ddmin (and C-Vise when installed).

For every selected example (a directory of ``examples/`` holding a failing script and a hand-written
``minimal.py``), in one run:

1. **reportkit**: :func:`reportkit.reduce.minimize.minimize` in-process, on a scratch copy of the example
   directory (``examples/`` is never written to).
2. **picire-lines**: picire's ``DD`` (its defaults: ZellerSplit(n=2), subsets first, forward order)
   over the list of lines, with a content cache so that a repeated candidate is not re-run. The
   interestingness test is what a user wires up by hand: "non-zero exit code and the same last
   non-empty stderr line as the original". Candidates run exactly as reportkit runs them
   (:func:`reportkit.run.runner.run_script`, a :class:`~reportkit.run.runner.Sandbox`, the same interpreter and
   per-test timeout from :func:`reportkit.reduce.minimize.test_timeout`), so only the algorithm differs.
3. **cvise** (``cvise --not-c``) when the ``cvise`` binary is on PATH, with the same hand-written rule
   in a shell interestingness script.

Every result is then re-run once (not counted in "tests") and checked two ways:
``recheck``  the result still passes the tool's *own* test;
``slipped``  the result does NOT fail the same way as the original under reportkit's strict signature
             (exception type, normalized message, raising frame) - i.e. the tool reduced to another bug.

Cost: the torch examples (02-05) take ~2-20 s per test and need hundreds of tests, so a full run
takes hours; example 01 (pure Python) takes about a minute per tool. Use ``--budget``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from reportkit.failure.check import establish
from reportkit.failure.signature import MatchPolicy, Reproduction, same_failure, signature_of
from reportkit.reduce._picire import DD, Outcome
from reportkit.reduce.minimize import MinimizeOptions, count_lines, minimize, test_timeout
from reportkit.run.runner import Sandbox, read_script, run_script
from reportkit.run.sandbox import FORCE_ENV
from reportkit.run.spec import RunResult, RunSpec

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
DEFAULT_TIMEOUT = 300.0
LINES_TARGET = 1.5  # reportkit's lines / the hand-written minimal.py's lines

EPILOG = """\
cost: the torch examples (02-05) cost ~2-20 s per test and each tool needs hundreds of tests,
so a full run over all examples takes hours; example 01 (pure Python) takes about a minute per
tool. Bound long examples with --budget SECONDS (per tool per example).

examples:
  python benchmarks/minimize_bench.py --examples 01
  python benchmarks/minimize_bench.py --examples 03 --budget 600 --json bench-03.json
"""


# --------------------------------------------------------------------------- data


@dataclass
class ToolResult:
    tool: str
    lines: int | None = None
    bytes: int | None = None
    tests: int | None = None  # real candidate runs (cache hits not counted); None: not obtainable
    wall: float | None = None
    recheck: bool | None = None  # the result passes the tool's own test on a fresh run
    slipped: bool | None = None  # the result does not fail the same way (strict signature)
    budget_cut: bool = False
    median: float | None = None  # median wall time of one test, seconds (reportkit only)
    note: str = ""
    output: str | None = None  # the result's text

    @property
    def ran(self) -> bool:
        return self.lines is not None


@dataclass
class ExampleResult:
    example: str
    script: str
    lines_before: int
    bytes_before: int
    minimal_lines: int
    test_timeout: float
    signature: str
    last_stderr: str | None
    tools: list[ToolResult] = field(default_factory=list)
    sandbox_ab: tuple[float, float] | None = None  # --sandbox both: interleaved medians (on, off)

    def tool(self, name: str) -> ToolResult | None:
        return next((t for t in self.tools if t.tool == name and t.ran), None)

    def tool_note(self, name: str) -> str:
        """Why a tool has no result here (e.g. "not installed"), or ""."""
        return next((t.note for t in self.tools if t.tool == name and not t.ran), "")


# --------------------------------------------------------------------------- the hand-written rule


def last_stderr_line(result: RunResult) -> str | None:
    lines = [ln.strip() for ln in result.stderr.splitlines() if ln.strip()]
    if not lines:
        return None
    line = lines[-1]
    if result.workdir:  # each run has its own scratch dir; a user's fixed dir would not vary
        line = line.replace(result.workdir, "<work>")
    return line


def hand_rule(result: RunResult, expected: str | None) -> bool:
    """Non-zero exit code and the same last non-empty stderr line as the original."""
    return (result.returncode not in (0, None) and not result.timed_out
            and last_stderr_line(result) == expected)


# --------------------------------------------------------------------------- helpers


def find_script(example: Path) -> Path:
    candidates = [p for p in sorted(example.glob("*.py"))
                  if not p.name.startswith("minimal") and not p.name.endswith(".min.py")]
    if len(candidates) != 1:
        raise SystemExit(f"{example}: expected exactly one failing script, found {[p.name for p in candidates]}")
    return candidates[0]


def readme_timeout(example: Path) -> float | None:
    """The ``--timeout N`` the example's README passes to ``reportkit minimize`` (hang examples)."""
    readme = example / "README.md"
    if not readme.exists():
        return None
    m = re.search(r"reportkit minimize \S+ --timeout (\d+(?:\.\d+)?)", readme.read_text(encoding="utf-8"))
    return float(m.group(1)) if m else None


def scratch_copy(example: Path, root: Path) -> Path:
    dest = root / example.name
    shutil.copytree(example, dest, ignore=shutil.ignore_patterns("*.min.py", "__pycache__"))
    return dest


class _BudgetUsed(Exception):
    pass


def recheck(spec: RunSpec, rep: Reproduction, policy: MatchPolicy, source: str, sandbox: Sandbox,
            own_test) -> tuple[bool, bool]:
    """Re-run ``source`` once: (passes the tool's own test, slipped under the strict signature)."""
    result = run_script(spec, source, sandbox)
    strict_ok = same_failure(rep.signature, signature_of(result, policy), policy)
    own = strict_ok if own_test is None else own_test(result)
    return own, not strict_ok


# --------------------------------------------------------------------------- the tools


def run_reportkit(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, work: Path,
                  budget: float | None, executor: str = "warm", name: str = "reportkit") -> ToolResult:
    out = work.parent / "results" / (spec.script.stem + f".{name}.min.py")  # not in the dir runs copy
    out.parent.mkdir(exist_ok=True)
    report = minimize(spec, source, rep, policy, MinimizeOptions(output=out, jobs=1, budget=budget,
                                                                 executor=executor))
    text = out.read_text(encoding="utf-8")
    note = f"executor {report.executor}" + (f" ({report.executor_note})" if report.executor_note else "")
    if report.reference_runs:
        note += f"; {report.reference_runs} of the tests are the differential's switched runs"
    if report.stopped_early:
        note = "stopped early: " + ("budget" if budget else "stop") + "; " + note
    return ToolResult(name, lines=count_lines(text), bytes=len(text.encode()), tests=report.tests_run,
                      wall=report.wall_time, budget_cut=bool(budget) and report.stopped_early,
                      median=report.test_time_median, note=note, output=text)


def take_turns(cond, state, side: int, run):
    """``run`` gated on a turn shared with another side (a process or a thread): ``state`` is
    [whose turn, side 0 done, side 1 done], guarded by ``cond``. A call waits for this side's turn (or
    for the other side to be done) and hands the turn over when it returns; a call made inside another
    gated call of the same thread is part of that turn."""
    local = threading.local()

    def wrapper(*args, **kwargs):
        if getattr(local, "depth", 0):  # e.g. a warm run handed to the cold runner: one turn
            return run(*args, **kwargs)
        with cond:
            cond.wait_for(lambda: state[0] == side or state[2 - side])
        local.depth = 1
        try:
            return run(*args, **kwargs)
        finally:
            local.depth = 0
            with cond:
                state[0] = 1 - side
                cond.notify_all()
    return wrapper


def _lockstep_side(side: int, mode: str | None, cond, state, conn, call: tuple) -> None:
    """One side of :func:`run_reportkit_lockstep` (a spawned process)."""
    if mode is not None:
        os.environ[FORCE_ENV] = mode
    from reportkit.run import executor as ex

    try:
        for cls in (ex.WarmExecutor, ex.ColdExecutor):  # one candidate run here, then one there
            cls.run = take_turns(cond, state, side, cls.run)
        conn.send(run_reportkit(*call))
    except BaseException as exc:  # noqa: BLE001 - reported by the parent
        conn.send(f"{type(exc).__name__}: {exc}")
    finally:
        with cond:
            state[1 + side] = 1
            cond.notify_all()
        conn.close()


def run_reportkit_lockstep(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, work: Path,
                           budget: float | None, executor: str, name: str) -> tuple[ToolResult, ToolResult]:
    """``--sandbox both``: the sandboxed and the unsandboxed minimization at the same time, in two
    processes that take turns test by test (one candidate run here, then one there), so that load
    from elsewhere on the machine hits both sides alike. Returns (sandboxed, unsandboxed)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # fresh processes: no threads or servers of this one
    cond = ctx.Condition()
    state = ctx.Array("i", [0, 0, 0], lock=False)
    procs, conns = [], []
    for side, (mode, tool) in enumerate(((None, name), ("none", name + "-nobox"))):
        parent, child = ctx.Pipe(duplex=False)
        call = (spec, source, rep, policy, work, budget, executor, tool)
        proc = ctx.Process(target=_lockstep_side, args=(side, mode, cond, state, child, call), daemon=True)
        proc.start()
        child.close()
        procs.append(proc)
        conns.append(parent)
    results = []
    for proc, conn in zip(procs, conns):
        try:
            got = conn.recv()
        except EOFError:
            got = f"the benchmark process exited with {proc.join() or proc.exitcode}"
        proc.join()
        if isinstance(got, str):
            raise RuntimeError(f"reportkit minimize failed in the lockstep run: {got}")
        results.append(got)
    return results[0], results[1]


def run_picire_lines(spec: RunSpec, source: str, expected: str | None, budget: float | None) -> ToolResult:
    run_spec = spec  # already carries the per-test timeout
    sandbox = Sandbox(spec.script, spec.isolate_file)
    lines = source.splitlines(keepends=True)
    cache: dict[str, bool] = {}
    best = {"text": source}
    runs = 0
    start = time.monotonic()
    deadline = start + budget if budget else None

    def render(config) -> str:
        return "".join(lines[i] for i in config)

    def test(config, config_id) -> Outcome:
        nonlocal runs
        text = render(config)
        if text not in cache:
            if deadline is not None and time.monotonic() > deadline:
                raise _BudgetUsed
            runs += 1
            cache[text] = hand_rule(run_script(run_spec, text, sandbox), expected)
            if cache[text] and len(text.encode()) < len(best["text"].encode()):
                best["text"] = text
        return Outcome.FAIL if cache[text] else Outcome.PASS

    cut = False
    try:
        result = render(DD(test)(list(range(len(lines)))))
    except _BudgetUsed:
        cut, result = True, best["text"]
    finally:
        sandbox.cleanup()
    return ToolResult("picire-lines", lines=count_lines(result), bytes=len(result.encode()), tests=runs,
                      wall=time.monotonic() - start, budget_cut=cut,
                      note="budget cut the run short" if cut else "", output=result)


CVISE_TEST = """#!/bin/sh
# reportkit benchmark: cvise interestingness = non-zero exit + same last non-empty stderr line.
echo x >> {counter}
export PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
timeout -s KILL {timeout} {python} {name} >/dev/null 2>stderr.txt
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || exit 1
last=$(grep -v '^[[:space:]]*$' stderr.txt | tail -n 1 | sed 's/^[[:space:]]*//;s/[[:space:]]*$//')
[ "$last" = "$(cat {expected})" ]
"""


def run_cvise(cvise: str, spec: RunSpec, source: str, expected: str | None, work: Path,
              budget: float | None) -> ToolResult:
    if expected is None:
        return ToolResult("cvise", note="original has no stderr line: rule cannot be written")
    cdir = work / "cvise"
    cdir.mkdir()
    target = cdir / spec.script.name
    target.write_text(source, encoding="utf-8")
    (cdir / "expected.txt").write_text(expected + "\n", encoding="utf-8")
    counter = cdir / "tests.count"
    test_sh = cdir / "interesting.sh"
    test_sh.write_text(CVISE_TEST.format(
        counter=shlex.quote(str(counter)), timeout=int(spec.timeout + 1), python=shlex.quote(spec.python),
        name=shlex.quote(spec.script.name), expected=shlex.quote(str(cdir / "expected.txt"))))
    test_sh.chmod(0o755)
    cmd = [cvise, "--not-c", "--n", "1", "--timeout", str(int(spec.timeout + 5)), str(test_sh), target.name]
    start = time.monotonic()
    cut = False
    proc = subprocess.Popen(cmd, cwd=cdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True, text=True)
    try:
        log, _ = proc.communicate(timeout=budget)
    except subprocess.TimeoutExpired:
        cut = True
        os.killpg(proc.pid, signal.SIGKILL)
        log, _ = proc.communicate()
    wall = time.monotonic() - start
    text = target.read_text(encoding="utf-8")
    tests = len(counter.read_text().splitlines()) if counter.exists() else None
    note = "budget cut the run short" if cut else ""
    if proc.returncode not in (0, None) and not cut:
        note = f"cvise exited {proc.returncode}: " + " | ".join((log or "").strip().splitlines()[-2:])
    return ToolResult("cvise", lines=count_lines(text), bytes=len(text.encode()), tests=tests, wall=wall,
                      budget_cut=cut, note=note, output=text)


# --------------------------------------------------------------------------- one example


@contextlib.contextmanager
def _sandbox_mode(mode: str | None):
    """Runs inside use ``REPORTKIT_SANDBOX=mode`` (None: as configured, i.e. the real sandbox)."""
    saved = os.environ.get(FORCE_ENV)
    if mode is not None:
        os.environ[FORCE_ENV] = mode
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(FORCE_ENV, None)
        else:
            os.environ[FORCE_ENV] = saved


def sandbox_ab(spec: RunSpec, source: str, n: int) -> tuple[float, float]:
    """Median wall time of one warm run of the original, sandboxed (bubblewrap, else the fallback) and
    not (``none``), ``n`` runs each, interleaved (on, off, on, off, ...) so that the machine's load hits
    both alike. Each executor is set up as minimize sets it up (private compile cache filled by a cold
    run, preload discovered + learned). Returns (on, off)."""
    from reportkit.run import sandbox as protect
    from reportkit.run.executor import WarmExecutor, discover_preload, private_cache_env

    real = protect.protection
    setups = []
    try:
        for mode in (None, "none"):
            with _sandbox_mode(mode):
                prot = real()
            protect.protection = lambda prot=prot: prot  # fixed for this executor's server and cold runs
            box = Sandbox(spec.script, spec.isolate_file)
            run = replace(spec, env={**spec.env, **private_cache_env(box.root / "compile-cache", spec.env)})
            run_script(run, source, box)
            warm = WarmExecutor(discover_preload(source, spec.script))
            _, learned = warm.learn(run, source, box)
            warm.set_preload(warm.preload + [m for m in learned if m not in warm.preload])
            warm.run(run, source, box)
            setups.append((warm, box, run, prot))
        times: list[list[float]] = [[], []]
        for _ in range(n):
            for i, (warm, box, run, prot) in enumerate(setups):
                protect.protection = lambda prot=prot: prot
                t = time.monotonic()
                warm.run(run, source, box)
                times[i].append(time.monotonic() - t)
    finally:
        protect.protection = real
        for warm, box, _, _ in setups:
            warm.close()
            box.cleanup()
    return statistics.median(times[0]), statistics.median(times[1])


def bench_example(example: Path, args, cvise: str | None) -> ExampleResult:
    script = find_script(example)
    minimal_lines = count_lines((example / "minimal.py").read_text(encoding="utf-8"))
    timeout = args.timeout or readme_timeout(example) or DEFAULT_TIMEOUT
    policy = MatchPolicy()
    with tempfile.TemporaryDirectory(prefix="rk-bench-") as tmp:
        work = scratch_copy(example, Path(tmp))
        spec = RunSpec(script=(work / script.name).resolve(), python=args.python, timeout=timeout)
        source = read_script(spec.script)
        print(f"\n== {example.name}: {script.name} ({count_lines(source)} lines) — running the original 2x ...",
              flush=True)
        rep = establish(spec, policy, runs=2)
        if not rep.deterministic:
            raise SystemExit(f"{example.name}: the failure is flaky ({rep.failures}/{rep.runs}); not benchmarked")
        run_spec = replace(spec, timeout=test_timeout(rep, spec))
        expected = last_stderr_line(rep.results[0])
        res = ExampleResult(example=example.name, script=script.name, lines_before=count_lines(source),
                            bytes_before=len(source.encode()), minimal_lines=minimal_lines,
                            test_timeout=run_spec.timeout, signature=rep.signature.headline(),
                            last_stderr=expected)
        print(f"   signature: {res.signature}\n   per-test timeout: {run_spec.timeout:.1f} s"
              + (f", budget {args.budget:g} s per tool" if args.budget else ""), flush=True)
        sandbox = Sandbox(spec.script, spec.isolate_file)

        def own_rule(result: RunResult) -> bool:
            return hand_rule(result, expected)

        try:
            if args.sandbox == "both":
                print("   sandbox on/off, interleaved warm runs of the original ...", flush=True)
                res.sandbox_ab = sandbox_ab(run_spec, source, args.ab_runs)
            if "reportkit" in args.tools:
                for executor in (("warm", "cold") if args.executor == "both" else (args.executor,)):
                    name = "reportkit-cold" if args.executor == "both" and executor == "cold" else "reportkit"
                    if args.sandbox == "both":
                        print(f"   reportkit ({executor} executor), sandbox on and off taking turns test by "
                              "test ...", flush=True)
                        tools = run_reportkit_lockstep(spec, source, rep, policy, work, args.budget, executor, name)
                    else:
                        print(f"   reportkit ({executor} executor, sandbox {args.sandbox}) ...", flush=True)
                        with _sandbox_mode(None if args.sandbox == "on" else "none"):
                            tools = (run_reportkit(spec, source, rep, policy, work, args.budget, executor, name),)
                    for t in tools:
                        t.recheck, t.slipped = recheck(run_spec, rep, policy, t.output, sandbox, None)
                        res.tools.append(t)
                        print(f"   {t.tool}: {t.lines} lines, {t.tests} tests, {t.wall:.1f} s, "
                              f"median {t.median:.3f} s/test", flush=True)
            if "picire" in args.tools:
                if not hand_rule(rep.results[0], expected):
                    res.tools.append(ToolResult("picire-lines", note="the original does not satisfy "
                                                "'non-zero exit + same last stderr line' (e.g. a hang)"))
                else:
                    print("   picire-lines ...", flush=True)
                    t = run_picire_lines(run_spec, source, expected, args.budget)
                    t.recheck, t.slipped = recheck(run_spec, rep, policy, t.output, sandbox, own_rule)
                    res.tools.append(t)
                    print(f"   picire-lines: {t.lines} lines, {t.tests} tests, {t.wall:.1f} s", flush=True)
            if "cvise" in args.tools:
                if cvise is None:
                    res.tools.append(ToolResult("cvise", note="not installed (cvise not on PATH)"))
                elif not hand_rule(rep.results[0], expected):
                    res.tools.append(ToolResult("cvise", note="the original does not satisfy the hand rule"))
                else:
                    print("   cvise ...", flush=True)
                    t = run_cvise(cvise, run_spec, source, expected, work, args.budget)
                    if t.ran:
                        t.recheck, t.slipped = recheck(run_spec, rep, policy, t.output, sandbox, own_rule)
                    res.tools.append(t)
        finally:
            sandbox.cleanup()
    return res


# --------------------------------------------------------------------------- report


def _fmt(value, spec: str = "") -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return format(value, spec)


def _ratio(a, b) -> str:
    return f"{a / b:.2f}" if a is not None and b else "n/a"


def fewer_tests(rows: list) -> tuple[bool | None, list[str]]:
    """Did reportkit run fewer tests than picire on every example where that can be told?

    Both finished: compare. Only picire cut short by the budget: its complete run needs at least
    the tests it ran, so fewer than those is conclusive, more is not. reportkit cut short: not
    comparable. None when no example is comparable.
    """
    verdicts: list[bool] = []
    notes: list[str] = []
    for r in rows:
        rk, pc = r.tool("reportkit"), r.tool("picire-lines")
        if rk.tests is None or pc.tests is None or rk.budget_cut or (pc.budget_cut and rk.tests >= pc.tests):
            notes.append(f"{r.example[:2]} {_fmt(rk.tests)} vs {_fmt(pc.tests)} (a budget cut a run short: "
                         "not comparable)")
            continue
        verdicts.append(rk.tests < pc.tests)
        notes.append(f"{r.example[:2]} {rk.tests} vs {pc.tests}" + (" (picire cut short: it needs more)"
                                                                     if pc.budget_cut else ""))
    return (all(verdicts) if verdicts else None), notes


def _verdict(ok: bool | None) -> str:
    return "n/a " if ok is None else ("PASS" if ok else "FAIL")


def print_table(res: ExampleResult) -> None:
    print(f"\n{res.example} ({res.script}): original {res.lines_before} lines / {res.bytes_before} bytes; "
          f"hand-written minimal.py {res.minimal_lines} lines; per-test timeout {res.test_timeout:.1f} s")
    print(f"  signature: {res.signature}")
    head = f"  {'tool':<13} {'lines':>6} {'bytes':>7} {'tests':>6} {'wall s':>8} {'slipped':>8} {'recheck':>8}  note"
    print(head)
    print("  " + "-" * (len(head) - 2))
    for t in res.tools:
        if not t.ran:
            print(f"  {t.tool:<13} {'-':>6} {'-':>7} {'-':>6} {'-':>8} {'-':>8} {'-':>8}  {t.note}")
            continue
        print(f"  {t.tool:<13} {t.lines:>6} {t.bytes:>7} {_fmt(t.tests):>6} {t.wall:>8.1f} "
              f"{_fmt(t.slipped):>8} {_fmt(t.recheck):>8}  {t.note}".rstrip())
    rk, pc, cv = res.tool("reportkit"), res.tool("picire-lines"), res.tool("cvise")
    parts = []
    if rk and pc:
        parts.append(f"tests reportkit/picire-lines {_ratio(rk.tests, pc.tests)}")
        parts.append(f"bytes reportkit/picire-lines {_ratio(rk.bytes, pc.bytes)}")
    if rk and cv:
        parts.append(f"bytes reportkit/cvise {_ratio(rk.bytes, cv.bytes)}")
    if rk:
        parts.append(f"lines reportkit/minimal.py {_ratio(rk.lines, res.minimal_lines)}")
    if parts:
        print("  ratios: " + "; ".join(parts))
    if res.sandbox_ab:
        on, off = res.sandbox_ab
        print(f"  sandbox on/off, interleaved warm runs of the original: median {on:.3f}/{off:.3f} s = "
              f"{_ratio(on, off)} (target <= 1.15: {_verdict(on <= 1.15 * off)})")
    boxed, bare = res.tool("reportkit"), res.tool("reportkit-nobox")
    if boxed and bare:
        same = "byte-identical" if boxed.output == bare.output else "DIFFERENT results"
        print(f"  sandbox on/off: median per test {boxed.median:.3f}/{bare.median:.3f} s = "
              f"{_ratio(boxed.median, bare.median)} (target <= 1.15: "
              f"{_verdict(boxed.median <= 1.15 * bare.median)}); total {boxed.wall:.1f}/{bare.wall:.1f} s = "
              f"{_ratio(boxed.wall, bare.wall)}; results {same}")
    warm, cold = res.tool("reportkit"), res.tool("reportkit-cold")
    if warm and cold:
        same = "byte-identical" if warm.output == cold.output else "DIFFERENT results"
        print(f"  executor warm/cold: median per test {warm.median:.2f}/{cold.median:.2f} s = "
              f"{_ratio(warm.median, cold.median)}; total {warm.wall:.1f}/{cold.wall:.1f} s = "
              f"{_ratio(warm.wall, cold.wall)}; results {same}")


def print_overall(results: list[ExampleResult]) -> bool:
    def total(tool: str, attr: str, only: list[ExampleResult]):
        vals = [getattr(r.tool(tool), attr) for r in only]
        return None if any(v is None for v in vals) else sum(vals)

    print("\nOVERALL (" + ", ".join(r.example for r in results) + ")")
    both = [r for r in results if r.tool("reportkit") and r.tool("picire-lines")]
    with_cvise = [r for r in results if r.tool("reportkit") and r.tool("cvise")]
    with_rk = [r for r in results if r.tool("reportkit")]
    for tool in ("reportkit", "picire-lines", "cvise"):
        rows = [r for r in results if r.tool(tool)]
        if not rows:
            continue
        slipped = sum(bool(r.tool(tool).slipped) for r in rows)
        cut = sum(r.tool(tool).budget_cut for r in rows)
        print(f"  {tool:<13} lines {total(tool, 'lines', rows)}  bytes {total(tool, 'bytes', rows)}  "
              f"tests {_fmt(total(tool, 'tests', rows))}  wall {total(tool, 'wall', rows):.1f} s  "
              f"slipped {slipped}/{len(rows)}" + (f"  budget-cut {cut}/{len(rows)}" if cut else ""))
    rk_tests, pc_tests = total("reportkit", "tests", both), total("picire-lines", "tests", both)
    if both:
        print(f"  ratios over {len(both)} example(s) with both: tests reportkit/picire-lines "
              f"{_ratio(rk_tests, pc_tests)}; bytes reportkit/picire-lines "
              f"{_ratio(total('reportkit', 'bytes', both), total('picire-lines', 'bytes', both))}")
    if with_cvise:
        print(f"  bytes reportkit/cvise {_ratio(total('reportkit', 'bytes', with_cvise), total('cvise', 'bytes', with_cvise))}")
    if with_rk:
        rk_lines = sum(r.tool("reportkit").lines for r in with_rk)
        min_lines = sum(r.minimal_lines for r in with_rk)
        print(f"  hand-written minimal.py lines {min_lines}; reportkit lines / minimal lines "
              f"{_ratio(rk_lines, min_lines)}")

    print("\nTARGETS")
    ok_all = True
    fewer, per_fewer = fewer_tests(both)
    print(f"  {_verdict(fewer)}  fewer test runs than picire line-ddmin, per example "
          f"({_fmt(rk_tests)} vs {_fmt(pc_tests)} in all)")
    if per_fewer:
        print("        per example: " + ", ".join(per_fewer))
    if with_cvise:
        rk_b = total("reportkit", "bytes", with_cvise)
        cv_b = total("cvise", "bytes", with_cvise)
        small = rk_b <= cv_b
        print(f"  {_verdict(small)}  result no larger than C-Vise's ({rk_b} vs {cv_b} bytes)")
    else:
        small = None
        why = next((r.tool_note("cvise") for r in results if r.tool_note("cvise")), "not selected (--tools)")
        print(f"  n/a   result no larger than C-Vise's (C-Vise did not run: {why})")
    if with_rk:
        ratio_ok = rk_lines / min_lines <= LINES_TARGET
        print(f"  {_verdict(ratio_ok)}  reportkit lines / minimal.py lines <= {LINES_TARGET} "
              f"({rk_lines}/{min_lines} = {_ratio(rk_lines, min_lines)})")
        per = [f"{r.example[:2]} {r.tool('reportkit').lines}/{r.minimal_lines}" for r in with_rk]
        print("        per example: " + ", ".join(per))
    else:
        ratio_ok = None
    rk_slipped = sum(bool(r.tool("reportkit").slipped) for r in with_rk)
    print(f"  {_verdict(rk_slipped == 0 if with_rk else None)}  reportkit never slips "
          f"({rk_slipped}/{len(with_rk)} slipped)")
    for v in (fewer, small, ratio_ok):
        ok_all = ok_all and v is not False
    return ok_all and rk_slipped == 0


# --------------------------------------------------------------------------- main


def select_examples(spec: str | None) -> list[Path]:
    all_dirs = sorted(p for p in EXAMPLES.iterdir() if p.is_dir() and (p / "minimal.py").exists())
    if not spec:
        return all_dirs
    chosen = []
    for prefix in (s.strip() for s in spec.split(",") if s.strip()):
        hits = [p for p in all_dirs if p.name.startswith(prefix)]
        if not hits:
            raise SystemExit(f"no example matches {prefix!r} (have: {', '.join(p.name for p in all_dirs)})")
        chosen += [p for p in hits if p not in chosen]
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Compare reportkit minimize with plain picire line-ddmin (and C-Vise if installed) "
                    "on the examples. WARNING: torch examples cost ~2-20 s per test (hundreds of tests); "
                    "a full run takes hours. Example 01 takes about a minute per tool.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--examples", help="comma-separated prefixes of example dirs, e.g. 01,03 "
                        "(default: every dir in examples/ that has a minimal.py)")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="stop each tool on each example after this many seconds (best result so far)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="seconds a run may take before it counts as a hang (default: the --timeout in "
                             f"the example's README, else {DEFAULT_TIMEOUT:g}); the per-test timeout is "
                             "derived from it as reportkit does")
    parser.add_argument("--executor", choices=("warm", "cold", "both"), default="warm",
                        help="how reportkit runs candidates: warm (fork server, the CLI default), cold "
                        "(fresh interpreter each), or both, printing the warm/cold ratios (default: warm)")
    parser.add_argument("--sandbox", choices=("on", "off", "both"), default="on",
                        help="reportkit's runs sandboxed (on, the default: bubblewrap where it works, else the "
                        "fallback guard), not (off: REPORTKIT_SANDBOX=none), or both, printing the on/off "
                        "ratio of the median per-test time (target <= 1.15), from the two minimizations "
                        "(run at the same time in two processes that take turns test by test) and from "
                        "--ab-runs interleaved warm runs of the original")
    parser.add_argument("--ab-runs", type=int, default=15, metavar="N",
                        help="with --sandbox both: interleaved runs per side (default 15)")
    parser.add_argument("--tools", default="reportkit,picire,cvise",
                        help="comma-separated subset of reportkit,picire,cvise (default: all)")
    parser.add_argument("--python", default=sys.executable, help="interpreter the examples run in")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the results as JSON")
    parser.add_argument("--report-from", type=Path, metavar="JSON",
                        help="run nothing: re-print the tables of a file written by --json")
    args = parser.parse_args(argv)
    if args.report_from:
        data = json.loads(args.report_from.read_text(encoding="utf-8"))
        results = []
        for ex in data["examples"]:
            tools = [ToolResult(**t) for t in ex.pop("tools")]
            results.append(ExampleResult(**ex, tools=tools))
        print(f"(re-printed from {args.report_from}, measured {data['date']}, {data['cpus']} CPU(s))")
        for res in results:
            print_table(res)
        return 0 if print_overall(results) else 1
    args.tools = {t.strip() for t in args.tools.split(",") if t.strip()}

    cvise = shutil.which("cvise")
    print(f"reportkit minimize benchmark — {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPU(s), "
          f"Python {sys.version.split()[0]}; cvise: {cvise or 'not installed'}")
    results = []
    for example in select_examples(args.examples):
        res = bench_example(example, args, cvise)
        results.append(res)
        print_table(res)
    ok = print_overall(results)
    if args.json:
        data = [asdict(r) for r in results]
        args.json.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cpus": os.cpu_count(),
                                         "cvise": cvise, "budget": args.budget, "examples": data},
                                        indent=2), encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
