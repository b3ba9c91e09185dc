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
from drawn import mixed as _drawn

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


# ---- round 28's leaks that the docs did not promise (the tester's own list), each now a rule

_B32 = string.ascii_uppercase + "234567"




@pytest.mark.parametrize("kind", list("UAONCX"))
def test_a_nats_nkey_seed_in_a_creds_file_and_alone(kind):
    seed = f"S{kind}A" + secrets.choice("ABCDEFGHIJKLMNOP") + "".join(secrets.choice(_B32) for _ in range(54))
    creds = f"-----BEGIN USER NKEY SEED-----\n{seed}\n------END USER NKEY SEED------\n"
    for text in (creds, f"nsc generate nkey --user: {seed}"):
        assert seed not in redact.redact_text(text, env={})
    code = redact.redact_code(f'SEED = "{seed}"\n', env={})
    assert seed not in code and ast.parse(code)
    public = "U" + "".join(secrets.choice(_B32) for _ in range(55))  # a user's public key: no secret
    assert redact.redact_text(f"user public key {public}", env={}) == f"user public key {public}"


@pytest.mark.parametrize("form", ["$ snmpwalk -v3 -l authPriv -u monitor -a SHA -A {a} -x AES -X {p} 10.0.0.1 system",
                                  "snmpget -v 3 -u ops -l authPriv -a SHA-256 -A '{a}' -x AES -X '{p}' router1 sysUpTime.0",
                                  "Command '['snmpbulkwalk', '-v3', '-A', '{a}', '-X', '{p}', 'sw1']' returned non-zero exit status 1."])
def test_snmpv3_passphrases_on_a_command_line(form):
    auth, priv = _drawn(18), _drawn(14)
    out = redact.redact_text(form.format(a=auth, p=priv), env={})
    assert auth not in out and priv not in out, out
    assert redact.redact_text("snmpwalk -v2c -c public -On 10.0.0.1", env={}) == "snmpwalk -v2c -c public -On 10.0.0.1"


@pytest.mark.parametrize("line", [': PSK "{v}"', '10.0.0.1 192.168.7.2 : PSK "{v}"', '%any carol@strongswan.org : EAP "{v}"',
                                  "moon.strongswan.org : PSK 0s{b64}", "@home : XAUTH '{v}'"])
def test_strongswan_ipsec_secrets(line):
    value, b64 = _drawn(18), base64.b64encode(secrets.token_bytes(24)).decode()
    text = line.format(v=value, b64=b64)
    out = redact.redact_text(text, env={})
    assert value not in out and b64 not in out, out
    assert out.split(":")[0] == text.split(":")[0]
    plain = "ratio 3 : PSK is a pre-shared key"
    assert redact.redact_text(plain, env={}) == plain


@pytest.mark.parametrize("tool", ["xcrun altool --upload-app -f App.ipa -u dev@example.com -p {pw}",
                                  "xcrun notarytool submit App.zip --apple-id dev@example.com --password {pw} --wait"])
def test_apples_upload_tools_password(tool):
    password = _app_password()
    out = redact.redact_text(tool.format(pw=password), env={})
    assert password not in out and "dev@example.com" in out, out


def _stream_key() -> str:
    alphabet = string.ascii_lowercase + string.digits
    return "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(5))


@pytest.mark.parametrize("url", ["rtmp://a.rtmp.youtube.com/live2/{k}", "rtmps://live-api-s.facebook.com:443/rtmp/FB-{d}-0-{r}",
                                 "ffmpeg -re -i in.mp4 -f flv 'rtmp://ingest.example.tv/app/{r}'"])
def test_an_rtmp_stream_key_in_its_url(url):
    values = {"k": _stream_key(), "d": str(secrets.randbelow(10 ** 15)), "r": _drawn(24)}
    out = redact.redact_text(url.format(**values), env={})
    assert not [v for k, v in values.items() if k != "d" and v in out], out
    for kept in ("rtmp://localhost/live/stream", "rtmp://media.example.org/vod/evening-news-show"):
        assert redact.redact_text(kept, env={}) == kept


