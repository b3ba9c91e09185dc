"""``reportkit ci``: from a failed CI job's JUnit XML to one confirmed, bundled failure per fingerprint.

The stages, each a function over plain data:

1. :func:`parse_junit` reads pytest's and unittest-xml-reporting's JUnit XML into :class:`JUnitCase`\\ s;
2. :func:`resolve_node` maps a case to a pytest node id under the repository root;
3. :func:`group_cases` groups the failed cases by what the XML says (exception type, normalized first
   message line, innermost file): one re-run per group instead of one per test;
4. :func:`confirm` re-runs the group's first test (``reportkit check``'s flakiness rule, :mod:`reportkit.failure.check`),
   computes the signature's :func:`~reportkit.failure.signature.fingerprint`, merges groups whose
   fingerprints agree, and bundles each failure (``reportkit bundle --issue``, optionally minimized);
5. :func:`write_outputs` writes ``reportkit-ci.json`` (the manifest ``reportkit publish`` reads), the
   Markdown summary (also appended to ``$GITHUB_STEP_SUMMARY``) and the step outputs (``$GITHUB_OUTPUT``).
"""

from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
import xml.etree.ElementTree as ET
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

from reportkit.constants import AUTO_TEMPLATE, FINGERPRINT_PATTERN, MANIFEST_NAME, MANIFEST_VERSION
from reportkit.errors import NothingToReproduce, UserError, sigterm_as_interrupt
from reportkit.failure.check import CONFIRM_RUNS, Check
from reportkit.failure.signature import FailureKind, MatchPolicy, Normalizer, Signature, fingerprint_parts
from reportkit.io import (
    NotRegular,
    append_text,
    check_output_dir,
    guard_dir,
    open_regular,
    read_run_text,
    write_atomic,
)
from reportkit.redact import clip_words, redact_text

MANIFEST = MANIFEST_NAME
FAILED_OUTCOMES = ("failure", "error", "flaky")
SUMMARY = "summary.md"
STEP_SUMMARY_LIMIT = 1024 * 1024  # GitHub rejects a step summary above 1 MiB
_NORM = Normalizer()


@dataclass
class JUnitCase:
    classname: str
    name: str
    outcome: str  # "passed", "failure", "error", "skipped", "flaky" (failed, then passed on a rerun in the job)
    file: str = ""
    exc_type: str = ""
    message: str = ""
    text: str = ""
    junit: str = ""  # the XML file it came from
    node: str = ""  # the pytest node id (path relative to the repository root), "" if unresolved
    why_unresolved: str = ""
    reruns: int = 0  # failed attempts the runner recorded (rerunFailure / flakyFailure)


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
    minimized_on: Optional[str] = None  # the executor that ran --minimize's candidates (warm, cold, ray ...)
    seconds: float = 0.0
    job_note: str = ""  # what the job's own reruns said (JUnit rerunFailure / flakyFailure records)
    regression: str = ""  # with --good: "regression" (a culprit found), "pre-existing" (fails on the good code too)
    culprit: Optional[dict] = None  # with --good: the failure-inducing change (:func:`culprit.describe_culprit`)
    suspect: str = ""  # without --good: the function the tests' spectra point at ("file::qualname"), a guess
    unconfirmed: list[str] = field(default_factory=list)  # with --good: tests whose search did not conclude, here
    # because they fail as this failure's tests do (their culprit is not confirmed)
    group_key: Optional[tuple] = field(default=None, repr=False)  # while regrouping only


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
    budget: Optional[float] = None
    budget_exhausted: bool = False  # --budget ran out: the run in flight was cut, the rest not done
    part: Optional[dict] = None  # one matrix job (``ci --only``): its group id and the plan
    culprit_search: Optional[dict] = None  # with --good: the good revision and the search's cost
    grouping: Optional[dict] = None  # without --good: how the failures were grouped (a guess), and its cost

    def to_manifest(self) -> dict:
        extra = {PART_KEY: self.part} if self.part is not None else {}
        return {**extra, "version": MANIFEST_VERSION, "out_dir": self.out_dir, "repo_root": self.repo_root,
                "junit": self.junit, "run_url": self.run_url, "total_cases": self.total_cases,
                "failed_cases": self.failed_cases, "interrupted": self.interrupted, "budget": self.budget, "budget_exhausted": self.budget_exhausted,
                "not_examined": self.not_examined, "wall_time": round(self.wall_time, 1),
                "culprit_search": self.culprit_search, "grouping": self.grouping,
                "failures": [{k: v for k, v in asdict(f).items() if k != "group_key"} for f in self.failures]}


# --------------------------------------------------------------------------- 1. parse


