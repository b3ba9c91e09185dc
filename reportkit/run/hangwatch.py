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
   it: the location rule of :func:`reportkit.failure.signature.same_failure`, handed in as a
   :class:`BlockedFrame`) for ``hold`` seconds it ends the
   run exactly as a timeout does (faulthandler dump of all threads, then the kill); the verdict is then
   computed from that dump as usual, and the result is marked ``hang_early`` ("frame").

``hold`` = :data:`HOLD_FACTOR` x ``earlier``, at least :data:`HOLD_MIN` s: several times the longest
wait in that frame that the original itself came back from. (A multiple of ``reach`` would be safer
still but gains nothing when reaching the hang takes a while: example 06 needs 2.5-3.3 s warm on a
loaded 2-core machine, x3 is past its 10 s timeout.) The original is measured — and checked by the
executor — with the same rule applied to itself (:func:`measuring`), so that neither costs the timeout.

3. **The whole process quiet.** The sampler also says, per sample, whether *every* thread's innermost
   frame is still the same frame object on the same line (no call returned, no thread came or went),
   the process's CPU time and its number of child processes. A run is *quiet* while all threads are
   still, the process uses (almost) no CPU (:data:`QUIET_CPU`) and has no child processes: nothing in
   it can move on its own; only a timer (a ``sleep``, a wait with a timeout) or something outside
   (I/O, a signal) can wake it. The original's longest quiet stretch that did end (``quiet``, e.g. a
   consumer waiting while its producer sleeps) gives ``quiet_hold`` = :data:`HOLD_FACTOR` x ``quiet``,
   at least :data:`QUIET_MIN` s. A candidate quiet for ``quiet_hold`` is ended as a timeout ends it and
   judged from the dump: sitting in the original's blocked frame it hangs the same way (sooner than
   ``hold``: the quiet process is the stronger evidence), anywhere else it **hangs differently** (a
   lock taken twice, a ``join()`` of a blocked thread, interpreter shutdown waiting for a non-daemon
   thread that is blocked) and is not interesting — without waiting for ``--timeout``.

4. **Spinning.** The sampler also says whether the main thread's innermost frame is a new call (none
   of the last few frame objects it was in) and the main thread's own CPU time. A main thread that,
   outside the original's blocked frame, makes no sampled new call for ``spin_hold`` while busy
   (:data:`SPIN_CPU`) — a loop without calls, a generator resumed for ever — is ended and judged from
   the dump: it hangs differently. ``spin_hold`` = :data:`HOLD_FACTOR` x the original's longest such
   stretch (``stale``), at least :data:`HOLD_MIN` s.

Soundness. The two kinds of wrong early verdicts cost different things:

