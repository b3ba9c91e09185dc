"""`reportkit publish` through the real CLI, against a fake `gh` first on PATH.

The fake (tests/fake_gh.py) logs every call and keeps the repository's issues, comments and labels in a
JSON file, shared under a lock by concurrent processes (matrix jobs filing at once); see its docstring
for the commands and failure modes it mimics.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fake_gh import FAKE_GH

from reportkit.ci.publish import MAX_BODY, Failure, github_output_lines, issue_body, marker

NEW = "aaaaaaaaaaaaaaa1"     # confirmed, never filed
KNOWN = "bbbbbbbbbbbbbbb2"   # flaky, open issue #7 carries its marker
FUZZY = "ccccccccccccccc3"   # confirmed; an open issue mentions it, but not as the marker
NOTREPRO = "ddddddddddddddd4"  # not reproduced: never filed
RUN_URL = "https://github.com/o/r/actions/runs/123"
ARTIFACT_URL = "https://github.com/o/r/actions/runs/123/artifacts/456"


def _failure(fp: str, verdict: str, title: str, tests: list[str]) -> dict:
    return {"fingerprint": fp, "title": title, "headline": title.split(" in ")[0], "tests": tests,
            "representative": tests[0], "verdict": verdict, "bundle_dir": f"bundles/{fp}",
            "issue_md": f"bundles/{fp}/issue.md", "minimized": f"bundles/{fp}/repro.py"}


@pytest.fixture
def ci_out(tmp_path) -> Path:
    out = tmp_path / "reportkit-ci"
    failures = [
        _failure(NEW, "confirmed", "AssertionError: Tensor-likes are not close! in test_clone",
                 ["tests/test_ops.py::TestClone::test_clone_65", "tests/test_ops.py::TestClone::test_clone_66"]),
        _failure(KNOWN, "flaky", "RuntimeError: CUDA error in test_sum", ["tests/test_ops.py::test_sum"]),
        _failure(FUZZY, "confirmed", "ValueError: bad shape in test_view", ["tests/test_view.py::test_view"]),
        _failure(NOTREPRO, "not-reproduced", "OSError: disk full in test_save", ["tests/test_io.py::test_save"]),
    ]
    for f in failures:
        (out / f["bundle_dir"]).mkdir(parents=True)
        (out / f["issue_md"]).write_text(f"### Describe the bug\n\n{f['title']}\n", encoding="utf-8")
    manifest = {"version": 1, "out_dir": "/elsewhere/reportkit-ci", "run_url": RUN_URL, "failures": failures}
    (out / "reportkit-ci.json").write_text(json.dumps(manifest), encoding="utf-8")
    return out


@pytest.fixture
def gh(tmp_path):
    """PATH, log and issues file of the fake gh."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "gh").write_text(FAKE_GH, encoding="utf-8")
    (bindir / "gh").chmod(0o755)
    issues = [
        {"number": 7, "url": "https://github.com/o/r/issues/7", "state": "open", "labels": ["bug", "reportkit"],
         "body": f"{marker(KNOWN)}\n\n### Describe the bug\n..."},
        {"number": 9, "url": "https://github.com/o/r/issues/9", "state": "open",
         "body": f"Might be related to reportkit:fingerprint={FUZZY} (not a marker)"},
        {"number": 3, "url": "https://github.com/o/r/issues/3", "state": "closed",  # filed without the label
         "body": f"{marker(FUZZY)}\nfixed long ago"},
    ]
    (tmp_path / "issues.json").write_text(json.dumps(issues), encoding="utf-8")
    return {"bin": bindir, "log": tmp_path / "gh-log.jsonl", "issues": tmp_path / "issues.json"}


