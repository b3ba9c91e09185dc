"""Redaction of secrets in HTTP headers of any vendor's name and in NAME=value items of a list's repr
(a traceback's locals, a printed argv or environment list); what must stay."""

from __future__ import annotations

import random
import string

import pytest

from reportkit.redact import redact_code, redact_text

RNG = random.Random()


def _r(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


@pytest.mark.parametrize("name", ["X-Vendor-Key", "Apim-Subscription-Key", "X-Service-Secret", "X-Session-Token",
                                  "Fastly-Key"])
@pytest.mark.parametrize("shape", ["{name}: {value}", "{{'{name}': '{value}'}}", '"{name}":"{value}"'])
def test_a_keyed_header_of_any_name_is_redacted(name, shape):
    value = _r(8, "0123456789abcdef") + _r(24)
    text = "request headers " + shape.format(name=name, value=value)
    out = redact_text(text, home="")
    assert value not in out and name in out, out


@pytest.mark.parametrize("line", ["Idempotency-Key: 5d41402a-bc4b-2a76-b971-9d911017c592",
                                  "Sec-WebSocket-Key: x3JJHMbDL1EzLkh9GBhXDw==",
                                  "the primary-key: customer_identifier", "cache-key: model_weights_v2_final",
                                  "Public-Key: ssh-ed25519"])
def test_headers_that_hold_no_secret_stay(line):
    assert redact_text(line, home="") == line


def test_a_keyed_header_in_code_keeps_the_code_parsing():
    value = _r(32)
    out = redact_code(f"headers = {{'X-Vendor-Key': '{value}'}}\n")
    assert value not in out
    compile(out, "<redacted>", "exec")


@pytest.mark.parametrize("name", ["CI_JOB_TOKEN", "SERVICE_PASSWORD", "REGISTRY_AUTH", "HF_TOKEN"])
@pytest.mark.parametrize("quote", ["'", '"'])
def test_name_value_items_of_a_list_repr_are_redacted(name, quote):
    value = _r(26)
    text = f"env = [{quote}HOME=/home/u{quote}, {quote}{name}={value}{quote}, {quote}LANG=C{quote}]"
    out = redact_text(text, home="")
    assert value not in out and f"{quote}{name}=" in out and "LANG=C" in out and "HOME=/home/u" in out, out


def test_ordinary_name_value_items_of_a_list_repr_stay():
    text = "argv = ['MODEL_NAME=bert-base', 'EPOCHS=3', 'RUN=Exp#12_A']"
    assert redact_text(text, home="") == text