def parse_junit(path: Path) -> list[JUnitCase]:
    """Every ``<testcase>`` of a JUnit XML file (any nesting of ``<testsuites>``/``<testsuite>``)."""
    try:
        root = _junit_root(path)
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
        outcome, exc_type, message, text, reruns = "passed", "", "", "", 0
        for child in el:
            tag = child.tag
            if tag in ("rerunFailure", "rerunError", "flakyFailure", "flakyError"):
                reruns += 1  # Maven Surefire / rerun plugins: one record per failed attempt
            if tag in ("failure", "error") or (tag in ("flakyFailure", "flakyError") and outcome == "passed"):
                outcome = tag if tag in ("failure", "error") else "flaky"  # flaky: passed on a rerun in the job
                exc_type = child.get("type") or ""
                message = child.get("message") or ""
                trace = child.find("stackTrace")
                text = (trace.text if trace is not None else child.text) or ""
            elif tag == "skipped" and outcome == "passed":
                outcome = "skipped"
        cases.append(JUnitCase(classname=el.get("classname") or "", name=el.get("name") or "", outcome=outcome,
                               file=el.get("file") or "", exc_type=exc_type[:MESSAGE_LIMIT],
                               message=_clipped(message, MESSAGE_LIMIT),
                               text=_clipped(text, TRACE_LIMIT // 4, TRACE_LIMIT - TRACE_LIMIT // 4),
                               junit=str(path), reruns=reruns))
    return cases


_LONG_ATTRIBUTE = re.compile(rb"""(\s[\w:.\-]{1,80}=)(?:"([^"<]{%d})[^"<]*"|'([^'<]{%d})[^'<]*')""" % (64 << 10, 64 << 10))
_BIG_XML = 8 << 20


def _junit_root(path: Path) -> ET.Element:
    """The parsed JUnit file. One larger than 8 MB has each attribute value cut to 64 KB before it is parsed (the
    XML parser takes seconds per 10 MB of one attribute: a test's 200 MB ``message=`` would hold ``ci`` for
    minutes); element text is parsed as it is."""
    with _open_junit(path) as fh:
        if os.fstat(fh.fileno()).st_size <= _BIG_XML:
            return ET.parse(fh).getroot()
        data = fh.read()

    def cut(m: re.Match[bytes]) -> bytes:
        quote, value = (b'"', m.group(2)) if m.group(2) is not None else (b"'", m.group(3))
        return m.group(1) + quote + re.sub(rb"&[#\w]{0,12}\Z", b"", value) + quote  # (not half an entity: &am)

    return ET.fromstring(_LONG_ATTRIBUTE.sub(cut, data))


def _open_junit(path: Path):  # noqa: ANN202 - a binary file object
    """The JUnit file opened for reading when it is a regular file (a link to one is followed: it is the user's
    input); a FIFO, a device or a socket is refused at once (``O_NONBLOCK``: opening a FIFO does not wait for a
    writer that never comes, whatever ``--budget`` says)."""
    if path.is_dir():
        raise IsADirectoryError(path)
    try:
        return open_regular(path, follow=True)
    except NotRegular:
        raise UserError(f"{path} is not a regular file (a FIFO, a device or a socket); give the JUnit XML file") \
            from None


MESSAGE_LIMIT = 64 << 10  # a failure's message read from JUnit XML: its first 64 KB (a headline, not a dump)
TRACE_LIMIT = 1 << 20  # its stack trace / captured text: the first 256 KB and the last 768 KB


def _clipped(text: str, head: int, tail: int = 0) -> str:
    """``text``'s first ``head`` and last ``tail`` characters, the cut said between them: a test's 200 MB message
    would cost minutes of redaction and matching and say nothing more (a trace keeps its end: the last frames)."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n[... {len(text) - head - tail} characters cut by reportkit ...]\n{text[len(text) - tail:] if tail else ''}"


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
    from reportkit.run.runner import COPY_IGNORE

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
_FRAME_LINE_RE = re.compile(r'^([^\s:][^:\n]*\.py):(\d+):(?: |$)|^\s*File "([^"]+)", line (\d+), in (\S+)',
                            re.MULTILINE)
_TRACEBACK_LOC_RE = re.compile(r'^\s*File "([^"]+)", line \d+, in (\S+)', re.MULTILINE)
_TYPE_PREFIX_RE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Failure|Interrupt|Exit|Warning|Failed)|"
                             r"AssertionError): ?")
_SIGN_RE = re.compile(r"(?<![\w)\]])[-+](?=N)")
# Where assertions are made on the test's behalf: a raise here is the test's verdict, not the library's.
ASSERT_LIBS = ("unittest/", "_pytest/", "pytest/", "torch/testing/", "numpy/testing/", "pandas/_testing",
               "hypothesis/")
_TEST_DIRS = {"test", "tests", "testing"}


def fold_signs(message: str) -> str:
    """``'-Nth'`` and ``'Nth'`` are one failure: a sign is part of the number that normalization removed."""
    return _SIGN_RE.sub("", message)


def is_test_code(file: str) -> bool:
    """A test module, conftest, a helper in a test directory, or an assertion library (unittest, pytest, ...)."""
    path = file.replace("\\", "/")
    name = path.rsplit("/", 1)[-1]
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return True
    if any(part in _TEST_DIRS for part in path.split("/")[:-1]):
        return "site-packages/" not in path
    return path.startswith(ASSERT_LIBS) or any(f"/{lib}" in path for lib in ASSERT_LIBS)


def _is_assertion(exc_type: str) -> bool:
    return exc_type.split(".")[-1] in ("AssertionError", "Failed", "") or exc_type.endswith("AssertionError")


def xml_frames(case: JUnitCase) -> list[tuple[str, int]]:
    """(file, line) of every traceback entry the XML shows, outermost first (pytest's or Python's format)."""
    frames = []
    for m in _FRAME_LINE_RE.finditer(case.text):
        file, line = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        frames.append((file, int(line)))
    return frames


def xml_key(case: JUnitCase) -> tuple[str, str, str, str]:
    """What the XML says about a failure: (exception type, message, raising file, test-side call site).

    The message is the normalized first line, signs folded. When the raise is on the test side (the
    test's own assert, a shared helper such as ``assert_equal`` in ``tests/common.py``, unittest's
    ``assertEqual``), the message holds the compared values, which differ per parameter, while the
    test-side call site (test module and line) tells the assertions apart: the key is the call site,
    not the message. A raise in library code keeps its message and file.
    """
    message = case.message.strip()
    exc_type = case.exc_type.split(".")[-1]
    m = _TYPE_PREFIX_RE.match(message)
    if m:
        exc_type = exc_type or m.group(1).split(".")[-1]
        message = message[m.end():]
    first = fold_signs(_NORM.message_key(redact_text(message, home="")))  # (normalized after redaction: digits made N)
    locs = _PYTEST_LOC_RE.findall(case.text)
    if locs:
        exc_type = exc_type or locs[-1][2].split(".")[-1]
    frames = xml_frames(case)
    raising = frames[-1][0] if frames else ""
    module = case.node.partition("::")[0] if case.node else ""
    site = ""
    if frames and is_test_code(raising):
        in_module = [f for f in frames if module and (f[0] == module or f[0].endswith("/" + module)
                                                     or module.endswith("/" + f[0]))]
        if not in_module:  # unresolved node: the outermost test-code frame
            in_module = [f for f in frames if is_test_code(f[0])][:1]
        if in_module:
            site = f"{Path(in_module[-1][0]).name}:{in_module[-1][1]}"
        if _is_assertion(exc_type) or "assert" in message.lower():
            first = ""
    return exc_type, first, Path(raising).name, site


def group_cases(cases: list[JUnitCase]) -> dict[tuple, list[JUnitCase]]:
    groups: dict[tuple, list[JUnitCase]] = {}
    for case in cases:
        groups.setdefault(xml_key(case), []).append(case)
    return groups


MAX_RERUNS_PER_GROUP = 3


def split_by_frames(members: list[JUnitCase], limit: int = MAX_RERUNS_PER_GROUP) -> list[list[JUnitCase]]:
    """The members of one group by the traceback the XML shows (files and lines): one re-run each, at most
    ``limit`` (the rest join the last), so that a group whose tests reached the raise by different
    paths is not judged by one test alone."""
    parts: dict[tuple, list[JUnitCase]] = {}
    for case in members:
        parts.setdefault(tuple(xml_frames(case)), []).append(case)
    split = list(parts.values())
    if len(split) > limit:
        split = split[:limit - 1] + [[c for part in split[limit - 1:] for c in part]]
    return split


def ci_fingerprint_parts(sig: Signature) -> list[str]:
    """:func:`~reportkit.failure.signature.fingerprint_parts`, made per bug rather than per test.

    Signs folded in the message. A raise in library code is identified by type, message and raising
    function alone (the same bug reached from several tests is one failure). A raise on the test side
    (an assert, a shared helper, unittest's assertEqual) by the test-side call site: the test
    module's function and the statement that made the assertion; for assertions not by their message,
    whose values differ per parameter.
    """
    parts = fingerprint_parts(sig)
    if sig.kind != FailureKind.EXCEPTION or sig.location is None:
        return parts
    loc, site = sig.location, sig.script_frame
    message = fold_signs(sig.message or "")
    if not (loc.in_script or is_test_code(loc.file)):
        return ["exception", sig.exc_type or "", message, f"{loc.file}:{loc.function}"]
    if _is_assertion(sig.exc_type or ""):
        message = ""
    frame = site or loc
    return ["exception", sig.exc_type or "", message, "test-side", Path(frame.file).name, frame.function,
            frame.text]


def ci_fingerprint(sig: Signature) -> str:
    import hashlib

    return hashlib.sha256("\x1f".join(ci_fingerprint_parts(sig)).encode()).hexdigest()[:16]


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
    template: str = AUTO_TEMPLATE  # venue.py picks the form per failure
    ladder: bool = True
    redact: bool = True
    executor: object = "warm"  # --minimize: where candidates run ("warm", "cold" or a ray_executor.RayConfig)
    jobs: Optional[int] = None  # --minimize: candidates tested in parallel (default: the number of cores)
    good: Optional[str] = None  # --good REV ("auto": the merge base with the default branch): the culprit search
    confirm_runs: int = CONFIRM_RUNS  # a failure is confirmed after this many runs failing alike (job's reruns count)
    spectrum: bool = True  # without --good: regroup by suspect function (one traced run per test module)


def recorded_failures(cases: list[JUnitCase]) -> int:
    """Runs of the group's first test that the job itself saw fail (JUnit rerun records: the failed attempt
    plus its ``rerunFailure`` records); 0 without records, or when it passed on a rerun (flaky already)."""
    case = next((c for c in cases if c.node), None)
    if case is None or not case.reruns or case.outcome not in ("failure", "error"):
        return 0
    return 1 + case.reruns


def _target(node: str, options: CiOptions):
    from reportkit.run.runner import target_spec

    path, _, name = node.partition("::")
    target = str(options.repo_root / path) + (f"::{name}" if name else "")
    return target_spec(target, [], python=options.python, timeout=options.timeout, repo_root=options.repo_root,
                       pytest_module=not name)


def confirm(failure: Failure, cases: list[JUnitCase], options: CiOptions, on_step: Callable[[str], None]):
    """Re-run the group's first resolvable test; fill verdict, signature and fingerprint.

    ``options.confirm_runs`` runs in all must fail alike (stopping at the first that does not); the
    attempts the job's JUnit records show failing count among them. Returns ``(spec, source, signature)``
    to bundle it with, or None when it did not fail again.
    """
    from reportkit.failure.check import confirm_with_warm, reproduce

    start = time.monotonic()
    case = next((c for c in cases if c.node), None)
    if case is None:
        failure.verdict, failure.note = "error", cases[0].why_unresolved or "no test file found for it"
        return None
    failure.representative = case.node
    recorded = recorded_failures(cases)
    target = max(1, options.confirm_runs - recorded)
    first = max(1, min(options.runs, target))
    try:
        spec, source = _target(case.node, options)
        on_step(f"re-running {case.node} ({first}x" + (f", then while it fails the same way up to {target}x"
                                                     if target > first else "") + ")"
                + (f"; the job's JUnit records {recorded} failed attempt(s)" if recorded else "") + " ...")
        check = Check(spec, MatchPolicy())
        rep = confirm_with_warm(reproduce(check, first, source), check, source, target=target)
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
    failure.fingerprint = ci_fingerprint(sig)
    failure.headline = clip_words(sig.headline().splitlines()[0], 300)
    failure.runs, failure.failed_runs = rep.runs + recorded, rep.failures + recorded
    failure.verdict = "confirmed" if rep.deterministic else "flaky"
    return spec, source, sig


def bundle_failure(failure: Failure, spec, source: str, options: CiOptions, deadline: float | None,
                   on_step: Callable[[str], None], good=None) -> None:
    """``reportkit bundle --issue`` (``--minimize`` with options.minimize) into ``bundles/<fingerprint>``."""
    from reportkit.report.bundle import BundleOptions, make_bundle

    start = time.monotonic()
    rel = Path("bundles") / failure.fingerprint
    minimize = options.minimize and failure.verdict == "confirmed"
    budget = max(1.0, (deadline - time.monotonic()) / 2) if deadline is not None else None  # leave time to bundle
    bopts = BundleOptions(out=options.out_dir / rel, issue=True, template=options.template, redact=options.redact,
                          ladder=options.ladder, minimize=minimize, budget=budget if minimize else None,
                          executor=options.executor, jobs=options.jobs, fold_local=False,
                          good=good if failure.regression == "regression" else None,
                          command=f"reportkit ci (re-run of {failure.representative})")
    on_step(f"bundling {failure.representative} ...")
    spyre = "torch_spyre" in source or "torch_spyre" in _conftest_text(spec)

    def step(message: str) -> None:
        if not spyre and message.startswith("debug run: "):  # its TORCH_SPYRE_* settings mean nothing here
            message = "debug run" + message[message.rfind(" ("):]
        on_step("  " + message)

    try:
        result = make_bundle(spec, source, MatchPolicy(), bopts, on_step=step)
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
        failure.minimized_on = result.collected.minimized.executor


def _conftest_text(spec) -> str:
    """The conftest.py files from the test's directory up to its rootdir (where a suite may import torch_spyre)."""
    texts = []
    root = (spec.root or spec.script.parent).resolve()
    folder = spec.script.resolve().parent
    while True:
        text = read_run_text(folder / "conftest.py", follow=True)  # (a FIFO a pull request made: not read)
        if text:
            texts.append(text)
        if folder == root or folder.parent == folder or root not in folder.parents:
            break
        folder = folder.parent
    return "\n".join(texts)


class BudgetExpired(KeyboardInterrupt):
    """``--budget`` ran out. Raised in the main thread by a timer signal, wherever it is: a run in flight
    is killed on the way out like on Ctrl-C (the runner kills the process group on any exception)."""


@contextmanager
def wall_clock_budget(deadline: Optional[float], refire: float = 2.0) -> Iterator[None]:
    """Raise :class:`BudgetExpired` in the main thread at ``deadline`` (``time.monotonic()`` based).

    The timer fires again every ``refire`` seconds until the block is left, so code that keeps going
    after an interrupt (minimize keeps its best result and returns) is stopped too. Outside the main
    thread, or without ``setitimer``, it does nothing: the checks between steps still apply.
    """
    if deadline is None or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum, frame):
        raise BudgetExpired

    previous = signal.signal(signal.SIGALRM, expire)
    try:
        signal.setitimer(signal.ITIMER_REAL, max(0.001, deadline - time.monotonic()), refire)
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_ci(junit: list[Path], options: CiOptions, on_step: Callable[[str], None] = lambda m: None,
           only: Optional[str] = None) -> CiReport:
    """The whole ``reportkit ci``; with ``only`` (a group id of :func:`make_plan`) that group's work alone,
    as one job of a GitHub Actions matrix does (``reportkit ci --only ID``; :func:`merge_parts` combines them)."""
    start = time.monotonic()
    deadline = start + options.budget if options.budget else None
    repo_root = resolve_repo_root(options)
    check_output_dir(options.out_dir)
    plan = make_plan(junit, repo_root, options.max_tests, limit=None if only is None else MATRIX_LIMIT)
    good = resolve_good(options.good, repo_root) if options.good else None
    report = CiReport(out_dir=str(options.out_dir.resolve()), repo_root=str(repo_root), junit=[str(p) for p in junit],
                      total_cases=plan.total_cases, failed_cases=plan.failed_cases, run_url=github_run_url(),
                      budget=options.budget)
    if only is None:
        chosen = plan.groups
        report.not_examined = list(plan.not_examined)
    else:
        chosen = [g for g in plan.groups if g.id == only]
        if not chosen:
            listed = ", ".join(g.id for g in plan.groups[:10]) + (" ..." if len(plan.groups) > 10 else "")
            raise UserError(f"--only {only}: no such failure group in the plan of these JUnit files (it has: "
                            f"{listed or 'none'}); give --only the same --junit, --repo-root and --max-tests as "
                            "--plan")
        report.part = {"id": only, "plan": plan.to_dict()}
    groups = {g.key: g.cases for g in chosen}
    examined = [c for g in chosen for c in g.cases]
    options.out_dir.mkdir(parents=True, exist_ok=True)
    guard_dir(options.out_dir)
    by_fp: dict[str, Failure] = {}
    with sigterm_as_interrupt():  # a cancelled job still writes what was found
        try:
            with wall_clock_budget(deadline):
                _examine_groups(groups, options, deadline, on_step, report, by_fp, good)
        except BudgetExpired:
            from reportkit.run.runner import kill_active

            kill_active()  # runs of other threads (minimize's workers) that are still going
            report.budget_exhausted = True
            _after_budget(groups, report, options)
            on_step(f"time budget of {options.budget:g} s used up: stopped")
        except KeyboardInterrupt:
            report.interrupted = True
            report.failures = [f for f in report.failures if f.verdict != "pending"]
            done = {t for f in report.failures for t in f.tests}
            report.not_examined = [_label(c) for c in examined if _label(c) not in done] + report.not_examined
    report.wall_time = time.monotonic() - start
    return report


