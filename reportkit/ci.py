"""``reportkit ci``: from a failed CI job's JUnit XML to one confirmed, bundled failure per fingerprint.

The stages, each a function over plain data:

1. :func:`parse_junit` reads pytest's and unittest-xml-reporting's JUnit XML into :class:`JUnitCase`\\ s;
2. :func:`resolve_node` maps a case to a pytest node id under the repository root;
3. :func:`group_cases` groups the failed cases by what the XML says (exception type, normalized first
   message line, innermost file): one re-run per group instead of one per test;
4. :func:`confirm` re-runs the group's first test (``reportkit check``'s flakiness rule, :mod:`reportkit.check`),
   computes the signature's :func:`~reportkit.signature.fingerprint`, merges groups whose
   fingerprints agree, and bundles each failure (``reportkit bundle --issue``, optionally minimized);
5. :func:`write_outputs` writes ``reportkit-ci.json`` (the manifest ``reportkit publish`` reads), the
   Markdown summary (also appended to ``$GITHUB_STEP_SUMMARY``) and the step outputs (``$GITHUB_OUTPUT``).
"""

from __future__ import annotations

import json
import os
import re
import time
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Optional

from reportkit.check import CONFIRM_RUNS, Check, establish_original
from reportkit.constants import DEFAULT_TEMPLATE, MANIFEST_NAME, MANIFEST_VERSION
from reportkit.errors import NothingToReproduce, UserError, sigterm_as_interrupt
from reportkit.io import append_text, write_atomic
from reportkit.signature import MatchPolicy, Normalizer, fingerprint

MANIFEST = MANIFEST_NAME
SUMMARY = "summary.md"
STEP_SUMMARY_LIMIT = 1024 * 1024  # GitHub rejects a step summary above 1 MiB
_NORM = Normalizer()


@dataclass
class JUnitCase:
    classname: str
    name: str
    outcome: str  # "passed", "failure", "error", "skipped"
    file: str = ""
    exc_type: str = ""
    message: str = ""
    text: str = ""
    junit: str = ""  # the XML file it came from
    node: str = ""  # the pytest node id (path relative to the repository root), "" if unresolved
    why_unresolved: str = ""


@dataclass
class Failure:
    """One distinct failure: the tests that fail that way and what was found out about it."""

    key: str  # the grouping key from the XML
    tests: list[str]  # node ids (or classname::name when unresolved)
    representative: str = ""
    headline: str = ""  # from the XML until confirmed, then from the re-run
    verdict: str = "pending"  # confirmed | flaky | not-reproduced | error | skipped
    note: str = ""
    fingerprint: str = ""
    signature: Optional[dict] = None
    runs: int = 0
    failed_runs: int = 0
    title: str = ""
    bundle_dir: Optional[str] = None  # relative to the output directory
    issue_md: Optional[str] = None
    minimized: Optional[str] = None
    seconds: float = 0.0


@dataclass
class CiReport:
    out_dir: str
    repo_root: str
    junit: list[str]
    total_cases: int
    failed_cases: int
    failures: list[Failure] = field(default_factory=list)
    not_examined: list[str] = field(default_factory=list)  # failed tests beyond --max-tests
    run_url: Optional[str] = None
    wall_time: float = 0.0
    interrupted: bool = False  # Ctrl-C / SIGTERM: what was found so far is still written

    def to_manifest(self) -> dict:
        return {"version": MANIFEST_VERSION, "out_dir": self.out_dir, "repo_root": self.repo_root, "junit": self.junit,
                "run_url": self.run_url, "total_cases": self.total_cases, "failed_cases": self.failed_cases,
                "interrupted": self.interrupted,
                "not_examined": self.not_examined, "wall_time": round(self.wall_time, 1),
                "failures": [asdict(f) for f in self.failures]}


# --------------------------------------------------------------------------- 1. parse


