"""Redaction rules of issue 35, each tested from the rule with values of its own (random parts drawn per
test run, so no fixture's value is a constant a rule could have been fitted to)."""

from __future__ import annotations

import ast
import base64
import random
import string

import pytest

from reportkit.redact import argv_secrets, forget_known, is_secret_env_name, redact_code, redact_text

RNG = random.Random()
ALNUM = string.ascii_letters + string.digits


def _r(n: int, alphabet: str = ALNUM) -> str:
    """Random characters that mix upper and lower case and digits (so they never read as words)."""
    while True:
        s = "".join(RNG.choice(alphabet) for _ in range(n))
        if alphabet != ALNUM or (any(c.isupper() for c in s) and any(c.islower() for c in s)
                                 and any(c.isdigit() for c in s)):
            return s


def _hex(n: int) -> str:
    while True:
        s = "".join(RNG.choice("0123456789abcdef") for _ in range(n))
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s):
            return s


def _pw() -> str:
    """A human-made password: words, digits, a symbol."""
    return RNG.choice(["Maple", "Heron", "Quartz"]) + str(RNG.randint(100, 999)) + RNG.choice("!#*%.") + \
        RNG.choice(["fjord", "tulip", "comet"]) + str(RNG.randint(10, 99))


@pytest.fixture(autouse=True)
def _no_known_values():
    forget_known()
    yield
    forget_known()


# --------------------------------------------------------------------------- code: literals bound to secret names


@pytest.mark.parametrize("template", [
    'db_password = "{v}"',
    'self.client_secret = "{v}"',
    'settings["api_key"] = "{v}"',
    'CONFIG = {{"host": "db", "passwd": "{v}"}}',
    'conn = connect(host="db", password="{v}")',
    'os.environ["SVC_DEPLOY_TOKEN"] = "{v}"',
    'os.environ.setdefault("OP_SESSION_team", "{v}")',
    'def login(user, pwd="{v}"):\n    return user',
    'if auth_token == "{v}":\n    pass',
    'accessKey: str = "{v}"',
    'PROD_DB_PASS = "{v}"',
])
@pytest.mark.parametrize("value", [_pw, lambda: _r(28), lambda: "/" + _r(39)])
def test_code_literal_bound_to_a_secret_name_becomes_redacted_whole(template, value):
    v = value()
    source = "import os\n" + template.format(v=v) + "\n"
    out = redact_code(source, home="")
    assert v not in out
    assert '"<redacted>"' in out
    ast.parse(out)


@pytest.mark.parametrize("template", [
    'STAGING_DB_PASSWORD_ENV = "{v}"',
    'signing_secret_header = "{v}"',
    'os.environ["VENDOR_API_KEY_VAR"] = "{v}"',
])
def test_code_secret_name_with_a_location_word_after_it_takes_a_random_value(template):
    # detect-secrets' keyword rule takes a secret's word anywhere in the name: a value that looks random
    # (16+ characters, letters and digits) is the secret; a name or a header's name stays (next test)
    v = _r(28)
    out = redact_code(template.format(v=v) + "\n", home="")
    assert v not in out and '"<redacted>"' in out
    ast.parse(out)


@pytest.mark.parametrize("line", [
    'PASSWORD_ENV = "DB_PASSWORD"',
    'X_API_KEY_HEADER = "X-Api-Key"',
    'api_key_header = "x-api-key-v2"',
    'SECRET_KEY_FILE = "/run/secrets/django_key_2"',
    "self.ntoken = ntoken",
    "password_length = 12",
    'api_version = "2024-02-15-preview"',
    'token_type = "Bearer"',
    'password_file = "/run/secrets/db_password"',
    'pad_token = "<pad>"',
    'eos_token = "</s>"',
    'unk_token = "unk42"',
    'password = "{password}"',
    'password = os.environ["DB_PASSWORD"]',
    'secret_name = "prod-db-credentials"',
    'CACHE_KEY = "resnet50_v2-' + "3" + '"',
    'key = "encoder.layer.0.attention.self.key.weight"',
    'auth = "required"',
    'db_password = "change me later"',  # a value with spaces is not a secret
    'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    'webhook_url = "https://example.org/hooks/build"',
    'cache.set("cache_key", "resnet50-v2-run7")',
    # (a docstring is prose: the text rules apply there, so a password in one goes — test_redact_forms)
    'def f():\n    """Set password_length=12 and token_type=Bearer in the config."""',
])
def test_code_ordinary_bindings_stay(line):
    source = "import os\n" + line + "\n"
    assert redact_code(source, home="") == source


def test_code_vendor_token_keeps_its_specific_marker():
    out = redact_code('KEY = "ghp_' + _r(36) + '"\n', home="")
    assert out == 'KEY = "<redacted:github-token>"\n'