def resolve_repo_root(options: CiOptions) -> Path:
    repo_root = options.repo_root.resolve()
    if not repo_root.is_dir():
        raise UserError(f"--repo-root {options.repo_root} is not a directory")
    options.repo_root = repo_root
    return repo_root


# --------------------------------------------------------------------------- the Actions matrix

MATRIX_LIMIT = 256  # GitHub Actions runs at most 256 jobs per matrix
PART_KEY = "part"  # the manifest of one matrix job (``ci --only``) names its group and the plan here


@dataclass
class PlanGroup:
    """One distinct failure as the XML tells it (a :func:`group_cases` group): one matrix job."""

    id: str  # "<nn>-<8 hex>": position in the plan and the group's XML fingerprint
    key: tuple
    tests: list[str]
    headline: str
    cases: list[JUnitCase] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        return {"id": self.id, "key": list(self.key), "tests": self.tests, "headline": self.headline}


@dataclass
class Plan:
    """The failure groups ``reportkit ci`` examines, in its order; the same for every job given the same XML."""

    repo_root: str
    junit: list[str]
    total_cases: int
    failed_cases: int
    not_examined: list[str]
    groups: list[PlanGroup]

    def to_dict(self) -> dict:
        """As JSON, with a digest of what the jobs must agree on (not the paths: runners may differ there)."""
        data = {"total_cases": self.total_cases, "failed_cases": self.failed_cases,
                "not_examined": self.not_examined, "groups": [g.to_dict() for g in self.groups]}
        return {"repo_root": self.repo_root, "junit": self.junit, **data, "digest": _digest(data)}

    def matrix(self) -> dict:
        """The ``strategy.matrix`` of the per-failure jobs (``fromJSON``): one entry per group."""
        return {"include": [{"id": g.id, "name": clip_words(g.headline, 80), "tests": len(g.tests), "test": g.tests[0]}
                            for g in self.groups]}


