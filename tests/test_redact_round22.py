"""Redaction after the blind round 22 of planted secrets (72 formats; read by the lead, not blind): the general
causes, each with values of its own. A drawn value after a name whose last word is KEY whatever word is before it
(an integration's ``routing_key``), a registry login's ``-p=PW`` and ``--password=PW``, a table whose header line
starts with a message's lead; and what stays: a word of prose after an option's name (Docker's warning), an id
after its name inside a line that says "token", an ARN in a normalized message, and a base85 blob in code (a
stretch of it looked like a vendor's token: the reproducer no longer decoded)."""

from __future__ import annotations

import ast
import base64
import os
import random
import string
import zlib

import pytest

from reportkit.redact import redact_code, redact_text

_RNG = random.Random(2212)
HEX32 = "".join(_RNG.choice("0123456789abcdef") for _ in range(32))
UPPER64 = "".join(_RNG.choice(string.ascii_uppercase + string.digits) for _ in range(64))
UPPER36 = "".join(_RNG.choice(string.ascii_uppercase + string.digits) for _ in range(36))
MIXED24 = "".join(_RNG.choice(string.ascii_letters + string.digits) for _ in range(24))


@pytest.mark.parametrize("text", [
    f'rejected: {{"routing_key": "{HEX32}", "event_action": "trigger"}}',
    f"routing_key={HEX32}",
])
def test_a_drawn_value_after_a_routing_key_goes(text):
    assert HEX32 not in redact_text(text, home="")


def test_a_routing_key_of_words_stays():
    text = 'publish(exchange="events", routing_key="orders.created.eu")'
    assert redact_text(text, home="") == text


@pytest.mark.parametrize("text", [
    f'+ docker login -u="acme+ci_robot" -p="{UPPER64}" quay.io',
    f"+ docker login -u=acme+ci_robot -p={UPPER64} quay.io",
    f"podman login --password={UPPER64} registry.example.com",
])
def test_a_registry_login_password_after_an_equals_sign_goes(text):
    out = redact_text(text, home="")
    assert UPPER64 not in out and ("quay.io" in out or "registry.example.com" in out)


@pytest.mark.parametrize("lead", ["", "[P0396] ", "RuntimeError: [P0396] ", "config: "])
def test_a_secret_column_goes_when_the_header_line_starts_with_a_message(lead):
    text = f"{lead}NAME,PROVIDER,API_KEY\nprimary,vultr,{UPPER36}\nbackup,vultr,none"
    out = redact_text(text, home="")
    assert UPPER36 not in out and "backup,vultr,none" in out and out.startswith(f"{lead}NAME,PROVIDER,API_KEY")


@pytest.mark.parametrize("text", [
    f"2026-12-01 10:25:41,630 WARNING app.pipeline: [P7] NAME,PROVIDER,API_KEY\nprimary,vultr,{UPPER36}\nbackup,x,none",
    f"{{'tag': 'P7', 'payload': 'NAME,PROVIDER,API_KEY\\nprimary,vultr,{UPPER36}\\nbackup,vultr,none'}}",
    f'{{"payload": "NAME,PROVIDER,API_KEY\\nbackup,vultr,none\\nprimary,vultr,{UPPER36}"}}',
])
def test_a_secret_column_goes_after_a_log_lines_lead_and_inside_a_string(text):
    """A log line's time has a comma (``10:25:41,630``) that is no column; a table inside a repr'd or JSON string
    has escaped line breaks, and its last row ends at the string's quote (which stays)."""
    out = redact_text(text, home="")
    assert UPPER36 not in out and "<redacted:" in out
    assert out.count("'") == text.count("'") and out.count('"') == text.count('"')


@pytest.mark.parametrize("join", [" ; ", " | "])
def test_a_secret_column_goes_when_the_rows_are_joined_into_one_line(join):
    """A one-line failure message (``ci`` reads JUnit's) holds the table with its line breaks made `` ; ``: the
    rows of the CSV are still rows (the 22nd round's last leak). A table of ``;``-separated columns stays one."""
    text = (f"AssertionError: remote config rejected: [P1] region = us-east | [P7] NAME,PROVIDER,API_KEY{join}"
            f"primary,vultr,{UPPER36}{join}backup,vultr,none | [P8] [DEFAULT] ; user=ml")
    out = redact_text(text, home="")
    assert UPPER36 not in out and out == text.replace(UPPER36, "<redacted:secret>"), out
    steps = "RuntimeError: step,loss,lr ; 1,0.53,0.001 ; 2,0.41,0.001"
    assert redact_text(steps, home="") == steps


