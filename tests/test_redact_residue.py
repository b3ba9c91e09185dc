"""Redaction residue of the blind round 4 (issue 35): the general causes, each with values of its own (none of
any benchmark's)."""

import shlex

import pytest

from reportkit.redact import argv_secrets, is_secret_env, redact_code, redact_text

# ---------------------------------------------------------------- values of the environment under neutral names

PICKED = "Marlinmaple582^Tkw"  # a password a person picked: words, digits, a symbol


@pytest.mark.parametrize("value", [
    PICKED,
    "c0ffee5e7d1b4a2f9e8d7c6b5a4f3e2d1c0b9a8f",  # 40 hex digits: an API key's usual shape
    "5b0e7c1d-93a2-4f6e-8b1c-d2e3f4a5b6c7",  # a UUID: a CI token's
])
def test_a_neutral_variable_holding_a_credential_is_withheld_and_known(value):
    env = {"APP_SETTING_7": value}
    assert is_secret_env("APP_SETTING_7", value)
    out = redact_text(f"the script printed {value} and {value}!", env=env, home="")
    assert value not in out and "<redacted:" in out


@pytest.mark.parametrize("name,value", [
    ("BUILD_COMMIT_SHA", "c0ffee5e7d1b4a2f9e8d7c6b5a4f3e2d1c0b9a8f"),  # a digest: its name says so
    ("JOB_INVOCATION_ID", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"),
    ("RUN_LABEL", "Exp#12_A"),  # short, a label
    ("RUN_TAG", "nightly#2026-03-14"),  # a date, not a password's digits
    ("RELEASE", "v3.1.4-rc2#7"),
    ("LC_ALL", "en_US.UTF-8"),
    ("TERM", "xterm-256color"),
    ("QUERY", "lr=0.1&bs=32&warmup=100"),
])
def test_settings_identifiers_and_digests_stay(name, value):
    assert not is_secret_env(name, value)
    assert redact_text(f"x {value} y", env={name: value}, home="") == f"x {value} y"


def test_a_picked_password_among_the_arguments_is_known():
    argv = ["-x", "-D", "cn=svc,dc=corp", "-w", PICKED, "--run-name", "Exp#12_A"]
    found = argv_secrets(argv)
    assert PICKED in found and "Exp#12_A" not in found


def test_a_known_value_shell_quoted_into_a_command_line_is_redacted_whole():
    value = "Marlin482*tw\\'Qz7Kd"  # a quote inside: shlex writes '...'"'"'...'
    command = shlex.join(["python", "job.py", "--db-pass", value])
    out = redact_text(command, extra={value: "secret-argument"}, home="")
    assert "Qz7Kd" not in out and "Marlin482" not in out


def test_code_keeps_parsing_with_a_known_picked_password():
    source = f'PW = "{PICKED}"\nprint(PW)\n'
    out = redact_code(source, env={"APP_SETTING_7": PICKED}, home="")
    assert PICKED not in out
    compile(out, "x.py", "exec")
