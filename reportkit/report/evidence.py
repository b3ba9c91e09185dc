"""Evidence collectors: the units of ``reportkit bundle``'s collect stage.

A :class:`Collector` gathers one piece of evidence for a bug report. It has a ``name`` (the key under which
:class:`reportkit.report.collect.Collected` holds its evidence), and

* ``collect(ctx)`` returns its evidence: a dataclass with ``status`` (:data:`COLLECTED` /
  :data:`NOT_COLLECTED`) and a ``reason`` when it could not be collected. ``ctx`` is the
  :class:`reportkit.report.collect.CollectContext` (the debug run, the environment, the workspace, the evidence
  collected so far, and ``run_variant`` to rerun the script);
* ``layout`` names the bundle files it contributes (key -> path relative to the bundle) and ``files(ev,
  layout)`` yields ``(relative path, text or Path)`` for them (a Path is copied, size-limited);
* ``checklist(c, files)`` gives its line(s) of the bug-report checklist;
* ``section`` and ``template``: the issue section (``logs`` / ``additional``) and the jinja2 block
  (``templates/evidence/<name>.md.j2``) that shows it.

Collectors run in list order (:data:`reportkit.report.collect.COLLECTORS`), so one may read another's evidence
(``ctx.evidence["fx"]``). Render, the bundle's file layout and the checklist iterate over them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Union

COLLECTED = "collected"
NOT_COLLECTED = "not-collected"


@dataclass
class CheckItem:
    key: str
    label: str
    done: bool
    detail: str  # what is there (done) or why it cannot be (not done)


class Collector:
    """Base class of the evidence collectors (see the module docstring)."""

    name: str = ""
    title: str = ""  # how the issue names it ("Backend ladder")
    section: Optional[str] = "additional"  # issue section of its template block (None: no block)
    layout: dict = {}  # bundle file key -> path relative to the bundle

    @property
    def template(self) -> str:
        return f"evidence/{self.name}.md.j2"

    def collect(self, ctx: Any) -> Any:
        raise NotImplementedError

    def files(self, ev: Any, layout: dict) -> Iterable[tuple[str, Union[str, Path]]]:
        return ()

    def checklist(self, c: Any, files: dict) -> list[CheckItem]:
        return []


# --------------------------------------------------------------------------- reruns with another backend


@dataclass(frozen=True)
class VariantDef:
    name: str
    label: str
    stage: str
    backend: Optional[str] = None  # forced torch.compile backend
    env: tuple = ()  # extra (key, value) pairs
    package: Optional[str] = None  # EnvInfo attribute that must be installed
    imports: Optional[str] = None  # modules that register the backend, comma-separated
    keep_workdir: bool = False  # the run's scratch copy stays (until the workspace goes): its outputs are read


@dataclass
class Variant:
    name: str
    label: str
    stage: str  # what a failure here points at
    outcome: str = "skipped"  # fails | fails-differently | passes | not-installed | skipped
    reason: str = ""
    headline: str = ""
    duration: float = 0.0
    signature: Any = None  # reportkit.failure.signature.Signature
    stdout: str = ""
    stderr: str = ""
    compile_calls: list = field(default_factory=list)
    returncode: Optional[int] = None
    workdir: str = ""  # the run's scratch copy, when kept (VariantDef.keep_workdir)


@dataclass
class Comparison:
    status: str = NOT_COLLECTED
    reason: str = ""
    variants: list = field(default_factory=list)
    stage: Optional[str] = None  # ladder: where the failure first appears
    verdict: str = ""
