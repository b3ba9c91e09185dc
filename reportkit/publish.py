"""Publish stage: file or update one GitHub issue per distinct CI failure, through the `gh` CLI.

Input is the manifest `reportkit ci` writes (``OUT_DIR/reportkit-ci.json``). Every issue body carries a
hidden marker with the failure's fingerprint; a failure whose marker is found in an open issue gets a
short "seen again" comment there instead of a new issue. All GitHub access goes through `gh` in a
subprocess; bodies are passed in temporary files, never on the command line. Missing `gh`, no token,
a read-only token or a fork pull request are reported and skipped, never a crash.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Mapping, Optional

from reportkit.constants import MANIFEST_NAME, MANIFEST_VERSION
from reportkit.errors import UserError

MAX_BODY = 65_536  # GitHub's limit for an issue or comment body, in characters
MAX_TITLE = 256
MAX_TESTS_LISTED = 30
FILED_VERDICTS = ("confirmed", "flaky")
ACTIONS = ("created", "commented", "skipped", "failed")
GH_TIMEOUT = 120.0
# Events whose GITHUB_TOKEN is read-only when the pull request comes from a fork.
# (pull_request_target runs in the base repository with its token: no fork problem.)
FORK_EVENTS = ("pull_request", "pull_request_review", "pull_request_review_comment")
WORKFLOW_RUN_HINT = ("to file issues for pull requests from forks, publish from a second workflow triggered "
                     "by `workflow_run` (it runs with the base repository's token); see "
                     "examples/07_ci_failing_suite/workflow_run.yml")

_FINGERPRINT = re.compile(r"^[0-9a-fA-F]{8,64}$")
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_ISSUE_URL = re.compile(r"https?://\S+/issues/\d+")
_COMMENT_URL = re.compile(r"https?://\S+/issues/\d+#issuecomment-\d+")
_LABEL_ERROR = re.compile(r"could not add label|label\b.*\bnot found", re.I)
_AUTH_ERROR = re.compile(r"HTTP 401|Bad credentials|gh auth login|set the GH_TOKEN|authentication required", re.I)
_PERMISSION_ERROR = re.compile(r"HTTP 403|Resource not accessible by integration|Must have (?:admin rights|push "
                               r"access)|has disabled issues|403 Forbidden", re.I)
_RATE_LIMIT = re.compile(r"rate limit", re.I)


def marker(fingerprint: str) -> str:
    """The hidden line in every issue body that identifies the failure."""
    return f"<!-- reportkit:fingerprint={fingerprint} -->"


@dataclass
class Failure:
    fingerprint: str
    title: str
    headline: str
    tests: list[str]
    representative: Optional[str]
    verdict: str
    bundle_dir: Optional[str]
    issue_md: Optional[str]
    minimized: Optional[str]


@dataclass
class Manifest:
    out_dir: Path  # where the manifest was read from (not the path recorded in it: artifacts move)
    run_url: Optional[str]
    failures: list[Failure]


@dataclass
class Result:
    fingerprint: str
    title: str
    action: str  # one of ACTIONS
    url: Optional[str] = None  # the issue (for "commented": the issue, not the comment)
    reason: str = ""


@dataclass
class Notice:
    level: str  # "notice" | "warning" | "error" (GitHub workflow command names)
    message: str


@dataclass
class PublishReport:
    repo: str
    dry_run: bool
    results: list[Result] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return 1 if any(r.action == "failed" for r in self.results) else 0

    def issue_urls(self) -> list[str]:
        urls = [r.url for r in self.results if r.action in ("created", "commented") and r.url]
        return list(dict.fromkeys(urls))

    def to_dict(self) -> dict:
        return {"repo": self.repo, "dry_run": self.dry_run, "results": [asdict(r) for r in self.results],
                "notices": [asdict(n) for n in self.notices], "issue_urls": self.issue_urls(),
                "exit_code": self.exit_code}


# ---------------------------------------------------------------------------------------------- manifest

def load_manifest(path: Path) -> Manifest:
    """Read OUT_DIR/reportkit-ci.json (``path`` is the directory or the file itself)."""
    path = Path(path)
    file = path if path.suffix == ".json" and not path.is_dir() else path / MANIFEST_NAME
    if not file.is_file():
        where = f"{path} is not a directory" if path.exists() and not path.is_dir() else f"no {file}"
        raise UserError(f"{where}: give the output directory of `reportkit ci` (it holds {MANIFEST_NAME})")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UserError(f"{file} is not a readable JSON manifest: {exc}") from None
    if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION:
        version = data.get("version") if isinstance(data, dict) else None
        raise UserError(f"{file}: manifest version {version!r} is not supported (this reportkit reads version "
                        f"{MANIFEST_VERSION})")
    failures = data.get("failures")
    if not isinstance(failures, list):
        raise UserError(f"{file}: 'failures' must be a list")
    run_url = data.get("run_url")
    return Manifest(out_dir=file.parent, run_url=run_url if isinstance(run_url, str) and run_url else None,
                    failures=[_failure(item, i, file) for i, item in enumerate(failures)])


def _failure(item: object, index: int, file: Path) -> Failure:
    where = f"{file}: failures[{index}]"
    if not isinstance(item, dict):
        raise UserError(f"{where} is not an object")

    def text(key: str, required: bool = False) -> Optional[str]:
        value = item.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str) or (required and not value):
            raise UserError(f"{where}.{key} must be a {'non-empty ' if required else ''}string")
        return value

    fingerprint = text("fingerprint", required=True) or ""
    if not _FINGERPRINT.match(fingerprint):
        raise UserError(f"{where}.fingerprint must be hex digits, not {fingerprint!r}")
    tests = item.get("tests") or []
    if not isinstance(tests, list) or not all(isinstance(t, str) for t in tests):
        raise UserError(f"{where}.tests must be a list of strings")
    return Failure(fingerprint=fingerprint, title=text("title") or "", headline=text("headline") or "",
                   tests=list(tests), representative=text("representative"), verdict=text("verdict", True) or "",
                   bundle_dir=text("bundle_dir"), issue_md=text("issue_md"), minimized=text("minimized"))


# ---------------------------------------------------------------------------------------------- bodies

def _code(text: str) -> str:
    """Inline code that survives backticks inside ``text``."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def issue_title(failure: Failure) -> str:
    title = " ".join((failure.title or failure.headline).split())
    if not title:
        title = f"reportkit: failure {failure.fingerprint}"
    return title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1] + "…"