* A wrong **"differs"** (a quiet candidate that a timer longer than ``quiet_hold`` would have woken,
  or a loop without calls that would have ended after ``spin_hold``, and that would then have hung in
  the original's frame before the timeout) only rejects a candidate that was interesting: the reducer
  keeps a larger program. It never makes the result wrong — the result is built only from candidates
  judged to hang the same way. No sample pattern tells a loop that never ends from one that ends
  later (a loop over 10^8 items repeats the same lines too), so the spin rule can only be this kind of
  verdict, never a "same hang" one.
* A wrong **"same"** (a wait in the original's frame longer than ``hold``/``quiet_hold`` that would
  still have returned) could accept a candidate that does not hang. These are **re-checked**: the
  written result is re-run at the end with the whole ``--timeout`` and no watch (``_verify`` in
  :mod:`reportkit.reduce.minimize`), so such a result is reported as not verified, never as a hang it is not.

Both holds are multiples of what the original itself did: candidates execute the original's code
(shrunk), so their timers and loops are the original's; a longer one must come from the shrinking
(a loop bound or a duration changed) or lie past the point where the original hung. Measuring the
original (``relative``) uses the frame rule only. Still decided by ``--timeout``: a candidate with a
thread that keeps moving (a heartbeat) while its main thread is blocked elsewhere, one with child
processes, and a main thread that keeps making new calls without ever reaching the blocked frame.
"""

from __future__ import annotations

import linecache
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, NamedTuple, Protocol

from reportkit.io import RUN_FILE_LIMIT, open_regular, read_run_text
from reportkit.run.spec import Frame, RunSpec

SAMPLE_ENV = "REPORTKIT_SAMPLE_STACKS"  # "INTERVAL,PATH"; popped by _boot.py before the script runs
SAMPLE_INTERVAL = 0.05  # seconds between samples when measuring the original
HOLD_FACTOR = 5.0  # a candidate must sit in the blocked frame this many times the original's longest earlier wait there
HOLD_MIN = 1.0  # ... and never less than this (sampling granularity, scheduling noise)
QUIET_MIN = 0.5  # a quiet process (see the module doc): at least this long, and HOLD_FACTOR x the original's quiet
QUIET_CPU = 0.1  # "no CPU": at most this many CPU seconds per second (all threads; the sampler's own cost is ~1%)
SPIN_CPU = 0.1  # "busy": the main thread used at least this many CPU seconds per second (a blocked one: none;
# a spinning one on a loaded machine: 0.2-0.3 measured with load 6 on 2 cores)


class BlockedFrame(Protocol):
    """The original's blocked frame, as the hang signature compares frames (:class:`reportkit.failure.hang.HangSite`).
    It travels with the :class:`RunSpec` (to a Ray slot too): picklable, printable."""

    def matcher(self, workdir: str, script: str) -> Callable[[Frame], bool]:
        """Is a frame of a run in ``workdir`` (the script's copy at ``script``) this one?"""


@dataclass(frozen=True)
class HangWatch:
    """What a candidate run watches for: the original's blocked frame, held for ``hold`` seconds."""

    location: BlockedFrame  # the original's hang location (its signature's ``location``)
    hold: float
    interval: float  # sampling period of the candidate's run
    reach: float = 0.0  # the original's time to reach the frame (for notes)
    earlier: float = 0.0  # the original's longest earlier wait in that frame (for notes)
    # running the original itself: the hold follows from its own earlier waits so far (it is known to
    # hang there; this only ends the measuring run early, with the rule candidates get)
    relative: bool = False
    # a whole process quiet this long is decided (in the original's frame: the same hang; elsewhere: a
    # different one); 0: off (relative runs, or a watch from before quiet samples)
    quiet_hold: float = 0.0
    quiet: float = 0.0  # the original's longest quiet stretch that ended (for notes)
    # a main thread busy (CPU) this long without a sampled new call, outside the blocked frame, is
    # decided (a different hang: a spin); 0: off
    spin_hold: float = 0.0
    stale: float = 0.0  # the original's longest such stretch (for notes)

    def describe(self) -> str:
        text = (f"hangs decided after {self.hold:.1f} s in the original's blocked frame ({self.location}), not at "
                f"the timeout (the original gets there after {self.reach:.2f} s; its longest earlier wait there "
                f"{self.earlier:.2f} s, x{HOLD_FACTOR:g}, at least {HOLD_MIN:g} s)")
        if self.quiet_hold > 0:
            text += (f"; a run with every thread blocked and no CPU for {self.quiet_hold:.1f} s is decided then, "
                     f"hanging the same way in that frame or differently elsewhere (the original's longest quiet "
                     f"stretch {self.quiet:.2f} s, x{HOLD_FACTOR:g}, at least {QUIET_MIN:g} s)")
        if self.spin_hold > 0:
            text += (f"; a main thread spinning for {self.spin_hold:.1f} s without a new call outside that frame "
                     f"hangs differently (the original's longest such stretch {self.stale:.2f} s, x{HOLD_FACTOR:g}, "
                     f"at least {HOLD_MIN:g} s)")
        return text


def samples_path(meta: Path) -> Path:
    return meta / "samples.txt"


def sample_env(spec: RunSpec, meta: Path) -> dict[str, str]:
    """Environment entries that make ``_boot.py`` sample the stacks of this run (none if not asked)."""
    interval = spec.hang_watch.interval if spec.hang_watch is not None else spec.sample_stacks
    if not interval or interval <= 0:
        return {}
    return {SAMPLE_ENV: f"{interval:g},{samples_path(meta)}"}


class Sample(NamedTuple):
    t: float  # seconds since the sampler started
    call: int  # numbers the main thread's frame objects (0: no frame)
    key: tuple | None  # the main thread's innermost frame: (file, line, function)
    still: bool = False  # every thread in the same frame object on the same line as at the previous sample
    cpu: float = -1.0  # the process's CPU seconds (-1: not sampled)
    kids: int = -1  # live child processes (-1: unknown)
    fresh: bool = True  # the main thread's innermost frame is a new call (none of its last few frames)
    main_cpu: float = -1.0  # the main thread's CPU seconds (-1: unknown)


def parse_samples(text: str) -> list[Sample]:
    """One :class:`Sample` per complete sample line, oldest first (see ``_boot._sample_main_thread``)."""
    out: list[Sample] = []
    for line in text.splitlines():
        parts = line.split("\t")
        try:
            t = float(parts[0])
        except ValueError:
            continue
        if len(parts) in (5, 10) and parts[1].isdigit() and parts[3].isdigit():
            sample = Sample(t, int(parts[1]), (parts[2], int(parts[3]), parts[4]))
            if len(parts) == 10:
                try:
                    sample = sample._replace(still=parts[5] == "1", cpu=float(parts[6]), kids=int(parts[7]),
                                             fresh=parts[8] != "0", main_cpu=float(parts[9]))
                except ValueError:
                    pass
            out.append(sample)
        elif parts[1:] == ["-"]:
            out.append(Sample(t, 0, None))
    return out


def quiet_since(previous: Sample, sample: Sample) -> bool:
    """Was the process quiet from ``previous`` to ``sample`` (the next one)? Every thread still, no
    child process, (almost) no CPU."""
    return (sample.still and sample.kids == 0 and previous.cpu >= 0 and sample.cpu >= 0
            and sample.cpu - previous.cpu <= QUIET_CPU * max(sample.t - previous.t, 0.0))


def _stretches(samples: list, holds: Callable[[int], bool]) -> list[tuple[int, int]]:
    """``(first, last)`` sample indices of each maximal run of ``i`` for which ``holds(i)``: from the
    sample before the first such ``i`` to the last one."""
    out: list[tuple[int, int]] = []
    begin = None
    for i in range(1, len(samples)):
        if holds(i):
            begin = i - 1 if begin is None else begin
        elif begin is not None:
            out.append((begin, i - 1))
            begin = None
    if begin is not None:
        out.append((begin, len(samples) - 1))
    return out


def quiet_stretches(samples: list[Sample]) -> list[tuple[int, int]]:
    """``(first, last)`` sample indices of each maximal quiet stretch: quiet from sample ``first`` to ``last``."""
    return _stretches(samples, lambda i: quiet_since(samples[i - 1], samples[i]))


def stale_stretches(samples: list[Sample], blocked: Callable[[tuple | None], bool]) -> list[tuple[int, int]]:
    """``(first, last)`` sample indices of each maximal stretch in which the main thread made no new
    call that was sampled and was not in the blocked frame: from sample ``first`` (where it was last
    in a new call, or entered the stretch) to ``last``."""
    return _stretches(samples, lambda i: (not samples[i].fresh and samples[i].key is not None
                                          and not blocked(samples[i].key)))


def block_timing(meta: Path, interval: float) -> tuple[float, float, float, float] | None:
    """From a finished sampled run's files: (reach, earlier, quiet, stale) — when the main thread entered
    the innermost frame it was still in at the last sample, its longest earlier unbroken stay in that
    same frame, the longest quiet stretch (see the module doc) that ended, and the longest stretch in
    which the main thread made no sampled new call outside that frame, in seconds (None: no samples)."""
    text = read_run_text(samples_path(meta))
    samples = parse_samples(text[:text.rfind("\n") + 1])  # a line cut short by the kill is left out
    if not samples or samples[-1].key is None:
        return None
    final_call, final = samples[-1].call, samples[-1].key
    first = len(samples) - 1
    while first > 0 and samples[first - 1][1:3] == (final_call, final):
        first -= 1
    longest = 0.0
    since = None
    previous = None
    for t, call, key, *_ in samples[:first]:
        if key == final:
            since = t if since is None or call != previous else since
            longest = max(longest, t - since + interval)
        else:
            since = None
        previous = call
    reach = samples[first - 1].t if first > 0 else 0.0  # entered between that sample and the next
    quiet = 0.0
    for begin, last in quiet_stretches(samples):
        if last < len(samples) - 1:  # it ended: something moved after it (the final stretch is the hang)
            quiet = max(quiet, samples[last].t - samples[begin].t + 2 * interval)  # +: it began/ended unseen
    stale = max((samples[last].t - samples[begin].t + 2 * interval
                 for begin, last in stale_stretches(samples, lambda key: key == final)), default=0.0)
    return reach, longest, quiet, stale


class Watcher:
    """Follows a running candidate's samples: has its main thread sat in the watched frame long enough,
    or has the whole process been quiet long enough? (see the module doc)"""

    def __init__(self, watch: HangWatch, meta: Path, workdir: Path, script: Path) -> None:
        self.watch = watch
        self.path = samples_path(meta)
        self._at = watch.location.matcher(str(workdir), str(script))
        self.offset = 0
        self.pending = b""  # bytes after the last complete line
        self.since: float | None = None  # time of the first sample of the current stay in the frame
        self.call = -1  # the call (frame object) of the current stay
        self.last = 0.0  # time of the last sample
        self.longest = 0.0  # the longest stay that ended (relative mode)
        self.previous: Sample | None = None
        self.quiet_from: float | None = None  # time of the sample the current quiet stretch began at
        self.stale_from: Sample | None = None  # the sample the current stretch without a new call began at
        self.reason = ""  # why poll() said True: "frame", "quiet" or "spin"
        self._seen: dict[tuple, bool] = {}

    def _matches(self, key: tuple | None) -> bool:
        if key is None:
            return False
        if key not in self._seen:
            file, line, function = key
            text = linecache.getline(file, line).strip() if line else ""
            frame = Frame(file=file, line=line, function=function, text=text)
            self._seen[key] = self._at(frame)
        return self._seen[key]

    def poll(self) -> bool:
        """Read what was sampled since the last call; True once the run is decided (``reason`` says how)."""
        try:
            with open_regular(self.path) as fh:  # meta/ is the run's: no link, no FIFO (io.open_regular)
                fh.seek(self.offset)
                raw = fh.read(RUN_FILE_LIMIT)
                self.offset = fh.tell()
        except OSError:
            return False
        data = self.pending + raw
        cut = data.rfind(b"\n") + 1
        complete, self.pending = data[:cut].decode("utf-8", errors="replace"), data[cut:]
        interval = self.watch.interval
        for sample in parse_samples(complete):
            t, call, key = sample.t, sample.call, sample.key
            matches = self._matches(key)
            if self.since is not None and (call != self.call or not matches):
                self.longest = max(self.longest, self.last - self.since)  # that stay ended
                self.since = None
            self.last = t
            if self.since is None and matches:
                self.since, self.call = t, call
            if self.previous is not None and quiet_since(self.previous, sample):
                self.quiet_from = self.previous.t if self.quiet_from is None else self.quiet_from
            else:
                self.quiet_from = None
            if self.previous is not None and not sample.fresh and key is not None and not matches:
                self.stale_from = self.previous if self.stale_from is None else self.stale_from
            else:
                self.stale_from = None
            self.previous = sample
        quiet_hold = 0.0 if self.watch.relative else self.watch.quiet_hold
        if quiet_hold > 0 and self.quiet_from is not None and self.last - self.quiet_from >= quiet_hold:
            self.reason = "quiet"
            return True
        if self.spinning():
            self.reason = "spin"
            return True
        if self.since is None:
            return False
        hold = hold_for(self.longest + interval) if self.watch.relative else self.watch.hold
        if self.last - self.since + interval >= hold:
            self.reason = "frame"
            return True
        return False

    def spinning(self) -> bool:
        """The main thread, outside the watched frame, has made no sampled new call for ``spin_hold`` and
        was busy meanwhile (its own CPU time, at least :data:`SPIN_CPU` of the wall time)."""
        begin, end = self.stale_from, self.previous
        if self.watch.relative or self.watch.spin_hold <= 0 or begin is None or end is None:
            return False
        span = end.t - begin.t
        return (span >= self.watch.spin_hold and begin.main_cpu >= 0 and end.main_cpu >= 0
                and end.main_cpu - begin.main_cpu >= SPIN_CPU * span)


def hold_for(earlier: float) -> float:
    """How long a run must sit in the blocked frame, when the original's longest earlier wait there was
    ``earlier`` seconds."""
    return max(HOLD_FACTOR * earlier, HOLD_MIN)


def quiet_hold_for(quiet: float) -> float:
    """How long a whole process must be quiet to be decided, when the original's longest quiet stretch
    that ended was ``quiet`` seconds."""
    return max(HOLD_FACTOR * quiet, QUIET_MIN)


def wait_watching(spec: RunSpec, meta: Path, workdir: Path, script: Path,
                  wait: Callable[[float], bool]) -> tuple[bool, str]:
    """Wait for a run to end: ``wait(seconds)`` is True once it ended. Returns (ended, hang_early):
    ``hang_early`` is why the watch decided it ("frame": held in the original's blocked frame; "quiet":
    the whole process quiet; "spin": the main thread busy without new calls), "" when it did not;
    (False, "") is the plain timeout."""
    watch = spec.hang_watch
    if watch is None:
        return wait(spec.timeout), ""
    deadline = time.monotonic() + spec.timeout
    watcher = Watcher(watch, meta, workdir, script)
    step = max(0.02, min(watch.interval, 0.25))
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return False, ""
        if wait(min(step, left)):
            return True, ""
        if watcher.poll():
            return False, watcher.reason
