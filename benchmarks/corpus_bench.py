"""Minimize the held-out corpus (``benchmarks/corpus/``) and check what a reproducer must be.

One corpus, one directory per case, ``benchmarks/corpus/<id>/``: a failing script (or a small project, or a
pytest test of a real library), a hand-written ``minimal.py``, a ``NOTE.md`` (the bug, where its cause is)
and a manifest ``case.toml``. The cases were written in sets, each held out from some reducer changes
(``benchmarks/corpus/SETS.md``); a case's id is ``<set>-<NN>-<slug>`` (``c23-01-mf-torch-float64-features-linear``:
set ``c23``, the set's case 01) and never changes. The manifest (TOML, read with ``tomllib``)::

    id = "c01-05-py-pagination-floor"    # the directory's name
    set = "c01"                          # the set it was written in (SETS.md)
    tags = ["c01", "pure-python"]        # --select matches these: the set, the category, and
                                         # "torch" (imports torch), "pytest" (a pytest target),
                                         # "fix" (has a good version), "fix-patch" (good.git); more are free
    title = "..."                        # optional: the bug in one line
    target = "train.py"  |  "tests/test_x.py::test_y[param]"   # what fails (relative to the case)
    args = []                            # the script's arguments (optional)
    timeout = 5                          # seconds before a run counts as a hang (optional; hangs need it)
    category = "multi-file"              # multi-file, pure-python, meta-device, nn-module, compile-*, hang, ...
    cause = ['regex', ...]               # every regex must match a reproducer that keeps the bug
    signature = "Type: message"          # the headline the failure has (for people; matching is reportkit's)
    minimal_target = "minimal.py::test_z"   # optional: when minimal.py is a pytest test

    [site]                               # optional: an installed library, patched
    dir = "vendor"
    patch = "bug.patch"

    [good]                               # optional: where the reproducer must PASS, one of
    env = { K = "V" }                    #   an environment,
    site = "pristine"                    #   the unpatched library (needs [site]),
    git = "fix.patch"                    #   the fix, as a patch of the case (-p1): a known-good commit
    why = "..."

    [provenance]                         # from the set's README: who wrote it, when, held out from what
    written_by = "..."                   # ("unknown" where the README does not say)
    written = "2026-11-28 20:52-21:04 UTC"
    blind = true                         # the author had read no reducer code (or "unknown")
    held_out_from = "..."                # the reducer changes the set was written before
    note = "..."                         # optional, as are more keys (a report's url, licence ...)

    [hand_minimal]
    lines = 5                            # non-blank lines of minimal.py (checked)

For every case, on a scratch copy (the corpus is never written to; ``minimal.py``, ``NOTE.md``,
``case.toml``, the patch and the vendored library are not part of the copy): run the original twice
(reportkit's strict signature), run :func:`reportkit.reduce.minimize.minimize` (warm executor, ``--jobs``),
then judge the result:

``alone``  copied ALONE into an empty temporary directory and run from there (a pytest result as its
           node id, with that directory as rootdir), it fails the same way as the original
           (installed packages only: a result that still imports the project's own modules fails); for
           a result made from the folded original, the same way as the folded original (its statements
           spelled as folding rewrote them: ``pkg.f(x)`` is ``f(x)``; reportkit kept the fold only because
           it failed the way the original did, line for line);
``cause``  every ``cause`` regex of the manifest matches the result;
``good``   where the manifest names a good version, the result run alone against it *passes*
           (exit 0 / the test passes): a result that also fails without the bug is not a reproducer.

A ``git`` good version is the regression scenario with a known-good commit: the scratch copy becomes
a git repository whose first commit is the FIXED code (the case with the patch applied) and whose
second is the case as written (the bug), and the case is minimized with the fix check against the
first commit (``MinimizeOptions.good``, i.e. ``reportkit minimize --good REV``). ``good`` then runs the
result's *good form* alone: the result mapped onto the fixed code by the fix check's own mapping
(:func:`reportkit.reduce.fixcheck.good_form_map`: the places where the fixed and buggy code differ — in the
folded script when the result was reduced from one — replaced by their fixed lines); a result that
edited those lines has no good form and fails the check. The manifest validation applies the patch
(it must apply), and before minimizing the fixed original must pass (else the case is not minimized).

Printed per case and in total: lines before (the script, and the whole project's ``.py`` files) and
after, the hand-written minimal's lines, the ratio after/minimal, tests, wall time and the three
checks; medians and the max ratio. A case one of whose steps fails (its workspace cannot be made, ``minimize``
refuses it) is recorded with its error (``error``) and the run goes on. ``--select TAG[,TAG]`` runs the cases that have all those tags
(``--select c23``, ``--select pure-python,c01``), ``--case ID`` (repeatable) the named ones. ``--json OUT``
writes the run's results as one file (kept ones: ``benchmarks/results/<set or selection>-<label>.json``),
``--report-from`` re-prints it. ``--keep-values`` minimizes with ``reportkit minimize --keep-values`` (what
library code was given stays code).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

import tomllib  # the standard library's since Python 3.11 (the benchmarks run on 3.11+)

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from reportkit.failure.check import (  # noqa: E402
    Check,
    establish,  # noqa: E402
    reproduce,
)
from reportkit.failure.signature import MatchPolicy, Reproduction, Signature, same_failure, signature_of  # noqa: E402
from reportkit.reduce.fixcheck import good_form_map  # noqa: E402
from reportkit.reduce.flatten import NotFlattenable, fold_local_code, fold_target, folded_conftests  # noqa: E402
from reportkit.reduce.minimize import MinimizeOptions, count_lines, minimize  # noqa: E402
from reportkit.run.gitinfo import good_rev  # noqa: E402
from reportkit.run.runner import Sandbox, run_script, split_target, target_spec  # noqa: E402
from reportkit.run.spec import RunResult, RunSpec  # noqa: E402

CORPUS = Path(__file__).resolve().parent / "corpus"
DEFAULT_TIMEOUT = 300.0
MANIFEST = "case.toml"
CASE_FILES = (MANIFEST, "NOTE.md", "minimal.py")  # what every case must have
NOT_COPIED = (MANIFEST, "NOTE.md", "minimal.py", "*.patch", "__pycache__", "*.min.py", ".pytest_cache")
MANIFEST_KEYS = {"id", "set", "tags", "title", "target", "args", "timeout", "category", "cause", "signature",
                 "minimal_target", "site", "good", "provenance", "hand_minimal"}
PROVENANCE_KEYS = ("written_by", "written", "blind", "held_out_from")  # required; others (note, url ...) may follow
CASE_ID = re.compile(r"(?P<set>[a-z]\d\d)-\d\d-[a-z0-9]+(?:-[a-z0-9]+)*")
# (a script that only does "from torch.utils.data import Dataset" uses torch too)
_IMPORTS_TORCH = re.compile(r"^[ \t]*(?:import|from)[ \t]+torch\b", re.MULTILINE)


# --------------------------------------------------------------------------- the corpus


@dataclass
class Case:
    name: str  # the case's id, its directory's name
    path: Path
    manifest: dict

    @property
    def set(self) -> str:
        return self.manifest.get("set", "")

    @property
    def tags(self) -> list[str]:
        return list(self.manifest.get("tags", []))

    @property
    def target(self) -> str:
        return self.manifest["target"]

    @property
    def timeout(self) -> float:
        return float(self.manifest.get("timeout", DEFAULT_TIMEOUT))

    @property
    def site(self) -> dict | None:
        return self.manifest.get("site")

    @property
    def good(self) -> dict | None:
        return self.manifest.get("good")

    @property
    def causes(self) -> list[str]:
        return list(self.manifest.get("cause", []))

    @property
    def uses_torch(self) -> bool:
        return any(_IMPORTS_TORCH.search(p.read_text(encoding="utf-8", errors="replace"))
                   for p in self.path.rglob("*.py"))

    def derived_tags(self) -> list[str]:
        """The tags a case must have, from what it is (``structure_problems`` checks them)."""
        m = self.manifest
        tags = [self.set, m.get("category", "")]
        if self.uses_torch:
            tags.append("torch")
        if "::" in m.get("target", ""):
            tags.append("pytest")
        if self.good:
            tags.append("fix")
            if self.good.get("git"):
                tags.append("fix-patch")
        return tags

    def cause_kept(self, text: str) -> bool:
        return all(re.search(rx, text, re.MULTILINE) for rx in self.causes)

    def missing_causes(self, text: str) -> list[str]:
        return [rx for rx in self.causes if not re.search(rx, text, re.MULTILINE)]


def load_cases(root: Path = CORPUS) -> list[Case]:
    """Every case of the corpus at ``root`` (a subdirectory with a ``case.toml``), in id order."""
    cases = []
    for d in sorted(p for p in root.iterdir() if p.is_dir() and (p / MANIFEST).exists()):
        try:
            manifest = tomllib.loads((d / MANIFEST).read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise SystemExit(f"{d / MANIFEST}: not a valid manifest: {exc}") from None
        cases.append(Case(d.name, d, manifest))
    return cases


def select_cases(cases: list[Case], select: str | None = None, ids: list[str] | None = None) -> list[Case]:
    """The cases that have every tag of ``select`` (``"c01,pure-python"``) and, when ``ids`` are given, are
    among them (an id, or a prefix of exactly one id: ``c23-08``). Anything that names no case is an error."""
    chosen = cases
    if select:
        wanted = [t.strip() for t in select.split(",") if t.strip()]
        known = {t for c in cases for t in c.tags}
        unknown = [t for t in wanted if t not in known]
        if unknown:
            raise SystemExit(f"--select: no case has the tag(s) {', '.join(unknown)} "
                             f"(tags: {', '.join(sorted(known))})")
        chosen = [c for c in chosen if set(wanted) <= set(c.tags)]
        if not chosen:
            raise SystemExit(f"--select {select}: no case has all of these tags")
    if ids:
        named = []
        for want in ids:
            hits = [c for c in cases if c.name == want] or [c for c in cases if c.name.startswith(want)]
            if len(hits) != 1:
                near = ", ".join(c.name for c in hits[:5]) + (", ..." if len(hits) > 5 else "") if hits else \
                    "no case id starts with it"
                raise SystemExit(f"--case {want}: {'ambiguous' if hits else 'unknown'} ({near})")
            if hits[0] not in chosen:
                raise SystemExit(f"--case {want}: {hits[0].name} does not have the tags of --select {select}")
            if hits[0] not in named:
                named.append(hits[0])
        chosen = [c for c in chosen if c in named]
    return chosen


def structure_problems(case: Case) -> list[str]:
    """What is wrong with a case directory's layout (an empty list: nothing)."""
    problems = [f"missing {f}" for f in CASE_FILES if not (case.path / f).is_file()]
    m = case.manifest
    unknown = set(m) - MANIFEST_KEYS
    if unknown:
        problems.append(f"unknown manifest keys {sorted(unknown)}")
    for key in ("id", "set", "tags", "target", "category", "cause", "signature"):
        if not m.get(key):
            problems.append(f"manifest lacks {key!r}")
    problems += identity_problems(case)
    if m.get("target"):
        path, _ = split_target(str(case.path / m["target"]))
        if not path.is_file():
            problems.append(f"target file {path.name} does not exist")
    for rx in m.get("cause", []):
        try:
            re.compile(rx)
        except re.error as exc:
            problems.append(f"cause regex {rx!r} does not compile: {exc}")
    if case.site:
        if not (case.path / case.site.get("dir", "")).is_dir():
            problems.append("site.dir is not a directory")
        if not (case.path / case.site.get("patch", "")).is_file():
            problems.append("site.patch is not a file")
    good = case.good
    if good is not None and not (good.get("env") or good.get("site") == "pristine" or good.get("git")):
        problems.append("good must name an env, site: pristine or git: a patch")
    if good is not None and good.get("git"):
        problems += git_good_problems(case)
    if good is not None and good.get("site") == "pristine" and not case.site:
        problems.append("good.site = pristine needs a site")
    note = (case.path / "NOTE.md").read_text(encoding="utf-8") if (case.path / "NOTE.md").is_file() else ""
    for words in (("Bug",), ("cause",), ("Signature", "headline")):  # r01's notes say "Error headline"
        if not any(word in note for word in words):
            problems.append(f"NOTE.md does not say {words[0]!r}")
    return problems