def run_publish(gh: dict, *args: str, **env: str) -> subprocess.CompletedProcess:
    """`python -m reportkit publish ARGS` with the fake gh first on PATH and no GitHub variables but ``env``."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_", "FAKE_GH"))}
    base.update(PATH=f"{gh['bin']}{os.pathsep}{os.environ.get('PATH', '')}", FAKE_GH_LOG=str(gh["log"]),
                FAKE_GH_ISSUES=str(gh["issues"]), GH_TOKEN="test-token")
    base.update(env)
    base = {k: v for k, v in base.items() if v is not None}
    return subprocess.run([sys.executable, "-m", "reportkit", "publish", *args], capture_output=True, text=True,
                          env=base, timeout=120)


def calls(gh: dict) -> list[dict]:
    if not gh["log"].exists():
        return []
    return [json.loads(line) for line in gh["log"].read_text(encoding="utf-8").splitlines()]


def by_command(gh: dict, sub: str) -> list[dict]:
    return [c for c in calls(gh) if c["args"][:2] == ["issue", sub]]


def results(proc: subprocess.CompletedProcess) -> dict[str, dict]:
    return {r["fingerprint"]: r for r in json.loads(proc.stdout)["results"]}


def test_creates_new_issues_and_comments_on_known_ones(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--label", "bug", "--label", "reportkit",
                       "--artifact-name", "reportkit-bundles", "--artifact-url", ARTIFACT_URL)
    assert proc.returncode == 0, proc.stderr
    listed = [c["args"] for c in by_command(gh, "list")]
    # one listing by the dedup label (all states; the marker is matched locally), then GitHub's search as a
    # fallback for the fingerprints the label listing did not have (issues filed without the label)
    assert listed[0] == ["issue", "list", "--repo", "o/r", "--state", "all", "--label", "reportkit", "--json",
                         "number,url,body,state", "--limit", "1000"]
    assert [a[a.index("--search") + 1] for a in listed[1:] if "--search" in a] == [
        f"reportkit:fingerprint={fp} in:body" for fp in (NEW, FUZZY)]  # KNOWN came from the label listing

    [created] = by_command(gh, "create")  # NEW; FUZZY's issue #3 is closed: reopened, not a new one
    args = created["args"]
    assert args[:4] == ["issue", "create", "--repo", "o/r"]
    assert args[args.index("--title") + 1].endswith("in test_clone")
    assert [args[i + 1] for i, a in enumerate(args) if a == "--label"] == ["bug", "reportkit"]
    assert "--body" not in args  # bodies only in files
    assert created["body"].startswith(marker(NEW) + "\n")
    assert "### Describe the bug" in created["body"] and f"[artifact `reportkit-bundles`]({ARTIFACT_URL})" in \
        created["body"]
    assert not Path(created["body_file"]).exists()  # the temporary body file is gone
    assert created["token"] == "test-token"

    comments = by_command(gh, "comment")
    assert [c["args"][:5] for c in comments] == [["issue", "comment", "7", "--repo", "o/r"],
                                                 ["issue", "comment", "3", "--repo", "o/r"]]
    body = comments[0]["body"]
    assert "Seen again" in body and RUN_URL in body and "tests/test_ops.py::test_sum" in body
    assert "RuntimeError: CUDA error" in body and f"bundles/{KNOWN}/" in body and "reportkit-bundles" in body
    assert "Regressed" in comments[1]["body"]
    assert [c["args"][:3] for c in by_command(gh, "reopen")] == [["issue", "reopen", "3"]]

    assert "https://github.com/o/r/issues/101" in proc.stdout and "https://github.com/o/r/issues/7" in proc.stdout
    assert "1 created, 1 commented, 1 reopened, 1 skipped, 0 failed" in proc.stdout


def test_json_step_summary_and_output(gh, ci_out, tmp_path):
    summary, output = tmp_path / "summary.md", tmp_path / "output.txt"
    summary.write_text("# reportkit ci\n", encoding="utf-8")
    output.write_text("count=4\n", encoding="utf-8")
    proc = run_publish(gh, str(ci_out), "--json", GITHUB_REPOSITORY="o/r", GITHUB_STEP_SUMMARY=str(summary),
                       GITHUB_OUTPUT=str(output))
    assert proc.returncode == 0, proc.stderr
    res = results(proc)
    assert {fp: r["action"] for fp, r in res.items()} == {NEW: "created", KNOWN: "commented", FUZZY: "reopened",
                                                          NOTREPRO: "skipped"}
    assert "not-reproduced" in res[NOTREPRO]["reason"]
    urls = [res[NEW]["url"], res[KNOWN]["url"], res[FUZZY]["url"]]
    assert urls == ["https://github.com/o/r/issues/101", "https://github.com/o/r/issues/7",
                    "https://github.com/o/r/issues/3"]
    assert output.read_text(encoding="utf-8") == "count=4\n" + "issue-urls=" + " ".join(urls) + "\n"
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("# reportkit ci\n") and "## Issues" in text
    assert "[#101](https://github.com/o/r/issues/101)" in text and "[#7](https://github.com/o/r/issues/7)" in text


def test_long_issue_is_capped_with_a_note_and_keeps_the_marker(gh, ci_out):
    long_text = "### Output\n\n```\n" + "x" * 99 + "\n" + ("y" * 99 + "\n") * 2000  # an unclosed code block
    (ci_out / "bundles" / NEW / "issue.md").write_text(long_text, encoding="utf-8")
    proc = run_publish(gh, str(ci_out), "--repo", "o/r")
    assert proc.returncode == 0, proc.stderr
    body = by_command(gh, "create")[0]["body"]
    assert len(long_text) > MAX_BODY >= len(body) > MAX_BODY - 500
    assert body.startswith(marker(NEW))
    assert "Truncated by reportkit" in body and f"bundles/{NEW}/issue.md" in body
    assert sum(line.startswith("```") for line in body.splitlines()) % 2 == 0  # the cut code block is closed


def test_issue_body_unit_cap_and_short_text():
    f = Failure(NEW, "t", "h", ["a"], "a", "confirmed", f"bundles/{NEW}", f"bundles/{NEW}/issue.md", None)
    short = issue_body(f, "hello", RUN_URL, "art")
    assert short.startswith(marker(NEW)) and "hello" in short and "Truncated" not in short
    room = MAX_BODY - len(issue_body(f, "", None, None))  # marker and footer take the rest
    for size, truncated in ((room, False), (room + 1, True), (10 * MAX_BODY, True)):
        body = issue_body(f, "z" * size, None, None)
        assert len(body) <= MAX_BODY and body.startswith(marker(NEW))
        assert ("Truncated by reportkit" in body) is truncated
    assert len(issue_body(f, "z" * room, None, None)) == MAX_BODY


@pytest.mark.parametrize("failure", ["403", "graphql"])
def test_read_only_token_skips_with_a_notice(gh, ci_out, failure):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", FAKE_GH_FAIL=failure, GITHUB_ACTIONS="true")
    assert proc.returncode == 0, proc.stderr
    res = results(proc)
    assert {r["action"] for r in res.values()} == {"skipped"}
    assert "cannot write issues" in res[NEW]["reason"] and "issues: write" in res[NEW]["reason"]
    assert len(by_command(gh, "create")) == 1  # the first write failed: the others were not attempted
    assert "::warning title=reportkit publish::" in proc.stderr and "Resource not accessible" in proc.stderr
    assert "Traceback" not in proc.stderr


def _event(tmp_path: Path, head: str, base: str = "o/r") -> Path:
    path = tmp_path / "event.json"
    path.write_text(json.dumps({"pull_request": {"head": {"repo": {"full_name": head}},
                                                 "base": {"repo": {"full_name": base}}}}), encoding="utf-8")
    return path


def test_fork_pull_request_skips_everything_without_calling_gh(gh, ci_out, tmp_path):
    proc = run_publish(gh, str(ci_out), "--json", GITHUB_REPOSITORY="o/r", GITHUB_ACTIONS="true",
                       GITHUB_EVENT_NAME="pull_request", GITHUB_EVENT_PATH=str(_event(tmp_path, "someone/r")))
    assert proc.returncode == 0, proc.stderr
    assert calls(gh) == []
    assert {r["action"] for r in results(proc).values()} == {"skipped"}
    assert "::notice title=reportkit publish::" in proc.stderr
    assert "someone/r" in proc.stderr and "workflow_run" in proc.stderr


@pytest.mark.parametrize("event_name, head", [
    ("pull_request", "o/r"),                 # a branch of the same repository: the token can write
    ("pull_request_target", "someone/r"),    # runs with the base repository's token
    ("push", "someone/r"),
])
def test_not_a_fork_problem_files_issues(gh, ci_out, tmp_path, event_name, head):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", GITHUB_EVENT_NAME=event_name,
                       GITHUB_EVENT_PATH=str(_event(tmp_path, head)))
    assert proc.returncode == 0, proc.stderr
    assert len(by_command(gh, "create")) == 1 and len(by_command(gh, "comment")) == 2


def test_labels_split_missing_ones_created_or_reported(gh, ci_out, tmp_path):
    state = json.loads(gh["issues"].read_text(encoding="utf-8"))
    gh["issues"].write_text(json.dumps({"issues": state, "labels": ["bug"]}), encoding="utf-8")
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--label", "bug,needs triage\nci", "--json",
                       FAKE_GH_MISSING_LABEL="ci")  # "ci" cannot be created (no permission)
    assert proc.returncode == 0, proc.stderr
    made = [c["args"][2] for c in calls(gh) if c["args"][:2] == ["label", "create"]]
    assert made == ["needs triage", "ci", "reportkit"]
    [created] = by_command(gh, "create")
    labels = [created["args"][i + 1] for i, a in enumerate(created["args"]) if a == "--label"]
    assert labels == ["bug", "needs triage", "reportkit"]  # only the one that could not be created is left out
    assert "label 'ci' does not exist and could not be created" in proc.stderr
    assert results(proc)[NEW]["action"] == "created"


def test_no_dedup_label_and_an_uncreatable_label(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--label", "bug", "--json", "--dedup-label", "",
                       FAKE_GH_MISSING_LABEL="bug")
    assert proc.returncode == 0, proc.stderr
    labels = [[c["args"][i + 1] for i, a in enumerate(c["args"]) if a == "--label"] for c in by_command(gh, "create")]
    assert labels == [[]]  # "bug" could not be created: left out before the create
    assert "label 'bug' does not exist" in proc.stderr


def test_unexpected_gh_failure_exits_1(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", FAKE_GH_FAIL="502")
    assert proc.returncode == 1, proc.stderr
    res = results(proc)
    assert res[NEW]["action"] == res[KNOWN]["action"] == res[FUZZY]["action"] == "failed"
    assert "HTTP 502" in res[NEW]["reason"]
    assert "Traceback" not in proc.stderr


def test_dry_run_writes_nothing_to_github(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    assert {tuple(c["args"][:2]) for c in calls(gh)} == {("issue", "list")}
    res = results(proc)
    assert (res[KNOWN]["action"], res[KNOWN]["reason"]) == ("would comment", "on #7")
    assert res[NEW]["action"] == "would create" and res[NEW]["reason"].startswith("body ")
    table = run_publish(gh, str(ci_out), "--repo", "o/r", "--dry-run").stdout
    assert "would create" in table and "1 would create" in table and "dry run: nothing written" in table


def test_gh_not_installed_and_no_token_skips_with_a_warning(gh, ci_out, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", PATH=str(empty), GH_TOKEN=None)
    assert proc.returncode == 1, proc.stderr  # outside Actions: nothing could be filed is an error
    assert {r["action"] for r in results(proc).values()} == {"skipped"}
    assert "gh (GitHub CLI) not found and no GH_TOKEN" in proc.stderr and "Traceback" not in proc.stderr
    table = run_publish(gh, str(ci_out), "--repo", "o/r", PATH=str(empty), GH_TOKEN=None)
    assert (table.stdout + table.stderr).count("not found and no GH_TOKEN") == 1  # the reason once, not per row
    in_actions = run_publish(gh, str(ci_out), "--repo", "o/r", PATH=str(empty), GH_TOKEN=None, GITHUB_TOKEN=None,
                             GITHUB_ACTIONS="true")
    assert in_actions.returncode == 0, in_actions.stderr  # a job without a token is not failed by it


class _FakeRest:
    """GitHub's REST API for issues, comments and labels, on a loopback port (for the no-`gh` path)."""

    def __init__(self, issues: list[dict]) -> None:
        import http.server
        import threading

        self.issues, self.labels, self.requests = issues, ["bug"], []
        fake = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _reply(self, code, data):
                raw = json.dumps(data).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _handle(self, method):
                from urllib.parse import parse_qs, urlparse

                url = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                size = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(size)) if size else None
                fake.requests.append((method, url.path, query, body, self.headers.get("Authorization")))
                parts = url.path.strip("/").split("/")
                if parts == ["search", "issues"]:  # fuzzy, like GitHub's: the caller checks the marker
                    words = [w.split("=")[-1] for w in query["q"].split() if "=" in w]
                    return self._reply(200, {"items": [i for i in fake.issues
                                                       if all(w in i["body"] for w in words)]})
                if parts[:3] != ["repos", "o", "r"]:
                    return self._reply(404, {"message": "Not Found"})
                rest = parts[3:]
                if rest == ["issues"] and method == "GET":
                    state, label = query.get("state", "open"), query.get("labels")
                    found = [i for i in fake.issues if (state == "all" or i["state"] == state)
                             and (not label or label in i.get("labels", []))]
                    return self._reply(200, found if query.get("page", "1") == "1" else [])
                if rest == ["issues"] and method == "POST":
                    number = max([100] + [i["number"] for i in fake.issues]) + 1
                    issue = {"number": number, "html_url": f"https://github.com/o/r/issues/{number}", "state": "open",
                             "body": body["body"], "labels": body["labels"], "comments": []}
                    fake.issues.append(issue)
                    return self._reply(201, issue)
                if rest == ["labels"]:
                    if method == "POST":
                        fake.labels.append(body["name"])
                        return self._reply(201, {"name": body["name"]})
                    return self._reply(200, [{"name": n} for n in fake.labels])
                issue = next(i for i in fake.issues if str(i["number"]) == rest[1])
                if rest[2:] == ["comments"]:
                    if method == "POST":
                        issue["comments"].append(body["body"])
                        return self._reply(201, {})
                    return self._reply(200, [{"body": b} for b in issue["comments"]])
                issue.update(body)  # PATCH
                return self._reply(200, issue)

            def do_GET(self):
                self._handle("GET")

            def do_POST(self):
                self._handle("POST")

            def do_PATCH(self):
                self._handle("PATCH")

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_without_gh_publishes_through_the_rest_api(gh, ci_out, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    rest = _FakeRest([{"number": 7, "html_url": "https://github.com/o/r/issues/7", "state": "open",
                       "labels": ["reportkit"], "body": marker(KNOWN), "comments": []},
                      {"number": 3, "html_url": "https://github.com/o/r/issues/3", "state": "closed",
                       "labels": ["reportkit"], "body": marker(FUZZY), "comments": []}])
    try:
        proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", "--label", "bug", PATH=str(empty),
                           GITHUB_API_URL=rest.url)
    finally:
        rest.close()
    assert proc.returncode == 0, proc.stderr
    got = results(proc)
    assert {fp: r["action"] for fp, r in got.items() if fp != NOTREPRO} == {
        NEW: "created", KNOWN: "commented", FUZZY: "reopened"}
    assert got[NEW]["url"] == "https://github.com/o/r/issues/101"
    issues = {i["number"]: i for i in rest.issues}
    assert issues[101]["body"].startswith(marker(NEW)) and issues[101]["labels"] == ["bug", "reportkit"]
    assert "Seen again" in issues[7]["comments"][0] and issues[3]["state"] == "open"
    assert "reportkit" in rest.labels  # the missing dedup label was created
    assert {auth for *_, auth in rest.requests} == {"Bearer test-token"}
    assert "REST API" in proc.stderr and calls(gh) == []


