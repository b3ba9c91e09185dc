"""The one door every run goes through: a :class:`Check`, and the flakiness rule.

A ``Check`` is what a run is for: a run spec, an environment overlay, the executor that carries the
run out, and the expected outcome — *fails the same way as* a signature (under a
:class:`~reportkit.failure.signature.MatchPolicy`), or *passes* (exit 0, and not that failure). ``check.run
(source)`` runs the script (or ``source`` in its place) once and returns an :class:`Outcome`: the
raw result, its signature, and whether the expectation was met. Everything that runs the target goes
through one: establishing the original (``check``, ``minimize``, ``bundle``, ``ci``), minimize's
candidates, the differential's switched runs, value-capture probes and re-checks, the warm executor's
check against the cold runner, and bundle's backend ladder. A sandbox or a remote executor plugs in
at one place: an :class:`~reportkit.run.executor.Executor` given to the Check (the executor's
``run(spec, source, sandbox)`` is the lowest level; :func:`reportkit.run.runner.run_script` under the
cold one).

**Flakiness rule** (one rule for ``check``, ``minimize``, ``bundle --minimize`` and ``ci``): the
original is run ``--runs`` times (fresh interpreters), then — while every run so far failed the same
way — again, on the executor minimize would use (warm when it can: a fork of a server that has the
imports loaded, ~0.1-0.4 s for the torch examples), until :data:`CONFIRM_RUNS` runs have failed the
same way; the first run that does not stops it: flaky, with the rate observed. A failure that
happens with probability at most 1/2 per run passes 7 runs in a row with probability at most
2**-7 < 0.8 %. A hang is judged on its ``--runs`` runs only (every run of it costs the whole timeout).
"""

from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

from reportkit.errors import FlakyFailure, NothingToReproduce, UserError
from reportkit.failure.signature import (
    FailureKind,
    MatchPolicy,
    Reproduction,
    Signature,
    check_pytest_outcome,
    interesting,
    missing_module,
    same_failure,
    signature_of,
)
from reportkit.redact import remember_output
from reportkit.run.executor import ColdExecutor, Executor, WarmExecutor, discover_preload, warm_supported
from reportkit.run.runner import Sandbox
from reportkit.run.spec import RunResult, RunSpec

# A failure is called deterministic after this many runs in a row failed the same way.
CONFIRM_RUNS = 7
# ... so that a failure that happens at most this often per run is told apart (see escape_probability).
FLAKE_RATE = 0.5


def escape_probability(runs: int = CONFIRM_RUNS, rate: float = FLAKE_RATE) -> float:
    """Probability that a failure happening with probability ``rate`` per run fails ``runs`` runs in a row."""
    return rate ** runs


def meets(sig: Signature, policy: MatchPolicy, expected: Signature | None = None, passes: bool = False) -> bool:
    """The expectation of a :class:`Check`, on a signature.

    ``passes``: the run passed (exit 0) and is not the ``expected`` failure — merely "not the same
    failure" is not enough for the differential check: a candidate that broke the reference path (a
    NameError with the switch set) would satisfy it while the comparison lost its meaning. Else with
    ``expected``: the same failure (:func:`~reportkit.failure.signature.same_failure`); without: any failure
    the policy accepts.
    """
    if passes:
        return sig.kind is FailureKind.PASSED and (expected is None or not same_failure(expected, sig, policy))
    if expected is None:
        return sig.failed and (policy.strict or interesting(sig, policy))
    return same_failure(expected, sig, policy)


@dataclass(frozen=True)
class Outcome:
    """One run judged by a :class:`Check`."""

    result: RunResult
    signature: Signature
    ok: bool  # the check's expectation was met


