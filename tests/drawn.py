"""Values drawn per run for the redaction tests of the blind rounds: no fixed string can make them pass."""

from __future__ import annotations

import secrets
import string

from reportkit import redact


def drawn(n: int) -> str:
    """A drawn value that reads as random (``looks_random``, the make-up the rules ask of a value): these tests are
    about where a value stands (a cell, after a prefix, after an option), not about telling random from words. (About
    3 in 100 draws of 24 letters and digits do not read as random, ``ugHIDtL9L10caTTBgzpsuce7``: without this the
    tests failed on such a draw, now and then.)"""
    alphabet = string.ascii_letters + string.digits
    while True:
        value = "".join(secrets.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value) and any(c.islower() for c in value) \
                and redact.looks_random(value):
            return value


def mixed(n: int) -> str:
    """Letters of both cases and digits, drawn (a passphrase's or a key's part; short ones too: no randomness asked)."""
    alphabet = string.ascii_letters + string.digits
    while True:
        value = "".join(secrets.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.islower() for c in value) and any(c.isupper() for c in value):
            return value
