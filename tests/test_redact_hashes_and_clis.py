"""Password hashes (crackable offline: as secret as the password) and the secret commands of CLIs a CI log shows
(``gh secret set --body``, ``snyk auth``, ``neo4j-admin ... set-initial-password``, ``codecov -t``): the
not-promised families blind round 32 found leaking. Values are drawn per run; the shapes are each format's own
(salt and hash parts, their alphabets and lengths)."""

from __future__ import annotations

import ast
import base64
import secrets
import string

import pytest
from drawn import drawn, mixed

from reportkit import redact

CRYPT = "./" + string.ascii_letters + string.digits


def _c(n: int) -> str:
    return "".join(secrets.choice(CRYPT) for _ in range(n))


def _b64(n: int) -> str:
    return base64.b64encode(secrets.token_bytes(n)).decode().rstrip("=")


HASHES = {
    "sha512-crypt": lambda: f"$6${_c(16)}${_c(86)}",
    "sha256-crypt rounds": lambda: f"$5$rounds=5000${_c(12)}${_c(43)}",
    "md5-crypt": lambda: f"$1${_c(8)}${_c(22)}",
    "apache apr1": lambda: f"$apr1${_c(8)}${_c(22)}",
    "bcrypt": lambda: f"$2b$12${_c(53)}",
    "yescrypt": lambda: f"$y$j9T${_c(22)}${_c(43)}",
    "argon2id": lambda: f"$argon2id$v=19$m=65536,t=3,p=4${_b64(16)}${_b64(32)}",
    "passlib pbkdf2": lambda: f"$pbkdf2-sha256$29000${_c(22)}${_c(43)}",
    "django pbkdf2": lambda: f"pbkdf2_sha256$600000${_c(22)}${_b64(32)}=",
    "postgres scram": lambda: f"SCRAM-SHA-256$4096:{_b64(16)}==${_b64(32)}=:{_b64(32)}=",
}

PLACES = [
    "root:{}:19700:0:99999:7:::\n",  # /etc/shadow
    "admin:{}\n",  # htpasswd
    "ValueError: user row {{'name': 'ada', 'password': '{}'}} failed\n",
    "2026-12-03 10:01:02,003 INFO auth: stored hash {} for ada\n",
]


@pytest.mark.parametrize("place", PLACES)
@pytest.mark.parametrize("form", sorted(HASHES))
def test_a_password_hash_goes_in_text(form, place):
    value = HASHES[form]()
    text = place.format(value)
    out = redact.redact_text(text)
    assert value not in out
    for cut in (value[-20:], value[len(value) // 2:len(value) // 2 + 16]):
        assert cut not in out


@pytest.mark.parametrize("form", sorted(HASHES))
def test_a_password_hash_in_code_goes_and_the_code_parses(form):
    value = HASHES[form]()
    source = f"import crypt\nstored = {value!r}\nassert crypt.crypt('x', stored) == stored, stored\n"
    out = redact.redact_code(source)
    assert value not in out
    ast.parse(out)


@pytest.mark.parametrize("text", [
    'echo "$1$HOME/bin/activate_environment_script"',  # a shell's positional parameter before a variable
    "price: $5$ and then $6$ more for shipping and handling today",
    "PS1='\\u@\\h:\\w$ ' ; cost=$2$3$4",
    "re.sub(r'(\\d+)', r'$1$2', value)  # replacement groups",
    "${HOME}/.cache/$USER/$6/model_weights_checkpoint.pt",
    "torch.save(state, f'ckpt$1$epoch_{epoch}.pt')",
])
def test_ordinary_dollar_text_stays(text):
    assert redact.redact_text(text) == text


@pytest.mark.parametrize("line", [
    "gh secret set HF_TOKEN --body {}",
    "gh secret set HF_TOKEN -b {} --repo org/repo",
    "gh secret set HF_TOKEN --body={}",
    "$ snyk auth {}",
    "neo4j-admin dbms set-initial-password {}",
    "bash <(curl -s https://codecov.io/bash) -t {}",
    "codecov upload-process --token {} -f coverage.xml",
])
def test_a_cli_secret_command_loses_its_value(line):
    value = drawn(24)
    out = redact.redact_text(line.format(value) + "\n")
    assert value not in out
    assert line.split("{}")[0].rstrip("=") in out  # (the command stays: only the value goes)


@pytest.mark.parametrize("text", [
    'gh pr create --title "Fix the loss" --body "Fixes the NaN in the loss when the batch is empty"',
    "gh pr create -b Fixes_the_NaN_in_the_loss -t fix",
    "gh secret set HF_TOKEN < token.txt",
    'gh secret set HF_TOKEN --body "$HF_TOKEN"',
    "snyk auth --help",
    "codecov -t ${CODECOV_TOKEN}",
])
def test_what_holds_no_secret_stays(text):
    assert redact.redact_text(text + "\n") == text + "\n"


def test_base64_of_xoauth2_with_a_bearer_token_that_reads_as_words_goes():
    """SASL XOAUTH2's ``user=…\\x01auth=Bearer TOKEN\\x01\\x01`` in base64, with a token that does not read as random
    (about 2 draws in 100 of round 31's test: the name's rule took ``Bearer`` as the value, which is no credential)."""
    while redact.looks_random(token := mixed(24) + "9aZ"):
        pass
    blob = base64.b64encode(f"user=alice@example.com\x01auth=Bearer {token}\x01\x01".encode()).decode()
    out = redact.redact_text(f"C: A01 AUTHENTICATE XOAUTH2 {blob}", env={})
    assert blob not in out and token not in out