@dataclass(frozen=True, eq=False)
class Check:
    """Run the target (or a candidate in its place) and judge the outcome. Immutable: the ``with_*``,
    ``on`` and ``expecting*`` methods return a changed copy."""

    spec: RunSpec
    policy: MatchPolicy = field(default_factory=MatchPolicy)
    sandbox: Sandbox | None = None  # None: a fresh one per run (cold executor only)
    executor: Executor = field(default_factory=ColdExecutor)
    env: Mapping[str, str | None] = field(default_factory=dict)  # on top of spec.env (None unsets)
    expected: Signature | None = None  # fail the same way as this ...
    passes: bool = False  # ... or pass (exit 0) and not fail like ``expected``

    @property
    def run_spec(self) -> RunSpec:
        return replace(self.spec, env={**self.spec.env, **self.env}) if self.env else self.spec

    def run(self, source: str | None = None) -> Outcome:
        return self.judge(self.executor.run(self.run_spec, source, self.sandbox))

    def __call__(self, source: str | None = None) -> bool:
        return self.run(source).ok

    def judge(self, result: RunResult) -> Outcome:
        """Judge a result obtained elsewhere (e.g. the warm executor's learning run)."""
        sig = signature_of(result, self.policy)
        return Outcome(result, sig, self.met(sig))

    def met(self, sig: Signature) -> bool:
        return meets(sig, self.policy, self.expected, self.passes)

    # ------------------------------------------------------------------ variants
    def with_env(self, env: Mapping[str, str | None]) -> Check:
        return replace(self, env={**self.env, **env})

    def with_spec(self, **changes) -> Check:
        return replace(self, spec=replace(self.spec, **changes))

    def on(self, executor: Executor) -> Check:
        return replace(self, executor=executor)

    def expecting(self, signature: Signature | None) -> Check:
        """Expect the same failure as ``signature`` (None: any failure the policy accepts)."""
        return replace(self, expected=signature, passes=False)

    def expecting_pass(self) -> Check:
        """Expect a pass (exit 0) that is not the expected failure (the differential check)."""
        return replace(self, passes=True)


# --------------------------------------------------------------------------- the original


def reproduce(check: Check, runs: int = 2, source: str | None = None,
              on_run: Callable[[int, RunResult, Signature], None] | None = None) -> Reproduction:
    """Run the original ``runs`` times and measure how reliably it fails the same way.

    Raises :class:`~reportkit.errors.UserError` when the interpreter cannot start the script, a pytest
    target runs no test, or the script misses a module; :class:`~reportkit.errors.NothingToReproduce`
    when no run fails (as the policy asks).
    """
    check = check.expecting(None)
    outcomes: list[Outcome] = []
    for i in range(max(1, runs)):
        outcome = check.run(source)
        if i == 0:
            _bad_input(check, outcome)
            _remember_secrets(outcome.result)
        outcomes.append(outcome)
        if on_run:
            on_run(i, outcome.result, outcome.signature)
    first = next((o.signature for o in outcomes if o.ok), None)
    if first is None:
        raise NothingToReproduce(_why_nothing(check, outcomes[0].signature, len(outcomes)))
    first = settled_waits(first, [o.signature for o in outcomes])
    failures = sum(1 for o in outcomes if same_failure(first, o.signature, check.policy))
    return Reproduction(signature=first, runs=len(outcomes), failures=failures,
                        results=[o.result for o in outcomes], signatures=[o.signature for o in outcomes])


def settled_waits(first: Signature, signatures: list[Signature]) -> Signature:
    """A hang's ``first`` signature with what its waits were over all the original's runs
    (``signatures``): what the child processes wait in, not compared where it differed between runs;
    where the other threads waited, every place any run had (a candidate's threads may wait there)."""
    if first.kind is not FailureKind.HANG:
        return first
    hangs = [s for s in signatures if s.kind is FailureKind.HANG]
    if first.child_waits is not None and any(s.child_waits != first.child_waits for s in hangs):
        first = replace(first, child_waits=None)  # the children's state differs run to run
    if first.thread_waits is not None:
        first = replace(first, thread_waits=sorted(set(first.thread_waits).union(*(s.thread_waits or [] for s in hangs))))
    return first


def _remember_secrets(result: RunResult) -> None:
    """What the redaction edge finds in the original's output is a known value from now on: the same secret in
    the script's literal (the reproducer) or in a candidate's output is removed too."""
    exceptions = [result.exception, *result.thread_exceptions] if result.exception else result.thread_exceptions
    remember_output(result.stdout, result.stderr, *(e.message for e in exceptions if e))


def _how_it_ended(result: RunResult) -> str:
    if result.timed_out:
        return "ran until the timeout"
    return f"was killed by signal {result.signal}" if result.signal is not None \
        else f"exited with code {result.returncode}"


