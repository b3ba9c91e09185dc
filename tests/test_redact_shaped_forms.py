"""Credentials in forms round 8 of planted secrets still let through after its first fixes (the lead read its
results: not blind): ``pass_phrase=``, Gradle's ``storePassword 'X'``, a picked password holding ``$`` before
letters (not a ``$VAR``), a value with unbalanced brackets after a credential's name (OCI auth tokens), a drawn
path component under ``creds/``/``secrets/``, Telegram's ``/bot<token>/`` URL, an AK/SK pair's ``*_SDK_SK``, a
kubeadm token (a dotted value, not a module path), a YAML block scalar after a logger's prefix, a secret's name
assigned one call of a literal (Rust's ``String::from("...")``), a token a wrap did not split (the next line's
``SearchClient.create(...)`` is not its tail); inside a string literal of code: a password's word and a picked
password, ``credential`` and a drawn value, ``auth token: <symbols>``, JSON's ``"key": "<hex>"``, a YAML block.
Each positive case has a lookalike beside it that stays."""

from __future__ import annotations

import ast
import string

import pytest
from test_redact_prose_forms import _drawn

from reportkit.redact import argv_secrets, is_secret_env_name, redact_code, redact_text

PICKED = "Quartz980$Rbxo59"
DRAWN = _drawn(32, seed=11)
SYMBOLS = "LQCPktHq)xeFduQ;Beit"  # an OCI auth token: 20 characters, punctuation included
BLOCK = _drawn(46, string.ascii_letters + string.digits + "+/", seed=5)
HEX32 = "b89f6e38853fccb005fa87dbd6c4206f"
TELEGRAM = "3498559007:AAgZM1ZgJb6kvPa5Cn_K6Ay3IEcshN1Lgbu"
FIGMA = "figd_jkvv9_4Aghg8JE3JgLRlWMiCrXgGHHYmCT1zfKar"


GOES_R8 = [
    (f"# pass_phrase={PICKED}", PICKED),
    (f"key_file=~/.oci/oci_api_key.pem\npass-phrase: {PICKED}\nregion=eu-frankfurt-1", PICKED),
    (f"signingConfigs {{ release {{ storePassword '{PICKED}'; keyPassword '{PICKED}' }} }}", PICKED),
    (f"ConnectionError: login failed for svc-backup with password {PICKED}", PICKED),
    (f"E         oci auth token: {SYMBOLS}", SYMBOLS),
    (f"No such file or directory: '/var/cache/creds/{DRAWN}/session.json'", DRAWN),
    (f"mounted /run/secrets/{DRAWN}", DRAWN),
    (f"POST https://api.telegram.org/bot{TELEGRAM}/sendMessage", TELEGRAM),
    (f"HUAWEICLOUD_SDK_SK={DRAWN}", DRAWN),
    ("kubeadm join 10.0.0.1:6443 --token lf5fxf.dltqdjghskvz7a14", "lf5fxf.dltqdjghskvz7a14"),
    (f"2026-11-30 08:52:51,323 WARNING etl.pipeline: secret_value: >-\n  {BLOCK}\n2026-11-30 08:52:52 INFO done", BLOCK),
    (f'let api_secret = String::from("{PICKED}");', PICKED),
    (f'db_password = SecretStr("{DRAWN}")', DRAWN),
    (f"E         FIGMA_TOKEN={FIGMA}\nE         SearchClient.create('LATENCY', '{HEX32}')", HEX32),
]


def test_a_whole_token_keeps_the_next_line():
    """The wrap rule joined the next line's ``SearchClient`` to a whole token: the line lost its start."""
    out = redact_text(f"FIGMA_TOKEN={FIGMA}\nSearchClient.create('LATENCY', region)", home="")
    assert out == "FIGMA_TOKEN=<redacted:figma-token>\nSearchClient.create('LATENCY', region)", out


STAYS_R8 = [
    "pass_phrase_hint=ask the admin; passphrase strength: 12 characters",
    "storePassword 'changeit' is the JDK default; keyPassword project.property",
    "deploy to $HOME/app with password_policy Exp#12_A",
    "token: Optional[Dict[str, Any]] = None; secret: Callable[[Tensor], Tensor]; api_key: Tensor(shape=[2, 3])",
    "password: (HttpResponse); token: List[int]) ok; token: <Token text=Hello>",
    "/run/secrets/kubernetes.io/serviceaccount/token /home/me/secrets/production-database.yaml",
    f"/var/lib/tokens/{'3f9a' * 8}/cache",
    "https://api.telegram.org/bot/getMe robot3498559007:aagzm1zgjb6kvpa5cn_k6ay3iecshn1lgbu",
    "LANG_SK=sk_SK.UTF-8 LOCALE_SK=slovak",
    "python -m torch.distributed.run --token-file tokens.txt --model torch.float32",
    "INFO x: description: >-\n  a model card written in words\n",
    'password = getpass("Password: "); api_key = open("keys/prod.json").read(); secret = Path("/run/secrets/db")',
    'token = tokenizer("hello world"); token = os.environ.get("GH_TOKEN")',
    "Traceback:\n  File model.py\nDataLoader.create(batch_size)",
]


