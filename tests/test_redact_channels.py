"""Redaction v2 (issue 35, item 5), end to end through the real CLI: planted secrets in every channel, and the
over-redactions that broke reports.

Every secret is made at runtime (random bodies on the formats' prefixes), printed by a failing script in the
ways the issue lists (plain, in the failure message, ANSI-coloured, wrapped across lines, base64, JSON-escaped,
UTF-16), held in the environment (``SSHPASS``, ``OP_SESSION_*``, ``REDIS_URL``, ``DISCORD_WEBHOOK``), given with
``--env`` and as the script's arguments. Then the bytes of every channel are searched: the console of ``check``
(text and ``--json``), ``bundle`` (every file, the tar.gz unpacked), ``minimize`` (``.min.py``), ``ci`` (its
files, ``$GITHUB_STEP_SUMMARY``, ``$GITHUB_OUTPUT``, the ``::error`` annotations) and ``publish`` (every ``gh``
argument and body file, its step summary and outputs).
"""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import secrets
import shlex
import string
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from fake_gh import FAKE_GH

ALNUM = string.ascii_letters + string.digits


def rnd(n: int, alphabet: str = ALNUM) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


def hexs(n: int) -> str:
    return rnd(n, "0123456789abcdef")


def mixed(n: int) -> str:
    """Random, with lower and upper case and digits alternating (every short random value looks random)."""
    classes = (string.ascii_lowercase, string.ascii_uppercase, string.digits)
    return "".join(secrets.choice(classes[i % 3]) for i in range(n))


def pem_block() -> tuple[str, list[str]]:
    lines = [rnd(64, ALNUM + "+/") for _ in range(4)]
    return "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END RSA PRIVATE KEY-----\n", lines