def _digest(data: dict) -> str:
    import hashlib

    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def make_plan(junit: list[Path], repo_root: Path, max_tests: int, limit: Optional[int] = None) -> Plan:
    """Parse, resolve and group the failed tests exactly as ``reportkit ci`` does (one implementation).
    ``limit``: at most that many groups (a matrix: :data:`MATRIX_LIMIT`), the rest not examined."""
    if not junit:
        raise UserError("give at least one JUnit XML file (--junit)")
    cases, failed = _failed_cases(junit, repo_root)
    examined, not_examined = failed[:max_tests], [_label(c) for c in failed[max_tests:]]
    groups = list(group_cases(examined).items())
    if limit is not None:  # only reachable with --max-tests above the limit
        for _key, members in groups[limit:]:
            not_examined += [_label(c) for c in members]
        groups = groups[:limit]
    plan_groups = [PlanGroup(id=f"{i:02d}-{_xml_fingerprint(key)[:8]}", key=key, tests=[_label(c) for c in members],
                             headline=": ".join(x for x in key[:2] if x) or key[0] or _label(members[0]),
                             cases=members)
                   for i, (key, members) in enumerate(groups, 1)]
    return Plan(repo_root=str(repo_root), junit=[str(p) for p in junit], total_cases=len(cases),
                failed_cases=len(failed), not_examined=not_examined, groups=plan_groups)


def write_plan(plan: Plan) -> str:
    """The matrix as one JSON line; also ``matrix=`` and ``count=`` in ``$GITHUB_OUTPUT`` when set. Redacted."""
    from reportkit.redact import redact_data, redact_output

    line = redact_output(json.dumps(redact_data(plan.matrix(), home=""), separators=(",", ":")), home="")
    github_output = os.environ.get("GITHUB_OUTPUT")
    if github_output:
        _append(github_output, f"matrix={line}\ncount={len(plan.groups)}\n")
    return line


MISSING_NOTE = "no result: its matrix job did not finish (cancelled, failed or out of time) or its artifact is missing"


