"""Every writer in reportkit goes through the redaction edge (issue 35, item 5): nothing bypasses it.

The writers are found in the source (``write_atomic``, ``append_text``, ``write_text``/``write_bytes``, a
file's ``write``, ``print``, ``tarfile``): each one's content must visibly come from the edge (a call of a
``redact_*`` function or a redactor in its arguments, or a console whose stream is a ``RedactingStream``),
or be listed below with the reason it needs none. A new writer fails this test until it is one or the other.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "reportkit"
# run by path inside the target's interpreter (their output is the run's, which reportkit reads and redacts)
TARGET_SIDE = {"run/_boot.py", "run/_backend_boot.py", "run/_env_probe.py", "run/_warm.py"}
EDGE_CALLS = {"redact_text", "redact_output", "redact_code", "redact_markdown", "redact_for", "redact_argv", "file",
              "text", "code", "markdown"}  # the last four: Redactor's methods
CONSOLE_STREAMS = {"raw_out", "raw_err"}
CONSOLES = {"out", "err"}  # cli.py's rich consoles, whose file is raw_out / raw_err
WRITERS = {"write_atomic", "append_text", "write_text", "write_bytes", "write", "print", "open"}

# (module, function, the writer's source) -> why it needs no redaction here
NOT_OUTPUT = {
    ("run/runner.py", "Sandbox.make", "fh.write(source)"):
        "the script's scratch copy, for the run itself",
    ("run/runner.py", "_copy_if_present", "fo.write(chunk)"):
        "the project's files copied into a run's scratch dir, for the run itself",
    ("run/runner.py", "request_dump", "dump_path.with_name('children.json').write_text(json.dumps(child_waits(pid)))"):
        "the hang watch's internal record in the scratch dir",
    ("run/executor.py", "_Server.send", "self.proc.stdin.write(data)"):
        "a request to the warm server's pipe (the run's spec), not output",
    ("run/sandbox.py", "_open_gate", "os.write(go_w, b'go\\n')"):
        "the gate's word to a sandbox starting under bubblewrap (a constant), through a pipe of its own",
    ("run/_confine.py", "pass_gate", "os.write(here_fd, b'here\\n')"):
        "the sandbox's word back through the gate's pipe (a constant), not output",
    ("run/gitinfo.py", "export_commit", "target.write_bytes(data)"):
        "the good revision's files exported into a scratch dir for the fix check",
    ("run/ray_executor.py", "snapshot", "tarfile.open(fileobj=buf, mode='w')"): "files shipped to a Ray worker",
    ("run/ray_executor.py", "Slot.__init__", "tarfile.open(fileobj=io.BytesIO(archive))"):
        "files unpacked on a Ray worker",
    ("run/runner.py", "claim", "(path / _OWNER_FILE).write_text(json.dumps(owner), encoding='utf-8')"):
        "a session dir's or workspace's owner record (pid, start time, boot, PID namespace) for a later clean-up",
    ("report/bundle.py", "make_archive", "tarfile.open(fileobj=fh, mode='w:gz')"):
        "the archive of the bundle directory, whose files were all written through the redactor",
    ("ci/ci.py", "_copy_bundle", "write_atomic(target, data, mode=384)"):
        "data = redact_for(path.name, ...) just before (binary files copied as they are)",
    ("ci/ci.py", "write_outputs", "write_atomic(out_dir / SUMMARY, summary)"):
        "summary = redact_markdown(summary_markdown(report)) just before",
    ("ci/ci.py", "_append", "append_text(path, text)"):
        "the helper of write_plan and write_outputs, whose texts are redacted (line, summary, outputs)",
    ("ci/publish.py", "write_github_files", "fh.write(text)"):
        "text is redact_markdown(summary) or the outputs of redact_text(urls), built just before",
    ("ci/ci.py", "_add_culprit_section", "write_atomic(issue, text, mode=issue.stat().st_mode & 511)"):
        "issue.md as the bundle's redactor wrote it, plus the culprit section redacted just before (redact_output)",
    ("ci/_spectrum/rk_spectrum_plugin.py", "pytest_sessionfinish", "out.write(line)"):
        "the trace records of the target's pytest run (functions per test), read back by reportkit, never shown",
    ("ci/culprit.py", "CulpritSearch._run", "self.tree.write(applied)"):
        "a candidate tree (the good revision's files plus hunks) in scratch, for the run itself",
    ("ci/culprit.py", "Tree.write", "tmp.write_bytes(content)"): "the candidate tree's files in scratch",
    ("run/_confine.py", "<module>", "print(json.dumps(apply(json.loads(sys.argv[1]))))"):
        "the confinement helper's report to reportkit over a pipe (the layers it applied)",
    ("run/_confine.py", "_write", "fh.write(text)"): "a user namespace's /proc/self/{setgroups,uid_map,gid_map}",
    ("run/pidlimit.py", "_set", "fh.write(value)"): "a cgroup's control file (pids.max, cgroup.kill): a number",
}
# developer tools with their own __main__ (not reportkit's commands): they print measurements
DEV_TOOLS = {"run/executor.py"}


def _function_of(tree: ast.AST) -> dict[int, str]:
    names: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}.{child.name}" if prefix else child.name
                if isinstance(child, ast.ClassDef):
                    visit(child, child.name)
                    continue
                for sub in ast.walk(child):
                    if hasattr(sub, "lineno"):
                        names.setdefault(sub.lineno, name)
                visit(child, prefix)
            else:
                visit(child, prefix)

    visit(tree, "")
    return names


def _writer(call: ast.Call) -> str | None:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name == "open" and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
            and func.value.id == "tarfile":
        return "tarfile"
    if name == "print_json":
        return "print"
    return name if name in WRITERS - {"open"} else None


def _through_edge(call: ast.Call, kind: str) -> bool:
    if kind == "print" and isinstance(call.func, ast.Attribute):
        return isinstance(call.func.value, ast.Name) and call.func.value.id in CONSOLES
    if kind == "print":
        stream = next((k.value for k in call.keywords if k.arg == "file"), None)
        return isinstance(stream, ast.Name) and stream.id in CONSOLE_STREAMS
    for node in ast.walk(call):
        if node is call:
            continue
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in EDGE_CALLS and (name.startswith("redact") or "redactor" in ast.unparse(f)):
                return True
    return False


def writers() -> list[tuple[str, str, str, bool]]:
    """(module, function, source, through the edge) of every writer call in reportkit."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE))
        if rel in TARGET_SIDE or rel in ("io.py", "redact.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = _function_of(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            kind = _writer(node)
            if kind is None or (kind == "write" and isinstance(node.func, ast.Attribute)
                                and ast.unparse(node.func.value) in ("self._stream()", "target")):
                continue
            if kind == "print" and rel in DEV_TOOLS:
                continue
            source = ast.unparse(node)
            if kind == "write" and not isinstance(node.func, ast.Attribute):
                continue
            found.append((rel, functions.get(node.lineno, "<module>"), source, _through_edge(node, kind)))
    return found


def test_every_writer_goes_through_the_edge():
    found = writers()
    assert len(found) >= 15
    bypass = [(m, f, s) for m, f, s, ok in found if not ok and (m, f, s) not in NOT_OUTPUT]
    assert bypass == [], "writers that do not pass the redaction edge (redact, or list them in NOT_OUTPUT " \
                         "with the reason):\n" + "\n".join(f"  {m} {f}: {s}" for m, f, s in bypass)


def test_the_list_of_exceptions_is_current():
    present = {(m, f, s) for m, f, s, _ in writers()}
    stale = [key for key in NOT_OUTPUT if key not in present]
    assert stale == [], f"no longer in the source: {stale}"


def test_the_console_streams_redact():
    from reportkit import cli
    from reportkit.redact import RedactingStream

    assert isinstance(cli.raw_out, RedactingStream) and isinstance(cli.raw_err, RedactingStream)
    assert cli.out.file is cli.raw_out and cli.err.file is cli.raw_err