def _bad_input(check: Check, outcome: Outcome) -> None:
    spec, result, sig, policy = check.spec, outcome.result, outcome.signature, check.policy
    if not result.started and result.replaced:  # (the boot's record of its start is gone: not the interpreter's fault)
        raise UserError(f"the script's run replaced or removed the records reportkit keeps of it "
                        f"({', '.join(result.replaced)} in its meta/ dir), so it cannot be judged (it "
                        f"{_how_it_ended(result)})")
    if not result.started and not result.timed_out:
        tail = "\n".join(result.stderr.strip().splitlines()[-5:])
        raise UserError(f"the interpreter {spec.python} could not start the script:\n{tail}")
    check_pytest_outcome(spec, result, sig)
    module = missing_module(sig) if policy.strict or policy.any_exception else None
    if module:
        raise UserError(f"the script needs the module '{module}', which is not installed for "
                        f"{spec.python}; install it there, or pass --python with an interpreter that has it")


def _why_nothing(check: Check, passed: Signature, runs: int) -> str:
    if check.policy.strict:
        why = "the script exits 0" if passed.kind is FailureKind.PASSED else f"the script ends with {passed.headline()}"
    else:
        why = f"no run satisfied: {check.policy.describe()} (the script ended with {passed.headline()})"
    if check.spec.pytest_node is not None and passed.kind is FailureKind.PASSED:
        why = "the test passes (or is skipped / xfailed)"
    hint = withheld_hint(check.run_spec, None, passed)
    return f"{why} ({runs} run(s))" + (f"; {hint}" if hint else "")


# --------------------------------------------------------------------------- withheld variables