def merge_parts(dirs: list[Path], out_dir: Path, on_step: Callable[[str], None] = lambda m: None) -> CiReport:
    """Combine the outputs of the matrix jobs (``reportkit ci --only ID``) into the report one ``reportkit ci``
    run writes: failures in the plan's order, groups whose re-runs share a fingerprint merged into the first
    (its bundle kept, the later one's dropped), bundles copied into ``out_dir/bundles/`` through the redaction
    edge. A group without a part is listed with :data:`MISSING_NOTE`.

    ``dirs``: part directories, or directories holding them (one level down, as download-artifact lays out
    several artifacts)."""
    check_output_dir(out_dir)
    parts = _load_parts(dirs, on_step)
    plans = {p[PART_KEY]["plan"].get("digest") for p, _ in parts.values()}
    if len(plans) > 1:
        raise UserError("--merge: the parts come from different plans (other JUnit files, --repo-root or "
                        "--max-tests); merge the jobs of one `reportkit ci --plan` only")
    plan = next(iter(parts.values()))[0][PART_KEY]["plan"]
    budgets = [float(m["budget"]) for m, _ in parts.values() if isinstance(m.get("budget"), (int, float))]
    report = CiReport(out_dir=str(out_dir.resolve()), repo_root=plan["repo_root"], junit=plan["junit"],
                      total_cases=plan["total_cases"], failed_cases=plan["failed_cases"], run_url=github_run_url(),
                      budget=max(budgets) if budgets else None)
    by_fp: dict[str, Failure] = {}
    not_examined: list[str] = []
    for manifest, where in parts.values():  # every destination inside --out, checked before anything is written
        for item in manifest.get("failures") or []:
            _check_paths(_failure_of(item, where), where, out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    guard_dir(out_dir)
    for group in plan["groups"]:
        found = parts.get(group["id"])
        if found is None:
            key = tuple(group["key"])
            report.failures.append(Failure(key=" | ".join(x for x in key if x), tests=list(group["tests"]),
                                           headline=group["headline"], verdict="missing", note=MISSING_NOTE,
                                           fingerprint=_xml_fingerprint(key)))
            continue
        manifest, where = found
        # a job cancelled midway (SIGTERM) wrote what it found and listed the rest as not examined; the
        # merge itself was not interrupted (its exit code says so)
        report.budget_exhausted |= bool(manifest.get("budget_exhausted")) and report.budget is not None
        report.wall_time = max(report.wall_time, float(manifest.get("wall_time") or 0.0))
        not_examined += [t for t in manifest.get("not_examined") or [] if isinstance(t, str)]
        for item in manifest.get("failures") or []:
            failure = _failure_of(item, where)
            if failure.verdict in ("confirmed", "flaky") and failure.fingerprint in by_fp:
                by_fp[failure.fingerprint].tests += failure.tests  # as a single run merges them
                continue
            if failure.verdict in ("confirmed", "flaky"):
                by_fp[failure.fingerprint] = failure
            if failure.bundle_dir:
                _copy_bundle(where, out_dir, failure.bundle_dir)
            report.failures.append(failure)
    report.not_examined = not_examined + [t for t in plan["not_examined"] if isinstance(t, str)]
    report.culprit_search, report.grouping = merge_search_reports([m for m, _ in parts.values()])
    return report


def _load_parts(dirs: list[Path], on_step: Callable[[str], None]) -> dict[str, tuple[dict, Path]]:
    candidates: list[Path] = []
    for d in dirs:
        if not d.is_dir():
            raise UserError(f"--merge {d}: not a directory (give the output directories of `reportkit ci --only`, "
                            "or a directory holding them)")
        candidates += [d] if (d / MANIFEST).is_file() else sorted(p for p in d.iterdir() if p.is_dir())
    parts: dict[str, tuple[dict, Path]] = {}
    for d in candidates:
        file = d / MANIFEST
        if not file.is_file():
            on_step(f"--merge: {d} holds no {MANIFEST} (a job that did not finish?): left out")
            continue
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise UserError(f"--merge: {file} is not a readable JSON manifest: {exc}") from None
        part = data.get(PART_KEY) if isinstance(data, dict) else None
        if data.get("version") != MANIFEST_VERSION or not isinstance(part, dict) or \
                not isinstance(part.get("plan"), dict) or not isinstance(part.get("id"), str):
            raise UserError(f"--merge: {file} is not the output of one matrix job (`reportkit ci --only ID`, "
                            f"manifest version {MANIFEST_VERSION})")
        if part["id"] in parts:
            raise UserError(f"--merge: two results for group {part['id']} ({parts[part['id']][1]} and {d})")
        parts[part["id"]] = (data, d)
    if not parts:
        raise UserError(f"--merge: no matrix job results found in {', '.join(str(d) for d in dirs)}")
    return parts


def _failure_of(item: object, where: Path) -> Failure:
    import dataclasses

    if not isinstance(item, dict):
        raise UserError(f"--merge: {where / MANIFEST}: a failure is not an object")
    names = {f.name for f in dataclasses.fields(Failure)}
    try:
        failure = Failure(**{k: v for k, v in item.items() if k in names})
    except TypeError as exc:
        raise UserError(f"--merge: {where / MANIFEST}: a failure lacks a field ({exc})") from None
    if not isinstance(failure.fingerprint, str) or not re.match(FINGERPRINT_PATTERN, failure.fingerprint):
        raise UserError(f"--merge: {where / MANIFEST}: a failure's fingerprint must be hex digits, not "
                        f"{failure.fingerprint!r}; refused (a crafted or damaged artifact?)")
    return failure


def _inside(base: Path, rel: str, what: str, manifest: Path, *, dir_itself: bool = False) -> Path:
    """``base/rel`` resolved (links, ``..``), refused with one clear error unless it stays below ``base``:
    a relative path without ``..`` that, links followed, is inside ``base`` (not ``base`` itself)."""
    path = Path(rel)
    root = base.resolve()
    target = (root / path).resolve()
    if path.is_absolute() or ".." in path.parts or target == root or not target.is_relative_to(root):
        where = "the job's directory" if dir_itself else "--out"
        raise UserError(f"--merge: {manifest} names the {what} {rel!r}, which is not inside {where} {base}; "
                        "refused (a crafted or damaged artifact?)")
    return target


def _check_paths(failure: Failure, part_dir: Path, out_dir: Path) -> None:
    """The paths a part's failure names (its bundle, issue.md, minimized script) stay inside the part's
    directory and, copied, inside ``--out``."""
    manifest = part_dir / MANIFEST
    for what, rel in (("bundle", failure.bundle_dir), ("issue.md", failure.issue_md),
                      ("minimized script", failure.minimized)):
        if rel is None:
            continue
        if not isinstance(rel, str) or not rel:
            raise UserError(f"--merge: {manifest}: the {what} of a failure is not a path")
        _inside(part_dir, rel, what, manifest, dir_itself=True)
        _inside(out_dir, rel, what, manifest)
        if what != "bundle" and failure.bundle_dir and not Path(rel).is_relative_to(failure.bundle_dir):
            raise UserError(f"--merge: {manifest} names the {what} {rel!r} outside its bundle "
                            f"{failure.bundle_dir!r}; refused (a crafted or damaged artifact?)")


def _copy_bundle(part_dir: Path, out_dir: Path, rel: str) -> None:
    """Copy ``part_dir/rel`` (a bundle directory) to ``out_dir/rel``, every text file through the redaction
    edge of this process (its secrets too; by its name: code, markdown or text), and archive it again like
    ``bundle`` does."""
    from reportkit.redact import redact_for
    from reportkit.report.bundle import make_archive

    manifest = part_dir / MANIFEST
    src, dst = _inside(part_dir, rel, "bundle", manifest, dir_itself=True), _inside(out_dir, rel, "bundle", manifest)
    if not src.is_dir() or (part_dir / rel).is_symlink():
        raise UserError(f"--merge: {manifest} names the bundle {rel}, which is not a directory there")
    dst.mkdir(parents=True, exist_ok=True)
    for dirpath, dirnames, filenames in os.walk(src):  # links are never followed (a bundle holds none)
        here = Path(dirpath)
        for name in sorted(dirnames):
            if not (here / name).is_symlink():
                (dst / (here / name).relative_to(src)).mkdir(parents=True, exist_ok=True)
        for name in sorted(filenames):
            path = here / name
            if path.is_symlink() or not path.is_file():
                continue
            target = dst / path.relative_to(src)
            if not target.parent.resolve().is_relative_to(dst):
                raise UserError(f"--merge: {manifest}: the bundle {rel} leads outside --out; refused")
            data = path.read_bytes()
            try:
                data = redact_for(path.name, data.decode("utf-8"), home="").encode("utf-8")
            except UnicodeDecodeError:
                pass  # binary (an archive, a compiled artifact): as it is
            write_atomic(target, data, mode=0o600)
    make_archive(dst)


def _failed_cases(junit: list[Path], repo_root: Path) -> tuple[list[JUnitCase], list[JUnitCase]]:
    """Every case of the XML files, and the failed ones with their node ids resolved."""
    cases: list[JUnitCase] = []
    for path in junit:
        cases += parse_junit(path)
    failed = [c for c in cases if c.outcome in FAILED_OUTCOMES]
    for case in failed:
        roots = [repo_root] + [p for p in (Path(case.junit).resolve().parent,) if p != repo_root]
        case.node = resolve_node(case, roots)
        if not case.node:
            case.why_unresolved = f"no test file under {repo_root} for {case.classname or case.name}"
    return cases, failed


BUDGET_CUT = "cut at the time budget"


def _after_budget(groups: dict, report: CiReport, options: CiOptions) -> None:
    """Say what the budget left undone: the failure in flight and the groups never reached."""
    import shutil

    key_of = {_label(c): key for key, members in groups.items() for c in members}
    for failure in report.failures:
        if failure.verdict == "pending":  # its re-run was in flight
            failure.verdict, failure.note = "skipped", f"re-run {BUDGET_CUT}"
            failure.fingerprint = _xml_fingerprint(key_of.get(failure.tests[0], (failure.key,)))
            failure.signature, failure.runs, failure.failed_runs = None, 0, 0
        elif failure.verdict in ("confirmed", "flaky") and not failure.bundle_dir and not failure.note:
            failure.note = f"not bundled: {BUDGET_CUT}"  # its bundle was in flight: drop the partial one
            shutil.rmtree(options.out_dir / "bundles" / failure.fingerprint, ignore_errors=True)
    done = {t for f in report.failures for t in f.tests}
    for key, members in groups.items():
        if not any(_label(c) in done for c in members):
            report.failures.append(Failure(key=" | ".join(key), tests=[_label(c) for c in members],
                                           headline=": ".join(x for x in key[:2] if x), verdict="skipped",
                                           note="not re-run: the time budget was used up",
                                           fingerprint=_xml_fingerprint(key)))


def _examine_groups(groups: dict, options: CiOptions, deadline: float | None, on_step: Callable[[str], None],
                    report: CiReport, by_fp: dict[str, Failure], good=None) -> None:
    if good is not None:
        _examine_with_good(groups, options, deadline, on_step, report, good)
        return
    if options.spectrum:
        _examine_by_spectrum(groups, options, deadline, on_step, report)
        return
    for key, group in groups.items():
        for members in split_by_frames(group):
            _examine_one(key, members, options, deadline, on_step, report, by_fp)


def _new_failure(key: tuple, members: list[JUnitCase]) -> Failure:
    failure = Failure(key=" | ".join(x for x in key if x), tests=[_label(c) for c in members],
                      headline=": ".join(x for x in key[:2] if x) or key[0])
    flaky = sum(c.outcome == "flaky" for c in members)
    if flaky or any(c.reruns for c in members):
        failure.job_note = (f"in the job: {flaky} of {len(members)} test(s) passed on a rerun (flaky); "
                            f"{sum(c.reruns for c in members)} failed attempt(s) recorded")
    return failure


def _confirm_in_time(failure: Failure, key: tuple, members: list[JUnitCase], options: CiOptions,
                     deadline: float | None, on_step: Callable[[str], None]) -> Optional[tuple]:
    """:func:`confirm` the group's failure unless the time budget is used up (then it is "skipped"); None:
    not confirmed, and the failure keeps the XML's fingerprint."""
    if deadline is not None and time.monotonic() > deadline:
        failure.verdict, failure.note = "skipped", "not re-run: the time budget was used up"
        failure.fingerprint = _xml_fingerprint(key)
        return None
    found = confirm(failure, members, options, on_step)
    if found is None:
        failure.fingerprint = _xml_fingerprint(key)
    return found


def _examine_one(key: tuple, members: list[JUnitCase], options: CiOptions, deadline: float | None,
                 on_step: Callable[[str], None], report: CiReport, by_fp: dict[str, Failure]) -> None:
    failure = _new_failure(key, members)
    report.failures.append(failure)
    found = _confirm_in_time(failure, key, members, options, deadline, on_step)
    if found is None:
        return
    if failure.fingerprint in by_fp:  # the XML told them apart, the re-runs do not
        by_fp[failure.fingerprint].tests += failure.tests
        report.failures.remove(failure)
        return
    by_fp[failure.fingerprint] = failure
    if deadline is not None and time.monotonic() > deadline:
        failure.note = "not bundled: the time budget was used up"
        return
    bundle_failure(failure, found[0], found[1], options, deadline, on_step)


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
                "error": "could not run", "skipped": "not re-run (budget)", "pending": "pending",
                "missing": "no result from its job"}


def summary_markdown(report: CiReport) -> str:
    """The markdown step summary of a CI report: counts, the failure table, notes and what was left undone."""
    lines = _summary_head(report)
    lines += _failure_table(report.failures)
    lines += _failure_notes(report.failures)
    lines += _culprit_lines(report.failures)
    lines += _culprit_search_lines(report.culprit_search)
    lines += _grouping_lines(report)
    lines += _budget_lines(report)
    lines += _not_examined_lines(report.not_examined)
    lines += ["", "Bundles (reproducer, logs, environment, `issue.md`) are in the workflow's artifact; "
              "`reportkit publish` files or updates one issue per fingerprint.", ""]
    return "\n".join(lines)


def _summary_head(report: CiReport) -> list[str]:
    """The title and the counts line (with the run's link when known)."""
    reproduced = [f for f in report.failures if f.verdict in ("confirmed", "flaky")]
    run_link = f" [Run]({report.run_url})" if report.run_url else ""
    return ["## reportkit: failed tests", "",
            f"{report.failed_cases} of {report.total_cases} tests failed; {len(report.failures)} distinct "
            f"failure(s), {len(reproduced)} reproduced on re-run." + run_link, ""]


