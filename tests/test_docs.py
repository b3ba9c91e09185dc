"""The README is a front door, the manual a MkDocs site (``docs/``, ``mkdocs.yml``): the site builds with
``--strict`` (a broken link or anchor between its pages is an error), the README stays small, every
relative link in the README, the manual, ``benchmarks/README.md`` and ``CONTRIBUTING.md`` resolves
(file and ``#anchor``), and the facts the README and the manual state that the code decides (options,
the test command CI runs, the flakiness bound, the checklist mapping) are the code's.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
LINKED = [README, *sorted(DOCS.glob("*.md")), ROOT / "benchmarks" / "README.md", ROOT / "CONTRIBUTING.md"]
COMMANDS = ("check", "minimize", "bundle", "ci", "publish")
README_MAX_BYTES = 20_000


def prose(text: str) -> str:
    """The text outside fenced code blocks (links and headings there are not links and headings)."""
    return re.sub(r"^```.*?^```[^\n]*$", "", text, flags=re.MULTILINE | re.DOTALL)


def code_blocks(text: str) -> list[str]:
    return re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def slug(heading: str) -> str:
    """The anchor GitHub (and MkDocs' toc) gives a heading: markup dropped, lower case, punctuation
    removed, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = unicodedata.normalize("NFKC", text).strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(h) for h in re.findall(r"^#{1,6} +(.+?) *$", prose(path.read_text(encoding="utf-8")),
                                        flags=re.MULTILINE)}


def links(path: Path) -> list[str]:
    text = re.sub(r"`[^`\n]*`", "", prose(path.read_text(encoding="utf-8")))  # code spans are not links
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_mkdocs_build_strict(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is not installed (it is in the test extra: pip install -e '.[test]')")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                           "-d", str(tmp_path / "site")], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    built = {p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("index.html")}
    for page in DOCS.glob("*.md"):  # every page is built (and, with validation.omitted_files, in the nav)
        assert (page.stem == "index" and "index.html" in built) or f"{page.stem}/index.html" in built, page


def test_readme_is_a_front_door():
    size = len(README.read_bytes())
    assert size <= README_MAX_BYTES, f"README.md is {size} bytes; the manual's text goes to docs/"
    text = README.read_text(encoding="utf-8")
    for command in COMMANDS:  # each command with its example
        section = readme_section(text, command)
        assert re.search(rf"^(\$ )?reportkit {command}\b", "\n".join(code_blocks(section)), re.MULTILINE), command


@pytest.mark.parametrize("path", LINKED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(path):
    assert path.exists(), path
    broken = []
    for target in links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        dest = (path.parent / file).resolve() if file else path
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target}: no heading with that anchor")
    assert not broken, broken


def readme_section(text: str, command: str) -> str:
    m = re.search(rf"^### `reportkit {command}\b.*?(?=^#)", text, flags=re.MULTILINE | re.DOTALL)
    assert m, f"README has no section for reportkit {command}"
    return m.group(0)


@functools.cache  # one --help per command and test process
def help_text(command: str) -> str:
    env = {**os.environ, "COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"}
    proc = subprocess.run([sys.executable, "-m", "reportkit", command, "--help"], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def options_shown(section: str, command: str) -> set[str]:
    """The options of ``reportkit COMMAND`` the text shows: in its command lines (up to a ``--`` that
    starts the script's own arguments) and in code spans of the prose."""
    found: set[str] = set()
    lines = [ln.strip().removeprefix("$ ") for block in code_blocks(section) for ln in block.splitlines()]
    lines += re.findall(r"`([^`\n]+)`", prose(section))
    for line in lines:
        if line.startswith(f"reportkit {command} ") or line.startswith("--") or line.startswith("-o"):
            line = line.split(" -- ")[0]
            found |= set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-z])\b", line))
    return found


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_options_are_the_commands(command):
    section = readme_section(README.read_text(encoding="utf-8"), command)
    shown = options_shown(section, command)
    assert shown, f"the README's {command} section shows no option"
    text = help_text(command)
    missing = sorted(o for o in shown if not re.search(rf"(?<![\w-]){re.escape(o)}\b", text))
    assert not missing, f"reportkit {command} --help has no {missing}"


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda p: p.name)
def test_docs_command_lines_use_real_options(page):
    """Every ``reportkit COMMAND ...`` line in a page's shell blocks uses options that command has."""
    wrong = []
    for block in code_blocks(page.read_text(encoding="utf-8")):
        for line in block.splitlines():
            m = re.match(r"(?:\$ )?reportkit ((?:--no-network )?)(\w+) (.*)", line.strip())
            if not m or m.group(2) not in COMMANDS:
                continue
            command = m.group(2)
            text = help_text(command)
            for opt in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)\b", m.group(3).split(" -- ")[0]):
                if not re.search(rf"(?<![\w-]){re.escape(opt)}\b", text):
                    wrong.append(f"{line.strip()}: {opt}")
    assert not wrong, wrong


def test_ci_runs_the_readme_test_command():
    """`.ci/run` runs "the README's test command" verbatim: the one command of README's "Run the tests"."""
    text = README.read_text(encoding="utf-8")
    m = re.search(r"^## Run the tests\n(.*?)(?=^## )", text, flags=re.MULTILINE | re.DOTALL)
    assert m, "README has no 'Run the tests' section"
    (block,) = code_blocks(m.group(1))
    command = block.strip()
    assert "\n" not in command and "pytest" in command
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"({command})" in ci or f"\n{command}\n" in ci, "the README's test command is not what .ci/run runs"
    assert "'.[test]'" in command  # ... and the test extra brings mkdocs, which test_mkdocs_build_strict needs
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    test_extra = re.search(r"^test = \[(.*?)^\]", pyproject, flags=re.MULTILINE | re.DOTALL).group(1)
    assert re.search(r'"mkdocs==', test_extra)


