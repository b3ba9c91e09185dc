"""Stage *render* of ``reportkit bundle``: redaction, the bug-report checklist and ``issue.md``.

* :class:`Redactor` removes secrets before anything is written: the run's known secrets (values of
  secret-looking environment variables, ``--env`` values, credentials in the script's arguments:
  :mod:`reportkit.redact`, rule (a)) wherever they appear, the patterns (rule (b)) and the home directory
  (``~``); code (the reproducers, Python excerpts) with :func:`reportkit.redact.redact_code`, so it still
  parses. ``--no-redact`` disables it.
* :func:`checklist` turns a :class:`~reportkit.report.collect.Collected` into Torch-Spyre's bug-report
  checklist (its debugging guide's "Checklist for Filing a Bug Report"): each item done, or with the reason
  it cannot be.
* :func:`render_issue` renders a jinja2 template from ``templates/`` (``torch-spyre``: the sections
  of Torch-Spyre's issue form then the checklist; ``pytorch``: PyTorch's "describe the bug" +
  "versions"), always within GitHub's 65,536-character body limit: long blocks are clipped with a
  note pointing to the file in the bundle.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

import jinja2

from reportkit.constants import TEMPLATE_NAMES
from reportkit.failure.signature import FailureKind
from reportkit.redact import (
    argv_secrets,
    env_secrets,
    holds_named_secret,
    override_known,
    protect,
    redact_code,
    redact_data,
    redact_env,
    redact_for,
    redact_markdown,
    redact_text,
    unprotect,
)
from reportkit.report import spyre
from reportkit.report.collect import COLLECTORS, Collected, EnvInfo, PackageInfo, collector_layout
from reportkit.report.evidence import COLLECTED, CheckItem, Comparison, Variant

GITHUB_BODY_LIMIT = 65536
TEMPLATES = TEMPLATE_NAMES
# Per-block character budgets, tried from the most generous until the body fits.
BUDGET_SCALES = (1.0, 0.5, 0.25, 0.1, 0.03, 0.0)
BASE_BUDGETS = {"code": 24000, "log": 16000, "excerpt": 8000, "env": 8000, "stacks": 12000}
# What a form's maintainers read in one go: the issue aims at this length by clipping the logs, excerpts and
# stacks (down to SOFT_SCALES[-1], never the reproducer); what does not fit then is left whole, within the limit.
TARGET_LENGTHS = {"torch-spyre": 8000}
SOFT_SCALES = (1.0, 0.5, 0.25, 0.1, 0.05)
_TRIVIAL_VALUE = re.compile(r"^(?:\d+|true|false|none|null|yes|no|on|off|enabled?|disabled?)$", re.I)

# --------------------------------------------------------------------------- redaction

ENV_FIELDS = {"env_vars", "user_env"}
# (class, field) that hold Python source (redacted as code: it must still parse), and the script's arguments
CODE_FIELDS = {("Collected", "source"), ("Collected", "original_source"), ("Collected", "standalone"),
               ("Collected", "conftests"), ("FxArtifacts", "excerpt"), ("FxArtifacts", "output_code_excerpt")}
ARGV_FIELDS = {("Collected", "args")}


class Redactor:
    """The bundle's redaction edge: :func:`reportkit.redact.redact_text` for text,
    :func:`~reportkit.redact.redact_code` for code, with the run's known secrets (``secret_values``: the
    values of secret-named variables; ``known``: value -> marker kind); a no-op when disabled."""

    def __init__(self, enabled: bool = True, secret_values=(), home: Optional[str] = None,
                 known: Optional[Mapping[str, str]] = None) -> None:
        self.enabled = enabled
        self.secret_values = sorted({v for v in secret_values if v}, key=len, reverse=True)
        self.home = home
        self.known = {**{v: "env-secret" for v in self.secret_values}, **(known or {})}

    @classmethod
    def for_env(cls, env: Mapping[str, str], enabled: bool = True, home: Optional[str] = None,
                args: Optional[list] = None, overrides: Optional[Mapping[str, Optional[str]]] = None) -> Redactor:
        """Redactor that also removes, wherever they occur, the values of ``env``'s secret-named variables
        and the credentials in its values, the credentials in the script's ``args``, and the ``--env``
        values (``overrides``) that are not plain settings."""
        secrets = [v for k, v in env.items()
                   if v and holds_named_secret(k, v) and len(v) >= 6 and not _TRIVIAL_VALUE.match(v)]
        known = {**env_secrets(env), **env_secrets(overrides or {}), **argv_secrets(list(args or []))}
        for name, value in (overrides or {}).items():
            if override_known(value, name):
                known.setdefault(value, "env-value")
        return cls(enabled, secrets, home, known)

    def text(self, text: str) -> str:
        if not self.enabled or not text:
            return unprotect(text) if text else text
        return redact_text(text, home=self.home, extra=self.known)

    def data(self, value: Any) -> Any:
        """A JSON-able structure before it is serialised: its strings redacted as texts (not glued to escapes)."""
        if not self.enabled:
            return value
        return redact_data(value, home=self.home, extra=self.known)

    def code(self, text: str) -> str:
        """Python source: redacted inside string literals and comments only; it still parses."""
        if not self.enabled or not text:
            return text
        return redact_code(text, home=self.home, extra=self.known)

    def markdown(self, text: str) -> str:
        """An issue body: fenced Python blocks as code, the rest as text; protected commands kept whole."""
        if not self.enabled or not text:
            return unprotect(text) if text else text
        return redact_markdown(text, home=self.home, extra=self.known)

    def file(self, name: str, text: str) -> str:
        """A bundle file's content, by its name (``.py``: code, ``.md``: markdown, else text)."""
        if not self.enabled or not text:
            return text
        return redact_for(name, text, home=self.home, extra=self.known)

    def argv(self, args: list) -> list:
        """The script's arguments, part by part (a command is composed from them afterwards)."""
        if not self.enabled:
            return list(args)
        secrets = {**self.known, **argv_secrets([str(a) for a in args])}
        out = []
        for arg in map(str, args):
            red = redact_text(arg, home=self.home, extra=secrets)
            out.append(red)
        return out

    def env(self, env: Mapping[str, Optional[str]]) -> dict:
        if not self.enabled:
            return dict(env)
        set_values = {k: v for k, v in env.items() if v is not None}
        masked = redact_env(set_values, home=self.home)
        return {k: (self.text(masked[k]) if k in masked else None) for k in env}

    def tree(self, value: Any, name: str = "", owner: str = "") -> Any:
        """A copy of ``value`` (dataclasses, lists, dicts, paths, strings) with every string redacted (code
        fields as code, the script's arguments part by part)."""
        if not self.enabled:
            return value
        if (owner, name) in CODE_FIELDS:
            return self._code_tree(value)
        if (owner, name) in ARGV_FIELDS and isinstance(value, list):
            return self.argv(value)
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Path):
            return type(value)(self.text(str(value)))
        if name in ENV_FIELDS and isinstance(value, Mapping):
            return self.env(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            changes = {f.name: self.tree(getattr(value, f.name), f.name, type(value).__name__)
                       for f in dataclasses.fields(value) if f.init}
            return dataclasses.replace(value, **changes)
        if isinstance(value, (list, tuple)):
            return type(value)(self.tree(v) for v in value)
        if isinstance(value, dict):
            return {k: self.tree(v) for k, v in value.items()}
        return value

    def _code_tree(self, value: Any) -> Any:
        """A code field: a source, or a list of (path, source) pairs (conftests)."""
        if isinstance(value, str):
            return self.code(value)
        if isinstance(value, (list, tuple)):  # conftests: [(path, source), ...]
            return type(value)(
                type(v)(self.code(x) if i == 1 and isinstance(x, str) else self.tree(x) for i, x in enumerate(v))
                if isinstance(v, (list, tuple)) else self.tree(v) for v in value)
        return self.tree(value)


# --------------------------------------------------------------------------- checklist


def _check(key: str, label: str, done: bool, detail: str) -> CheckItem:
    return CheckItem(key, label, done, detail)


def _reproducer_item(c: Collected, files: Mapping[str, str]) -> CheckItem:
    lines = len(c.source.splitlines())
    where = f"`{files.get('reproducer', c.script_name)}`"
    label = "Minimal reproducer script"
    if c.minimized:
        return _check("reproducer", label, True,
                      f"{where}, {lines} lines, minimized by reportkit from "
                      f"{len((c.original_source or '').splitlines())}")
    if _count_lines(c.source) <= 40:
        return _check("reproducer", label, True, f"{where}, {lines} lines")
    return _check("reproducer", label, False, f"the full script ({lines} lines) is included as {where} but not "
                                              "minimized: rerun with `--minimize`")


def _torch_item(env: EnvInfo) -> CheckItem:
    label = 'PyTorch version (`python -c "import torch; print(torch.__version__)"`)'
    if not env.torch.version:
        return _check("pytorch", label, False, env.torch.reason or env.reason or "torch version unknown")
    return _check("pytorch", label, True, torch_version_text(env))


def _spyre_item(env: EnvInfo) -> CheckItem:
    """Ticked only with a commit SHA: torch_spyre's ``__version__`` is a static ``0.0.1`` (torch_spyre/version.py)
    on every commit, so it identifies no build."""
    label = "Torch-Spyre version or commit SHA"
    pkg = env.torch_spyre
    if pkg.status != COLLECTED:
        return _check("torch_spyre", label, False, pkg.reason)
    if pkg.git is not None and pkg.git.commit:  # the checkout's path is in the environment section
        return _check("torch_spyre", label, True, git_text(pkg.git))
    if pkg.commit:
        return _check("torch_spyre", label, True, package_text(pkg))
    return _check("torch_spyre", label, False,
                  f"`{pkg.version or '?'}` is torch_spyre's static version, the same on every commit, and no commit "
                  "was found (not imported from a git checkout, no `pip install git+...` record): add the commit "
                  "you built from")


def checklist(c: Collected, files: Optional[Mapping[str, str]] = None) -> list[CheckItem]:
    """Torch-Spyre's "Checklist for Filing a Bug Report": the reproducer, the error and the versions, then
    each evidence collector's line(s)."""
    files = {**bundle_files(c.script_name, bool(c.minimized), c.pytest_node is not None), **(files or {})}
    error = c.debug_run.error_output.strip()
    items = [
        _reproducer_item(c, files),
        _check("error", "Full error output or incorrect value observed", bool(error),
               f"{first_line(c.signature.headline())} (under *Relevant log output*)" if error
               else c.debug_run.reason or "the run printed nothing"),
        _torch_item(c.env),
        _spyre_item(c.env),
    ]
    for collector in COLLECTORS:
        if collector.name in c.evidence:
            items += collector.checklist(c, files)
    return items


# --------------------------------------------------------------------------- text helpers


def _count_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def first_line(text: str) -> str:
    return next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")


def short_sha(sha: Optional[str]) -> str:
    return sha[:12] if sha else ""


def git_text(git) -> str:
    if git is None or not git.commit:
        return ""
    text = f"commit `{git.commit}`"
    if git.branch:
        text += f" on `{git.branch}`"
    if git.dirty is not None:
        text += " (dirty: uncommitted changes)" if git.dirty else " (clean)"
    return text


def package_text(pkg: PackageInfo) -> str:
    if pkg.status != COLLECTED:
        return f"not installed ({pkg.reason})" if "not installed" not in pkg.reason else pkg.reason
    parts = [pkg.version or "version unknown"]
    if pkg.git is not None and pkg.git.commit:
        parts.append(f"from the git checkout `{pkg.git.toplevel}`: {git_text(pkg.git)}")
    elif pkg.vcs_commit:
        parts.append(f"installed from {pkg.source_url or 'git'} at commit `{pkg.vcs_commit}`")
    if pkg.editable:
        parts.append("editable install")
    return ", ".join(parts)


def torch_version_text(env: EnvInfo) -> str:
    text = f"{env.torch.version}"
    if env.torch_git_version:
        text += f" (torch.version.git_version `{env.torch_git_version}`)"
    if env.torch.git is not None and env.torch.git.commit:
        text += f", built from the checkout `{env.torch.git.toplevel}`: {git_text(env.torch.git)}"
    if env.torch.shadows:
        installed = f"torch {env.torch.dist_version}" if env.torch.dist_version else "torch"
        text += (f", imported from `{env.torch.origin or env.torch.location}`, which hides the installed "
                 f"{installed} (`{env.torch.shadows}`)")
    return text


def accelerators_text(env: EnvInfo) -> str:
    acc = env.accelerators
    parts = [f"CUDA {'available' if acc.get('cuda_available') else 'not available'}"
             + (f" (CUDA {env.torch_cuda})" if env.torch_cuda else "")]
    if acc.get("cuda_devices"):
        parts.append("GPUs: " + ", ".join(acc["cuda_devices"]))
    for key, name in (("mps_available", "MPS"), ("xpu_available", "XPU")):
        if acc.get(key):
            parts.append(f"{name} available")
    backend = acc.get("privateuse1_backend")
    if backend and backend != "privateuseone":
        parts.append(f"PrivateUse1 device `{backend}`: {acc.get('privateuse1_device_count', '?')} device(s)")
    elif env.torch_spyre.status != COLLECTED:
        parts.append("no Spyre device (torch_spyre not installed)")
    return "; ".join(parts)


def env_rows(env: EnvInfo) -> list[tuple[str, str]]:
    rows = [("PyTorch", torch_version_text(env) if env.torch.version else env.torch.reason),
            ("Torch-Spyre", package_text(env.torch_spyre)),
            ("torch_sendnn", package_text(env.torch_sendnn))]
    rows += spyre_stack_rows(env)
    rows += [("Python", f"{env.python} (`{env.executable}`)"), ("OS", f"{env.os} ({env.machine})"),
             ("Accelerators", accelerators_text(env) if env.torch.version else "n/a (torch not importable)")]
    if env.packages:
        rows.append(("Packages", ", ".join(f"{k} {v}" for k, v in sorted(env.packages.items()))))
    if env.script_git is not None and env.script_git.commit:
        rows.append(("Reproducer's repository", f"`{env.script_git.remote_url or env.script_git.toplevel}` "
                                                f"{git_text(env.script_git)}"))
    if not env.collect_env and env.collect_env_reason:
        rows.append(("collect_env", env.collect_env_reason))  # (a reader asks for its output: say why it is missing)
    if env.reason:
        rows.append(("Probe", env.reason))
    return rows


def spyre_stack_rows(env: EnvInfo) -> list[tuple[str, str]]:
    """The Spyre stack as upstream's CI identifies it (image stamp, back-end RPMs), LIB_VERSION_FILE, PF/VF."""
    stack = env.spyre_stack
    rows = []
    if stack is not None and stack.stamp:
        rows.append(("Spyre image", f"{spyre.stamp_summary(stack.stamp)} (`{stack.stamp_file}`)"))
    rpms = {k: v for k, v in (stack.rpms if stack is not None else {}).items() if v}
    if rpms:
        rows.append(("DeepTools / Flex", ", ".join(f"`{v}`" for v in rpms.values()) + f" (from {stack.rpm_source})"))
    elif env.lib_versions:
        rows.append(("DeepTools / Flex", f"ibm-deeptools `{env.deeptools or '?'}`, ibm-flex `{env.flex or '?'}` "
                                         f"(from LIB_VERSION_FILE `{env.lib_version_file}`)"))
    else:
        why = [stack.rpm_reason or "no ibm-deeptools / ibm-flex RPM"] if stack is not None else []
        rows.append(("DeepTools / Flex", "; ".join([*why, env.lib_reason])))
    if stack is not None:
        rows.append(("Device mode", spyre.device_mode_text(stack)))
    return rows


def code(text: Any) -> str:
    """Inline code that survives backticks in ``text``."""
    text = " ".join(str(text).split())
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fence(text: str, lang: str = "") -> str:
    """A fenced code block whose fence is longer than any backtick run inside ``text``."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text or "")), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}{lang}\n{(text or '').rstrip()}\n{ticks}"


def cell(text: Any) -> str:
    """Text usable inside a markdown table cell."""
    return " ".join(str(text).split()).replace("|", "\\|")


class Clipper:
    """``clip`` filter: shortens a block to its budget, with a note pointing to the full file."""

    def __init__(self, scale: float, fixed: tuple = ()) -> None:
        self.scale = scale
        self.fixed = fixed  # kinds kept at their base budget

    def __call__(self, text: str, kind: str, where: str = "", keep: str = "head") -> str:
        text = text or ""
        budget = int(BASE_BUDGETS[kind] * (1.0 if kind in self.fixed else self.scale))
        if len(text) <= budget:
            return text
        if kind == "code":
            return clip_python(text, budget, where)
        note = _cut_note(len(text) - budget, where)
        if budget <= 0:
            return note
        if keep == "tail":
            return note + "\n" + text[-budget:].split("\n", 1)[-1]
        return text[:budget].rsplit("\n", 1)[0] + "\n" + note


def _cut_note(cut: int, where: str) -> str:
    return f"[... {cut:,} characters cut by reportkit; the full text is in the bundle{': ' + where if where else ''}]"


def _parses(source: str) -> bool:
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return True


def _statement_ends(node: ast.AST) -> list[int]:
    """The last lines of the statements a cut may follow (not inside a ``try``: it needs its handlers)."""
    out: list[int] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt) and child.end_lineno is not None:
            out.append(child.end_lineno)
        if not isinstance(child, (ast.Try, getattr(ast, "TryStar", ast.Try))) and isinstance(child, ast.stmt):
            out += _statement_ends(child)
    return out


def clip_python(text: str, budget: int, where: str = "") -> str:
    """A reproducer cut to ``budget`` characters that still parses when it did: cut right after a statement
    (at any depth: Python needs no closing brackets for indented blocks) whose prefix parses, the note a
    comment. Source that does not parse is cut at a line."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        head = text[:budget].rsplit("\n", 1)[0] if budget > 0 else ""
        return head + ("\n" if head else "") + "# " + _cut_note(len(text) - len(head), where)
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    ends = sorted({starts[min(line, len(starts) - 1)] for line in _statement_ends(tree)}, reverse=True)
    head = ""
    for tries, end in enumerate(e for e in ends if e <= budget):
        if tries >= 12:
            break
        if _parses(text[:end]):
            head = text[:end]
            break
    if head and not head.endswith("\n"):
        head += "\n"
    return head + "# " + _cut_note(len(text) - len(head), where)


# --------------------------------------------------------------------------- problem / expected


def describe_problem(c: Collected) -> str:
    sig = c.signature
    run = f"Running {code(shlex.join(['python', c.script_name, *c.args]))}" \
        if c.pytest_node is None else f"The test {code(c.test_id)}"
    if sig.kind == FailureKind.EXCEPTION:
        message = first_line(sig.raw_message or "").strip()
        text = f"{run} raises {code(sig.exc_type)}" + (f": {code(message)}" if message else _assert_text(sig))
        if sig.location:
            text += f"\n\nRaised at {code(str(sig.location))}"
            if sig.script_frame and sig.script_frame != sig.location:
                text += f", from {code(str(sig.script_frame))}: {code(sig.script_frame.shown)}"
            text += "."
    elif sig.kind == FailureKind.HANG:
        text = f"{run} hangs (no progress within {c.debug_run.duration:.0f} s)"
        if sig.location:
            text += f"; the main thread is blocked at {code(str(sig.location))}"
        text += "."
    else:
        text = f"{run} fails: {sig.headline()}."
    verdict = single_verdict(c)
    if verdict:
        text += f"\n\n**Verdict:** {verdict}."
    return text


def single_verdict(c: Collected) -> str:
    """The report's one verdict: of the last collector whose comparison reached one (the spyre vs sendnn
    comparison already weighs the backend ladder's result, see spyre.single_verdict), so a ladder and a
    comparison never speak twice, or against each other."""
    verdicts = [comp.verdict for comp in (c.evidence.get(col.name) for col in COLLECTORS)
                if isinstance(comp, Comparison) and comp.status == COLLECTED and comp.verdict]
    return verdicts[-1] if verdicts else ""


def ladder_in_verdict(c: Collected) -> bool:
    """The report's verdict already says what the backend ladder found: the ladder's result is its verdict,
    or the comparison's verdict weighs it (spyre.single_verdict)."""
    ladder, verdict = c.evidence.get("ladder"), single_verdict(c)
    if not isinstance(ladder, Comparison) or ladder.status != COLLECTED or not verdict:
        return False
    comp = c.evidence.get("spyre_comparison")
    return bool(ladder.verdict and ladder.verdict in verdict) or (
        getattr(comp, "weighs_ladder", False) and getattr(comp, "verdict", None) == verdict)


def describe_expected(c: Collected) -> str:
    sig = c.signature
    if c.pytest_node is not None:
        text = "The test passes"
    elif sig.kind == FailureKind.EXCEPTION:
        text = f"The script runs to completion without raising {code(sig.exc_type)}"
    elif sig.kind == FailureKind.HANG:
        text = "The script finishes instead of hanging"
    elif sig.kind == FailureKind.SIGNAL:
        text = f"The script does not crash ({sig.headline()})"
    else:
        text = "The script exits with code 0"
    ladder = c.evidence.get("ladder") or Comparison()
    passing = [v.label for v in ladder.variants if v.outcome == "passes"]
    if passing:
        text += f", as it does with {', '.join(passing)}"
    return text + ".\n\n<!-- reportkit: replace or extend with the result you expected -->"


def _assert_text(sig) -> str:
    """For an exception without a message: `` at `assert EXPR` `` when an assert statement raised it, else ""."""
    text = sig.location.text.strip() if sig.location is not None and sig.location.text else ""
    return f" at {code(text)}" if text.startswith("assert") else ""


def default_title(c: Collected) -> str:
    sig = c.signature
    message = first_line(sig.raw_message or "").strip()
    head = (f"{sig.exc_type}" + (f": {message}" if message else _assert_text(sig).replace("`", ""))
            if sig.kind == FailureKind.EXCEPTION else sig.headline())
    head = first_line(head)[:120]
    stage = next((ev.stage for ev in (c.evidence.get("spyre_comparison"), c.evidence.get("ladder"))
                  if isinstance(ev, Comparison) and ev.stage), None)
    target = c.script_name + (f"::{c.pytest_node}" if c.pytest_node else "")
    return f"{head} ({target}" + (f"; {stage}" if stage else "") + ")"


# --------------------------------------------------------------------------- rendering


def bundle_files(script_name: str, minimized: bool = False, pytest: bool = False) -> dict[str, str]:
    """Where things are in a bundle directory (relative paths; the issue points to them)."""
    stem = Path(script_name).stem
    minimized_name = f"min_{script_name}" if pytest else f"{stem}.min.py"  # pytest must import it
    return {
        "issue": "issue.md", "bundle_json": "bundle.json",
        "reproducer": f"reproducer/{minimized_name}" if minimized else f"reproducer/{script_name}",
        "standalone": f"reproducer/repro_{script_name}", "conftest": "reproducer/conftest",
        "original": f"reproducer/original/{script_name}",
        "error": "logs/error.txt", "stdout": "logs/debug-run.stdout.txt", "stderr": "logs/debug-run.stderr.txt",
        "collect_env": "env/collect_env.txt", **collector_layout(),
    }


def templates_dirs() -> list[Path]:
    """The packaged templates (wheel: reportkit/templates) or the checkout's templates/ dir."""
    package = Path(__file__).resolve().parent.parent  # reportkit/
    return [p for p in (package / "templates", package.parent / "templates") if p.is_dir()]


def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(p) for p in templates_dirs()]),
                             undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True)
    from reportkit.report.venue import relevant_env, short_traceback

    env.filters.update(code=code, fence=fence, cell=cell, first_line=first_line, short_sha=short_sha,
                       shown_variants=shown_variants, short_traceback=short_traceback,
                       relevant_env=relevant_env, one_line=one_line)
    return env