def _failure_table(failures: list[Failure]) -> list[str]:
    """The table of the failures, one row each (nothing without failures)."""
    if not failures:
        return []
    lines = ["| # | failure | tests | verdict | fingerprint | bundle |", "|---|---|---|---|---|---|"]
    for i, f in enumerate(failures, 1):
        bundle = f"`{f.bundle_dir}`" if f.bundle_dir else clip_words(_cell(f.note), 200)
        lines.append(f"| {i} | {clip_words(_cell(f.headline), 200)} | {_tests_cell(f.tests)} | {_verdict_cell(f)} "
                     f"| `{f.fingerprint}` | {bundle} |")
    lines.append("")
    return lines


def _tests_cell(tests: list[str]) -> str:
    """The first five tests of a failure, and how many more."""
    more = f"<br>+{len(tests) - 5} more" if len(tests) > 5 else ""
    return "<br>".join(f"`{_cell(t)}`" for t in tests[:5]) + more


def _verdict_cell(f: Failure) -> str:
    """A failure's verdict in words, with its runs and whether it is pre-existing."""
    verdict = VERDICT_TEXT.get(f.verdict, f.verdict)
    if f.runs:
        verdict += f" ({f.failed_runs}/{f.runs} runs)"
    if f.regression == "pre-existing":
        verdict += "; pre-existing (fails on the good revision)"
    return verdict


def _failure_notes(failures: list[Failure]) -> list[str]:
    """The notes of bundled failures and the jobs' own rerun notes, one bullet each."""
    notes = [(f.fingerprint, f.note) for f in failures if f.note and f.bundle_dir]
    notes += [(f.fingerprint, f.job_note) for f in failures if f.job_note]
    return [f"- `{fp}`: {_cell(note)}" for fp, note in notes]


def _culprit_lines(failures: list[Failure]) -> list[str]:
    """One bullet per culprit hunk (at most three per failure), and the tests whose culprit is not confirmed."""
    lines = [_culprit_line(f.fingerprint, h) for f in failures for h in (f.culprit or {}).get("hunks", [])[:3]]
    return lines + [f"- `{f.fingerprint}` culprit unconfirmed for {len(f.unconfirmed)} test(s) (their search did not "
                    f"conclude; they fail as this failure's tests do): " + ", ".join(f"`{_cell(t)}`" for t in
                                                                                     f.unconfirmed[:3])
                    + (" ..." if len(f.unconfirmed) > 3 else "") for f in failures if f.unconfirmed]


def _culprit_line(fingerprint: str, hunk: dict) -> str:
    """A culprit hunk: its file and lines, its function and its commits."""
    a, b = hunk["lines"]
    commits = ", ".join(f"`{c}`" for c in hunk["commits"])
    span = f"-{b}" if b != a else ""
    function = f" in `{_cell(hunk['function'])}`" if hunk["function"] else ""
    return (f"- `{fingerprint}` culprit: `{_cell(hunk['file'])}:{a}" + span + "`" + function
            + (f" ({commits})" if commits else ""))


def _culprit_search_lines(cs: Optional[dict]) -> list[str]:
    """What the culprit search (--good) searched and what it cost."""
    if not cs:
        return []
    note = f" {_cell(cs['note'])}." if cs["note"] else ""
    bound = f" of at most {cs['max_runs']}" if cs.get("max_runs") else ""
    return ["", f"Culprit search against `{_cell(cs['good'])}` (delta debugging over the hunks of the diff, "
            f"single tests only): {cs['hunks']} hunk(s), {cs['tests']} test(s) searched, {cs['runs']} run(s)"
            f"{bound}, {cs['seconds']:g} s ({_cell(cs['executor'])})." + note]


def _grouping_lines(report: CiReport) -> list[str]:
    """How the failures were grouped without --good, and each failure's suspect."""
    g = report.grouping
    if not g:
        return []
    traced = f" ({len(g['modules'])} test module(s) traced once)" if g["modules"] else ""
    note = f" {_cell(g['note'])}." if g["note"] else ""
    lines = ["", f"Grouped by {_cell(g['by'])}" + traced
             + ". Give `--good REV` (a revision where the tests passed) to group by the change that caused "
             "each failure." + note]
    lines += [f"- `{f.fingerprint}` suspect: `{_cell(f.suspect)}`" for f in report.failures if f.suspect]
    return lines


def _budget_lines(report: CiReport) -> list[str]:
    """What was left undone when the --budget ran out."""
    if not report.budget_exhausted:
        return []
    not_run = sum(f.verdict == "skipped" for f in report.failures)
    not_bundled = sum(f.verdict in ("confirmed", "flaky") and not f.bundle_dir for f in report.failures)
    return ["", f"**Time budget used up** ({report.budget:g} s, `--budget`): the work in flight was cut; "
            f"{not_run} failure(s) not re-run, {not_bundled} reproduced but not bundled. Raise the budget "
            "(or lower `--timeout`, `--max-tests`) to get them."]


def _not_examined_lines(not_examined: list[str]) -> list[str]:
    """The failed tests beyond --max-tests (the first twenty)."""
    if not not_examined:
        return []
    return ["", f"Not examined (beyond --max-tests): {len(not_examined)} test(s): "
            + ", ".join(f"`{_cell(t)}`" for t in not_examined[:20])]


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def write_outputs(report: CiReport, out_dir: Path) -> dict[str, str]:
    """Write the manifest and summary into ``out_dir``; append to the GitHub files when they are set.

    Returns the step outputs (also written to ``$GITHUB_OUTPUT`` when set).
    """
    from reportkit.redact import redact_data, redact_markdown, redact_output

    # the redaction edge: on the full texts, before the step summary is clipped; the manifest's strings as the
    # texts they are (not glued to JSON's escapes), then the document
    write_atomic(out_dir / MANIFEST, redact_output(json.dumps(redact_data(report.to_manifest(), home=""), indent=2),
                                                   home=""))
    summary = redact_markdown(summary_markdown(report), home="")
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
        _append(github_output, "".join(f"{k}={redact_output(v, home='')}\n" for k, v in outputs.items()))
    return outputs


def _command_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _command_property(text: str) -> str:
    return _command_data(text).replace(":", "%3A").replace(",", "%2C")


def annotations(report: CiReport, workspace: Optional[str] = None) -> list[str]:
    """``::error file=…,line=…,title=…::`` workflow commands, one per distinct failure (``::warning`` for one
    that did not reproduce). They need no token, so pull requests from forks get them too. The file is the
    test module (relative to ``workspace``, i.e. ``$GITHUB_WORKSPACE``), the line its frame in the re-run.
    Composed from parts that are redacted first (print them :func:`reportkit.redact.protect`-ed)."""
    from reportkit.redact import redact_output

    root = Path(report.repo_root)
    base = Path(workspace).resolve() if workspace else root
    lines = []
    for f in report.failures:
        node = f.representative or (f.tests[0] if f.tests else "")
        path = node.partition("::")[0]
        props = []
        if path.endswith(".py") and (root / path).is_file():
            rel = os.path.relpath((root / path).resolve(), base)
            shown = redact_output(rel if not rel.startswith("..") else str(root / path), home="")
            props.append(f"file={_command_property(shown)}")
            frame = (f.signature or {}).get("script_frame") or {}
            if isinstance(frame.get("line"), int):
                props.append(f"line={frame['line']}")
        level = "error" if f.verdict in ("confirmed", "flaky") else "warning"
        verdict = VERDICT_TEXT.get(f.verdict, f.verdict) + (f" ({f.failed_runs}/{f.runs} runs)" if f.runs else "")
        title = f"reportkit: {clip_words(f.headline.splitlines()[0], 120) if f.headline else f.key}"
        props.append(f"title={_command_property(redact_output(title, home=''))}")
        message = (f"{f.headline}\n{len(f.tests)} test(s): {', '.join(f.tests[:5])}"
                   + (f" (+{len(f.tests) - 5} more)" if len(f.tests) > 5 else "")
                   + f"\nre-run: {verdict}; fingerprint {f.fingerprint}" + (f"\n{f.note}" if f.note else ""))
        lines.append(f"::{level} {','.join(props)}::{_command_data(redact_output(message, home=''))}")
    return lines


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


# --------------------------------------------------------------------------- --good: one issue per culprit

#: the culprit search may use this share of what is left of --budget (the rest: bundles), counted in runs
SEARCH_SHARE = 0.6
#: the culprit search runs at most this many tests in all (and culprit.MAX_RUNS_PER_TEST for one test)
MAX_SEARCH_RUNS = 500


