"""Publish stage: file or update one GitHub issue per distinct CI failure, through the `gh` CLI (or, where
`gh` is missing, GitHub's REST API with the token).

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

from reportkit.constants import FINGERPRINT_PATTERN, MANIFEST_NAME, MANIFEST_VERSION
from reportkit.errors import UserError

MAX_BODY = 65_536  # GitHub's limit for an issue or comment body, in characters
MAX_TITLE = 256
MAX_TESTS_LISTED = 30
FILED_VERDICTS = ("confirmed", "flaky")
ACTIONS = ("created", "commented", "reopened", "duplicate", "skipped", "failed", "would create", "would comment",
           "would reopen", "would create or comment")
_RARE = ("reopened", "duplicate", "would create", "would comment", "would reopen", "would create or comment")
GH_TIMEOUT = 120.0
# Events whose GITHUB_TOKEN is read-only when the pull request comes from a fork.
# (pull_request_target runs in the base repository with its token: no fork problem.)
FORK_EVENTS = ("pull_request", "pull_request_review", "pull_request_review_comment")
WORKFLOW_RUN_HINT = ("to file issues for pull requests from forks, publish from a second workflow triggered "
                     "by `workflow_run` (it runs with the base repository's token); see "
                     "examples/07_ci_failing_suite/workflow_run.yml")

_FINGERPRINT = re.compile(FINGERPRINT_PATTERN)
_REPO = re.compile(r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$")
_ISSUE_URL = re.compile(r"https?://\S+/issues/\d+")
_COMMENT_URL = re.compile(r"https?://\S+/issues/\d+#issuecomment-\d+")
_LABEL_ERROR = re.compile(r"could not add label|label\b.*\bnot found", re.I)
_AUTH_ERROR = re.compile(r"HTTP 401|Bad credentials|gh auth login|set the GH_TOKEN|authentication required", re.I)
_PERMISSION_ERROR = re.compile(r"HTTP 403|Resource not accessible by integration|Must have (?:admin rights|push "
                               r"access)|has disabled issues|403 Forbidden", re.I)
_RATE_LIMIT = re.compile(r"rate limit", re.I)


DEDUP_LABEL = "reportkit"
_MARKER = re.compile(r"<!-- reportkit:fingerprint=([0-9a-fA-F]{8,64}) -->")


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
    blocked: bool = False  # nothing could be filed (no gh and no token, ...) outside GitHub Actions

    @property
    def exit_code(self) -> int:
        """1 when a filing failed, or when nothing could be filed outside GitHub Actions (a local run that
        files nothing is an error; a job without a token or from a fork is not)."""
        return 1 if self.blocked or any(r.action == "failed" for r in self.results) else 0

    def issue_urls(self) -> list[str]:
        urls = [r.url for r in self.results if r.action in ("created", "commented", "reopened", "duplicate")
                and r.url]
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
    from reportkit.redact import redact_text

    title = redact_text(" ".join((failure.title or failure.headline).split()), home="")
    if not title:
        title = f"reportkit: failure {failure.fingerprint}"
    title = neutralize(title)
    return title if len(title) <= MAX_TITLE else title[: MAX_TITLE - 1] + "…"


# Text from the job (messages, test names, output) must not ping people or link/notify other issues.
_PROTECTED = re.compile(r"(`+)[^`]*?\1|https?://[^\s<>()\]]+")  # inline code and URLs are left alone
_MENTION = re.compile(r"(?<![\w@/.+\-])@(?=[A-Za-z0-9])")
_REFERENCE = re.compile(r"(?<!&)#(?=\d)|\b(?<=GH)-(?=\d)", re.I)
ZWJ = "\u200d"


def _neutralize_span(text: str) -> str:
    return _REFERENCE.sub(lambda m: m.group(0) + ZWJ if m.group(0) == "#" else ZWJ + m.group(0),
                          _MENTION.sub("@" + ZWJ, text))


def neutralize(text: str) -> str:
    """Break @mentions, ``#123`` / ``GH-123`` references outside code (a zero-width joiner after ``@``/``#``).

    Code blocks, inline code and URLs are left as they are (GitHub does not link inside them)."""
    out: list[str] = []
    fence: Optional[str] = None
    for line in text.splitlines(keepends=True):
        m = re.match(r"\s{0,3}(`{3,}|~{3,})", line)
        if fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            out.append(line)
            continue
        if m:
            fence = m.group(1)
            out.append(line)
            continue
        pos, parts = 0, []
        for span in _PROTECTED.finditer(line):
            parts += [_neutralize_span(line[pos:span.start()]), span.group(0)]
            pos = span.end()
        out.append("".join(parts) + _neutralize_span(line[pos:]))
    return "".join(out)


def _safe(text: str) -> str:
    """What every body and comment goes through: secrets redacted (Python blocks as code: they still parse),
    mentions and references broken."""
    from reportkit.redact import redact_markdown

    return neutralize(redact_markdown(text))


def _bundle_pointer(failure: Failure, run_url: Optional[str], artifact_name: Optional[str],
                    artifact_url: Optional[str] = None) -> str:
    artifact = f"artifact {_code(artifact_name)}" if artifact_name else "the artifacts"
    if artifact_url and re.match(r"https://[^\s()<>]+$", artifact_url):
        artifact = f"[{artifact}]({artifact_url})"
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


def issue_body(failure: Failure, text: str, run_url: Optional[str], artifact_name: Optional[str],
               artifact_url: Optional[str] = None) -> str:
    """The marker, the bundle's issue.md and a footer; at most MAX_BODY characters."""
    head = marker(failure.fingerprint) + "\n\n"
    text = _safe(text)
    footer = (f"\n\n---\n<sub>Filed by `reportkit publish` (fingerprint `{failure.fingerprint}`); reproducer "
              f"bundle: {_bundle_pointer(failure, run_url, artifact_name, artifact_url)}.</sub>\n")
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


