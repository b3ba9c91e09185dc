"""Issue 35, items 3, 4 (Ctrl-C), 6 and 7: runs see a scrubbed environment, Ctrl-C stops check and bundle
promptly, minimize never writes a secret as a literal, commands are shell-quoted, ``ci --merge`` stays
inside ``--out``, concurrent minimizations of one file do not interfere. Through the real CLI where the
behaviour is the user's."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil
import pytest

from reportkit.run.runner import Sandbox

# planted fake credentials (built from pieces: no secret scanner should take this file for a leak)
FAKE_HF = "hf_" + "Zq8LmW3xTb" * 3 + "Kp9Rv"
FAKE_LIVE = "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"
FAKE_GH = "ghp_" + "A1b2C3d4E5" * 3 + "f6G7h8"
PLANTED = {
    "HF_TOKEN": FAKE_HF,                                          # by name
    "SSHPASS": "correct-horse-battery",                           # by name (one word ending in PASS)
    "OP_SESSION_myteam": "Vq3LmZp0Xr7TtYb2",                      # by name (1Password CLI session)
    "DISCORD_WEBHOOK": "https://discord.example/api/webhooks/1/x",  # by name
    "REDIS_URL": "redis://:pw4redis@cache:6379/0",                # a URL with userinfo
    "BUILD_NOTE": FAKE_GH,                                        # by value: a GitHub token
}
PLAIN = {"PLAIN_SETTING": "hello", "CACHE_URL": "redis://cache:6379/0", "MODEL_NAME": "tiny-model"}
WATCHED = [*PLANTED, *PLAIN]


def cli(*args: str, cwd: Path, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=timeout)


def assert_no_values(proc: subprocess.CompletedProcess, values) -> None:
    for value in values:
        assert value not in proc.stdout + proc.stderr


# --------------------------------------------------------------------------- item 3: a scrubbed environment


SEES = f"""import os
seen = [name for name in {WATCHED!r} if name in os.environ]
raise RuntimeError("sees " + " ".join(seen))
"""


def test_runs_see_no_secret_bearing_variable_unless_kept(tmp_path, protection_mode):
    (tmp_path / "sees.py").write_text(SEES)
    proc = cli("check", "--json", "sees.py", cwd=tmp_path, env={**PLANTED, **PLAIN})
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    # every run, the cold ones and the warm confirmation runs, saw the same scrubbed environment
    assert data["runs"] == 7 and data["deterministic"]
    assert data["signature"]["raw_message"] == "sees " + " ".join(PLAIN)
    assert set(PLANTED) <= set(data["withheld_env"]) and not set(PLAIN) & set(data["withheld_env"])
    assert data["withheld_needed"] == sorted(PLANTED)  # the script names them all
    assert_no_values(proc, PLANTED.values())

    kept = cli("check", "--json", "--runs", "1", "--keep-env", "HF_TOKEN", "--keep-env", "SSHPASS,REDIS_URL",
               "sees.py", cwd=tmp_path, env={**PLANTED, **PLAIN, "REPORTKIT_KEEP_ENV": "BUILD_NOTE"})
    assert kept.returncode == 0, kept.stderr
    data = json.loads(kept.stdout)
    assert data["signature"]["raw_message"] == "sees " + " ".join(
        n for n in WATCHED if n in {"HF_TOKEN", "SSHPASS", "REDIS_URL", "BUILD_NOTE", *PLAIN})
    assert {"HF_TOKEN", "SSHPASS", "REDIS_URL", "BUILD_NOTE"}.isdisjoint(data["withheld_env"])
    assert {"OP_SESSION_myteam", "DISCORD_WEBHOOK"} <= set(data["withheld_env"])


def test_build_env_withholds_keeps_and_sets():
    from reportkit.run.runner import build_env, withheld_env

    base = {**PLANTED, **PLAIN, "PATH": "/usr/bin"}
    env = build_env({"SSHPASS": "given-on-the-command-line", "PLAIN_SETTING": None}, base, keep=("HF_TOKEN",))
    assert env["HF_TOKEN"] == FAKE_HF  # kept by name
    assert env["SSHPASS"] == "given-on-the-command-line"  # --env sets it: not withheld
    assert "PLAIN_SETTING" not in env and env["CACHE_URL"] == PLAIN["CACHE_URL"] and env["PATH"] == "/usr/bin"
    assert not {"OP_SESSION_myteam", "DISCORD_WEBHOOK", "REDIS_URL", "BUILD_NOTE"} & set(env)
    assert withheld_env({"SSHPASS": "x"}, ("HF_TOKEN",), base) == sorted(
        ["OP_SESSION_myteam", "DISCORD_WEBHOOK", "REDIS_URL", "BUILD_NOTE"])
    assert build_env({}, base, scrub=False)["HF_TOKEN"] == FAKE_HF


def test_a_failure_that_needs_a_withheld_variable_says_which_and_how_to_keep_it(tmp_path):
    (tmp_path / "download.py").write_text('import os\ntoken = os.environ["HF_TOKEN"]\n'
                                          'raise RuntimeError("download refused")\n')
    proc = cli("check", "--runs", "1", "download.py", cwd=tmp_path, env={"HF_TOKEN": FAKE_HF})
    assert proc.returncode == 0, proc.stderr
    assert "KeyError" in proc.stdout and "withheld" in proc.stdout
    assert "HF_TOKEN is withheld from the runs" in proc.stderr and "--keep-env HF_TOKEN" in proc.stderr
    assert_no_values(proc, [FAKE_HF])
    data = json.loads(cli("check", "--json", "--runs", "1", "download.py", cwd=tmp_path,
                          env={"HF_TOKEN": FAKE_HF}).stdout)
    assert data["withheld_needed"] == ["HF_TOKEN"] and "HF_TOKEN" in data["withheld_env"]
    kept = cli("check", "--runs", "1", "--keep-env", "HF_TOKEN", "download.py", cwd=tmp_path,
               env={"HF_TOKEN": FAKE_HF})
    assert "download refused" in kept.stdout and "withheld" not in kept.stderr

    # the script passes without it (os.getenv returns None): nothing to reproduce, and why, and the way out
    (tmp_path / "optional.py").write_text('import os\nif os.getenv("HF_TOKEN"):\n'
                                          '    raise RuntimeError("gated model")\n')
    proc = cli("check", "--runs", "1", "optional.py", cwd=tmp_path, env={"HF_TOKEN": FAKE_HF})
    assert proc.returncode == 2 and "nothing to reproduce" in proc.stderr
    assert "--keep-env HF_TOKEN" in proc.stderr and "Traceback" not in proc.stderr
    assert cli("check", "--runs", "1", "--keep-env", "HF_TOKEN", "optional.py", cwd=tmp_path,
               env={"HF_TOKEN": FAKE_HF}).returncode == 0


def test_bundle_says_which_withheld_variable_the_script_reads(tmp_path):
    (tmp_path / "download.py").write_text('import os\ntoken = os.environ["HF_TOKEN"]\n')
    proc = cli("bundle", "--no-ladder", "--out", str(tmp_path / "b"), "download.py", cwd=tmp_path,
               env={"HF_TOKEN": FAKE_HF})
    assert proc.returncode == 0, proc.stderr
    assert "HF_TOKEN is withheld from the runs" in proc.stderr and "--keep-env HF_TOKEN" in proc.stderr
    assert_no_values(proc, [FAKE_HF])


def test_keep_env_takes_names_only(tmp_path):
    (tmp_path / "fails.py").write_text("raise RuntimeError('boom')\n")
    proc = cli("check", "--keep-env", "HF_TOKEN=abc", "fails.py", cwd=tmp_path)
    assert proc.returncode == 2 and "--keep-env takes a variable's NAME" in proc.stderr
    assert "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- item 4: Ctrl-C


def _running(name: str) -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter(["cmdline", "status"]):
        try:
            if p.info["status"] != psutil.STATUS_ZOMBIE and any(name in part for part in p.info["cmdline"] or ()):
                found.append(p)
        except (psutil.Error, TypeError):
            continue
    return found


@pytest.mark.parametrize("command", ["check", "bundle"])
@pytest.mark.parametrize("sigint", ["default", "ignored", "sigterm", "sighup"])
def test_ctrl_c_stops_check_and_bundle_promptly(tmp_path, command, sigint):
    """SIGINT mid-run: exit 130 within a couple of seconds, no traceback, the target's processes gone. Also
    when reportkit started with SIGINT ignored, as a shell script's background job (``reportkit check x.py &``)
    or a CI wrapper starts it: it was ignored until the run ended. SIGTERM (a cancelled job, ``kill``) and SIGHUP
    (the terminal went away) the same way: they ended reportkit by their default action (exit -15, -1), its runs
    left to bwrap's parent-death signal alone."""
    name = f"sleeper_{uuid.uuid4().hex[:12]}.py"
    marker = f"child-of-{name}"
    (tmp_path / name).write_text("import subprocess, sys, time\n"
                                 f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}])\n"
                                 "time.sleep(600)\nraise RuntimeError('never')\n")
    args = ["--timeout", "900", name] + (["--no-ladder", "--out", str(tmp_path / "b")] if command == "bundle" else [])
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint == "ignored" else None
    proc = subprocess.Popen([sys.executable, "-m", "reportkit", command, *args], cwd=tmp_path, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ignore)
    try:
        deadline = time.monotonic() + 120
        while not _running(marker) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)  # the script and its child are running (reportkit and bwrap name the script too)
        assert _running(marker), proc.communicate(timeout=30)
        start = time.monotonic()
        proc.send_signal({"sigterm": signal.SIGTERM, "sighup": signal.SIGHUP}.get(sigint, signal.SIGINT))
        stdout, stderr = proc.communicate(timeout=60)
        elapsed = time.monotonic() - start
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for p in _running(name):
            p.kill()
    assert proc.returncode == 130, stdout + stderr
    # (the bug was "ignored until the run ended": 600 s here; 5.06 s was seen once on a loaded 2-core CI machine)
    assert elapsed < 10, f"{command} took {elapsed:.1f} s to stop"
    assert "Traceback" not in stdout + stderr
    assert "reportkit: interrupted" in stderr  # (check said nothing: typer turned the interruption into exit 130)
    assert _running(name) == []  # the script and its child are gone
    assert not (tmp_path / "b").exists()


