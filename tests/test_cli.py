"""The real CLI in a subprocess: bad input gives one clear message and exit 2, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def cli(*args: str, cwd: Path | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def assert_clean_error(proc: subprocess.CompletedProcess, fragment: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert fragment in proc.stderr


@pytest.fixture
def bad_inputs(tmp_path):
    (tmp_path / "adir").mkdir()
    (tmp_path / "bin.py").write_bytes(b"\x00\x01\x02binary")
    (tmp_path / "latin.py").write_bytes("print('caf\xe9')\n".encode("latin-1"))
    (tmp_path / "syntax.py").write_text("for x in range(3)\n    print(x)\n")
    (tmp_path / "passes.py").write_text("print('all good')\n")
    (tmp_path / "needs.py").write_text("import not_a_module_anyone_has_42\n")
    (tmp_path / "fails.py").write_text("raise RuntimeError('boom')\n")
    return tmp_path


@pytest.mark.parametrize("args, fragment", [
    (["missing.py"], "no such file"),
    (["adir"], "is a directory"),
    (["bin.py"], "binary file"),
    (["latin.py"], "not UTF-8"),
    (["syntax.py"], "syntax error at line 1"),
    (["passes.py"], "nothing to reproduce: the script exits 0"),
    (["needs.py"], "needs the module 'not_a_module_anyone_has_42'"),
    (["--python", "/nonexistent/python3", "fails.py"], "Python interpreter not found"),
    (["--match", "(unclosed", "fails.py"], "not a valid regular expression"),
    (["--env", "NOEQUALS", "fails.py"], "--env takes KEY=VALUE"),
])
def test_check_bad_input(bad_inputs, args, fragment):
    assert_clean_error(cli("check", *args, cwd=bad_inputs), fragment)


def test_check_reports_signature_as_json(bad_inputs):
    proc = cli("check", "--json", "--runs", "1", "fails.py", cwd=bad_inputs)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["deterministic"] is True
    assert data["signature"]["kind"] == "exception"
    assert data["signature"]["exc_type"] == "RuntimeError"
    assert data["signature"]["location"]["text"] == "raise RuntimeError('boom')"


def test_check_passes_script_arguments(tmp_path):
    (tmp_path / "args.py").write_text("import sys\nraise SystemExit(int(sys.argv[1]))\n")
    proc = cli("check", "--runs", "1", "args.py", "--", "7", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "exit code" in proc.stdout and "7" in proc.stdout


def test_version_and_help():
    assert cli("--version").stdout.startswith("reportkit ")
    helptext = cli("check", "--help").stdout
    for option in ("--python", "--timeout", "--match", "--exit-code", "--any-exception", "--isolate-file"):
        assert option in helptext


@pytest.mark.parametrize("folded, lines_script, expected", [
    ([], 40, "40 -> 3 (non-blank)"),
    (["pkg/mod.py"], 40, "90 (40 in the script + 50 folded in from local modules) -> 3 (non-blank)"),
    (["pkg/mod.py"], None, "90 -> 3 (non-blank)"),  # a report from before lines_script existed
])
def test_the_lines_row_names_the_scripts_own_share_when_local_code_was_folded(folded, lines_script, expected):
    from types import SimpleNamespace

    from reportkit.cli import _lines_row

    before = 90 if folded else 40
    report = SimpleNamespace(lines_before=before, lines_after=3, folded=folded, lines_script=lines_script)
    assert _lines_row(report) == expected


@pytest.fixture
def argv_script(tmp_path):
    (tmp_path / "x.py").write_text("import sys\nraise RuntimeError('argv ' + ' '.join(sys.argv[1:]))\n")
    return tmp_path


@pytest.mark.parametrize("args, fragment", [
    (["check", "--timout", "5", "x.py"], "no such option: --timout; did you mean --timeout?"),
    (["check", "--lr", "3", "x.py"], "no such option: --lr"),  # before SCRIPT: every unknown option
    (["minimize", "--jbos", "2", "x.py"], "did you mean --jobs?"),
    (["bundle", "x.py", "--isuue"], "did you mean --issue?"),
    (["check", "x.py", "--timout", "5"], "put it after `--`"),  # after SCRIPT: only near misses of reportkit's
    (["check", "x.py", "--runs=1", "--exit-cod", "3"], "did you mean --exit-code?"),
    (["check", "--no-network", "x.py"], "put it before the command (reportkit --no-network check ...)"),
])
def test_unknown_option_is_refused_with_a_suggestion(argv_script, args, fragment):
    proc = cli(*args, cwd=argv_script)
    assert_clean_error(proc, fragment)
    assert "no such file" not in proc.stderr


@pytest.mark.parametrize("args, argv", [
    (["x.py", "--lr", "3"], "argv --lr 3"),  # the script's own option, not like any of reportkit's
    (["x.py", "--", "--timout", "5"], "argv --timout 5"),  # after --: the script's, whatever it looks like
    (["--runs=1", "x.py", "-v", "--runs", "1"], "argv -v"),  # reportkit's own options after SCRIPT stay reportkit's
])
def test_options_for_the_script_still_reach_it(argv_script, args, argv):
    proc = cli("check", "--json", *args, cwd=argv_script)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["signature"]["raw_message"] == argv


def readme_exit_codes() -> dict[int, str]:
    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    table = text[text.index("| code |"):].split("\n\n")[0]  # the README's one table: a code, then per command
    return {int(row.split("|")[1]): row.split("|")[2].strip() for row in table.splitlines()[2:]}


def test_one_exit_code_table_and_every_help_names_its_codes():
    from reportkit.cli import COMMAND_EXIT_CODES, EXIT_CODES

    assert set(readme_exit_codes()) == set(EXIT_CODES)
    for command, codes in COMMAND_EXIT_CODES.items():
        assert set(codes) <= set(EXIT_CODES), command
        helptext = " ".join(cli(command, "--help").stdout.split())
        assert "Exit codes: " in helptext, command
        for code, what in codes.items():
            assert f"{code} {' '.join(what.split())}" in helptext, (command, code)


@pytest.mark.parametrize("args, code", [
    (["check", "--runs", "1", "fails.py"], 0),
    (["check", "passes.py"], 2),
    (["check", "--timout", "1", "fails.py"], 2),
    (["minimize", "missing.py"], 2),
    (["bundle", "fails.py", "--template", "jira"], 2),
    (["bundle", "missing.py"], 2),
    (["ci", "--junit", "missing.xml"], 2),
    (["publish", "no-such-dir"], 2),
])
def test_commands_return_the_tables_codes(bad_inputs, args, code):
    from reportkit.cli import COMMAND_EXIT_CODES

    proc = cli(*args, cwd=bad_inputs)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert code in COMMAND_EXIT_CODES[args[0]] and code in readme_exit_codes()


def test_json_outputs_carry_a_schema_version(bad_inputs):
    from reportkit.constants import BUNDLE_SCHEMA_VERSION, CHECK_SCHEMA_VERSION

    data = json.loads(cli("check", "--json", "--runs", "1", "fails.py", cwd=bad_inputs).stdout)
    assert data["schema_version"] == CHECK_SCHEMA_VERSION == BUNDLE_SCHEMA_VERSION == 1
    (bad_inputs / "two.py").write_text("x = 1\ny = 2\nraise RuntimeError('boom')\n")
    proc = cli("minimize", "--json", "--runs", "1", "--cold", "-j", "1", "two.py", cwd=bad_inputs)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["schema_version"] == 1
    # where the time went: the phases within the wall time, each pass's candidates' runs within "reduce" (-j 1)
    phases, passes = data["seconds_by_phase"], data["seconds_by_pass"]
    assert set(phases) == {"prepare", "reduce", "verify"} and all(v >= 0 for v in phases.values())
    assert sum(phases.values()) <= data["wall_time"] + 0.01
    assert passes and set(passes) == set(data["tests_by_pass"]) and sum(passes.values()) <= phases["reduce"] + 0.01
    text = cli("minimize", "--runs", "1", "--cold", "-j", "1", "two.py", "-o", "t.min.py", cwd=bad_inputs).stdout
    assert re.search(r"wall time +[\d.]+ s \(prepare \d+ s, reduce \d+ s.*; verify \d+ s\)", text), text


RAW_TYPES = ("<bool>", "<str>", "<int", "<float", "<path>", "<list[", "{script}", "{SCRIPT}", "[args]")


@pytest.mark.parametrize("command", ["", "check", "minimize", "bundle", "ci", "publish"])
def test_help_has_metavars_intact_markup_and_no_ragged_wraps(command):
    proc = subprocess.run([sys.executable, "-m", "reportkit", *([command] if command else []), "--help"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "100", "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout
    for marker in RAW_TYPES:
        assert marker not in text, marker
    if command in ("minimize", "ci"):
        assert "pip install 'reportkit[ray]'" in text
    if command in ("check", "minimize", "bundle"):
        assert re.search(rf"reportkit {command} \[OPTIONS\] SCRIPT \[ARGS\]\.\.\. *\n", text)
        assert "Default: 300 for check" not in text
    if command == "minimize":
        for panel in ("Run", "Matching", "Reduction", "Executors", "Output"):
            assert f"╭─ {panel}" in text, panel
        assert "╭─ Options" not in text  # every option is in one of the panels
    assert max(len(line) for line in text.splitlines()) <= 100
    # the description: each paragraph wraps at the width, no line ends early inside a paragraph
    description = text[text.index("Usage:"):text.index("╭")].split("\n")[2:]
    paragraphs = "\n".join(line.strip() for line in description).split("\n\n")
    for paragraph in paragraphs:
        lines = [ln for ln in paragraph.splitlines() if ln]
        assert all(len(ln) >= 60 for ln in lines[:-1]), lines
