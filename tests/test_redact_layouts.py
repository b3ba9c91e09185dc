"""Credentials a layout puts away from their name, and names the code rules did not know (round 11 of planted
secrets, read by the lead: not blind): a YAML value on the line below its name pasted into comment lines (a block
of comment lines is one text), gdb's ``password=0x55d4a1f0 "<value>"`` (an address is no value), a password
prompt's answer on the next line (expect's ``send``, pexpect's ``sendline``), a pickled dict's value (protocol 0),
``storage_key=`` inside a code string (a key a qualifier names), and vendor shapes (Axiom, E2B, Daytona, Stytch).
Each positive case has a lookalike beside it that stays."""

from __future__ import annotations

import ast

import pytest
from test_redact_prose_forms import _drawn

from reportkit.redact import redact_code, redact_text

PICKED = "Juniper886#Qsto11"
DRAWN = _drawn(36, seed=23)
HEX40 = "9c1185a5c5e9fc54612808977ee8f548b2258d31"
HEX64 = "e6c292406e654eb85c6c75f70615374717939dc4cfa715d66f0d290d09010cd8"
UUID = "72ffdd50-1c2b-4d3e-9f10-5a6b7c8d9e0f"


def test_a_yaml_value_below_its_name_in_comment_lines_goes_and_the_code_parses():
    src = f"import os\n# smtp:\n#   host: mail.acme.io\n#   password:\n#     {PICKED}\n#   port: 587\nx = 1\n"
    out = redact_code(src)
    assert PICKED not in out and "#     <redacted:secret>\n" in out, out
    assert "#   host: mail.acme.io" in out and "#   port: 587" in out
    ast.parse(out)


def test_comment_lines_apart_are_not_one_text():
    """A name on one comment line and a value in a comment after code: no block (the value is a setting's)."""
    src = "# password:\nx = 1\n#     Juniper886\n"
    assert redact_code(src) == src


def test_a_key_block_in_comment_lines_stays_comments():
    """A private key pasted into comment lines: each line keeps its ``#`` (it was a syntax error, then the whole
    lines became ``<redacted>``), the marker stands in the first."""
    body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    src = (f"# -----BEGIN OPENSSH PRIVATE KEY-----\n# {body}\n# {body[::-1]}\n# -----END OPENSSH PRIVATE KEY-----\n"
           "y = 2\n")
    out = redact_code(src)
    assert body not in out and body[::-1] not in out
    assert out.splitlines()[0] == "# <redacted:private-key>" and out.splitlines()[1:] == ["#", "#", "#", "y = 2"], out
    ast.parse(out)


GDB = 'in auth_login (user=0x55d4a1e0 "svc-etl", {name}=0x55d4a1f0 "{value}") at auth.c:42'


@pytest.mark.parametrize("redact", [lambda t: redact_text(t, home=""), lambda t: redact_code(f"NOTE = '{t}'\n")])
def test_gdb_frame_string_argument(redact):
    out = redact(GDB.format(name="password", value=PICKED))
    assert PICKED not in out and 'password=0x55d4a1f0 "<redacted:secret>"' in out, out
    lookalike = GDB.format(name="path", value="/etc/acme/login.cfg")
    assert "/etc/acme/login.cfg" in redact(lookalike) and "0x55d4a1f0" in redact(lookalike)


def test_an_address_after_a_secrets_name_is_no_value():
    assert redact_code("NOTE = 'token=0x7ffd2b1c4e08 freed'\n") == "NOTE = 'token=0x7ffd2b1c4e08 freed'\n"


@pytest.mark.parametrize("text", [
    f'spawn ssh svc@bastion\nexpect "password:"\nsend "{PICKED}\\r"\ninteract',
    f"child.expect('Password: ')\nchild.sendline('{PICKED}')",
    f'expect -exact "Enter passphrase for key:"\nsend -- "{PICKED}\\r"',
])
def test_a_password_prompts_answer_goes(text):
    out = redact_text(text, home="")
    assert PICKED not in out and "<redacted:secret>" in out, out


@pytest.mark.parametrize("text", [
    'expect "password:"\nsend "$pw\\r"',  # a variable
    'expect "login:"\nsend "svc-etl\\r"',  # not a password's prompt
    'expect "password:"\nsend "yes\\r"',  # a word
    f'send "{PICKED}\\r"\nexpect "password:"',  # the answer before the prompt
])
def test_a_prompts_lookalikes_stay(text):
    assert redact_text(text, home="") == text


def test_a_pickled_dicts_secret_goes_its_other_values_stay():
    pickled = f"b'(dp0\\nVuser\\np1\\nVsvc-etl\\np2\\nsVpassword\\np3\\nV{PICKED}\\np4\\ns.'"
    out = redact_text(pickled, home="")
    assert out == pickled.replace(PICKED, "<redacted:secret>"), out
    plain = pickled.replace("Vpassword", "Vmode")
    assert redact_text(plain, home="") == plain


@pytest.mark.parametrize("name, secret", [("storage_key", True), ("signing_key", True), ("cache_key", False),
                                          ("sort_key", False)])
def test_a_key_a_qualifier_names_inside_a_code_string(name, secret):
    src = f"NOTE = 'shard fetch refused: {name}={DRAWN}'\n"
    out = redact_code(src)
    assert (DRAWN not in out) is secret, out


@pytest.mark.parametrize("token, kind", [
    (f"xaat-{UUID}", "axiom-token"), (f"xapt-{UUID}", "axiom-token"), (f"e2b_{HEX40}", "e2b-api-key"),
    (f"dtn_{HEX64}", "daytona-api-key"), (f"secret-live-{_drawn(36, seed=4)}", "stytch-secret"),
])
def test_vendor_shapes_in_text_and_code(token, kind):
    assert redact_text(f"dataset ingest -> {token}", home="") == f"dataset ingest -> <redacted:{kind}>"
    assert redact_code(f'X = "{token}"\n') == f'X = "<redacted:{kind}>"\n'


@pytest.mark.parametrize("text", [
    f"model-{HEX40}", f"e2b_{HEX40[:12]}", f"request {UUID}", f"dtn_{HEX40}", "secret-live-reload",
])
def test_vendor_lookalikes_stay(text):
    assert redact_code(f'X = "{text}"\n') == f'X = "{text}"\n'
