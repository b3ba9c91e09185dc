"""Glue of the *reduce* stage: the interestingness test built from run + signature, and the outcome.

:func:`reportkit.reduce.reduce_source` never knows what a test is; this module gives it one: write the
candidate into a fresh scratch copy, run it in the target interpreter, and accept it iff it fails the
same way as the original (:func:`reportkit.signature.same_failure`), ``retries`` times out of
``retries``; for wrong results also the differential check (the switched run passes), which the
reducer runs as its lazy ``confirm``. Every new best result is written atomically to the output
file, so an interrupted run keeps the best result so far.
"""

from __future__ import annotations

import ast
import os
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reportkit.errors import UserError, sigterm_as_interrupt
from reportkit.executor import (
    ColdExecutor,
    Executor,
    WarmExecutor,
    prepare_executor,
    private_cache_env,
    uses_compile,
    uses_torch,
)
from reportkit.io import write_atomic
from reportkit.passes.materialize import CAPTURE_ENV
from reportkit.reduce import Progress, ReduceResult, Stop, reduce_source
from reportkit.runner import OrphanReaper, RunSpec, Sandbox, kill_active, run_script
from reportkit.signature import MatchPolicy, Reproduction, Signature, same_failure, signature_of


@dataclass
class MinimizeOptions:
    output: Path
    jobs: int = 1
    budget: float | None = None  # seconds; stop with the best result so far
    retries: int = 1  # a candidate must fail the same way this many times out of this many
    # "warm": a fork server with the script's heavy imports preloaded runs the candidates (checked
    # against the cold runner on the original first; falls back to cold, see MinimizeReport.executor).
    # "cold": a fresh interpreter per candidate.
    executor: str = "cold"
    # Differential check for wrong results: with these env overrides the candidate must NOT fail the
    # same way (e.g. {"TORCHDYNAMO_DISABLE": "1"}: the bug needs torch.compile). None: automatic.
    passes_with: dict[str, str | None] | None = None


@dataclass
class TestLog:
    """Counts of the real candidate runs (thread-safe)."""

    runs: int = 0
    reference_runs: int = 0  # of ``runs``: the differential's switched (e.g. eager) runs
    interesting: int = 0
    timeouts: int = 0
    durations: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, duration: float, interesting: bool, timed_out: bool, reference: bool = False) -> None:
        with self.lock:
            self.runs += 1
            self.reference_runs += reference
            self.interesting += interesting
            self.timeouts += timed_out
            self.durations.append(duration)


@dataclass
class MinimizeReport:
    input: str
    output: str
    lines_before: int
    lines_after: int
    statements_before: int
    statements_after: int
    bytes_before: int
    bytes_after: int
    tests_run: int
    cache_hits: int
    invalid_skipped: int
    probes: int  # instrumented runs for value materialization (not counted in tests_run)
    passes: dict[str, int]  # pass -> edits it got accepted
    wall_time: float
    test_timeout: float
    stopped_early: bool
    interrupted: bool
    verified: bool | None  # the written result re-run and still failing the same way
    signature: dict
    final_signature: dict | None = None
    executor: str = "cold"  # what ran the candidates: "warm" or "cold"
    executor_note: str = ""  # why cold when warm was asked for; what the warm executor had to work around
    preload: list[str] = field(default_factory=list)  # modules the warm server imported once
    compile_cache: str | None = None  # private TORCHINDUCTOR_CACHE_DIR of this run (removed at the end)
    differential: str = ""  # wrong results: the env under which candidates must pass, and why
    test_time_median: float = 0.0  # median wall time of one candidate run, seconds
    candidates_tested: int = 0  # candidates the reducer ran (--retries runs each)
    reference_runs: int = 0  # of tests_run: the differential's switched runs (see reduce_source's ``confirm``)
    redone_passes: int = 0  # passes repeated because their result failed the differential check
    memo_skips: int = 0  # candidates not run: they repeat a small change an earlier test rejected
    tests_by_pass: dict[str, int] = field(default_factory=dict)  # pass -> candidates tested in it
    pytest_node: str | None = None  # pytest targets: the node id inside the module (unchanged)
    standalone: str | None = None  # pytest targets: a plain script failing the same way, if one could be made
    standalone_note: str = ""  # how it was made, or why there is none

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def count_lines(source: str) -> int:
    return sum(1 for line in source.splitlines() if line.strip())


