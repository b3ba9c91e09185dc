"""Known values (and tokens) in strings the code composes (issue 35, item 5): a secret split between literals
joined by ``+`` or written side by side, in code (which still parses) and in a traceback's source line; a drawn
value after "key" in a comment; and, kept here as guards, the forms a known value takes when a script prints it
(in a list given to subprocess, a Spark setting, ``f"{salt=}"``, a bytes repr, ``environ({...})``, ``shlex.join``'s
quoting, an ``otpauth://`` URI, URL-encoded twice). Ordinary composed strings and comments stay."""

from __future__ import annotations

import ast
import secrets
import shlex
import string
import urllib.parse

import pytest

from reportkit.redact import redact_code, redact_text

A = string.ascii_letters + string.digits


def r(n: int, alphabet: str = A) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


def key() -> str:
    return "Pq7" + r(29) + "x9Z"


@pytest.mark.parametrize("source", [
    'key = "{a}" + "{b}"\n',
    'key = ("{a}"\n       "{b}")\n',
    'url = "s3://bucket/?k=" + "{a}" + "{b}" + "&v=2"\n',
    'client = Client(secret="{a}" "{b}", region="eu")\n',
])
def test_a_known_value_the_code_composes_is_redacted(source):
    value = key()
    half = len(value) // 2
    out = redact_code(source.format(a=value[:half], b=value[half:]), env={"S3_SECRET_KEY": value}, home="")
    assert value[:half] not in out and value[half:] not in out, out
    ast.parse(out)


def test_a_token_the_code_composes_is_redacted():
    token = "ghp_" + r(36)
    out = redact_code(f'TOKEN = "{token[:6]}" + "{token[6:]}"\nprint(TOKEN)\n', env={}, home="")
    assert token[6:] not in out, out
    ast.parse(out)


def test_a_composed_known_value_in_a_traceback_line_is_redacted():
    value = key()
    text = (f'  File "/app/s3.py", line 4, in <module>\n    key = "{value[:10]}" + "{value[10:]}"\n'
            "NameError: name 'boto3' is not defined\n")
    out = redact_text(text, env={"S3_SECRET_KEY": value}, home="")
    assert value[10:] not in out and value[:10] not in out, out


def test_a_drawn_value_after_key_in_a_comment_is_redacted():
    value = r(20, string.ascii_lowercase) + r(10, string.ascii_uppercase) + r(10, string.digits)
    value = "".join(secrets.SystemRandom().sample(value, len(value)))
    source = f"BUCKET = 'logs'  # bucket key {value}\n"
    out = redact_code(source, env={}, home="")
    assert value not in out, out
    ast.parse(out)
    assert value not in redact_text(f"# bucket key {value}", env={}, home="")


@pytest.mark.parametrize("form", [
    lambda k: f"['gpg', '--batch', '--passphrase', '{k}', '-c', 'backup.tar']",
    lambda k: f'spark.conf.set("fs.s3a.secret.key", "{k}")',
    lambda k: f"salt={k!r}",
    lambda k: f"received b'{k}'",
    lambda k: f"environ({{'HOME': '/root', 'S3_SECRET_KEY': '{k}'}})",
    lambda k: shlex.join(["tool", "--key", k]),
    lambda k: f"otpauth://totp/Acme:me?secret={k}&issuer=Acme",
    lambda k: "u=" + urllib.parse.quote(urllib.parse.quote(k, safe=""), safe=""),
])
def test_a_known_value_in_the_forms_a_script_prints_it_is_redacted(form):
    value = key()[:12] + "'/+=" + key()[12:]
    out = redact_text(form(value), env={"S3_SECRET_KEY": value}, home="")
    assert value[:12] not in out and value[16:] not in out, out


