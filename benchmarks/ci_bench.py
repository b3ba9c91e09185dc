"""How `reportkit ci` groups the failures of real library suites with planted bugs (issue 36).

For each suite: a git repository whose tag `good` is the clean release and whose later commits plant the
bugs (one commit per bug). The benchmark runs the suite with --junitxml at HEAD, then

- `reportkit ci --good good`: groups (one per culprit), whether groups == bugs, and whether each culprit
  shown is a planted hunk (its file and changed lines are the planted patch's); the search's cost;
- `reportkit ci` without --good: the grouping's pairwise precision and recall against the truth (a test's
  bug is the planted commit that, alone on `good`, makes it fail);
- with --minimize: whether each minimized result passes on the fixed version (`good`).

Suites:
  --fixtures            the vendored suites of tests/fixtures/suites (bugs.patch: one commit per file's hunk)
  --heldout DIR         each DIR/<name>/ with commits/*.patch, built by `python DIR/build.py NAME DEST`

    python benchmarks/ci_bench.py --fixtures [--minimize] [--only NAME] [--json out.json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "suites"
GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com", "GIT_COMMITTER_NAME": "bench",
           "GIT_COMMITTER_EMAIL": "bench@example.com"}


def git(repo: Path, *args: str, check: bool = True) -> str:
    return subprocess.run(["git", *args], cwd=repo, env={**os.environ, **GIT_ENV}, check=check, capture_output=True,
                          text=True).stdout


def split_patch(text: str) -> list[str]:
    """A patch as one patch per hunk (each with its file header): one planted bug each."""
    out, header, current = [], [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("--- "):
            header, current = [line], None
        elif line.startswith("+++ "):
            header.append(line)
        elif line.startswith("@@"):
            if current:
                out.append("".join(current))
            current = header + [line]
        elif current is not None:
            current.append(line)
    if current:
        out.append("".join(current))
    return out


def build_fixture(name: str, dest: Path) -> list[str]:
    """The vendored suite as a repository: tag good, then one commit per hunk of bugs.patch. Returns the patches."""
    shutil.copytree(FIXTURES / name, dest, ignore=shutil.ignore_patterns("bugs.patch", "__pycache__"))
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", "release")
    git(dest, "tag", "good")
    patches = split_patch((FIXTURES / name / "bugs.patch").read_text())
    for i, patch in enumerate(patches, 1):
        subprocess.run(["git", "apply", "-"], cwd=dest, input=patch, text=True, check=True)
        git(dest, "commit", "-qam", f"bug {i}")
    return patches


HELDOUT: dict[str, dict] = {}  # name -> pytest options of the suite's test_command, truth labels


def build_heldout(base: Path, name: str, dest: Path) -> list[str]:
    """The held-out suite (suite.toml): its bug commits' patches only (harmless commits are not bugs); the truth
    is suite.toml's failing_tests (a bug's patch needs the harmless commits under it, so it may not apply on good
    alone); the test_command's pytest options (-o pythonpath=src, -o addopts=...) go to every run as PYTEST_ADDOPTS."""
    import shlex

    import tomllib

    subprocess.run([sys.executable, str(base / "build.py"), name, str(dest)], check=True, capture_output=True)
    suite = tomllib.loads((base / name / "suite.toml").read_text())
    command = suite["test_command"]
    options = [a for a in command[command.index("pytest") + 1:-1] if a not in ("-q",)]
    labels: dict[str, set[int]] = {}
    for i, bug in enumerate(suite["bug"]):
        for node in bug["failing_tests"]:
            labels.setdefault(node, set()).add(i)
    by_bug = {c["bug"]: c["patch"] for c in suite["commit"] if c["kind"] == "bug"}
    HELDOUT[name] = {"addopts": shlex.join(options), "testdir": command[-1], "labels": labels}
    return [(base / name / by_bug[bug["id"]]).read_text() for bug in suite["bug"]]


def planted_lines(patch: str) -> set[tuple[str, str]]:
    """(file, changed line) of a patch: its + and - lines, whitespace folded."""
    out, file = set(), ""
    for line in patch.splitlines():
        if line.startswith("+++ "):
            file = line[4:].split("\t")[0]
            file = file[2:] if file.startswith("b/") else file
        elif line == "-- ":  # git format-patch's signature: the patch ends here
            break
        elif line[:1] and line[:1] in "+-" and not line.startswith(("+++", "---")):
            out.add((file, line[0] + " ".join(line[1:].split())))
    return out


