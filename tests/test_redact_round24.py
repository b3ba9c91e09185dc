"""Round 24 (a blind tester's planted secrets, 2026-12-01): a secret's name and value as two cells of a table row
(Markdown, a ``;``-flattened record) in text and in code; a drawn value starting with ``-`` after a secret option;
and an OAuth redirect's ``localhost:8080&response_type=code`` that is no password (a false positive that changed a
reproducer's literal). Values are drawn per run, so no fixed string can make these pass."""

from __future__ import annotations

import ast
import secrets

import pytest
from drawn import drawn

from reportkit import redact

REDIRECT = ("redirect: https://accounts.example.com/o/oauth2/auth?client_id=1234567890-abc.apps.googleusercontent.com"
            "&redirect_uri=http%3A%2F%2Flocalhost%3A8080&response_type=code")




@pytest.mark.parametrize("row", [
    "| lr | 0.0003 |\n| wandb_key | {v} |\n| epochs | 12 |",
    "| wandb_key | {v} |",
    "wandb_key ; {v} ; lr ; 0.1",
    "| name | value |\n|---|---|\n| api_token | {v} |",
    "| password | {v} |",
])
@pytest.mark.parametrize("value", [lambda: secrets.token_hex(20), lambda: drawn(32)])
def test_a_secret_named_cell_and_its_value_are_redacted(row, value):
    v = value()
    text = row.format(v=v)
    assert v not in redact.redact_text(text)
    source = f"TABLE = {text!r}\nprint(TABLE)\n"
    out = redact.redact_code(source)
    assert v not in out and ast.parse(out)


@pytest.mark.parametrize("text", [
    "| auth | enabled_for_all |",
    "| monkey | 0.123456789012 |",
    "| learning_rate | 0.000312345678 |",
    "| key | value |\n|---|---|\n| model | meta-llama/Llama-3.1-8B-Instruct |",
    "status ; finished_successfully ; epochs ; 12",
])
def test_ordinary_tables_stay(text):
    assert redact.redact_text(text) == text


def test_an_oauth_redirect_to_localhost_is_no_password():
    assert redact.redact_text(REDIRECT) == REDIRECT
    source = f"URL = {REDIRECT!r}\nprint(URL)\n"
    assert redact.redact_code(source) == source


def test_a_drawn_value_starting_with_a_dash_after_a_secret_option():
    value = "-" + drawn(24)
    argv = ["--exoscale-api-secret", value, "--epochs", "3"]
    found = redact.argv_secrets(argv)
    assert found[value] == "secret-argument"
    # (and nothing else, but a part of it: a draw starting "-p" or "-u" is also read as mysql's -pPW / curl's -uUSER)
    assert all(k in value for k in found), found
    assert value not in " ".join(redact.redact_argv(argv))


@pytest.mark.parametrize("argv", [["--token", "--verbose"], ["--api-secret", "-v"], ["--lr", "-0.0001234567891234"],
                                  ["--password-file", "-"]])
def test_an_option_after_a_secret_option_is_not_its_value(argv):
    assert redact.argv_secrets(argv) == {}


@pytest.mark.parametrize("row", ["| wandb_key | {v} |", "host ; db01 ; db_password ; {v} ; pool_size ; 8"])
def test_a_table_in_comments_is_read_like_one_in_text(row):
    """An artifact's comment lines (Inductor's output_code.py quotes the script's source in comments)."""
    v = drawn(24)
    source = f"def f(x):\n    # |---|---|\n    # {row.format(v=v)}\n    return x\n"
    out = redact.redact_code(source)
    assert v not in out and ast.parse(out)


@pytest.mark.parametrize("prefix", ["ser.", "sk.", "pk."])
def test_a_key_with_a_vendors_dotted_prefix(prefix):
    """Flagsmith's server keys (``ser.…``), Mapbox's tokens (``sk.…``): the prefix's dot ended the value before."""
    value = prefix + drawn(24)
    for text in (f'flagsmith = Flagsmith(environment_key="{value}")', f"storage_key={value}"):
        assert value not in redact.redact_text(text)


@pytest.mark.parametrize("text", ['sort_key = "user.created_at_timestamp"', 'key = "torch.nn.functional.scaled_dot"',
                                  'cache_key="abc.0123456789abcdef01234567"'])
def test_dotted_names_under_a_key_stay(text):
    assert redact.redact_text(text) == text


def test_a_key_named_by_its_owner_inside_a_string_in_code():
    """``'ABLY_KEY: <app>.<key id>:<secret>'`` in a list of config lines: redacted in text, kept in the reproducer."""
    value = "xVLyHw.DtvFnA:" + drawn(43)
    source = f"CFG = [\n    'ABLY_KEY: {value}',\n    'SORT_KEY: created_at_descending_order',\n]\n"
    out = redact.redact_code(source)
    assert value not in out and "created_at_descending_order" in out and ast.parse(out)