def parse_junit(path: Path) -> list[JUnitCase]:
    """Every ``<testcase>`` of a JUnit XML file (any nesting of ``<testsuites>``/``<testsuite>``)."""
    try:
        root = ET.parse(path).getroot()
    except FileNotFoundError:
        raise UserError(f"no such JUnit XML file: {path}") from None
    except IsADirectoryError:
        raise UserError(f"{path} is a directory; give the JUnit XML file") from None
    except ET.ParseError as exc:
        raise UserError(f"{path} is not valid XML ({exc})") from None
    if root.tag not in ("testsuites", "testsuite", "testcase"):
        raise UserError(f"{path} is not a JUnit XML report (root element <{root.tag}>)")
    cases = []
    for el in root.iter("testcase"):
        outcome, exc_type, message, text = "passed", "", "", ""
        for child in el:
            if child.tag in ("failure", "error"):
                outcome = child.tag
                exc_type = child.get("type") or ""
                message = child.get("message") or ""
                text = child.text or ""
                break
            if child.tag == "skipped":
                outcome = "skipped"
        cases.append(JUnitCase(classname=el.get("classname") or "", name=el.get("name") or "", outcome=outcome,
                               file=el.get("file") or "", exc_type=exc_type, message=message, text=text,
                               junit=str(path)))
    return cases


# --------------------------------------------------------------------------- 2. resolve


def resolve_node(case: JUnitCase, roots: list[Path]) -> str:
    """The pytest node id of a case, relative to the first of ``roots`` holding its file; "" if none.

    pytest: classname ``tests.test_ops.TestClone`` (module path, then classes), name ``test_x[1]``; a
    collection error has an empty classname and the module's dotted path as name. unittest-xml-reporting:
    classname ``tests.test_ops.TestClone``, name the method, often a ``file`` attribute.
    """
    parts = [p for p in case.classname.split(".") if p] if case.classname else []
    if not parts and case.name:  # pytest's collection error: name = "tests.test_broken"
        dotted = case.name.split("[")[0]
        for root in roots:
            module = _module_file(root, dotted.split("."))
            if module is not None:
                return module[0]
        return ""
    for root in roots:
        if case.file:
            file = Path(case.file)
            file = file if file.is_absolute() else root / file
            if file.is_file():
                rel = os.path.relpath(file.resolve(), root.resolve())
                if not rel.startswith(".."):
                    module_parts = Path(rel).with_suffix("").parts
                    classes = parts[len(module_parts):] if tuple(parts[:len(module_parts)]) == module_parts else \
                        [p for p in parts if p and p[0].isupper()][-1:]
                    return "::".join([rel, *classes, case.name])
        found = _module_file(root, parts)
        if found is not None:
            rel, used = found
            return "::".join([rel, *parts[used:], case.name])
    return ""


def _module_file(root: Path, parts: list[str]) -> tuple[str, int] | None:
    """The longest prefix of ``parts`` that is a ``.py`` file under ``root``: (relative path, parts used).

    The dotted path is tried from ``root`` first, then as the tail of a path anywhere below it (a
    runner started in ``tests/`` writes ``test_ops.TestX`` for ``tests/test_ops.py``), if unique.
    """
    for used in range(len(parts), 0, -1):
        rel = "/".join(parts[:used]) + ".py"
        if (root / rel).is_file():
            return rel, used
    files = ["/" + p for p in _python_files(root)]  # walked once, not once per prefix
    for used in range(len(parts), 0, -1):
        tail = "/" + "/".join(parts[:used]) + ".py"
        found = [p[1:] for p in files if p.endswith(tail)]
        if len(found) == 1:
            return found[0], used
    return None


def _python_files(root: Path, limit: int = 20000) -> list[str]:
    """Relative paths of the ``.py`` files under ``root`` (skipping VCS, venv and cache dirs)."""
    from reportkit.runner import COPY_IGNORE

    skip = {p for p in COPY_IGNORE if "*" not in p}
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in skip and not d.startswith("."))
        rel_dir = os.path.relpath(dirpath, root)
        out += [os.path.normpath(os.path.join(rel_dir, f)) for f in sorted(filenames) if f.endswith(".py")]
        if len(out) > limit:
            break
    return out


# --------------------------------------------------------------------------- 3. group

