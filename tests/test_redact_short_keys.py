"""Short keys behind a name that says key or token in a config's or a command's syntax (issue 35, item 5): the
8-character keys TorchServe draws (``--inference-key``, ``--management-key``), a Consul/Vault/Nomad ``-token`` (Go's
one-dash flags), HCL's ``token = "..."`` with a short drawn value; in text, in a script's arguments and in code
(a command as a list or as one string), which still parses. A word, a word with a number, a digest's name, prose
about the flag, and a tokenizer's token stay."""

from __future__ import annotations

import ast
import secrets
import string

import pytest

from reportkit.redact import redact_argv, redact_code, redact_text

LOW, UP, DIG = string.ascii_lowercase, string.ascii_uppercase, string.digits


def r(n: int, alphabet: str) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


def key_with_digits() -> str:  # letters and digits changing often: kq8m2xzt
    return r(2, LOW) + r(1, DIG) + r(1, LOW) + r(1, DIG) + r(3, LOW + UP)


def key_of_letters() -> str:  # both cases, no words: ZPNSLuJx
    return r(5, UP) + r(1, LOW) + r(1, UP) + r(1, LOW)


KEYS = [key_with_digits, key_of_letters]
TEXTS = [
    "torchserve --start --ncs --model-store /models --inference-key {k} --disable-token-auth false",
    "torchserve --start --management-key={k}",
    "$ consul acl token read -token {k} -id 3f2a",
    "nomad job run -token {k} job.hcl",
    'acl {{\n  enabled = true\n  token = "{k}"\n}}',
    "Management Key: {k} --- Expiration time: 2026-12-01T10:00:00",  # TorchServe's banner
    "Inference Key: {k} --- Expiration time: 2026-12-01T10:00:00",
]


@pytest.mark.parametrize("make", KEYS)
@pytest.mark.parametrize("text", TEXTS)
def test_a_short_key_behind_its_name_is_redacted_in_text(text, make):
    key = make()
    out = redact_text(text.format(k=key), env={}, home="")
    assert key not in out, out


@pytest.mark.parametrize("make", KEYS)
def test_a_short_key_option_is_redacted_from_the_arguments_and_in_code(make):
    key = make()
    assert key not in " ".join(redact_argv(["torchserve", "--start", "--inference-key", key]))
    for source in (f'subprocess.run(["torchserve", "--start", "--inference-key", "{key}"])\n',
                   f'cmd = "torchserve --start --management-key {key} --ncs"\n',
                   f'os.system("consul acl token read -token {key}")\n'):
        out = redact_code(source, env={}, home="")
        assert key not in out, out
        ast.parse(out)


@pytest.mark.parametrize("text", [
    "redis-cli --cache-key a1b2c3d4e5 get",             # a digest's name
    "torchserve --start --inference-key resnet50",     # a word with a number
    "--sort-key abc12de3 --partition-key x9y8z7w6",    # names of lookups
    "run -key build2024 and -key 3",
    "use the -token flag to pass it, or -password when asked",
    'token = "Paris"',
    '{"token": "McDonald", "logprob": -0.52}',
    '{"token": "HTTPServer", "id": 4}',
    "ls -la --color auto -p ./out",
    "Primary Key: user_id, Sort Key: a1b2c3d4, Public Key: Zx8kQ2pLmn",
    "Key: resnet50 and Hot Key: F1",
])
def test_lookalikes_stay(text):
    assert redact_text(text, env={}, home="") == text
    source = f"NOTE = {text!r}\n"
    assert redact_code(source, env={}, home="") == source


def test_the_values_of_a_block_of_secrets_in_hcl_are_redacted():
    agent, default = f"{r(8, 'abcdef0123456789')}-0ee0-8783-6cc2-ab1aa9bb16c1", key_of_letters() + "9q"
    text = ('acl {\n  enabled = true\n  default_policy = "deny"\n  tokens {\n'
            f'    agent = "{agent}"\n    default = "{default}"\n    replication = ""\n  }}\n}}\n'
            'ports { http = 8500 }\nlabels { name = "web-server" }\ntokens { model = "gpt-4o-mini" }\n')
    out = redact_text(text, env={}, home="")
    assert agent not in out and default not in out, out
    for kept in ('default_policy = "deny"', 'http = 8500', 'name = "web-server"', 'model = "gpt-4o-mini"'):
        assert kept in out
    code = redact_code(f"CONFIG = {text!r}\n", env={}, home="")
    assert agent not in code and default not in code  # (a literal with escapes goes as a whole)
    ast.parse(code)