def count_statements(source: str) -> int:
    try:
        return sum(isinstance(node, ast.stmt) for node in ast.walk(ast.parse(source)))
    except SyntaxError:
        return 0


def test_timeout(rep: Reproduction, spec: RunSpec) -> float:
    """Per-candidate timeout: for a hang the timeout *is* the test; otherwise generous but bounded."""
    if rep.signature.kind == "hang":
        return spec.timeout
    slowest = rep.max_duration
    return min(spec.timeout, max(3 * slowest, slowest + 10))


class Interestingness:
    """The predicate handed to the reducer: does this candidate fail the same way? (``confirm``: the
    differential check, handed to the reducer separately.)"""

    def __init__(self, spec: RunSpec, original: Signature, policy: MatchPolicy, retries: int,
                 sandbox: Sandbox, deadline: float | None, log: TestLog, executor: Executor | None = None,
                 passes_with: dict[str, str | None] | None = None, reference_executor: Executor | None = None) -> None:
        self.spec, self.original, self.policy = spec, original, policy
        self.retries, self.sandbox, self.deadline, self.log = max(1, retries), sandbox, deadline, log
        self.executor = executor
        self.passes_with = passes_with
        self.reference_executor = reference_executor  # runs the differential's switched runs (warm)
        self.stopping = threading.Event()

    def __call__(self, candidate: str) -> bool:
        for _ in range(self.retries):
            self._check_time()
            if self.executor is None:
                result = run_script(self.spec, candidate, self.sandbox)
            else:
                result = self.executor.run(self.spec, candidate, self.sandbox)
            ok = same_failure(self.original, signature_of(result, self.policy), self.policy)
            self.log.add(result.duration, ok, result.timed_out)
            if not ok:
                return False
        return True

    def confirm(self, candidate: str) -> bool:
        """The differential check (``passes_with`` set): with the suspect switched off, the candidate passes."""
        assert self.passes_with
        self._check_time()
        ref_spec = replace(self.spec, env={**self.spec.env, **self.passes_with})
        result = run_script(ref_spec, candidate, self.sandbox) if self.reference_executor is None else \
            self.reference_executor.run(ref_spec, candidate, self.sandbox)
        ok = reference_ok(self.original, signature_of(result, self.policy), self.policy)
        self.log.add(result.duration, ok, result.timed_out, reference=True)
        return ok

    def _check_time(self) -> None:
        if self.stopping.is_set() or (self.deadline is not None and time.monotonic() > self.deadline):
            raise Stop("time budget used up" if not self.stopping.is_set() else "stopped")


def reference_warm_executor(executor: Executor, run_spec: RunSpec, source: str, original: Signature,
                            passes_with: dict[str, str | None] | None, policy: MatchPolicy,
                            sandbox: Sandbox) -> WarmExecutor | None:
    """A second warm server for the differential's switched runs (its own environment, e.g.
    ``TORCHDYNAMO_DISABLE=1``, seen by its preloaded imports), kept only if it runs the original
    the way the cold reference run did: it passes. None: those runs stay cold."""
    if not passes_with or not isinstance(executor, WarmExecutor):
        return None
    ref_spec = replace(run_spec, env={**run_spec.env, **passes_with})
    warm = WarmExecutor(executor.preload)
    try:
        ok = warm.start(ref_spec)
        result = warm.run(ref_spec, source, sandbox) if ok else None
        ok = result is not None and warm.warm_runs > 0 and reference_ok(original, signature_of(result, policy), policy)
    except BaseException:
        warm.close()
        raise
    if not ok:
        warm.close()
        return None
    return warm


