"""Redaction by what a value is *called* (issue 35): password options given as two arguments, options with a
secret's word inside their name, a vendor's name alone, ``*_PASSWORD_ENV``-like names. Each rule is tested from
the rule with values of its own (random parts drawn per run), with the ordinary values next to them that must
stay."""

from __future__ import annotations

import ast
import json
import random
import string

import pytest

from reportkit.redact import (
    argv_secrets,
    forget_known,
    redact_argv,
    redact_code,
    redact_data,
    redact_text,
    remember_argv,
    remember_code,
)

RNG = random.Random()


def _hex(n: int) -> str:
    while True:
        s = "".join(RNG.choice("0123456789abcdef") for _ in range(n))
        if any(c.isdigit() for c in s) and any(c.isalpha() for c in s):
            return s


def _pw(symbol: str = "") -> str:
    """A password a person made up: a capitalised word, digits, a symbol, a word, digits."""
    return (RNG.choice(["Walnut", "Ember", "Glacier", "Saffron"]) + str(RNG.randint(100, 999))
            + (symbol or RNG.choice("!#%*.-_")) + RNG.choice(["orbit", "meadow", "lantern"]) + str(RNG.randint(10, 99)))


def _rand(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    while True:
        s = "".join(RNG.choice(alphabet) for _ in range(n))
        if any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s):
            return s


@pytest.fixture(autouse=True)
def _no_known_values():
    forget_known()
    yield
    forget_known()


# --------------------------------------------------------------------------- a password option and its value as two arguments


@pytest.mark.parametrize("command", [
    ["sshpass", "-p", "{pw}", "scp", "a", "host:b"],
    ["/usr/bin/sshpass", "-p", "{pw}", "ssh", "host"],
    ["docker", "login", "registry.example.org", "-u", "ci", "-p", "{pw}"],
    ["podman", "login", "--password", "{pw}", "quay.example.org"],
    ["ldapsearch", "-x", "-D", "cn=admin", "-w", "{pw}", "-b", "dc=x"],
    ["htpasswd", "-bc", "/etc/nginx/.htpasswd", "alice", "{pw}"],
    ["htpasswd", "-nb", "alice", "{pw}"],
    ["smbclient", "//files/share", "-U", "bob%{pw}"],
    ["zip", "-P", "{pw}", "out.zip", "a.txt"],
    ["mongosh", "--host", "db", "-u", "root", "-p", "{pw}"],
    ["redis-cli", "-h", "cache", "-a", "{pw}", "ping"],
])
def test_tool_password_options_are_known_values(command):
    pw = _pw("-").lower()  # a shape no rule would guess: only the tool's option says it is a password
    argv = ["--cmd", *[a.format(pw=pw) for a in command]]
    assert pw in argv_secrets(argv)
    remember_argv(argv)
    assert pw not in redact_text(f"ssh: permission denied with {pw} (publickey,password)", home="")
    assert pw not in " ".join(redact_argv(argv))


@pytest.mark.parametrize("command", [
    ["docker", "run", "-p", "8080:80", "nginx-alpine-3"],
    ["zip", "-r", "archive-2024.zip", "src"],
    ["htpasswd", "-c", "/etc/nginx/.htpasswd", "alice-admin"],
    ["sshpass", "-f", "/run/secrets/pw-file", "ssh", "host"],
])
def test_tool_commands_without_a_password_keep_their_arguments(command):
    assert argv_secrets(command) == {}


def test_a_scripts_own_short_password_option_with_a_passwords_make_up():
    pw = _pw()
    found = argv_secrets(["--epochs", "3", "-p", pw, "--name", "trial-7"])
    assert pw in found and "trial-7" not in found
    for value in ("8080", "./checkpoints/run-3", "prod", "0.25", "bert-base-uncased", "2.13.0+cpu", "fp16"):
        assert argv_secrets(["-p", value, "-P", value]) == {}, value


# --------------------------------------------------------------------------- a secret's word inside an option's name