def seen_marker(fingerprint: str, run_url: Optional[str]) -> str:
    """The hidden line of a reportkit comment: which failure, which run (a re-run job does not comment twice)."""
    return f"<!-- reportkit:seen fingerprint={fingerprint} run={run_url or '-'} -->"


def comment_body(failure: Failure, run_url: Optional[str], artifact_name: Optional[str],
                 regressed: bool = False, artifact_url: Optional[str] = None) -> str:
    """The short "seen again" comment on an issue that already exists ("regressed" on a closed one)."""
    seen = f"in {run_url}" if run_url else "in another CI run"
    if regressed:
        lines = [f"**Regressed**: this failure (fingerprint `{failure.fingerprint}`) was fixed and closed, and "
                 f"failed again {seen} (verdict: {failure.verdict}). Reopened by reportkit.", ""]
    else:
        lines = [f"**Seen again** {seen} (verdict: {failure.verdict}).", ""]
    if failure.headline:
        lines += [f"> {line}" for line in failure.headline.splitlines()[:5]] + [""]
    lines.append(f"Failed tests ({len(failure.tests)}):")
    lines += [f"- {_code(t)}" for t in failure.tests[:MAX_TESTS_LISTED]]
    if len(failure.tests) > MAX_TESTS_LISTED:
        lines.append(f"- … and {len(failure.tests) - MAX_TESTS_LISTED} more")
    lines += ["", f"Reproducer bundle: {_bundle_pointer(failure, run_url, artifact_name, artifact_url)}.", ""]
    body = seen_marker(failure.fingerprint, run_url) + "\n" + _safe("\n".join(lines))
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
        from reportkit.redact import redact_markdown, redact_text

        args = [redact_text(a, home="") for a in args]  # the redaction edge, argument by argument
        body_file: Optional[Path] = None
        if body is not None:
            body_file = self.workdir / f"body-{uuid.uuid4().hex}.md"
            body_file.write_text(redact_markdown(body, home=""), encoding="utf-8")  # the redaction edge
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


def _json(out: str, what: str) -> object:
    try:
        return json.loads(out or "null")
    except ValueError:
        raise GhError("other", f"{what} did not print JSON") from None


