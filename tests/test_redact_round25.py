"""Round 25 (a blind tester's planted secrets, 2026-12-01): a URL argument whose raw password holds "@" (it left a
one-letter known value, ``p``, that took every "p" of the bundle's command line); a vendor's key with a readable prefix
and drawn parts joined by ``/`` (ConfigCat); a key's id and its secret joined by ``:`` after "key" and a space, and as
an argument of its own (fal's ``<uuid>:<hex>``); a pattern's value that took the ``}`` closing its mapping; and what
is no secret: ``CACHE_KEY=...``, Docker's "`--password via` the CLI" warning, an ``X-Request-Id`` or an SSH public key
inside a longer argument, a run's name as an ``--env`` value. Values are drawn per run."""

from __future__ import annotations

import ast
import base64
import secrets
import uuid

import pytest
from drawn import drawn

from reportkit import redact
from reportkit.report.render import Redactor


def test_a_url_password_holding_an_at_sign_is_one_value_and_leaves_no_short_known_value():
    password = f"p@ss/{drawn(8)}"
    url = f"https://deploy:{password}@git.acme.io/ml/models.git"
    found = redact.argv_secrets([url])
    assert all(len(value) >= 8 for value in found), found  # not "p", not "deploy:p"
    assert any(password in value for value in found), found
    argv = redact.redact_argv(["probe.py", url, "spring.datasource.password=" + drawn(14), "--optimizer", "adamw"])
    assert argv[0] == "probe.py" and argv[3:] == ["--optimizer", "adamw"], argv
    assert password.split("/")[1] not in argv[1] and "git.acme.io" in argv[1]
    assert argv[2].startswith("spring.datasource.password=<redacted")
    # a short value never becomes a known value, whoever registers it
    assert "p" not in {v for v, _ in redact._table({"p": "secret", "pw": "secret"})}
    assert redact.redact_text("optimizer: AdamW", extra={"p": "url-credentials"}) == "optimizer: AdamW"


def test_a_vendor_key_with_a_readable_prefix_and_drawn_parts_is_a_key():
    key = f"configcat-sdk-1/{drawn(22)}/{drawn(22)}"
    out = redact.redact_text(f"feature flags client init sdk_key={key}", env={})
    assert key.split("/")[1] not in out and key.split("/")[2] not in out, out
    for kept in ("object_key=datasets/" + secrets.token_hex(16) + ".parquet", "cache_key=models/" + secrets.token_hex(16),
                 "sort_key=users/" + drawn(22), "primary_key=users/id"):
        assert redact.redact_text(kept, env={}) == kept


@pytest.mark.parametrize("lead", ["fal queue submit with FAL_KEY ", "fal key ", "FAL_KEY: "])
def test_a_keys_id_and_secret_joined_by_a_colon_after_key(lead):
    secret = secrets.token_hex(16)
    text = f"{lead}{uuid.uuid4()}:{secret}"
    assert secret not in redact.redact_text(text, env={})


def test_a_keys_id_and_secret_as_an_argument_of_its_own():
    secret = secrets.token_hex(16)
    joined = f"{uuid.uuid4()}:{secret}"
    argv = redact.redact_argv(["probe.py", "--fal-key", drawn(20), joined])
    assert secret not in " ".join(argv), argv
    # an option's value is the option's to judge: a commit range is two digests
    assert redact.argv_secrets(["--commit-range", f"{secrets.token_hex(20)}:{secrets.token_hex(20)}"]) == {}


def test_a_value_does_not_take_the_bracket_that_closes_its_mapping():
    value = drawn(18)
    assert redact.redact_text(f"registry: {{server: ghcr.io, password: {value}}}", env={}) == \
        "registry: {server: ghcr.io, password: <redacted:secret>}"
    assert redact.redact_text(f"login(password: {value})", env={}).endswith("<redacted:secret>)")


