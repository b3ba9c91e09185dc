"""Does a change of the reducer leave its results alone? Byte-identical reproducers, no more tests.

Minimizes the same cases with this checkout and with a baseline checkout (``--baseline DIR``, e.g. a
``git worktree add /tmp/base house``), for each ``-j`` of ``--jobs``, the way the corpus benchmark does
(``benchmarks/corpus_bench.py``: scratch copies, warm executor, the manifest's good version), plus the
examples picked with ``--examples`` (``reportkit minimize`` on a scratch copy), and prints one row per
case and ``-j``: the tests each side ran and whether the two ``.min.py`` are byte-identical.

Each side runs in its own interpreter with its own code first on ``sys.path``; every result is kept as
JSON in ``--out`` and reused by a later call with the same ``--out`` (so the baseline side can run once
while this side is measured again): delete the file to measure it again.

    .venv/bin/python benchmarks/equivalence_bench.py --baseline /tmp/base --out /tmp/equiv \\
        --cases c01-04,c03-03 --examples 01 --jobs 1,2

The exit code is 0 when every result is identical and no case needs more tests on this side.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_CASES = (  # corpus case ids (benchmarks/corpus/<id>/): pure Python, multi-file, a library's test
    "c01-04", "c01-05", "c02-05", "c03-03", "c04-04", "c05-04", "c09-03", "c13-02", "c16-02", "c22-03", "c01-14",
)


def _env(code: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(code) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def run_case(code: Path, case: str, jobs: int, out: Path) -> dict:
    """``{"tests": N, "sha": ..., "output": text}`` of one corpus case minimized by the code in ``code``."""
    with tempfile.TemporaryDirectory(prefix="rk-equiv-") as tmp:
        result = Path(tmp) / "result.json"
        proc = subprocess.run([sys.executable, str(code / "benchmarks" / "corpus_bench.py"), "--corpus",
                               str(REPO / "benchmarks" / "corpus"), "--case", case, "-j", str(jobs), "--json",
                               str(result)], capture_output=True, text=True, env=_env(code), cwd=tmp)
        if not result.exists():
            return {"error": (proc.stderr.strip().splitlines() or ["no result"])[-1]}
        data = json.loads(result.read_text(encoding="utf-8"))["cases"][0]
    return {"tests": data["tests"], "output": data["output"], "note": data.get("note", "")}


def run_example(code: Path, example: str, jobs: int, out: Path) -> dict:
    src = next(p for p in (REPO / "examples").iterdir() if p.name.startswith(example))
    with tempfile.TemporaryDirectory(prefix="rk-equiv-") as tmp:
        work = Path(tmp) / src.name
        shutil.copytree(src, work)
        script = next(p for p in sorted(work.glob("*.py")) if p.name != "minimal.py")
        proc = subprocess.run([sys.executable, "-c", "import sys; from reportkit.cli import main; sys.exit(main())",
                               "minimize", str(script), "-j", str(jobs), "--json"], capture_output=True, text=True, env=_env(code), cwd=tmp)
        try:
            report = json.loads(proc.stdout)
        except ValueError:
            return {"error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}
        text = Path(report["output"]).read_text(encoding="utf-8")
    return {"tests": report["tests_run"], "output": text, "note": ""}


def measured(side: str, code: Path, item: str, jobs: int, out: Path) -> dict:
    path = out / f"{side}-{item.replace('/', '_')}-j{jobs}.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    kind, name = item.split(":", 1)
    data = (run_example if kind == "example" else run_case)(code, name, jobs, out)
    if "error" not in data:  # (a failed run is tried again next time)
        path.write_text(json.dumps(data), encoding="utf-8")
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, metavar="DIR", help="checkout of the code to compare with")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the results are kept (reused)")
    parser.add_argument("--cases", default=",".join(DEFAULT_CASES),
                        help="corpus case ids or unique prefixes (c01-04), comma-separated ('' for none)")
    parser.add_argument("--examples", default="01", help="example prefixes, comma-separated ('' for none)")
    parser.add_argument("--jobs", default="1,2", help="the -j values, comma-separated")
    parser.add_argument("--sides", default="baseline,this", help="which sides to run now (default both)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    items = [f"case:{c}" for c in args.cases.split(",") if c] + [f"example:{e}" for e in args.examples.split(",") if e]
    codes = {"baseline": args.baseline.resolve(), "this": REPO}
    sides = [s for s in args.sides.split(",") if s]
    ok = True
    print(f"{'case':<48} {'-j':>2} {'tests base':>10} {'tests this':>10}  result")
    for item in items:
        for jobs in [int(j) for j in args.jobs.split(",")]:
            got = {side: measured(side, codes[side], item, jobs, args.out) for side in sides}
            if len(got) < 2:
                print(f"{item:<48} {jobs:>2} {got[sides[0]].get('tests', got[sides[0]].get('error'))}", flush=True)
                continue
            base, this = got["baseline"], got["this"]
            if "error" in base or "error" in this:
                ok = False
                print(f"{item:<48} {jobs:>2} error: {base.get('error') or this.get('error')}", flush=True)
                continue
            same = base["output"] == this["output"]
            ok &= same and this["tests"] <= base["tests"]
            sha = hashlib.sha256(this["output"].encode("utf-8")).hexdigest()[:10]
            verdict = f"identical ({sha})" if same else "DIFFERENT"
            print(f"{item:<48} {jobs:>2} {base['tests']:>10} {this['tests']:>10}  {verdict}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
