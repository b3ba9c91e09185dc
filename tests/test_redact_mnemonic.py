"""A wallet's seed phrase (BIP-39's 12-24 lowercase words) after a word that names one is a secret, though a value
with spaces is not one otherwise. Left open by blind secrets round 33b (a mnemonic printed under its name)."""

from __future__ import annotations

import random

import pytest

from reportkit import redact

# words of the phrase's shape (3-8 lowercase letters), drawn anew: not the list's first words, which a test could match
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _phrase(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return " ".join("".join(rng.choice(_LETTERS) for _ in range(rng.randint(3, 8))) for _ in range(n))


@pytest.mark.parametrize("form", ["seed phrase: {}", "MNEMONIC={}", '{{"mnemonic": "{}"}}', "recovery phrase is {}",
                                  "wallet_seed = '{}'", "Backup words: {}"])
@pytest.mark.parametrize("n", [12, 24])
def test_a_seed_phrase_under_its_name_is_redacted(form, n):
    phrase = _phrase(n, n * 31 + len(form))
    out = redact.redact_text("wallet restored\n" + form.format(phrase) + "\nnext line\n")
    assert phrase.split()[0] not in out.split() and phrase.split()[-1] not in out, out
    assert "<redacted:secret>" in out and out.startswith("wallet restored\n") and out.endswith("\nnext line\n")


@pytest.mark.parametrize("text", [
    "mnemonic: the quick brown fox",  # (too few words)
    "seed words: " + _phrase(11, 7),  # (not a length a phrase has)
    "The mnemonic is easy to remember for most readers of the guide",
    "random seed = 1234",
    "seed phrase: " + _phrase(12, 9) + " and then some more words of prose",  # (a sentence goes on)
])
def test_prose_about_phrases_stays(text):
    assert redact.redact_text(text) == text


def test_code_is_not_guessed_at():
    """Inside code only known values and sure prefixes apply: a phrase literal under such a name is not guessed."""
    source = f'mnemonic = "{_phrase(12, 3)}"\nraise ValueError(mnemonic)\n'
    assert redact.redact_code(source) == source