def test_a_key_named_primary_is_still_a_secret():
    """Cosmos DB's primary key is its account's secret: PRIMARY says no digest in an environment's name."""
    assert redact.is_secret_env_name("COSMOS_PRIMARY_KEY") and not redact.is_secret_env_name("CACHE_KEY")


@pytest.mark.parametrize("text", [
    "KEY_SIZE=2048 SORT_KEY=created_at CACHE_KEY=v2-linux-py312",
    "PUBLIC_KEY=v2-linux-py312",
    "Using `--password via` the CLI is insecure. Use --password-stdin.",
])
def test_settings_and_prose_stay(text):
    assert redact.redact_text(text, env={}) == text


@pytest.mark.parametrize("arg", [
    "[step 3] X-Request-Id: req_01HQ3Z8Y9X7W6V5U4T3S2R1Q0P",
    "[deploy] ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ci@runner",
])
def test_identifiers_and_public_keys_in_a_longer_argument_stay(arg):
    assert redact.argv_secrets([arg]) == {}


@pytest.mark.parametrize("slug", ["llama-3-8b-instruct", "resnet50-lr-high-57", "resnet50-lr3e-4-wd0.05-seed1234",
                                  "exp-2026-03-14-llama3-sft-lora-r16-alpha32"])
def test_a_runs_name_given_with_env_is_shown(slug):
    """docs/bundle.md: an --env value of words joined by -, _ or . (a run's or a model's name) is shown."""
    red = Redactor.for_env({}, overrides={"RUN_NOTE": slug})
    assert red.text(f"run {slug} finished") == f"run {slug} finished"


def _consonants(n: int) -> str:
    """Lower-case letters without a vowel and digits: a draw that never spells a word."""
    return "".join(secrets.choice("bcdfghjklmnpqrstvwxz0123456789") for _ in range(n))


@pytest.mark.parametrize("value", [lambda: f"{_consonants(8)}-{_consonants(8)}-{_consonants(8)}",
                                   lambda: str(uuid.uuid4()), lambda: drawn(24)])
def test_a_drawn_env_value_is_still_known(value):
    token = value()
    assert not redact.name_slug(token)
    red = Redactor.for_env({}, overrides={"RUN_NOTE": token})
    assert token not in red.text(f"run {token} finished")


def test_a_keys_id_and_secret_after_key_inside_a_literal_in_code():
    secret = secrets.token_hex(16)
    source = f'LINES = [\n    "[step 4] fal queue submit with FAL_KEY {uuid.uuid4()}:{secret}",\n]\nprint(LINES)\n'
    out = redact.redact_code(source, env={})
    assert secret not in out and out.count("\n") == source.count("\n"), out
    kept = f'LINES = ["cache key {uuid.uuid4()}:{secret}"]\n'  # a cache's key is a digest of what it holds
    assert redact.redact_code(kept, env={}) == kept


@pytest.mark.parametrize("scheme", ["Api-Key", "Apikey", "Token-V2"])
def test_an_authorization_scheme_is_not_taken_for_the_value_inside_an_escaped_string(scheme):
    """An escaped string (``"…\\n> Authorization: Api-Key <key>"``) is redacted in two steps: its unescaped view
    finds the key, the key is then removed as a known value, and the header rule sees ``Api-Key <redacted>``.
    The rule took the scheme for the value, and the scheme became a known value of its own: in the rest of the
    log ``Authorization: Api-Key <key>`` became ``<redacted> <key>`` and the key no longer followed a header."""
    key = drawn(8) + "." + drawn(32)
    text = f'"> POST /predict HTTP/1.1\\n> Authorization: {scheme} {key}"\n> Authorization: {scheme} {drawn(8)}.{drawn(32)}\n'
    out = redact.redact_text(text, env={})
    assert key not in out and out.count(f"Authorization: {scheme} <redacted:authorization>") == 2, out