def run_tests(repo: Path, junit: Path, testdir: str | None = None) -> dict[str, str]:
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={junit}",
                    *([testdir] if testdir else [])], cwd=repo, capture_output=True, text=True, timeout=1800)
    from reportkit.ci.ci import parse_junit, resolve_node

    outcomes = {}
    for case in parse_junit(junit):
        node = resolve_node(case, [repo]) or f"{case.classname}::{case.name}"
        outcomes[node] = case.outcome
    return outcomes


def failed(outcomes: dict[str, str]) -> set[str]:
    return {n for n, o in outcomes.items() if o in ("failure", "error")}


def truth(repo: Path, patches: list[str], tmp: Path) -> dict[str, set[int]]:
    """For each test failing at HEAD: the bugs (patch indexes) that alone on `good` make it fail."""
    labels: dict[str, set[int]] = {}
    for i, patch in enumerate(patches):
        work = tmp / f"truth-{i}"
        git(repo, "worktree", "add", "-q", "--detach", str(work), "good")
        try:
            subprocess.run(["git", "apply", "-"], cwd=work, input=patch, text=True, check=True)
            for node in failed(run_tests(work, tmp / f"truth-{i}.xml")):
                labels.setdefault(node, set()).add(i)
        finally:
            git(repo, "worktree", "remove", "--force", str(work))
    return labels


def pairs(groups: list[list[str]]) -> set[frozenset]:
    return {frozenset(p) for g in groups for p in itertools.combinations(sorted(set(g)), 2)}


def precision_recall(predicted: list[list[str]], labels: dict[str, set[int]]) -> tuple[float, float]:
    tests = [t for g in predicted for t in g if t in labels]
    true = {frozenset(p) for p in itertools.combinations(sorted(set(tests)), 2) if labels[p[0]] & labels[p[1]]}
    pred = {p for p in pairs(predicted) if all(t in labels for t in p)}
    precision = len(pred & true) / len(pred) if pred else 1.0
    recall = len(pred & true) / len(true) if true else 1.0
    return precision, recall


def reportkit_ci(repo: Path, junit: Path, out: Path, *extra: str) -> tuple[dict, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_"))}
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "reportkit", "ci", "--junit", str(junit), "--repo-root", str(repo),
                           "--out", str(out), "--no-ladder", "--confirm-runs", "2", "--budget", "1500", *extra],
                          capture_output=True, text=True, env=env, timeout=3600)
    took = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(f"reportkit ci failed: {proc.stderr[-2000:]}")
    return json.loads((out / "reportkit-ci.json").read_text()), took


def minimized_pass_on_good(repo: Path, manifest: dict, out: Path, tmp: Path) -> list[bool]:
    """Each minimized result run in the good revision's tree, next to its test module."""
    results = []
    for f in manifest["failures"]:
        if not f.get("minimized"):
            continue
        work = tmp / f"good-{f['fingerprint']}"
        git(repo, "worktree", "add", "-q", "--detach", str(work), "good")
        try:
            module = f["representative"].partition("::")[0]
            target = work / Path(module).parent / Path(f["minimized"]).name
            shutil.copy(out / f["minimized"], target)
            # a standalone script (repro_*.py) runs with python, a minimized test module (min_*.py) with pytest:
            # its failing test (the other cases of the module were reduced for that one only)
            node = f["representative"].partition("::")[2]
            command = [str(target)] if target.name.startswith("repro_") else [
                "-m", "pytest", "-q", "-p", "no:cacheprovider", f"{target}::{node}" if node else str(target)]
            paths = [str(work)] + [str(work / "src")] * (work / "src").is_dir()  # a src/ layout's package
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
            proc = subprocess.run([sys.executable, *command], cwd=work, capture_output=True, text=True, timeout=600,
                                  env=env)
            results.append(proc.returncode == 0)
        finally:
            git(repo, "worktree", "remove", "--force", str(work))
    return results


