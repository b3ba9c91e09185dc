"""Hangs decided without waiting for the timeout: the main thread's stack, sampled while a run goes.

A hanging original costs ``--timeout`` once; without this module every hanging *candidate* costs it
too (a minimization asks hundreds of them). Instead:

1. The original is run once more with **stack sampling** on (:data:`SAMPLE_ENV`, read and removed by
   ``_boot.py``): a raw thread of the boot (invisible to the script's ``threading``) appends the main
   thread's innermost frame, with the time, to ``meta/samples.txt`` every ``interval`` seconds (read
   under the GIL: faulthandler's watchdog dumps without it and crashed the threaded example 06 within
   seconds when dumping every 50 ms). From those samples (:func:`block_timing`):
   how long the script took to reach the frame it then stayed blocked in (``reach``: the start of the
   last unbroken run of samples with the same main-thread innermost frame), and the longest time its
   main thread sat in that same frame *before* (``earlier``: transient waits there that did return —
   e.g. a consumer's ``queue.get()`` while its producers still produced).
2. Candidates run with a :class:`HangWatch`: the executor polls the samples while it waits, and once
   the main thread has sat in the **original's blocked frame** (compared as the hang signature compares
   it: the location rule of :func:`reportkit.signature.same_failure`) for ``hold`` seconds it ends the
   run exactly as a timeout does (faulthandler dump of all threads, then the kill); the verdict is then
   computed from that dump as usual, and the result is marked ``hang_early``.

``hold`` = :data:`HOLD_FACTOR` x ``earlier``, at least :data:`HOLD_MIN` s: several times the longest
wait in that frame that the original itself came back from. (A multiple of ``reach`` would be safer
still but gains nothing when reaching the hang takes a while: example 06 needs 2.5-3.3 s warm on a
loaded 2-core machine, x3 is past its 10 s timeout.) The original is measured — and checked by the
executor — with the same rule applied to itself (:func:`measuring`), so that neither costs the timeout.

A candidate that finishes, fails otherwise, or blocks or spins anywhere else is decided as before (by
its end, or by the timeout). A wait in the blocked frame that would have returned after more than
``hold`` seconds but before the timeout is the one case judged differently.
"""

from __future__ import annotations

import linecache
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from reportkit.runner import Frame, RunResult, RunSpec, Sandbox
from reportkit.signature import FailureKind

if TYPE_CHECKING:
    from reportkit.signature import Location, MatchPolicy, Reproduction

SAMPLE_ENV = "REPORTKIT_SAMPLE_STACKS"  # "INTERVAL,PATH"; popped by _boot.py before the script runs
SAMPLE_INTERVAL = 0.05  # seconds between samples when measuring the original
HOLD_FACTOR = 5.0  # a candidate must sit in the blocked frame this many times the original's longest earlier wait there
HOLD_MIN = 1.0  # ... and never less than this (sampling granularity, scheduling noise)


@dataclass(frozen=True)
class HangWatch:
    """What a candidate run watches for: the original's blocked frame, held for ``hold`` seconds."""

    location: Location  # the original's hang location (its signature's ``location``)
    hold: float
    interval: float  # sampling period of the candidate's run
    reach: float = 0.0  # the original's time to reach the frame (for notes)
    earlier: float = 0.0  # the original's longest earlier wait in that frame (for notes)
    # running the original itself: the hold follows from its own earlier waits so far (it is known to
    # hang there; this only ends the measuring run early, with the rule candidates get)
    relative: bool = False

    def describe(self) -> str:
        return (f"hangs decided after {self.hold:.1f} s in the original's blocked frame ({self.location}), not at "
                f"the timeout (the original gets there after {self.reach:.2f} s; its longest earlier wait there "
                f"{self.earlier:.2f} s, x{HOLD_FACTOR:g}, at least {HOLD_MIN:g} s)")


def samples_path(meta: Path) -> Path:
    return meta / "samples.txt"


def sample_env(spec: RunSpec, meta: Path) -> dict[str, str]:
    """Environment entries that make ``_boot.py`` sample the stacks of this run (none if not asked)."""
    interval = spec.hang_watch.interval if spec.hang_watch is not None else spec.sample_stacks
    if not interval or interval <= 0:
        return {}
    return {SAMPLE_ENV: f"{interval:g},{samples_path(meta)}"}


def parse_samples(text: str) -> list[tuple[float, int, tuple | None]]:
    """``(seconds, call, (file, line, function) or None)`` per complete sample line, oldest first;
    ``call`` numbers the frame objects (a returned wait entered again is another call)."""
    out: list[tuple[float, int, tuple | None]] = []
    for line in text.splitlines():
        parts = line.split("\t")
        try:
            t = float(parts[0])
        except ValueError:
            continue
        if len(parts) == 5 and parts[1].isdigit() and parts[3].isdigit():
            out.append((t, int(parts[1]), (parts[2], int(parts[3]), parts[4])))
        elif parts[1:] == ["-"]:
            out.append((t, 0, None))
    return out


def block_timing(meta: Path, interval: float) -> tuple[float, float] | None:
    """From a finished sampled run's files: (reach, earlier) — when the main thread entered the innermost
    frame it was still in at the last sample, and its longest earlier unbroken stay in that same frame,
    in seconds (None: no samples)."""
    path = samples_path(meta)
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    samples = parse_samples(text[:text.rfind("\n") + 1])  # a line cut short by the kill is left out
    if not samples or samples[-1][2] is None:
        return None
    _, final_call, final = samples[-1]
    first = len(samples) - 1
    while first > 0 and samples[first - 1][1:] == (final_call, final):
        first -= 1
    longest = 0.0
    since = None
    previous = None
    for t, call, key in samples[:first]:
        if key == final:
            since = t if since is None or call != previous else since
            longest = max(longest, t - since + interval)
        else:
            since = None
        previous = call
    reach = samples[first - 1][0] if first > 0 else 0.0  # entered between that sample and the next
    return reach, longest