def planted() -> tuple[dict[str, str], dict[str, list[str]]]:
    """(name -> the text the script prints, name -> the secret substrings that must not appear)."""
    s: dict[str, list[str]] = {}
    t: dict[str, str] = {}

    def add(name: str, text: str, *secret: str) -> None:
        t[name], s[name] = text, list(secret)

    pw = [mixed(14) for _ in range(12)]
    add("redis", f"connecting to redis://:{pw[0]}@cache:6379/0", pw[0])
    add("postgres", f"DATABASE=postgres://svc:{pw[1]}@db.internal:5432/app", pw[1])
    add("amqp", f"broker amqp://worker:{pw[2]}@mq:5672/vhost", pw[2])
    add("mongodb", f"mongodb+srv://admin:{pw[3]}@cluster0.x1y2z.mongodb.net/db", pw[3])
    tok = "tk" + rnd(30)
    add("https_userinfo", f"git clone https://oauth:{tok}@git.example.com/team/repo.git", tok)
    add("curl_u", f"curl -u deploy:{pw[4]} https://api.example.com/v1", pw[4])
    add("mysql_p", f"mysql -h db -u root -p{pw[5]} shop", pw[5])
    add("password_opt", f"tool --password={pw[6]} --verbose", pw[6])
    add("token_opt", f"uploader --token {pw[7]} --retries 3", pw[7])
    bearer = rnd(40)
    add("bearer", f"Authorization: Bearer {bearer}", bearer)
    basic = base64.b64encode(f"ops:{pw[8]}".encode()).decode()
    add("basic", f"Authorization: Basic {basic}", basic, pw[8])
    for name, value in {
        "google_key": "AIza" + rnd(35, ALNUM + "-_"),
        "google_oauth": "ya29." + rnd(60, ALNUM + "-_"),
        "slack": "xoxb-" + rnd(12, "0123456789") + "-" + rnd(13, "0123456789") + "-" + rnd(24),
        "vault": "hvs." + rnd(90, ALNUM + "_-"),
        "stripe_sk": "sk_live_" + rnd(24),
        "stripe_rk": "rk_live_" + rnd(24),
        "gitlab": "glpat-" + rnd(20, ALNUM + "_-"),
        "github": "ghp_" + rnd(36),
        "github_pat": "github_pat_" + rnd(22) + "_" + rnd(59),
        "huggingface": "hf_" + rnd(34),
        "openai": "sk-proj-" + rnd(48) + "9",
        "anthropic": "sk-ant-api03-" + rnd(93, ALNUM + "-_") + "AA",
        "databricks": "dapi" + hexs(32),
        "digitalocean": "dop_v1_" + hexs(64),
        "shopify": "shpat_" + hexs(32),
        "grafana_sa": "glsa_" + rnd(32) + "_" + hexs(8),
        "grafana_cloud": "glc_" + rnd(60),
        "doppler": "dp.st.prd." + rnd(43),
        "postman": "PMAK-" + hexs(24) + "-" + hexs(34),
        "npm": "npm_" + rnd(36),
        "pypi": "pypi-AgEIcHlwaS5vcmc" + rnd(100, ALNUM + "-_"),
        "age": "AGE-SECRET-KEY-1" + rnd(58, string.ascii_uppercase + string.digits),
        "jwt": "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + base64.urlsafe_b64encode(
            json.dumps({"sub": rnd(12), "iat": 1700000000}).encode()).decode().rstrip("=") + "." + rnd(43, ALNUM + "-_"),
    }.items():
        add(name, f"{name} credential: {value} (used)", value)
    hook = rnd(24)
    add("slack_webhook", f"posting to https://hooks.slack.com/services/T{rnd(8)}/B{rnd(8)}/{hook}", hook)
    discord = rnd(68, ALNUM + "_-")
    add("discord_webhook", f"https://discord.com/api/webhooks/{rnd(18, '0123456789')}/{discord}", discord)
    pem, lines = pem_block()
    add("pem", pem, *lines)
    pem2, lines2 = pem_block()
    b64pem = base64.b64encode(pem2.encode()).decode()
    add("pem_base64", f"KEY_B64={b64pem}", b64pem[20:60], *lines2)
    pem3, lines3 = pem_block()
    add("pem_json", json.dumps({"type": "service_account", "private_key": pem3}), *lines3)
    sas = rnd(43, ALNUM + "%") + "%3D"
    add("azure_sas", f"https://acct.blob.core.windows.net/c/f.bin?sv=2022-11-02&se=2030-01-01&sp=r&sig={sas}", sas)
    account_key = rnd(86, ALNUM + "+/") + "=="
    add("azure_conn", f"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey={account_key};"
                      "EndpointSuffix=core.windows.net", account_key)
    amz_sig, amz_key = hexs(64), "AKIA" + rnd(16, string.ascii_uppercase + string.digits)
    add("aws_presigned", f"https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential={amz_key}"
                         f"%2F20240101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Signature={amz_sig}", amz_sig, amz_key)
    add("ansi_password", f"\x1b[1;31mpassword=\x1b[0m\x1b[33m{pw[9]}\x1b[0m", pw[9])
    wrapped = "ghp_" + rnd(36)
    add("wrapped", f"token: {wrapped[:19]}\n{wrapped[19:]}", wrapped, wrapped[:19], wrapped[19:])
    return t, s


ENV_SECRETS = {"SSHPASS": mixed(16), "OP_SESSION_my": rnd(43), "REDIS_URL": f"redis://:{mixed(18)}@cache:6379/1",
               "DISCORD_WEBHOOK": f"https://discord.com/api/webhooks/{rnd(18, '0123456789')}/{rnd(68)}"}
ENV_OPTION = mixed(20)  # --env APP_SETTING=<this>: a name that says nothing, a value that is a credential
ARGV_SECRETS = {"token": mixed(22), "user_pw": mixed(15), "mysql": mixed(13), "url": mixed(17)}
ARGV = ["--token", ARGV_SECRETS["token"], "-u", f"admin:{ARGV_SECRETS['user_pw']}", f"-p{ARGV_SECRETS['mysql']}",
        f"--endpoint=https://bot:{ARGV_SECRETS['url']}@api.example.com/v2", "--run-name", "Exp#12_A",
        "--prompt", "Describe the weather in Paris"]