class GhClient:
    """The GitHub operations publish needs, through the `gh` CLI (see :class:`Gh`)."""

    def __init__(self, gh: Gh, repo: str) -> None:
        self.gh, self.repo = gh, repo

    def list_issues(self, *, state: str = "all", label: Optional[str] = None, search: Optional[str] = None,
                    limit: int = 1000) -> list[dict]:
        args = ["issue", "list", "--repo", self.repo, "--state", state]
        args += ["--label", label] if label else []
        args += ["--search", search] if search else []
        data = _json(self.gh.run(args + ["--json", "number,url,body,state", "--limit", str(limit)]),
                     "gh issue list")
        return [i for i in data or [] if isinstance(i, dict) and isinstance(i.get("number"), int)]

    def create_issue(self, title: str, body: str, labels: list[str]) -> Optional[str]:
        out = self.gh.run(["issue", "create", "--repo", self.repo, "--title", title,
                           *[a for name in labels for a in ("--label", name)]], body)
        urls = _ISSUE_URL.findall(out)
        return urls[-1] if urls else None

    def comment(self, number: int, body: str) -> None:
        self.gh.run(["issue", "comment", str(number), "--repo", self.repo], body)

    def comments(self, number: int) -> list[str]:
        data = _json(self.gh.run(["issue", "view", str(number), "--repo", self.repo, "--json", "comments"]),
                     "gh issue view")
        found = data.get("comments") if isinstance(data, dict) else None
        return [str(c.get("body") or "") for c in found or [] if isinstance(c, dict)]

    def reopen(self, number: int) -> None:
        self.gh.run(["issue", "reopen", str(number), "--repo", self.repo])

    def close(self, number: int, reason: str = "not planned") -> None:
        self.gh.run(["issue", "close", str(number), "--repo", self.repo, "--reason", reason])

    def labels(self) -> set[str]:
        data = _json(self.gh.run(["label", "list", "--repo", self.repo, "--json", "name", "--limit", "1000"]),
                     "gh label list")
        return {str(x.get("name")) for x in data or [] if isinstance(x, dict)}

    def create_label(self, name: str) -> None:
        self.gh.run(["label", "create", name, "--repo", self.repo, "--color", "ededed",
                     "--description", "Filed by reportkit" if name == DEDUP_LABEL else "Added by reportkit"])