def one_line(text: Any) -> str:
    """A log record on one line: a multi-line payload (a DataConversionInfo JSON dump) joined with spaces."""
    return re.sub(r"[ \t]*\n\s*", " ", str(text)).rstrip()


def shown_variants(comp: Comparison) -> list[Variant]:
    return [v for v in comp.variants if v.outcome != "skipped" or v.reason]


def context(c: Collected, files: Mapping[str, str], title: str, bundle_name: str) -> dict:
    files = {**bundle_files(c.script_name, bool(c.minimized), c.pytest_node is not None), **files}
    repro = dict(zip(("name", "source", "path"), _repro_shown(c, files)))
    return {
        "c": c, "title": title, "files": files, "bundle_name": bundle_name,
        "checklist": checklist(c, files), "problem": describe_problem(c), "expected": describe_expected(c),
        "verdict": single_verdict(c), "ladder_in_verdict": ladder_in_verdict(c),
        "env_rows": env_rows(c.env),
        "blocks": evidence_blocks(c),
        # composed from parts redacted before (c went through Redactor.tree): kept whole by the final pass
        "repro_command": protect(_repro_command(c)), "repro_lines": len(repro["source"].splitlines()),
        "repro": repro,
    }


def evidence_blocks(c: Collected) -> dict:
    """Issue section -> the template blocks of the collectors whose evidence is there, in collector order."""
    blocks: dict = {}
    for collector in COLLECTORS:
        if collector.section and collector.name in c.evidence:
            blocks.setdefault(collector.section, []).append(collector.template)
    return blocks