def test_no_token_in_github_actions_skips_without_calling_gh(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", GH_TOKEN=None, GITHUB_ACTIONS="true")
    assert proc.returncode == 0, proc.stderr
    assert calls(gh) == []
    assert "::warning title=reportkit publish::no GH_TOKEN or GITHUB_TOKEN" in proc.stderr


def test_issue_md_outside_the_output_directory_is_not_read(gh, ci_out, tmp_path):
    (tmp_path / "secret.txt").write_text("do not post me", encoding="utf-8")
    manifest = json.loads((ci_out / "reportkit-ci.json").read_text(encoding="utf-8"))
    manifest["failures"][0]["issue_md"] = "../secret.txt"
    (ci_out / "reportkit-ci.json").write_text(json.dumps(manifest), encoding="utf-8")
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json")
    assert proc.returncode == 1
    assert results(proc)[NEW]["action"] == "failed" and "outside" in results(proc)[NEW]["reason"]
    assert all("do not post me" not in (c["body"] or "") for c in calls(gh))


@pytest.mark.parametrize("setup, args, fragment", [
    (None, ["nowhere"], "reportkit-ci.json"),
    ("{not json", ["out"], "not a readable JSON manifest"),
    ('{"version": 99, "failures": []}', ["out"], "manifest version 99 is not supported"),
    ('{"version": 1, "failures": [{"fingerprint": "zz", "verdict": "confirmed"}]}', ["out"], "hex digits"),
    ('{"version": 1, "failures": []}', ["out", "--repo", "not-a-repo"], "--repo must be OWNER/NAME"),
    ('{"version": 1, "failures": []}', ["out"], "no repository: pass --repo OWNER/NAME"),
    ('{"version": 1, "failures": []}', ["out", "--repo", "o/r", "--gh", "/no/such/gh"], "--gh /no/such/gh"),
])
def test_bad_input_one_clear_message_exit_2(gh, tmp_path, setup, args, fragment):
    if setup is not None:
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "reportkit-ci.json").write_text(setup, encoding="utf-8")
    proc = run_publish(gh, *[str(tmp_path / a) if a in ("out", "nowhere") else a for a in args])
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert fragment in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert calls(gh) == []