LEAKY = r'''
import base64, json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
texts = json.load(open(os.path.join(here, "texts.json")))
for name, text in texts.items():
    print(text)
    print(text, file=sys.stderr)
env = {k: os.environ[k] for k in ("SSHPASS", "OP_SESSION_my", "REDIS_URL", "DISCORD_WEBHOOK", "APP_SETTING")}
for name, value in env.items():
    print(name, "=", value)
    print("b64", base64.b64encode(value.encode()).decode(), "json", json.dumps({"v": value}))
print("wrapped env:", env["SSHPASS"][:9] + "\n" + env["SSHPASS"][9:])
sys.stdout.flush()
sys.stdout.buffer.write(("utf16 " + texts["github"] + " " + env["SSHPASS"] + "\n").encode("utf-16-le"))
sys.stdout.flush()
print("argv:", " ".join(sys.argv[1:]))
STRIPE = "sk_live_{stripe_tail}"


class Model:
    def __init__(self, ntoken):
        self.ntoken = ntoken


model = Model(ntoken=sys.argv.count("--token"))
raise RuntimeError("login failed for " + texts["github"] + " with " + env["SSHPASS"] + " at "
                   + texts["redis"].split()[-1] + " key " + STRIPE + " model " + str(model.ntoken))
'''


def grep_list(texts: dict[str, str], secrets_of: dict[str, list[str]]) -> dict[str, str]:
    grep = {f"{name}#{i}": s for name, values in secrets_of.items() for i, s in enumerate(values) if s}
    for name, value in ENV_SECRETS.items():
        core = value.split("://:")[-1].split("@")[0] if name == "REDIS_URL" else value.rsplit("/", 1)[-1]
        grep[f"env:{name}"] = core
        grep[f"env:{name}:b64"] = base64.b64encode(value.encode()).decode()[8:-8]
    grep["env:SSHPASS:wrap0"], grep["env:SSHPASS:wrap1"] = ENV_SECRETS["SSHPASS"][:9], ENV_SECRETS["SSHPASS"][9:]
    grep["env:APP_SETTING"] = ENV_OPTION
    grep.update({f"argv:{k}": v for k, v in ARGV_SECRETS.items()})
    return grep


def leaks(text: str, grep: dict[str, str]) -> list[str]:
    """The names whose secret (or its middle) is in ``text``, also with colour codes and NULs taken out."""
    clean = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text).replace("\x00", "")
    return sorted(name for name, secret in grep.items()
                  for t in (text, clean) if secret in t or (len(secret) >= 12 and secret[3:-3] in t))