# --------------------------------------------------------------------------- item 6: no secret literals


PADDING = '''

def load_settings():
    settings = {"retries": 3, "verbose": False}
    settings["endpoint"] = "https://api.example.com/v1"
    return settings


def make_client(token, settings):
    return {"token": token, "endpoint": settings["endpoint"], "retries": settings["retries"]}


'''

NEEDS_THE_VALUE = ("import os\n" + PADDING + '''def account_number(client):
    key = client["token"]
    return int(key[-6:], 16)


client = make_client(os.environ["API_TOKEN"], load_settings())
for i in range(3):
    print("attempt", i)
print(account_number(client))
''')

PASSES_IT_ALONG = ("import os\n" + PADDING + '''def header(client):
    return bytes.fromhex(client["token"])


client = make_client(os.environ["API_TOKEN"], load_settings())
for i in range(3):
    print("attempt", i)
print(header(client))
''')


def test_minimize_keeps_the_environment_read_instead_of_the_token(tmp_path):
    (tmp_path / "tok.py").write_text(NEEDS_THE_VALUE)
    env = {"API_TOKEN": FAKE_LIVE}
    proc = cli("minimize", "-j", "2", "--keep-env", "API_TOKEN", "tok.py", cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = (tmp_path / "tok.min.py").read_text()
    assert "os.environ" in result and "API_TOKEN" in result and "int(" in result, result
    assert FAKE_LIVE not in result and FAKE_LIVE[-6:] not in result and "live_" not in result
    assert "needs env" in proc.stdout and "API_TOKEN" in proc.stdout.split("needs env")[1]
    assert_no_values(proc, [FAKE_LIVE])
    # without --keep-env the script fails differently (KeyError): said, with the way to keep it
    (tmp_path / "tok.min.py").unlink()
    other = cli("minimize", "-j", "2", "--json", "-o", str(tmp_path / "other.py"), "tok.py", cwd=tmp_path, env=env)
    assert "--keep-env API_TOKEN" in other.stderr
    report = json.loads(other.stdout)
    assert report["signature"]["exc_type"] == "KeyError" and report["needs_env"] == []


def test_minimize_writes_a_placeholder_where_the_value_does_not_matter(tmp_path):
    (tmp_path / "hdr.py").write_text(PASSES_IT_ALONG)
    proc = cli("minimize", "-j", "2", "--json", "--keep-env", "API_TOKEN", "hdr.py", cwd=tmp_path,
               env={"API_TOKEN": FAKE_LIVE})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = (tmp_path / "hdr.min.py").read_text()
    assert "fromhex" in result and FAKE_LIVE not in result and "live_" not in result, result
    # the token's shape stands for it (or the read stays): it fails the same way
    assert "xx_xxxx_0xX00XxXxxXXxxxxX0xxx0xx" in result or "os.environ" in result, result
    assert json.loads(proc.stdout)["verified"] is True


def test_minimize_does_not_copy_a_file_from_outside_the_scripts_directory(tmp_path):
    secrets, project = tmp_path / "secrets", tmp_path / "project"
    secrets.mkdir()
    project.mkdir()
    (secrets / "token.txt").write_text(FAKE_LIVE + "\n")
    (project / "data.txt").write_text("data-in-the-project\n")
    (project / "readfile.py").write_text("import os\n" + PADDING + f'''def read_token():
    with open({str(secrets / "token.txt")!r}) as fh:
        return fh.read().strip()


def account_number(client):
    key = client["token"]
    return int(key[-6:], 16)


client = make_client(read_token(), load_settings())
for i in range(3):
    print("attempt", i)
print(account_number(client))
''')
    proc = cli("minimize", "-j", "2", "readfile.py", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = (project / "readfile.min.py").read_text()
    assert FAKE_LIVE not in result and FAKE_LIVE[-6:] not in result and "token.txt" in result, result


def test_probe_spells_values_from_the_environment_and_outside_files_by_their_shape(tmp_path):
    from reportkit.reduce.passes.materialize import CAPTURE_ENV, SECRETS_ENV, instrument

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "key").write_text("Abc123-def456-ghi789\n")
    here = tmp_path / "here"
    here.mkdir()
    (here / "local.txt").write_text("a value of the project\n")
    source = f'''import os
a = os.environ["SOME_TOKEN"]
b = open({str(outside / "key")!r}).read().strip()
c = open("local.txt").read().strip()
d = "plain" + "text"
e = os.environ["PLAIN_NAME"]
print(a[-6:], b[0], c[0], d[0], e[:3])
'''
    program, spans = instrument(source)
    (here / "probe.py").write_text(program)
    capture = tmp_path / "capture.json"
    subprocess.run([sys.executable, "probe.py"], cwd=here, capture_output=True, timeout=60,
                   env={**os.environ, CAPTURE_ENV: str(capture), SECRETS_ENV: "SOME_TOKEN",
                        "SOME_TOKEN": "Setting-Value-42", "PLAIN_NAME": "abcdefgh"})
    values = json.loads(capture.read_text())
    texts = {source[s:e]: values[str(i)][0] for i, (s, e) in enumerate(spans) if str(i) in values}
    assert texts["a"] == "'Xxxxxxx-Xxxxx-00'" and texts["a[-6:]"] == "'xxx-00'"  # a piece of a secret too
    assert texts["e"] == "'xxxxxxxx'" and texts["e[:3]"] == "'abc'"  # from the environment; a piece of it is not
    assert texts["b"] == "'Xxx000-xxx000-xxx000'"
    assert texts["c"] == "'a value of the project'" and texts["d"] == "'plaintext'"  # the script's own


def test_secret_shaped_values_become_placeholders():
    from reportkit.reduce.passes.materialize import env_reads, materialize_edits, without_secrets

    shaped = repr("xxx_" + "X0x0X0x0X0" * 3 + "x0X0x0")
    assert without_secrets(repr(FAKE_GH)) == shaped
    assert without_secrets(f"['a', {FAKE_LIVE!r}]") == "['a', 'xx_xxxx_0xX00XxXxxXXxxxxX0xxx0xx']"
    assert without_secrets("torch.randn(3, 4)") == "torch.randn(3, 4)"
    assert without_secrets("'plain words'") == "'plain words'"
    source = "key = compute()\nuse(key)\n"
    start = source.index("key)")
    captured = json.dumps({"0": [repr(FAKE_GH), 1]})
    edits = materialize_edits(source, [(start, start + 3)], captured)
    assert [e.text for e in edits] == [shaped]
    assert env_reads('import os\nfrom os import environ, getenv\na = os.environ["A"]\nb = os.getenv("B", 1)\n'
                     'c = environ.get("C")\nd = getenv("D")\ne = os.environ["A"]\nf = x["Z"]\n') == ["A", "B", "C", "D"]


# --------------------------------------------------------------------------- item 7: quoted commands


@pytest.mark.parametrize("name", ["a;touch pwned.py", "$(touch pwned).py"])
def test_the_script_name_stays_one_argument_in_every_command_shown(tmp_path, name):
    # raised in a library (a raise of the script's own gets "check it before filing" and no gh command)
    (tmp_path / name).write_text("import json\nimport sys\njson.loads(sys.argv[1])\n")
    out = tmp_path / "bundle"
    proc = cli("bundle", "--issue", "--no-ladder", "--title", "Exp#12_A fails", "--out", str(out), name,
               "--", "x y", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    issue = (out / "issue.md").read_text()
    block = issue.split("```shell\n", 1)[1].split("\n```", 1)[0]
    assert shlex.split(block) == ["python", name, "x y"], block
    assert f"`{shlex.join(['python', name, 'x y'])}`" in issue  # the problem's first line
    line = next(ln for ln in proc.stdout.splitlines() if "gh issue create" in ln)
    argv = shlex.split(line.split("file it", 1)[1])
    assert argv[:3] == ["gh", "issue", "create"] and argv[argv.index("--body-file") + 1].endswith("issue.md")
    assert len(argv) == argv.index("--title") + 4  # the title is one argument, whatever it became
    assert not (tmp_path / "pwned.py").exists()


def test_env_names_that_no_shell_can_assign_are_refused(tmp_path):
    (tmp_path / "fails.py").write_text("raise RuntimeError('boom')\n")
    proc = cli("check", "--env", "A;touch x=1", "fails.py", cwd=tmp_path)
    assert proc.returncode == 2 and "is not a variable name" in proc.stderr and "Traceback" not in proc.stderr


# --------------------------------------------------------------------------- item 7: ci --merge stays in --out


def _part(root: Path, bundle_dir: str, **failure) -> Path:
    part = root / "part-1"
    part.mkdir(parents=True)
    plan = {"digest": "d1", "repo_root": str(root), "junit": [], "total_cases": 1, "failed_cases": 1,
            "groups": [{"id": "g1", "key": ["ValueError"], "tests": ["t.py::t"], "headline": "h"}],
            "not_examined": []}
    manifest = {"version": 1, "part": {"id": "g1", "plan": plan}, "out_dir": str(part), "repo_root": str(root),
                "junit": [], "total_cases": 1, "failed_cases": 1,
                "failures": [{"key": "ValueError", "tests": ["t.py::t"], "verdict": "confirmed",
                              "fingerprint": "0f1e2d3c4b5a6978", "bundle_dir": bundle_dir, **failure}]}
    (part / "reportkit-ci.json").write_text(json.dumps(manifest))
    return part


@pytest.mark.parametrize("craft", ["link-and-dotdot", "absolute", "dotdot", "the-out-dir-itself", "issue-outside",
                                   "linked-bundle"])
def test_merge_refuses_destinations_outside_out(tmp_path, craft):
    victim = tmp_path / "victim"
    victim.mkdir()
    parts = tmp_path / "parts"
    if craft == "link-and-dotdot":  # a symlink in the artifact plus ``..``: resolved in the artifact, not in --out
        part = _part(parts, "bundles/link/../../../../victim/owned")
        (part / "bundles" / "deep" / "er" / "est").mkdir(parents=True)  # four levels below the part ...
        (part / "bundles" / "link").symlink_to(part / "bundles" / "deep" / "er" / "est")  # ... two in --out
        (part / "victim" / "owned").mkdir(parents=True)  # (what the link resolves to inside the artifact)
        (part / "victim" / "owned" / "issue.md").write_text("planted\n")
    elif craft == "absolute":
        part = _part(parts, str(victim / "owned"))
    elif craft == "dotdot":
        part = _part(parts, "../victim/owned")
    elif craft == "the-out-dir-itself":
        part = _part(parts, ".")
    elif craft == "issue-outside":
        part = _part(parts, "bundles/0f1e2d3c4b5a6978", issue_md="../../victim/issue.md")
    else:  # the bundle directory is a link out of the artifact
        part = _part(parts, "bundles/0f1e2d3c4b5a6978")
        (part / "bundles").mkdir()
        (victim / "inside").mkdir()
        (victim / "inside" / "issue.md").write_text("someone else's\n")
        (part / "bundles" / "0f1e2d3c4b5a6978").symlink_to(victim / "inside")
    if craft in ("absolute", "dotdot", "the-out-dir-itself", "issue-outside"):
        bundle = part / "bundles" / "0f1e2d3c4b5a6978"
        bundle.mkdir(parents=True, exist_ok=True)
        (bundle / "issue.md").write_text("planted\n")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    proc = cli("ci", "--merge", str(parts), "--out", str(tmp_path / "out" / "merged"), cwd=tmp_path,
               env={"GITHUB_OUTPUT": "", "GITHUB_STEP_SUMMARY": ""})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "--merge" in proc.stderr
    after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if not p.is_relative_to(tmp_path / "out"))
    assert after == [p for p in before if not (tmp_path / p).is_relative_to(tmp_path / "out")]
    assert not (tmp_path / "out" / "merged.tar.gz").exists()


@pytest.mark.parametrize("fingerprint", ["../../victim", "fp1", "0f1e2d3c/../x", 7])
def test_merge_refuses_a_fingerprint_that_is_not_hex(tmp_path, fingerprint):
    """A fingerprint names a bundle's directory and an issue's marker: a crafted part's must be hex digits."""
    parts = tmp_path / "parts"
    part = _part(parts, "bundles/0f1e2d3c4b5a6978", fingerprint=fingerprint)
    (part / "bundles" / "0f1e2d3c4b5a6978").mkdir(parents=True)
    (part / "bundles" / "0f1e2d3c4b5a6978" / "issue.md").write_text("planted\n")
    proc = cli("ci", "--merge", str(parts), "--out", str(tmp_path / "out"), cwd=tmp_path,
               env={"GITHUB_OUTPUT": "", "GITHUB_STEP_SUMMARY": ""})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "fingerprint must be hex digits" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_merge_of_a_well_formed_part_writes_its_bundle(tmp_path):
    """The control beside the refusals above: the same part with hex names merges."""
    parts = tmp_path / "parts"
    part = _part(parts, "bundles/0f1e2d3c4b5a6978")
    (part / "bundles" / "0f1e2d3c4b5a6978").mkdir(parents=True)
    (part / "bundles" / "0f1e2d3c4b5a6978" / "issue.md").write_text("# a bug\n")
    proc = cli("ci", "--merge", str(parts), "--out", str(tmp_path / "out"), cwd=tmp_path,
               env={"GITHUB_OUTPUT": "", "GITHUB_STEP_SUMMARY": ""})
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert (tmp_path / "out" / "bundles" / "0f1e2d3c4b5a6978" / "issue.md").is_file()


# --------------------------------------------------------------------------- item 7: concurrent minimizations


def test_the_scratch_copy_leaves_out_other_runs_temp_files(tmp_path):
    from reportkit.io import replacing, write_atomic

    script = tmp_path / "target.py"
    script.write_text("raise RuntimeError('boom')\n")
    with replacing(tmp_path / "target.min.py") as other:  # another minimize's write in progress
        other.write(b"half")
        box = Sandbox(script)
        try:
            work, _ = box.make()
            assert sorted(p.name for p in work.iterdir()) == ["target.py"]
        finally:
            box.cleanup()
    write_atomic(tmp_path / "target.min.py", "x = 1\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target.min.py", "target.py"]


def test_the_scratch_copy_survives_a_file_that_vanishes_while_it_is_copied(tmp_path, monkeypatch):
    script = tmp_path / "target.py"
    script.write_text("raise RuntimeError('boom')\n")
    (tmp_path / "target.min.py").write_text("x = 1\n")  # another run's output, replaced while we copy
    from reportkit.run import runner

    real_open = runner.open_regular

    def open_regular(src):
        if os.path.basename(src) == "target.min.py":
            os.unlink(src)  # renamed over / removed by the other run between the listing and the copy
        return real_open(src)

    monkeypatch.setattr(runner, "open_regular", open_regular)
    box = Sandbox(script)
    try:
        work, target = box.make()
        assert target.read_text() == "raise RuntimeError('boom')\n"
        assert not (work / "target.min.py").exists()
    finally:
        box.cleanup()


def test_the_scratch_copy_skips_a_named_pipe_and_a_socket(tmp_path):
    import socket

    script = tmp_path / "target.py"
    script.write_text("raise RuntimeError('boom')\n")
    os.mkfifo(tmp_path / "pipe")  # (copying it waited for a writer or failed: shutil.Error, a traceback)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    box = Sandbox(script)
    try:
        work, target = box.make()
        assert sorted(p.name for p in work.iterdir()) == ["target.py"]
    finally:
        box.cleanup()
        sock.close()
    done = subprocess.run([sys.executable, "-m", "reportkit", "check", str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize("command", ["check", "minimize"])
def test_sigterm_before_the_reduction_ends_runs_and_removes_the_session(tmp_path, command):
    """SIGTERM while the original's first run is still going (round 30, blind): reportkit died of the signal
    (exit -15), its session dir (the project's copy) and its /tmp link left for a later reportkit to remove, and
    ``minimize`` never reached the path that keeps the best result. Now: exit 130, the run gone, nothing left."""
    name = f"sleeper_{uuid.uuid4().hex[:12]}.py"
    marker = f"child-of-{name}"  # (a warm run is a fork of the server: its command line names no script, its child's does)
    (tmp_path / name).write_text("import subprocess, sys, time\n"
                                 f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}])\n"
                                 "time.sleep(600)\nraise RuntimeError('never')\n")
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "reportkit", command, "--timeout", "900", name], cwd=tmp_path,
                            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "TMPDIR": str(temp)})
    try:
        deadline = time.monotonic() + 120
        while not _running(marker) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)  # the script ran as far as starting its child
        assert _running(marker), proc.communicate(timeout=30)
        sessions = list(temp.glob("reportkit-session-*"))
        assert sessions
        proc.send_signal(signal.SIGTERM)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        for p in _running(name):
            with contextlib.suppress(psutil.Error):
                p.kill()
    assert proc.returncode == 130, stdout + stderr
    assert "Traceback" not in stdout + stderr
    assert "reportkit: interrupted" in stderr
    assert [" ".join(p.cmdline()) for p in _running(name)] == [], stdout + stderr
    assert [s for s in sessions if s.exists()] == [], stdout + stderr


def test_the_projects_file_cannot_hand_its_code_a_secret(tmp_path):
    """Blind sandbox attacks round 33: a downloaded project's ``[tool.reportkit] keep_env = ["HF_TOKEN"]`` passed
    the user's token to the project's code (with the network on, it could send it out). Not applied: a note says
    how the user keeps one; ``--keep-env`` still does."""
    (tmp_path / "pyproject.toml").write_text('[tool.reportkit]\nkeep_env = ["HF_TOKEN"]\n')
    (tmp_path / "leak.py").write_text("import os\nraise RuntimeError('token ' + str('HF_TOKEN' in os.environ))\n")
    token = {"HF_TOKEN": "hf_" + "Q7x" * 11}
    proc = cli("check", "--json", "--runs", "1", "leak.py", cwd=tmp_path, env=token)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["signature"]["raw_message"] == "token False"
    assert "[tool.reportkit] keep_env in" in proc.stderr and "is not applied" in proc.stderr
    kept = cli("check", "--json", "--runs", "1", "--keep-env", "HF_TOKEN", "leak.py", cwd=tmp_path, env=token)
    assert json.loads(kept.stdout)["signature"]["raw_message"] == "token True"