_PYTEST_LOC_RE = re.compile(r"^([^\s:][^:\n]*\.py):(\d+): (\w[\w.]*)$", re.MULTILINE)
_TRACEBACK_LOC_RE = re.compile(r'^\s*File "([^"]+)", line \d+, in (\S+)', re.MULTILINE)
_TYPE_PREFIX_RE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Failure|Interrupt|Exit|Warning|Failed)|"
                             r"AssertionError): ?")


def xml_key(case: JUnitCase) -> tuple[str, str, str]:
    """(exception type, normalized first message line, innermost file name) as far as the XML tells."""
    message = case.message.strip()
    exc_type = case.exc_type.split(".")[-1]
    m = _TYPE_PREFIX_RE.match(message)
    if m:
        exc_type = exc_type or m.group(1).split(".")[-1]
        message = message[m.end():]
    first = _NORM.message_key(message)
    file = ""
    locs = _PYTEST_LOC_RE.findall(case.text)
    if locs:
        file, _, inner_type = locs[-1]
        exc_type = exc_type or inner_type.split(".")[-1]
    else:
        frames = _TRACEBACK_LOC_RE.findall(case.text)
        if frames:
            file = frames[-1][0]
    return exc_type, first, Path(file).name


def group_cases(cases: list[JUnitCase]) -> dict[tuple, list[JUnitCase]]:
    groups: dict[tuple, list[JUnitCase]] = {}
    for case in cases:
        groups.setdefault(xml_key(case), []).append(case)
    return groups


# --------------------------------------------------------------------------- 4. examine


@dataclass
class CiOptions:
    out_dir: Path
    repo_root: Path
    python: Optional[str] = None
    max_tests: int = 20
    budget: Optional[float] = None  # seconds for the whole command
    minimize: bool = False
    timeout: float = 600.0  # per test run
    runs: int = 2
    template: str = DEFAULT_TEMPLATE
    ladder: bool = True
    redact: bool = True


def confirm(failure: Failure, cases: list[JUnitCase], options: CiOptions, on_step: Callable[[str], None]):
    """Re-run the group's first resolvable test; fill verdict, signature and fingerprint.

    Returns ``(spec, source)`` to bundle it with, or None when it did not fail again.
    """
    from reportkit.runner import target_spec

    start = time.monotonic()
    case = next((c for c in cases if c.node), None)
    if case is None:
        failure.verdict, failure.note = "error", cases[0].why_unresolved or "no test file found for it"
        return None
    failure.representative = case.node
    path, _, node = case.node.partition("::")
    target = str(options.repo_root / path) + (f"::{node}" if node else "")
    try:
        spec, source = target_spec(target, [], python=options.python, timeout=options.timeout,
                                   repo_root=options.repo_root, pytest_module=not node)
        on_step(f"re-running {case.node} ({options.runs}x, then while it fails the same way up to "
                f"{CONFIRM_RUNS}x) ...")
        rep = establish_original(Check(spec, MatchPolicy()), options.runs, source)
    except NothingToReproduce as exc:
        failure.verdict, failure.note = "not-reproduced", exc.message.splitlines()[0]
        return None
    except UserError as exc:
        failure.verdict, failure.note = "error", exc.message.splitlines()[0]
        return None
    finally:
        failure.seconds += time.monotonic() - start
    sig = rep.signature
    failure.signature = sig.to_dict()
    failure.fingerprint = fingerprint(sig)
    failure.headline = sig.headline().splitlines()[0][:300]
    failure.runs, failure.failed_runs = rep.runs, rep.failures
    failure.verdict = "confirmed" if rep.deterministic else "flaky"
    return spec, source