def test_base64_of_utf16_text_is_read_as_that_text():
    """PowerShell's ``-EncodedCommand`` (and .NET's strings) are base64 of UTF-16LE: every second byte zero. Read as
    UTF-8, the decoded text was full of NULs and no credential."""
    token = "sk-ant-api03-" + drawn(93) + "AA"
    blob = base64.b64encode(token.encode("utf-16-le")).decode()
    out = redact.redact_text(f"powershell -EncodedCommand {blob}", env={})
    assert blob not in out and "<redacted" in out, out
    weights = "AAAAPwAAgD8AAMA/AAAAQAAAIEAAAEBAAABgQAAAgEA="  # float32s: not text of either kind
    assert redact.redact_text(f"base64 weights: {weights}", env={}) == f"base64 weights: {weights}"


def test_a_twitch_chat_token_and_a_cloudsmith_path_token_go():
    token = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(30))
    out = redact.redact_text(f"< PASS oauth:{token}\n< NICK trainbot", env={})
    assert token not in out and "< NICK trainbot" in out, out
    path = drawn(16)
    out = redact.redact_text(f"Looking in indexes: https://dl.cloudsmith.io/{path}/acme/ml/python/simple/", env={})
    assert path not in out and "/acme/ml/python/simple/" in out, out
    public = "Looking in indexes: https://dl.cloudsmith.io/public/acme/ml/python/simple/"
    assert redact.redact_text(public, env={}) == public
    assert redact.redact_text("oauth: token refreshed (expires_in=3600)", env={}) == "oauth: token refreshed (expires_in=3600)"


def test_a_wifi_pre_shared_key_is_a_secret():
    password = "Linden" + str(secrets.randbelow(900) + 100) + "?Quaa" + str(secrets.randbelow(90) + 10)
    text = f'network={{\n    ssid="lab-5g"\n    psk="{password}"\n}}'
    assert password not in redact.redact_text(text, env={})
    code = f'cfg = {{"psk": "{password}"}}\nwifi_psk = "{password}"\nlines = "psk={password}"\nn = dict(psk=8)\n'
    out = redact.redact_code(code)
    assert password not in out and "dict(psk=8)" in out, out
    ast.parse(out)


def test_the_secret_half_of_an_ak_sk_pair_is_a_secret():
    """Volcengine's, Huawei's and Baidu's SDKs take an access key id (``ak``) and its secret (``sk``): the id has a
    vendor's prefix, the secret is base64 or hex with nothing to know it by but its name."""
    secret = base64.b64encode(secrets.token_bytes(40)).decode()
    hex_secret = secrets.token_hex(20)
    ak = "AKLT" + drawn(40)
    for text in (f"tos client: ak={ak} sk={secret}", f'{{"ak": "{ak}", "sk": "{hex_secret}"}}',
                 f"export HUAWEICLOUD_SDK_SK={secret}", f"obs --ak {ak} --sk {hex_secret} ls"):
        out = redact.redact_text(text, env={})
        assert secret not in out and hex_secret not in out and ak not in out, out
    code = f'client = TosClient(ak="{ak}", sk="{secret}")\nconf = {{"sk": "{hex_secret}"}}\nlang_sk = "sk_SK.UTF-8"\n'
    out = redact.redact_code(code)
    assert secret not in out and hex_secret not in out and 'lang_sk = "sk_SK.UTF-8"' in out, out
    ast.parse(out)
    assert redact.redact_text("LANG_SK=sk_SK.UTF-8 LOCALE_SK=slovak", env={}) == "LANG_SK=sk_SK.UTF-8 LOCALE_SK=slovak"


@pytest.mark.parametrize("text", ["task=train disk=/dev/sda1 ask=0.5", "risk: low; mask = attention_mask",
                                  "sk=3 sk=True", "desk_sk = None", "from sklearn import svm; sk = sklearn",
                                  "kiosk=lobby-01", "run --disk 40G --task train --mask-token MASK"])
def test_words_ending_in_sk_and_plain_values_stay(text):
    assert redact.redact_text(text, env={}) == text
