"""Glue of the *reduce* stage: the interestingness test built from Checks, and the outcome.

:func:`reportkit.reduce.schedule.reduce_source` never knows what a test is; this module gives it one, a
:class:`reportkit.failure.check.Check` expecting the original failure: the candidate runs in a fresh scratch
copy on the executor (warm or cold) and is accepted iff it fails the same way, ``retries`` times out
of ``retries``; for wrong results also the differential check (the switched run passes), which the
reducer runs as its lazy ``confirm``. Probes, the final re-check and the standalone script's check
are Checks on the cold executor. Every new best result is written atomically to the output file, so
an interrupted run keeps the best result so far.
"""

from __future__ import annotations

import ast
import os
import re
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from reportkit.errors import UserError, sigterm_as_interrupt
from reportkit.failure import hang
from reportkit.failure.check import Check, confirm, meets, prepare_executor, require_deterministic
from reportkit.failure.signature import (
    FailureKind,
    MatchPolicy,
    Normalizer,
    Reproduction,
    Signature,
    describe_op,
    is_assertion,
    library_argument_check,
    raised_by_script,
    raised_by_tensor_operator,
)
from reportkit.io import mode_of, write_atomic
from reportkit.redact import clip_words, redact_code
from reportkit.reduce import passes as P
from reportkit.reduce.bookkeeping import Trace
from reportkit.reduce.fixcheck import GoodCode, GoodRevError, NotRelevant, good_form_map, prepare_good_code
from reportkit.reduce.flatten import NO_CONFTEST, fold_local_code, folded_conftests
from reportkit.reduce.guards import (
    attribute_screen,
    differentiated_screen,
    forward_screen,
    guarded_failure,
    guarded_site,
    keyword_screen,
    member_screen,
    named_attributes,
    named_keywords,
    pointed_lines,
)
from reportkit.reduce.passes.complexity import statements
from reportkit.reduce.passes.edits import child_bodies
from reportkit.reduce.passes.materialize import (
    CAPTURE_ENV,
    EXACT_ENV,
    SECRETS_ENV,
    SEEDED_ENV,
    differing_sites,
    env_reads,
    instrument,
    sites,
    without_sites,
)
from reportkit.reduce.passes.source import SourceMap
from reportkit.reduce.passes.wellformed import TREES
from reportkit.reduce.schedule import Progress, ReduceResult, ReduceStats, Stop, analyse_ahead, reduce_source
from reportkit.run.executor import (
    ColdExecutor,
    Executor,
    WarmExecutor,
    private_cache_env,
    uses_compile,
    uses_torch,
)
from reportkit.run.gitinfo import GoodRev, uncommitted_changes
from reportkit.run.runner import OrphanReaper, Sandbox, kill_active
from reportkit.run.spec import RunSpec


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
    # hangs: decide a candidate sitting in the original's blocked frame early (reportkit.run.hangwatch)
    hang_watch: bool = True
    # the fix check (reportkit/reduce/fixcheck.py): results must pass on this good code (``--good REV``) ...
    good: GoodRev | None = None
    # ... or, without one, on HEAD when the target's repository has uncommitted changes to other files
    good_auto: bool = False
    # ``--keep-values``: the values stay code even where library code raised (where the script made them)
    keep_values: bool = False
    # the results' permission bits (the .min.py, the standalone script); None: the input script's
    output_mode: int | None = None
    # fold the script's local modules in (reportkit/reduce/flatten.py); False for a library's own test suite
    # (``ci``): the library under test stays imported, it is the code being reported
    fold_local: bool = True


@dataclass
class TestLog:
    """Counts of the real candidate runs (thread-safe)."""

    runs: int = 0
    reference_runs: int = 0  # of ``runs``: the differential's switched (e.g. eager) runs
    good_runs: int = 0  # of ``runs``: the fix check's runs on the good code
    interesting: int = 0
    timeouts: int = 0
    durations: list[float] = field(default_factory=list)
    ended: dict[str, int] = field(default_factory=dict)  # runs that hit the timeout or the hang watch: how
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, duration: float, interesting: bool, timed_out: bool, reference: bool = False,
            good: bool = False, hang_early: str = "") -> None:
        with self.lock:
            self.runs += 1
            self.reference_runs += reference
            self.good_runs += good
            self.interesting += interesting
            self.timeouts += timed_out
            self.durations.append(duration)
            if timed_out and not (reference or good):  # "timeout", or the hang watch's rule and verdict
                how = f"{hang_early} ({'same' if interesting else 'differs'})" if hang_early else "timeout"
                self.ended[how] = self.ended.get(how, 0) + 1


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
    probes: int  # instrumented runs for value materialization, on the good side too (not in tests_run)
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
    good_runs: int = 0  # of tests_run: the fix check's runs on the good code (same ``confirm``)
    redone_passes: int = 0  # passes repeated because their result failed the differential check or the fix check
    memo_skips: int = 0  # candidates not run: they repeat a change an earlier test rejected
    tests_by_pass: dict[str, int] = field(default_factory=dict)  # pass -> candidates tested in it
    pytest_node: str | None = None  # pytest targets: the node id inside the module (unchanged)
    standalone: str | None = None  # pytest targets: a plain script failing the same way, if one could be made
    standalone_note: str = ""  # how it was made, or why there is none
    original_runs: int = 0  # runs of the original before reducing (the flakiness rule, reportkit.failure.check)
    original_failures: int = 0  # of them: failed the same way
    folded: list[str] = field(default_factory=list)  # local modules folded into the script (reportkit/reduce/flatten.py)
    folded_note: str = ""
    # the fix check: against which good code, runs there, rejections; None: it did not run (see fix_check_note)
    fix_check: dict | None = None
    fix_check_note: str = ""  # what it checked, or why there is none
    verify_note: str = ""  # the written (redacted) result no longer fails the same way: why (verified is False)
    steady_note: str = ""  # a result drawing random values re-checked several times: how often it failed, seeded
    keeps: str = ""  # what the result had to keep beyond the signature, and why (Keep.why)
    # candidate runs ended by the timeout ("timeout") or by the hang watch (its rule and the verdict)
    hang_ended: dict[str, int] = field(default_factory=dict)
    # the script as written (lines_before counts it with the local modules folded in, when any were)
    lines_script: int | None = None
    withdrawn: int = 0  # candidates stopped on a cluster slot because the reducer no longer needed them
    needs_env: list[str] = field(default_factory=list)  # variables the result reads that its runs had (names)
    # where the time went: prepare (folding local code, the fix check, admitting the executor, the compile
    # cache's first fill), reduce, verify (the result re-run); and per pass, its candidates' run time
    # (summed over threads with --jobs > 1)
    seconds_by_phase: dict[str, float] = field(default_factory=dict)
    seconds_by_pass: dict[str, float] = field(default_factory=dict)
    needs_args: bool = False  # the result reads sys.argv and its runs had arguments (never written as literals)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def count_lines(source: str) -> int:
    return sum(1 for line in source.splitlines() if line.strip())


def _kept_tree(source: str) -> ast.Module | None:
    """``ast.parse(source)`` of the source reduced, kept for the analyses of it that follow (the reducer's first
    version, the checks of what to keep: :data:`reportkit.reduce.passes.wellformed.TREES`); None if it does not
    parse."""
    try:
        return TREES.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def count_statements(source: str) -> int:
    try:
        return len(statements(TREES.tree(source)))  # (not walking into expressions: none holds one)
    except SyntaxError:
        return 0


def test_timeout(rep: Reproduction, spec: RunSpec) -> float:
    """Per-candidate timeout: for a hang the timeout *is* the test; otherwise generous but bounded."""
    if rep.signature.kind is FailureKind.HANG:
        return spec.timeout
    slowest = rep.max_duration
    return min(spec.timeout, max(3 * slowest, slowest + 10))