class Watcher:
    """Follows a running candidate's samples: has its main thread sat in the watched frame long enough?"""

    def __init__(self, watch: HangWatch, meta: Path, workdir: Path, script: Path) -> None:
        from reportkit.signature import Normalizer

        self.watch = watch
        self.path = samples_path(meta)
        self.norm = Normalizer(str(workdir), str(script))
        self.offset = 0
        self.pending = ""  # text after the last complete line
        self.since: float | None = None  # time of the first sample of the current stay in the frame
        self.call = -1  # the call (frame object) of the current stay
        self.last = 0.0  # time of the last sample
        self.longest = 0.0  # the longest stay that ended (relative mode)
        self._seen: dict[tuple, bool] = {}

    def _matches(self, key: tuple | None) -> bool:
        from reportkit.signature import _same_location

        if key is None:
            return False
        if key not in self._seen:
            file, line, function = key
            text = linecache.getline(file, line).strip() if line else ""
            frame = Frame(file=file, line=line, function=function, text=text)
            self._seen[key] = _same_location(self.watch.location, self.norm.location(frame))
        return self._seen[key]

    def poll(self) -> bool:
        """Read what was sampled since the last call; True once the hold time is reached."""
        try:
            with open(self.path, encoding="utf-8", errors="replace") as fh:
                fh.seek(self.offset)
                data = fh.read()
                self.offset = fh.tell()
        except OSError:
            return False
        text = self.pending + data
        cut = text.rfind("\n") + 1
        complete, self.pending = text[:cut], text[cut:]
        interval = self.watch.interval
        for t, call, key in parse_samples(complete):
            if self.since is not None and (call != self.call or not self._matches(key)):
                self.longest = max(self.longest, self.last - self.since)  # that stay ended
                self.since = None
            self.last = t
            if self.since is None and self._matches(key):
                self.since, self.call = t, call
        if self.since is None:
            return False
        hold = hold_for(self.longest + interval) if self.watch.relative else self.watch.hold
        return self.last - self.since + interval >= hold


def hold_for(earlier: float) -> float:
    """How long a run must sit in the blocked frame, when the original's longest earlier wait there was
    ``earlier`` seconds."""
    return max(HOLD_FACTOR * earlier, HOLD_MIN)


def wait_watching(spec: RunSpec, meta: Path, workdir: Path, script: Path,
                  wait: Callable[[float], bool]) -> tuple[bool, bool]:
    """Wait for a run to end: ``wait(seconds)`` is True once it ended. Returns (ended, hang_early);
    (False, False) is the plain timeout."""
    watch = spec.hang_watch
    if watch is None:
        return wait(spec.timeout), False
    deadline = time.monotonic() + spec.timeout
    watcher = Watcher(watch, meta, workdir, script)
    step = max(0.02, min(watch.interval, 0.25))
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False, False
        if wait(min(step, left)):
            return True, False
        if watcher.poll():
            return False, True


def measuring(run_spec: RunSpec, rep: Reproduction, policy: MatchPolicy) -> RunSpec:
    """For a hanging original: ``run_spec`` with a watch that ends a run *of the original* once it has
    sat in its blocked frame :func:`hold_for` its own longest earlier wait there (it is known to hang
    there), so that checking the original (e.g. the warm executor's check) does not cost the timeout."""
    sig = rep.signature
    if sig.kind != FailureKind.HANG or sig.location is None or not policy.strict:
        return run_spec
    return replace(run_spec, hang_watch=HangWatch(location=sig.location, hold=0.0, interval=SAMPLE_INTERVAL,
                                                  reach=0.0, relative=True))


def arm(run_spec: RunSpec, rep: Reproduction, policy: MatchPolicy, run: Callable[[RunSpec], RunResult]
        ) -> tuple[RunSpec, str]:
    """For a hanging original: measure its waits in the blocked frame (one sampled run through
    ``run``, i.e. the executor the candidates use) and return the spec with its :class:`HangWatch`,
    and a note. Other failures, or when nothing would be gained: the spec unchanged."""
    from reportkit.signature import same_failure, signature_of

    sig = rep.signature
    if sig.kind != FailureKind.HANG or sig.location is None or not policy.strict:
        return run_spec, ""
    result = run(replace(measuring(run_spec, rep, policy), keep_workdir=False))
    if not same_failure(sig, signature_of(result, policy), policy):
        return run_spec, "hang watch off: the sampled run of the original did not hang the same way"
    if result.block_timing is None:
        return run_spec, "hang watch off: no stack samples from the original (faulthandler unavailable?)"
    reach, earlier = result.block_timing
    hold = hold_for(earlier)
    if hold >= 0.8 * run_spec.timeout:
        return run_spec, (f"hang watch off: the original waited up to {earlier:.1f} s in its blocked frame before "
                          f"it hung there; holding {hold:.1f} s would gain little on the {run_spec.timeout:g} s timeout")
    watch = HangWatch(location=sig.location, hold=hold, interval=max(0.02, min(0.25, hold / 10)), reach=reach,
                      earlier=earlier)
    return replace(run_spec, hang_watch=watch), watch.describe()


def run_sampled(executor, run_spec: RunSpec, source: str, sandbox: Sandbox) -> Callable[[RunSpec], RunResult]:
    """``arm``'s ``run``: the original through ``executor`` (None: the cold runner)."""
    from reportkit.runner import run_script

    if executor is None:
        return lambda spec: run_script(spec, source, sandbox)
    return lambda spec: executor.run(spec, source, sandbox)