def test_an_sdk_secret_key_name_is_secret_bearing():
    assert is_secret_env_name("HUAWEICLOUD_SDK_SK") and is_secret_env_name("OBS_ACCESS_SK")
    assert not is_secret_env_name("LANG_SK") and not is_secret_env_name("HUAWEICLOUD_SDK_AK")


def test_a_dotted_drawn_argument_is_a_credential_not_a_module_path():
    assert argv_secrets(["--token", "lf5fxf.dltqdjghskvz7a14"]) == {"lf5fxf.dltqdjghskvz7a14": "secret-argument"}
    assert argv_secrets(["--token-dtype", "torch.float32"]) == {}


def test_inside_code_strings_the_context_rules_apply_and_the_code_parses():
    source = "\n".join([
        f"NOTE_3 = 'ConnectionError: login failed for svc-backup with password {PICKED}'",
        f"NOTE_10 = 'oci auth token: {SYMBOLS}'",
        f"NOTE_28 = 'UserWarning: mirror rejected credential {DRAWN}; falling back'",
        f"NOTE_20 = '{{\"username\": \"acme-ml\", \"key\": \"{HEX32}\"}}'",
        f"NOTE_1 = 'secret_value: >-\\n  {BLOCK}'",
        "",
    ])
    out = redact_code(source)
    ast.parse(out)
    for secret in (PICKED, SYMBOLS, DRAWN, HEX32, BLOCK):
        assert secret not in out, out
    assert "login failed for svc-backup with password <redacted" in out  # replaced inside its literal


def test_inside_code_strings_their_lookalikes_stay():
    source = "\n".join([
        "msg = 'password is required (min 12 chars)'",
        "hint = 'set the password to something memorable'",
        f"NOTE_21 = '{{\"cache_key\": \"{HEX32}\"}}'",
        f"d = {{\"key\": \"{HEX32}\"}}",
        "NOTE_2 = 'description: >-\\n  plain words here'",
        "",
    ])
    assert redact_code(source) == source


# ------------------------------------------------------------------ after blind round 9's results (not blind now)

OPS = "ops_eyJzaWduSW5BZGRyZXNzIjoi" + _drawn(150, seed=3)
INFISICAL = "st.5c3cee8b-9adf-416e-a597-7a245fc50d34." + "40043d0f833ba36c" * 2 + "." + "80c7fb401ed38471" * 2
TWITCH = "aoep0s39j53clg6zinh1oms34owi7b"


GOES_R9 = [
    (f"op read op://ci/db/password with {OPS}", OPS),
    (f"infisical run --env=prod {INFISICAL}", INFISICAL),
    (f"# twitch client secret {TWITCH}", TWITCH),
    (f"upload: error: argument --hub-token-ttl: invalid int value: '{DRAWN}'", DRAWN),
    (f"1 validation error for Settings\nhub_token\n  String should have at most 32 characters "
     f"[type=string_too_long, input_value='{DRAWN}', input_type=str]", DRAWN),
    (f"RuntimeError: session state: {{'auth': ('svc-export', '{PICKED}'), 'proxies': {{}}}}", PICKED),
    (f"requests.get(url, auth=('svc', '{PICKED}'))", PICKED),
    (f"service,username,password,rotated\nbilling,svc-billing,{PICKED},2026-10-01", PICKED),
    (f"| service | user | api_token |\n|---|---|---|\n| billing | svc | {DRAWN} |", DRAWN),
    (f"[(b'host', b'api.acme.io'), (b'x-api-key', b'{DRAWN}'), (b'accept', b'*/*')]", DRAWN),
]


STAYS_R9 = [
    "usage: upload [-h] [--hub-token HUB_TOKEN] [--password PASSWORD]",
    "error: argument --epochs: invalid int value: 'ten'",
    "1 validation error for Settings\nbatch_size\n  Input should be a valid integer [type=int_parsing, "
    "input_value='abc', input_type=str]",
    "name,value,count\nlr,0.1,3\nbs,32,4",
    'withheld:\n  "HF_TOKEN",\n  "REDIS_URL",\n  "SSHPASS"',
    "id,token_count,score\n1,42,0.3",
    "x SORT_KEY=created_at PARTITION_KEY=region y",
    "the secret sauce recipe_for_grandmothers_cake stays",
]