def test_github_output_multiline_values_use_the_heredoc_form():
    text = github_output_lines({"issue-urls": "u1 u2", "notes": "line 1\nline 2"})
    lines = text.splitlines()
    assert lines[0] == "issue-urls=u1 u2"
    assert lines[1].startswith("notes<<ghadelimiter_") and lines[2:4] == ["line 1", "line 2"]
    assert lines[4] == lines[1].split("<<", 1)[1]


def test_unwritable_github_output_is_a_warning_not_a_failure(gh, ci_out, tmp_path):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", GITHUB_OUTPUT=str(tmp_path))  # a directory
    assert proc.returncode == 0, proc.stderr
    assert results(proc)[NEW]["action"] == "created"
    assert "cannot write $GITHUB_OUTPUT" in proc.stderr and "Traceback" not in proc.stderr


def test_max_new_issues_caps_creates_not_comments(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--max-new-issues", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    assert len(by_command(gh, "create")) == 1 and len(by_command(gh, "comment")) == 2
    got = results(proc)
    assert got[NEW]["action"] == "created" and got[KNOWN]["action"] == "commented"
    assert got[FUZZY]["action"] == "reopened"  # not a new issue


def test_max_new_issues_caps_creates(gh, ci_out):
    manifest = json.loads((ci_out / "reportkit-ci.json").read_text(encoding="utf-8"))
    manifest["failures"][2]["fingerprint"] = "eeeeeeeeeeeeeee5"  # a second new one
    (ci_out / "reportkit-ci.json").write_text(json.dumps(manifest), encoding="utf-8")
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--max-new-issues", "1", "--json")
    got = results(proc)
    assert got[NEW]["action"] == "created"
    assert got["eeeeeeeeeeeeeee5"]["action"] == "skipped" and "--max-new-issues 1" in got["eeeeeeeeeeeeeee5"]["reason"]


def _manifest(ci_out: Path, failures: list[dict], run_url: str = RUN_URL) -> None:
    for f in failures:
        (ci_out / f["bundle_dir"]).mkdir(parents=True, exist_ok=True)
        (ci_out / f["issue_md"]).write_text(f"### Describe the bug\n\n{f['title']}\n", encoding="utf-8")
    (ci_out / "reportkit-ci.json").write_text(json.dumps({"version": 1, "run_url": run_url, "failures": failures}),
                                              encoding="utf-8")


def _state(gh: dict) -> list[dict]:
    data = json.loads(gh["issues"].read_text(encoding="utf-8"))
    return data["issues"] if isinstance(data, dict) else data


def test_regressed_fingerprint_reopens_or_files_a_new_issue_linking_the_old(gh, ci_out):
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json")
    assert results(proc)[FUZZY]["action"] == "reopened"
    issue3 = next(i for i in _state(gh) if i["number"] == 3)
    assert issue3["state"] == "open" and "Regressed" in issue3["comments"][0] and RUN_URL in issue3["comments"][0]

    state = _state(gh)  # fixed again, and it comes back once more
    next(i for i in state if i["number"] == 3)["state"] = "closed"
    gh["issues"].write_text(json.dumps(state), encoding="utf-8")
    gh["log"].unlink()
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", "--on-regression", "new")
    got = results(proc)
    assert got[FUZZY]["action"] == "created"
    new = next(c for c in by_command(gh, "create") if c["body"].startswith(marker(FUZZY)))
    assert "Regression: this failure was filed before as #3 (closed)" in new["body"]  # a real link
    assert by_command(gh, "reopen") == []


def test_two_jobs_filing_one_fingerprint_at_once_end_with_one_issue(gh, ci_out, tmp_path):
    """Both jobs list (nothing there yet), both create; the one whose issue is later closes its own."""
    _manifest(ci_out, [_failure(NEW, "confirmed", "ValueError: x in test_a", ["tests/test_a.py::test_a"])])
    gh["issues"].write_text("[]", encoding="utf-8")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "GH_", "RUNNER_", "FAKE_GH"))}
    base.update(PATH=f"{gh['bin']}{os.pathsep}{os.environ.get('PATH', '')}", FAKE_GH_LOG=str(gh["log"]),
                FAKE_GH_ISSUES=str(gh["issues"]), GH_TOKEN="t", FAKE_GH_LIST_DELAY="1.5")
    jobs = [subprocess.Popen([sys.executable, "-m", "reportkit", "publish", str(ci_out), "--repo", "o/r", "--json"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=base) for _ in range(2)]
    outs = [json.loads(job.communicate(timeout=120)[0])["results"][0] for job in jobs]
    assert len(by_command(gh, "create")) == 2  # the race happened
    open_issues = [i for i in _state(gh) if i["state"] == "open"]
    assert len(open_issues) == 1 and open_issues[0]["body"].startswith(marker(NEW))
    assert sorted(o["action"] for o in outs) == ["created", "duplicate"]
    assert {o["url"] for o in outs} == {open_issues[0]["url"]}
    closed = next(i for i in _state(gh) if i["state"] == "closed")
    assert closed["state_reason"] == "not planned" and f"Duplicate of #{open_issues[0]['number']}" in \
        closed["comments"][0]


def test_a_hostile_manifest_cannot_flood_or_ping(gh, ci_out):
    """30 entries of one known fingerprint with an "@octocat" headline: one comment, nobody pinged."""
    hostile = "AssertionError: @octocat look at #1 and GH-2"
    entry = _failure(KNOWN, "confirmed", hostile + " in test_x", ["tests/test_x.py::test_@x"])
    entry["headline"] = hostile
    _manifest(ci_out, [dict(entry, tests=[f"tests/test_x.py::test_{i}"]) for i in range(30)])
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json")
    assert proc.returncode == 0, proc.stderr
    [comment] = by_command(gh, "comment")
    assert "@octocat" not in comment["body"] and "@\u200doctocat" in comment["body"]
    assert "#1 " not in comment["body"] and "#\u200d1" in comment["body"] and "GH-2" not in comment["body"]
    assert "Failed tests (30)" in comment["body"]

    # the same run again (a re-run job): no second comment for it
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json")
    assert len(by_command(gh, "comment")) == 1
    assert "already has a comment for this run" in results(proc)[KNOWN]["reason"]

    # other runs: at most --max-comments-per-issue reportkit comments on one issue
    for n in range(3):
        _manifest(ci_out, [entry], run_url=f"https://github.com/o/r/actions/runs/{900 + n}")
        proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", "--max-comments-per-issue", "2")
    assert len(by_command(gh, "comment")) == 2
    assert "has 2 reportkit comments already" in results(proc)[KNOWN]["reason"]


def test_max_comments_per_run(gh, ci_out):
    state = [{"number": n, "url": f"https://github.com/o/r/issues/{n}", "state": "open", "labels": ["reportkit"],
              "body": marker(f"{n:016x}")} for n in range(1, 6)]
    gh["issues"].write_text(json.dumps(state), encoding="utf-8")
    _manifest(ci_out, [_failure(f"{n:016x}", "confirmed", f"E{n}", [f"t.py::t{n}"]) for n in range(1, 6)])
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--json", "--max-comments", "2")
    assert len(by_command(gh, "comment")) == 2
    assert [r["action"] for r in json.loads(proc.stdout)["results"]] == ["commented"] * 2 + ["skipped"] * 3
    assert "--max-comments 2 reached" in json.loads(proc.stdout)["results"][4]["reason"]


def test_issue_text_from_the_job_is_neutralised_and_redacted(gh, ci_out):
    token = "ghp_" + "a1B2" * 9
    (ci_out / "bundles" / NEW / "issue.md").write_text(
        f"### Describe the bug\n\nthanks @someone, see #12 (token {token})\n\n```\n@kept #3 in code\n```\n",
        encoding="utf-8")
    run_publish(gh, str(ci_out), "--repo", "o/r")
    body = by_command(gh, "create")[0]["body"]
    assert "@\u200dsomeone" in body and "#\u200d12" in body and "@kept #3 in code" in body
    assert token not in body and "<redacted:github-token>" in body


@pytest.mark.parametrize("repo_has_it", [True, False])
def test_torch_spyre_bundles_get_the_forms_label(gh, ci_out, repo_has_it):
    """Torch-Spyre's bug form labels its issues type/bug: a failure bundled with that template gets it where the
    repository has that label, the others do not; a form's label is never created in the repository (the
    user's --label is)."""
    (ci_out / "bundles" / NEW / "bundle.json").write_text(json.dumps({"template": "torch-spyre"}), encoding="utf-8")
    (ci_out / "bundles" / FUZZY / "bundle.json").write_text(json.dumps({"template": "pytorch"}), encoding="utf-8")
    state = json.loads(gh["issues"].read_text(encoding="utf-8"))
    gh["issues"].write_text(json.dumps({"issues": state, "labels": ["type/bug"] if repo_has_it else []}),
                            encoding="utf-8")
    # FUZZY's closed issue regressed: with --on-regression new it gets a new issue too
    proc = run_publish(gh, str(ci_out), "--repo", "o/r", "--label", "bug", "--on-regression", "new", "--json")
    assert proc.returncode == 0, proc.stderr
    made = [c["args"][2] for c in calls(gh) if c["args"][:2] == ["label", "create"]]
    assert "type/bug" not in made and "bug" in made
    labels = {}
    for c in by_command(gh, "create"):
        title = c["args"][c["args"].index("--title") + 1]
        labels[title] = [c["args"][i + 1] for i, a in enumerate(c["args"]) if a == "--label"]
    spyre = next(v for k, v in labels.items() if "test_clone" in k)
    other = next(v for k, v in labels.items() if "test_view" in k)
    assert ("type/bug" in spyre) is repo_has_it and "bug" in spyre
    assert "type/bug" not in other and "bug" in other
    if not repo_has_it:
        assert "'type/bug' is not a label of o/r" in proc.stdout + proc.stderr