def bundle_failure(failure: Failure, spec, source: str, options: CiOptions, deadline: float | None,
                   on_step: Callable[[str], None]) -> None:
    """``reportkit bundle --issue`` (``--minimize`` with options.minimize) into ``bundles/<fingerprint>``."""
    from reportkit.bundle import BundleOptions, make_bundle

    start = time.monotonic()
    rel = Path("bundles") / failure.fingerprint
    minimize = options.minimize and failure.verdict == "confirmed"
    budget = max(30.0, (deadline - time.monotonic()) / 2) if deadline is not None else None
    bopts = BundleOptions(out=options.out_dir / rel, issue=True, template=options.template, redact=options.redact,
                          ladder=options.ladder, minimize=minimize, budget=budget if minimize else None,
                          command=f"reportkit ci (re-run of {failure.representative})")
    on_step(f"bundling {failure.representative} ...")
    try:
        result = make_bundle(spec, source, MatchPolicy(), bopts, on_step=lambda m: on_step("  " + m))
    except UserError as exc:
        failure.note = f"not bundled: {exc.message.splitlines()[0]}"
        return
    finally:
        failure.seconds += time.monotonic() - start
    failure.title = result.title
    failure.bundle_dir = str(rel)
    failure.issue_md = str(rel / result.files["issue"]) if result.issue else None
    if minimize and result.collected.minimized:
        key = "standalone" if result.collected.standalone else "reproducer"
        failure.minimized = str(rel / result.files[key])


def run_ci(junit: list[Path], options: CiOptions, on_step: Callable[[str], None] = lambda m: None) -> CiReport:
    start = time.monotonic()
    deadline = start + options.budget if options.budget else None
    if not junit:
        raise UserError("give at least one JUnit XML file (--junit)")
    repo_root = options.repo_root.resolve()
    if not repo_root.is_dir():
        raise UserError(f"--repo-root {options.repo_root} is not a directory")
    options.repo_root = repo_root
    if options.out_dir.exists() and (not options.out_dir.is_dir() or any(options.out_dir.iterdir())):
        raise UserError(f"--out {options.out_dir} already exists and is not an empty directory; choose another "
                        "or remove it")
    cases, failed = _failed_cases(junit, repo_root)
    report = CiReport(out_dir=str(options.out_dir.resolve()), repo_root=str(repo_root), junit=[str(p) for p in junit],
                      total_cases=len(cases), failed_cases=len(failed), run_url=github_run_url())
    examined, report.not_examined = failed[:options.max_tests], [_label(c) for c in failed[options.max_tests:]]
    options.out_dir.mkdir(parents=True, exist_ok=True)
    by_fp: dict[str, Failure] = {}
    with sigterm_as_interrupt():  # a cancelled job still writes what was found
        try:
            _examine_groups(group_cases(examined), options, deadline, on_step, report, by_fp)
        except KeyboardInterrupt:
            report.interrupted = True
            done = {t for f in report.failures for t in f.tests}
            report.not_examined = [_label(c) for c in examined if _label(c) not in done] + report.not_examined
    report.wall_time = time.monotonic() - start
    return report


def _failed_cases(junit: list[Path], repo_root: Path) -> tuple[list[JUnitCase], list[JUnitCase]]:
    """Every case of the XML files, and the failed ones with their node ids resolved."""
    cases: list[JUnitCase] = []
    for path in junit:
        cases += parse_junit(path)
    failed = [c for c in cases if c.outcome in ("failure", "error")]
    for case in failed:
        roots = [repo_root] + [p for p in (Path(case.junit).resolve().parent,) if p != repo_root]
        case.node = resolve_node(case, roots)
        if not case.node:
            case.why_unresolved = f"no test file under {repo_root} for {case.classname or case.name}"
    return cases, failed


def _examine_groups(groups: dict, options: CiOptions, deadline: float | None, on_step: Callable[[str], None],
                    report: CiReport, by_fp: dict[str, Failure]) -> None:
    for key, members in groups.items():
        failure = Failure(key=" | ".join(key), tests=[_label(c) for c in members],
                          headline=": ".join(x for x in key[:2] if x))
        if deadline is not None and time.monotonic() > deadline:
            failure.verdict, failure.note = "skipped", "not re-run: the time budget was used up"
            failure.fingerprint = _xml_fingerprint(key)
            report.failures.append(failure)
            continue
        found = confirm(failure, members, options, on_step)
        if found is None:
            failure.fingerprint = _xml_fingerprint(key)
            report.failures.append(failure)
            continue
        if failure.fingerprint in by_fp:  # the XML told them apart, the re-runs do not
            by_fp[failure.fingerprint].tests += failure.tests
            continue
        by_fp[failure.fingerprint] = failure
        report.failures.append(failure)
        if deadline is not None and time.monotonic() > deadline:
            failure.note = "not bundled: the time budget was used up"
            continue
        bundle_failure(failure, *found, options, deadline, on_step)