def reference_ok(original: Signature, reference: Signature, policy: MatchPolicy) -> bool:
    """The differential check: with the suspect switched off (``--passes-with``), the script *passes*.

    Merely "not the same failure" is not enough: a candidate that broke the reference path (a
    NameError with the switch set) would satisfy it while the comparison lost its meaning.
    """
    return reference.kind == "passed" and not same_failure(original, reference, policy)


def differential_env(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, sandbox: Sandbox,
                     explicit: dict[str, str | None] | None) -> tuple[dict[str, str | None] | None, str]:
    """The env under which candidates must pass (wrong-result bugs), and why.

    Explicit (``--passes-with``) wins. Automatic for a compiled-vs-eager wrong result: an oracle failure
    in a script using torch.compile that passes with ``TORCHDYNAMO_DISABLE=1`` (eager) keeps that check,
    so a candidate cannot swap the compiled computation for anything else that also mismatches.
    """
    if explicit:
        reference = signature_of(run_script(replace(spec, env={**spec.env, **explicit}), source, sandbox), policy)
        if not reference_ok(rep.signature, reference, policy):
            raise UserError("--passes-with: the original script does not pass with "
                            + " ".join(f"{k}={v or ''}" for k, v in explicit.items())
                            + f" (it ends with {reference.headline().splitlines()[0][:200]}); a candidate would "
                            "have to, so nothing could be accepted")
        return explicit, "explicit (--passes-with)"
    if not (is_oracle(rep.signature) and uses_torch(source) and uses_compile(source)):
        return None, ""
    env: dict[str, str | None] = {"TORCHDYNAMO_DISABLE": "1"}
    eager = signature_of(run_script(replace(spec, env={**spec.env, **env}), source, sandbox), policy)
    if not reference_ok(rep.signature, eager, policy):
        return None, (f"the script does not pass with TORCHDYNAMO_DISABLE=1 (it ends with "
                      f"{eager.headline().splitlines()[0][:120]}): no differential check")
    return env, "automatic: wrong result only when compiled (passes with TORCHDYNAMO_DISABLE=1)"


def is_oracle(signature: Signature) -> bool:
    """Is the failure a check of computed values (a wrong result) rather than a crash?

    A failed assertion (``assert``, ``torch.testing.assert_close``, ``unittest``'s ``assert*``) or
    a ``--match`` on printed output is an *oracle*: its inputs are the computation under test.
    Replacing them by other values (value materialization, expression simplification) would keep
    the same failure and lose the bug, so the reducer leaves values alone for these.
    """
    if signature.kind == "output":
        return True
    exc_type = signature.exc_type or ""
    return exc_type == "AssertionError" or exc_type.endswith(".AssertionError") \
        or exc_type.endswith("AssertionFailure")


def make_probe(spec: RunSpec, sandbox: Sandbox) -> Callable[[str], str | None]:
    """Run an instrumented program (value materialization) and return what it recorded."""

    def probe(program: str) -> str | None:
        fd, name = tempfile.mkstemp(prefix="capture-", suffix=".json", dir=sandbox.root)
        os.close(fd)
        capture = Path(name)
        try:
            run_script(replace(spec, env={**spec.env, CAPTURE_ENV: name}), program, sandbox)
            return capture.read_text(encoding="utf-8") or None
        except OSError:
            return None
        finally:
            capture.unlink(missing_ok=True)

    return probe