def _bundle_pointer(failure: Failure, run_url: Optional[str], artifact_name: Optional[str]) -> str:
    artifact = f"artifact {_code(artifact_name)}" if artifact_name else "the artifacts"
    run = f"[the CI run]({run_url})" if run_url else "the CI run"
    where = f", directory {_code(failure.bundle_dir.rstrip('/') + '/')}" if failure.bundle_dir else ""
    return f"{artifact} of {run}{where}"


def _open_fence(text: str) -> bool:
    """True when ``text`` ends inside a fenced code block."""
    fence: Optional[str] = None
    for line in text.splitlines():
        m = re.match(r"\s{0,3}(`{3,}|~{3,})", line)
        if not m:
            continue
        mark = m.group(1)
        if fence is None:
            fence = mark
        elif mark[0] == fence[0] and len(mark) >= len(fence) and not line.strip()[len(mark):].strip():
            fence = None
    return fence is not None


def issue_body(failure: Failure, text: str, run_url: Optional[str], artifact_name: Optional[str]) -> str:
    """The marker, the bundle's issue.md and a footer; at most MAX_BODY characters."""
    head = marker(failure.fingerprint) + "\n\n"
    footer = (f"\n\n---\n<sub>Filed by `reportkit publish` (fingerprint `{failure.fingerprint}`); reproducer "
              f"bundle: {_bundle_pointer(failure, run_url, artifact_name)}.</sub>\n")
    room = MAX_BODY - len(head) - len(footer)
    if len(text) > room:
        note = (f"\n\n> [!NOTE]\n> Truncated by reportkit: the issue text has {len(text):,} characters and "
                f"GitHub allows {MAX_BODY:,} in an issue; the full text is {_code(failure.issue_md or 'issue.md')} "
                "in the bundle.\n")
        cut = text[: max(0, room - len(note) - 5)]
        if _open_fence(cut):
            cut += "\n```"
        text = cut + note
    return head + text + footer


