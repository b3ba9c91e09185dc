"""Adversarial cases (issue 12), each planted and checked end to end through the real CLI.

* a script whose guard ddmin removes: 0 files outside the scratch dirs change during ``minimize``;
* 30 planted secrets through ``check``, ``bundle`` and ``ci``: none in any file written (archives
  unpacked), in the GitHub step summary / outputs, or on stdout/stderr;
* children that ``setsid()`` and double-fork: 0 processes left after ``check``, ``bundle``, ``minimize``;
* a pytest target that writes to and deletes repository files: the repository is unchanged.

Sandbox cases run under bubblewrap and under the forced fallback (``protection_mode``). All scripts are
pure Python, so this stays fast enough for every CI run.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tarfile
import textwrap
import uuid
from pathlib import Path

import psutil


def cli(*args: str, cwd: Path, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          env=full_env, timeout=timeout)


def tree_digest(root: Path, skip: set[str] = frozenset()) -> dict[str, str]:
    """Relative path -> content hash (or 'dir'/'link') of everything under ``root``."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if rel in skip or "__pycache__" in rel:
            continue
        if path.is_symlink():
            out[rel] = "link:" + os.readlink(path)
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


# --------------------------------------------------------------------------- the removed guard

GUARDED = """
    import os
    import shutil

    VICTIM = {victim!r}
    SCRATCH = "/nonexistent-reportkit-scratch/"


    def safe_cleanup(path):
        settings = {{"epochs": "ten", "keep": 3}}
        if not path.startswith(SCRATCH):
            return settings
        shutil.rmtree(path)
        return settings


    def rotate(settings):
        if settings["keep"] > 2:
            return settings
        with open(os.path.join(VICTIM, "notes.txt"), "w") as fh:
            fh.write("rotated")
        os.replace(os.path.join(VICTIM, "notes.txt"), os.path.join(VICTIM, "data.csv"))
        os.system("rm -rf " + VICTIM)
        return settings


    settings = rotate(safe_cleanup(VICTIM))
    epochs = int(settings["epochs"])
    print(epochs)
"""


