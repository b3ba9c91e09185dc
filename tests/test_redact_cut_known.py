"""A known value cut (blind secrets round 33b's derived forms): a drawn token's first 24 characters in a log, its
last 16 as "ending in", the token in upper case — each says most of the secret, each is redacted where the whole
would be. A written value (a password of words, a URL) is not cut: its parts are other texts' too."""

from __future__ import annotations

import secrets
import string

import pytest

from reportkit import redact

ALNUM = string.ascii_letters + string.digits


def _token() -> str:
    while not redact.looks_random(body := "".join(secrets.choice(ALNUM) for _ in range(36))):
        pass
    return "ghp_" + body


@pytest.mark.parametrize("form", [
    lambda v: v[:24], lambda v: v[:v.find("_") + 13], lambda v: v[-16:], lambda v: v[-12:], lambda v: v.upper(), lambda v: v.lower(),
], ids=["prefix24", "prefix12-after-the-vendors-word", "suffix16", "suffix12", "upper", "lower"])
@pytest.mark.parametrize("kind", ["token", "hex"])
def test_a_drawn_values_cut_or_case_is_redacted(form, kind):
    value = _token() if kind == "token" else secrets.token_hex(20)
    shown = form(value)
    out = redact.redact_text(f"using key {shown}... for the upload\n", env={"UPLOAD_TOKEN": value})
    assert shown not in out and "<redacted" in out


def test_a_short_prefix_that_names_a_key_stays():
    value = _token()
    text = f"using key {value[:8]}...\n"
    assert redact.redact_text(text, env={"UPLOAD_TOKEN": value}) == text


def test_a_written_values_parts_stay():
    """A password of words and a URL are not drawn: their first 12 characters are words and a scheme."""
    env = {"DB_PASSWORD": "correct-horse-battery-staple-2024", "SERVICE_URL": "https://internal.example.com/api/v2/jobs"}
    text = "correct-horse-battery was the example; see https://internal.example.com/docs\n"
    assert redact.redact_text(text, env=env) == text


def test_another_key_of_the_same_vendor_is_not_cut_by_a_known_ones_prefix():
    """A known ``github_pat_11…`` and another one in the same log: the known one's first characters are the
    vendor's words and a digit the other shares, which must not cut the other before its own rule reads it."""
    known = "github_pat_11" + "".join(secrets.choice(ALNUM) for _ in range(70))
    other = "github_pat_11" + "".join(secrets.choice(ALNUM) for _ in range(70))
    out = redact.redact_text(f"old {known}\nnew {other}\n", env={"GH_TOKEN": known})
    assert known[13:] not in out and other[13:] not in out