@dataclass(frozen=True)
class Keep:
    """What a candidate must keep beyond the same failure signature ("What a reproducer keeps", README).

    ``values``: the values the failing statement operates on are the bug (:func:`keeps_values`): the
    reducer's value passes are off. ``message``: a failure the script's own code raised reports the
    values the bug computed; the candidate must report them exactly (the first message line with its
    numbers, :attr:`Signature.exact_message`), so they must still be computed the same way. ``test``: a
    pytest target's failure must come from the same test item in the same phase (``nodeid``, ``when``):
    a module that fails while being collected, or another test, is not the test. ``compares``: the
    failure is a check of computed values (:func:`is_oracle`): passes that build an object anew at each
    use (random weights differ between builds) are off too. ``wakers``: in every run, a script hanging in a
    ``join()`` called these waking methods (``queue.Queue.task_done``, ``threading.Event.set``; recorded
    by ``_boot``, see :func:`hang_wakers`) and started these threads or processes to do the work it waits
    for (``threading.Thread.start``). The candidate must still start them, and still call
    each waking method — or at least still have the call in the reachable code of a function one of its
    threads runs (a worker that now skips ``task_done()`` for its only item is the bug itself). A queue
    joined with no worker, an event waited on that nothing sets, hang trivially; the wake-up that does
    not arrive is the bug (README "What a reproducer keeps"). ``inputs``: the values are the bug because a
    tensor operator in the script's own code raised (:func:`reportkit.failure.signature.raised_by_tensor_operator`),
    but the tensors fed to torch models may still become random tensors of their shape (the data, not
    what the model computed from it). ``measured``: a check in library code (``torch.testing.assert_close``,
    ``numpy.testing``) failed: the lines of its report that every run of the original gave
    (:attr:`Signature.measured`: how many elements differ, of how many, where; floating-point values
    left out) must all be in the candidate's. Its first line alone ("Tensor-likes are not close!") is the
    same for any two tensors that differ: a copy that drops one element and a tensor of zeros.
    ``pending``: a hang's wake-up calls that come too late (:func:`pending_wakers`: after the blocked line,
    never reached): the candidate must still have as many calls of each of those methods. ``dims``: where
    library code raised, the ranks and dimension indices its message names (:func:`rank_words`: ``4-dimensional``,
    ``3D``, ``at non-singleton dimension 3``, ``axis 1``), which the signature compares as ``N`` like any
    size: the candidate's message must name the same ones (a check of the same op that fires for another
    rank or another dim is another failure with the same headline). ``keywords``: the keyword arguments the
    script passes whose names the message spells as code (:func:`reportkit.reduce.guards.named_keywords`:
    ``setup_context=`` for "must override the setup_context staticmethod"): candidates keep passing them
    (checked without a run, :func:`reportkit.reduce.guards.keyword_screen`). ``attributes``: the attributes the
    script sets (assigns, or defines in a class body) whose names the message quotes
    (:func:`reportkit.reduce.guards.named_attributes`: ``.baz`` for "object has no attribute 'baz'" after
    ``p.baz = …``): candidates keep setting them (checked without a run, :func:`reportkit.reduce.guards.attribute_screen`). ``assertion``: the failure is an
    ``assert`` of the script failing (its own ``AssertionError``, guarded). ``why``: for people.
    """

    values: bool = False
    compares: bool = False
    message: str | None = None
    test: tuple[str, str] | None = None
    wakers: frozenset[str] = frozenset()
    inputs: bool = False
    measured: tuple[str, ...] = ()
    pending: tuple[str, ...] = ()
    guarded: bool = False
    dims: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    attributes: tuple[str, ...] = ()
    assertion: bool = False
    why: str = ""

    def kept(self, outcome, source: str = "") -> bool:
        if self.guarded and not self.still_guarded(outcome, source):
            return False
        if self.dims and rank_words(outcome.signature.exact_message) != self.dims:
            return False
        if self.message is not None and outcome.signature.exact_message != self.message:
            return False
        if self.measured and not set(self.measured) <= set(outcome.signature.measured):
            return False
        if self.lost_wakers(outcome, source):
            return False
        if self.pending and _lost_pending(self.pending, source):
            return False
        if self.test is not None:
            item = outcome.result.test_item or {}
            if (item.get("nodeid"), item.get("when")) != self.test:
                return False
        return True

    def still_guarded(self, outcome, source: str) -> bool:
        """A guarded failure (:attr:`guarded`) is still raised behind a condition in the candidate, or the
        compiler's diagnostic still points at a statement under one (:func:`_guarded_sites`)."""
        loc = outcome.signature.location
        if loc is not None and loc.in_script:
            return guarded_failure(source, loc.line)
        return _guarded_sites(outcome.result, source)

    def lost_wakers(self, outcome, source: str) -> list[str]:
        """The wakers of :attr:`wakers` the candidate ``source`` lost (see the class doc): not started, or
        neither called nor called in the code of a function one of its threads or processes runs."""
        lost = []
        missing = sorted(self.wakers - outcome.result.wakers)
        called = _method_calls_in(source, outcome.result.thread_targets) if missing else set()
        for name in missing:
            method = name.rsplit(".", 1)[-1]
            if method == "start" or method not in called:
                lost.append(name)
        return lost


# Words of a message that name a rank or a dimension (not a size): ``4-dimensional``, ``3D``, ``dimension 3``,
# ``dim=-1``, ``axis 1``, ``rank 2``, ``2 dimensions``, ``in range of [-2, 1]`` (the valid dims of a rank).
_RANK_WORDS_RE = re.compile(
    r"\b\d+(?:-dimensional|-?D)\b|\b(?:dim(?:ension)?s?|axis|axes|rank|ndim)\s*(?:=|==|:|is|of)?\s*-?\d+\b"
    r"|\b\d+\s+dimensions?\b|range of \[-?\d+, *-?\d+\]", re.IGNORECASE)


def rank_words(message: str | None) -> tuple[str, ...]:
    """The words of ``message`` that name a rank or a dimension index (:attr:`Keep.dims`), blanks made one."""
    return tuple(" ".join(m.group(0).split()) for m in _RANK_WORDS_RE.finditer(message or ""))


def _pinned_dims(rep: Reproduction, policy: MatchPolicy) -> tuple[str, ...]:
    """The rank words (:func:`rank_words`) of the original's message, when every failing run named the same
    ones and the match is strict (else none: nothing is asked)."""
    sig = rep.signature
    if not (policy.strict and sig.kind is FailureKind.EXCEPTION and sig.exact_message):
        return ()
    seen = {rank_words(s.exact_message) for s in rep.signatures if s.kind is FailureKind.EXCEPTION}
    words = rank_words(sig.exact_message)
    return words if seen <= {words} else ()


def _lost_pending(pending: tuple[str, ...], source: str) -> bool:
    """Has ``source`` fewer calls of some method of ``pending`` (:attr:`Keep.pending`) than it names?"""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False  # not this check's to judge
    calls = [node.func.attr for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in pending]
    return any(calls.count(name) < pending.count(name) for name in set(pending))


_TERMINATORS = (ast.Continue, ast.Break, ast.Return, ast.Raise)


def _method_calls_in(source: str, functions: set[str]) -> set[str]:
    """The method names called (``x.task_done()``) in the functions of ``source`` named in ``functions``,
    leaving out statements that follow a ``continue``/``break``/``return``/``raise`` in the same body
    (they never run)."""
    if not functions:
        return set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for _name, value in ast.iter_fields(node):
            if isinstance(value, list) and value and all(isinstance(v, ast.stmt) for v in value):
                for stmt in value:
                    visit(stmt)
                    if isinstance(stmt, _TERMINATORS):
                        break
            elif isinstance(value, list):
                for v in value:
                    if isinstance(v, ast.AST):
                        visit(v)
            elif isinstance(value, ast.AST):
                visit(value)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            out.add(node.func.attr)

    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in functions:
            visit(node)
    return out


def _pinned_message(rep: Reproduction, policy: MatchPolicy) -> str | None:
    """The exact message of a failure the script's own code raised, when every run of the original reported
    that one (values that change from run to run cannot be asked of a candidate) and the match is strict."""
    sig = rep.signature
    if not (policy.strict and sig.exact_message):
        return None
    seen = {s.exact_message for s in rep.signatures if s.kind is FailureKind.EXCEPTION} or {None}
    return sig.exact_message if seen == {sig.exact_message} else None


def _common_measured(rep: Reproduction, policy: MatchPolicy) -> tuple[str, ...]:
    """The lines of a library check's report (:attr:`Signature.measured`) that every failing run gave, for a
    strict match of an exception."""
    sig = rep.signature
    if not (policy.strict and sig.kind is FailureKind.EXCEPTION):
        return ()
    common = set(sig.measured).intersection(*(s.measured for s in rep.signatures if s.kind is FailureKind.EXCEPTION))
    return tuple(line for line in sig.measured if line in common)


def _failing_test(rep: Reproduction, spec: RunSpec) -> tuple[str, str] | None:
    """(``nodeid``, ``when``) of the test item a pytest target failed in."""
    if spec.pytest_node is None:
        return None
    item = next((r.test_item for r in rep.results if r.test_item), None)
    if item and item.get("nodeid") and item.get("when"):
        return item["nodeid"], item["when"]
    return None


def _hang_keeps(rep: Reproduction, spec: RunSpec, source: str | None) -> tuple[frozenset[str], tuple[str, ...]]:
    """(:attr:`Keep.wakers`, :attr:`Keep.pending`) of a hang: what every run's join waited for
    (:func:`hang_wakers`) and, for a main thread blocked in library code (a join or a wait, not on a lock of
    its own line), the wake-up calls after it (:func:`pending_wakers`, in ``source`` or the script)."""
    sig = rep.signature
    if not (sig.kind is FailureKind.HANG and rep.results):
        return frozenset(), ()
    wakers = frozenset.intersection(*(hang_wakers(r) for r in rep.results))
    if source is None:
        try:
            source = Path(spec.script).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            source = ""
    if sig.location is not None and not sig.location.user_code:
        return wakers, pending_wakers(rep, source)
    return wakers, ()


def _why_values(sig: Signature, *, asked: bool, differential: bool, own: bool, inputs: bool, values: bool) -> str:
    """Why the values stay code, or may become literals (:attr:`Keep.why`, its first part)."""
    doing = describe_op(sig.location.op) if sig.location else ""
    where = f" ({sig.location}{', ' + doing if doing else ''})" if sig.location else ""
    if asked:
        who = "a check of computed values" if is_oracle(sig) else f"raised by library code{where}"
        return f"{who}; its values stay code, and what computed them (--keep-values)"
    if differential:
        return "compiled-vs-eager differential guards the computation: values may become literals"
    if own and inputs:
        return (f"raised by a tensor operator in the script's own code{where}: its values stay code, "
                "the data fed to torch models may become random tensors of its shape")
    if own:
        return f"raised by the script's own code{where}: its values stay code"
    if values:
        return "a check of computed values: its values stay code"
    return f"raised by library code{where}: its inputs may become literals"