def test_code_literal_whose_value_hides_a_token_behind_escapes():
    token = "xoxb-" + "".join(RNG.choice(string.digits) for _ in range(12)) + "-" + _r(24)
    utf16 = ("client_token=" + "glpat-" + _r(20)).encode("utf-16-le")
    source = f'BANNER = "\\x1b[32m{token}\\x1b[0m"\nRAW = {utf16!r}\nplain = "no secret here\\n"\n'
    out = redact_code(source, home="")
    assert token not in out and "glpat" not in out.replace("\\x00", "")
    assert 'BANNER = "<redacted>"' in out and 'RAW = b"<redacted>"' in out
    assert 'plain = "no secret here\\n"' in out
    ast.parse(out)


def test_code_secret_after_a_keyword_inside_a_string_is_replaced_in_place():
    pw, tok = _pw(), _r(32)
    source = (f'CMD = "exporter --db-password={pw} --table runs"\n'
              f'DSN = "host=db user=app password={pw} sslmode=require"\n'
              f'ARGS = ["upload", "--token", "keep-me", "--api-key {tok}"]\n')
    out = redact_code(source, home="")
    assert pw not in out and tok not in out
    assert 'CMD = "exporter --db-password=<redacted:secret> --table runs"' in out
    assert "user=app password=<redacted:secret> sslmode=require" in out
    ast.parse(out)


def test_code_that_does_not_parse_still_loses_quoted_named_secrets():
    pw = _pw()
    excerpt = f'    conn = connect(\n        password="{pw}",\n'
    assert pw not in redact_code(excerpt, home="")


# --------------------------------------------------------------------------- text


def test_text_basic_credentials_are_recognised_by_decoding():
    creds = base64.b64encode(f"svc:{_pw()}".encode()).decode()
    out = redact_text(f"retrying with header Basic {creds} (attempt 2)", home="")
    assert creds not in out and "<redacted:authorization>" in out
    not_creds = base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(RNG.randrange(256) for _ in range(30))).decode()
    assert redact_text(f"Basic {not_creds}", home="") == f"Basic {not_creds}"


def test_text_header_right_after_an_escaped_line_break():
    tok = _r(32)
    line = f"send: b'GET / HTTP/1.1\\r\\nHost: h\\r\\nAuthorization: Bearer {tok}\\r\\nX-Api-Key: {tok[::-1]}\\r\\n'"
    out = redact_text(line, home="")
    assert tok not in out and tok[::-1] not in out
    assert out.endswith("\\r\\n'")


@pytest.mark.parametrize("cmd", ["sshpass -p '{pw}' scp a b:", 'sshpass -p "{pw}" ssh host',
                                 "podman login quay.io -u bot -p '{pw}'"])
def test_text_quoted_password_options(cmd):
    pw = _pw()
    assert pw not in redact_text(cmd.format(pw=pw), home="")


def test_text_pgpass_line():
    pw = _pw()
    out = redact_text(f"wrote ~/.pgpass: db-7.internal:5432:metrics:reader:{pw}\n", home="")
    assert pw not in out and "db-7.internal:5432:metrics:reader:" in out
    for ordinary in ("12:30:45", "file.py:12:3: error: x", "fe80::1:2:3:4"):
        assert redact_text(ordinary, home="") == ordinary


@pytest.mark.parametrize("value", [lambda: _r(40), lambda: _hex(32), lambda: _r(12) + "/" + _r(20)])
def test_text_credential_word_then_a_random_value(value):
    v = value()
    assert v not in redact_text(f"AccessDenied (secret {v})", home="")
    assert v not in redact_text(f"auth token {v} expired", home="")


@pytest.mark.parametrize("line", ["the secret sauce is patience", "token budget exceeded by 12",
                                  "password reset requested for the account",
                                  "secret 3a9f0c1 is a short sha"])
def test_text_credential_word_then_ordinary_words_stay(line):
    assert redact_text(line, home="") == line


def test_text_wrapped_token_and_next_assignment():
    token = "sk-proj-" + _r(140)
    wrapped = f"Incorrect API key provided: {token[:40]}\n{token[40:120]}\n{token[120:]}."
    out = redact_text(wrapped, home="")
    for piece in (token[8:40], token[40:120], token[120:]):
        assert piece not in out
    hook = f"https://discord.com/api/webhooks/{RNG.randint(10**17, 10**18)}/{_r(60)}"
    pw = _pw()
    out = redact_text(f"DISCORD_WEBHOOK={hook}\nPGPASSWORD={pw}\n", home="")
    assert pw not in out and "PGPASSWORD=" in out


def test_text_password_that_looks_like_a_dotted_name():
    pw = RNG.choice(["Harbor", "Lotus"]) + str(RNG.randint(100, 999)) + ".north" + str(RNG.randint(10, 99))
    out = redact_text(f"connecting with {{'user': 'app', 'password': '{pw}'}}\nSSHPASS={pw}\n", home="")
    assert pw not in out
    assert redact_text("token=torch.float16", home="") == "token=torch.float16"