def _repro_command(c: Collected) -> str:
    env = " ".join(f"{k}={shlex.quote(v)}" for k, v in c.user_env.items() if v is not None)
    if c.standalone:  # placed next to the original test module, run from the repository root
        where = str(Path((c.test_id or c.script_name).split("::")[0]).with_name(f"repro_{c.script_name}"))
        return " ".join(x for x in (env, "python", shlex.quote(where)) if x)
    if c.pytest_node is not None:
        test_id = c.test_id or c.script_name
        if c.minimized:  # next to the original module
            test_id = str(Path(test_id.split("::")[0]).with_name(f"min_{c.script_name}")) + \
                (f"::{c.pytest_node}" if c.pytest_node else "")
        return " ".join(x for x in (env, "python -m pytest", shlex.quote(test_id)) if x)
    args = " ".join(shlex.quote(a) for a in c.args)
    return " ".join(x for x in (env, "python", shlex.quote(c.script_name), args) if x)


def _repro_shown(c: Collected, files: Mapping[str, str]) -> tuple[str, str, str]:
    """(file name, source, bundle path) of the reproducer the issue shows: the standalone script of a
    pytest test when there is one, else the (minimized) script or test module."""
    if c.standalone:
        return f"repro_{c.script_name}", c.standalone, files.get("standalone", "")
    where = files.get("reproducer", c.script_name)
    return Path(where).name, c.source, where