def test_minimize_never_changes_files_outside_scratch(tmp_path, protection_mode):
    victim = tmp_path / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "notes.txt").write_text("keep me\n")
    (victim / "data.csv").write_text("a,b\n1,2\n")
    (victim / "sub" / "deep.txt").write_text("deep\n")
    app = tmp_path / "app"
    app.mkdir()
    script = app / "cleanup.py"
    script.write_text(textwrap.dedent(GUARDED.format(victim=str(victim))), encoding="utf-8")
    before = tree_digest(tmp_path)
    proc = cli("minimize", str(script), "-j", "2", "--budget", "120", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    layers = "bubblewrap" if protection_mode == "bwrap" else ("landlock (ABI", "audit hook only")
    row = next(line for line in proc.stdout.splitlines() if line.strip().startswith("sandbox "))
    assert row.split(None, 1)[1].startswith(layers), row
    result = (app / "cleanup.min.py").read_text()
    assert "int(" in result and len(result.splitlines()) < 10  # it was minimized
    after = tree_digest(tmp_path, skip={"app/cleanup.min.py"})
    assert after == before


# --------------------------------------------------------------------------- planted secrets

def _rand(n: int = 24) -> str:
    return uuid.uuid4().hex[:n]


def planted() -> tuple[dict[str, str], dict[str, str], list[str], dict[str, str]]:
    """(text secrets: name -> text that carries it, env secrets, argv, name -> the secret to grep for)."""
    alnum = (uuid.uuid4().hex + uuid.uuid4().hex.upper())
    key_lines = [alnum[i:i + 12] + uuid.uuid4().hex + uuid.uuid4().hex[:12] for i in range(0, 36, 12)]
    pem = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(key_lines) + "\n-----END RSA PRIVATE KEY-----"
    pgp_lines = [uuid.uuid4().hex + uuid.uuid4().hex[:20] for _ in range(3)]
    pgp = ("-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + "\n".join(pgp_lines)
           + "\n=Xy9Q\n-----END PGP PRIVATE KEY BLOCK-----")
    t = {
        "github": "ghp_" + _rand(32) + "ABCD",
        "github_pat": "github_pat_" + _rand(22) + "_" + _rand(30),
        "hf": "hf_" + _rand(34),
        "aws_id": "AKIA" + _rand(16).upper(),
        "aws_secret": _rand(20) + "/" + _rand(19),
        "openai": "sk-" + _rand(24) + "9x",
        "slack": "xoxb-" + "1234567890-" + _rand(24),
        "password": "Pw" + _rand(14),
        "url_pass": "U" + _rand(13),
        "jwt": "eyJ" + _rand(20) + ".eyJ" + _rand(20) + "." + _rand(22),
        "bearer": "Bt" + _rand(30),
        "gitlab": "glpat-" + _rand(20),
        "stripe": "sk_live_" + _rand(24),
        "sendgrid": "SG." + _rand(22) + "." + _rand(32) + _rand(11),
        "npm": "npm_" + _rand(36),
        "slack_hook": "X" + _rand(23),
        "telegram": "123456789:" + _rand(32) + "AbC",
        "azure": _rand(32) + _rand(32) + _rand(22) + "==",
        "pypi": "pypi-AgEIcHlwaS5vcmc" + _rand(32) + _rand(32) + _rand(10),
        "pem": key_lines[1],
        "pgp": pgp_lines[1],
    }
    texts = {
        "github": f"token used: {t['github']}", "github_pat": f"GITHUB_PAT {t['github_pat']}",
        "hf": f"hub login {t['hf']}", "aws_id": f"key id {t['aws_id']}",
        "aws_secret": f"aws_secret_access_key = {t['aws_secret']}", "openai": f"client(api={t['openai']!r})",
        "slack": f"slack {t['slack']}", "password": f"connecting with password={t['password']}",
        "url_pass": f"cloning https://alice:{t['url_pass']}@git.example.com/r.git",
        "jwt": f"session {t['jwt']}", "bearer": f"Authorization: Bearer {t['bearer']}",
        "gitlab": f"gitlab {t['gitlab']}", "stripe": f"stripe key {t['stripe']}",
        "sendgrid": f"mail {t['sendgrid']}", "npm": f"//registry.npmjs.org/:_authToken={t['npm']}",
        "slack_hook": f"hook https://hooks.slack.com/services/T0ABC/B0DEF/{t['slack_hook']}",
        "telegram": f"bot {t['telegram']}", "azure": f"AccountKey={t['azure']}",
        "pypi": f"upload with {t['pypi']}", "pem": pem, "pgp": pgp,
    }
    env = {"SPYRE_DB_PASSWORD": "Dp" + _rand(14), "SPYRE_ROOTPW": "Rp" + _rand(14), "SPYRE_DBPASS": "Db" + _rand(14),
           "SPYRE_SIGNING_KEY": "Sk" + _rand(14), "SPYRE_ADMIN_PWD": "Ad" + _rand(14),
           "MY_SERVICE_TOKEN": "Tk" + _rand(14)}
    # random_arg: a value whose option says nothing, found by its randomness (letters and digits alternate, as
    # in random text: a run like "123456" or "abc" would make it look like a name, which is not redacted)
    mixed = "".join(f"{a}{b}" for a, b in zip("mPvLqXkR", str(uuid.uuid4().int)[:8]))
    argv_secrets = {"db_pass": "Xq" + _rand(10), "password_arg": "Yp" + _rand(10),
                    "random_arg": "Zk9#" + mixed + "Q2$"}
    argv = ["--db-pass", argv_secrets["db_pass"], "--password", argv_secrets["password_arg"],
            "--opt", argv_secrets["random_arg"], "--epochs", "3"]
    grep = {**t, **{k: v for k, v in env.items()}, **argv_secrets}
    return texts, env, argv, grep


LEAKY = """
    import json, os, sys

    here = os.path.dirname(os.path.abspath(__file__))
    texts = json.load(open(os.path.join(here, "texts.json")))
    for name, text in texts.items():
        print(text)
        print(text, file=sys.stderr)
    for name in ("SPYRE_DB_PASSWORD", "SPYRE_ROOTPW", "SPYRE_DBPASS", "SPYRE_SIGNING_KEY", "SPYRE_ADMIN_PWD",
                 "MY_SERVICE_TOKEN"):
        print(name, "is", os.environ[name])
    print("argv:", " ".join(sys.argv[1:]))
"""


def _assert_no_secret(where: str, text: str, grep: dict[str, str]) -> None:
    leaked = [name for name, secret in grep.items() if secret in text or secret[2:-2] in text]
    assert not leaked, f"{where}: leaked {leaked}"


def _scan_dir(root: Path, grep: dict[str, str], tmp_path: Path) -> int:
    """Check every file under ``root`` (archives: mode 0600, and every member); return how many."""
    count = 0
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        count += 1
        if path.name.endswith(".tar.gz"):
            assert (path.stat().st_mode & 0o777) == 0o600, f"{path} is {oct(path.stat().st_mode & 0o777)}"
            count += _scan_archive(path, grep)
        else:
            _assert_no_secret(str(path), path.read_bytes().decode("utf-8", "replace"), grep)
    return count


def _scan_archive(archive: Path, grep: dict[str, str]) -> int:
    count = 0
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile():
                count += 1
                data = tar.extractfile(member).read().decode("utf-8", "replace")
                _assert_no_secret(f"{archive.name}:{member.name}", data, grep)
    return count


def test_planted_secrets_never_reach_any_output(tmp_path):
    texts, env, argv, grep = planted()
    assert len(grep) >= 25
    app = tmp_path / "app"
    app.mkdir()
    (app / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    script = app / "leak.py"
    script.write_text(textwrap.dedent(LEAKY) + textwrap.dedent("""
        raise RuntimeError("failed with " + texts["github"] + " and " + texts["password"] + " and "
                           + os.environ["SPYRE_DB_PASSWORD"])
    """), encoding="utf-8")
    # check: stdout/stderr (text and --json)
    for extra in ([], ["--json"]):
        proc = cli("check", str(script), "--runs", "1", *extra, "--", *argv, cwd=tmp_path, env=env)
        assert proc.returncode == 0, proc.stderr
        _assert_no_secret("check output", proc.stdout + proc.stderr, grep)
    # bundle: every file written, the archive unpacked
    out = tmp_path / "bundle"
    proc = cli("bundle", str(script), "--issue", "--no-ladder", "--out", str(out), "--", *argv, cwd=tmp_path,
               env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _assert_no_secret("bundle output", proc.stdout + proc.stderr, grep)
    assert _scan_dir(out, grep, tmp_path) > 5
    archive = Path(str(out) + ".tar.gz")
    assert (archive.stat().st_mode & 0o777) == 0o600
    assert _scan_archive(archive, grep) > 5
    # ci: a failing pytest test whose JUnit XML, output and re-runs carry the secrets
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (repo / "tests" / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    (repo / "tests" / "test_leak.py").write_text(textwrap.dedent("""
        import json, os

        def test_leaks():
            texts = json.load(open(os.path.join(os.path.dirname(__file__), "texts.json")))
            for text in texts.values():
                print(text)
            print("db", os.environ["SPYRE_DB_PASSWORD"], os.environ["SPYRE_ROOTPW"])
            assert False, "login failed: " + texts["github"] + " " + texts["url_pass"] + " " + os.environ["SPYRE_DBPASS"]
    """), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "--junitxml", str(tmp_path / "results.xml"), "tests"],
                   cwd=repo, env={**os.environ, **env}, capture_output=True, timeout=120)
    assert any(s in (tmp_path / "results.xml").read_text() for s in grep.values())  # the XML does leak
    summary, outputs = tmp_path / "step-summary.md", tmp_path / "github-output.txt"
    ci_out = tmp_path / "ci-out"
    proc = cli("ci", "--junit", str(tmp_path / "results.xml"), "--repo-root", str(repo), "--out", str(ci_out),
               "--budget", "200", cwd=repo, env={**env, "GITHUB_STEP_SUMMARY": str(summary),
                                                 "GITHUB_OUTPUT": str(outputs), "GITHUB_ACTIONS": "true"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    _assert_no_secret("ci output", proc.stdout + proc.stderr, grep)
    assert _scan_dir(ci_out, grep, tmp_path) > 3
    for path in (summary, outputs):
        _assert_no_secret(path.name, path.read_text(), grep)
    assert "1 reproduced on re-run" in (ci_out / "summary.md").read_text()


# --------------------------------------------------------------------------- escaping children

ESCAPER = """
    import os, sys, time

    def daemonize():
        pid = os.fork()
        if pid == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)  # {marker}"])
            os._exit(0)
        os.waitpid(pid, 0)

    def helper():
        if os.fork() == 0:
            os.setsid()
            time.sleep(600)
            os._exit(0)

    daemonize()
    helper()
    config = {{"workers": "four"}}
    workers = int(config["workers"])
"""


def _marked(marker: str) -> list[str]:
    found = []
    for proc in psutil.process_iter(["cmdline", "ppid"]):
        try:
            if proc.pid != os.getpid() and any(marker in part for part in proc.info["cmdline"] or []):
                found.append(" ".join(proc.info["cmdline"]))
        except psutil.Error:
            continue
    return found


def _descendants_of_nobody_new(before: set[int]) -> list[int]:
    return [p.pid for p in psutil.process_iter() if p.pid not in before]


def test_escaping_children_never_survive(tmp_path, protection_mode):
    marker = "reportkit-escaper-" + uuid.uuid4().hex[:12]
    app = tmp_path / "app"
    app.mkdir()
    script = app / "escape.py"
    script.write_text(textwrap.dedent(ESCAPER.format(marker=marker)), encoding="utf-8")
    # the forked helper (no exec) has the script's own command line; the marker is in its file name too
    named = app / f"{marker}.py"
    script.rename(named)
    before = {p.pid for p in psutil.process_iter()}
    for args in (["check", str(named), "--runs", "2"],
                 ["bundle", str(named), "--no-ladder", "--out", str(tmp_path / "b")],
                 ["minimize", str(named), "-j", "2", "--budget", "90"]):
        proc = cli(*args, cwd=tmp_path)
        assert proc.returncode == 0, args[0] + ": " + proc.stdout + proc.stderr
        assert _marked(marker) == [], f"left running after {args[0]}"
    survivors = []
    for pid in _descendants_of_nobody_new(before):
        try:
            cmd = " ".join(psutil.Process(pid).cmdline())
        except psutil.Error:
            continue
        if marker in cmd:
            survivors.append(cmd)
    assert survivors == []


# --------------------------------------------------------------------------- pytest target vs repository

def test_pytest_target_cannot_change_the_repository(tmp_path, protection_mode):
    repo = tmp_path / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "data").mkdir()
    (repo / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (repo / "README.md").write_text("# project\n")
    (repo / "data" / "records.txt").write_text("1\n2\n")
    (repo / "tests" / "test_repo.py").write_text(textwrap.dedent("""
        import os
        from pathlib import Path

        ROOT = Path(__file__).resolve().parents[1]


        def _attempt(fn):
            try:
                fn()
            except OSError:
                pass


        def test_vandal():
            root = Path(os.getcwd())
            for base in (root, ROOT):
                _attempt(lambda: open(base / "README.md", "a").write("appended\\n"))
                _attempt(lambda: (base / "data" / "records.txt").unlink())
                _attempt(lambda: (base / "data" / "new.txt").write_text("x"))
                _attempt(lambda: (base / "pyproject.toml").write_text("broken"))
            assert 1 + 1 == 3
    """), encoding="utf-8")
    before = tree_digest(repo)
    proc = cli("check", "tests/test_repo.py::test_vandal", "--runs", "1", cwd=repo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "AssertionError" in proc.stdout
    assert tree_digest(repo) == before