def test_a_stream_key_under_a_neutral_env_name_is_known():
    """Round 28: a YouTube key under ``--env STREAM_TARGET=…`` was taken for a run's name when its draw held words."""
    for key in ("abcd-efgh-ijkl-mnop-qrst", _stream_key()):
        assert not redact.name_slug(key) and redact.override_known(key)
    assert redact.name_slug("llama-3-8b-instruct") and redact.name_slug("bert-base-flax-tiny")


@pytest.mark.parametrize("line", ["Secret ID   = {u}", '"SecretID": "{u}"', "vault write auth/approle/login role_id={r} secret_id={u}",
                                  "secret-id: {u}"])
def test_a_uuid_under_a_secrets_id_is_the_secret(line):
    u, r = str(uuid.uuid4()), str(uuid.uuid4())
    out = redact.redact_text(line.format(u=u, r=r), env={})
    assert u not in out, out
    assert r in out or "{r}" not in line  # (the role's id is an identifier)
    kept = f"Accessor ID = {u}"
    assert redact.redact_text(kept, env={}) == kept
    code = redact.redact_code(f'token = {{"SecretID": "{u}", "AccessorID": "{r}"}}\n', env={})
    assert u not in code and r in code and ast.parse(code)


@pytest.mark.parametrize("label", ["şifre: {v}", "Veritabanı şifresi = {v}", "lösenord = {v}", "salasana: {v}", "heslo: {v}",
                                   "adgangskode: {v}", "jelszó: {v}", "lozinka: {v}", "密码：{v}", "κωδικός: {v}", "mật khẩu: {v}",
                                   "kata sandi: {v}", "parola: {v}", "сайт пароль = {v}"])
def test_a_passwords_label_in_another_language(label):
    value = _drawn(16)
    out = redact.redact_text(label.format(v=value), env={})
    assert value not in out, out
    code = redact.redact_code(f'print("{label.format(v=value)}")\n', env={})
    assert value not in code and ast.parse(code)


@pytest.mark.parametrize("text", ["Passwort: vergessen?", "Kennwort: ********", "şifre: ${DB_PASSWORD}", "senha: %(senha)s",
                                  "heslo: None", "parola: 12345", "salasana: salasana", "mot de passe : voir le gestionnaire",
                                  "kata sandi: kosong", "密码: 无", "Hasło: admin", "lösenordet är för kort: minst 12 tecken"])
def test_a_label_in_another_language_with_no_password_stays(text):
    assert redact.redact_text(text, env={}) == text


_WORDS = ("tundra", "velvet", "orbit", "mango", "copper", "lantern", "fjord", "willow", "ember", "quartz", "harbor", "maple")


@pytest.mark.parametrize("name", ["_api_secret", "DB_PASSWORD", "client_secret", "passphrase", "signing_key"])
def test_a_word_passphrase_under_a_secrets_name_in_code(name):
    """Round 28: ``_api_secret = "<four words joined by ->"`` stayed in code (a plain word to the rule from names)."""
    phrase = "-".join(secrets.choice(_WORDS) for _ in range(3 + secrets.randbelow(3)))
    out = redact.redact_code(f'{name} = "{phrase}"\n', env={})
    assert phrase not in out and ast.parse(out)


@pytest.mark.parametrize("source", ['api_secret = "your-api-key-here"\n', 'secret_name = "tundra-velvet-orbit"\n',
                                    'password = "change-me-now"\n', 'DB_PASSWORD = "use-env-var"\n',
                                    'token_type = "bearer-access-token"\n', 'client_secret = "prod-db-secret"\n'])
def test_a_placeholder_or_a_name_of_words_stays_in_code(source):
    assert redact.redact_code(source, env={}) == source