def github_length(text: str) -> int:
    """Length as GitHub counts it (UTF-16 code units: an astral character counts twice)."""
    return len(text.encode("utf-16-le")) // 2


def render_issue(c: Collected, template: str = "torch-spyre", *, redactor: Optional[Redactor] = None,
                 files: Optional[Mapping[str, str]] = None, title: Optional[str] = None, bundle_name: str = "",
                 limit: int = GITHUB_BODY_LIMIT, pre_redacted: bool = False) -> str:
    """Render ``issue.md``: redacted, and never longer than ``limit`` characters.

    Everything is redacted *before* it is clipped (a clip must not cut a token in half and let the
    rest through); ``pre_redacted``: ``c`` already went through ``redactor.tree``.
    """
    if template not in TEMPLATES:
        raise ValueError(f"unknown template {template!r}; choose one of {', '.join(TEMPLATES)}")
    redactor = redactor if redactor is not None else Redactor()
    c = c if pre_redacted else redactor.tree(c)
    ctx = context(c, files or {}, redactor.text(title or default_title(c)), bundle_name)
    tmpl = environment().get_template(f"{template}.md.j2")

    def render(clipper: Clipper) -> str:
        return tidy_markdown(redactor.markdown(tmpl.render(ctx, clip=clipper)))

    target = min(TARGET_LENGTHS.get(template, limit), limit)
    text = ""
    if target < limit:
        for scale in SOFT_SCALES:
            text = render(Clipper(scale, fixed=("code",)))
            if github_length(text) <= target:
                return text
        if github_length(text) <= limit:
            return text
    for scale in BUDGET_SCALES:
        text = render(Clipper(scale))
        if github_length(text) <= limit:
            return text
    return hard_cut(text, limit)