def test_a_tools_set_name_value_arguments():
    secret = "Cy38bQOMCI0JHHCOhDZMpO/AC3FzU64fZi6sPQlQ"
    assert argv_secrets(["configure", "set", "aws_secret_access_key", secret]) == {secret: "secret-argument"}
    assert argv_secrets(["config", "set", "sort_key", "created_at"]) == {}
    assert argv_secrets(["config", "add-authtoken", "--help"]) == {}


@pytest.mark.parametrize("value, plain", [
    ("PYTHONHASHSEED=3978041947", True),
    ("torch-2.13.0+cpu-cp312-cp312-manylinux_2_28_x86_64.whl", True),
    ("4093827712", True),
    ("API_TOKEN=abc123xyz987", False),
    ("Xk29!abQ7wqLm", False),
    # name:value options of numbers, booleans and words (PYTORCH_CUDA_ALLOC_CONF's); not a secret's name or a drawn value
    ("expandable_segments:True,max_split_size_mb:512", True),
    ("PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync", True),
    ("garbage_collection_threshold:0.6;roundup_power2_divisions:4", True),
    ("password:Hunter", False),
    ("region:eu,user:Xk9Lm2Qp7Rt4Vw8Z", False),
])
def test_an_env_value_that_is_a_setting_or_a_file_name_is_plain(value, plain):
    from reportkit.redact import plain_setting

    assert plain_setting(value) is plain


def test_pasted_into_comments_a_table_and_a_pydantic_error_keep_their_rules():
    """Each comment line is a piece of prose of its own: a table's header and its rows, pydantic's field and
    its message, are read across the comment lines."""
    source = (f"# service,username,password,rotated\n# billing,svc-billing,{PICKED},2026-10-01\n"
              f"# hub_token\n#   String should have at most 32 characters [type=string_too_long, "
              f"input_value='{DRAWN}', input_type=str]\n# name,value\n# lr,0.1\nx = 1\n")
    out = redact_code(source)
    assert PICKED not in out and DRAWN not in out and "# lr,0.1" in out, out


@pytest.mark.parametrize("text, changed", [
    (f"ValueError: invalid literal for int() with base 10: '{DRAWN}'", True),
    (f"ValueError: could not convert string to float: '{PICKED}'", True),
    ("ValueError: invalid literal for int() with base 10: 'twelve hundred'", False),
    ("ValueError: could not convert string to float: '1,5e-3'", False),
])
def test_pythons_echo_of_a_drawn_value_it_could_not_convert(text, changed):
    assert (redact_text(text, home="") != text) is changed


@pytest.mark.parametrize("text, changed", [
    ("channels:\n  - https://conda.anaconda.org/t/wt-a94d2ee2-af57-478e-8ae4-3dc07a75c73e/acme", True),
    (f"pip install --index-url https://pypi.anaconda.org/t/{DRAWN}/acme/simple pkg", True),
    ("https://conda.anaconda.org/t/some-route-words-here/acme", False),
    (f"https://example.org/t/{DRAWN[:24]}/page", False),  # another host's /t/ is a route
    # (but 32 letters and digits drawn are a key in any URL's path: the capability-URL rule, round 30)
    (f"https://example.org/t/{DRAWN}/page", True),
])
def test_an_anaconda_token_in_a_channels_url(text, changed):
    assert (redact_text(text, home="") != text) is changed


# ------------------------------------------------------------------ after blind round 10's results (not blind now)

R10 = _drawn(36, seed=23)


GOES_R10 = [
    (f"┡━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━┩\n│ REGION       │ eu-west-1    │\n│ DEPLOY_TOKEN │ {R10} │", R10),
    (f"Key         Value\n---         -----\npassword    {PICKED}\nuser        svc", PICKED),
    (f"[['user' 'svc-etl']\n ['api_token' '{R10}']]", R10),
    (f"<RequestsCookieJar[Cookie(version=0, name='auth_token', value='{R10}', port=None)]>", R10),
    (f'{{"headers": [{{"name": "X-Api-Key", "value": "{R10}"}}, {{"name": "Accept", "value": "*/*"}}]}}', R10),
    (f'env:\n- name: HUB_API_TOKEN\n  value: "{R10}"', R10),
    (f"<dict>\n  <key>APIToken</key>\n  <string>{R10}</string>", R10),
    (f'<wsse:Password Type="http://docs.oasis-open.org/wss#PasswordText">{PICKED}</wsse:Password>', PICKED),
    (f"REGISTRY_TOKEN ?= {R10}\nCFLAGS += -O2", R10),
    (f'#define ACME_LICENSE_KEY "{R10}"', R10),
    (f"userlist admins\n    user ops insecure-password {PICKED}", PICKED),
    (f"Anmeldung fehlgeschlagen für Benutzer etl (Passwort: {PICKED})", PICKED),
    (f"mapping values are not allowed here\n      deploy_token: {R10}: expires 2027", R10),
    ("profile KEYCD6C0B90BE5AA69141FD1B10A9D748EC_MxXg6yLv2vuQwUbOiymKjB", "KEYCD6C0B90BE5AA69141FD1B10A9D748EC"),
    ("session 00DaY6JkNlFasfy!Y1g39ehQrxMzwr7q1vJz9fKgote9AQysl50RdcsBVGqdLoTmGpCrXYtPWA1LxgXmhJSUhUwHPzJAB9a9lqiD.hIW",
     "00DaY6JkNlFasfy"),
]