def _why_kept(keep: Keep, own: bool = True) -> str:
    """What else ``keep`` keeps, for people (:attr:`Keep.why`, after its first part); ``own``: the script's
    own code raised the failure."""
    why = ""
    if keep.message is not None:
        why += "; the message's values must stay as they are"
    if keep.measured:
        measured = keep.measured
        shown = [line for line in measured[1:] if any(c.isdigit() for c in line)][:2] or measured[:1]
        why += f"; what the check reported stays as it was ({'; '.join(shown)}{'; ...' if len(measured) > 1 + len(shown) else ''})"
    if keep.wakers:
        why += f"; the threads and the calls that should wake the waiter stay ({', '.join(sorted(keep.wakers))})"
    if keep.pending:
        why += f"; the wake-up calls after the blocked line, never reached, stay ({', '.join(f'.{m}()' for m in keep.pending)})"
    if keep.test is not None:
        why += f"; the failure must stay in {keep.test[0]} ({keep.test[1]})"
    if keep.guarded and own:
        why += "; the condition it was raised under stays (a guarded failure never becomes unconditional)"
    elif keep.guarded:
        why += "; the condition around the statement the compiler rejected stays (it is part of what it judged)"
    if keep.dims:
        why += f"; the ranks and dims the message names stay ({', '.join(dict.fromkeys(keep.dims))})"
    if keep.keywords:
        why += f"; the keyword arguments the message names stay ({', '.join(f'{k}=' for k in keep.keywords)})"
    if keep.attributes:
        why += f"; the attributes the message names stay set ({', '.join(f'.{a}' for a in keep.attributes)})"
    return why


def what_to_keep(rep: Reproduction, spec: RunSpec, policy: MatchPolicy, differential: bool = False,
                 source: str | None = None, keep_values: bool = False) -> Keep:
    """The :class:`Keep` of this failure. Its values are the bug unless library code raised it or an
    automatic differential check already guards the computation (``differential``: value passes stay
    on there). The message is pinned for a failure the script's own code raised, only when every run
    of the original reported the same one (values that change from run to run cannot be asked of a
    candidate) and the match is strict (``--match``, ``--exit-code``, ``--any-exception`` ask for less).
    ``source``: the original script's text, where a hang's pending wakers are looked for (read from
    ``spec.script`` when not given). ``keep_values`` (``--keep-values``): the values stay code whoever
    raised (what the library was given, and where the script made it)."""
    sig = rep.signature
    own = raised_by_script(sig)
    by_rule = keeps_values(sig) and not differential
    values = by_rule or keep_values
    asked = keep_values and not by_rule
    inputs = values and raised_by_tensor_operator(sig) and not is_oracle(sig)
    message = _pinned_message(rep, policy) if values and own else None
    measured = _common_measured(rep, policy) if values and not own and is_oracle(sig) else ()
    test = _failing_test(rep, spec)
    why = _why_values(sig, asked=asked, differential=differential, own=own, inputs=inputs, values=values)
    wakers, pending = _hang_keeps(rep, spec, source)
    guarded = _guarded_original(rep, spec, source, own)
    dims = _pinned_dims(rep, policy) if message is None and not is_oracle(sig) else ()
    text, said = _script_text(spec, source), sig.raw_message or sig.full_message
    keywords = named_keywords(text, said)
    keep = Keep(values=values, message=message, test=test, wakers=wakers, compares=values and is_oracle(sig),
                inputs=inputs, measured=measured, pending=pending, guarded=guarded, dims=dims, keywords=keywords,
                attributes=named_attributes(text, said, sig.exc_type),
                assertion=guarded and (sig.exc_type or "").rsplit(".", 1)[-1] == "AssertionError")
    return replace(keep, why=why + _why_kept(keep, own))


def _script_text(spec: RunSpec, source: str | None) -> str:
    """``source``, else the target script's text ("" when it cannot be read)."""
    if source is not None:
        return source
    try:
        return spec.script.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _guarded_original(rep: Reproduction, spec: RunSpec, source: str | None, own: bool) -> bool:
    """Did the script raise its failure behind a condition (:func:`reportkit.reduce.guards.guarded_failure`),
    or, raised by library code, does a source compiler's diagnostic point at a statement under one
    (:func:`_guarded_sites`)?"""
    loc = rep.signature.location
    if own and (loc is None or not loc.in_script):
        return False
    source = _script_text(spec, source)
    if not source:
        return False
    if own:
        return guarded_failure(source, loc.line)
    return any(_guarded_sites(result, source) for result in rep.results if result.exception is not None)


def _guarded_sites(result, source: str) -> bool:
    """Does the run's failure message point, as a source compiler's diagnostic, at a statement of the
    script under a condition (:func:`reportkit.reduce.guards.pointed_lines`, :func:`~reportkit.reduce.guards.guarded_site`)?"""
    exc = result.exception
    if exc is None:
        return False
    return any(guarded_site(source, line) for line in pointed_lines(exc.message, result.script_path))


#: Waits for a thread or process to end: whatever it waits for itself may be what never comes.
_JOINS = ("threading.Thread.join", "multiprocessing.BaseProcess.join")
#: Waits for the work others do on a queue to be done (every ``task_done``).
_QUEUE_JOINS = ("queue.Queue.join", "multiprocessing.JoinableQueue.join", "asyncio.Queue.join")


def hang_wakers(result) -> frozenset[str]:
    """The wakers of what a hung run waits in (:attr:`Keep.wakers`), when it hangs joining: for a queue's
    ``join()``, the waking calls the script made on that queue (``put``, ``task_done``) and the start of a
    thread that made one; for a thread's or process's ``join()``, every waking call and start. A join
    waits for others' work: without the workers it hangs trivially (``q.put(1); q.join()``). Nothing for
    any other wait: a ``get()`` on a queue nothing fills, an event nothing sets, is the reproducer."""
    if result.last_wait is None:
        return frozenset()
    name, obj = result.last_wait
    if name in _JOINS:
        return frozenset(result.wakers)
    if name not in _QUEUE_JOINS:
        return frozenset()
    calls = [(method, thread) for method, receiver, thread in result.waker_calls if receiver == obj]
    out = {method for method, _thread in calls}
    if any(thread for _method, thread in calls):
        out |= {w for w in result.wakers if w.endswith(".start")}
    return frozenset(out)


#: Waking methods (:data:`reportkit.run._boot._WAKERS`) that :func:`pending_wakers` looks for; those that take no
#: argument on their waitable (``Event.set()``) only when called without one (``parser.set(s, k, v)`` is no waker)
_PENDING_WAKERS = {"set": 0, "notify": 0, "notify_all": 0, "task_done": 0, "put": None, "put_nowait": None,
                   "set_result": None}