def comment_body(failure: Failure, run_url: Optional[str], artifact_name: Optional[str]) -> str:
    """The short "seen again" comment on an issue that already exists."""
    seen = f"in {run_url}" if run_url else "in another CI run"
    lines = [f"**Seen again** {seen} (verdict: {failure.verdict}).", ""]
    if failure.headline:
        lines += [f"> {line}" for line in failure.headline.splitlines()[:5]] + [""]
    lines.append(f"Failed tests ({len(failure.tests)}):")
    lines += [f"- {_code(t)}" for t in failure.tests[:MAX_TESTS_LISTED]]
    if len(failure.tests) > MAX_TESTS_LISTED:
        lines.append(f"- … and {len(failure.tests) - MAX_TESTS_LISTED} more")
    lines += ["", f"Reproducer bundle: {_bundle_pointer(failure, run_url, artifact_name)}.", ""]
    body = "\n".join(lines)
    return body if len(body) <= MAX_BODY else body[: MAX_BODY - 40] + "\n\n(comment truncated by reportkit)\n"


# ---------------------------------------------------------------------------------------------- gh

class GhError(Exception):
    """A failed `gh` call; ``kind`` is "auth", "permission", "label" or "other"."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


def classify_gh_error(returncode: int, stderr: str) -> str:
    if _LABEL_ERROR.search(stderr):
        return "label"
    if returncode == 4 or _AUTH_ERROR.search(stderr):  # gh exits 4 when it has no usable credentials
        return "auth"
    if _PERMISSION_ERROR.search(stderr) and not _RATE_LIMIT.search(stderr):
        return "permission"
    return "other"


def _one_line(text: str, limit: int = 300) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    joined = " ".join(lines[-3:])
    return joined if len(joined) <= limit else joined[: limit - 1] + "…"


class Gh:
    """Runs `gh` commands; a body is written to a temporary file and passed with --body-file."""

    def __init__(self, exe: str, env: Mapping[str, str], workdir: Path, timeout: float = GH_TIMEOUT) -> None:
        self.exe = exe
        self.env = {**env, "GH_PROMPT_DISABLED": "1", "GH_NO_UPDATE_NOTIFIER": "1", "NO_COLOR": "1",
                    "GH_SPINNER_DISABLED": "1"}
        self.workdir = workdir
        self.timeout = timeout

    def run(self, args: list[str], body: Optional[str] = None) -> str:
        body_file: Optional[Path] = None
        if body is not None:
            body_file = self.workdir / f"body-{uuid.uuid4().hex}.md"
            body_file.write_text(body, encoding="utf-8")
            args = [*args, "--body-file", str(body_file)]
        what = "gh " + " ".join(args[:2])
        try:
            proc = subprocess.run([self.exe, *args], capture_output=True, text=True, env=self.env,
                                  timeout=self.timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise GhError("other", f"{what} did not answer within {self.timeout:.0f} s") from None
        except OSError as exc:
            raise GhError("other", f"could not run {self.exe}: {exc}") from None
        finally:
            if body_file is not None:
                body_file.unlink(missing_ok=True)
        if proc.returncode != 0:
            detail = _one_line(proc.stderr) or _one_line(proc.stdout) or f"exit code {proc.returncode}"
            raise GhError(classify_gh_error(proc.returncode, proc.stderr), f"{what} failed: {detail}")
        return proc.stdout


def find_gh(gh: Optional[str], env: Mapping[str, str]) -> Optional[str]:
    """The gh executable: --gh (a bad one is a UserError), else `gh` on PATH, else None."""
    if gh:
        found = shutil.which(gh, path=env.get("PATH"))  # a path with a slash is checked as it is
        if not found:
            raise UserError(f"--gh {gh}: no such executable")
        return found
    return shutil.which("gh", path=env.get("PATH"))


# ---------------------------------------------------------------------------------------------- blockers

def _dig(obj: object, *keys: str) -> object:
    for key in keys:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def fork_pull_request(env: Mapping[str, str]) -> Optional[str]:
    """The fork's name when this is a pull_request event from a fork (its token cannot write issues)."""
    if env.get("GITHUB_EVENT_NAME") not in FORK_EVENTS or not env.get("GITHUB_EVENT_PATH"):
        return None
    try:
        event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    base = _dig(event, "pull_request", "base", "repo", "full_name")
    head = _dig(event, "pull_request", "head", "repo", "full_name")
    if not isinstance(base, str) or head == base:
        return None
    return head if isinstance(head, str) else "a deleted fork"