def bench_suite(name: str, build, minimize: bool, keep: Path | None = None) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix=f"ci-bench-{name}-"))
    try:
        repo = tmp / name
        patches = build(name, repo)
        junit = tmp / "head.xml"
        meta = HELDOUT.get(name)
        if meta:
            os.environ["PYTEST_ADDOPTS"] = meta["addopts"]
        head_failed = failed(run_tests(repo, junit, meta and meta["testdir"]))
        labels = meta["labels"] if meta else truth(repo, patches, tmp)
        good, good_s = reportkit_ci(repo, junit, tmp / "out-good", "--good", "good",
                                    *(["--minimize"] if minimize else []))
        guess, guess_s = reportkit_ci(repo, junit, tmp / "out-guess")
        planted = [planted_lines(p) for p in patches]
        regressions = [f for f in good["failures"] if f.get("regression") == "regression"]
        culprits_ok = []
        for f in regressions:
            shown = {(h["file"], line[0] + " ".join(line[1:].split())) for h in f["culprit"]["hunks"]
                     for line in h["excerpt"].splitlines() if line[:1] and line[:1] in "+-"}
            culprits_ok.append(any(shown and shown <= p for p in planted))
        precision, recall = precision_recall([f["tests"] for f in guess["failures"]], labels)
        good_precision, good_recall = precision_recall([f["tests"] for f in good["failures"]], labels)
        search = good.get("culprit_search") or {}
        row = {"suite": name, "bugs": len(patches), "failed_tests": len(head_failed),
               "groups": len(good["failures"]), "regressions": len(regressions),
               "groups_eq_bugs": len(regressions) == len(patches) and len(good["failures"]) == len(patches),
               "culprit_is_planted": culprits_ok,
               # with --good, the tests of each group against the truth (groups == bugs alone does not see a test
               # put into another bug's group)
               "good_precision": round(good_precision, 2), "good_recall": round(good_recall, 2),
               "unconfirmed": sum(len(f.get("unconfirmed") or []) for f in good["failures"]),
               "guess_groups": len(guess["failures"]),
               "guess_precision": round(precision, 2), "guess_recall": round(recall, 2),
               "head_failed_in_truth": f"{len(head_failed & set(labels))}/{len(labels)}",
               "guess_tests_in_truth": f"{sum(t in labels for g in guess['failures'] for t in g['tests'])}/"
                                       f"{sum(len(g['tests']) for g in guess['failures'])}",
               "good_kinds": [f.get("regression") for f in good["failures"]],
               "culprits": [[f"{h['file']}:{h['lines'][0]}-{h['lines'][1]}" for h in f["culprit"]["hunks"]]
                            for f in regressions],
               "search_hunks": search.get("hunks"), "search_tests": search.get("tests"),
               "search_runs": search.get("runs"), "search_seconds": search.get("seconds"),
               "search_narrowed": search.get("narrowed"),  # culprits the second opinion narrowed (c8fa3ba)
               "search_max_runs": search.get("max_runs"),
               "search_unknown": (search.get("tests_by_verdict") or {}).get("unknown"),
               "guess_suspects": [f.get("suspect") for f in guess["failures"]],
               "ci_good_seconds": round(good_s, 1), "ci_guess_seconds": round(guess_s, 1)}
        if minimize:
            row["minimized_pass_on_good"] = minimized_pass_on_good(repo, good, tmp / "out-good", tmp)
        if keep is not None:  # the two manifests, to look into a result afterwards
            keep.mkdir(parents=True, exist_ok=True)
            for kind in ("good", "guess"):
                shutil.copy(tmp / f"out-{kind}" / "reportkit-ci.json", keep / f"{name}-{kind}.json")
        return row
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fixtures", action="store_true")
    ap.add_argument("--heldout", type=Path)
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--minimize", action="store_true")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--keep", type=Path, help="copy each suite's two reportkit-ci.json manifests here")
    args = ap.parse_args()
    suites = []
    if args.fixtures:
        suites += [(n, build_fixture) for n in sorted(p.name for p in FIXTURES.iterdir() if (p / "bugs.patch").is_file())]
    if args.heldout:
        base = args.heldout.resolve()
        suites += [(p.name, lambda n, d, b=base: build_heldout(b, n, d)) for p in sorted(base.iterdir())
                   if (p / "commits").is_dir()]
    if args.only:
        suites = [s for s in suites if s[0] in args.only]
    if not suites:
        ap.error("no suites: give --fixtures and/or --heldout DIR")
    rows = []
    for name, build in suites:
        row = bench_suite(name, build, args.minimize, args.keep)
        rows.append(row)
        print(json.dumps(row), flush=True)
    cols = ["suite", "bugs", "failed_tests", "groups", "groups_eq_bugs", "culprit_is_planted", "good_precision",
            "good_recall", "unconfirmed", "guess_groups",
            "guess_precision", "guess_recall", "search_hunks", "search_tests", "search_runs", "search_seconds",
            "ci_good_seconds", "ci_guess_seconds"] + (["minimized_pass_on_good"] if args.minimize else [])
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for row in rows:
        print("| " + " | ".join(str(row.get(c)) for c in cols) + " |")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0 if all(r["groups_eq_bugs"] and all(r["culprit_is_planted"]) and r["good_precision"] == 1.0
                    and r["good_recall"] == 1.0 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