def test_the_flakiness_bound_is_the_codes():
    from reportkit.failure.check import CONFIRM_RUNS, escape_probability

    flat = " ".join((DOCS / "check.md").read_text(encoding="utf-8").split())
    assert f"until **{CONFIRM_RUNS}** runs in all failed the same way" in flat
    superscript = str(CONFIRM_RUNS).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    m = re.search(rf"probability at most 2⁻{superscript} < ([\d.]+) %", flat)
    assert m and escape_probability() < float(m.group(1)) / 100, "docs/check.md states another bound"
    readme = " ".join(README.read_text(encoding="utf-8").split())
    assert f"until {CONFIRM_RUNS} runs did" in readme


def test_the_checklist_mapping_is_the_codes():
    """docs/spyre.md maps each item of Torch-Spyre's checklist, in the order and wording ``bundle`` uses, to
    its key and to the bundle files that hold the evidence."""
    from test_render import CHECKLIST_KEYS, guide_checklist

    from reportkit.report.collect import collector_layout
    from reportkit.report.render import bundle_files

    rows = [line for line in (DOCS / "spyre.md").read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| the guide")]
    cells = [[c.strip() for c in row.strip("|").split(" | ")] for row in rows]
    labels = [c[0] for c in cells]
    assert labels[:-1] == guide_checklist() and labels[-1].endswith("(optional)")
    assert [c[1].strip("`") for c in cells] == CHECKLIST_KEYS
    page = (DOCS / "spyre.md").read_text(encoding="utf-8")
    files = {**bundle_files("SCRIPT.py"), **collector_layout()}
    for key in ("error", "stdout", "stderr", "collect_env", "spyre_log", "spyre_transfer", "spyre_log_file",
                "fx", "sdsc", "ffdc", "ladder", "hang_stacks"):
        assert files[key] in page, (key, files[key])


def test_the_spyre_steps_name_the_debug_runs_variables():
    """docs/spyre.md's walk through the guide's steps gives the variables the debug run sets, as the code sets
    them (in the guide's order), the back end's only with the option that raises them, and --help names them."""
    from reportkit.report.collect import BACKEND_LOG_ENV, DEBUG_ENV, SPYRE_LOGS

    page = " ".join((DOCS / "spyre.md").read_text(encoding="utf-8").split())
    steps = page.split("## The guide's steps")[1].split("## The checklist")[0]
    assert " ".join(f"{k}={v}" for k, v in DEBUG_ENV.items()) in steps
    assert f"TORCH_LOGS={SPYRE_LOGS}" in steps and "TORCH_COMPILE_DEBUG_DIR=." in steps
    assert "--spyre-verbose-backend" in steps and " ".join(f"{k}={v}" for k, v in BACKEND_LOG_ENV.items()) in steps
    for step in ("1. **Create a minimal reproducer", "2. **Enable the debug variables", "3. **Capture the FFDC",
                 "4. **Examine the compiler artifacts", "5. **Replay the OpSpec"):
        assert step in steps, step
    shown = " ".join(help_text("bundle").split())
    for name, value in [*DEBUG_ENV.items(), ("TORCH_LOGS", SPYRE_LOGS), *BACKEND_LOG_ENV.items()]:
        assert f"{name}={value}" in shown, name


# ------------------------------------------------------------------ shell blocks marked runnable
# A block right after a `<!-- runnable -->` line runs as written, from a scratch copy of examples/: its
# `$ ` lines are the commands (all its lines, when none starts with `$ `), each must exit 0, and of the
# output a block shows, the rows that do not depend on the machine (runs, kind, type, message, signature)
# must be printed as shown.
RUNNABLE = "<!-- runnable -->"
STABLE_ROWS = ("runs", "kind", "type", "message", "signature")


def runnable_blocks() -> list:
    found = []
    for path in [README, *sorted(DOCS.glob("*.md"))]:
        blocks = re.findall(rf"^{re.escape(RUNNABLE)}\n```[^\n]*\n(.*?)^```", path.read_text(encoding="utf-8"),
                            flags=re.MULTILINE | re.DOTALL)
        found += [pytest.param(block, id=f"{path.relative_to(ROOT).as_posix()}-{i}") for i, block in enumerate(blocks)]
    return found


def commands_and_output(block: str) -> list[tuple[str, list[str]]]:
    lines = block.splitlines()
    if not any(ln.startswith("$ ") for ln in lines):
        return [(ln, []) for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    steps: list[tuple[str, list[str]]] = []
    for ln in lines:
        if ln.startswith("$ "):
            steps.append((ln[2:], []))
        elif steps:
            steps[-1][1].append(ln)
    return steps


def test_the_readme_has_runnable_blocks():
    ids = [p.id for p in runnable_blocks()]
    assert any(i.startswith("README.md") for i in ids), ids


@pytest.mark.slow
@pytest.mark.torch
@pytest.mark.parametrize("block", runnable_blocks())
def test_runnable_blocks_run_as_written(block, tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"}
    for command, shown in commands_and_output(block):
        proc = subprocess.run(command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, f"{command}\n{proc.stdout}\n{proc.stderr}"
        printed = {" ".join(ln.split()) for ln in proc.stdout.splitlines()}
        for row in shown:
            if row.split(maxsplit=1)[:1] and row.split()[0] in STABLE_ROWS:
                assert " ".join(row.split()) in printed, f"{command}: {row!r} not printed:\n{proc.stdout}"
