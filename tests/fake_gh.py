"""A fake `gh` (GitHub CLI) for tests: put it first on PATH.

It logs every call (argv, and the --body-file's content while it exists) as JSON lines to
$FAKE_GH_LOG, answers `issue list` with every open issue of the JSON file $FAKE_GH_ISSUES (like
GitHub's fuzzy search: the caller must check the marker itself), prints an issue URL for `issue create`,
and can fail like a read-only token (FAKE_GH_FAIL=403|graphql), an unexpected server error
(FAKE_GH_FAIL=502) or a missing label (FAKE_GH_MISSING_LABEL=NAME).
"""

FAKE_GH = r'''#!/usr/bin/env python3
import json, os, sys

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

repo = args[args.index("--repo") + 1] if "--repo" in args else "?"
failure = os.environ.get("FAKE_GH_FAIL", "")
if args[:2] == ["issue", "list"]:
    with open(os.environ["FAKE_GH_ISSUES"], encoding="utf-8") as fh:
        issues = json.load(fh)
    print(json.dumps([{k: i[k] for k in ("number", "url", "body")} for i in issues if i["state"] == "open"]))
elif args[:2] in (["issue", "create"], ["issue", "comment"]):
    if failure == "403":
        fail("HTTP 403: Resource not accessible by integration (https://api.github.com/repos/%s/issues)" % repo)
    if failure == "graphql":
        fail("GraphQL: Resource not accessible by integration (createIssue)")
    if failure == "502":
        fail("HTTP 502: Bad Gateway (https://api.github.com/graphql)")
    labels = [args[i + 1] for i, a in enumerate(args) if a == "--label"]
    missing = os.environ.get("FAKE_GH_MISSING_LABEL")
    if missing and missing in labels:
        fail("could not add label: '%s' not found" % missing)
    with open(log, encoding="utf-8") as fh:
        n = sum(1 for line in fh if json.loads(line)["args"][:2] == args[:2])
    if args[1] == "create":
        sys.stderr.write("\nCreating issue in %s\n\n" % repo)
        print("https://github.com/%s/issues/%d" % (repo, 100 + n))
    else:
        print("https://github.com/%s/issues/%s#issuecomment-%d" % (repo, args[2], 5000 + n))
else:
    fail("fake gh: unexpected command %r" % args, 2)
'''