@pytest.mark.parametrize("flag", ["--db-password-primary", "--vaultpass-cli", "--token-admin", "--secret-value2"])
def test_option_with_a_secret_word_inside_its_name(flag):
    pw = _pw("!")  # (a dotted word with digits is a password only after a password's name: next test)
    for argv in ([f"{flag}={pw}"], [flag, pw]):
        forget_known()
        assert pw in argv_secrets(argv), argv
        remember_argv(argv)
        # the run line of issue.md and bundle.json's "args"
        assert pw not in " ".join(redact_argv(["python", "job.py", *argv]))
        assert pw not in redact_text(json.dumps(redact_data({"args": argv}, home="")), home="")


@pytest.mark.parametrize("argv", [
    ["--max-tokens", "4096"], ["--sort-key", "created_at"], ["--password-policy", "strict"],
    ["--token-type", "Bearer"], ["--secret-scan", "enabled"], ["--auth-url", "https://login.example.org/oauth"],
    ["--cookie-jar", "./cookies.txt"], ["--key-column", "user_id"],
])
def test_options_with_a_secret_word_and_an_ordinary_value_stay(argv):
    assert argv_secrets(argv) == {}


# --------------------------------------------------------------------------- a vendor's name alone


@pytest.mark.parametrize("template", [
    'MAILGUN = "{v}"', 'sendgrid = "{v}"', 'CONFIG = {{"pinecone": "{v}"}}', 'connect(stripe="{v}")',
    'self.SENTRY_KEY = "{v}"',
])
@pytest.mark.parametrize("value", [lambda: _hex(32), lambda: _rand(30), lambda: _rand(30, string.ascii_letters + "0")])
@pytest.mark.parametrize("seed", range(4))
def test_code_vendor_name_holding_a_random_value(template, value, seed):
    # (seeded; a draw with few digits, or one case run long by chance, was a real gap: :func:`_drawn_letters`)
    RNG.seed(seed)
    v = value()
    out = redact_code("import os\n" + template.format(v=v) + "\n", home="")
    assert v not in out and '"<redacted>"' in out
    ast.parse(out)
    remember_code(template.format(v=v) + "\n")
    assert v not in redact_text(f"time data {v!r} does not match format", home="")  # wherever it travels


@pytest.mark.parametrize("line", [
    'GITHUB_SHA = "{h}"', 'commit = "{h}"', 'checksum = "{h}"', 'mailgun = "enabled"', 'stripe = 3',
    'SLACK_CHANNEL_ID = "{h}"', 'wandb = "offline-run-2"', 'github_run_id = "{h}"',
])
def test_code_ordinary_values_under_vendor_or_other_names_stay(line):
    source = line.format(h=_hex(40)) + "\n"
    assert redact_code(source, home="") == source


def test_text_vendor_name_assignment_and_vendor_option():
    v, h = _hex(32), _hex(40)
    assert v not in redact_text(f"loaded MAILGUN={v} from the vault", home="")
    assert h in redact_text(f"GITHUB_SHA={h}", home="")
    assert v in argv_secrets(["--pinecone", v]) and h not in argv_secrets(["--commit", h])


# --------------------------------------------------------------------------- *_PASSWORD_ENV / *_KEY_VAR names


@pytest.mark.parametrize("template", [
    'REDIS_PASSWORD_ENV = "{v}"', 'comet_key_env = "{v}"', 'settings["smtp_token_var"] = "{v}"',
    'os.environ["ADMIN_PASSWD_ENV"] = "{v}"',
])
@pytest.mark.parametrize("value", [_pw, lambda: _hex(32)])
def test_code_env_suffixed_secret_name_holding_a_value(template, value):
    v = value()
    out = redact_code(template.format(v=v) + "\n", home="")
    assert v not in out and '"<redacted>"' in out
    ast.parse(out)
    remember_code("import os\n" + template.format(v=v) + "\n")
    assert v not in redact_text(f"could not connect: {v}", home="")