def pending_wakers(rep: Reproduction, source: str) -> tuple[str, ...]:
    """The waking calls a hang never reached (:attr:`Keep.pending`), for a main thread blocked waiting in
    library code (a join, an event's or a queue's wait; not on a lock of its own line: the caller decides):
    in the script ``source`` (the original's), after a statement its main thread was blocked in, in every
    hung run: the calls of waking methods in
    the statements that follow it, in its body and in the bodies around it up to its function (``stop.set()``
    after ``with ThreadPoolExecutor() as pool: pool.submit(heartbeat, stop)``, ``q.put(None)`` after
    ``t.join()``). The wake-up that comes too late is the bug; without it the hang is still there, and the
    reproducer no longer shows why. One method name per call, sorted."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ()
    found: list[list[str]] = []
    for result in rep.results:
        stack = result.main_stack if result.timed_out else None
        if stack is None:
            return ()
        norm = Normalizer(result.workdir, result.script_path)
        lines = {f.line for f in stack.frames if f.line is not None and norm.is_script(f.file)}
        found.append(sorted(call for line in lines for call in _waking_calls_after(tree, SourceMap(source), line)))
    return tuple(found[0]) if found and all(f == found[0] for f in found) else ()


def _waking_calls_after(tree: ast.Module, smap: SourceMap, line: int) -> list[str]:
    """Method names of the waking calls (:data:`_PENDING_WAKERS`) in the statements after the one at
    ``line``, in its body and in each body around it (and a ``try``'s ``else`` after its body, its
    ``finally`` after its body, ``else`` or a handler), up to the function it is in."""
    out: list[str] = []
    body: list[ast.stmt] = tree.body
    while True:
        at = next((i for i, st in enumerate(body) if st.lineno <= line <= (st.end_lineno or st.lineno)), None)
        if at is None:
            return out
        stmt = body[at]
        inner = [b for b, _kind, _header in child_bodies(smap, stmt) if b and b[0].lineno <= line <= (b[-1].end_lineno or b[-1].lineno)]
        later = body[at + 1:]
        if inner and isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))) and inner[0] is not stmt.finalbody:
            # after the try's body its else runs, after the body, the else or a handler its finally
            later = (stmt.orelse if inner[0] is stmt.body else []) + stmt.finalbody + later
        for node in (n for st in later for n in ast.walk(st)):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in _PENDING_WAKERS
                    and _PENDING_WAKERS[node.func.attr] in (None, len(node.args) + len(node.keywords))):
                out.append(node.func.attr)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and stmt.lineno < line:
            out.clear()  # the line is inside this definition: what follows it is outside the function
        if not inner:
            return out
        body = inner[0]


def keeps_values(signature: Signature) -> bool:
    """Are the values the failing statement operates on, and what produced them, the bug itself?

    Yes for an oracle (:func:`is_oracle`) and for a failure the script's own code raised
    (:func:`reportkit.failure.signature.raised_by_script`: an ``AttributeError`` on ``None``, a ``KeyError``, a
    ``raise``, a hang on a lock or a queue...): value passes must not replace them by literals. No when
    library code raised (a torch op, a builtin): its inputs may become literals, the bug is in the library.
    """
    return is_oracle(signature) or raised_by_script(signature)


class Interestingness:
    """The predicate handed to the reducer: does this candidate fail the same way (``same``, ``retries``
    times out of ``retries``)? ``confirm``: the differential check (``reference``) and the fix check
    (``good``), handed to the reducer separately."""

    def __init__(self, same: Check, retries: int, deadline: float | None, log: TestLog,
                 reference: Check | None = None, good: GoodCode | None = None, keep: Keep | None = None,
                 trace: Trace | None = None) -> None:
        self.same, self.reference, self.good = same, reference, good
        self.retries, self.deadline, self.log = max(1, retries), deadline, log
        self.keep = keep or Keep()
        self.stopping = threading.Event()
        self.trace = trace  # REPORTKIT_TRACE: why each run said what it said

    def __call__(self, candidate: str) -> bool:
        for _ in range(self.retries):
            self._check_time()
            outcome = self.same.run(candidate)
            ok = outcome.ok and self.keep.kept(outcome, candidate)
            self.log.add(outcome.result.duration, ok, outcome.result.timed_out,
                         hang_early=outcome.result.hang_early)
            if self.trace is not None:
                self.trace.why(candidate, "bad", _why(outcome, ok, self.keep, candidate))
            if not ok:
                return False
        return True

    def confirm(self, candidate: str) -> bool:
        """The reducer's lazy second condition: the differential check (``passes_with`` set: with the
        suspect switched off, the candidate passes) and the fix check (the candidate passes on the good code)."""
        assert self.reference is not None or self.good is not None
        if self.reference is not None:
            self._check_time()
            outcome = self.reference.run(candidate)
            self.log.add(outcome.result.duration, outcome.ok, outcome.result.timed_out, reference=True)
            if self.trace is not None:
                self.trace.why(candidate, "good", "switched run: " + _why(outcome, outcome.ok))
            if not outcome.ok:
                return False
        if self.good is not None:
            self._check_time()
            got = self.good.run(candidate)
            if self.trace is not None:
                self.trace.why(candidate, "good", f"good code ({self.good.mapping(candidate)})"
                               + ("" if got is None else ": " + _why(got, got.ok)))
            if got is None:  # the code the fix changes was edited: no good form to run
                return False
            self.log.add(got.result.duration, got.ok, got.result.timed_out, good=True)
            return got.ok
        return True

    def _check_time(self) -> None:
        if self.stopping.is_set() or (self.deadline is not None and time.monotonic() > self.deadline):
            raise Stop("time budget used up" if not self.stopping.is_set() else "stopped")


def _why(outcome, ok: bool, keep: Keep | None = None, source: str = "") -> str:
    """What a run did, for the trace: its failure (or that it passed), and where."""
    sig = outcome.signature
    where = f" at {sig.location}" if sig.location is not None else ""
    lost = keep.lost_wakers(outcome, source) if keep is not None and outcome.ok and not ok else []
    woke = f" (lost {', '.join(lost)})" if lost else ""
    if keep is not None and outcome.ok and not ok and keep.guarded and not keep.still_guarded(outcome, source):
        woke += " (raised without its condition)"
    return f"{'meets it' if ok else 'does not'}: {sig.headline()}{where}{woke}"  # (the trace redacts, then cuts)


def reference_warm_executor(executor: Executor, reference: Check, source: str) -> WarmExecutor | None:
    """A second warm server for the differential's switched runs (its own environment, e.g.
    ``TORCHDYNAMO_DISABLE=1``, seen by its preloaded imports), kept only if it runs the original
    the way the cold reference run did: it passes (``reference``: the cold differential check).
    None: those runs stay cold."""
    if not isinstance(executor, WarmExecutor):
        return None
    warm = WarmExecutor(executor.preload)
    try:
        ok = warm.start(reference.run_spec)
        outcome = reference.on(warm).run(source) if ok else None
        ok = outcome is not None and warm.warm_runs > 0 and outcome.ok
    except BaseException:
        warm.close()
        raise
    if not ok:
        warm.close()
        return None
    return warm


def reference_ok(original: Signature, reference: Signature, policy: MatchPolicy) -> bool:
    """The differential check: with the suspect switched off (``--passes-with``), the script *passes*
    (:func:`reportkit.failure.check.meets` with ``passes``)."""
    return meets(reference, policy, original, passes=True)


def differential_env(check: Check, source: str,
                     explicit: dict[str, str | None] | None) -> tuple[dict[str, str | None] | None, str]:
    """The env under which candidates must pass (wrong-result bugs), and why (``check``: the cold check
    expecting the original failure).

    Explicit (``--passes-with``) wins. Automatic for a compiled-vs-eager wrong result: an oracle failure
    in a script using torch.compile that passes with ``TORCHDYNAMO_DISABLE=1`` (eager) keeps that check,
    so a candidate cannot swap the compiled computation for anything else that also mismatches.
    """
    original = check.expected
    assert original is not None
    if explicit:
        outcome = check.with_env(explicit).expecting_pass().run(source)
        if not outcome.ok:
            raise UserError("--passes-with: the original script does not pass with "
                            + " ".join(f"{k}={v or ''}" for k, v in explicit.items())
                            + f" (it ends with {clip_words(outcome.signature.headline().splitlines()[0], 200)}); a "
                            "candidate would have to, so nothing could be accepted")
        return explicit, "explicit (--passes-with)"
    if not (is_oracle(original) and uses_torch(source) and uses_compile(source)):
        return None, ""
    env: dict[str, str | None] = {"TORCHDYNAMO_DISABLE": "1"}
    eager = check.with_env(env).expecting_pass().run(source)
    if not eager.ok:
        return None, (f"the script does not pass with TORCHDYNAMO_DISABLE=1 (it ends with "
                      f"{clip_words(eager.signature.headline().splitlines()[0], 120)}): no differential check")
    return env, "automatic: wrong result only when compiled (passes with TORCHDYNAMO_DISABLE=1)"


def is_oracle(signature: Signature) -> bool:
    """Is the failure a check of computed values (a wrong result) rather than a crash?

    A failed assertion (``assert``, ``torch.testing.assert_close``, ``unittest``'s ``assert*``) or
    a ``--match`` on printed output is an *oracle*: its inputs are the computation under test.
    Replacing them by other values (value materialization, expression simplification) would keep
    the same failure and lose the bug, so the reducer leaves values alone for these. Not an ``assert``
    of library code outside testing modules (:func:`reportkit.failure.signature.library_argument_check`): the
    library rejected its input, as with any other exception it raises.
    """
    if signature.kind is FailureKind.OUTPUT:
        return True
    return is_assertion(signature.exc_type) and not library_argument_check(signature)


#: A tensor's repr in a message: ``tensor([2.])``, ``tensor(0.5000)``, ``tensor([[1, 2]], dtype=torch.int32)``.
#: (Numbers are ``N`` in a signature's normalized message.)
_TENSOR_REPR_RE = re.compile(r"\btensor\(\[*-?(?:\d|N\b|nan|inf|True|False)")


def shows_tensor_values(signature: Signature) -> bool:
    """Does the failure's message show a tensor's values (a check of the values it was given, which prints them:
    ``Bernoulli(probs: tensor([2.])) … found invalid values``)? Then those values are the failure's input, and a
    tensor of random values in their place fails only when it happens to break the check too."""
    return bool(_TENSOR_REPR_RE.search(signature.full_message or ""))


#: Calls that seed a global random generator (torch, random, numpy, transformers / lightning helpers).
_SEED_CALL_RE = re.compile(r"\b(?:manual_seed|(?:random|np\.random|numpy\.random)\.seed|set_seed|seed_everything)\(")


def _seed_calls(source: str, *, literal: bool = False) -> set[str]:
    """The seeding calls of ``source`` (:data:`_SEED_CALL_RE`), as ``ast.unparse`` spells them; with
    ``literal``, the functions (``torch.manual_seed``) of those whose arguments are all literals."""
    if not _SEED_CALL_RE.search(source):
        return set()
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if not literal:
            text = ast.unparse(node)
            if _SEED_CALL_RE.search(text):
                out.add(text)
        elif _SEED_CALL_RE.search(ast.unparse(node.func) + "(") and node.args and all(isinstance(a, ast.Constant) or (isinstance(a, ast.UnaryOp) and isinstance(
                a.operand, ast.Constant)) for a in [*node.args, *(k.value for k in node.keywords)]):
            out.add(ast.unparse(node.func))
    return out


#: Constructors of random generators that take a seed (``random.Random(7)``, ``np.random.default_rng(7)``,
#: ``np.random.RandomState(7)``): without one they seed themselves from entropy.
_GENERATORS = ("Random", "default_rng", "RandomState")
_GENERATOR_RE = re.compile(r"\b(?:" + "|".join(_GENERATORS) + r")\(")


def _generator_calls(source: str) -> tuple[set[str], set[str]]:
    """The generator constructors (:data:`_GENERATOR_RE`, as ``ast.unparse`` spells the function:
    ``random.Random``) that ``source`` calls with a seed, and those it calls without one."""
    seeded: set[str] = set()
    unseeded: set[str] = set()
    if not _GENERATOR_RE.search(source):
        return seeded, unseeded
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return seeded, unseeded
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = ast.unparse(node.func)
            if func.rsplit(".", 1)[-1] in _GENERATORS:
                (seeded if node.args or node.keywords else unseeded).add(func)
    return seeded, unseeded


def seed_screen(source: str) -> Callable[[str], str | None] | None:
    """For a failure that checks computed values: a candidate that lost the script's seeding calls
    (``torch.manual_seed(0)``, ``random.seed(1234)``; all of them, or their arguments) is rejected
    without a run. The compared values then change from run to run (weights initialised at random), and
    a candidate that happened to fail in its one run is a reproducer that passes now and then. So is
    one that builds a random generator the script seeded without its seed (``random.Random(seed)`` ->
    ``random.Random()``). None when ``source`` seeds nothing."""
    seeds = _seed_calls(source)
    seeded_generators, unseeded_generators = _generator_calls(source)
    generators = seeded_generators - unseeded_generators
    if not seeds and not generators:
        return None
    # the seeding functions the script calls with a computed argument (``cfg.seed``, ``args.seed``)
    functions = {text.split("(", 1)[0] for text in seeds} - _seed_calls(source, literal=True)

    def screen(candidate: str) -> str | None:
        # a seed call as the script wrote it, or one the script called with a computed argument called with
        # a literal (the argument read back where it was configured: ``torch.manual_seed(cfg.seed)`` ->
        # ``torch.manual_seed(7)``; the value passes that could change it are off for such a failure)
        if seeds and not (seeds & _seed_calls(candidate) or functions & _seed_calls(candidate, literal=True)):
            return "the script's random seed is kept (the failure compares computed values)"
        if generators and generators & _generator_calls(candidate)[1]:
            return "a random generator the script seeded stays seeded (the failure compares computed values)"
        return None

    return screen


def _screens(*screens: Callable[[str], str | None] | None) -> Callable[[str], str | None] | None:
    """One screen from several (the first reason wins); None when there is none."""
    present = [s for s in screens if s is not None]
    if not present:
        return None

    def screen(candidate: str) -> str | None:
        return next((why for why in (s(candidate) for s in present) if why is not None), None)

    return screen


def _secret_names(spec: RunSpec) -> str:
    """The secret-bearing variables a run has (kept by --keep-env, or set by --env), comma-separated: the
    probe spells their values, and pieces of them, by their shape (never as literals)."""
    from reportkit.redact import is_secret_env
    from reportkit.run.runner import build_env

    return ",".join(sorted(n for n, v in build_env(spec.env).items() if is_secret_env(n, v)))


def make_probe(check: Check, seeded: bool = False, good: GoodCode | None = None,
               reference: Check | None = None, exact: bool = False) -> Callable[[str, str], str | None]:
    """Run an instrumented program (value materialization) through ``check`` and return what it recorded.
    ``seeded``: the failure compares computed values; random tensors are spelled with a seeded generator.
    ``exact``: the failure's message shows a tensor's values (:func:`shows_tensor_values`); small tensors are
    spelled by their values.

    With a second condition — the fix check (``good``: the candidate must pass on the good code) or the
    differential (``reference``: it must pass with the suspect switched off) — the program also runs
    once on that side (the good form of the source, instrumented the same way; the same program under
    the switched environment), and the values that differ there are left out of what is returned: they
    depend on the fix, and a literal of the bug's value would fail on that side too
    (:func:`reportkit.reduce.passes.materialize.differing_sites`)."""

    def capture(on: Check, program: str) -> str | None:
        if on.sandbox is None:  # nowhere to write the capture file that the run can reach
            return None
        probe.runs += 1
        fd, name = tempfile.mkstemp(prefix="capture-", suffix=".json", dir=on.sandbox.root)
        os.close(fd)
        path = Path(name)
        try:
            on.with_env({CAPTURE_ENV: name, SEEDED_ENV: "1" if seeded else None, EXACT_ENV: "1" if exact else None,
                         SECRETS_ENV: _secret_names(on.run_spec) or None}).run(program)
            return path.read_text(encoding="utf-8") or None
        except OSError:
            return None
        finally:
            path.unlink(missing_ok=True)

    def probe(program: str, source: str) -> str | None:
        captured = capture(check, program)
        if not captured or (good is None and reference is None):
            return captured
        spans = sites(source)  # the sites ``program`` (instrumented from ``source``) records
        if good is not None:  # the good form, instrumented the same way, on the good code
            good_source = good.good_form(source)
            if good_source is None:
                return captured
            made = (program, spans) if good_source == source else instrument(good_source)
            if made is None:
                return captured
            other = (good_source, made[1], capture(good.check.on(ColdExecutor()), made[0]))
        else:  # the same program with the suspect switched off
            assert reference is not None
            other = (source, spans, capture(reference.on(ColdExecutor()), program))
        return without_sites(captured, differing_sites(source, spans, captured, *other))

    probe.runs = 0  # type: ignore[attr-defined]  # programs run, on either side
    probe.plain = lambda program: capture(check, program)  # type: ignore[attr-defined]  # this side only
    return probe


def minimize(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, options: MinimizeOptions,
             on_progress: Callable[[Progress, TestLog], None] | None = None) -> MinimizeReport:
    """Reduce ``source`` while it keeps failing like ``rep``; write results to ``options.output``.

    First the flakiness rule (:func:`reportkit.failure.check.confirm`) runs the original on the candidates'
    executor until it has failed the same way :data:`reportkit.failure.check.CONFIRM_RUNS` times, and a flaky
    failure is refused (:class:`reportkit.errors.FlakyFailure`) unless ``options.retries`` > 1.

    Every process started for it is gone when it returns: timed-out candidates are killed with
    their descendants, and helpers that candidates left behind (daemonized, outside the process
    group) are adopted and killed at the end (:class:`reportkit.run.runner.OrphanReaper`).
    """
    if options.output_mode is None:  # results are for sharing: the input's permissions
        options = replace(options, output_mode=mode_of(spec.script))
    sandbox = Sandbox(spec.script, spec.isolate_file, spec.root)
    reaper = OrphanReaper()
    reaper.start()
    try:
        return _minimize(spec, source, rep, policy, options, on_progress, sandbox)
    finally:
        reaper.stop()
        sandbox.cleanup()


@dataclass
class _Session:
    """What a minimization sets up before reducing: the checks, and the executors behind them."""

    cold: Check  # the original failure, per-candidate spec, the cold executor
    executor: Executor  # runs the candidates (never None: ColdExecutor when cold)
    executor_note: str = ""
    reference_executor: Executor | None = None  # the differential's switched runs, when warm
    passes_with: dict[str, str | None] | None = None
    differential_note: str = ""
    compile_cache: str | None = None
    good: GoodCode | None = None  # the fix check

    @property
    def candidates(self) -> Check:
        return self.cold.on(self.executor)

    @property
    def reference(self) -> Check | None:
        """The differential check: the candidate passes with ``passes_with`` set."""
        if not self.passes_with:
            return None
        check = self.cold.with_env(self.passes_with).expecting_pass()
        return check.on(self.reference_executor) if self.reference_executor is not None else check

    def kill_active(self) -> None:
        self.executor.kill_active()  # candidates still running in worker threads
        if self.reference_executor is not None:
            self.reference_executor.kill_active()
        if self.good is not None:
            self.good.kill_active()
        kill_active()

    def close(self) -> None:
        self.executor.close()
        if self.reference_executor is not None:
            self.reference_executor.close()


def _setup(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, options: MinimizeOptions,
           sandbox: Sandbox, folded: str | None = None) -> _Session:
    """Per-candidate timeout, private compile cache, differential check, executor(s), and the
    flakiness rule's confirmation runs (on the candidates' executor; of ``folded``, the script with
    its local modules folded in, when it was: ``rep`` is then that script's failure)."""
    run_spec = replace(spec, timeout=test_timeout(rep, spec))
    cold = Check(run_spec, policy, sandbox, ColdExecutor(), expected=rep.signature)
    cold, compile_cache = _private_compile_cache(cold, spec, source)
    passes_with, differential_note = differential_env(cold, source, options.passes_with)
    executor, executor_note = prepare_executor(  # a hanging original is checked without the whole timeout
        options.executor, hang.measuring(cold.run_spec, rep, policy) if options.hang_watch else cold.run_spec,
        source, rep.signature, policy, sandbox, tree=_kept_tree(source),
        meanwhile=lambda: analyse_ahead(source))  # (the reducer's first analyses, while the server starts)
    if options.hang_watch:  # candidates sitting in the original's blocked frame long enough are decided early
        try:
            armed, hang_note = hang.arm(cold.run_spec, rep, policy, hang.run_sampled(
                None if isinstance(executor, ColdExecutor) else executor, cold.run_spec, source, sandbox))
        except BaseException:
            executor.close()
            raise
        cold = cold.with_spec(hang_watch=armed.hang_watch)
        executor_note = "; ".join(x for x in (executor_note, hang_note) if x)
    session = _Session(cold, executor, executor_note, passes_with=passes_with,
                       differential_note=differential_note, compile_cache=compile_cache)
    try:
        confirm(rep, session.candidates, folded)
        require_deterministic(rep, options.retries)
        reference = session.reference
        if reference is not None:
            session.reference_executor = reference_warm_executor(executor, reference, source)
    except BaseException:
        session.close()
        raise
    if session.reference_executor is not None:
        session.executor_note = "; ".join(x for x in (executor_note, "the differential's switched runs are warm too")
                                          if x)
    return session


#: After writing the best source in ``w`` seconds, the next best waits ``_WRITE_WAIT * w`` (see _BestWriter) ...
_WRITE_WAIT = 39
#: ... and before the first write, ``w`` is taken to be this many seconds per character of the script (measured:
#: redacting a 3,000-line script of about 100,000 characters took 0.15-0.3 s of CPU)
_WRITE_SECONDS_PER_CHAR = 2e-6


class _BestWriter:
    """Writes the reducer's best source so far to the output (redacted, atomically) as it improves, spending at
    most about a fortieth of the time on it: after a write that took ``w`` seconds, a new best waits ``39 w``
    before it is written (a later best in between replaces it). The redaction reads the whole source, and on a
    long script most tests improve on the best: writing each one would cost the program's size per test (at a
    tenth of the time, measured: 9 % of the wall time and 15 % of reportkit's own on a 2,765-line script). The
    first best (nearly the whole script) waits as if the script of ``chars`` characters had been written
    (:data:`_WRITE_SECONDS_PER_CHAR`): a few seconds on a script of thousands of lines, where writing it at once
    was a fifth of reportkit's CPU when it took 20-40 tests; at once on a short one.
    :meth:`flush` writes the last one; the reduction calls it whenever it ends (done, budget, Ctrl-C)."""

    def __init__(self, options: MinimizeOptions, chars: int = 0) -> None:
        self.options = options
        self.pending: str | None = None
        self.next_at = time.monotonic() + _WRITE_WAIT * _WRITE_SECONDS_PER_CHAR * chars
        self.lock = threading.Lock()

    def offer(self, source: str) -> None:
        with self.lock:
            self.pending = source
            if time.monotonic() >= self.next_at:
                self._write()

    def flush(self) -> None:
        with self.lock:
            self._write()

    def _write(self) -> None:
        if self.pending is None:
            return
        start = time.monotonic()
        write_atomic(self.options.output, redact_code(self.pending, home=""),  # the file users paste: the code
                     mode=self.options.output_mode)                              # edge (secrets; paths kept)
        self.pending = None
        now = time.monotonic()
        self.next_at = now + _WRITE_WAIT * (now - start)


@dataclass
class _Reduced:
    """What the reduction left: the best source, the reducer's counters, how it ended."""

    source: str
    stats: ReduceStats | None
    stopped_early: bool = False
    interrupted: bool = False
    probe_runs: int = 0  # value-capture runs, on the good side too
    start: str = ""  # the source the reduction started from


def _reduce(session: _Session, source: str, oracle: bool, options: MinimizeOptions, deadline: float | None,
            log: TestLog, on_progress: Callable[[Progress, TestLog], None] | None, keep: Keep | None = None,
            seeded: bool = False, exact: bool = False) -> _Reduced:
    """Run the reducer; the best so far is written to ``options.output`` as it improves (:class:`_BestWriter`); Ctrl-C / SIGTERM keep the best."""
    trace = Trace.from_env()
    predicate = Interestingness(session.candidates, options.retries, deadline, log, reference=session.reference,
                                good=session.good, keep=keep, trace=trace)
    best = _Reduced(source, None, start=source)
    writer = _BestWriter(options, len(source))

    def improved(candidate: str) -> None:
        best.source = candidate
        writer.offer(candidate)

    def progress(p: Progress) -> None:
        best.stats = p.stats  # the reducer's counters as of the last progress event (kept on Ctrl-C)
        if on_progress:
            on_progress(p, log)

    probe = make_probe(session.cold, seeded=seeded, good=session.good, reference=session.reference, exact=exact)
    result: ReduceResult | None = None
    spent = deadline is not None and time.monotonic() >= deadline  # (preparing used the budget up: no pass starts)
    best.stopped_early = spent
    try:
        with sigterm_as_interrupt():
            try:
                result = None if spent else reduce_source(source, predicate, jobs=options.jobs, on_progress=progress,
                                       on_improve=improved, probe=probe, oracle=oracle,
                                       rebuild=not (keep and keep.compares), guarded=session.good is not None,
                                       inputs=bool(keep and keep.inputs), assertion=bool(keep and keep.assertion),
                                       confirm=predicate.confirm if session.passes_with or session.good else None,
                                       trace=trace,
                                       screen=_screens(session.good.screen if session.good else None,
                                                       seed_screen(source) if seeded else None,
                                                       forward_screen(source), differentiated_screen(source),
                                                       member_screen(source),
                                                       keyword_screen(keep.keywords) if keep else None,
                                                       attribute_screen(keep.attributes) if keep else None))
            except KeyboardInterrupt:
                best.interrupted = True
                predicate.stopping.set()
                session.kill_active()
    finally:
        session.close()
        writer.flush()  # (also when an error ends it: the best so far is kept)
    if result is not None:
        if result.source != best.source:
            improved(result.source)
            writer.flush()
        best.stats, best.stopped_early = result.stats, bool(result.stopped_early)
    best.probe_runs = probe.runs  # type: ignore[attr-defined]
    if best.source == source and not options.output.exists():
        write_atomic(options.output, redact_code(source, home=""), mode=options.output_mode)  # nothing removable: the output is the input, said so
    return best


TIDY_LIMIT = 1_000_000  # characters


def tidied(source: str) -> str:
    """``source`` through the reducer's cosmetic passes (comments, docstrings, blank lines), as text."""
    for final in P.FINAL:
        proposed = final.candidates(source)
        if proposed:
            source = proposed[0]
    return source


REDACTED_FAILS = ("the result as written no longer fails the same way: the redaction edge replaced a literal "
                  "it calls a secret (<redacted...> in the file) and the failure needs its value; put the input's "
                  "value back there to reproduce")


CACHE_STATE = ("the result fails the same way only with what earlier runs left in the shared compile cache, not with "
               "an empty one: it is no reproducer on its own (the script reads or writes its cache)")


def _verify_result(session: _Session, reduced: ReduceResult, keep: Keep, options: MinimizeOptions):
    """Re-check the result (tidied first when the budget cut the cosmetic passes; ``reduced.source`` becomes the
    tidy form when that still fails) as the file will hold it, redacted. Returns :func:`_verify`'s and why a
    failed re-check failed when it is not flakiness."""
    # (a huge input the budget cut before anything was removed stays as it is: the cosmetic passes would parse and
    # re-check megabytes, far past the budget)
    huge = reduced.source == reduced.start and len(reduced.source) > TIDY_LIMIT
    tidy = tidied(reduced.source) if reduced.stopped_early and not huge else reduced.source
    verified = None
    if tidy != reduced.source:  # cut by the budget before the cosmetic passes: one re-check covers them
        verified, outcome, on_good = _verify(session, tidy, keep)
        if verified:
            reduced.source = tidy
            write_atomic(options.output, redact_code(tidy, home=""), mode=options.output_mode)
    if tidy != reduced.source or verified is None:
        verified, outcome, on_good = _verify(session, reduced.source, keep)
    note = ""
    written = redact_code(reduced.source, home="")
    if verified and written != reduced.source:  # the file holds what was re-checked, redacted: check that
        verified, outcome, on_good = _verify(session, written, keep)
        note = "" if verified else REDACTED_FAILS
    elif not verified and session.compile_cache is not None \
            and session.cold.with_spec(hang_watch=None).run(reduced.source).ok:
        note = CACHE_STATE  # (fails with the candidates' cache, not with an empty one)
    return verified, outcome, on_good, note


#: Calls that draw random values from a global generator: torch's random factories and in-place fills, a module's
#: initialised weights (``nn.Linear(...)``), ``torch.nn.init``, ``numpy.random``'s and ``random``'s functions.
_RANDOM_CALL_RE = re.compile(
    r"\b(?:torch\.(?:randn|rand|randint|randperm|normal|bernoulli|multinomial|poisson)(?:_like)?"
    r"|\.(?:uniform_|normal_|random_|bernoulli_|exponential_|geometric_|cauchy_|log_normal_)"
    r"|nn\.(?:init\.\w+|[A-Z]\w*)|(?:np|numpy)\.random\.\w+"
    r"|random\.(?:random|randint|randrange|choice|choices|shuffle|uniform|gauss|sample))\(")
#: Runs of a result that draws unseeded random values, the re-check included (the reduction ran each candidate
#: once: a result that fails in 3 runs of 4 is missed here one time in four, one that fails in half its runs one in 32)
STEADY_RUNS = 5
#: Runs of the seeded result, all of which must fail the same way.
SEEDED_RUNS = 3
#: How a module imported at the top is seeded, by the module's name.
_SEEDS = {"torch": "{}.manual_seed(0)", "numpy": "{}.random.seed(0)", "random": "{}.seed(0)"}


def _seeded(source: str) -> str | None:
    """``source`` with the global generators it imports at its top (torch, numpy, random) seeded right after
    those imports (``torch.manual_seed(0)``); None where it imports none of them there."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    last, calls = None, []
    for stmt in tree.body:
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if last is None and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # (a docstring)
            break
        last = stmt
        for alias in stmt.names if isinstance(stmt, ast.Import) else ():
            if alias.name in _SEEDS:
                calls.append(_SEEDS[alias.name].format(alias.asname or alias.name))
    if last is None or not calls:
        return None
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return "".join([*lines[:last.end_lineno], *(c + "\n" for c in calls), *lines[last.end_lineno:]])


def _again(session: _Session, source: str, keep: Keep) -> bool:
    """One more run of the result, cold as candidates run (the reduction's executors are closed by now; a fresh
    interpreter draws its random values anew): does it fail the same way, keeping what it must keep? Not the whole
    re-check of :func:`_verify` (an empty compile cache, the differential, the good code): randomness is the question."""
    outcome = session.cold.run(source)
    return outcome.ok and keep.kept(outcome, source)


def _steady(session: _Session, reduced: ReduceResult, keep: Keep, options: MinimizeOptions,
            verified: bool | None) -> tuple[bool | None, str]:
    """A deterministic original's result that draws unseeded random values (:data:`_RANDOM_CALL_RE`) is
    run up to :data:`STEADY_RUNS` times: a candidate that failed in its run may pass in the next
    (``torch.randn(1, 2)`` where the failure needs a negative value). Where a run does not fail the same way, the
    result seeded (:func:`_seeded`) is written instead when it fails in :data:`SEEDED_RUNS` of them (the first
    one re-checked as :func:`_verify` does, the others as the one more run of :func:`_again`). Returns (verified, a note
    for the report, "" when every run failed)."""
    source = reduced.source
    if not _RANDOM_CALL_RE.search(source) or _SEED_CALL_RE.search(source):
        return verified, ""
    runs = 1
    while verified and runs < STEADY_RUNS:  # (until the first run that does not fail the same way)
        verified, runs = _again(session, source, keep), runs + 1
    if verified:
        return verified, ""
    seeded = _seeded(source)
    plain = f"the result draws random values and did not fail the same way in run {runs} of it"
    if seeded is None:
        return False, plain + " (flaky: nothing to seed at its top)"
    seeded_failed = _verify(session, seeded, keep)[0] + sum(_again(session, seeded, keep)
                                                            for _ in range(SEEDED_RUNS - 1))
    if seeded_failed < SEEDED_RUNS:
        return False, plain + f"; seeded, it failed the same way in {seeded_failed} of {SEEDED_RUNS} (flaky)"
    reduced.source = seeded
    write_atomic(options.output, redact_code(seeded, home=""), mode=options.output_mode)
    return True, plain + f"; seeded at its top ({', '.join(sorted(_seed_calls(seeded)))}), in every one of {SEEDED_RUNS}"


def _verify(session: _Session, final: str, keep: Keep | None = None):
    """Re-run the written result cold: still the same failure, what it must keep kept (and the
    differential still passes, and it passes on the good code)? Returns (verified, outcome, passes on
    the good code or None). Without the hang watch: a hang is re-checked with the whole timeout (the
    watch's early "same hang" verdicts are re-checked here, see reportkit.run.hangwatch)."""
    check = session.cold.with_spec(hang_watch=None)
    if session.compile_cache is not None:  # an empty cache: what candidates left in theirs is not the result's
        fresh = Path(tempfile.mkdtemp(prefix="verify-cache-", dir=Path(session.compile_cache).parent))
        check = check.with_env(private_cache_env(fresh, session.cold.spec.env))
    outcome = check.run(final)
    verified = outcome.ok and (keep is None or keep.kept(outcome, final))
    reference = session.reference
    if verified and reference is not None:
        verified = reference.on(ColdExecutor()).run(final).ok
    on_good = None
    if session.good is not None:
        got = session.good.run(final, cold=True)
        on_good = got is not None and got.ok
        verified = verified and on_good
    return verified, outcome, on_good


def _minimize(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, options: MinimizeOptions,
              on_progress: Callable[[Progress, TestLog], None] | None, sandbox: Sandbox) -> MinimizeReport:
    start = time.monotonic()
    deadline = start + options.budget if options.budget else None
    original = source
    if options.fold_local:
        source, folded, folded_note, expected = fold_local_code(replace(spec, timeout=test_timeout(rep, spec)),
                                                                source, rep, policy, sandbox)  # reduce/flatten.py
    else:
        folded, folded_note, expected = [], "the library under test stays imported (not folded in)", rep.signature
    # the good code runs with the conftest.py files (a copied fixture overrides its conftest's)
    good, fix_note = _fix_check(spec, original, source, rep, policy, options, sandbox, folded_conftests(folded))
    if good is not None and folded and not good.folded:  # the folded script has no good form that passes
        source, folded, expected = original, [], rep.signature
        folded_note = ("local modules not folded in: the script folded from the good code does not map onto "
                       "it or does not pass there (the fix check needs its good form)")
    if good is not None:
        good.carried = _carried(good, spec, folded)
    if folded_conftests(folded):  # their fixtures are in the module now: candidates run without them
        spec = replace(spec, args=[*spec.args, NO_CONFTEST])
    reported = rep.signature  # the original's failure, as the report says
    if expected is not reported:  # folded: a raise in a local module is a raise in the script now
        rep = replace(rep, signature=expected, results=list(rep.results), signatures=list(rep.signatures))
    try:
        session = _setup(spec, source, rep, policy, options, sandbox, source if folded else None)
    except BaseException:
        if good is not None:
            good.close()
        raise
    session.good = good
    if good is not None:  # candidates run on the good code on a warm server of their own, when the start's good form passes on it
        good.warm = reference_warm_executor(session.executor, good.check, good.good_form(source) or original)
        if good.warm is not None:
            good.check = good.check.on(good.warm)
    try:
        report = _finish(spec, source, rep, policy, options, on_progress, session, start, deadline,
                         folded, folded_note, fix_note, reported)
        report.lines_script = count_lines(original)
        return report
    finally:
        if good is not None:
            good.close()


def _fix_check(spec: RunSpec, original: str, source: str, rep: Reproduction, policy: MatchPolicy,
               options: MinimizeOptions, sandbox: Sandbox, conftests: bool = False) -> tuple[GoodCode | None, str]:
    """The good code results must pass on (reportkit/reduce/fixcheck.py), and a note for the summary.

    ``original`` must pass there, else: an explicit ``--good`` is an error, the automatic check is
    off. With ``--good REV``, when the original fails on REV's tree as it is and REV has the script in
    another form that passes there, the bug is (also) in the script: a candidate's good form is mapped
    from the script's own diff (``good.fold``; the original's good form is REV's script). When
    ``source`` is ``original`` with local modules folded in, the good form of ``source`` (REV's script
    folded from the good tree) must pass as well; else ``good.folded`` stays False (the caller reduces
    the script unfolded). ``conftests``: ``source`` has the test's conftest.py files folded in too.
    """
    good_rev, auto = options.good, False
    if good_rev is None and options.good_auto:
        good_rev = uncommitted_changes(spec.script.parent, exclude=(spec.script, options.output))
        auto = True
    if good_rev is None:
        return None, ""
    base = Check(replace(spec, timeout=test_timeout(rep, spec)), policy, sandbox, ColdExecutor(),
                 expected=rep.signature)
    try:
        good = prepare_good_code(good_rev, auto, base)
    except NotRelevant as exc:
        return None, f"off: {exc}"
    except GoodRevError as exc:
        if auto:
            return None, f"off: {exc}"
        raise UserError(str(exc)) from None
    try:
        # the good code may run longer than the failing original, which stopped at the failure (a fixed
        # torch.compile goes on to compile what the failing one refused): its original runs get the run's own
        # timeout, and the candidates' good runs 3x what the original's took there (at least the candidates')
        per_candidate = good.check.spec.timeout
        good.check = good.check.with_spec(timeout=max(per_candidate, spec.timeout))
        outcome, mapped, unmapped = good.check.run(original), None, False
        if not outcome.ok and good.script_source is not None:  # --good REV: the bug may be in the script itself
            fold = good_form_map(original, good.check.spec.script, good.script_source, folded=False)
            unmapped = fold is None
            mapped = None if fold is None or fold.identity else good.check.run(fold(original))
            if mapped is not None and mapped.ok:
                good.fold, outcome = fold, mapped
        if good.fold is None:  # the script passes there as it is (or REV's form does not help): run unchanged
            good.script_source = None
        if not outcome.ok:
            why = f"the original also fails on {good_rev.describe()} (it {_ended(good, rep, outcome)})"
            if mapped is not None:  # what REV's own form of the script did there, which did not pass either
                why += f"; the script as it is at {good_rev.describe()} does not pass either (it {_ended(good, rep, mapped)})"
            elif unmapped:
                why += (f"; the script differs at {good_rev.describe()}, but its change cannot be carried onto a "
                        "candidate (a line the change touches occurs more than once in the script)")
            if not auto:
                raise UserError(f"--good {good_rev.rev}: {why}; a result cannot be checked against code "
                                "on which the original does not pass")
            good.close()
            return None, f"off: {why}"
        if source != original:
            _fold_good(good, original, source, conftests)
        took = outcome.result.duration
        good.check = good.check.with_spec(timeout=max(per_candidate, min(spec.timeout, max(3 * took, took + 10))))
        good.runs = good.rejected = good.unmapped = good.screened = 0  # count the reduction's runs only
    except BaseException:
        good.close()
        raise
    return good, good.describe()


def _ended(good: GoodCode, rep: Reproduction, outcome) -> str:
    """How a run on the good code that did not pass ended, for a message: "fails the same way", "timed out
    after N s" or "ends with <headline>"."""
    if good.check.expecting(rep.signature).met(outcome.signature):
        return "fails the same way"
    if outcome.signature.kind is FailureKind.HANG:
        return f"timed out after {good.check.spec.timeout:.0f} s"
    return "ends with " + clip_words(outcome.signature.headline().splitlines()[0], 160)


def _carried(good: GoodCode, spec: RunSpec, folded: list[str]) -> bool:
    """Does the good code differ from the checkout only in files a candidate carries itself — the target
    (the candidate takes its place) and the local modules folded into it (``folded``, relative to the
    common directory of :func:`reportkit.reduce.flatten.project_roots`)? Only when the candidates are mapped to
    their good form (``good.fold``): then a candidate without the lines the fix changes runs on the good
    code exactly as on the checkout (:meth:`GoodCode.screen`)."""
    from reportkit.reduce.flatten import project_roots

    if good.fold is None or good.fold.identity:
        return False
    script = spec.script.resolve()
    carried = {script}
    if folded:
        common = Path(os.path.commonpath([str(r) for r in project_roots(spec.script, spec.root)]))
        carried |= {(common / rel).resolve() for rel in folded}
    return all((good.good.toplevel / name).resolve() in carried for name in good.good.changed)


def _fold_good(good: GoodCode, original: str, folded: str, conftests: bool = False) -> None:
    """Set ``good.fold`` (and ``good.folded``) when the script folded from the good tree maps onto
    ``folded`` and passes there."""
    from reportkit.reduce.flatten import NotFlattenable

    check = good.check
    try:
        fold = good_form_map(folded, check.spec.script, good.script_source or original, folded=True,
                             root=check.spec.root, conftests=conftests)
    except (NotFlattenable, RecursionError, ValueError):
        return
    if fold is None or not check.run(fold(folded)).ok:
        return
    good.fold, good.folded = fold, True


def _finish(spec: RunSpec, source: str, rep: Reproduction, policy: MatchPolicy, options: MinimizeOptions,
            on_progress: Callable[[Progress, TestLog], None] | None, session: _Session, start: float,
            deadline: float | None, folded: list[str], folded_note: str, fix_note: str,
            reported: Signature | None = None) -> MinimizeReport:
    # compiled-vs-eager: value passes stay on. A value substituted in the script is the same in both
    # modes, so the candidate can only keep failing compiled-only if the compiler stack still computes it wrong.
    # Otherwise a failure whose values are the bug keeps them (what_to_keep, README "What a reproducer keeps").
    keep = what_to_keep(rep, spec, policy, differential=bool(session.passes_with and not options.passes_with),
                        keep_values=options.keep_values)
    log = TestLog()
    statements_before = count_statements(source)  # (now: its tree is kept, not parsed again)
    began = time.monotonic()
    reduced = _reduce(session, source, keep.values, options, deadline, log, on_progress, keep,
                      seeded=is_oracle(rep.signature), exact=shows_tensor_values(rep.signature))
    phases = {"prepare": began - start, "reduce": time.monotonic() - began}
    began = time.monotonic()
    verified, final_sig, standalone, standalone_note, on_good, verify_note = None, None, None, "", None, ""
    steady_note = ""
    fix_check = session.good.to_dict() if session.good is not None else None  # the reduction's runs only
    if not reduced.interrupted:
        verified, outcome, on_good, verify_note = _verify_result(session, reduced, keep, options)
        if not verify_note and rep.deterministic:
            verified, steady_note = _steady(session, reduced, keep, options, verified)
        final_sig = outcome.signature.to_dict()
        if verified and spec.pytest_node is not None:
            standalone, standalone_note = write_standalone(session.cold, reduced.source, outcome.result.test_item,
                                                           options.output, options.output_mode)
    stats = reduced.stats
    phases["verify"] = time.monotonic() - began
    return MinimizeReport(
        input=str(spec.script), output=str(options.output),
        lines_before=count_lines(source), lines_after=count_lines(reduced.source),
        statements_before=statements_before, statements_after=count_statements(reduced.source),
        bytes_before=len(source.encode()), bytes_after=len(reduced.source.encode()),
        tests_run=log.runs, cache_hits=stats.cache_hits if stats else 0,
        invalid_skipped=stats.invalid_skipped if stats else 0,
        probes=reduced.probe_runs,
        passes=dict(stats.passes) if stats else {},
        wall_time=time.monotonic() - start, test_timeout=session.cold.spec.timeout,
        stopped_early=reduced.stopped_early,
        interrupted=reduced.interrupted, verified=verified,
        signature=(reported or rep.signature).to_dict(), final_signature=final_sig,
        executor=session.executor.name, executor_note=session.executor_note,
        preload=list(getattr(session.executor, "preload", [])), compile_cache=session.compile_cache,
        differential=session.differential_note,
        test_time_median=statistics.median(log.durations) if log.durations else 0.0,
        candidates_tested=stats.tests_run if stats else 0, reference_runs=log.reference_runs,
        good_runs=log.good_runs,
        redone_passes=stats.redone if stats else 0, memo_skips=stats.memo_skips if stats else 0,
        tests_by_pass=dict(stats.tests_by_pass) if stats else {},
        pytest_node=spec.pytest_node, standalone=standalone, standalone_note=standalone_note,
        original_runs=rep.runs, original_failures=rep.failures,
        folded=folded, folded_note=folded_note, keeps=keep.why,
        fix_check=None if fix_check is None else {**fix_check, "redone_passes": stats.redone if stats else 0,
                                                  "verified": on_good},
        fix_check_note=fix_note, hang_ended=dict(log.ended),
        withdrawn=getattr(session.executor, "withdrawn", 0),
        needs_env=needs_env(reduced.source, session.cold.run_spec),
        seconds_by_phase={k: round(v, 3) for k, v in phases.items()},
        seconds_by_pass={k: round(v, 3) for k, v in (stats.seconds_by_pass if stats else {}).items()},
        needs_args=bool(session.cold.run_spec.args) and reads_argv(reduced.source),
        verify_note=verify_note, steady_note=steady_note,
    )


def reads_argv(source: str) -> bool:
    """``source`` reads ``sys.argv`` (or ``argv`` imported from ``sys``), or parses its arguments with argparse."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("argv", "parse_args", "parse_known_args") or \
                isinstance(node, ast.ImportFrom) and node.module == "sys" and any(a.name == "argv" for a in node.names):
            return True
    return False


def needs_env(result: str, spec: RunSpec) -> list[str]:
    """The environment variables the result reads (by a literal name) that its runs had: to run it as it
    was checked, they must be set (their values are never written into it)."""
    from reportkit.run.runner import build_env

    env = build_env(spec.env)
    return [name for name in env_reads(result) if name in env]


def write_standalone(check: Check, module: str, test: dict | None, output: Path,
                     mode: int | None = None) -> tuple[str | None, str]:
    """For a pytest target: write ``repro_<module>.py`` next to ``output`` if a plain script made from
    the (minimized) module fails the same way when run with ``python`` (``check``: the cold check of
    the original failure); else say why not."""
    from reportkit.reduce.standalone import NotStandalone, conftest_chain, make_standalone
    from reportkit.run.spec import PYTEST_NODE_ENV

    if test is None:
        return None, "no record of the failing test item"
    spec = check.run_spec
    root = spec.root or spec.script.parent
    try:
        script = make_standalone(module, test, conftest_chain(root, spec.script.parent),
                                 root_rel=os.path.relpath(root, spec.script.parent))
    except NotStandalone as exc:
        return None, f"not made: {exc}"
    except SyntaxError:
        return None, "not made: the module does not parse"
    got = check.with_env({PYTEST_NODE_ENV: None}).run(script)
    if not got.ok:
        return None, f"a plain script made from it fails differently ({clip_words(got.signature.headline().splitlines()[0], 200)})"
    path = output.with_name("repro_" + spec.script.name)
    if path == spec.script:
        return None, "not written: it would overwrite the input"
    write_atomic(path, redact_code(script, home=""), mode=mode)
    return str(path), "fails the same way when run with python (no pytest run needed)"


def _private_compile_cache(cold: Check, spec: RunSpec, source: str) -> tuple[Check, str | None]:
    """Candidates share a private Inductor/Triton cache under the run's temp dir (caches stay *on*).

    Only for scripts that compile (and unless ``--env`` sets the cache dirs). The original is run once
    with it, cold and with the user's timeout (``spec``), so that the first candidates find the cache
    filled rather than paying a cold compile against the per-candidate timeout. If that run does not
    fail the same way, the private cache is not used. Returns ``cold`` with the cache env, and the dir.
    """
    if not (uses_torch(source) and uses_compile(source)):
        return cold, None
    assert cold.sandbox is not None
    root = cold.sandbox.root / "compile-cache"
    extra = private_cache_env(root, spec.env)
    if not extra:
        return cold, None
    if not cold.with_env(extra).with_spec(timeout=spec.timeout).run(source).ok:
        return cold, None
    return cold.with_env(extra), str(root)
