"""Round 32 (a blind tester's planted secrets, 100 items over every channel): a multi-line secret a logger wrote one
line per record behind its lead (Torch-Spyre's ``[INFO] [torch_spyre] ``, glog's, logging's timestamps), ``aws
configure``'s transcript, and the ordinary values the rules took (a count of tokens, a commit's id, a line cut at the
terminal's width, the next record's timestamp), and two different literals that redaction made equal. Values are
drawn per run."""

from __future__ import annotations

import ast
import base64
import itertools
import secrets

import pytest
from drawn import mixed as _drawn

from reportkit import redact

_STAMPS = itertools.count(100)
LEADS = [
    "[INFO] [torch_spyre] ",  # Torch-Spyre's logging
    "I1203 07:05:33.{:06d}  4242 worker.cc:88] ",  # glog (PyTorch's C++ logs)
    "2026-12-03 07:09:56,{:03d} INFO app: ",  # logging's asctime levelname name
]


def _logged(lines: list[str], lead: str) -> str:
    return "".join(lead.format(next(_STAMPS) % 1000) + line + "\n" for line in lines)


def _key_lines() -> list[str]:
    body = base64.b64encode(secrets.token_bytes(48 * 4)).decode()
    return [body[i:i + 64] for i in range(0, len(body), 64)]


@pytest.mark.parametrize("lead", LEADS)
@pytest.mark.parametrize("label", ["RSA PRIVATE KEY", "OPENSSH PRIVATE KEY", "PRIVATE KEY"])
def test_a_key_logged_line_by_line_behind_a_lead_goes_whole(lead, label):
    body = _key_lines()
    text = _logged([f"-----BEGIN {label}-----", *body, f"-----END {label}-----"], lead)
    out = redact.redact_text(text, home="")
    assert not any(line[:16] in out for line in body), out
    # every record keeps its lead (the marker took no next line's timestamp)
    n = len(lead.format(0))
    assert [line[:n] for line in out.splitlines()] == [line[:n] for line in text.splitlines()], out


@pytest.mark.parametrize("lead", LEADS)
def test_a_netrc_and_a_prompts_answer_logged_behind_a_lead(lead):
    password, answer = _drawn(16), _drawn(9) + "!" + _drawn(4)
    out = redact.redact_text(_logged(["machine registry.acme.io", "login ci-bot", f"password {password}"], lead)
                             + _logged(["Password:", answer], lead), home="")
    assert password not in out and answer not in out, out
    assert "machine registry.acme.io" in out and "login ci-bot" in out
    assert out.count("2026-12-03") == (5 if lead.startswith("2026") else 0)  # (no timestamp taken for an answer)


def test_records_that_share_a_lead_and_hold_nothing_stay():
    text = _logged(["epoch 1 loss 0.231", "epoch 2 loss 0.198", "checkpoint saved to runs/exp-3/ckpt.pt"], LEADS[2])
    assert redact.redact_text(text, home="") == text


@pytest.mark.parametrize("bracket", ["[None]", "[****************x9Zq]"])
def test_aws_configures_transcript(bracket):
    key = base64.b64encode(secrets.token_bytes(30)).decode().replace("=", "")[:38] + "+/"
    line = f"AWS Secret Access Key {bracket}: {key}"
    assert key not in redact.redact_text(f"AWS Access Key ID [None]: AKIAC6NGGMLSXQJ0U3S6\n{line}\n", home="")
    code = f"print({line!r})\n"
    written = redact.redact_code(code, home="")
    assert key not in written and ast.parse(written)


@pytest.mark.parametrize("text", ["invalid generation config: max_tokens=4096\u2026",
                                  "RuntimeError: bad config: num_tokens=512\u2026"])
def test_a_line_cut_at_the_terminals_width_keeps_its_number(text):
    assert redact.redact_text(text, home="") == text


@pytest.mark.parametrize("name, value, secret", [
    ("MAX_TOKENS", "4096", False), ("PAD_TOKEN_ID", "50256", False), ("TOKENS_PER_SECOND", "30.5", False),
    ("API_TOKEN", "4096", True), ("DB_PASSWORD", "123456", True), ("MAX_TOKENS", None, True),
])
def test_a_count_or_an_id_of_tokens_is_no_token(name, value, secret):
    value = _drawn(20) if value is None else value  # (drawn here: xdist's workers must collect the same ids)
    assert redact.holds_named_secret(name, value) is secret


@pytest.mark.parametrize("name, shown", [
    ("GIT_COMMIT", True), ("REQUEST_ID", True), ("HF_SNAPSHOT_SHA", True), ("OTEL_TRACE_ID", True),
    ("MODEL_NAME", True), ("CKPT_DIR", True), ("SHIP", False), ("DEPLOY", False),
    ("DB_PASSWORD_FILE", True),  # (where the password is: a location, as the scrubbed environment reads it too)
])
def test_an_env_value_named_an_identifier_is_shown(name, shown):
    value = secrets.token_hex(20)
    assert redact.override_known(value, name) is not shown
    assert redact.override_known(value) is True  # (nameless: a drawn value is known)


def test_different_literals_redacted_whole_stay_different():
    a, b = _drawn(16), _drawn(16)
    source = (f'SMTP_PASSWORD_A = "smtp:\\n  pass: {a}\\n"\nSMTP_PASSWORD_B = "smtp:\\n  pass: {b}\\n"\n'
              f'SMTP_PASSWORD_C = "smtp:\\n  pass: {a}\\n"\nassert SMTP_PASSWORD_A != SMTP_PASSWORD_B\n')
    out = redact.redact_code(source, home="")
    assert a not in out and b not in out
    ns: dict = {}
    exec(compile(out, "<redacted>", "exec"), ns)  # (the comparison still holds: it raised nothing)
    assert ns["SMTP_PASSWORD_A"] == ns["SMTP_PASSWORD_C"] != ns["SMTP_PASSWORD_B"]


def test_a_key_quoted_in_comments_behind_a_lead_goes_whole():
    """The same round's key, written as comments behind the lead ``# [P09] `` into a compiled graph's artifact."""
    body = _key_lines()
    source = ("import torch\n" + "".join(f"# [P09] {line}\n" for line in
                                       ["-----BEGIN RSA PRIVATE KEY-----", *body, "-----END RSA PRIVATE KEY-----"])
              + "x = 1\n# [log] epoch 1 loss 0.2\n# [log] epoch 2 loss 0.1\n")
    out = redact.redact_code(source, home="")
    assert not any(line[:16] in out for line in body) and ast.parse(out)
    assert "# [log] epoch 1 loss 0.2\n# [log] epoch 2 loss 0.1\n" in out


def test_a_key_logged_in_the_middle_of_a_long_log_goes_whole():
    """Thousands of records behind one lead (a debug run's log): the key's lines are read where it starts."""
    body = _key_lines()
    lines = [f"step {n} loss 0.{n:04d}" for n in range(2000)]
    lines[1000:1000] = ["-----BEGIN RSA PRIVATE KEY-----", *body, "-----END RSA PRIVATE KEY-----"]
    out = redact.redact_text(_logged(lines, LEADS[2]), home="")
    assert not any(line[:16] in out for line in body)
    assert "step 1999 loss 0.1999" in out
