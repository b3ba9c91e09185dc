"""``reportkit bundle``: orchestration (minimize → collect → render → publish) and the bundle layout.

A bundle is a directory (and a ``.tar.gz`` of it next to it)::

    issue.md                     with --issue: the report, ready for `gh issue create --body-file`
    bundle.json                  machine-readable summary (schema below)
    reproducer/<script>          the reproducer (<stem>.min.py with --minimize; the original in original/)
    logs/                        error.txt, debug-run.stdout.txt / .stderr.txt, spyre-debug.log (every
                                 Torch-Spyre record), spyre-transfer.log, SPYRE_LOG_FILE.log,
                                 ladder/<variant>.stdout.txt / .stderr.txt
    env/collect_env.txt          torch.utils.collect_env, run in the target interpreter
    artifacts/torch_compile_debug/<graph>/   fx_graph_readable.py, output_code.py, ir_*.txt ...
    artifacts/inductor-spyre/<kernel>/       sdsc_<N>.json, bundle.mlir, spyreCodeDir/spyrecode.json
    artifacts/ffdc/                          FFDC reports
    hang/stacks.txt, hang/gdb.txt            for a hang: all-thread Python stacks, native backtrace

Everything written is redacted first (:class:`reportkit.report.render.Redactor`) unless ``--no-redact``:
Python files as code (they still parse), ``issue.md`` as markdown, the rest as text.
The directory is assembled under a temporary name and renamed into place, so a bundle is either
complete or absent; every file is written with :func:`reportkit.io.write_atomic`.

``bundle.json`` (``schema_version`` 1): ``tool`` {name, version}, ``created``, ``title``,
``template``, ``redacted``, ``script``, ``args``, ``python``, ``files`` (key → relative path),
``checklist`` [{key, label, done, detail}], ``signature`` (with ``headline``), ``collected`` (every
field of :class:`reportkit.report.collect.Collected` except the long texts, which are the files above).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

from reportkit import __version__
from reportkit.constants import BUNDLE_SCHEMA_VERSION, DEFAULT_TEMPLATE, TOOL_NAME
from reportkit.errors import UserError
from reportkit.failure.check import Check, reproduce, require_deterministic
from reportkit.failure.signature import MatchPolicy
from reportkit.io import (
    PRIVATE,
    Unwritten,
    check_guarded,
    check_output_dir,
    replacing,
    shared_mode,
    write_atomic,
)
from reportkit.reduce.minimize import MinimizeOptions, MinimizeReport, minimize
from reportkit.report.collect import COLLECTORS, Collected, CollectInput, CollectOptions, Workspace, collect
from reportkit.report.render import Redactor, bundle_files, checklist, default_title, render_issue
from reportkit.run.runner import build_env
from reportkit.run.spec import PYTEST_NODE_ENV, RunSpec

SCHEMA_VERSION = BUNDLE_SCHEMA_VERSION
MAX_ARTIFACT_BYTES = 16 * 1024 * 1024  # larger artifact files are listed, not copied
# Long texts that live in files, not in bundle.json
JSON_DROP = {"stdout", "stderr", "source", "original_source", "collect_env", "records", "transfer", "stacks", "gdb"}


@dataclass
class BundleOptions:
    out: Optional[Path] = None
    issue: bool = False
    title: Optional[str] = None
    template: str = DEFAULT_TEMPLATE
    redact: bool = True
    ladder: bool = True
    verbose_backend: bool = False  # the debug run also raises the Spyre back end's log levels
    minimize: bool = False
    budget: Optional[float] = None  # seconds for --minimize
    retries: int = 1  # --minimize: a candidate must fail the same way this many times out of this many
    command: str = ""  # the command line, recorded in bundle.json
    executor: object = "warm"  # --minimize: where candidates run ("warm", "cold" or a ray_executor.RayConfig)
    jobs: Optional[int] = None  # --minimize: candidates tested in parallel (default: the number of cores)
    # --minimize runs minimize's fix check: the result must pass on this good code (a GoodRev) ...
    good: object = None
    good_auto: bool = True  # ... or, without one, on HEAD when the repository has uncommitted changes
    fold_local: bool = True  # --minimize: fold local modules in (False: a library's own tests, as ci runs them)


@dataclass
class BundleResult:
    directory: Path
    archive: Path
    issue: Optional[Path]
    bundle_json: Path
    title: str
    collected: Collected  # redacted
    checklist: list = field(default_factory=list)
    files: dict = field(default_factory=dict)
    timings: dict = field(default_factory=dict)
    template: str = DEFAULT_TEMPLATE

    @property
    def issue_repo(self) -> Optional[str]:
        """Where an issue rendered with this template is filed (None: the failing library's own tracker)."""
        from reportkit.report.venue import REPOS

        return REPOS.get(self.template, "torch-spyre/torch-spyre")


def default_out(script: Path) -> Path:
    return Path.cwd() / f"reportkit-bundle-{script.stem}-{time.strftime('%Y%m%d-%H%M%S')}"


def check_out(out: Path) -> Path:
    check_output_dir(out)
    check_guarded(out)  # (before it is resolved: ci's --out swapped for a link would resolve to the link's target)
    out = out.resolve()
    if Path(str(out) + ".tar.gz").exists():
        raise UserError(f"{out}.tar.gz already exists; choose another --out")
    return out


# --------------------------------------------------------------------------- minimize


def minimize_first(spec: RunSpec, source: str, policy: MatchPolicy, ws: Workspace, options: BundleOptions,
                   on_step: Optional[Callable[[str], None]]) -> tuple[str, MinimizeReport]:
    """Run ``reportkit minimize`` on the script; return (minimized source, its report). The flakiness
    rule is minimize's (:mod:`reportkit.failure.check`): a flaky failure is refused unless ``options.retries`` > 1."""
    if on_step:
        on_step("minimize: running the original 2x ...")
    rep = reproduce(Check(spec, policy), runs=2, source=source)
    require_deterministic(rep, options.retries, doing="--minimize",
                          hint="bundle without --minimize, or pass --retries N so that a candidate must fail N "
                               "times out of N")
    if on_step:
        on_step("minimize: reducing the script (reportkit minimize) ...")
    out = ws.root / (f"min_{spec.script.name}" if spec.pytest_node is not None else f"{spec.script.stem}.min.py")
    report = minimize(spec, source, rep, policy, MinimizeOptions(output=out, budget=options.budget, executor=options.executor,
                                                                 jobs=options.jobs or os.cpu_count() or 1,
                                                                 retries=options.retries, good=options.good,
                                                                 good_auto=options.good is None and options.good_auto,
                                                                 fold_local=options.fold_local))
    if report.interrupted:
        raise KeyboardInterrupt
    return out.read_text(encoding="utf-8"), report


# --------------------------------------------------------------------------- writing


class Writer:
    """Writes redacted files into the staging directory and remembers what went where."""

    def __init__(self, root: Path, redactor: Redactor) -> None:
        self.root, self.redactor = root, redactor
        self.written: list[str] = []
        self.skipped: dict[str, str] = {}

    def text(self, rel: str, text: str, shared: bool = False) -> None:
        """By its name: code, markdown or text (:meth:`Redactor.file`). ``shared``: a result meant for sharing
        (the reproducer, issue.md), 0644 less the umask; else private (0600): logs, the environment, artifacts."""
        write_atomic(self.root / rel, self.redactor.file(rel, text), mode=shared_mode() if shared else PRIVATE,
                     keep=False)
        self.written.append(rel)

    def copy(self, rel: str, source: Path) -> None:
        try:
            size = source.stat().st_size
        except OSError as exc:
            self.skipped[rel] = f"unreadable: {exc}"
            return
        if size > MAX_ARTIFACT_BYTES:
            self.skipped[rel] = f"{size} bytes, larger than {MAX_ARTIFACT_BYTES}: left out"
            return
        self.text(rel, source.read_text(encoding="utf-8", errors="replace"))


def write_logs(w: Writer, c: Collected, files: dict) -> None:
    run = c.debug_run
    w.text(files["error"], run.error_output + "\n")
    w.text(files["stdout"], run.stdout)
    w.text(files["stderr"], run.stderr)
    if c.env.collect_env:
        w.text(files["collect_env"], c.env.collect_env)


def write_evidence(w: Writer, c: Collected, files: dict) -> None:
    """Each collector's files: texts written, paths copied (size-limited)."""
    for collector in COLLECTORS:
        if collector.name not in c.evidence:
            continue
        for rel, content in collector.files(c.evidence[collector.name], files):
            if isinstance(content, Path):
                w.copy(rel, content)
            else:
                w.text(rel, content)


def _prune(value):
    if isinstance(value, dict):
        return {k: _prune(v) for k, v in value.items() if k not in JSON_DROP}
    if isinstance(value, list):
        return [_prune(v) for v in value]
    return value


def json_payload(c: Collected, files: dict, items: list, title: str, options: BundleOptions,
                 w: Writer) -> dict:
    collected = _prune(c.to_dict())
    if "spyre_logs" in collected:
        collected["spyre_logs"]["record_count"] = len(c.spyre_logs.records)
        collected["spyre_logs"]["transfer_count"] = len(c.spyre_logs.transfer)
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": TOOL_NAME, "version": __version__},
        "created": c.created, "command": options.command, "title": title, "template": options.template,
        "redacted": options.redact, "script": c.script, "args": c.args, "python": c.python,
        "files": {k: v for k, v in files.items()
                  if k == "bundle_json" or any(x == v or x.startswith(v + "/") for x in w.written)},
        "written": sorted(w.written), "skipped": w.skipped,
        "checklist": [dataclasses.asdict(i) for i in items],
        "signature": {**c.signature.to_dict()},
        "collected": collected,
    }