@pytest.mark.parametrize("name", ["PROD_PGPASS_ENTRY", "CI_OP_SESSION_team", "API_BEARER"])
def test_env_names_that_say_secret(name):
    assert is_secret_env_name(name)


@pytest.mark.parametrize("name", ["BYPASS_CACHE", "COMPASS_DIR", "SSHPASS_FILE", "XDG_SESSION_TYPE", "KEYBOARD"])
def test_env_names_that_do_not(name):
    assert not is_secret_env_name(name)


# high-confidence vendor shapes (their public prefixes, random bodies)
VENDOR = [
    lambda: "key-" + _hex(32),
    lambda: "lsv2_pt_" + _hex(32) + "_" + _hex(10),
    lambda: "AKCp8" + _r(65),
    lambda: str(RNG.randint(10**8, 10**9)) + ":AA" + _r(33, ALNUM + "_-"),
    lambda: "GOCSPX-" + _r(28),
    lambda: "1//0" + _r(60),
]


@pytest.mark.parametrize("make", VENDOR, ids=["mailgun", "langsmith", "artifactory", "telegram", "google-client",
                                              "google-refresh"])
def test_vendor_shapes_in_text_and_code(make):
    v = make()
    assert v not in redact_text(f"request failed with {v} (401)", home="")
    out = redact_code(f'VALUE = "{v}"\n', home="")
    assert v not in out and out.startswith('VALUE = "<redacted:')


# --------------------------------------------------------------------------- argv


def test_argv_key_options_with_hex_values_and_dotted_passwords():
    hexkey, pw = _hex(40), "Cobalt" + str(RNG.randint(100, 999)) + ".river" + str(RNG.randint(10, 99))
    found = argv_secrets(["--metrics-key", hexkey, "--db-password", pw, "--sort-key", "created_at",
                          "--commit", _hex(40)])
    assert hexkey in found and pw in found
    assert "created_at" not in found


# --------------------------------------------------------------------------- the signature as shown


def test_shown_signature_is_normalized_after_redaction():
    from reportkit.failure.signature import FailureKind, Signature, shown_message

    hook = f"https://discord.com/api/webhooks/{RNG.randint(10**17, 10**18)}/{_r(60)}"
    raw = f"time data '{hook}' does not match format '%Y-%m-%d'"
    sig = Signature(kind=FailureKind.EXCEPTION, exc_type="ValueError",
                    message=raw.replace(hook.split("/")[-2], "N"), raw_message=raw)
    assert hook.split("/")[-1] not in shown_message(sig)
    plain = Signature(kind=FailureKind.EXCEPTION, exc_type="ValueError", message="bad value N", raw_message="bad value 3")
    assert shown_message(plain) == "bad value N"



def test_literals_bound_to_secret_names_become_known_values():
    from reportkit.redact import remember_code

    key = "".join(RNG.choice(string.ascii_lowercase + string.digits + "!@#$%^&*(-_=+)") for _ in range(50))
    remember_code(f'import os\nSECRET_KEY = {key!r}\nDEBUG = "yes-please-123"\n')
    # minimize inlined it into a call, an error message echoes it: the name is gone, the value is known
    assert key not in redact_code(f'strptime({key!r}, "%Y")\n', home="")
    assert key not in redact_text(f"time data {key!r} does not match", home="")
    assert "yes-please-123" in redact_text("mode yes-please-123", home="")


@pytest.mark.parametrize("shape", ["xx_xxxx_0xX00XxXxxXXxxxxX0xxx0xx", "XXXX-xxxx-0000-xxxx", "xxxxxxxx.xxxx.x0xx"])
def test_minimizes_same_shape_placeholder_is_no_secret(shape):
    """The placeholder minimize writes where a secret's value does not matter (letters x/X, digits 0: the
    secret's shape) stays as written: redacting it would change what the reproducer does."""
    code = f'client = {{"token": "{shape}"}}\napi_key = "{shape}"\n'
    assert redact_code(code, home="") == code


@pytest.mark.parametrize("next_line", ["2025-03-02 08:15:44 INFO step 2 of 9", "--api-key {value} --retries 3",
                                       "WARNING retrying in 3 s", "a1b2c3d4 step 2 of 9"])
def test_text_a_whole_token_at_a_line_end_does_not_take_the_next_lines_first_word(next_line):
    """A token already whole on its line is not joined to the next line's first word when more words follow
    it there (a log's date, a --flag): the line break stays, and the next line is redacted on its own."""
    token = "sk-ant-api03-" + _r(80)
    value = _r(24)
    text = f"auth failed with {token}\n{next_line.format(value=value)}\nend\n"
    out = redact_text(text, home="")
    assert token[13:] not in out and value not in out
    assert out.count("\n") == text.count("\n"), out
    assert out.splitlines()[1].split()[0] == next_line.split()[0], out