def minimize(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, options: MinimizeOptions,
             on_progress: Callable[[Progress, TestLog], None] | None = None) -> MinimizeReport:
    """Reduce ``source`` while it keeps failing like ``rep``; write results to ``options.output``.

    Every process started for it is gone when it returns: timed-out candidates are killed with
    their descendants, and helpers that candidates left behind (daemonized, outside the process
    group) are adopted and killed at the end (:class:`reportkit.runner.OrphanReaper`).
    """
    sandbox = Sandbox(spec.script, spec.isolate_file, spec.root)
    reaper = OrphanReaper()
    reaper.start()
    try:
        return _minimize(spec, source, rep, policy, options, on_progress, sandbox)
    finally:
        reaper.stop()
        sandbox.cleanup()


def _minimize(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, options: MinimizeOptions,
              on_progress: Callable[[Progress, TestLog], None] | None, sandbox: Sandbox) -> MinimizeReport:
    start = time.monotonic()
    run_spec = replace(spec, timeout=test_timeout(rep, spec))
    deadline = start + options.budget if options.budget else None
    run_spec, compile_cache = _private_compile_cache(spec, run_spec, source, rep, policy, sandbox)
    passes_with, differential_note = differential_env(run_spec, source, rep, policy, sandbox, options.passes_with)
    executor, executor_note = prepare_executor(options.executor, run_spec, source, rep.signature, policy, sandbox)
    log = TestLog()
    try:
        reference_executor = reference_warm_executor(executor, run_spec, source, rep.signature, passes_with, policy,
                                                     sandbox)
    except BaseException:
        executor.close()
        raise
    if reference_executor is not None:
        executor_note = "; ".join(x for x in (executor_note, "the differential's switched runs are warm too") if x)
    predicate = Interestingness(run_spec, rep.signature, policy, options.retries, sandbox, deadline, log,
                                executor=None if isinstance(executor, ColdExecutor) else executor,
                                passes_with=passes_with, reference_executor=reference_executor)
    best = {"source": source}
    interrupted = False

    def improved(candidate: str) -> None:
        best["source"] = candidate
        write_atomic(options.output, candidate)

    last_stats: list = [None]  # the reducer's counters as of the last progress event (kept on Ctrl-C)

    def progress(p: Progress) -> None:
        last_stats[0] = p.stats
        if on_progress:
            on_progress(p, log)

    # compiled-vs-eager: value passes stay on. A value substituted in the script is the same in both
    # modes, so the candidate can only keep failing compiled-only if the compiler stack still computes it wrong.
    oracle = is_oracle(rep.signature) and not (passes_with and not options.passes_with)
    result: ReduceResult | None = None
    try:
        with sigterm_as_interrupt():
            try:
                result = reduce_source(source, predicate, jobs=options.jobs, on_progress=progress,
                                       on_improve=improved, probe=make_probe(run_spec, sandbox), oracle=oracle,
                                       confirm=predicate.confirm if passes_with else None)
            except KeyboardInterrupt:
                interrupted = True
                predicate.stopping.set()
                executor.kill_active()  # candidates still running in worker threads
                if reference_executor is not None:
                    reference_executor.kill_active()
                kill_active()
    finally:
        executor.close()
        if reference_executor is not None:
            reference_executor.close()
    final = result.source if result is not None else best["source"]
    if result is not None and final != best["source"]:
        improved(final)
    if final == source and not options.output.exists():
        write_atomic(options.output, source)  # nothing removable: the output is the input, said so

    verified, final_sig = None, None
    if not interrupted:
        check = run_script(run_spec, final, sandbox)
        final_signature = signature_of(check, policy)
        verified = same_failure(rep.signature, final_signature, policy)
        if verified and passes_with:
            reference = run_script(replace(run_spec, env={**run_spec.env, **passes_with}), final, sandbox)
            verified = reference_ok(rep.signature, signature_of(reference, policy), policy)
        final_sig = final_signature.to_dict()
    standalone, standalone_note = None, ""
    if verified and spec.pytest_node is not None:
        standalone, standalone_note = write_standalone(run_spec, final, check.test_item, rep, policy, sandbox,
                                                       options.output)
    stats = result.stats if result is not None else last_stats[0]
    return MinimizeReport(
        input=str(spec.script), output=str(options.output),
        lines_before=count_lines(source), lines_after=count_lines(final),
        statements_before=count_statements(source), statements_after=count_statements(final),
        bytes_before=len(source.encode()), bytes_after=len(final.encode()),
        tests_run=log.runs, cache_hits=stats.cache_hits if stats else 0,
        invalid_skipped=stats.invalid_skipped if stats else 0,
        probes=stats.probes if stats else 0,
        passes=dict(stats.passes) if stats else {},
        wall_time=time.monotonic() - start, test_timeout=run_spec.timeout,
        stopped_early=bool(result.stopped_early) if result is not None else False,
        interrupted=interrupted, verified=verified,
        signature=rep.signature.to_dict(), final_signature=final_sig,
        executor=executor.name, executor_note=executor_note,
        preload=list(getattr(executor, "preload", [])), compile_cache=compile_cache,
        differential=differential_note,
        test_time_median=statistics.median(log.durations) if log.durations else 0.0,
        candidates_tested=stats.tests_run if stats else 0, reference_runs=log.reference_runs,
        redone_passes=stats.redone if stats else 0, memo_skips=stats.memo_skips if stats else 0,
        tests_by_pass=dict(stats.tests_by_pass) if stats else {},
        pytest_node=spec.pytest_node, standalone=standalone, standalone_note=standalone_note,
    )


