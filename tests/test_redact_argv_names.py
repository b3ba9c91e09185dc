"""A script's arguments (blind secrets round 33b): a run's name built of a model's name and its hyperparameters
(``sft-Llama3.1-8B-lr3e4-bs32``) stays, as the docs promise names do; a random-looking key given on its own, not
after an option (``job.py <40 drawn characters>``), is a credential like one after an option."""

from __future__ import annotations

import secrets
import string

import pytest

from reportkit import redact

#: run and model names: a model's name, its size, the method and hyperparameters, joined by -, _ or .
RUN_NAMES = ("sft-Llama3.1-8B-lr3e4-bs32", "dpo_Mistral-7B_lr5e6_bs64_ep3", "Qwen2.5-7B-Instruct",
             "bert-base-uncased-v2", "run-GPT2.small-fp16-seed42")


@pytest.mark.parametrize("name", RUN_NAMES)
@pytest.mark.parametrize("where", ["option", "positional"])
def test_a_run_name_of_words_and_numbers_stays(name, where):
    argv = ["--run-name", name, "--lr", "3e-4"] if where == "option" else [name, "--lr", "3e-4"]
    assert redact.argv_secrets(argv) == {}
    assert redact.redact_text(f"run {name} started\n", env={}) == f"run {name} started\n"


def _drawn(n: int, alphabet: str) -> str:
    while True:  # (a draw that reads as random: one of every kind in it)
        value = "".join(secrets.choice(alphabet) for _ in range(n))
        if redact.looks_random(value):
            return value


@pytest.mark.parametrize("alphabet", [string.ascii_letters + string.digits, string.ascii_letters + string.digits + "+/",
                                      string.ascii_letters + string.digits + "-_"])
def test_a_drawn_key_given_on_its_own_is_a_credential(alphabet):
    key = _drawn(40, alphabet)
    # (one draw in 4096 starts with "-p": mysql's -pPASSWORD, whose password is what follows the option)
    secret = key[2:] if key.startswith("-p") else key
    assert secret in redact.argv_secrets(["--epochs", "3", key])
    assert secret in redact.argv_secrets([key])


def test_a_drawn_key_whose_first_character_is_a_dash_is_a_credential():
    """A key drawn from an alphabet with ``-`` starts with it one time in 32: it reads as an option, yet no option
    is named by 40 drawn characters (the test above failed that way in one CI run of many)."""
    key = "-" + _drawn(39, string.ascii_letters + string.digits + "-_")
    assert key in redact.argv_secrets(["--epochs", "3", key])
    assert key in redact.argv_secrets([key])
    for option in ("-vvv", "-O2", "-Wignore::DeprecationWarning", "-Xfrozen_modules=off", "-n2", "-lr3e4"):
        assert redact.argv_secrets(["--epochs", "3", option]) == {}, option


def test_random_values_grouped_by_dashes_are_no_name():
    """Groups of drawn characters joined by ``-`` mix the cases inside a group: never a name's parts."""
    assert redact.looks_random("aZ3k-x9Qp-Kp7w-Lm2x")
    assert "aZ3k-x9Qp-Kp7w-Lm2x" in redact.argv_secrets(["aZ3k-x9Qp-Kp7w-Lm2x"])


def test_base64_with_its_padding_given_on_its_own_is_a_credential():
    import base64

    blob = base64.b64encode(secrets.token_bytes(31)).decode()
    assert blob.endswith("=") and blob in redact.argv_secrets(["--epochs", "3", blob])


def test_a_setting_given_on_its_own_goes_by_its_name():
    """``run_id=<drawn>`` is an id by its name (it stays); ``api_key=<drawn>`` gives the value, not the whole."""
    value = _drawn(24, string.ascii_letters + string.digits)
    assert redact.argv_secrets([f"run_id={value}"]) == {}
    assert redact.argv_secrets([f"api_key={value}"]) == {value: "secret-argument"}