def search_run_bound(budget_left: Optional[float], confirmed: list) -> tuple[int, str]:
    """How many test runs the culprit search may make: :data:`SEARCH_SHARE` of the ``--budget`` left, divided by
    the time one re-run of these tests took while confirming them (the slowest failure's mean), at most
    :data:`MAX_SEARCH_RUNS`. Counted in runs, the search ends at the same point on an idle machine and a loaded
    one (a time limit would cut it wherever the load put it); the time is measured once, up front."""
    per_run = max((f.seconds / f.runs for f, _m, _found in confirmed if f.runs and f.seconds > 0), default=0.0)
    if budget_left is None or per_run <= 0:
        return MAX_SEARCH_RUNS, f"at most {MAX_SEARCH_RUNS} runs"
    runs = max(1, min(MAX_SEARCH_RUNS, int(SEARCH_SHARE * budget_left / per_run)))
    return runs, (f"at most {runs} runs ({SEARCH_SHARE:.0%} of the {budget_left:.0f} s of --budget left, "
                  f"{per_run:.1f} s a run)" if runs < MAX_SEARCH_RUNS else f"at most {MAX_SEARCH_RUNS} runs")


def resolve_good(rev: str, repo_root: Path):
    """``--good REV`` as a :class:`~reportkit.run.gitinfo.GoodRev` (``auto``: the merge base with the default
    branch); one clear :class:`UserError` when git cannot give it."""
    from reportkit.run.gitinfo import GoodRevError, good_rev, merge_base_rev

    try:
        good = merge_base_rev(repo_root) if rev == "auto" else good_rev(repo_root, rev)
    except GoodRevError as exc:
        raise UserError(f"--good: {exc}") from None
    if not repo_root.resolve().is_relative_to(good.toplevel):
        raise UserError(f"--good {rev}: --repo-root {repo_root} is not inside the repository {good.toplevel}")
    return good


def _confirm_all(groups: dict, options: CiOptions, deadline: float | None, on_step: Callable[[str], None],
                 report: CiReport) -> list[tuple[Failure, list[JUnitCase], tuple]]:
    """Re-run each XML group's first test (no bundles yet): the confirmed ones with their (spec, source, sig)."""
    confirmed: list[tuple[Failure, list[JUnitCase], tuple]] = []
    for key, group in groups.items():
        for members in split_by_frames(group):
            failure = _new_failure(key, members)
            report.failures.append(failure)
            found = _confirm_in_time(failure, key, members, options, deadline, on_step)
            if found is not None:
                confirmed.append((failure, members, found))
    return confirmed


def _bundle_all(report: CiReport, confirmed: list, regrouped: list, options: CiOptions, deadline: float | None,
                on_step: Callable[[str], None], good=None) -> None:
    """Put the regrouped failures where the confirmed ones were, and bundle each."""
    first_at = min(report.failures.index(f) for f, _m, _found in confirmed)
    kept = [f for f in report.failures if all(f is not c for c, _m, _found in confirmed)]
    report.failures = kept[:first_at] + [f for f, _found in regrouped] + kept[first_at:]
    for failure, found in regrouped:
        if found is None:
            continue
        if deadline is not None and time.monotonic() > deadline:
            failure.note = failure.note or "not bundled: the time budget was used up"
            continue
        bundle_failure(failure, found[0], found[1], options, deadline, on_step, good)
        if failure.culprit and failure.issue_md:
            _add_culprit_section(options.out_dir / failure.issue_md, failure.culprit)


GUESS_SUSPECT = "suspect function (Ochiai over the functions the tests call): a guess"
GUESS_SIGNATURE = "failure signature: a guess"


def merge_search_reports(parts: list[dict]) -> tuple[Optional[dict], Optional[dict]]:
    """The ``culprit_search`` and ``grouping`` of the matrix jobs' manifests, as one run reports them."""
    searches = [p["culprit_search"] for p in parts if isinstance(p.get("culprit_search"), dict)]
    groupings = [p["grouping"] for p in parts if isinstance(p.get("grouping"), dict)]
    search = None
    if searches:
        search = dict(searches[0])
        for key in ("tests", "runs", "cached", "invalid", "seconds"):
            search[key] = round(sum(float(s.get(key) or 0) for s in searches), 1) if key == "seconds" else \
                sum(int(s.get(key) or 0) for s in searches)
        search["note"] = "; ".join(dict.fromkeys(s.get("note") or "" for s in searches if s.get("note")))
    grouping = None
    if groupings:
        modules = list(dict.fromkeys(m for g in groupings for m in g.get("modules") or []))
        grouping = {"by": GUESS_SUSPECT if any(g.get("by") == GUESS_SUSPECT for g in groupings) else GUESS_SIGNATURE,
                    "modules": modules, "seconds": round(sum(float(g.get("seconds") or 0) for g in groupings), 1),
                    "note": "; ".join(dict.fromkeys(g.get("note") or "" for g in groupings if g.get("note")))}
    return search, grouping


def _examine_by_spectrum(groups: dict, options: CiOptions, deadline: float | None, on_step: Callable[[str], None],
                         report: CiReport) -> None:
    """Without a good revision: confirm each XML group, trace the test modules of the confirmed failures once
    (:mod:`reportkit.ci.spectrum`), regroup the failed tests by their suspect function, then bundle."""
    confirmed = _confirm_all(groups, options, deadline, on_step, report)
    if not confirmed:
        return
    regrouped = _regroup_by_spectrum(confirmed, options, on_step, report)
    _bundle_all(report, confirmed, regrouped, options, deadline, on_step)


def _regroup_by_spectrum(confirmed: list, options: CiOptions, on_step: Callable[[str], None], report: CiReport,
                         why: str = "") -> list:
    from reportkit.ci import spectrum as sbfl

    start = time.monotonic()
    modules = list(dict.fromkeys(label.partition("::")[0] for f, _m, _found in confirmed for label in f.tests
                                 if "::" in label and label.partition("::")[0].endswith(".py")))
    suspects: dict[str, tuple[str, str]] = {}  # test -> its group's suspect function (file, qualname)
    note = why
    # the failures as their signatures group them (the same fingerprint: failing the same way) ...
    clusters: dict[str, list[str]] = {}
    for failure, _m, _found in confirmed:
        clusters.setdefault(failure.fingerprint or failure.key, []).extend(failure.tests)
    try:  # traced even for one failure: a matrix job (--only) must group it as the whole run does
        spectrum = sbfl.record(modules, options, on_step)
        # ... merged where their suspect functions coincide (each failure scored on its own tests)
        for tests, suspect in sbfl.group(spectrum, list(clusters.values()), lambda file: not is_test_code(file)):
            if suspect is not None:
                suspects.update((t, suspect) for t in tests)
    except UserError as exc:
        note = "; ".join(x for x in (why, exc.message.splitlines()[0]) if x)
    report.grouping = {"by": GUESS_SUSPECT if suspects else GUESS_SIGNATURE, "modules": modules if suspects else [],
                       "seconds": round(time.monotonic() - start, 1), "note": note}

    def key_of(label: str, failure: Failure) -> tuple:
        suspect = suspects.get(label)
        return ("signature", failure.fingerprint) if suspect is None else ("suspect", *suspect)

    regrouped = _regroup(confirmed, key_of, options, on_step)
    for failure, _found in regrouped:
        failure.group_key = None
        suspect = next((suspects[t] for t in failure.tests if t in suspects), None)
        if suspect is not None:
            failure.suspect = f"{suspect[0]}::{suspect[1]}"
    return regrouped