def write_standalone(run_spec: RunSpec, module: str, test: dict | None, rep: Reproduction, policy: MatchPolicy,
                     sandbox: Sandbox, output: Path) -> tuple[str | None, str]:
    """For a pytest target: write ``repro_<module>.py`` next to ``output`` if a plain script made from
    the (minimized) module fails the same way when run with ``python``; else say why not."""
    from reportkit.runner import PYTEST_NODE_ENV
    from reportkit.standalone import NotStandalone, conftest_chain, make_standalone

    if test is None:
        return None, "no record of the failing test item"
    root = run_spec.root or run_spec.script.parent
    try:
        script = make_standalone(module, test, conftest_chain(root, run_spec.script.parent),
                                 root_rel=os.path.relpath(root, run_spec.script.parent))
    except NotStandalone as exc:
        return None, f"not made: {exc}"
    except SyntaxError:
        return None, "not made: the module does not parse"
    plain = replace(run_spec, env={k: v for k, v in run_spec.env.items() if k != PYTEST_NODE_ENV})
    got = signature_of(run_script(plain, script, sandbox), policy)
    if not same_failure(rep.signature, got, policy):
        return None, f"a plain script made from it fails differently ({got.headline().splitlines()[0][:200]})"
    path = output.with_name("repro_" + run_spec.script.name)
    if path == run_spec.script:
        return None, "not written: it would overwrite the input"
    write_atomic(path, script)
    return str(path), "fails the same way when run with python (no pytest run needed)"


def _private_compile_cache(spec: RunSpec, run_spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy,
                           sandbox: Sandbox) -> tuple[RunSpec, str | None]:
    """Candidates share a private Inductor/Triton cache under the run's temp dir (caches stay *on*).

    Only for scripts that compile (and unless ``--env`` sets the cache dirs). The original is run once
    with it, cold and with the user's timeout, so that the first candidates find the cache filled
    rather than paying a cold compile against the per-candidate timeout. If that run does not fail
    the same way, the private cache is not used.
    """
    if not (uses_torch(source) and uses_compile(source)):
        return run_spec, None
    root = sandbox.root / "compile-cache"
    extra = private_cache_env(root, spec.env)
    if not extra:
        return run_spec, None
    env = {**run_spec.env, **extra}
    fill = run_script(replace(spec, env=env), source, sandbox)
    if not same_failure(rep.signature, signature_of(fill, policy), policy):
        return run_spec, None
    return replace(run_spec, env=env), str(root)