@pytest.mark.parametrize("source", [
    'msg = "Hello, " + "world"\n',
    'path = "/tmp/" + "run_" + "0001"\n',
    'key = "abc" + name\n',
    'BLOB = "cache"  # cache key 9c1e0b7d9c1e0b7d9c1e0b7d9c1e0b7d\n',
    'HOST = "h"  # public key AAAAC3NzaC1lZDI1NTE5AAAAIHq3x9Kd2\n',
    'X = "sort"  # the sort key createdAtTimestamp\n',
    'label = ("first part "\n         "second part")\n',
])
def test_ordinary_composed_strings_and_comments_stay(source):
    assert redact_code(source, env={"S3_SECRET_KEY": key()}, home="") == source
    line = source.strip()
    assert redact_text(line, env={"S3_SECRET_KEY": key()}, home="") == line


def secret_key() -> str:  # an AWS-style secret key; base64 may start with "/"
    return "/" + r(18) + "/" + r(20, A + "+")


@pytest.mark.parametrize("text", [
    "spark.hadoop.fs.s3a.secret.key={k}",
    "fs.s3a.secret.key {k}",
    "<property>\n  <name>fs.s3a.secret.key</name>\n  <value>{k}</value>\n</property>",
    "spark-submit --conf spark.hadoop.fs.s3a.secret.key={k} --conf spark.app.name=etl job.py",
    "gpg --batch --yes --passphrase {k} -c backup.tar",
    "CalledProcessError: Command '['gpg', '--batch', '--passphrase', '{k}', '-c', 'f']' returned non-zero exit status 2.",
])
def test_a_secret_in_a_configuration_or_a_command_is_redacted_in_text_and_in_a_code_string(text):
    value = secret_key()
    line = text.format(k=value)
    assert value[1:19] not in redact_text(line, env={}, home="")
    out = redact_code(f"CMD = {line!r}\nprint(CMD)\n", env={}, home="")
    assert value[1:19] not in out, out
    ast.parse(out)


@pytest.mark.parametrize("text", [
    "fs.s3a.secret.key.provider=org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
    "<property><name>fs.s3a.endpoint</name><value>s3.eu-west-1.amazonaws.com</value></property>",
    "spark-submit --conf spark.app.name=etl --conf spark.executor.memory=4g job.py",
    "gpg --batch --passphrase-file /run/secrets/gpg -c backup.tar",
    "password_file = /etc/app/secrets/db.txt",
])
def test_configurations_and_commands_without_a_secret_stay(text):
    assert redact_text(text, env={}, home="") == text
    source = f"CMD = {text!r}\n"
    assert redact_code(source, env={}, home="") == source


def test_a_token_and_a_password_url_encoded_twice_are_redacted():
    def twice(s: str) -> str:
        return urllib.parse.quote(urllib.parse.quote(s, safe=""), safe="")

    token = "ghp_" + r(36)
    password = "Tr0ub" + r(6) + "&3xK!"
    out = redact_text("GET /login?next=" + twice(f"https://x.example/cb?token={token}&user=bob&password={password}"),
                      env={}, home="")
    assert token not in out and password[:11] not in out, out


def test_a_url_encoded_twice_without_a_secret_stays():
    text = "GET /login?next=" + urllib.parse.quote(urllib.parse.quote("https://example.com/docs?page=2&lang=en", safe=""),
                                                    safe="")
    assert redact_text(text, env={}, home="") == text


def test_a_known_value_in_a_bytes_repr_with_escapes_is_redacted():
    value = "caf\u00e9-" + key()
    out = redact_text(f"sent {value.encode()!r}", env={"APP_SECRET": value}, home="")
    assert value[6:] not in out and "caf\\xc3\\xa9" not in out, out


def test_a_secret_name_bound_to_literals_the_code_adds_up_is_a_secret_and_a_known_value():
    from reportkit.redact import forget_known, remember_code

    password = "Tr0ub" + r(6) + "&3xK"
    source = (f'PASSWORD = "{password[:5]}" + "{password[5:]}"\nGREETING = "Hello, " + "world"\n'
              'print(GREETING, PASSWORD)\n')
    out = redact_code(source, env={}, home="")
    assert password[5:] not in out and 'GREETING = "Hello, " + "world"' in out, out
    ast.parse(out)
    try:
        remember_code(source)
        printed = redact_text(f"Hello, world {password}", env={}, home="")
    finally:
        forget_known()
    assert password not in printed and printed.startswith("Hello, world"), printed