@pytest.mark.parametrize("line", [
    'REDIS_PASSWORD_ENV = "REDIS_PASSWORD"', 'api_key_env = "comet_api_key"', 'SECRET_ENV = "prod-eu1"',
    'TOKEN_VAR = "HF_TOKEN"', 'password_env = "staging"',
])
def test_code_env_suffixed_names_holding_a_variables_name_stay(line):
    assert redact_code(line + "\n", home="") == line + "\n"


def test_text_env_suffixed_assignment():
    pw = _pw()
    assert pw not in redact_text(f"REDIS_PASSWORD_ENV={pw}", home="")
    assert "REDIS_PASSWORD_ENV=REDIS_PASSWORD" in redact_text("REDIS_PASSWORD_ENV=REDIS_PASSWORD", home="")


# --------------------------------------------------------------------------- a value on the last line before pytest's "====="


def test_text_secret_right_before_a_pytest_separator_line():
    v = _hex(32)
    log = f"----- Captured stderr call -----\nSTAGING_API_KEY={v}\n===== short test summary info =====\nFAILED t.py"
    out = redact_text(log, home="")
    assert v not in out and "===== short test summary info =====" in out
    assert redact_text("a = b\n== c", home="") == "a = b\n== c"


@pytest.mark.parametrize("line", [
    "+ ldapsearch -x -D cn=admin -w {pw} -b dc=example", "zip -q -P {pw} out.zip a.txt", "unzip -P '{pw}' in.zip",
    "mongosh --host db -u root -p {pw}", "smbclient //files/share -U bob%{pw}", "htpasswd -bc /etc/.htpasswd alice {pw}",
    "htpasswd -nb alice {pw}", "sqlcmd -S db -U sa -P {pw}",
])
def test_text_tool_password_options(line):
    pw = _pw("-").lower()
    out = redact_text(line.format(pw=pw), home="")
    assert pw not in out and "<redacted:credentials>" in out
    assert pw not in redact_code(f"cmd = {line.format(pw=pw)!r}\n", home="")


@pytest.mark.parametrize("line", ["zip -r out.zip src", "htpasswd -c /etc/.htpasswd alice", "python zip.py -P 5 threads",
                                  "gzip -P fast-mode", "docker run -p 8080:80 nginx"])
def test_text_tool_commands_without_a_password_stay(line):
    assert redact_text(line, home="") == line


@pytest.mark.parametrize("target", ["job.py", "test_job.py::test_sync"])
def test_every_targets_named_literals_are_known_values(tmp_path, target):
    """Not only check/bundle/minimize: a ci target (a pytest node) remembers them too, so the failing
    test's message that echoes one is redacted in issue.md and the summaries, not only in the reproducer."""
    from reportkit.run.runner import target_spec

    pw, key = _pw(), _hex(32)
    path = tmp_path / target.split("::")[0]
    path.write_text(f"DEPLOY_PASSWORD = {pw!r}\nSENDGRID = {key!r}\n\ndef test_sync():\n    assert 0\n",
                    encoding="utf-8")
    target_spec(str(tmp_path / target), [])
    out = redact_text(f"time data '{pw} | {key}' does not match format", home="")
    assert pw not in out and key not in out


# --------------------------------------------------------------------------- inside a repr'd list, across a line's end, headers


def test_text_assignments_as_items_of_a_repr_list():
    pw, tok = _pw(), _rand(24)
    line = repr([f"SVC_DEPLOY_TOKEN={tok}", f"db.password={pw}", "max_tokens=512", "token=abc"])
    out = redact_text(f"locals: env = {line}", home="")
    assert tok not in out and pw not in out
    assert "'max_tokens=512'" in out and "'token=abc'" in out


def test_text_token_whole_on_its_line_does_not_swallow_the_next_line():
    pw = _pw(".")  # a dotted one too: after a password's option it is a password, not a module path
    text = f"auth failed for sk-proj-{_rand(40)}\n--admin-password {pw}\n2031-04-05 12:00:01 retrying"
    out = redact_text(text, home="")
    assert pw not in out and "\n--admin-password <redacted" in out and "\n2031-04-05 12:00:01 retrying" in out