def identity_problems(case: Case) -> list[str]:
    """The manifest's id, set, tags, provenance and hand-minimal size against the case as it is."""
    m, problems = case.manifest, []
    match = CASE_ID.fullmatch(case.name)
    if match is None:
        problems.append(f"directory name {case.name!r} is no case id (<set>-<NN>-<slug>, e.g. c01-05-py-pagination-floor)")
    if m.get("id") and m["id"] != case.name:
        problems.append(f"id {m['id']!r} is not the directory's name {case.name!r}")
    if m.get("set") and match is not None and m["set"] != match["set"]:
        problems.append(f"set {m['set']!r} is not the id's prefix {match['set']!r}")
    tags = m.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(t, str) and t for t in tags):
        problems.append("tags must be a list of non-empty strings")
    elif m.get("set") and m.get("category"):
        missing = [t for t in case.derived_tags() if t not in tags]
        if missing:
            problems.append(f"tags lack {missing}")
        for tag, holds in (("torch", case.uses_torch), ("pytest", "::" in m.get("target", "")),
                           ("fix", bool(case.good)), ("fix-patch", bool(case.good and case.good.get("git")))):
            if tag in tags and not holds:
                problems.append(f"tag {tag!r} does not hold for this case")
    prov = m.get("provenance")
    if not isinstance(prov, dict):
        problems.append("manifest lacks [provenance]")
    else:
        problems += [f"provenance lacks {k!r}" for k in PROVENANCE_KEYS if prov.get(k) in (None, "")]
        if prov.get("blind") not in (None, True, False, "unknown"):
            problems.append('provenance.blind must be true, false or "unknown"')
    lines = (m.get("hand_minimal") or {}).get("lines")
    if (case.path / "minimal.py").is_file():
        have = count_lines((case.path / "minimal.py").read_text(encoding="utf-8"))
        if lines != have:
            problems.append(f"hand_minimal.lines is {lines}, minimal.py has {have} non-blank lines")
    return problems