def in_github_actions(env: Mapping[str, str]) -> bool:
    return env.get("GITHUB_ACTIONS") == "true"


def _blocker(env: Mapping[str, str], gh_exe: Optional[str], dry_run: bool) -> Optional[Notice]:
    fork = fork_pull_request(env)
    if fork:
        return Notice("notice", f"pull request from the fork {fork}: its token cannot write issues, so none are "
                                f"filed; {WORKFLOW_RUN_HINT}")
    if dry_run:
        return None
    if gh_exe is None:
        return Notice("warning", "gh (GitHub CLI) not found: no issues filed; install it "
                                 "(https://cli.github.com) or pass --gh PATH")
    if in_github_actions(env) and not (env.get("GH_TOKEN") or env.get("GITHUB_TOKEN")):
        return Notice("warning", "no GH_TOKEN or GITHUB_TOKEN in the environment: no issues filed; set "
                                 "`GH_TOKEN: ${{ github.token }}` and give the job `permissions: issues: write`")
    return None


# ---------------------------------------------------------------------------------------------- publish

@dataclass
class PublishOptions:
    repo: Optional[str] = None
    labels: list[str] = field(default_factory=list)
    gh: Optional[str] = None
    dry_run: bool = False
    artifact_name: Optional[str] = None
    max_new: Optional[int] = None  # at most this many new issues per run (e.g. for artifacts from forks)


def split_labels(values: Optional[list[str]]) -> list[str]:
    """--label may be repeated and may hold comma-separated names ("bug,reportkit")."""
    labels = [name.strip() for value in values or [] for name in value.split(",")]
    return list(dict.fromkeys(name for name in labels if name))


def resolve_repo(repo: Optional[str], env: Mapping[str, str]) -> str:
    repo = repo or env.get("GITHUB_REPOSITORY") or ""
    if not repo:
        raise UserError("no repository: pass --repo OWNER/NAME (or set GITHUB_REPOSITORY)")
    if not _REPO.match(repo):
        raise UserError(f"--repo must be OWNER/NAME, not {repo!r}")
    return repo


def _read_issue_md(manifest: Manifest, failure: Failure) -> str:
    root = manifest.out_dir.resolve()
    path = (root / (failure.issue_md or "")).resolve()
    if root != path and root not in path.parents:
        raise GhError("other", f"issue_md {failure.issue_md!r} points outside {manifest.out_dir}; not filed")
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise GhError("other", f"cannot read {failure.issue_md}: {exc.strerror or exc}") from None