def test_text_token_wrapped_across_lines_is_still_joined():
    head, tail = _rand(52), _rand(30)
    out = redact_text(f"key: sk-proj-{head}\n{tail}\nnext line", home="")
    assert head not in out and tail not in out and "next line" in out


@pytest.mark.parametrize("name", ["GITLAB_PAT", "ADO_BUILD_PAT", "SIGNING_JWKS_PRIVATE", "WAREHOUSE_CONNSTR"])
def test_env_names_of_access_tokens_private_parts_connection_strings(name):
    from reportkit.redact import is_secret_env_name

    assert is_secret_env_name(name)


@pytest.mark.parametrize("name", ["DATE_PAT", "TIME_PAT", "PRIVATE_REGISTRY", "PAT", "PATH"])
def test_env_names_with_those_words_that_are_not_secrets(name):
    from reportkit.redact import is_secret_env_name

    assert not is_secret_env_name(name)


@pytest.mark.parametrize(("argv", "line"), [
    (["twine", "upload", "-u", "__token__", "-p", "{pw}", "dist/x.whl"], "twine upload -p {pw} dist/x.whl"),
    (["7z", "x", "-p{pw}", "a.7z"], "7z x -p{pw} a.7z"),
    (["rabbitmqctl", "add_user", "alice", "{pw}"], "rabbitmqctl add_user alice {pw}"),
    (["az", "login", "--service-principal", "-u", "app", "-p", "{pw}"], "az login --service-principal -u app -p {pw}"),
])
def test_more_tool_passwords_in_argv_and_text(argv, line):
    pw = _pw("-").lower()
    assert pw in argv_secrets([a.format(pw=pw) for a in argv])
    assert pw not in redact_text(line.format(pw=pw), home="")


@pytest.mark.parametrize("header", ["Ocp-Apim-Subscription-Key", "X-Auth-Key", "X-Vault-Token", "X-Client-Secret"])
def test_text_headers_named_as_keys_with_random_values(header):
    v = RNG.choice([_hex(32), _rand(28)])
    assert v not in redact_text(f"{header}: {v}", home="")


@pytest.mark.parametrize("line", ["X-Cache-Key: resnet50-v2-cache-main", "x-idempotency-key: build-2024-01-01",
                                  "X-Request-Token: none", "cache-key: 2024-01-01-build"])
def test_text_headers_named_as_keys_with_ordinary_values_stay(line):
    assert redact_text(line, home="") == line


def test_text_xml_element_named_as_a_secret():
    pw = _pw()
    out = redact_text(f"<server>\n  <username>deploy</username>\n  <password>{pw}</password>\n</server>", home="")
    assert pw not in out and "<username>deploy</username>" in out
    for line in ("<name>password</name>", "<token>pad</token>", "<td>secret</td>", "<apiKey>${env.KEY}</apiKey>"):
        assert redact_text(line, home="") == line


def test_text_odbc_braced_password_holding_a_semicolon():
    head, tail = _rand(8), _rand(8)
    out = redact_text(f"Driver={{ODBC Driver 18}};Server=db;Uid=sa;Pwd={{{head};{tail}}};Encrypt=yes", home="")
    assert head not in out and tail not in out and out.endswith(";Encrypt=yes")


def test_text_quoted_password_holding_a_quote_or_an_escape():
    head, tail = _pw(), _rand(10)
    for pw in (head + "'" + tail, head + "\\'" + tail):
        out = redact_text("conf = " + repr({"user": "etl", "password": pw}), home="")
        assert head not in out and tail not in out and "'user': 'etl'" in out


def test_text_token_head_at_a_lines_end_keeps_the_line_break_before_a_log_prefix():
    head = _rand(16)
    text = f"2031-04-05 10:00:00,001 INFO auth: using key sk-{head}\n2031-04-05 10:00:00,001 INFO (cont) {_rand(30)}"
    out = redact_text(text, home="")
    assert head not in out and "\n2031-04-05 10:00:00,001 INFO (cont) " in out


