"""Round 28 (a blind tester's planted secrets, 2026-12-02): an API key given to curl as the user with an empty password,
a private key's lines kept one per item of a JSON list (the first lines of a message), and Apple's app-specific
password (four groups of four letters) taken for a run's name. Values are drawn per run."""

from __future__ import annotations

import ast
import base64
import secrets
import string
import uuid

import pytest

from reportkit import redact


def _app_password() -> str:
    """Drawn as Apple draws them, one group kept without a vowel (nine in ten draws have one or few vowels; a name
    of four four-letter words stays shown, so a draw that spells like one is not asked about here)."""
    groups = ["".join(secrets.choice(string.ascii_lowercase) for _ in range(4)) for _ in range(3)]
    groups.insert(secrets.randbelow(4), "".join(secrets.choice("bcdfghjklmnpqrstvwxz") for _ in range(4)))
    return "-".join(groups)


@pytest.mark.parametrize("form", ["$ curl -u {k}: https://api.checkr.com/v1/candidates",
                                  'curl --user="{k}:" https://api.stripe.com/v1/charges',
                                  "Command '['curl', '-u', '{k}:', 'https://api.checkr.com']' returned non-zero exit status 22."])
def test_a_key_given_as_the_user_with_an_empty_password(form):
    key = secrets.token_hex(16)
    out = redact.redact_text(form.format(k=key), env={})
    assert key not in out and "https://api." in out, out
    source = f'import subprocess\nsubprocess.run(["curl", "-u", "{key}:", "https://api.checkr.com"])\n'
    code = redact.redact_code(source, env={})
    assert key not in code
    ast.parse(code)


@pytest.mark.parametrize("user", ["admin", "ci-deploy-bot", "$API_USER"])
def test_a_user_with_an_empty_password_that_is_a_name_stays(user):
    line = f"curl -u {user}: https://artifacts.internal/upload"
    assert redact.redact_text(line, env={}) == line


@pytest.mark.parametrize("kept", [12, 6])
def test_a_private_keys_lines_one_per_item_of_a_list(kept):
    """`signature.measured` keeps a pytest message's first 12 lines as a list: the key's body lines stand apart
    from its -----BEGIN line, and each alone is no key to the rules."""
    body = base64.b64encode(secrets.token_bytes(400)).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    items = ["E   RuntimeError: signing failed", "-----BEGIN PGP PRIVATE KEY BLOCK-----", "", *lines,
             "=" + body[:4], "-----END PGP PRIVATE KEY BLOCK-----"][:kept]
    out = redact.redact_data({"measured": items})
    assert not [line for line in lines if line in str(out)], out
    assert out["measured"][0] == "E   RuntimeError: signing failed" and len(out["measured"]) == kept
    plain = ["-----", "a table's rule above", "ordinary line"]
    assert redact.redact_data({"m": plain}) == {"m": plain}


@pytest.mark.parametrize("password", ["dgne-hajz-fhlg-bgpl", _app_password()], ids=["round28", "drawn"])
def test_an_app_specific_password_is_no_run_name(password):
    assert not redact.name_slug(password) and redact.name_slug("bert-base-flax-tiny")
    for source in (f'ALTOOL_API_SECRET = "{password}"\n', f'notary_password = "{password}"\n'):
        out = redact.redact_code(source, env={})
        assert password not in out
        ast.parse(out)
    assert redact.redact_code('model_name = "bert-base-flax-tiny"\n', env={}) == 'model_name = "bert-base-flax-tiny"\n'


@pytest.mark.parametrize("line", ["$ atlas config set private_api_key {uuid}", "aws configure set aws_secret_access_key {drawn}",
                                  "+ wandb config set api_key {hex}"])
def test_a_tools_set_name_value_in_a_transcript(line):
    """Round 28: `atlas config set private_api_key <uuid>` (MongoDB Atlas's keys are UUIDs): the argv rule read a tool's
    `set NAME VALUE`; printed in a transcript it was text, and a UUID after `private_api_key` no drawn value."""
    values = {"uuid": str(uuid.uuid4()), "drawn": base64.b64encode(secrets.token_bytes(30)).decode(),
              "hex": secrets.token_hex(20)}
    text = line.format(**values)
    out = redact.redact_text(text, env={})
    assert not [v for v in values.values() if v in out], out


@pytest.mark.parametrize("line", ["atlas config set api_key_id {uuid}", "git config set core.editor vim",
                                  "kubectl config set-context dev", "gh config set oauth_token $GH_TOKEN",
                                  "npm config set registry https://registry.npmjs.org/", "config set max_tokens 4096"])
def test_a_set_of_no_secret_stays(line):
    text = line.format(uuid=uuid.uuid4())
    assert redact.redact_text(text, env={}) == text
