"""Benchmark: minimizing hanging scripts with and without the hang watch (:mod:`reportkit.run.hangwatch`).

For each script, in one run and with the same settings: the original is established once (its
``--runs``), then :func:`reportkit.reduce.minimize.minimize` runs twice on scratch copies of the script's
directory — **before** (``hang_watch=False``: every hanging candidate costs the timeout) and
**after** (``hang_watch=True``: a candidate sitting in the original's blocked frame for the hold time
is decided then, and so is one blocked elsewhere with the whole process quiet, or spinning). Reported:
wall time, tests, result lines, the ratio before/after, whether the two results are identical (they
must be), and how the "after" runs that did not end by themselves ended (the watch's rule and verdict,
or the timeout). Targets: ratio >= 4 and identical results on every script.

Scripts: ``examples/06_threaded_pipeline_hang/sensor_pipeline.py`` (torch, threads) and
``benchmarks/hang_corpus/prefetch_loader.py`` (pure Python: a prefetch thread dies on a corrupt shard
header and the consumer waits forever), both with ``--timeout 10`` as example 06's README uses; the
corpus hangs ``benchmarks/corpus/c01-12-hang-lock-reentry`` and ``c01-13-hang-queue-join`` with the 5 s of
their ``case.toml``. ``--timeout`` sets one timeout for all.

    python benchmarks/hang_bench.py [--scripts 06,prefetch,13] [--timeout S] [--jobs 1] [--json OUT]

Cost: the "before" runs pay the timeout on every hanging candidate (example 06: ~10 min at -j 1).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from reportkit.failure.check import establish
from reportkit.failure.signature import MatchPolicy
from reportkit.reduce.minimize import MinimizeOptions, minimize
from reportkit.run.runner import target_spec

REPO = Path(__file__).resolve().parent.parent
SCRIPTS = {  # name -> (script, its timeout)
    "06": (REPO / "examples" / "06_threaded_pipeline_hang" / "sensor_pipeline.py", 10.0),
    "prefetch": (REPO / "benchmarks" / "hang_corpus" / "prefetch_loader.py", 10.0),
    "12": (REPO / "benchmarks" / "corpus" / "c01-12-hang-lock-reentry" / "metrics_logger.py", 5.0),
    "13": (REPO / "benchmarks" / "corpus" / "c01-13-hang-queue-join" / "prefetch_shards.py", 5.0),
}
RATIO_TARGET = 4.0
ESTABLISH_TIMEOUT = 30.0


def run_one(name: str, script: Path, timeout: float, jobs: int, executor: str) -> dict:
    scratch = Path(tempfile.mkdtemp(prefix=f"hang-bench-{name}-"))
    try:
        copy = scratch / "src"
        shutil.copytree(script.parent, copy, ignore=shutil.ignore_patterns("*.min.py", "__pycache__"))
        target = copy / script.name
        spec, source = target_spec(str(target), [], timeout=timeout)
        policy = MatchPolicy()
        # the original is established with a generous timeout (a cold `import torch` on a loaded machine can
        # take most of 10 s, and a run cut short there "hangs" in the import); candidates get --timeout
        rep = establish(replace(spec, timeout=max(timeout, ESTABLISH_TIMEOUT)), policy, runs=1)
        if rep.signature.kind != "hang":
            raise SystemExit(f"{name}: the original does not hang ({rep.signature.headline()})")
        row: dict = {"script": name, "signature": rep.signature.headline(), "timeout": timeout}
        for label, watch in (("before", False), ("after", True)):
            out = scratch / f"{label}.py"
            t0 = time.monotonic()
            report = minimize(spec, source, rep, policy, MinimizeOptions(output=out, jobs=jobs, executor=executor,
                                                                         hang_watch=watch))
            wall = time.monotonic() - t0
            row[label] = {"wall": round(wall, 1), "tests": report.tests_run, "lines": report.lines_after,
                          "verified": report.verified, "note": report.executor_note,
                          "median_test": round(report.test_time_median, 2), "result": out.read_text(),
                          "ended": report.hang_ended}
            print(f"  {name} {label:6}: {wall:7.1f} s, {report.tests_run} tests, {report.lines_after} lines, "
                  f"verified {report.verified}, ended {report.hang_ended}", file=sys.stderr, flush=True)
        row["ratio"] = round(row["before"]["wall"] / row["after"]["wall"], 2)
        row["identical"] = row["before"]["result"] == row["after"]["result"]
        return row
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scripts", default="06,prefetch,13", help="comma-separated: " + ", ".join(SCRIPTS))
    parser.add_argument("--timeout", type=float, default=None, help="one timeout for all (default: each script's own)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--executor", default="warm", choices=("warm", "cold"))
    parser.add_argument("--json", default=None)
    opts = parser.parse_args(argv)
    names = [n.strip() for n in opts.scripts.split(",") if n.strip()]
    unknown = [n for n in names if n not in SCRIPTS]
    if unknown:
        parser.error(f"unknown script(s) {', '.join(unknown)} (choose from {', '.join(SCRIPTS)})")
    rows = [run_one(n, SCRIPTS[n][0], opts.timeout or SCRIPTS[n][1], opts.jobs, opts.executor) for n in names]
    print(f"{'script':10} {'before s':>9} {'after s':>8} {'ratio':>6} {'tests b/a':>10} {'lines':>6} identical")
    ok = True
    for r in rows:
        b, a = r["before"], r["after"]
        print(f"{r['script']:10} {b['wall']:9.1f} {a['wall']:8.1f} {r['ratio']:6.2f} {b['tests']:>4}/{a['tests']:<5} "
              f"{a['lines']:>6} {r['identical']}")
        print(f"{'':10} after: {', '.join(f'{k} {v}' for k, v in sorted(a['ended'].items())) or 'nothing ended early'}")
        ok = ok and r["ratio"] >= RATIO_TARGET and r["identical"] and a["verified"] is not False
    print(f"target: ratio >= {RATIO_TARGET:g} and identical results on every script: {'PASS' if ok else 'FAIL'}")
    if opts.json:
        Path(opts.json).write_text(json.dumps({"timeout": opts.timeout, "jobs": opts.jobs, "executor": opts.executor,
                                               "rows": rows}, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
