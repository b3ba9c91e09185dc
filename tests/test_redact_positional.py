"""Credentials passed by position to calls whose signatures say which parameter is the credential (ftplib,
hmac, PyJWT, cryptography's Fernet, boto3, MinIO, urllib's password managers, ...): redacted in code, where the
reproducer must stay a program, and in text (a traceback's source line, a logged call, a JSON log)."""

import ast
import json

import pytest

from reportkit.redact import redact_code, redact_text

PW = "Lantern-moss-482!Qv"  # a password a person picked: no vendor shape
KEY = "Tz5Gm1Qw8Rb3Xn6Kd9Ls2Hv7Jc4Pf0Ay"  # random, no vendor prefix
B64 = "Yk3Nq8Vw1Zr6Tb9Mc2Lx5Hd0Jf7Gs4Ap-Ue_Wi2Oq3Ey="


@pytest.mark.parametrize("line, secret", [
    (f'ftp = ftplib.FTP("files.lab.example", "uploader", "{PW}")', PW),
    (f'ftps = FTP_TLS("files.lab.example", "uploader", "{PW}")', PW),
    (f'mgr.add_password(None, "https://wiki.lab.example/", "reader", "{PW}")', PW),
    (f'sig = hmac.new(b"{KEY}", body, hashlib.sha256).hexdigest()', KEY),
    (f'token = jwt.encode({{"sub": "42", "role": "ops"}}, "{KEY}", algorithm="HS256")', KEY),
    (f'box = Fernet(b"{B64}")', B64),
    (f's3 = boto3.Session("AKIDLAB0000EXAMPLE00", "{KEY}")', KEY),
    (f'store = Minio("objects.lab.example:9000", "LABACCESS01", "{KEY}", secure=False)', KEY),
    (f'cache = redis.Redis("cache.lab.example", 6380, 2, "{PW}")', PW),
    (f'exp = comet_ml.Experiment("{KEY}", project_name="vision")', KEY),
    (f'es = Elasticsearch(hosts, basic_auth=("elastic", "{PW}"))', PW),
    (f'conn.simple_bind_s("cn=admin,dc=lab", "{PW}")', PW),
])
def test_a_credential_bound_by_position_is_redacted_in_code_and_text(line, secret):
    source = f"import os\n{line}\nprint(1)\n"
    code = redact_code(source, env={})
    assert secret not in code
    ast.parse(code)
    assert code.count("\n") == source.count("\n")
    text = redact_text(f'Traceback (most recent call last):\n  File "job.py", line 2, in <module>\n    {line}\n',
                       env={}, home="")
    assert secret not in text and "line 2, in <module>" in text
    assert secret not in redact_text(json.dumps({"msg": line}), env={}, home="")


@pytest.mark.parametrize("line", [
    'h = hashlib.new("sha256", payload)',  # hashlib.new's first argument is the algorithm
    'c = client("s3", region_name="eu-west-1")',  # an unqualified client(): not boto3's signature
    'token = jwt.encode(payload, "changeme", algorithm="HS256")',  # a word, not a credential
    'mac = hmac.new(key_bytes, body, hashlib.sha256)',  # a name, not a literal
    'enc = json.encoder.JSONEncoder(indent=2).encode(Tz5Gm1Qw8Rb3Xn6Kd9Ls2Hv7Jc4Pf0Ay)',
])
def test_calls_whose_arguments_are_not_credentials_are_kept(line):
    source = f"{line}\n"
    assert redact_code(source, env={}) == source
    assert redact_text(line, env={}, home="") == line