def git_good_problems(case: Case) -> list[str]:
    """What is wrong with a ``good: {"git": PATCH}`` entry: the patch must exist, change something and
    apply to the case (checked on a scratch copy; that the fixed original passes is checked by
    :func:`fixed_original_problem` when the case runs)."""
    patch = case.path / case.good["git"]
    if not patch.is_file():
        return ["good.git is not a file"]
    if case.site:
        return ["good.git cannot be combined with a site"]
    with tempfile.TemporaryDirectory(prefix="rk-corpus-patch-") as tmp:
        copies = [Path(tmp) / side / case.name for side in ("bad", "fixed")]
        for copy in copies:
            shutil.copytree(case.path, copy, ignore=shutil.ignore_patterns(*NOT_COPIED))
        why = _patch(copies[1], patch)
        if why is not None:
            return [f"good.git {patch.name} does not apply: {why[:200]}"]
        if python_sources(copies[0]) == python_sources(copies[1]):
            return [f"good.git {patch.name} changes no .py file"]
    return []


def python_sources(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*.py"))
            if "__pycache__" not in p.parts}


def _patch(directory: Path, patch: Path, *extra: str) -> str | None:
    """Apply ``patch`` (-p1) in ``directory``; None when it applied, else what ``patch`` said."""
    proc = subprocess.run(["patch", "-s", "-p1", "--no-backup-if-mismatch", *extra, "-d", str(directory),
                           "-i", str(patch.resolve())], capture_output=True, text=True)  # -d: cd first
    return None if proc.returncode == 0 else (proc.stdout + proc.stderr).strip() or f"exit {proc.returncode}"


