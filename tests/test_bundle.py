"""`reportkit bundle` end to end: the real CLI in a subprocess, the bundle directory, tar.gz and issue.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import pytest
from test_render import (
    CHECKLIST_KEYS,
    PYTORCH_SECTIONS,
    TORCH_SPYRE_SECTIONS,
    assert_checklist_complete,
    assert_details_balanced,
    parse_issue,
    section_fences,
)

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
FIXTURES = Path(__file__).parent / "fixtures" / "torch-spyre"


def cli(*args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 300):
    return subprocess.run([sys.executable, "-m", "reportkit", "bundle", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout, env={**os.environ, **(env or {})})


def load_bundle(out: Path) -> tuple[dict, str]:
    data = json.loads((out / "bundle.json").read_text())
    issue = (out / "issue.md").read_text() if (out / "issue.md").exists() else ""
    return data, issue


def every_text(out: Path) -> dict[str, str]:
    """Every file of the bundle directory and of its tar.gz, as text."""
    texts = {str(p.relative_to(out)): p.read_text(errors="replace") for p in out.rglob("*") if p.is_file()}
    with tarfile.open(str(out) + ".tar.gz") as tar:
        for member in tar.getmembers():
            if member.isfile():
                texts["tar:" + member.name] = tar.extractfile(member).read().decode(errors="replace")
    return texts


def test_pure_python_example_with_pytorch_template(tmp_path):
    out = tmp_path / "bundle"
    proc = cli(str(EX / "01_pure_python" / "analyze_access_logs.py"), "--issue", "--template", "pytorch",
               "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "checklist" not in proc.stdout  # Torch-Spyre's checklist is not part of pytorch's form
    for line in ("bundle ", "archive ", "issue ", "json ", "gh issue create --repo pytorch/pytorch"):
        assert line in proc.stdout
    data, text = load_bundle(out)
    assert data["schema_version"] == 1 and data["tool"]["name"] == "reportkit"
    assert data["template"] == "pytorch" and data["redacted"] is True
    assert [i["key"] for i in data["checklist"]] == CHECKLIST_KEYS
    assert data["signature"]["exc_type"] == "ValueError"
    assert data["collected"]["ladder"]["status"] == "not-collected"
    for key in ("reproducer", "error", "stdout", "stderr", "collect_env", "issue"):
        assert (out / data["files"][key]).is_file(), key
    assert (out / "reproducer" / "analyze_access_logs.py").read_text() == \
        (EX / "01_pure_python" / "analyze_access_logs.py").read_text()
    issue = parse_issue(text)
    assert [h for _, h in issue.headings] == PYTORCH_SECTIONS
    versions = section_fences(issue, "Versions")
    assert versions and versions[0][1].startswith("PyTorch version:")
    names = {m.name for m in tarfile.open(str(out) + ".tar.gz").getmembers()}
    assert {"bundle/issue.md", "bundle/bundle.json", "bundle/reproducer/analyze_access_logs.py"} <= names
    assert not list(tmp_path.glob(".bundle.partial-*"))


@pytest.mark.parametrize("args, fragment", [
    (["missing.py"], "no such file"),
    (["fails.py", "--template", "jira"], "--template must be one of auto, torch-spyre, pytorch"),
    (["fails.py", "--out", "full"], "already exists and is not an empty directory"),
    (["passes.py"], "nothing to reproduce: the script exits 0"),
    (["fails.py", "--env", "NOEQUALS"], "--env takes KEY=VALUE"),
])
def test_bad_input_one_message_exit_2(tmp_path, args, fragment):
    (tmp_path / "fails.py").write_text("raise RuntimeError('boom')\n")
    (tmp_path / "passes.py").write_text("print('fine')\n")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine")
    proc = cli(*args, cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert fragment in proc.stderr
    assert (tmp_path / "full" / "keep.txt").read_text() == "mine"
    assert not list(tmp_path.glob("reportkit-bundle-*"))


# --------------------------------------------------------------------------- secrets

HOME = os.path.expanduser("~")
SECRETS = {
    "github": "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2",
    "hf": "hf_" + "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvuts",
    "aws": "AKIAZZZZZZZZZZZZZZZZ",
    "openai": "sk-" + "live9a8b7c6d5e4f3g2h1i0j",
    "slack": "xoxp-987654321098-zyxwvutsrqpo",
    "url_password": "tr0ub4dor-pass",
    "env_secret": "only-known-from-env-7Q2",
    "pem_body": "MIIEowIBAAKCAQEAuniqueprivatekeybody0123456789",
}
SECRET_SCRIPT = '''
import json, os, sys
from pathlib import Path

# a reproducer that leaks: {github}
TOKEN_LINE = "github {github} hf {hf} aws {aws} key {openai} slack {slack}"
URL = "https://bob:{url_password}@internal.example.com/models"
PEM = "-----BEGIN RSA PRIVATE KEY-----\\n{pem_body}\\n-----END RSA PRIVATE KEY-----"
ENV = os.environ["MY_API_TOKEN"] + " " + os.environ["HF_TOKEN"]
HOME = os.path.expanduser("~") + "/secret-project/data.bin"
blob = "\\n".join([TOKEN_LINE, URL, PEM, ENV, HOME])
print(blob)
sys.stderr.write(blob + "\\n")
with open(os.environ["SPYRE_LOG_FILE"], "a") as fh:
    fh.write("[DEBUG] [spyre.runtime] 2026-03-04 10:11:12 copyAsync: " + blob.replace("\\n", " ") + "\\n")
cache = Path(os.environ["TORCHINDUCTOR_CACHE_DIR"])
kernel = cache / "inductor-spyre" / "0a1b2c3d_sdsc_mul_0_abcdefgh"
kernel.mkdir(parents=True)
sdsc = json.loads(Path(os.environ["FIXTURE"]).read_text())
sdsc["0_mul"]["debug_handle_"]["source"]["file"] = HOME + "/" + os.environ["MY_API_TOKEN"]
(kernel / "sdsc_0.json").write_text(json.dumps(sdsc))
ffdc = cache / "torch-spyre" / "ffdc_reports"
ffdc.mkdir(parents=True)
(ffdc / "ffdc_unknown_20260304T101112_123456_7.json").write_text(json.dumps(
    {{"failure": {{"category": "unknown", "message": blob}}, "environment": dict(os.environ)}}))
raise RuntimeError("aten.mul failed; auth with " + URL + " and {github}")
'''


def secret_bundle(tmp_path: Path, *extra: str) -> tuple[subprocess.CompletedProcess, Path]:
    script = tmp_path / "proj" / "leaky.py"
    script.parent.mkdir()
    script.write_text(textwrap.dedent(SECRET_SCRIPT.format(**SECRETS)))
    out = tmp_path / "out"
    proc = cli(str(script), "--issue", "--no-ladder", "--template", "torch-spyre", "--out", str(out), "--env", f"MY_API_TOKEN={SECRETS['env_secret']}",
               "--env", f"SPYRE_LOG_FILE={tmp_path / 'user.log'}", "--env", f"FIXTURE={FIXTURES / 'fma' / 'sdsc_0.json'}",
               "--keep-env", "HF_TOKEN", *extra, env={"HF_TOKEN": SECRETS["hf"]})  # kept: its value reaches the run
    assert proc.returncode == 0, proc.stderr
    return proc, out


def test_planted_secrets_never_reach_the_bundle(tmp_path):
    proc, out = secret_bundle(tmp_path)
    texts = every_text(out)
    assert {"logs/SPYRE_LOG_FILE.log", "logs/debug-run.stdout.txt", "issue.md", "bundle.json"} <= set(texts)
    assert any(k.startswith("artifacts/inductor-spyre/") for k in texts)
    assert any(k.startswith("artifacts/ffdc/") for k in texts)
    for where, text in texts.items():
        for name, secret in SECRETS.items():
            assert secret not in text, f"{name} leaked into {where}"
        assert HOME + "/secret-project" not in text, where
    for name, secret in SECRETS.items():
        assert secret not in proc.stdout + proc.stderr, name
    assert "~/secret-project/data.bin" in texts["logs/debug-run.stdout.txt"]
    data = json.loads(texts["bundle.json"])
    assert data["collected"]["env"]["env_vars"]["HF_TOKEN"] == "<redacted:env-secret>"
    assert data["collected"]["user_env"]["MY_API_TOKEN"] == "<redacted:env-secret>"
    issue = parse_issue(texts["issue.md"])
    assert [h for level, h in issue.headings if level == 3] == TORCH_SPYRE_SECTIONS
    assert not (tmp_path / "user.log").exists()  # SPYRE_LOG_FILE was redirected to a private file


def test_no_redact_keeps_everything(tmp_path):
    _, out = secret_bundle(tmp_path, "--no-redact")
    stdout = (out / "logs" / "debug-run.stdout.txt").read_text()
    for name in ("github", "hf", "aws", "env_secret"):
        assert SECRETS[name] in stdout, name
    assert json.loads((out / "bundle.json").read_text())["redacted"] is False


# --------------------------------------------------------------------------- --minimize

BLOATED = '''
import json
import os

CONFIG = {"a": 1, "b": 2}


def helper(x):
    return x * 2


def parse(text):
    return int(text)


values = [helper(i) for i in range(3)]
print(json.dumps(values), os.getcwd() is not None)
parse("not a number")
'''


def test_minimize_then_bundle(tmp_path):
    script = tmp_path / "p" / "bloated.py"
    script.parent.mkdir()
    script.write_text(BLOATED)
    out = tmp_path / "out"
    proc = cli(str(script), "--minimize", "--issue", "--no-ladder", "--template", "torch-spyre", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    data, text = load_bundle(out)
    minimized = (out / "reproducer" / "bloated.min.py").read_text()
    assert (out / "reproducer" / "original" / "bloated.py").read_text() == BLOATED
    assert len(minimized.splitlines()) < len(BLOATED.splitlines()) and "int(" in minimized
    assert data["collected"]["minimized"]["lines_after"] < data["collected"]["minimized"]["lines_before"]
    assert data["signature"]["exc_type"] == "ValueError"
    issue = parse_issue(text)
    assert_checklist_complete(issue)
    assert issue.checklist[0][0] and "minimized by reportkit" in issue.checklist[0][1]
    assert ("python", minimized) in section_fences(issue, "How can we reproduce it?")


# --------------------------------------------------------------------------- the compile-mismatch example (slow)


@pytest.mark.slow
def test_compile_stick_mismatch_example(tmp_path):
    torch = pytest.importorskip("torch")
    out = tmp_path / "tmp"
    # the Torch-Spyre form, asked for (--template auto would file it for the custom backend's owners)
    proc = cli(str(EX / "05_compile_stick_mismatch" / "check_stick_backend.py"), "--issue", "--template",
               "torch-spyre", "--out", str(out), timeout=1200)
    assert proc.returncode == 0, proc.stderr
    assert Path(str(out) + ".tar.gz").is_file()
    data, text = load_bundle(out)
    issue = parse_issue(text)
    assert [h for level, h in issue.headings if level == 3] == TORCH_SPYRE_SECTIONS
    assert_details_balanced(issue)
    assert_checklist_complete(issue)
    items = dict(zip(CHECKLIST_KEYS, issue.checklist))
    # real torch version + SHA, from the probe in the target interpreter
    assert items["pytorch"][0] and torch.__version__ in items["pytorch"][1]
    assert torch.version.git_version in items["pytorch"][1]
    env_section = issue.text.split("### Any environmental details we need to know?")[1].split("### ")[0]
    assert f"**PyTorch**: {torch.__version__} (torch.version.git_version `{torch.version.git_version}`)" in env_section
    # the fx_graph_readable.py excerpt of the failing graph: the clone lowered to slice + constant_pad_nd
    extra = section_fences(issue, "Anything else we need to know?")
    fx = [content for info, content in extra if info == "python" and "def forward" in content]
    assert fx and "torch.ops.aten.slice.Tensor" in fx[0] and "torch.ops.aten.constant_pad_nd.default" in fx[0]
    assert '"f16[65]"' in fx[0]
    # the backend ladder verdict
    ladder = data["collected"]["ladder"]
    assert {v["name"]: v["outcome"] for v in ladder["variants"]} == {
        "original": "fails", "no-dynamo": "passes", "eager": "passes", "aot_eager": "passes", "inductor": "passes"}
    assert "fails only with the custom backend `stick_backend`" in issue.text
    # (the whole ladder to Inductor: this is the slow suite's one full-ladder run)
    assert 'backend="aot_eager" and backend="inductor" all pass, so the bug is in that backend' in ladder["verdict"]
    assert "— spyre vs sendnn comparison not possible: torch_spyre is not installed" in items["sendnn"][1]
    assert "no Spyre device: sdsc not produced" in items["excerpts"][1]
    graphs = sorted(p.parent.name for p in (out / "artifacts" / "torch_compile_debug").glob("*/fx_graph_readable.py"))
    assert len(graphs) == 5 and data["collected"]["fx"]["selected"] == graphs[-1]


def test_pytest_target_bundle_with_minimize(tmp_path):
    """A pytest test as the target: pytest command, conftest.py kept, the standalone script shown."""
    root = tmp_path / "proj"
    (root / "tests").mkdir(parents=True)
    (root / "pytest.ini").write_text("[pytest]\n")
    (root / "conftest.py").write_text("import pytest\n\n\n@pytest.fixture\ndef limit():\n    return 3\n")
    (root / "tests" / "test_calc.py").write_text(textwrap.dedent("""
        import pytest


        def helper(values):
            return [v * 2 for v in values]


        def test_fine():
            assert helper([1]) == [2]


        @pytest.mark.parametrize("n", [1, 5])
        def test_limit(n, limit):
            assert len(helper(range(n))) <= limit, "too many values"
    """).lstrip())
    out = tmp_path / "bundle"
    proc = cli(str(root / "tests" / "test_calc.py") + "::test_limit[5]", "--issue", "--minimize", "--no-ladder",
               "--out", str(out), "--template", "pytorch")
    assert proc.returncode == 0, proc.stderr
    data, text = load_bundle(out)
    assert data["signature"]["exc_type"] == "AssertionError"
    assert (out / "reproducer" / "conftest" / "conftest.py").read_text() == (root / "conftest.py").read_text()
    assert (out / "reproducer" / "min_test_calc.py").is_file()
    standalone = (out / "reproducer" / "repro_test_calc.py").read_text()
    assert "test_limit(n=5, limit=_fx_limit)" in standalone
    assert "python tests/repro_test_calc.py" in text and "test_fine" not in standalone
    assert "tests/test_calc.py::test_limit[5]" in text  # the node id from the rootdir


# --------------------------------------------------------------------------- Torch-Spyre, with upstream-shaped fakes

FAKES = FIXTURES / "fake"  # torch_spyre (a PrivateUse1 "spyre" device) and torch_sendnn (the "sendnn" backend)
WRONG_RESULT = '''
import torch
import torch_spyre  # noqa: F401


def f(a, b):
    return a + b


x = torch.arange(8, dtype=torch.float32)
y = torch.ones(8)
out = torch.compile(f)(x.to("spyre", non_blocking=True), y.to("spyre", non_blocking=True)).cpu()
torch.testing.assert_close(out, x + y, atol=1e-3, rtol=1e-3)
'''


# One fault end to end (a full bundle: ~5 min of torch.compile runs each): the comparison's other families run
# for real through collect (test_collect.py's slow spyre tests) and every finding is judged + rendered into
# issue.md (test_render.py::test_comparison_findings_follow_upstreams_helpers).
@pytest.mark.slow
@pytest.mark.corpus  # (the rest of its family: test_collect.py's differ test is the one CI runs)
def test_bundle_issue_gives_one_verdict(tmp_path):
    """FAKE_SPYRE_FRONTEND_BUG: sendnn right, Torch-Spyre wrong. issue.md follows the form, has one verdict
    (ladder and comparison agree), the reproducer inline, under 8,000 characters."""
    pytest.importorskip("torch")
    from reportkit.report import spyre

    script = tmp_path / "repro" / "wrong_result.py"
    script.parent.mkdir()
    script.write_text(WRONG_RESULT)
    out = tmp_path / "b"
    proc = cli(str(script), "--issue", "--out", str(out), timeout=1800,
               env={"PYTHONPATH": str(FAKES), "FAKE_SPYRE_FRONTEND_BUG": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    data, text = load_bundle(out)
    issue = parse_issue(text)
    assert [h for level, h in issue.headings if level == 3] == TORCH_SPYRE_SECTIONS
    items = dict(zip(CHECKLIST_KEYS, issue.checklist))
    assert items["sendnn"][0] and f"— {spyre.FRONT_END}: " in items["sendnn"][1]
    comparison = data["collected"]["spyre_comparison"]
    assert comparison["stage"] == spyre.FRONT_END
    assert [(v["name"], v["outcome"]) for v in comparison["variants"]] == [
        ("spyre_vs_sendnn", "fails"), ("spyre_vs_cpu", "fails"), ("sendnn_vs_cpu", "passes")]
    # the whole bundle (collect_env, the graphs, the ladder, the comparison, the OpSpec capture): one verdict,
    # within 8,000 characters; what is long is in the bundle and named (collect_env, output_code.py, the logs)
    assert len(text) <= 8000, len(text)
    assert text.count("**Verdict:**") == 1 and "not a compiler bug" not in text
    assert "`env/collect_env.txt`" in text and "GCC version" not in text
    assert "reportkit-session" not in text and "/run-" not in text  # no scratch paths (the graph's "# File:")
    assert "`python tests/op_specs/capture.py wrong_result.py --out captured/`" in text
    assert "out = torch.compile(f)(x.to(\"spyre\", non_blocking=True)" in text  # the reproducer inline
    assert re.search(r"(?m)^\s*verdict\s+\S", proc.stdout), proc.stdout  # the summary: one verdict row
    assert not re.search(r"(?m)^\s*(ladder|sendnn)\s{2,}", proc.stdout), proc.stdout
    assert (out / "logs" / "ladder" / "spyre-vs-sendnn.stderr.txt").is_file()