class _Publisher:
    def __init__(self, manifest: Manifest, repo: str, options: PublishOptions, gh: Optional[Gh],
                 report: PublishReport) -> None:
        self.manifest, self.repo, self.options, self.gh, self.report = manifest, repo, options, gh, report
        self.labels = list(options.labels)

    def find_existing(self, fingerprint: str) -> Optional[dict]:
        assert self.gh is not None
        out = self.gh.run(["issue", "list", "--repo", self.repo, "--state", "open", "--search",
                           f"reportkit:fingerprint={fingerprint} in:body", "--json", "number,url,body",
                           "--limit", "20"])
        try:
            hits = json.loads(out or "[]")
        except ValueError:
            raise GhError("other", "gh issue list did not print JSON") from None
        tag = marker(fingerprint)  # search is fuzzy: trust only a body that holds the exact marker
        found = [h for h in hits if isinstance(h, dict) and isinstance(h.get("number"), int)
                 and tag in str(h.get("body") or "")]
        return min(found, key=lambda h: h["number"]) if found else None

    def create(self, failure: Failure, title: str, body: str) -> Result:
        assert self.gh is not None
        base = ["issue", "create", "--repo", self.repo, "--title", title]
        reason = ""
        try:
            out = self.gh.run(base + [a for name in self.labels for a in ("--label", name)], body)
        except GhError as exc:
            if exc.kind != "label" or not self.labels:
                raise
            self.report.notices.append(Notice("warning", f"label(s) {', '.join(self.labels)}: {exc.message}; "
                                                         "issues are filed without labels (create them with "
                                                         "`gh label create`)"))
            self.labels = []  # the rest of this run, too
            reason = "created without labels: a label does not exist"
            out = self.gh.run(base, body)
        urls = _ISSUE_URL.findall(out)
        if not urls:
            reason = "; ".join(filter(None, [reason, "gh printed no issue URL"]))
        return Result(failure.fingerprint, title, "created", urls[-1] if urls else None, reason)

    def comment(self, failure: Failure, title: str, issue: dict) -> Result:
        assert self.gh is not None
        body = comment_body(failure, self.manifest.run_url, self.options.artifact_name)
        self.gh.run(["issue", "comment", str(issue["number"]), "--repo", self.repo], body)
        return Result(failure.fingerprint, title, "commented", str(issue.get("url") or "") or None,
                      f"already filed as #{issue['number']}")

    def one(self, failure: Failure) -> Result:
        title = issue_title(failure)
        text = _read_issue_md(self.manifest, failure)
        body = issue_body(failure, text, self.manifest.run_url, self.options.artifact_name)
        if self.options.dry_run:
            return self.dry_run(failure, title, body)
        existing = self.find_existing(failure.fingerprint)
        if existing is not None:
            return self.comment(failure, title, existing)
        created = sum(r.action == "created" for r in self.report.results)
        if self.options.max_new is not None and created >= self.options.max_new:
            return Result(failure.fingerprint, title, "skipped", None,
                          f"--max-new-issues {self.options.max_new} reached: not filed")
        return self.create(failure, title, body)

    def dry_run(self, failure: Failure, title: str, body: str) -> Result:
        size = f"{len(body):,} characters"
        if self.gh is None:
            return Result(failure.fingerprint, title, "skipped", None,
                          f"dry run: would create or comment (body {size}; gh not found: existing issues not "
                          "looked up)")
        existing = self.find_existing(failure.fingerprint)
        if existing is not None:
            return Result(failure.fingerprint, title, "skipped", str(existing.get("url") or "") or None,
                          f"dry run: would comment on #{existing['number']}")
        return Result(failure.fingerprint, title, "skipped", None, f"dry run: would create an issue ({size})")


def publish(manifest: Manifest, options: PublishOptions, env: Optional[Mapping[str, str]] = None) -> PublishReport:
    """File or update an issue for every confirmed or flaky failure of ``manifest``."""
    env = dict(os.environ if env is None else env)
    repo = resolve_repo(options.repo, env)
    gh_exe = find_gh(options.gh, env)
    report = PublishReport(repo=repo, dry_run=options.dry_run)
    todo: list[Failure] = []
    for failure in manifest.failures:
        if failure.verdict not in FILED_VERDICTS:
            report.results.append(Result(failure.fingerprint, issue_title(failure), "skipped", None,
                                         f"verdict {failure.verdict}: only confirmed and flaky failures are filed"))
        elif not failure.issue_md:
            report.results.append(Result(failure.fingerprint, issue_title(failure), "skipped", None,
                                         "no issue.md in its bundle"))
        else:
            todo.append(failure)
    blocker = _blocker(env, gh_exe, options.dry_run) if todo else None
    if blocker is not None:
        report.notices.append(blocker)
        report.results += [Result(f.fingerprint, issue_title(f), "skipped", None, blocker.message) for f in todo]
        return _in_manifest_order(report, manifest)
    with tempfile.TemporaryDirectory(prefix="reportkit-publish-") as tmp:
        gh = Gh(gh_exe, env, Path(tmp)) if gh_exe else None
        publisher = _Publisher(manifest, repo, options, gh, report)
        stop: Optional[str] = None  # set once the token turns out unable to write: skip the rest
        for failure in todo:
            title = issue_title(failure)
            if stop is not None:
                report.results.append(Result(failure.fingerprint, title, "skipped", None, stop))
                continue
            try:
                report.results.append(publisher.one(failure))
            except GhError as exc:
                if exc.kind in ("auth", "permission"):
                    stop = (f"{exc.message} — the token cannot write issues in {repo} (read-only token, fork pull "
                            "request, or not logged in); nothing more is filed")
                    if exc.kind == "permission":
                        stop += f"; give the job `permissions: issues: write`, or {WORKFLOW_RUN_HINT}"
                    report.notices.append(Notice("warning", stop))
                    report.results.append(Result(failure.fingerprint, title, "skipped", None, stop))
                else:
                    report.results.append(Result(failure.fingerprint, title, "failed", None, exc.message))
    for result in report.results:
        if result.action == "failed":
            report.notices.append(Notice("error", f"{result.fingerprint}: {result.reason}"))
    return _in_manifest_order(report, manifest)