class RestClient:
    """The same operations as :class:`GhClient` through GitHub's REST API with a token (standard library
    only): the path when `gh` is not installed (self-hosted runners)."""

    def __init__(self, repo: str, token: str, api_url: str = "https://api.github.com",
                 timeout: float = GH_TIMEOUT) -> None:
        self.repo, self.token, self.api, self.timeout = repo, token, api_url.rstrip("/"), timeout

    def _call(self, method: str, path: str, data: Optional[dict] = None, query: Optional[dict] = None) -> object:
        import urllib.error
        import urllib.parse
        import urllib.request

        url = self.api + path + ("?" + urllib.parse.urlencode(query) if query else "")
        req = urllib.request.Request(url, method=method, data=json.dumps(data).encode() if data is not None else None,
                                     headers={"Authorization": f"Bearer {self.token}",
                                              "Accept": "application/vnd.github+json",
                                              "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "reportkit",
                                              "Content-Type": "application/json"})
        what = f"{method} {path}"
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:  # noqa: S310 (https API URL)
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:300]
            kind = "auth" if exc.code == 401 else "permission" if exc.code == 403 and not _RATE_LIMIT.search(detail) \
                else "other"
            raise GhError(kind, f"{what} failed: HTTP {exc.code}: {_one_line(detail)}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise GhError("other", f"{what} failed: {getattr(exc, 'reason', exc)}") from None
        return json.loads(raw) if raw.strip() else None

    @staticmethod
    def _issue(item: dict) -> dict:
        return {"number": item.get("number"), "url": item.get("html_url"), "body": item.get("body") or "",
                "state": item.get("state")}

    def list_issues(self, *, state: str = "all", label: Optional[str] = None, search: Optional[str] = None,
                    limit: int = 1000) -> list[dict]:
        found: list[dict] = []
        for page in range(1, 1 + max(1, (limit + 99) // 100)):
            if search:
                q = f"repo:{self.repo} is:issue {search}" + ("" if state == "all" else f" state:{state}")
                data = self._call("GET", "/search/issues", query={"q": q, "per_page": 100, "page": page})
                items = data.get("items", []) if isinstance(data, dict) else []
            else:
                query = {"state": state, "per_page": 100, "page": page, **({"labels": label} if label else {})}
                data = self._call("GET", f"/repos/{self.repo}/issues", query=query)
                items = data if isinstance(data, list) else []
            found += [self._issue(i) for i in items if isinstance(i, dict) and "pull_request" not in i]
            if len(items) < 100 or len(found) >= limit:
                break
        return [i for i in found if isinstance(i.get("number"), int)][:limit]

    def create_issue(self, title: str, body: str, labels: list[str]) -> Optional[str]:
        from reportkit.redact import redact_markdown, redact_text

        data = self._call("POST", f"/repos/{self.repo}/issues", {"title": redact_text(title, home=""),
                                                                   "body": redact_markdown(body, home=""),
                                                                   "labels": labels})
        return data.get("html_url") if isinstance(data, dict) else None

    def comment(self, number: int, body: str) -> None:
        from reportkit.redact import redact_markdown

        self._call("POST", f"/repos/{self.repo}/issues/{number}/comments", {"body": redact_markdown(body, home="")})

    def comments(self, number: int) -> list[str]:
        data = self._call("GET", f"/repos/{self.repo}/issues/{number}/comments", query={"per_page": 100})
        return [str(c.get("body") or "") for c in data or [] if isinstance(c, dict)]

    def reopen(self, number: int) -> None:
        self._call("PATCH", f"/repos/{self.repo}/issues/{number}", {"state": "open"})

    def close(self, number: int, reason: str = "not planned") -> None:
        self._call("PATCH", f"/repos/{self.repo}/issues/{number}",
                   {"state": "closed", "state_reason": reason.replace(" ", "_")})

    def labels(self) -> set[str]:
        data = self._call("GET", f"/repos/{self.repo}/labels", query={"per_page": 100})
        return {str(x.get("name")) for x in data or [] if isinstance(x, dict)}

    def create_label(self, name: str) -> None:
        self._call("POST", f"/repos/{self.repo}/labels", {"name": name, "color": "ededed",
                                                          "description": "Filed by reportkit"})


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


def _token(env: Mapping[str, str]) -> Optional[str]:
    return env.get("GH_TOKEN") or env.get("GITHUB_TOKEN") or None


def in_github_actions(env: Mapping[str, str]) -> bool:
    return env.get("GITHUB_ACTIONS") == "true"


def _blocker(env: Mapping[str, str], gh_exe: Optional[str], dry_run: bool) -> Optional[Notice]:
    fork = fork_pull_request(env)
    if fork:
        return Notice("notice", f"pull request from the fork {fork}: its token cannot write issues, so none are "
                                f"filed; {WORKFLOW_RUN_HINT}")
    if dry_run:
        return None
    if gh_exe is None and not _token(env):
        return Notice("warning", "gh (GitHub CLI) not found and no GH_TOKEN or GITHUB_TOKEN for GitHub's REST API: "
                                 "no issues filed; install gh (https://cli.github.com), pass --gh PATH, or set a "
                                 "token")
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
    artifact_url: Optional[str] = None  # the upload's URL, linked from issues and comments
    max_new: Optional[int] = None  # at most this many new issues per run (e.g. for artifacts from forks)
    dedup_label: Optional[str] = DEDUP_LABEL  # on every issue reportkit files; how they are found again
    on_regression: str = "reopen"  # a fingerprint whose issue is closed: "reopen" it, or file a "new" one
    max_comments: int = 10  # comments (seen again / regressed) per run
    max_comments_per_issue: int = 20  # reportkit comments an issue may collect over all runs


def split_labels(values: Optional[list[str]]) -> list[str]:
    """--label may be repeated and may hold names separated by commas or newlines ("bug,reportkit")."""
    labels = [name.strip() for value in values or [] for name in re.split(r"[,\n]", value)]
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


def _form_labels(manifest: Manifest, failure: Failure) -> list[str]:
    """The labels of the issue form the failure's bundle was rendered with (its ``bundle.json``'s
    ``template``): Torch-Spyre's bug form adds ``type/bug``; none when that cannot be read."""
    from reportkit.report.venue import FORM_LABELS

    try:
        data = json.loads((manifest.out_dir / (failure.bundle_dir or "") / "bundle.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return list(FORM_LABELS.get(data.get("template") if isinstance(data, dict) else None, ()))


def _is_open(issue: dict) -> bool:
    return str(issue.get("state") or "open").lower() == "open"


def _number_of(url: Optional[str]) -> Optional[int]:
    m = re.search(r"/issues/(\d+)\b", url or "")
    return int(m.group(1)) if m else None


class _Publisher:
    """Finds each fingerprint's issues (by the dedup label, all states; the marker is checked here, not
    by GitHub's search) and creates, comments, reopens or closes a duplicate, within the caps."""

    def __init__(self, manifest: Manifest, repo: str, options: PublishOptions, client,
                 report: PublishReport) -> None:
        self.manifest, self.repo, self.options, self.client, self.report = manifest, repo, options, client, report
        self.labels = list(dict.fromkeys([*options.labels, *([options.dedup_label] if options.dedup_label else [])]))
        self.label_ok: dict[str, bool] = {}  # label -> exists (or was created)
        self._index: Optional[dict[str, list[dict]]] = None
        self.commented: set[int] = set()
        self.comments_made = 0

    # -- finding issues
    def index(self) -> dict[str, list[dict]]:
        """fingerprint -> issues (any state) whose body has its marker, among the issues with the dedup label."""
        assert self.client is not None
        if self._index is None:
            self._index = {}
            if self.options.dedup_label:
                for issue in self.client.list_issues(state="all", label=self.options.dedup_label):
                    for fp in _MARKER.findall(str(issue.get("body") or "")):
                        self._index.setdefault(fp, []).append(issue)
        return self._index

    def find(self, fingerprint: str) -> list[dict]:
        """Issues carrying the marker, oldest first; GitHub's search only when the label list has none (an
        issue filed without the label: search lags, so it is a fallback, and its hits are checked here)."""
        assert self.client is not None
        found = self.index().get(fingerprint)
        if not found:
            hits = self.client.list_issues(state="all", search=f"reportkit:fingerprint={fingerprint} in:body",
                                           limit=20)
            found = [h for h in hits if marker(fingerprint) in str(h.get("body") or "")]
        return sorted(found, key=lambda i: i["number"])

    # -- writing
    def usable_labels(self, names: list[str], create: bool = True) -> list[str]:
        """``names`` less those that do not exist and could not be created (each looked up, created or
        reported once per run). ``create=False`` (an issue form's own labels, e.g. Torch-Spyre's
        ``type/bug``): used where the repository has them, never created in it."""
        assert self.client is not None
        todo = [n for n in names if n not in self.label_ok]
        existing = self.client.labels() if todo else set()
        for name in todo:
            self.label_ok[name] = True
            if name in existing:
                continue
            if not create:
                self.label_ok[name] = False
                self.report.notices.append(Notice("notice", f"the issue form's label {name!r} is not a label of "
                                                          f"{self.repo}: issues are filed without it (reportkit "
                                                          "does not create a form's labels)"))
                continue
            try:
                self.client.create_label(name)
            except GhError as exc:
                if exc.kind == "auth":
                    raise
                self.label_ok[name] = False
                self.report.notices.append(Notice("warning", f"label {name!r} does not exist and could not be "
                                                             f"created ({exc.message}): issues are filed without "
                                                             "it"))
        return [n for n in names if self.label_ok[n]]

    def create(self, failure: Failure, title: str, body: str) -> Result:
        assert self.client is not None
        self.labels = self.usable_labels(self.labels)  # the user's --label and the dedup label: created if missing
        form = [n for n in _form_labels(self.manifest, failure) if n not in self.labels]
        labels = [*self.labels, *self.usable_labels(form, create=False)]
        reason = ""
        try:
            url = self.client.create_issue(title, body, labels)
        except GhError as exc:
            if exc.kind != "label" or not labels:
                raise
            self.report.notices.append(Notice("warning", f"label(s) {', '.join(labels)}: {exc.message}; "
                                                         "issues are filed without labels (create them with "
                                                         "`gh label create`)"))
            self.labels = []  # the rest of this run, too
            reason = "created without labels: a label does not exist"
            url = self.client.create_issue(title, body, [])
        if not url:
            reason = "; ".join(filter(None, [reason, "gh printed no issue URL"]))
        result = Result(failure.fingerprint, title, "created", url, reason)
        return self.check_race(failure, result)

    def check_race(self, failure: Failure, result: Result) -> Result:
        """Two jobs that file the same fingerprint at once both create an issue: the later one closes its own."""
        assert self.client is not None
        number = _number_of(result.url)
        if number is None or not self.options.dedup_label or self.options.dedup_label not in self.labels:
            return result
        tag = marker(failure.fingerprint)
        twins = [i for i in self.client.list_issues(state="open", label=self.options.dedup_label)
                 if tag in str(i.get("body") or "") and i["number"] < number]
        if not twins:
            return result
        first = min(twins, key=lambda i: i["number"])
        self.client.comment(number, f"Duplicate of #{first['number']}: another CI job filed the same failure "
                                    f"(fingerprint `{failure.fingerprint}`) at the same time. Closed by reportkit.")
        self.client.close(number, "not planned")
        return Result(failure.fingerprint, result.title, "duplicate", str(first.get("url") or "") or None,
                      f"#{number} was filed at the same time as #{first['number']} by another job: closed as its "
                      "duplicate")

    def may_comment(self, failure: Failure, issue: dict) -> Optional[str]:
        """Why no comment may go to ``issue`` now (caps per run and per issue), or None."""
        assert self.client is not None
        number = issue["number"]
        if number in self.commented:
            return f"#{number} already got a comment in this run"
        if self.comments_made >= self.options.max_comments:
            return f"--max-comments {self.options.max_comments} reached: no comment on #{number}"
        ours = [c for c in self.client.comments(number) if "<!-- reportkit:seen " in c]
        run = self.manifest.run_url
        if run and any(f" run={run} -->" in c for c in ours):
            return f"#{number} already has a comment for this run"
        if len(ours) >= self.options.max_comments_per_issue:
            return (f"#{number} has {len(ours)} reportkit comments already (--max-comments-per-issue "
                    f"{self.options.max_comments_per_issue}): no more")
        return None

    def comment(self, failure: Failure, title: str, issue: dict, regressed: bool = False) -> Result:
        assert self.client is not None
        url = str(issue.get("url") or "") or None
        why_not = self.may_comment(failure, issue)
        if why_not is not None:
            return Result(failure.fingerprint, title, "skipped", url, why_not)
        self.commented.add(issue["number"])
        self.comments_made += 1
        self.client.comment(issue["number"], comment_body(failure, self.manifest.run_url, self.options.artifact_name,
                                                          regressed=regressed, artifact_url=self.options.artifact_url))
        if regressed:
            self.client.reopen(issue["number"])
            return Result(failure.fingerprint, title, "reopened", url, f"#{issue['number']} was closed: regressed")
        return Result(failure.fingerprint, title, "commented", url, f"already filed as #{issue['number']}")

    def one(self, failure: Failure) -> Result:
        assert self.client is not None or self.options.dry_run
        title = issue_title(failure)
        text = _read_issue_md(self.manifest, failure)
        if self.client is None:  # dry run without gh
            body = issue_body(failure, text, self.manifest.run_url, self.options.artifact_name, self.options.artifact_url)
            return Result(failure.fingerprint, title, "would create or comment", None,
                          f"body {len(body):,} characters; gh not found: existing issues not looked up")
        issues = self.find(failure.fingerprint)
        open_issues = [i for i in issues if _is_open(i)]
        if open_issues:
            if self.options.dry_run:
                return Result(failure.fingerprint, title, "would comment",
                              str(open_issues[0].get("url") or "") or None, f"on #{open_issues[0]['number']}")
            return self.comment(failure, title, open_issues[0])
        if issues and self.options.on_regression == "reopen":
            last = issues[-1]
            if self.options.dry_run:
                return Result(failure.fingerprint, title, "would reopen", str(last.get("url") or "") or None,
                              f"#{last['number']} (regressed)")
            return self.comment(failure, title, last, regressed=True)
        if issues:  # on_regression == "new": a new issue that links the closed one
            text = (f"> [!NOTE]\n> Regression: this failure was filed before as #{issues[-1]['number']} "
                    "(closed).\n\n" + text)
        body = issue_body(failure, text, self.manifest.run_url, self.options.artifact_name, self.options.artifact_url)
        if issues:  # issue_body broke every reference in the text; the link to the old issue is ours
            body = body.replace(f"#{ZWJ}{issues[-1]['number']} (closed)", f"#{issues[-1]['number']} (closed)", 1)
        created = sum(r.action == "created" for r in self.report.results)
        if self.options.max_new is not None and created >= self.options.max_new:
            return Result(failure.fingerprint, title, "skipped", None,
                          f"--max-new-issues {self.options.max_new} reached: not filed")
        if self.options.dry_run:
            return Result(failure.fingerprint, title, "would create", None, f"body {len(body):,} characters")
        return self.create(failure, title, body)


def _merge_same_fingerprint(failures: list[Failure]) -> list[Failure]:
    """One entry per fingerprint (a manifest may repeat one: merged manifests, a hostile artifact)."""
    merged: dict[str, Failure] = {}
    for f in failures:
        if f.fingerprint in merged:
            kept = merged[f.fingerprint]
            kept.tests = list(dict.fromkeys(kept.tests + f.tests))
        else:
            merged[f.fingerprint] = Failure(**{**asdict(f), "tests": list(f.tests)})
    return list(merged.values())


def publish(manifest: Manifest, options: PublishOptions, env: Optional[Mapping[str, str]] = None) -> PublishReport:
    """File or update an issue for every confirmed or flaky failure of ``manifest``."""
    env = dict(os.environ if env is None else env)
    repo = resolve_repo(options.repo, env)
    gh_exe = find_gh(options.gh, env)
    report = PublishReport(repo=repo, dry_run=options.dry_run)
    todo: list[Failure] = []
    for failure in _merge_same_fingerprint(manifest.failures):
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
        report.notices.append(blocker)  # its reason, once: the rows just say skipped
        report.results += [Result(f.fingerprint, issue_title(f), "skipped", None, "") for f in todo]
        report.blocked = not in_github_actions(env)
        return _in_manifest_order(report, manifest)
    with tempfile.TemporaryDirectory(prefix="reportkit-publish-") as tmp:
        client: Optional[object] = None
        if gh_exe:
            client = GhClient(Gh(gh_exe, env, Path(tmp)), repo)
        elif _token(env):  # no gh (self-hosted runner): the REST API with the token
            client = RestClient(repo, _token(env) or "", env.get("GITHUB_API_URL") or "https://api.github.com")
            report.notices.append(Notice("notice", "gh not found: publishing through GitHub's REST API with the "
                                                   "token"))
        publisher = _Publisher(manifest, repo, options, client, report)
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
    counts = ", ".join(f"{sum(r.action == a for r in report.results)} {a}" for a in ACTIONS
                       if a not in _RARE or any(r.action == a for r in report.results))
    lines.append(f"{report.repo}: {counts}"
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
    from reportkit.redact import redact_markdown, redact_text

    env = os.environ if env is None else env
    urls = redact_text(" ".join(report.issue_urls()), home="")
    for var, text in (("GITHUB_STEP_SUMMARY", redact_markdown(summary_markdown(report), home="")),
                      ("GITHUB_OUTPUT", github_output_lines({"issue-urls": urls}))):
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
    from reportkit.redact import redact_text

    return [f"::{n.level} title=reportkit publish::{_escape_command_data(redact_text(n.message, home=''))}"
            for n in report.notices]