def test_a_table_without_a_secret_column_after_a_lead_stays():
    text = "RuntimeError: [P7] step,loss,lr\n1,0.53,0.001\n2,0.41,0.001"
    assert redact_text(text, home="") == text


@pytest.mark.parametrize("text", [
    "WARNING! Using --password via the CLI is insecure. Use --password-stdin.",
    "pass --token with the value the admin gave you",
])
def test_a_word_of_prose_after_a_secret_option_stays(text):
    assert redact_text(text, home="") == text


def test_a_value_after_a_secret_option_still_goes():
    assert "hunter2x" not in redact_text("mytool --password hunter2x --verbose", home="")


def test_an_id_after_its_name_stays_on_a_line_that_says_token():
    text = f"oauth: access token refreshed (expires_in=3600) request_id=req_{MIXED24}"
    assert redact_text(text, home="") == text
    # a session's id is a secret
    assert MIXED24 not in redact_text(f"access token refreshed session_id=req_{MIXED24}", home="")


def test_an_arn_in_a_normalized_message_stays():
    """A signature's message writes its numbers as N: the ARN's shape holds with them."""
    for text in ("arn:aws:secretsmanager:us-east-N:N:secret:prod/ml/db-AbCdEf",
                 "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/ml/db-AbCdEf"):
        assert redact_text(text, home="") == text


def test_a_base85_blob_in_code_is_left_whole():
    """Random base85 data (``base64.b85encode(zlib.compress(...))``): before, about one blob in seven had a stretch
    that read as a word, ``_`` and a drawn body, and the reproducer's data no longer decoded."""
    rng = random.Random(85)
    for _ in range(60):
        blob = base64.b85encode(zlib.compress(bytes(rng.randrange(256) for _ in range(3000)))).decode()
        src = f"import base64, zlib\nDATA = zlib.decompress(base64.b85decode({blob!r}))\n"
        out = redact_code(src, home="")
        assert out == src
        ast.parse(out)


def test_a_vendor_token_beside_a_blob_still_goes():
    token = "acme_" + MIXED24
    src = f"KEY = {token!r}\nDATA = {base64.b85encode(os.urandom(300)).decode()!r}\n"
    assert token not in redact_code(src, home="")


# base32 of a token (round 22 left it "not promised": hex and base64 of a credential's text were read, base32 not)
_TOKENS = ["glpat-" + MIXED24[:20], "ghp_" + MIXED24 + "Zq81Kd3m0Pa7", "xoxb-" + HEX32[:12] + "-" + MIXED24]


@pytest.mark.parametrize("token", _TOKENS)
@pytest.mark.parametrize("pad", [True, False], ids=["padded", "unpadded"])
def test_base32_of_a_token_goes_in_text_and_code(token, pad):
    encoded = base64.b32encode(token.encode()).decode()
    encoded = encoded if pad else encoded.rstrip("=")
    assert encoded.rstrip("=")[:16] not in redact_text(f"cache blob (b32): {encoded}\n", home="")
    code = f'BLOB = "{encoded}"\nprint(base64.b32decode(BLOB))\n'
    out = redact_code(code)
    assert encoded.rstrip("=")[:16] not in out
    ast.parse(out)


@pytest.mark.parametrize("text", [
    "SOME_CONSTANT_NAME ABCDEFGHIJKLMNOPQRSTUVWXYZ",  # upper-case letters without base32's digits
    base64.b32encode(b"/usr/lib/python3.11/site-packages").decode(),  # base32 of a path: no credential
    base64.b32encode(b"hello world, how are you").decode(),  # of prose
    base64.b32encode(zlib.compress(b"x" * 64)).decode(),  # of binary data
    "AAAAQAAAAEAAAAAA2222AAAAZZZZ7777",  # a run of base32's alphabet that decodes to no text
])
def test_base32_of_anything_but_a_credential_stays(text):
    assert redact_text(f"blob: {text}\n", home="") == f"blob: {text}\n"