# --------------------------------------------------------------------------- scratch set-up


@dataclass
class Workspace:
    """A scratch copy of one case: the project, and the installed (patched / pristine) library."""

    root: Path
    project: Path
    site: Path | None = None  # PYTHONPATH entry holding the patched library (a ``site-packages`` dir)
    good_site: Path | None = None  # the same, unpatched
    good_commit: str | None = None  # good.git: the project's first commit, the fixed code (the 2nd: the bug)
    good_project: Path | None = None  # good.git: a copy of the fixed project (to judge results by)

    def env(self, good: bool = False) -> dict[str, str | None]:
        site = self.good_site if good else self.site
        return {"PYTHONPATH": str(site)} if site else {}


def _install(src: Path, dest: Path, patch: Path | None) -> None:
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns("__pycache__", "LICENSE*"))
    if patch is not None:
        # -d changes patch's directory first: the patch file's path must not be relative
        proc = subprocess.run(["patch", "-s", "-p1", "-d", str(dest), "-i", str(patch.resolve())],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"{patch}: does not apply: {proc.stdout}{proc.stderr}")


def make_workspace(case: Case, tmp: Path) -> Workspace:
    ignore = list(NOT_COPIED)
    if case.site:
        ignore.append(case.site["dir"])
    project = tmp / "project" / case.name
    shutil.copytree(case.path, project, ignore=shutil.ignore_patterns(*ignore))
    ws = Workspace(root=tmp, project=project)
    if case.site:
        src = case.path / case.site["dir"]
        ws.site = tmp / "lib" / "site-packages"
        _install(src, ws.site, case.path / case.site["patch"])
        ws.good_site = tmp / "good" / "site-packages"
        _install(src, ws.good_site, None)
    if case.good and case.good.get("git"):
        make_git_history(case, ws, ignore)
    return ws


_GIT = ["git", "-c", "user.name=corpus", "-c", "user.email=corpus@localhost", "-c", "commit.gpgsign=false",
        "-c", "init.defaultBranch=main"]


