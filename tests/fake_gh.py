"""A fake `gh` (GitHub CLI) for tests: put it first on PATH.

It logs every call (argv, and the --body-file's content while it exists) as JSON lines to
$FAKE_GH_LOG and keeps a small repository state in the JSON file $FAKE_GH_ISSUES, under a lock so
that several processes (matrix jobs) can share it: either a list of issues, or
``{"issues": [...], "labels": [...]}`` (then only those labels exist until `gh label create`).
An issue is ``{"number", "url", "state", "body", "labels": [...], "comments": [body, ...]}``.

Commands: `issue list` (``--state open|closed|all``, ``--label`` filters like GitHub; ``--search``
is fuzzy like GitHub's search: every issue whose body mentions the words, so the caller must check the
marker itself), `issue create` (appends an issue and prints its URL), `issue comment`, `issue view
--json comments`, `issue reopen`, `issue close`, `label list`, `label create`.

Failure modes: FAKE_GH_FAIL=403|graphql (a read-only token on writes), FAKE_GH_FAIL=502 (a server
error on writes), FAKE_GH_MISSING_LABEL=NAME (that label does not exist and cannot be created),
FAKE_GH_LIST_DELAY=SECONDS (sleep after answering `issue list`: two jobs then both miss each other's
issue and create one each).
"""

import sys

# The interpreter running the tests, by its path: not `#!/usr/bin/env python3`, which may be a version
# manager's shim (pyenv's costs ~0.3 s a call, and publish calls gh many times).
FAKE_GH = f"#!{sys.executable}\n" + r'''import fcntl, json, os, sys, time

args = sys.argv[1:]
body = body_file = None
if "--body-file" in args:
    body_file = args[args.index("--body-file") + 1]
    with open(body_file, encoding="utf-8") as fh:
        body = fh.read()
log = os.environ["FAKE_GH_LOG"]
with open(log, "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"args": args, "body": body, "body_file": body_file,
                         "token": os.environ.get("GH_TOKEN")}) + "\n")


def fail(message, code=1):
    sys.stderr.write(message + "\n")
    sys.exit(code)


def opt(name, default=None):
    return args[args.index(name) + 1] if name in args else default


repo = opt("--repo", "?")
failure = os.environ.get("FAKE_GH_FAIL", "")
missing = os.environ.get("FAKE_GH_MISSING_LABEL")
path = os.environ["FAKE_GH_ISSUES"]
lock = open(path + ".lock", "w")
fcntl.flock(lock, fcntl.LOCK_EX)
with open(path, encoding="utf-8") as fh:
    state = json.load(fh)
if isinstance(state, list):
    state = {"issues": state, "labels": None}
issues = state["issues"]
labels = state.get("labels")


def save():
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(state if labels is not None else issues, fh)


def label_exists(name):
    if name == missing:
        return False
    return labels is None or name in labels


def issue(number):
    found = [i for i in issues if str(i["number"]) == str(number)]
    if not found:
        fail("GraphQL: Could not resolve to an issue or pull request with the number of %s." % number)
    return found[0]


def writable():
    if failure == "403":
        fail("HTTP 403: Resource not accessible by integration (https://api.github.com/repos/%s/issues)" % repo)
    if failure == "graphql":
        fail("GraphQL: Resource not accessible by integration (createIssue)")
    if failure == "502":
        fail("HTTP 502: Bad Gateway (https://api.github.com/graphql)")


cmd = args[:2]
if cmd == ["issue", "list"]:
    wanted_state = opt("--state", "open")
    wanted_labels = [args[i + 1] for i, a in enumerate(args) if a == "--label"]
    search = opt("--search")
    words = [w for w in (search or "").split() if ":" not in w or "=" in w]
    words = [w.split("=", 1)[1] if "=" in w else w for w in words]
    found = [i for i in issues if (wanted_state == "all" or i["state"] == wanted_state)
             and all(name in i.get("labels", []) for name in wanted_labels)
             and all(w in (i.get("body") or "") for w in words)]
    found.sort(key=lambda i: -i["number"])
    fields = opt("--json", "number,url,body").split(",")
    print(json.dumps([{k: i.get(k) for k in fields} for i in found[:int(opt("--limit", "30"))]]))
    lock.close()
    time.sleep(float(os.environ.get("FAKE_GH_LIST_DELAY", "0")))
elif cmd == ["issue", "view"]:
    print(json.dumps({"comments": [{"body": c} for c in issue(args[2]).get("comments", [])]}))
elif cmd == ["issue", "create"]:
    writable()
    wanted = [args[i + 1] for i, a in enumerate(args) if a == "--label"]
    for name in wanted:
        if not label_exists(name):
            fail("could not add label: '%s' not found" % name)
    number = max([100] + [i["number"] for i in issues]) + 1
    url = "https://github.com/%s/issues/%d" % (repo, number)
    issues.append({"number": number, "url": url, "state": "open", "title": opt("--title"), "body": body,
                   "labels": wanted, "comments": []})
    save()
    sys.stderr.write("\nCreating issue in %s\n\n" % repo)
    print(url)
elif cmd == ["issue", "comment"]:
    writable()
    target = issue(args[2])
    target.setdefault("comments", []).append(body)
    save()
    print("%s#issuecomment-%d" % (target["url"], 5000 + sum(len(i.get("comments", [])) for i in issues)))
elif cmd in (["issue", "reopen"], ["issue", "close"]):
    writable()
    target = issue(args[2])
    target["state"] = "open" if cmd[1] == "reopen" else "closed"
    if cmd[1] == "close":
        target["state_reason"] = opt("--reason", "completed")
    save()
    sys.stderr.write("Issue #%s %s\n" % (args[2], "reopened" if cmd[1] == "reopen" else "closed"))
elif cmd == ["label", "list"]:
    known = labels if labels is not None else sorted({n for i in issues for n in i.get("labels", [])})
    print(json.dumps([{"name": n} for n in known if n != missing]))
elif cmd == ["label", "create"]:
    writable()
    if args[2] == missing:
        fail("HTTP 403: Resource not accessible by integration (createLabel)")
    if labels is not None and args[2] not in labels:
        labels.append(args[2])
        save()
else:
    fail("fake gh: unexpected command %r" % args, 2)
'''
