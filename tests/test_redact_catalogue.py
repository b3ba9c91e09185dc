"""The vendor token catalogue (reportkit/token_table.py: the prefixed shapes of gitleaks, betterleaks, Kingfisher,
Nosey Parker and trufflehog)
redacted in text and code; a vendor's token whose prefix no catalogue knows; secrets seen through a JSON string's
escapes; a drawn value after a name whose last word is KEY. Values are drawn at random here, never a benchmark's."""

from __future__ import annotations

import ast
import json
import random
import re
import string

import pytest

from reportkit.redact import _CATALOGUE_HEADS, redact_code, redact_text
from reportkit.token_table import TOKEN_SHAPES

RNG = random.Random()
MIXED = string.ascii_letters + string.digits


def _r(n: int, alphabet: str = MIXED) -> str:
    return "".join(RNG.choice(alphabet) for _ in range(n))


def _mixed(n: int) -> str:
    """Letters of both cases and digits, each in turn at random: random text for sure."""
    return "".join(RNG.choice(string.ascii_lowercase) + RNG.choice(string.ascii_uppercase) + RNG.choice(string.digits)
                   for _ in range(n // 3)) + _r(n % 3)


_SEGMENT = re.compile(r"(\[(?:\\.|[^\]])+\]|\\.|[^\[\\])(?:\{(\d+)(?:,(\d+))?\})?")


def _sample(body: str) -> str:
    """A random text that the body's shape (character classes with lengths, literals) matches."""
    out = []
    for m in _SEGMENT.finditer(body):
        atom, lo, hi = m.group(1), m.group(2), m.group(3)
        n = int(lo) if lo else 1
        if hi:
            n = RNG.randint(n, min(int(hi), n + 40))
        if atom.startswith("["):
            chars = [chr(c) for c in range(33, 127) if re.fullmatch(atom, chr(c))]
            out.append("".join(RNG.choice(chars) for _ in range(n)))
        else:
            out.append(atom[-1] * n)
    return "".join(out)


def test_the_catalogue_is_large_and_cites_its_sources():
    import reportkit.token_table as table

    assert len(TOKEN_SHAPES) >= 150
    assert len({prefix for _kind, prefix, _body, _source in TOKEN_SHAPES}) >= 120
    assert {source for *_rest, source in TOKEN_SHAPES} == {"gitleaks", "betterleaks", "kingfisher", "noseyparker",
                                                         "trufflehog"}
    for licence in ("MIT", "Apache-2.0", "AGPL-3.0"):
        assert licence in table.__doc__


@pytest.mark.parametrize("kind,prefix,body", [(k, p, b) for k, p, b, _s in TOKEN_SHAPES], ids=lambda v: str(v)[:24])
def test_every_catalogue_shape_is_redacted_in_text_and_code(kind, prefix, body):
    token = prefix + _sample(body)
    assert re.fullmatch(re.escape(prefix) + body, token)
    out = redact_text(f"deploy with {token} now")
    assert token not in out and "<redacted:" in out
    source = f'CLIENT = Client("{token}")\n'
    code = redact_code(source)
    assert token not in code
    ast.parse(code)


def test_the_catalogue_is_one_scan_of_prefixes():
    # one trie alternation of the prefixes' heads, not one pattern per row
    assert _CATALOGUE_HEADS.pattern.count("|") < len(TOKEN_SHAPES)


@pytest.mark.parametrize("token", [
    lambda: "zkq_" + _mixed(36),                              # mixed case and digits
    lambda: "VNDR_" + _r(32, "0123456789abcdef"),             # hex
    lambda: "qsecret_" + _r(8, "abcdefgh") + _mixed(21).lower(),  # one case of letters and digits
    lambda: "tpk-" + "".join(RNG.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") + RNG.choice("23456789") for _ in range(16)),
])
def test_a_token_of_a_prefix_no_catalogue_knows(token):
    value = token()
    out = redact_text(f"client ready with {value}\n")
    assert value[5:] not in out, out
    code = redact_code(f'CLIENT_TOKEN_VALUE = "{value}"\nsettings = {{"v": "{value}"}}\n')
    assert value[5:] not in code, code
    ast.parse(code)


@pytest.mark.parametrize("text", [
    "sha256_" + "9c1e0b7d" * 8,                      # a digest named so
    "attn_fwd_bf16_128x64_" + "c0ffee12" * 2,         # a cache key of words and a short hash
    "run-20261130_101010-q8x2kz7m",                   # a run's name
    "resnet50_imagenet_v2_finetuned_cosine_warmup",  # words
    "test_" + "Abc1" * 7,                            # a test's name
])
def test_prefixed_words_that_are_not_tokens_stay(text):
    assert redact_text(f"item {text} done") == f"item {text} done"
    assert redact_code(f'NAME = "{text}"\n') == f'NAME = "{text}"\n'


def test_a_secret_inside_escaped_json_strings_is_redacted_everywhere():
    key = _mixed(39)
    cell = {"cell_type": "code", "outputs": [{"text": [f"connected, key={key}\n"]}],
            "source": ["import os\n", f'os.environ["WIDGET_KEY"] = "{key}"\n']}
    for text in (json.dumps(cell, indent=1), json.dumps(cell)):
        out = redact_text(text)
        assert key not in out, out
        assert json.loads(out)["source"][0] == "import os\n"


def test_an_escaped_string_without_a_secret_is_unchanged():
    text = json.dumps({"source": ['print("hello, world")\n', 'x = {"a": 1}\n'], "note": "tab\there"})
    assert redact_text(text) == text


@pytest.mark.parametrize("line", ["WIDGET_KEY={v}", "storageKey: {v}", '"signing.key" = "{v}"', "key={v}"])
def test_a_drawn_value_after_a_key_name_is_redacted_in_text(line):
    value = _mixed(30)
    assert value not in redact_text(line.format(v=value))


@pytest.mark.parametrize("line", ["cache_key=" + "3f9a0c1d" * 4, "key_dim=64", "primary_key=user_id",
                                  "sort_key: created_at_desc_then_name"])
def test_keys_that_are_not_secrets_stay(line):
    assert redact_text(line) == line


def test_a_json_text_inside_a_repr_is_seen_through_both_escapes():
    key = _mixed(36)
    cell = json.dumps({"outputs": [{"text": [f"ready, key={key}\n"]}],
                       "source": [f'os.environ["GADGET_KEY"] = "{key}"\n']}, indent=1)
    for text in (repr({"item": cell}), repr([cell])):
        assert key not in redact_text(f"settings: {text}")


@pytest.mark.parametrize("name", ["password", "db_password", "token"])
def test_a_base64_value_at_a_line_end_is_not_a_type_annotation(name):
    value = __import__("base64").b64encode(("Quill" + _mixed(12) + "!#%").encode()).decode()
    assert value.endswith("=") and not value.endswith("==")  # (20 bytes: one "=", which looked like "name: type =")
    text = f"data:\n  {name}: {value}\n# next entry\n"
    out = redact_text(text)
    assert value not in out and out.endswith("# next entry\n")


def test_a_value_a_logger_carried_to_the_next_line():
    head, tail = _mixed(12), _mixed(12)
    stamp = "2026-12-01 08:15:02 WARN db: "
    text = f"{stamp}open host=pg user=app password={head}\n{stamp}(cont) {tail} connect_timeout=5\n"
    out = redact_text(text)
    assert head not in out and tail not in out and "connect_timeout=5" in out
    assert out.count("\n") == 2


def test_the_next_line_of_a_redacted_value_keeps_its_words():
    stamp = "2026-12-01 08:15:02 INFO db: "
    text = f"{stamp}password={_mixed(15)}\n{stamp}connected to replica-20261201b in 3ms\n"
    assert "connected to replica-20261201b in 3ms" in redact_text(text)


@pytest.mark.parametrize("seed", [0, 50, 61, 76, 7])  # (50, 61: a leading "/"; 76: a "//" — 3.7% of draws, a gap)
def test_random_base64_in_a_neutrally_named_variable_is_a_known_value(seed):
    from reportkit.redact import credential_value

    rng = random.Random(seed)
    raw = bytes(rng.randrange(256) for _ in range(48))
    value = __import__("base64").b64encode(raw).decode()
    if "/" not in value and "+" not in value:
        value = value[:10] + "/" + value[11:]
    assert credential_value("SETTING_9", value)
    for path in ("models/meta-llama/Llama-3.1-8B", "data/shards/train/part/0001/x", "ab+cd/ef+gh/ij+kl/mn+op"):
        assert not credential_value("SETTING_9", path)


def test_a_vendor_name_then_a_drawn_value_in_text():
    for vendor in ("wandb", "Cerebras", "mailgun"):
        value = _r(40, "0123456789abcdef")
        assert value not in redact_text(f"failed using {vendor} {value} today")
    sha = _r(40, "0123456789abcdef")
    assert redact_text(f"github {sha} merged") == f"github {sha} merged"  # a forge's commit


def test_hmac_and_apikey_inside_code_strings():
    hexkey, key = _r(48, "0123456789abcdef"), _mixed(44)
    out = redact_code(f'NOTES = ["cos hmac {hexkey}", "ibmcloud login --apikey {key} -r eu-de"]\n')
    assert hexkey not in out and key not in out and "-r eu-de" in out
    ast.parse(out)


def test_a_carried_value_after_a_label_and_inside_a_repr():
    head, tail = _mixed(12), _mixed(12)
    stamp = "2026-12-01 08:15:02 WARN db: "
    message = f"{stamp}password={head}\n{stamp}(cont) {tail} connect_timeout=5"
    for text in (f"job 4 out: {message}\n", repr({"m": message})):
        out = redact_text(text)
        assert head not in out and tail not in out and "connect_timeout=5" in out


def test_a_notebook_cell_kept_in_a_code_literal_is_redacted_as_code():
    key = _mixed(39)
    cell = json.dumps({"cell_type": "code", "source": ["import os\n", f'os.environ["GIZMO_KEY"] = "{key}"\n']},
                      indent=1)
    out = redact_code(f"NOTEBOOK = {{'cell': {cell!r}}}\nprint(len(NOTEBOOK))\n")
    assert key not in out and "print(len(NOTEBOOK))" in out
    ast.parse(out)
    plain = json.dumps({"source": ['print("hello")\n']})
    assert redact_code(f"CELL = {plain!r}\n") == f"CELL = {plain!r}\n"


@pytest.mark.parametrize("text", [
    "loaded weights d41d8cd98f00b204e9800998ecf8427e0123abcd from the cache",
    "segment 9f2c4e1a7b3d5f60a8c2e4b6d8f0a1c3e5b7d9f1 written",
])
def test_a_vendor_name_that_is_a_common_word_before_a_digest_is_not_a_vendor(text):
    assert redact_text(text, env={}, home="") == text