def _git(directory: Path, *args: str) -> str:
    proc = subprocess.run([*_GIT, "-C", str(directory), *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} in {directory}: {proc.stderr.strip()}")
    return proc.stdout.strip()


def make_git_history(case: Case, ws: Workspace, ignore: list[str]) -> None:
    """good.git: the scratch project becomes a repository, commit 1 the fixed code, commit 2 the case as
    written (the bug); ``ws.good_project`` is a separate copy of the fixed code."""
    patch = case.path / case.good["git"]
    _git(ws.project, "init", "-q")
    (ws.project / ".git" / "info" / "exclude").write_text("__pycache__/\n.pytest_cache/\n*.min.py\nmin_*.py\n"
                                                          "repro_*.py\n", encoding="utf-8")
    why = _patch(ws.project, patch)
    if why is not None:
        raise SystemExit(f"{patch}: does not apply: {why}")
    _git(ws.project, "add", "-A")
    _git(ws.project, "commit", "-q", "-m", "fixed (good)")
    ws.good_commit = _git(ws.project, "rev-parse", "HEAD")
    ws.good_project = ws.root / "good-project" / case.name
    shutil.copytree(ws.project, ws.good_project, ignore=shutil.ignore_patterns(".git", *ignore))
    why = _patch(ws.project, patch, "-R")
    if why is not None:
        raise SystemExit(f"{patch}: does not revert: {why}")
    _git(ws.project, "add", "-A")
    _git(ws.project, "commit", "-q", "-m", "the case as written (bug)")


@contextmanager
def _scratch(spec: RunSpec):
    """A sandbox for runs of ``spec`` on an executor, removed afterwards."""
    box = Sandbox(spec.script, spec.isolate_file, spec.root)
    try:
        yield box
    finally:
        box.cleanup()


def run_once(spec: RunSpec, executor=None) -> RunResult:
    """One run of ``spec`` in a fresh scratch copy: cold (``run_script``), or on ``executor`` (a
    :class:`reportkit.run.executor.WarmExecutor` shared by many runs: the corpus tests' torch cases)."""
    if executor is None:
        return run_script(spec)
    with _scratch(spec) as box:
        return executor.run(spec, None, box)


def establish_once(spec: RunSpec, policy: MatchPolicy, executor=None) -> Reproduction:
    """``establish(spec, policy, runs=1)``, its run on ``executor`` when one is given (see :func:`run_once`)."""
    if executor is None:
        return establish(spec, policy, runs=1)
    with _scratch(spec) as box:
        return reproduce(Check(spec, policy, box, executor), 1)


def fixed_original_problem(case: Case, ws: Workspace, python: str, timeout: float, executor=None) -> str | None:
    """good.git: the fixed original must pass (None), else what it did."""
    spec, _ = spec_for(case.target, ws.good_project, timeout, ws.env(), case.manifest.get("args"), python=python)
    got = signature_of(run_once(spec, executor))
    return None if got.kind == "passed" else f"the fixed original does not pass: {got.headline().splitlines()[0][:160]}"


def judge_git_good(text: str, out_name: str, node: str | None, folded: list[str], spec: RunSpec, source: str,
                   case: Case, ws: Workspace, python: str, timeout: float) -> tuple[bool, str]:
    """good.git: the result's good form (the fix check's mapping, from the source the reduction started
    from — ``folded``: what was folded into the script, its local modules and a pytest test's conftest.py
    files — onto the fixed code) passes alone."""
    rel = spec.script.resolve().relative_to(ws.project.resolve())
    good_script = ws.good_project / rel
    good_root = None
    if spec.root is not None:
        good_root = ws.good_project / spec.root.resolve().relative_to(ws.project.resolve())
    start = source
    try:
        if folded:
            flat = fold_target(spec.script, source, spec.root, folded_conftests(folded))
            start = flat.source if flat is not None else source
        fold = good_form_map(start, good_script, good_script.read_text(encoding="utf-8"), folded=bool(folded),
                             root=good_root, conftests=folded_conftests(folded))
    except (NotFlattenable, RecursionError, ValueError) as exc:
        return False, f"no good form of the start: {exc}"
    if fold is None:
        return False, "no good form of the start (the fix's lines are not found in it)"
    good_text = fold(text)
    if good_text is None:
        return False, "no good form: the lines the fix changes were edited in the result"
    got = run_alone(good_text, out_name, node, case, ws, good=True, python=python, timeout=timeout)
    return got.kind == "passed", "" if got.kind == "passed" else got.headline().splitlines()[0][:200]


def folded_signature(spec: RunSpec, source: str, rep, policy: MatchPolicy) -> Signature:
    """The failure of the original with its local modules folded in, as reportkit's minimize folds it
    (:func:`reportkit.reduce.flatten.fold_local_code`: kept only when it fails the way the original did); the
    original's own signature when it is not folded."""
    sandbox = Sandbox(spec.script, False, spec.root)
    try:
        return fold_local_code(spec, source, rep, policy, sandbox)[3]
    finally:
        sandbox.cleanup()


def spec_for(target: str, base: Path, timeout: float, env: dict, args: list[str] | None = None,
             python: str = sys.executable, root: Path | None = None) -> tuple[RunSpec, str]:
    spec, source = target_spec(str(base / target), list(args or []), python=python, timeout=timeout, env=env)
    if root is not None:
        spec.root = root
    return spec, source


def run_alone(text: str, name: str, node: str | None, case: Case, ws: Workspace, *, good: bool,
              python: str, timeout: float, executor=None) -> Signature:
    """Run ``text`` saved as ``name`` alone in an empty directory (``node``: as that pytest test);
    ``executor``: see :func:`run_once`."""
    env = ws.env(good=good)
    if good and case.good and case.good.get("env"):
        env = {**env, **case.good["env"]}
    with tempfile.TemporaryDirectory(prefix="rk-alone-") as alone:
        path = Path(alone) / name
        path.write_text(text, encoding="utf-8")
        target = f"{name}::{node}" if node is not None else name
        spec, _ = spec_for(target, Path(alone), timeout, env, python=python, root=Path(alone))
        return signature_of(run_once(spec, executor))


def node_defined(text: str, node: str) -> bool:
    """Does the module ``text`` still define the test of pytest node ``node`` (``Class::test[id]``)?"""
    names = [part.split("[", 1)[0] for part in node.split("::")]
    return all(re.search(rf"^\s*(async\s+)?(def|class)\s+{re.escape(n)}\b", text, re.MULTILINE) for n in names)


def python_lines(directory: Path) -> int:
    return sum(count_lines(p.read_text(encoding="utf-8", errors="replace"))
               for p in directory.rglob("*.py") if "__pycache__" not in p.parts)


# --------------------------------------------------------------------------- one case


@dataclass
class CaseResult:
    case: str
    category: str
    target: str
    signature: str
    lines_script: int  # non-blank lines of the target file
    lines_project: int  # non-blank lines of every .py file of the project (the copy that runs)
    minimal_lines: int
    lines_after: int | None = None
    ratio: float | None = None  # lines_after / minimal_lines
    tests: int | None = None
    wall: float | None = None
    budget_cut: bool = False
    verified: bool | None = None  # minimize's own final re-run
    alone: bool | None = None  # (a) the result, alone in an empty dir, fails the same way
    alone_got: str = ""  # what it did instead
    cause: bool | None = None  # (b) every cause regex matches
    cause_missing: list[str] = field(default_factory=list)
    good: bool | None = None  # (c) passes on the good version (None: the case has none)
    good_got: str = ""
    standalone_lines: int | None = None  # pytest targets: the repro_*.py reportkit wrote, if any
    note: str = ""
    error: str = ""  # a step failed for this case (bench_case): what it said; the run went on
    output: str | None = None
    tests_by_pass: dict[str, int] | None = None  # pass -> candidates tested in it (the report's)


def bench_case(case: Case, args) -> CaseResult:
    """Minimize one case and judge the result. A step that fails for this case — its workspace cannot be made
    (a patch that does not apply), or ``minimize`` refuses it (``--good REV: the original also fails on REV``)
    — is recorded in the result's ``error`` (with what was measured before it), and the run goes on."""
    res = CaseResult(case=case.name, category=case.manifest.get("category", ""), target=case.target,
                     signature="", lines_script=0, lines_project=0,
                     minimal_lines=count_lines((case.path / "minimal.py").read_text(encoding="utf-8")))
    try:
        _bench_case(case, args, res)
    except (Exception, SystemExit) as exc:  # SystemExit: the workspace's one-line messages (_install, _git)
        res.error = f"{type(exc).__name__}: {exc}"
        print(f"   {case.name}: error: {res.error}", flush=True)
    return res


def _bench_case(case: Case, args, res: CaseResult) -> None:
    policy = MatchPolicy()
    minimal_lines = res.minimal_lines
    with tempfile.TemporaryDirectory(prefix="rk-corpus-") as tmp:
        ws = make_workspace(case, Path(tmp))
        timeout = args.timeout or case.timeout
        spec, source = spec_for(case.target, ws.project, timeout, ws.env(), case.manifest.get("args"),
                                python=args.python)
        res.lines_script, res.lines_project = count_lines(source), python_lines(ws.project)
        print(f"\n== {case.name}: {case.target} ({res.lines_script} lines, project {res.lines_project}) — "
              "running the original 2x ...", flush=True)
        rep = establish(spec, policy, runs=2)
        res.signature = rep.signature.headline().splitlines()[0][:200]
        if not rep.deterministic:
            res.note = f"flaky original ({rep.failures}/{rep.runs}): not minimized"
            return
        node = spec.pytest_node
        out_name = f"min_{spec.script.name}" if node is not None else f"{spec.script.stem}.min.py"
        out = spec.script.with_name(out_name)
        git_good = None
        if ws.good_commit is not None:
            problem = fixed_original_problem(case, ws, args.python, timeout)
            if problem is not None:
                res.note = f"{problem}: not minimized"
                return
            git_good = good_rev(ws.project, ws.good_commit)
        report = minimize(spec, source, rep, policy,
                          MinimizeOptions(output=out, jobs=args.jobs, budget=args.budget, executor=args.executor,
                                          good=git_good, keep_values=args.keep_values))
        text = out.read_text(encoding="utf-8") if out.exists() else source
        res.output = text
        res.lines_after = count_lines(text)
        res.ratio = round(res.lines_after / minimal_lines, 2) if minimal_lines else None
        res.tests, res.wall = report.tests_run, round(report.wall_time, 1)
        res.tests_by_pass = dict(report.tests_by_pass)
        res.budget_cut = bool(args.budget) and report.stopped_early
        res.verified = report.verified
        if report.standalone:
            res.standalone_lines = count_lines(Path(report.standalone).read_text(encoding="utf-8"))
        res.note = f"executor {report.executor}" + ("; budget cut" if res.budget_cut else "")
        if getattr(report, "folded_note", ""):
            res.note += "; " + report.folded_note
        check_timeout = timeout if rep.signature.kind == "hang" else min(timeout, 4 * rep.max_duration + 10)
        got = run_alone(text, out_name, node, case, ws, good=False, python=args.python, timeout=check_timeout)
        res.alone = same_failure(rep.signature, got, policy)
        if not res.alone and report.folded:
            # a folded result fails where the folded original does: its statements spelled as folding
            # rewrote them (``assert humanize.naturalsize(...)`` is ``assert naturalsize(...)``), which
            # reportkit compared with the original's line for line before reducing
            res.alone = same_failure(folded_signature(spec, source, rep, policy), got, policy)
        if not res.alone:
            res.alone_got = got.headline().splitlines()[0][:200]
        elif node and not node_defined(text, node):
            # a module failing at import fails "the same way" for any node id; the test must still exist
            res.alone, res.alone_got = False, f"the test {node} is gone (pytest cannot collect it)"
        res.cause_missing = case.missing_causes(text)
        res.cause = not res.cause_missing
        if git_good is not None:
            res.good, res.good_got = judge_git_good(text, out_name, node, list(report.folded), spec, source, case, ws,
                                                    args.python, check_timeout)
            if report.fix_check is not None:
                fc = report.fix_check
                res.note += (f"; fix check {fc.get('runs')} run(s), {fc.get('rejected')} rejected "
                             f"({fc.get('unmapped')} unmapped)")
        elif case.good:
            got = run_alone(text, out_name, node, case, ws, good=True, python=args.python, timeout=check_timeout)
            res.good = got.kind == "passed"
            if not res.good:
                res.good_got = got.headline().splitlines()[0][:200]



# --------------------------------------------------------------------------- report


def _yn(v) -> str:
    return "n/a" if v is None else ("yes" if v else "NO")


def _num(v, spec="") -> str:
    return "-" if v is None else format(v, spec)


def print_table(results: list[CaseResult]) -> None:
    head = (f"{'case':<28} {'script':>6} {'project':>7} {'after':>5} {'minimal':>7} {'ratio':>5} {'tests':>5} "
            f"{'wall s':>7} {'alone':>5} {'cause':>5} {'good':>4}")
    print("\n" + head)
    print("-" * len(head))
    for r in results:
        print(f"{r.case[:28]:<28} {r.lines_script:>6} {r.lines_project:>7} {_num(r.lines_after):>5} "
              f"{r.minimal_lines:>7} {_num(r.ratio, '.2f'):>5} {_num(r.tests):>5} {_num(r.wall, '.1f'):>7} "
              f"{_yn(r.alone):>5} {_yn(r.cause):>5} {_yn(r.good):>4}")
    for r in results:
        why = [f"error: {r.error}"] if r.error else []
        if r.alone is False:
            why.append(f"alone: {r.alone_got}")
        if r.cause is False:
            why.append(f"cause missing: {r.cause_missing}")
        if r.good is False:
            why.append(f"good version: {r.good_got}")
        if r.budget_cut:
            why.append("budget cut the run short")
        if r.standalone_lines is not None:
            why.append(f"standalone repro {r.standalone_lines} lines")
        if "fold" in r.note:
            why.append(r.note.split("; ", 1)[-1])
        if why:
            print(f"  {r.case}: " + "; ".join(why))


def markdown_table(results: list[CaseResult]) -> str:
    rows = ["| case | category | lines before (script / project) | after | hand-minimal | ratio | tests | wall s "
            "| self-contained? | cause kept? | passes on good? |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        after = f"error: {r.error[:160]}" if r.error else _num(r.lines_after)
        rows.append(f"| {r.case} | {r.category} | {r.lines_script} / {r.lines_project} | {after} | "
                    f"{r.minimal_lines} | {_num(r.ratio, '.2f')} | {_num(r.tests)}{' (cut)' if r.budget_cut else ''} | "
                    f"{_num(r.wall, '.1f')} | {_yn(r.alone)} | {_yn(r.cause)} | {_yn(r.good)} |")
    return "\n".join(rows)


def totals(results: list[CaseResult]) -> dict:
    done = [r for r in results if r.lines_after is not None]
    ratios = [r.ratio for r in done if r.ratio is not None]
    with_good = [r for r in done if r.good is not None]
    return {
        "cases": len(results),
        "minimized": len(done),
        "lines_script": sum(r.lines_script for r in done),
        "lines_project": sum(r.lines_project for r in done),
        "lines_after": sum(r.lines_after for r in done),
        "minimal_lines": sum(r.minimal_lines for r in done),
        "tests": sum(r.tests or 0 for r in done),
        "wall": round(sum(r.wall or 0 for r in done), 1),
        "median_ratio": round(statistics.median(ratios), 2) if ratios else None,
        "max_ratio": max(ratios) if ratios else None,
        "median_tests": statistics.median([r.tests for r in done]) if done else None,
        "median_wall": round(statistics.median([r.wall for r in done]), 1) if done else None,
        "alone": sum(bool(r.alone) for r in done),
        "cause": sum(bool(r.cause) for r in done),
        "good": sum(bool(r.good) for r in with_good),
        "with_good": len(with_good),
        "budget_cut": sum(r.budget_cut for r in done),
        "errors": sum(bool(r.error) for r in results),
        "all_ok": sum(bool(r.alone and r.cause and r.good is not False) for r in done),
    }


def print_totals(t: dict) -> None:
    print(f"\nTOTAL over {t['minimized']}/{t['cases']} case(s): lines {t['lines_script']} (projects "
          f"{t['lines_project']}) -> {t['lines_after']}; hand-written minimal {t['minimal_lines']}; "
          f"tests {t['tests']}; wall {t['wall']} s")
    print(f"  ratio after/minimal: median {t['median_ratio']}, max {t['max_ratio']}; median tests "
          f"{t['median_tests']}, median wall {t['median_wall']} s")
    print(f"  re-runs alone from another directory, same failure: {t['alone']}/{t['minimized']}; "
          f"cause kept: {t['cause']}/{t['minimized']}; passes on the good version: {t['good']}/{t['with_good']}; "
          f"all three: {t['all_ok']}/{t['minimized']}" + (f"; budget cut {t['budget_cut']}" if t["budget_cut"] else "")
          + (f"; stopped by an error {t['errors']}" if t.get("errors") else ""))
    print("  targets (issue 15): every result alone + cause + good; median ratio <= 1.3, none over 2.0")


# --------------------------------------------------------------------------- main


def git_commit() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Minimize the cases of the held-out corpus (benchmarks/corpus/, all of them or those --select and "
                    "--case pick) with reportkit and check each result: runs alone from another directory with the "
                    "same failure, keeps the cause the case's note names, passes on the good version where there is "
                    "one. Torch cases cost ~0.1-2 s per test.")
    parser.add_argument("--select", metavar="TAG[,TAG]",
                        help="only the cases that have all these tags: a set (c01 ... c23, r01, see "
                        "benchmarks/corpus/SETS.md), a category (pure-python, hang, ...), torch, pytest, fix, fix-patch")
    parser.add_argument("--case", action="append", metavar="ID",
                        help="only this case: its id or a prefix of exactly one id (c23-08); repeatable")
    parser.add_argument("--list", action="store_true", help="run nothing: list the selected cases and their tags")
    parser.add_argument("--corpus", type=Path, default=CORPUS, metavar="DIR",
                        help="the corpus directory, one case per subdirectory (default: benchmarks/corpus)")
    parser.add_argument("--budget", type=float, default=None, metavar="SECONDS",
                        help="stop minimizing each case after this many seconds (best result so far)")
    parser.add_argument("--timeout", type=float, default=None, metavar="SECONDS",
                        help="hang timeout for every case (default: the case's own, else 300)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="candidates tested in parallel (default 1)")
    parser.add_argument("--executor", choices=("warm", "cold"), default="warm")
    parser.add_argument("--keep-values", action="store_true",
                        help="minimize with reportkit minimize --keep-values (library-raised values stay code)")
    parser.add_argument("--python", default=sys.executable, help="interpreter the cases run in")
    parser.add_argument("--json", type=Path, metavar="OUT",
                        help="also write the run's results to this file (kept results: "
                        "benchmarks/results/<set or selection>-<label>.json)")
    parser.add_argument("--report-from", type=Path, metavar="JSON", help="run nothing: re-print a --json file")
    parser.add_argument("--markdown", action="store_true", help="with --report-from: print a Markdown table")
    parser.add_argument("--recheck-cause", action="store_true",
                        help="with --report-from: re-judge 'cause' on the stored results with the manifests as they "
                        "are now (after a cause regex was corrected), saying which verdicts changed")
    args = parser.parse_args(argv)
    if args.report_from:
        data = read_results(args.report_from)
        results = [CaseResult(**r) for r in data["cases"]]
        if args.recheck_cause:
            manifests = {c.name: c for c in load_cases(args.corpus)}
            for r in results:
                case = manifests.get(r.case)
                if case is None or r.output is None:
                    continue
                missing = case.missing_causes(r.output)
                if (not missing) != r.cause:
                    print(f"(cause re-judged with the current manifest: {r.case} {_yn(r.cause)} -> {_yn(not missing)})")
                r.cause_missing, r.cause = missing, not missing
        print(f"(re-printed from {args.report_from}: measured {data['date']}, commit {data['commit']}, "
              f"budget {data['budget']}, jobs {data['jobs']})")
        if args.markdown:
            print(markdown_table(results))
            return 0
        print_table(results)
        print_totals(totals(results))
        return 0
    if not args.corpus.is_dir():
        raise SystemExit(f"--corpus {args.corpus}: not a directory")
    cases = load_cases(args.corpus)
    if not cases:
        raise SystemExit(f"--corpus {args.corpus}: no case directories (a subdirectory with a {MANIFEST})")
    cases = select_cases(cases, args.select, args.case)
    if args.list:
        for case in cases:
            print(f"{case.name:<52} {','.join(case.tags)}")
        print(f"{len(cases)} case(s)")
        return 0
    bad = {c.name: structure_problems(c) for c in cases}
    bad = {k: v for k, v in bad.items() if v}
    if bad:
        raise SystemExit("malformed corpus cases: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in bad.items()))
    start = time.strftime("%Y-%m-%d %H:%M:%S")
    args.commit = git_commit()  # once: the checkout may move while a long run goes on
    print(f"reportkit corpus benchmark ({args.corpus}) — {start}, commit {args.commit}, {os.cpu_count()} CPU(s), "
          f"Python {sys.version.split()[0]}; {len(cases)} case(s), jobs {args.jobs}, budget {args.budget}")
    results = []
    for case in cases:
        res = bench_case(case, args)
        results.append(res)
        if not res.error:
            print(f"   {res.lines_after} lines (minimal {res.minimal_lines}), {res.tests} tests, {res.wall} s; alone "
                  f"{_yn(res.alone)}, cause {_yn(res.cause)}, good {_yn(res.good)}", flush=True)
        if args.json:  # keep what was measured so far
            write_json(args, results, start)
    print_table(results)
    t = totals(results)
    print_totals(t)
    if args.json:
        write_json(args, results, start)
        print(f"\nwrote {args.json}")
    return 0


def write_json(args, results: list[CaseResult], start: str) -> None:
    data = {"date": start, "commit": args.commit, "corpus": os.path.relpath(args.corpus.resolve(), REPO),
            "select": args.select, "case_ids": args.case, "cpus": os.cpu_count(), "python": sys.version.split()[0],
            "budget": args.budget, "jobs": args.jobs, "executor": args.executor,
            "keep_values": args.keep_values,
            "totals": totals(results), "cases": [asdict(r) for r in results]}
    tmp = args.json.with_suffix(args.json.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(tmp, args.json)


def read_results(path: Path) -> dict:
    """A ``--json`` file (a run's results), or one clear message."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SystemExit(f"--report-from {path}: cannot read it: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise SystemExit(f"--report-from {path}: not a corpus_bench.py --json file (no 'cases' list)")
    return data


if __name__ == "__main__":
    sys.exit(main())