def make_archive(directory: Path) -> Path:
    archive = Path(str(directory) + ".tar.gz")
    try:
        with replacing(archive, mode=PRIVATE) as fh:  # it holds the logs and the environment: private
            with tarfile.open(fileobj=fh, mode="w:gz") as tar:
                tar.add(directory, arcname=directory.name)
    except OSError as exc:  # (the bundle itself was written: it is what the error points to)
        raise UserError(f"the bundle is in {directory}, but its archive {archive.name} could not be written: "
                        f"{exc.strerror or exc}") from None
    return archive


def publish(c: Collected, out: Path, options: BundleOptions, redactor: Redactor) -> BundleResult:
    """Write the redacted bundle into a staging dir, rename it to ``out``, then archive it. A destination that
    refuses the files (full, over quota, gone read-only) loses nothing: the whole bundle is written into a private
    ``reportkit-unwritten-*`` dir instead, and the error names it."""
    files = bundle_files(c.script_name, bool(c.minimized), c.pytest_node is not None)
    redacted = redactor.tree(c)
    if options.template == "auto":  # the venue: from what is installed and what the failure involves
        from reportkit.report.venue import template_for

        options = dataclasses.replace(options, template=template_for(options.template, redacted))
    title = redactor.text(options.title or default_title(redacted))
    check_guarded(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        items = _fill(staging, c, redacted, files, title, options, redactor, out.name)
        staging.chmod(0o755)
        if out.exists():
            try:
                out.rmdir()  # it was empty before the runs
            except OSError as exc:
                raise UserError(f"cannot write the bundle to {out}: {exc.strerror or exc}") from None
        os.replace(staging, out)
    except Unwritten as exc:
        shutil.rmtree(staging, ignore_errors=True)
        _keep_privately(exc, c, redacted, files, title, options, redactor, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return BundleResult(directory=out, archive=make_archive(out),
                        issue=out / files["issue"] if options.issue else None, bundle_json=out / files["bundle_json"],
                        title=title, collected=redacted, checklist=items, files=files, timings=dict(c.timings),
                        template=options.template)


def _fill(root: Path, c: Collected, redacted: Collected, files: dict, title: str, options: BundleOptions,
          redactor: Redactor, name: str) -> list:
    """The bundle's files, written into ``root``; returns the checklist."""
    w = Writer(root, redactor)
    w.text(files["reproducer"], c.source, shared=True)
    if c.standalone:
        w.text(files["standalone"], c.standalone, shared=True)
    for rel, text in c.conftests:
        w.text(f"{files['conftest']}/{rel}", text, shared=True)
    if c.original_source is not None:
        w.text(files["original"], c.original_source, shared=True)
    write_logs(w, c, files)
    write_evidence(w, c, files)
    if options.issue:
        w.text(files["issue"], render_issue(redacted, options.template, redactor=redactor, files=files,
                                            title=title, bundle_name=name + ".tar.gz", pre_redacted=True),
               shared=True)
    items = checklist(redacted, files)
    payload = json_payload(redacted, files, items, title, options, w)
    write_atomic(root / files["bundle_json"], redactor.text(json.dumps(redactor.data(payload), indent=2, default=str)),
                 mode=shared_mode(), keep=False)
    return items


def _keep_privately(refused: Unwritten, c: Collected, redacted: Collected, files: dict, title: str,
                    options: BundleOptions, redactor: Redactor, out: Path) -> None:
    """After ``out``'s file system refused the bundle: the whole bundle in a private dir, named in the error."""
    try:
        kept = Path(tempfile.mkdtemp(prefix="reportkit-unwritten-")) / out.name
        kept.mkdir()
        _fill(kept, c, redacted, files, title, options, redactor, out.name)
    except (OSError, Unwritten):
        raise UserError(f"cannot write the bundle to {out}: {refused.reason}") from None
    raise UserError(f"cannot write the bundle to {out}: {refused.reason}; the whole bundle is in {kept}") from None


def make_bundle(spec: RunSpec, source: str, policy: MatchPolicy, options: BundleOptions,
                on_step: Optional[Callable[[str], None]] = None) -> BundleResult:
    """The whole ``reportkit bundle`` pipeline; raises UserError on bad input or when nothing fails."""
    out = check_out(options.out or default_out(spec.script))
    start = time.monotonic()
    with Workspace() as ws:
        original, minimized = None, None
        if options.minimize:
            original = source
            source, minimized = minimize_first(spec, source, policy, ws, options, on_step)
        inp = CollectInput(spec, source, policy, original_source=original, minimized=minimized)
        collected = collect(inp, ws, CollectOptions(ladder=options.ladder, verbose_backend=options.verbose_backend), on_step)
        if minimized and minimized.standalone:
            collected.standalone = Path(minimized.standalone).read_text(encoding="utf-8")
        if on_step:
            on_step(f"writing the bundle to {out} ...")
        user_env = {k: v for k, v in spec.env.items() if k != PYTEST_NODE_ENV}
        redactor = Redactor.for_env(build_env(spec.env, scrub=False), enabled=options.redact, args=spec.args, overrides=user_env)
        result = publish(collected, out, options, redactor)
    result.timings["total"] = round(time.monotonic() - start, 2)
    return result