def withheld_variables(spec: RunSpec, source: str | None = None) -> tuple[list[str], list[str]]:
    """The secret-bearing variables the runs do not see (:func:`reportkit.run.runner.withheld_env`; names
    only), and those of them the script names (``os.environ["HF_TOKEN"]``, ``os.getenv("HF_TOKEN")``, ...):
    the ones a failure may be about."""
    from reportkit.run.runner import read_script, withheld_env

    names = withheld_env(spec.env)
    if not names:
        return [], []
    if source is None:
        try:
            source = read_script(spec.script)
        except UserError:
            source = ""
    needed = [n for n in names if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", source)]
    return names, needed


def withheld_hint(spec: RunSpec, source: str | None = None, sig: Signature | None = None) -> str:
    """What to tell the user when the script names withheld variables: which, and how to keep them
    (``--keep-env NAME``); "" when it names none."""
    _, needed = withheld_variables(spec, source)
    if not needed:
        return ""
    one = len(needed) == 1
    text = " ".join(filter(None, (sig.raw_message if sig else "", sig.message if sig else "")))
    named = [n for n in needed if n in text]
    because = f"; the failure names {', '.join(named)}" if named else ""
    return (f"{', '.join(needed)} {'is' if one else 'are'} withheld from the runs (secret-bearing; the script "
            f"reads {'it' if one else 'them'}{because}): if the script needs {'it' if one else 'them'}, pass "
            + " ".join(f"--keep-env {n}" for n in needed))


# --------------------------------------------------------------------------- the flakiness rule


def needs_confirming(rep: Reproduction, target: int = CONFIRM_RUNS) -> bool:
    """Does the rule ask for more runs? Only while every run so far failed the same way, short of
    ``target``, and not for a hang (each run of it costs the whole timeout)."""
    return rep.deterministic and rep.runs < target and rep.signature.kind is not FailureKind.HANG


def confirm(rep: Reproduction, check: Check, source: str | None = None, target: int = CONFIRM_RUNS,
            label: str = "", on_run: Callable[[int, RunResult, Signature], None] | None = None) -> Reproduction:
    """Sequential confirmation (in place, and returned): run ``check`` (the original, on its executor)
    until ``target`` runs in all failed the same way as ``rep``, stopping at the first that does not.
    ``on_run(i, result, signature)`` after each, ``i`` counting all of ``rep``'s runs from 0."""
    if not needs_confirming(rep, target):
        return rep
    check = check.expecting(rep.signature)
    admitted = _admission_run(check, source)
    while rep.runs < target:
        outcome, admitted = admitted or check.run(source), None
        rep.results.append(outcome.result)
        rep.signatures.append(outcome.signature)
        rep.runs += 1
        rep.confirm_runs += 1
        rep.failures += outcome.ok
        if on_run:
            on_run(rep.runs - 1, outcome.result, outcome.signature)
        if not outcome.ok:
            break
    rep.confirmed_on = label or check.executor.name
    return rep


def _admission_run(check: Check, source: str | None) -> Outcome | None:
    """The run of the original that admitted the check's warm executor (:func:`_check_warm`), judged by ``check``,
    when it ran the same spec and source on the preload the executor kept: one of the flakiness rule's runs on
    the candidates' executor, not made twice. Taken once (None after, and when there is none)."""
    admission = getattr(check.executor, "admission", None)
    if admission is None:
        return None
    check.executor.admission = None
    spec, text, result = admission
    if spec != check.run_spec or text != (source if source is not None else _read(check)):
        return None
    return check.judge(result)


def confirm_with_warm(rep: Reproduction, check: Check, source: str | None = None,
                      target: int = CONFIRM_RUNS, on_run=None) -> Reproduction:
    """:func:`confirm` on a warm executor checked against ``rep`` (cold when it cannot be had), closed after."""
    if not needs_confirming(rep, target):
        return rep
    own = check.sandbox is None
    sandbox = check.sandbox or Sandbox(check.spec.script, check.spec.isolate_file, check.spec.root)
    try:
        executor, _ = prepare_executor("warm", check.run_spec, source or _read(check), rep.signature, check.policy,
                                       sandbox, learn=False)
        with executor:
            return confirm(rep, dataclasses.replace(check, sandbox=sandbox, executor=executor), source, target,
                           on_run=on_run)
    finally:
        if own:
            sandbox.cleanup()


def _read(check: Check) -> str:
    from reportkit.run.runner import read_script

    return read_script(check.spec.script)


def establish(spec: RunSpec, policy: MatchPolicy, runs: int = 2, source: str | None = None,
              sandbox: Sandbox | None = None, on_run=None) -> Reproduction:
    """Run the original ``runs`` times (cold) and measure how reliably it fails the same way:
    :func:`reproduce` for callers that have no Check."""
    return reproduce(Check(spec, policy, sandbox), runs, source, on_run)


def establish_original(check: Check, runs: int = 2, source: str | None = None, *,
                       on_run: Callable[[int, RunResult, Signature], None] | None = None,
                       target: int = CONFIRM_RUNS) -> Reproduction:
    """The rule in full, for ``check`` and ``ci``: ``runs`` cold runs, then :func:`confirm_with_warm` up to
    ``target`` runs in all."""
    rep = reproduce(check, runs, source, on_run)
    return confirm_with_warm(rep, check, source, target, on_run=on_run)


def require_deterministic(rep: Reproduction, retries: int = 1, doing: str = "Minimizing",
                          hint: str = "make it deterministic (seeds, threads) or pass --retries N so that a "
                                      "candidate must fail N times out of N") -> None:
    """Raise :class:`~reportkit.errors.FlakyFailure` for a flaky failure unless ``retries`` > 1."""
    if rep.deterministic or retries > 1:
        return
    raise FlakyFailure(f"the failure is flaky: {rep.failures} of {rep.runs} runs failed the same way "
                       f"({rep.rate:.0%}). {doing} would chase noise; {hint}.", rep.failures, rep.runs)


def describe_runs(rep: Reproduction) -> str:
    """``7/7 runs failed the same way (deterministic)`` or ``... — FLAKY (50%)``."""
    return (f"{rep.failures}/{rep.runs} runs failed the same way"
            + (" (deterministic)" if rep.deterministic else f" — FLAKY ({rep.rate:.0%})"))


# --------------------------------------------------------------------------- admitting an executor


def prepare_executor(kind: str, spec: RunSpec, source: str, reference: Signature, policy: MatchPolicy,
                     sandbox: Sandbox, *, learn: bool = True, tree: ast.Module | None = None,
                     meanwhile: Callable[[], object] | None = None) -> tuple[Executor, str]:
    """The executor for a minimization's candidates, and a note on what was decided and why.

    ``"cold"`` is taken as is. ``"ray"`` (or a :class:`reportkit.run.ray_executor.RayConfig`): candidates on
    Ray slots, admitted by environment probe and a run of the original on each. ``"warm"``: a :class:`WarmExecutor` with the preload discovered from
    ``source``, kept only if it runs the original exactly like the cold runner did (``reference``, the
    signature established cold): ``same_failure`` both ways. With ``learn``, the modules that run
    imported beyond the preload are preloaded too, and the original is checked again with them (if
    that check fails, the discovered preload is kept). Anything else gives the cold executor and the
    reason. ``tree``: ``ast.parse(source)``, when the caller has it (the preload is read from it).
    ``meanwhile``: the caller's own work, done while the warm server starts (:meth:`WarmExecutor.start`).
    """
    if kind == "cold":
        return ColdExecutor(), ""
    if kind == "ray" or not isinstance(kind, str):  # a RayConfig (reportkit.run.ray_executor), or its defaults
        from reportkit.run.ray_executor import RayConfig, prepare_ray

        config = kind if not isinstance(kind, str) else RayConfig()
        return prepare_ray(config, spec, source, _differs(Check(spec, policy, sandbox, expected=reference)), sandbox)
    if kind != "warm":
        raise ValueError(f"unknown executor {kind!r} (warm, cold or ray)")
    why = warm_supported()
    if why:
        return ColdExecutor(), f"cold: {why}"
    warm = WarmExecutor(discover_preload(source, spec.script, tree))
    try:
        ok, note = _check_warm(warm, spec, source, reference, policy, sandbox, learn, meanwhile)
    except BaseException:
        warm.close()
        raise
    if not ok:
        warm.close()
        return ColdExecutor(), f"cold: {note}"
    return warm, note


def _same_both_ways(check: Check, result: RunResult) -> tuple[bool, Signature]:
    """Does ``result`` fail like the check's expected failure, and that failure like it (both ways)?"""
    outcome = check.judge(result)
    return outcome.ok and same_failure(outcome.signature, check.expected, check.policy), outcome.signature


def _differs(check: Check) -> Callable[[RunResult], str | None]:
    """How a run of the original made elsewhere (a Ray slot) differs from ``check``'s expected failure
    (None: it fails the same way, both ways)."""

    def differs(result: RunResult) -> str | None:
        same, sig = _same_both_ways(check, result)
        return None if same else f"the original ends there with [{sig.headline()}], here with [{check.expected.headline()}]"

    return differs


def _check_warm(warm: WarmExecutor, spec: RunSpec, source: str, reference: Signature, policy: MatchPolicy,
                sandbox: Sandbox, learn: bool, meanwhile: Callable[[], object] | None = None) -> tuple[bool, str]:
    if not warm.start(spec, meanwhile):
        return False, "; ".join(warm.notes) or "the warm server is unavailable"
    check = Check(spec, policy, sandbox, warm, expected=reference)
    if learn:
        result, learned = warm.learn(spec, source, sandbox)
    else:
        result, learned = check.run(source).result, []
    if result is None or warm.warm_runs == 0:
        return False, "; ".join(warm.notes) or "the warm server could not run the original"
    same, sig = _same_both_ways(check, result)
    if not same:
        return False, (f"the original under the warm executor ends with [{sig.headline()}], "
                       f"under the cold runner with [{reference.headline()}]")
    new = [m for m in learned if m not in warm.preload]
    if not (new and not result.timed_out):
        warm.admission = (check.run_spec, source, result)  # (on the preload kept: see _admission_run)
        return True, "; ".join(dict.fromkeys(warm.notes))
    note = _preload_learned(warm, check, source, new)
    if note is None:
        return False, "; ".join(warm.notes)
    return True, "; ".join(dict.fromkeys(warm.notes + [note]))


def _preload_learned(warm: WarmExecutor, check: Check, source: str, new: list[str]) -> str | None:
    """Preload ``new`` too if the original still fails the same way with them; the note (None: unusable)."""
    static = list(warm.preload)
    warm.set_preload(static + new)
    before = warm.warm_runs
    again = check.run(source).result if warm.start(check.spec) else None
    if again is not None and warm.warm_runs > before and _same_both_ways(check, again)[0]:
        warm.admission = (check.run_spec, source, again)  # (see _admission_run)
        return f"preloaded {len(new)} more modules the original imported at run time"
    warm.disabled = None
    warm.set_preload(static)
    if not warm.start(check.spec):
        return None
    return (f"preloading the {len(new)} modules the original imported at run time changed its "
            "outcome; only its own imports are preloaded")
