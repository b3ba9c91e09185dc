"""Credentials in forms a failure message, a warning or a config file gives them (blind round 8 of planted
secrets): a password's word and a picked password in a sentence, ``credential`` or a name ending in a secret's
word (``cos_hmac_secret``) before a drawn value, keytool's password options in a list's repr
(``CalledProcessError``), a YAML block scalar under a secret's name, cloud SDK clients that take their key by
position (documented signatures). Each
positive case has a lookalike beside it that stays."""

from __future__ import annotations

import random
import string

import pytest

from reportkit.redact import redact_text


def _drawn(n: int, alphabet: str = string.ascii_letters + string.digits, seed: int = 7) -> str:
    """A value drawn like a key (letters of both cases and digits), the same on every run."""
    rng = random.Random(seed)
    while True:
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value) and any(c.islower() for c in value):
            return value


PICKED = "Harbor417!Kqzv53"
DRAWN = _drawn(36)
BLOCK = _drawn(46, string.ascii_letters + string.digits + "+/")
HEX48, HEX32 = "5f0c" * 12, "a17e" * 8


@pytest.mark.parametrize("text, secret", [
    (f"ConnectionError: login failed for svc-backup with password {PICKED}", PICKED),
    (f"the passphrase is {PICKED}.", PICKED),
    (f"UserWarning: mirror rejected credential {DRAWN}; falling back", DRAWN),
    (f"Command '['keytool', '-importkeystore', '-srcstorepass', '{PICKED}']' returned non-zero exit status 1.",
     PICKED),
    (f"vault:\n  unseal_key: |\n    {BLOCK}\n  threshold: 3", BLOCK),
    (f"secret_value: >-\n  {BLOCK}\n", BLOCK),
    (f"cos_hmac_secret {HEX48}", HEX48),
    (f"client = twilio.rest.Client(account_sid, '{HEX32}')", HEX32),
    (f"index = SearchClient.create('LATENCY', '{HEX32}')", HEX32),
    (f"cred = credential.Credential(secret_id, '{DRAWN}')", DRAWN),
])
def test_a_credential_in_these_forms_goes(text, secret):
    out = redact_text(text, home="")
    assert secret not in out and "<redacted:" in out, out


@pytest.mark.parametrize("text", [
    "the password reset link expired; token count 42; a credential check failed",
    "password hashing with bcrypt is slow; password Exp#12_A stays; password run#2024-11-29",
    "credentials file not found; credential helper osxkeychain",
    "Command '['keytool', '-list', '-v', '-alias', 'upload']' returned non-zero exit status 1.",
    "description: |\n  A model card\n  with two lines\nkey_points: >-\n  fast\ntoken_notes: |\n  see_the_docs_for_details\n",
    f"checksum: |\n  {'ab' * 32}\n",
    f"commit_sha {'5f0c' * 10} and max_token 4096, cache_secret_sauce recipe",
    "client = Client(account_sid, region)",
])
def test_their_lookalikes_stay(text):
    assert redact_text(text, home="") == text


@pytest.mark.parametrize("argv", [
    ["--image", f"python@sha256:{'9f3a' * 16}"],
    [f"pytorch/pytorch@sha256:{'9F3A' * 16}"],
    ["--require-hashes", f"--hash=sha256:{'0b1c' * 16}"],
])
def test_a_content_digest_in_the_arguments_is_no_credential(argv):
    """``NAME@sha256:<hex>`` (an image pinned by digest) split at ``:`` looked like a user and a password."""
    from reportkit.redact import argv_secrets

    assert argv_secrets(argv) == {}
    assert argv_secrets(["--login", "ci-bot:" + PICKED]) != {}  # a user and a password stay one


@pytest.mark.parametrize("text, changed", [
    (f"restored cache pip-{'9f3a' * 16}", False),     # a word, a dash and a sha256: a named digest
    (f"weights model-{'0b1c' * 10}.bin", False),      # ... a sha1
    (f"xyzco_{'7f3a' * 8}", True),                     # an unknown vendor's drawn hex token (32 digits) goes
])
def test_a_named_digest_is_no_unknown_vendors_token(text, changed):
    assert (redact_text(text, home="", env={}) != text) is changed  # (not the id pytest puts in the environment)


def test_a_bare_keys_setting_with_spaces_as_an_argument_stays():
    """``sort_key='created_at' order_by=[...]`` is secret-bearing by ``KEY`` alone and its value is words: a
    setting. A value after a name that says password or api key is a credential all the same."""
    from reportkit.redact import argv_secrets

    assert argv_secrets(["sort_key='created_at' order_by=['-updated_at', 'id']"]) == {}
    assert argv_secrets([f"api_key={DRAWN}"]) == {DRAWN: "secret-argument"}
    assert argv_secrets(["db_password=two words 12"]) != {}