def _label(case: JUnitCase) -> str:
    return case.node or f"{case.classname}::{case.name}".lstrip(":")


def _xml_fingerprint(key: tuple) -> str:
    """An id for a failure that did not reproduce (from the XML alone; marked as such)."""
    import hashlib

    return hashlib.sha256("\x1f".join(("junit", *key)).encode()).hexdigest()[:16]


def github_run_url() -> Optional[str]:
    server, repo, run = (os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    return f"{server}/{repo}/actions/runs/{run}" if server and repo and run else None


# --------------------------------------------------------------------------- 5. outputs

VERDICT_TEXT = {"confirmed": "reproduced", "flaky": "flaky", "not-reproduced": "did not reproduce",
                "error": "could not run", "skipped": "not re-run (budget)", "pending": "pending"}


def summary_markdown(report: CiReport) -> str:
    reproduced = [f for f in report.failures if f.verdict in ("confirmed", "flaky")]
    lines = ["## reportkit: failed tests", "",
             f"{report.failed_cases} of {report.total_cases} tests failed; {len(report.failures)} distinct "
             f"failure(s), {len(reproduced)} reproduced on re-run." + (f" [Run]({report.run_url})" if report.run_url
                                                                         else ""), ""]
    if report.failures:
        lines += ["| # | failure | tests | verdict | fingerprint | bundle |", "|---|---|---|---|---|---|"]
        for i, f in enumerate(report.failures, 1):
            tests = "<br>".join(f"`{_cell(t)}`" for t in f.tests[:5]) + (f"<br>+{len(f.tests) - 5} more"
                                                                         if len(f.tests) > 5 else "")
            verdict = VERDICT_TEXT.get(f.verdict, f.verdict)
            if f.runs:
                verdict += f" ({f.failed_runs}/{f.runs} runs)"
            bundle = f"`{f.bundle_dir}`" if f.bundle_dir else _cell(f.note)[:200]
            lines.append(f"| {i} | {_cell(f.headline)[:200]} | {tests} | {verdict} | `{f.fingerprint}` | {bundle} |")
        lines.append("")
    notes = [(f.fingerprint, f.note) for f in report.failures if f.note and f.bundle_dir]
    for fp, note in notes:
        lines.append(f"- `{fp}`: {_cell(note)}")
    if report.not_examined:
        lines += ["", f"Not examined (beyond --max-tests): {len(report.not_examined)} test(s): "
                  + ", ".join(f"`{_cell(t)}`" for t in report.not_examined[:20])]
    lines += ["", "Bundles (reproducer, logs, environment, `issue.md`) are in the workflow's artifact; "
              "`reportkit publish` files or updates one issue per fingerprint.", ""]
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def write_outputs(report: CiReport, out_dir: Path) -> dict[str, str]:
    """Write the manifest and summary into ``out_dir``; append to the GitHub files when they are set.

    Returns the step outputs (also written to ``$GITHUB_OUTPUT`` when set).
    """
    write_atomic(out_dir / MANIFEST, json.dumps(report.to_manifest(), indent=2))
    summary = summary_markdown(report)
    write_atomic(out_dir / SUMMARY, summary)
    outputs = {"bundle-dir": str(out_dir.resolve()), "count": str(len(report.failures)),
               "fingerprints": " ".join(f.fingerprint for f in report.failures if f.fingerprint),
               "manifest": str((out_dir / MANIFEST).resolve())}
    step_summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if step_summary:
        data = summary.encode("utf-8")
        used = _size(step_summary)
        room = STEP_SUMMARY_LIMIT - used - 200
        if len(data) > room:
            data = data[:max(0, room)].decode("utf-8", "ignore").encode() + \
                b"\n\n(truncated: the full summary is summary.md in the artifact)\n"
        _append(step_summary, data.decode("utf-8"))
    github_output = os.environ.get("GITHUB_OUTPUT")
    if github_output:
        _append(github_output, "".join(f"{k}={v}\n" for k, v in outputs.items()))
    return outputs


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _append(path: str, text: str) -> None:
    try:
        append_text(path, text)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
