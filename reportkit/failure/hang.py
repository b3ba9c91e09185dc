"""Arming the hang watch for a hanging original: the judging half of :mod:`reportkit.run.hangwatch`.

The run stage samples stacks and ends a run that sits in a given frame (``hangwatch``); what that frame
is, and whether a sampled run of the original hung the same way, is decided here, with the signature's
rules (:func:`~reportkit.failure.signature.same_failure`). See the module doc of ``hangwatch``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from reportkit.failure.signature import (
    FailureKind,
    Location,
    MatchPolicy,
    Normalizer,
    Reproduction,
    same_failure,
    same_location,
    signature_of,
)
from reportkit.run.hangwatch import SAMPLE_INTERVAL, HangWatch, hold_for, quiet_hold_for
from reportkit.run.runner import Sandbox, run_script
from reportkit.run.spec import Frame, RunResult, RunSpec


@dataclass(frozen=True)
class HangSite:
    """The original's blocked frame (its hang signature's ``location``), matched as the signature matches it."""

    location: Location

    def __str__(self) -> str:
        return str(self.location)

    def matcher(self, workdir: str, script: str) -> Callable[[Frame], bool]:
        norm = Normalizer(workdir, script)
        return lambda frame: same_location(self.location, norm.location(frame))


def measuring(run_spec: RunSpec, rep: Reproduction, policy: MatchPolicy) -> RunSpec:
    """For a hanging original: ``run_spec`` with a watch that ends a run *of the original* once it has
    sat in its blocked frame :func:`hold_for` its own longest earlier wait there (it is known to hang
    there), so that checking the original (e.g. the warm executor's check) does not cost the timeout."""
    sig = rep.signature
    if sig.kind != FailureKind.HANG or sig.location is None or not policy.strict:
        return run_spec
    return replace(run_spec, hang_watch=HangWatch(location=HangSite(sig.location), hold=0.0, interval=SAMPLE_INTERVAL,
                                                  reach=0.0, relative=True))


def arm(run_spec: RunSpec, rep: Reproduction, policy: MatchPolicy, run: Callable[[RunSpec], RunResult]
        ) -> tuple[RunSpec, str]:
    """For a hanging original: measure its waits in the blocked frame (one sampled run through
    ``run``, i.e. the executor the candidates use) and return the spec with its :class:`HangWatch`,
    and a note. Other failures, or when nothing would be gained: the spec unchanged."""
    sig = rep.signature
    if sig.kind != FailureKind.HANG or sig.location is None or not policy.strict:
        return run_spec, ""
    result = run(replace(measuring(run_spec, rep, policy), keep_workdir=False))
    if not same_failure(sig, signature_of(result, policy), policy):
        return run_spec, "hang watch off: the sampled run of the original did not hang the same way"
    if result.block_timing is None:
        return run_spec, "hang watch off: no stack samples from the original (faulthandler unavailable?)"
    reach, earlier, quiet, stale = result.block_timing
    hold = hold_for(earlier)
    if hold >= 0.8 * run_spec.timeout:
        return run_spec, (f"hang watch off: the original waited up to {earlier:.1f} s in its blocked frame before "
                          f"it hung there; holding {hold:.1f} s would gain little on the {run_spec.timeout:g} s timeout")
    quiet_hold = quiet_hold_for(quiet)
    if quiet_hold >= 0.8 * run_spec.timeout:
        quiet_hold = 0.0  # the original was quiet too long before it hung: only the frame rule
    spin_hold = hold_for(stale)
    if spin_hold >= 0.8 * run_spec.timeout:
        spin_hold = 0.0  # the original itself went that long without a new call: only the other rules
    watch = HangWatch(location=HangSite(sig.location), hold=hold, interval=max(0.02, min(0.25, min(hold, quiet_hold or hold) / 10)),
                      reach=reach, earlier=earlier, quiet_hold=quiet_hold, quiet=quiet, spin_hold=spin_hold,
                      stale=stale)
    return replace(run_spec, hang_watch=watch), watch.describe()


def run_sampled(executor, run_spec: RunSpec, source: str, sandbox: Sandbox) -> Callable[[RunSpec], RunResult]:
    """``arm``'s ``run``: the original through ``executor`` (None: the cold runner)."""
    if executor is None:
        return lambda spec: run_script(spec, source, sandbox)
    return lambda spec: executor.run(spec, source, sandbox)