def _examine_with_good(groups: dict, options: CiOptions, deadline: float | None, on_step: Callable[[str], None],
                       report: CiReport, good) -> None:
    """Confirm each XML group, find every failed test's culprit (the smallest set of hunks of ``git diff GOOD``
    that makes it fail the same way), then regroup: one failure per culprit, pre-existing failures (they fail on
    the good code too) apart, tests whose search did not conclude with their XML group; then bundle."""
    from reportkit.ci.culprit import CulpritSearch, describe_culprit
    from reportkit.failure.signature import MatchPolicy
    from reportkit.run.gitinfo import GoodRevError

    confirmed = _confirm_all(groups, options, deadline, on_step, report)
    if not confirmed:
        return
    max_runs, bound = search_run_bound(None if deadline is None else max(0.0, deadline - time.monotonic()),
                                       confirmed)
    verdicts: dict[str, object] = {}
    described: dict[tuple, dict] = {}
    on_step(f"searching the culprits in git diff {good.describe()} ({bound}) ...")
    try:
        search = CulpritSearch(good, is_test=is_test_code, max_runs=max_runs, on_step=on_step,
                               executor="warm" if options.executor == "warm" else "cold")
    except (GoodRevError, UserError) as exc:  # git cannot diff, or more than MAX_HUNKS hunks
        note = exc.message.splitlines()[0] if isinstance(exc, UserError) else str(exc).splitlines()[0]
        on_step(f"culprit search not possible ({note}): grouping by suspect function instead")
        report.culprit_search = {"good": good.describe(), "good_commit": good.commit, "hunks": 0, "searched": 0,
                                 "units": 0, "tests": 0, "runs": 0, "cached": 0, "invalid": 0, "narrowed": 0,
                                 "seconds": 0.0, "executor": "", "note": note, "tests_by_verdict": {}}
        regrouped = _regroup_by_spectrum(confirmed, options, on_step, report,
                                         why=f"the culprit search could not run: {note}")
        _bundle_all(report, confirmed, regrouped, options, deadline, on_step)
        return
    with search:
        try:
            search.prepare([Check(found[0], MatchPolicy()) for _f, _m, found in confirmed])
        except UserError as exc:
            search.stats.note = exc.message.splitlines()[0]
        except Exception as exc:  # GoodRevError and git failures: the grouping by signature stands
            search.stats.note = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if search.tree is not None:
            for failure, members, (spec, _source, sig) in confirmed:
                first = search.search(failure.representative, Check(spec, MatchPolicy()), expected=sig)
                verdicts[failure.representative] = first
                prefer = [first.hunks] if first.verdict == "culprit" else []
                for case in members:
                    if not case.node or case.node in verdicts:
                        continue
                    try:
                        spec_i, _ = _target(case.node, options)
                    except UserError:
                        continue
                    verdicts[case.node] = search.search(case.node, Check(spec_i, MatchPolicy()), prefer=prefer)
            search.reconcile()
            for result in verdicts.values():
                if result.verdict == "culprit" and result.hunks not in described:
                    described[result.hunks] = describe_culprit(good, search.hunks_of(result.hunks))
    stats = {**search.stats.to_dict(), "max_runs": max_runs}
    if search.tree is None:  # the search could not start (git, too many hunks ...): the guess instead
        on_step(f"culprit search not possible ({stats['note']}): grouping by suspect function instead")
        report.culprit_search = {"good": good.describe(), "good_commit": good.commit, **stats,
                                 "tests_by_verdict": {}}
        regrouped = _regroup_by_spectrum(confirmed, options, on_step, report,
                                         why=f"the culprit search could not run: {stats['note']}")
        _bundle_all(report, confirmed, regrouped, options, deadline, on_step)
        return
    report.culprit_search = {"good": good.describe(), "good_commit": good.commit, **stats,
                             "tests_by_verdict": {v: sum(r.verdict == v for r in verdicts.values())
                                                  for v in ("culprit", "pre-existing", "unknown")}}
    on_step(f"culprit search: {stats['hunks']} hunk(s), {stats['tests']} test(s) searched, {stats['runs']} run(s), "
            f"{stats['seconds']:.0f} s ({stats['executor']})")

    unconfirmed: set[str] = set()
    regrouped = _regroup(confirmed, culprit_key(verdicts, search.policy, unconfirmed), options, on_step)
    for failure, _found in regrouped:
        kind = failure.group_key[0] if failure.group_key else ""
        failure.unconfirmed = [t for t in failure.tests if t in unconfirmed]
        if kind == "culprit":
            failure.regression = "regression"
            failure.culprit = described.get(failure.group_key[1])
            if failure.culprit:
                failure.fingerprint = failure.culprit["fingerprint"]
        elif kind == "pre-existing":
            failure.regression = "pre-existing"
        failure.group_key = None
    _bundle_all(report, confirmed, regrouped, options, deadline, on_step, good)


def culprit_key(verdicts: dict, policy, unconfirmed: set[str]) -> Callable[[str, Failure], tuple]:
    """The group of a failed test with ``--good`` (``verdicts``: each test's :class:`~reportkit.ci.culprit.TestCulprit`):
    its culprit; "pre-existing" with its failure; and for a test whose search did not conclude (cut by its bound,
    or a run it could not make), the culprit of the tests that fail as it does — the other tests of its confirmed
    failure (alike in the job's XML and on the re-run), else the tests whose failure on HEAD's tree is its own —
    when they have one culprit between them (the test is added to ``unconfirmed``: not searched to the end, it is
    not a bug of its own); else its XML group's."""
    def key_of(label: str, failure: Failure) -> tuple:
        result = verdicts.get(label)
        if result is not None and result.verdict == "culprit":
            return ("culprit", result.hunks)
        if result is not None and result.verdict == "pre-existing":
            return ("pre-existing", failure.fingerprint)
        found = _alike_culprit(label, failure, result, verdicts, policy)
        if found is not None:
            unconfirmed.add(label)
            return ("culprit", found)
        if label != failure.representative and failure.representative in verdicts:
            return key_of(failure.representative, failure)
        return ("signature", failure.fingerprint)

    return key_of


def _alike_culprit(label: str, failure: Failure, result, verdicts: dict, policy) -> Optional[tuple]:
    """The one culprit of the tests that fail as ``label`` does (see :func:`culprit_key`); None: none or several."""
    from reportkit.failure.signature import same_failure

    def one(results) -> Optional[tuple]:
        culprits = {r.hunks for r in results if r is not None and r.verdict == "culprit"}
        return next(iter(culprits)) if len(culprits) == 1 else None

    found = one(verdicts.get(t) for t in failure.tests if t != label)
    sig = getattr(result, "signature", None)
    if found is None and sig is not None:
        found = one(r for t, r in verdicts.items() if t != label and r.signature is not None
                    and same_failure(sig, r.signature, policy) and same_failure(r.signature, sig, policy))
    return found


def _regroup(confirmed: list, key_of: Callable[[str, Failure], tuple], options: CiOptions,
             on_step: Callable[[str], None]) -> list[tuple[Failure, Optional[tuple]]]:
    """The confirmed failures' tests regrouped by ``key_of(test, its failure)``: (failure, (spec, source, sig) to
    bundle it with). A group holding a failure's re-run test is that failure; one split off its XML group has its
    own first test re-run. A group's key is left in ``failure.group_key`` for the caller."""
    import copy
    import hashlib

    order: dict[tuple, list[tuple[str, Failure, tuple, list[JUnitCase]]]] = {}
    for failure, members, found in confirmed:
        for label in failure.tests:
            order.setdefault(key_of(label, failure), []).append((label, failure, found, members))
    out: list[tuple[Failure, Optional[tuple]]] = []
    for key, rows in order.items():
        labels = list(dict.fromkeys(label for label, *_ in rows))
        owner = next(((f, found) for label, f, found, _m in rows if label == f.representative), None)
        if owner is not None:
            failure, found = copy.copy(owner[0]), owner[1]
        else:  # split off its XML group: confirm its own first test
            _label0, source_failure, _found, members = rows[0]
            failure = Failure(key=source_failure.key, tests=labels, headline=source_failure.headline,
                              job_note=source_failure.job_note)
            cases = [c for c in members if _label(c) in labels]
            found = confirm(failure, cases, options, on_step)
            if found is None:
                failure.fingerprint = _xml_fingerprint((failure.key, *labels[:1]))
        failure.tests = labels
        failure.group_key = key
        if key[0] == "suspect" and found is not None:  # the bug's guessed place, not one test's failure
            failure.fingerprint = hashlib.sha256("\x1f".join(key).encode()).hexdigest()[:16]
        out.append((failure, found))
    return out


def _add_culprit_section(issue: Path, culprit: dict) -> None:
    """Put the culprit change into a bundle's issue.md, before its first "### " section after the title."""
    from reportkit.ci.culprit import culprit_markdown
    from reportkit.redact import redact_output

    try:
        text = issue.read_text(encoding="utf-8")
    except OSError:
        return
    section = redact_output(culprit_markdown(culprit), home="")
    at = text.find("\n### ")
    text = text.rstrip("\n") + "\n\n" + section + "\n" if at < 0 else text[:at + 1] + section + "\n" + text[at:]
    write_atomic(issue, text, mode=issue.stat().st_mode & 0o777)
