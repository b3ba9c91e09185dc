"""Redaction of secrets in HTTP headers of any vendor's name, in NAME=value items of a list's repr (a
traceback's locals, a printed argv or environment list), and of random-looking values of environment variables
of any name; what must stay."""

from __future__ import annotations

import random
import string

import pytest

from reportkit.redact import env_secrets, forget_known, redact_code, redact_text, remember_env

RNG = random.Random()


def _r(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def _key(n: int = 11) -> str:
    """A key's shape for sure (lower, upper and digit in turn, random each): 3 * n characters."""
    return "".join(RNG.choice(string.ascii_lowercase) + RNG.choice(string.ascii_uppercase) + RNG.choice(string.digits)
                   for _ in range(n))


@pytest.mark.parametrize("name", ["X-Vendor-Key", "Apim-Subscription-Key", "X-Service-Secret", "X-Session-Token",
                                  "Fastly-Key"])
@pytest.mark.parametrize("shape", ["{name}: {value}", "{{'{name}': '{value}'}}", '"{name}":"{value}"'])
def test_a_keyed_header_of_any_name_is_redacted(name, shape):
    value = _key()
    text = "request headers " + shape.format(name=name, value=value)
    out = redact_text(text, home="")
    assert value not in out and name in out, out


@pytest.mark.parametrize("line", ["Idempotency-Key: 5d41402a-bc4b-2a76-b971-9d911017c592",
                                  "Sec-WebSocket-Key: x3JJHMbDL1EzLkh9GBhXDw==",
                                  "the primary-key: customer_identifier", "cache-key: model_weights_v2_final",
                                  "Public-Key: ssh-ed25519"])
def test_headers_that_hold_no_secret_stay(line):
    assert redact_text(line, home="", env={}) == line  # (pytest's PYTEST_CURRENT_TEST holds the id: the line)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("alphabet", [string.ascii_letters + string.digits, string.ascii_letters])
def test_a_keyed_header_in_code_keeps_the_code_parsing(seed, alphabet):
    # (seeded: a draw without digits, 0.3% of them, was a real gap: letters of both cases drawn at random)
    rng = random.Random(seed)
    value = "".join(rng.choice(alphabet) for _ in range(32))
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


CI_ENV = {"GITHUB_SHA": "82dede8e2a19a2666b90aca5e51781d6720c0efb", "GITHUB_RUN_ID": "11223344556",
          "RUNNER_TRACKING_ID": "github_0a1b2c3d-1111-2222-3333-444455556666",
          "INVOCATION_ID": "9f3c1b7a2d4e4f0a9b8c7d6e5f4a3b2c", "MODEL": "Qwen2.5-7B-Instruct", "RUN": "Exp#12_A",
          "ImageVersion": "20241117.1.0", "HOSTNAME": "4f3a2b1c9d8e", "WANDB_RUN_ID": "a1B2c3D4",
          "CHECKPOINT": "ResNet50V2_epoch12_best.pt", "HF_MODEL": "meta-llama/Llama-3.1-8B", "CUDA_VISIBLE_DEVICES": "0,1",
          "TMPDIR": "/tmp/tmp.Zx81Kq2LmA"}


def test_a_random_value_under_any_variable_name_is_a_known_secret():
    value = _key()
    found = env_secrets({**CI_ENV, "SETTING_7": value})
    assert found == {value: "env-secret"}
    remember_env({"SETTING_7": value})
    try:
        out = redact_text(f"config: setting seven is {value} (from the environment)", home="")
        assert value not in out and "config: setting seven is <redacted" in out
    finally:
        forget_known()


@pytest.mark.parametrize("directive", ["%r", "%s", "%d"])
def test_a_random_key_holding_a_format_directive_is_still_a_secret(directive):
    """A Django-style key (letters, digits and ``!@#$%^&*(-_=+)``) may hold ``%r``: it is not a format string."""
    from reportkit.redact import remember_code

    alphabet = string.ascii_lowercase + string.digits + "!@#$^&*(-_=+)"
    key = "".join(RNG.choice(alphabet) for _ in range(24)) + directive + "".join(RNG.choice(alphabet) for _ in range(24))
    forget_known()
    try:
        remember_code(f"SECRET_KEY = {key!r}\n")
        assert key not in redact_code(f"strptime({key!r}, '%Y')\n", home="")
    finally:
        forget_known()


@pytest.mark.parametrize("template", ["Bearer %s", "token-{token}", "${SECRET_KEY}", "%(password)s"])
def test_a_format_string_bound_to_a_secret_name_stays(template):
    source = f"SECRET_KEY = {template!r}\nprint(SECRET_KEY % 1)\n"
    assert redact_code(source, home="") == source