STAYS_R10 = [
    "│ model_name │ resnet50_v2_imagenet │\n│ token_count │ 1234567 │",
    "name    value\nlr      0.001\nbatch   32",
    '{"name": "Accept", "value": "application/json"}',
    "- name: LOG_LEVEL\n  value: debug",
    "<key>CFBundleVersion</key><string>1.2.3</string>",
    "test_token_refresh    PASSED    0.12s",
    "CFLAGS += -O2 -Wall\nVERSION := 1.2.3",
    '#define MAX_TOKENS 4096\n#define API_KEY_HEADER "X-Api-Key"',
    "Das Passwort muss mindestens 12 Zeichen lang sein",
    "secret_key: value: nested; token_type: bearer: yes",
    "KEYBOARD_LAYOUT_US_INTERNATIONAL_WITH_DEAD_KEYS_ENABLED",
]


GOES_LOGGED = [
    (f'2026-11-30 09:12:44 WARNING etl: #define ACME_LICENSE_KEY "{R10}"', R10),
    (f"E   REGISTRY_TOKEN ?= {R10}", R10),
]


def test_a_masked_value_is_no_secret():
    assert redact_text("token: ****************a1b2 (masked)", home="") == "token: ****************a1b2 (masked)"


@pytest.mark.parametrize("value, plain", [
    ("/root/.cache/pip/wheels/ab/cd/0123456789abcdef0123456789ab/acme_utils-1.4.0-py3-none-any.whl", True),
    (r"^(?=.*[A-Z])(?=.*\d)(?=.*[!#$%&*?@^~]).{12,}$", True),
    ("a.*b", True),  # short: below the known values' least length
    ("Xk29!abQ7wqLm", False),
    ("Kx7.*Lm2[Qa]{3,}Zz", True),  # a pattern's syntax, three kinds: a setting (no password is written so)
])
def test_an_env_value_that_is_a_path_or_a_pattern_is_plain(value, plain):
    from reportkit.redact import plain_setting

    assert plain_setting(value) is plain


# ------------------------------------------------------------------ a credential near its name (round 11's shapes)

GOES_NEAR = [
    ('fields { key: "password" value { string_value: "' + PICKED + '" } }', PICKED),
    (f'#0  login (user=0x5555 "svc", password=0x5556 "{PICKED}") at auth.c:42', PICKED),
    (f"<tr><td>api_token</td><td>{R10}</td></tr>", R10),
    (f"Failed validating 'maxLength' in schema['properties']['token']: '{R10}' is too long", R10),
]


STAYS_NEAR = [
    '<script src="/app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC">',
    f'"integrity": "sha512-{"Lqh3WP7gawpEZL+Berr8RLneaeNLONoBYlVKV1Y45y/7lY/jyTg1IfxNOVJNtR2WiNG3vXMyKQbPSHWD2t5ETg=="}" token',
    "token used for github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl",
    f"auth image pytorch/pytorch@sha256:{'9f3a' * 16}",
    "the token count is 4096 and the secret sauce is 2026-11-30T09:12:44.003Z",
    f"auth failed at commit {'3f9c' * 10}; secret id 6f1c2a3b-1d2e-4f5a-8b9c-0d1e2f3a4b5c",
    "password policy: at least 12 characters, a digit and a symbol",
]


@pytest.mark.parametrize("text, secret", GOES_R8 + GOES_R9 + GOES_R10 + GOES_LOGGED + GOES_NEAR)
def test_a_credential_in_these_forms_goes(text, secret):
    out = redact_text(text, home="")
    assert secret not in out and "<redacted:" in out, out


@pytest.mark.parametrize("text", STAYS_R8 + STAYS_R9 + STAYS_R10 + STAYS_NEAR)
def test_their_lookalikes_stay(text):
    assert redact_text(text, home="") == text
