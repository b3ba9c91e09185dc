"""Calls whose positional arguments are not credentials, next to the signature table of reportkit.redact (the
credentials it names are tested with the other authenticating calls in test_redact_calls.py)."""

import re

import pytest

from reportkit.redact import redact_code, redact_text


@pytest.mark.parametrize("line", [
    'h = hashlib.new("sha256", payload)',  # hashlib.new's first argument is the algorithm
    'c = client("s3", region_name="eu-west-1")',  # an unqualified client(): not boto3's signature
    'token = jwt.encode(payload, "changeme", algorithm="HS256")',  # a word, not a credential
    'mac = hmac.new(key_bytes, body, hashlib.sha256)',  # a name, not a literal
    'enc = json.encoder.JSONEncoder(indent=2).encode(Tz5Gm1Qw8Rb3Xn6Kd9Ls2Hv7Jc4Pf0Ay)',
])
def test_calls_whose_arguments_are_not_credentials_are_kept(line):
    source = f"{line}\n"
    assert redact_code(source, env={}) == source
    # (text's drawn-token rule may take a random-looking argument; no call rule may)
    out = redact_text(line, env={}, home="")
    assert set(re.findall(r"<redacted:([\w-]+)>", out)) <= {"random"}