_FENCE = re.compile(r"^(`{3,})")


def tidy_markdown(text: str) -> str:
    """Outside code blocks: one blank line at most, and blank lines around ``<details>`` tags
    (an HTML block only ends at a blank line: a heading right after ``</details>`` would vanish)."""
    out: list[str] = []
    fence: Optional[str] = None
    for line in text.splitlines():
        m = _FENCE.match(line)
        if fence is not None:
            out.append(line)
            if m and line.strip() == fence:
                fence = None
            continue
        if m:
            fence = m.group(1)
        blank = not line.strip()
        if blank and (not out or not out[-1].strip()):
            continue
        if line.strip() in ("<details>",) and out and out[-1].strip():
            out.append("")
        if out and out[-1].strip() == "</details>" and not blank:
            out.append("")
        out.append(line)
    return "\n".join(out).strip() + "\n"


def hard_cut(text: str, limit: int) -> str:
    """Last resort: cut at a line boundary, close open code fences and ``<details>``, add a note."""
    note = "\n\n[... truncated by reportkit to GitHub's body limit; the full report is in the bundle]\n"
    budget = limit - len(note) - 200
    lines, out, size = text.splitlines(), [], 0
    for line in lines:
        if size + github_length(line) + 1 > budget:
            break
        out.append(line)
        size += github_length(line) + 1
    fence_open, details, opened_at = None, 0, 0
    for i, line in enumerate(out):
        m = _FENCE.match(line)
        if m and fence_open is None:
            fence_open, opened_at = m.group(1), i
        elif m and fence_open is not None and line.strip() == fence_open:
            fence_open = None
        elif fence_open is None:
            details += line.count("<details>") - line.count("</details>")
    if fence_open and re.match(r"`{3,}\s*py(?:thon)?3?\s*$", out[opened_at]):  # a cut Python block still parses
        body = "\n".join(out[opened_at + 1:]) + "\n"
        if not _parses(body):
            out = out[:opened_at + 1] + _parseable_head(body).splitlines() + ["# [... cut by reportkit]"]
    closing = ([fence_open] if fence_open else []) + ["</details>"] * max(0, details)
    return "\n".join(out + closing) + note


def _parseable_head(body: str) -> str:
    """The longest head of ``body`` that ends before a top-level statement and parses (a few tries)."""
    lines = body.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line[:1].strip() and not line.startswith(("#", ")", "]", "}"))]
    for tries, i in enumerate(reversed(starts)):
        if tries >= 12:
            break
        if _parses("".join(lines[:i])):
            return "".join(lines[:i])
    return ""