def test_code_env_suffixed_name_holding_a_key_with_slashes():
    v = _rand(20) + "/" + _rand(19)
    out = redact_code(f'cloud_secret_env = "{v}"\n', home="")
    assert v not in out and out == 'cloud_secret_env = "<redacted>"\n'


def test_text_wrapped_token_whose_next_line_starts_with_a_dash():
    head, tail = _rand(52), "-" + _rand(30)
    out = redact_text(f"key: sk-proj-{head}\n{tail}\nnext line", home="")
    assert head not in out and tail[1:] not in out and "next line" in out


HEX40 = "5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8"


@pytest.mark.parametrize("name", ["hashed_secret", "password_sha256", "tokenDigest", "PASSWORD_SHA256",
                                  "api_key_fingerprint", "password_hash"])
def test_a_secrets_hex_digest_named_so_stays(name):
    # detect-secrets' baseline ({"hashed_secret": "<sha1>"}), a stored hash: not the secret
    for text in (f'{{"{name}": "{HEX40}", "type": "Secret Keyword"}}', f"{name}={HEX40}"):
        assert redact_text(text, env={}, home="") == text
    source = f'{name} = "{HEX40}"\n'
    assert redact_code(source, env={}, home="") == source


@pytest.mark.parametrize("line", [f"hashtoken={HEX40}", f"password={HEX40}", 'password_hash = "Harbor417!Kqzv53"',
                                  'hashed_secret = "Harbor417!Kqzv53"'])
def test_what_is_not_a_hash_under_a_hash_name_or_a_hash_word_glued_goes(line):
    secret = line.split("=", 1)[1].strip(' "')
    assert secret not in redact_text(line, env={}, home="")
    if '"' in line:
        assert secret not in redact_code(line + "\n", env={}, home="")


@pytest.mark.parametrize("sep", ["::", ":::"])
def test_jsonnet_hidden_and_forced_fields_name_their_value(sep):
    value = "Dq" + "".join(random.Random(sep).choices(string.ascii_letters + string.digits, k=30))
    text = f"{{\n  model: 'acme/seg-llm',\n  hf_token{sep} '{value}',\n  env: {{ HF_HOME: '/data/hf' }},\n}}"
    out = redact_text(text, env={}, home="")
    assert value not in out and "model: 'acme/seg-llm'" in out
    source = f'JSONNET = """{text}"""\n'
    out = redact_code(source, env={}, home="")
    assert value not in out
    ast.parse(out)


def test_a_scope_operator_is_no_separator():
    text = "std::string token; x = a[::2]; Foo::Bar; ns::password::reset()"
    assert redact_text(text, env={}, home="") == text


def test_random_base64_under_a_keys_name_goes():
    # (an Azure storage account key in fsspec's storage_options, printed as JSON: its "/" and "+" are no path's)
    rng = random.Random("account_key")
    key = "".join(rng.choices(string.ascii_letters + string.digits + "+/", k=86)) + "=="
    for text in (f'fs: {{"account_name": "acmedata", "account_key": "{key}"}}', f"account_key={key}"):
        assert key not in redact_text(text, env={}, home="")
    for text in (f"public_key: {key}", f"cache_key={key}", "path_key=/usr/lib/python3/dist-packages/x"):
        assert redact_text(text, env={}, home="") == text


def test_a_rust_option_pretty_printed_across_lines_holds_its_value():
    # (TGI's launcher logs its Args with {:#?}: the Some( and the quoted value on separate lines)
    value = "Kx9" + "".join(random.Random("tgi").choices(string.ascii_letters + string.digits, k=15))
    text = f'Args {{\n    api_key: Some(\n        "{value}",\n    ),\n    port: 80,\n    model_id: Some(\n        "bigscience/bloom",\n    ),\n}}'
    out = redact_text(text, env={}, home="")
    assert value not in out and '"bigscience/bloom"' in out
    out = redact_code(f'S = """{text}"""\n', env={}, home="")
    assert value not in out and '"bigscience/bloom"' in out
    ast.parse(out)