def scan_dir(root: Path, grep: dict[str, str]) -> dict[str, list[str]]:
    """Every file under ``root`` and every member of every .tar.gz: where what leaked."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        if path.name.endswith(".tar.gz"):
            with tarfile.open(path) as tar:
                for member in tar.getmembers():
                    if member.isfile():
                        data = tar.extractfile(member).read().decode("utf-8", "replace")
                        if leaks(data, grep):
                            found[f"{path.name}:{member.name}"] = leaks(data, grep)
        elif leaks(path.read_bytes().decode("utf-8", "replace"), grep):
            found[str(path.relative_to(root))] = leaks(path.read_bytes().decode("utf-8", "replace"), grep)
    return found


def gh_title(stdout: str) -> str | None:
    """The --title of the ``gh issue create`` command ``bundle`` printed; None: it printed none (a raise of the
    script's own is "check it before filing": no ready-made upstream command; the quoting of a printed one is
    tested in test_envsafe.py)."""
    line = next((line for line in stdout.splitlines() if "gh issue create" in line), None)
    if line is None:
        return None
    words = shlex.split(line.split("file it", 1)[1])
    return words[words.index("--title") + 1]


def cli(*args: str, cwd: Path, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    full = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True, cwd=cwd,
                          env={k: v for k, v in full.items() if v is not None}, timeout=timeout)


@pytest.fixture(scope="module")
def leaky(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("leaky")
    texts, secrets_of = planted()
    app = tmp / "app"
    app.mkdir()
    (app / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
    stripe_tail = rnd(24)
    script = app / "leak.py"
    script.write_text(LEAKY.replace("{stripe_tail}", stripe_tail), encoding="utf-8")
    secrets_of["script_literal"] = ["sk_live_" + stripe_tail]
    grep = grep_list(texts, secrets_of)
    assert len({k.split("#")[0] for k in grep}) >= 45  # formats planted
    # the user passes them to the runs (--keep-env): the scrubbed environment would withhold them otherwise
    env = {**ENV_SECRETS, "APP_SETTING": ENV_OPTION, "REPORTKIT_KEEP_ENV": ",".join(ENV_SECRETS)}
    return {"tmp": tmp, "script": script, "grep": grep, "env": env, "texts": texts}


def test_check_console_and_json(leaky):
    for extra in ([], ["--json"]):
        proc = cli("check", str(leaky["script"]), "--runs", "1", "--env", f"APP_SETTING={ENV_OPTION}", *extra,
                   "--", *ARGV, cwd=leaky["tmp"], env=leaky["env"])
        assert proc.returncode == 0, proc.stderr
        assert "RuntimeError" in proc.stdout
        assert leaks(proc.stdout + proc.stderr, leaky["grep"]) == [], extra


def test_bundle_every_file_and_archive(leaky):
    out = leaky["tmp"] / "b" / "bundle"
    proc = cli("bundle", str(leaky["script"]), "--issue", "--no-ladder", "--out", str(out), "--env",
               f"APP_SETTING={ENV_OPTION}", "--", *ARGV, cwd=leaky["tmp"], env=leaky["env"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert leaks(proc.stdout + proc.stderr, leaky["grep"]) == []
    assert len(list(out.rglob("*"))) > 8 and (out.parent / "bundle.tar.gz").is_file()
    assert scan_dir(out.parent, leaky["grep"]) == {}
    issue = (out / "issue.md").read_text(encoding="utf-8")
    # the run line: built from parts redacted first, the harmless ones as they were
    run_line = next(line for line in issue.splitlines() if line.startswith("APP_SETTING="))
    assert "python leak.py --token '<redacted:secret-argument>'" in run_line
    assert "--run-name 'Exp#12_A'" in run_line and "--prompt 'Describe the weather in Paris'" in run_line
    # the reproducer: still parses, identifiers untouched, the literal secret gone
    repro = (out / "reproducer" / "leak.py").read_text(encoding="utf-8")
    ast.parse(repro)
    assert "self.ntoken = ntoken" in repro and 'STRIPE = "<redacted:stripe-access-key>"' in repro
    for block in re.findall(r"```python\n(.*?)\n```", issue, re.DOTALL):
        ast.parse(block)
    # the printed gh command: its title is the failure's (redacted), quoted as one argument
    title = json.loads((out / "bundle.json").read_text())["title"]
    assert gh_title(proc.stdout) in (None, title) and title.startswith("RuntimeError: login failed for ")


def test_minimize_result(leaky):
    out = leaky["tmp"] / "leak.min.py"
    proc = cli("minimize", str(leaky["script"]), "-o", str(out), "--budget", "60", "-j", "2",
               "--env", f"APP_SETTING={ENV_OPTION}", "--", *ARGV, cwd=leaky["tmp"], env=leaky["env"])
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert leaks(proc.stdout + proc.stderr, leaky["grep"]) == []
    result = out.read_text(encoding="utf-8")
    ast.parse(result)
    assert leaks(result, leaky["grep"]) == []


CI_TEST = r'''
import base64, json, os, sys


def test_leaks():
    texts = json.load(open(os.path.join(os.path.dirname(__file__), "texts.json")))
    for text in texts.values():
        print(text)
    print("session", os.environ["OP_SESSION_my"], base64.b64encode(os.environ["SSHPASS"].encode()).decode())
    assert False, ("login failed: " + texts["github"] + " " + texts["redis"] + " " + texts["curl_u"] + " "
                   + texts["ansi_password"] + " " + os.environ["SSHPASS"] + " " + texts["slack_webhook"])
'''


def test_ci_and_publish_channels(leaky):
    tmp = leaky["tmp"]
    repo = tmp / "repo"
    (repo / "tests").mkdir(parents=True)
    (repo / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    (repo / "tests" / "texts.json").write_text(json.dumps(leaky["texts"]), encoding="utf-8")
    (repo / "tests" / "test_leak.py").write_text(CI_TEST, encoding="utf-8")
    junit = tmp / "results.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--junitxml", str(junit), "tests"],
                   cwd=repo, env={**os.environ, **leaky["env"]}, capture_output=True, timeout=300)
    assert leaks(junit.read_text(), leaky["grep"])  # the XML itself leaks: reportkit must not pass it on
    summary, outputs, ci_out = tmp / "step-summary.md", tmp / "github-output.txt", tmp / "ci-out"
    github = {"GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs), "GITHUB_ACTIONS": "true",
              "GITHUB_WORKSPACE": str(repo)}
    proc = cli("ci", "--junit", str(junit), "--repo-root", str(repo), "--out", str(ci_out), "--no-ladder",
               "--budget", "300", cwd=repo, env={**leaky["env"], **github})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "::error " in proc.stdout  # the annotation
    assert leaks(proc.stdout + proc.stderr, leaky["grep"]) == []
    assert scan_dir(ci_out, leaky["grep"]) == {}
    for path in (summary, outputs):
        assert leaks(path.read_text(), leaky["grep"]) == [], path.name
    # publish: the fake gh logs every argument and body file
    bindir = tmp / "bin"
    bindir.mkdir()
    (bindir / "gh").write_text(FAKE_GH, encoding="utf-8")
    (bindir / "gh").chmod(0o755)
    (tmp / "issues.json").write_text("[]", encoding="utf-8")
    env = {**leaky["env"], **github, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}",
           "FAKE_GH_LOG": str(tmp / "gh-log.jsonl"), "FAKE_GH_ISSUES": str(tmp / "issues.json"),
           "GH_TOKEN": "test-token"}
    proc = cli("publish", str(ci_out), "--repo", "o/r", cwd=repo, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert leaks(proc.stdout + proc.stderr, leaky["grep"]) == []
    log = (tmp / "gh-log.jsonl").read_text(encoding="utf-8")
    assert '"issue", "create"' in log
    assert leaks(log, leaky["grep"]) == []
    for path in (summary, outputs):
        assert leaks(path.read_text(), leaky["grep"]) == [], path.name
    bodies = [json.loads(line)["body"] or "" for line in log.splitlines()]
    for body in bodies:
        for block in re.findall(r"```python\n(.*?)\n```", body, re.DOTALL):
            ast.parse(block)


# --------------------------------------------------------------------------- over-redaction

ORDINARY = '''
import argparse


class Decoder:
    def __init__(self, ntoken, password_rounds=3):
        self.ntoken = ntoken
        self.password_rounds = password_rounds
        self.pad_token = "<pad>"


parser = argparse.ArgumentParser()
parser.add_argument("--run-name")
parser.add_argument("--prompt")
args = parser.parse_args()
decoder = Decoder(ntoken=32000)
print("commit 82dede8e2a19a2666b90aca5e51781d6720c0efb, run", args.run_name, "torch 2.13.0+cpu")
print("id 550e8400-e29b-41d4-a716-446655440000 model ResNet50V2 path /opt/models/resnet50_v2/ckpt.pt")
raise ValueError(f"prompt {args.prompt!r} of run {args.run_name} needs {decoder.ntoken} tokens")
'''


def test_ordinary_reports_are_not_redacted(tmp_path):
    script = tmp_path / "decode.py"
    script.write_text(ORDINARY, encoding="utf-8")
    out = tmp_path / "bundle"
    proc = cli("bundle", str(script), "--issue", "--no-ladder", "--out", str(out), "--",
               "--run-name", "Exp#12_A", "--prompt", "Describe the weather in Paris", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    issue = (out / "issue.md").read_text(encoding="utf-8")
    assert "<redacted" not in issue and "<redacted" not in proc.stdout
    assert "python decode.py --run-name 'Exp#12_A' --prompt 'Describe the weather in Paris'" in issue
    repro = (out / "reproducer" / "decode.py").read_text(encoding="utf-8")
    assert repro == ORDINARY
    for block in re.findall(r"```python\n(.*?)\n```", issue, re.DOTALL):
        ast.parse(block)
    stdout = (out / "logs" / "debug-run.stdout.txt").read_text()
    assert "82dede8e2a19a2666b90aca5e51781d6720c0efb" in stdout and "ResNet50V2" in stdout
    title = json.loads((out / "bundle.json").read_text())["title"]
    assert gh_title(proc.stdout) in (None, title)
    assert title.startswith("ValueError: prompt 'Describe the weather in Paris' of run Exp#12_A")