def _in_manifest_order(report: PublishReport, manifest: Manifest) -> PublishReport:
    order = {f.fingerprint: i for i, f in enumerate(manifest.failures)}
    report.results.sort(key=lambda r: order.get(r.fingerprint, len(order)))
    return report


# ---------------------------------------------------------------------------------------------- output

def format_table(report: PublishReport) -> list[str]:
    rows = [("fingerprint", "action", "issue", "title / reason")]
    for r in report.results:
        rows.append((r.fingerprint, r.action, r.url or "-", r.title + (f" ({r.reason})" if r.reason else "")))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3] for row in rows]
    created = sum(r.action == "created" for r in report.results)
    commented = sum(r.action == "commented" for r in report.results)
    skipped = sum(r.action == "skipped" for r in report.results)
    failed = sum(r.action == "failed" for r in report.results)
    lines.append(f"{report.repo}: {created} created, {commented} commented, {skipped} skipped, {failed} failed"
                 + (" (dry run: nothing written to GitHub)" if report.dry_run else ""))
    return lines


def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def summary_markdown(report: PublishReport) -> str:
    lines = ["## Issues", ""]
    if report.dry_run:
        lines += ["Dry run: nothing was written to GitHub.", ""]
    if not report.results:
        lines.append("No failures to file.")
    else:
        lines += ["| fingerprint | action | issue | title |", "|---|---|---|---|"]
        for r in report.results:
            issue = f"[#{r.url.rsplit('/', 1)[-1]}]({r.url})" if r.url else "-"
            action = r.action + (f": {r.reason}" if r.reason else "")
            lines.append(f"| `{r.fingerprint}` | {_md_cell(action)} | {issue} | {_md_cell(r.title)} |")
    for n in report.notices:
        lines += ["", f"> **{n.level}**: {_md_cell(n.message)}"]
    return "\n".join(lines) + "\n"


def github_output_lines(outputs: Mapping[str, str]) -> str:
    """``key=value`` lines for $GITHUB_OUTPUT; the ``key<<DELIMITER`` form for multi-line values."""
    text = ""
    for key, value in outputs.items():
        if "\n" in value or "\r" in value:
            delimiter = f"ghadelimiter_{uuid.uuid4().hex}"
            text += f"{key}<<{delimiter}\n{value}\n{delimiter}\n"
        else:
            text += f"{key}={value}\n"
    return text


def write_github_files(report: PublishReport, env: Optional[Mapping[str, str]] = None) -> None:
    """Append the Issues section to $GITHUB_STEP_SUMMARY and issue-urls to $GITHUB_OUTPUT, when set.

    A file that cannot be written becomes a warning of the report: the issues are filed already."""
    env = os.environ if env is None else env
    for var, text in (("GITHUB_STEP_SUMMARY", summary_markdown(report)),
                      ("GITHUB_OUTPUT", github_output_lines({"issue-urls": " ".join(report.issue_urls())}))):
        if env.get(var):
            try:
                with open(env[var], "a", encoding="utf-8") as fh:
                    fh.write(text)
            except OSError as exc:
                report.notices.append(Notice("warning", f"cannot write ${var} ({env[var]}): {exc.strerror or exc}"))


def _escape_command_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_commands(report: PublishReport) -> list[str]:
    """``::notice::``/``::warning::``/``::error::`` lines for the GitHub Actions log (annotations)."""
    return [f"::{n.level} title=reportkit publish::{_escape_command_data(n.message)}" for n in report.notices]
