"""Credentials a script passes to a call that authenticates, a secret's name and its value as two strings, URL
passwords written raw, and SSH2 key armour: in code (the reproducer stays a program) and in text (a traceback's
source line, a printed command, a JSON log)."""

import ast
import json

import pytest

from reportkit.redact import redact_code, redact_text

PW = "Quartz-otter-771!Rb"  # a password a person picked: no vendor shape
KEY = "Vq7Lx2Np9Kd4Wm8Rt3Zs6Hc1Jb5Fg0Ye"  # a random key: no vendor prefix
HEX = "9f3c1a7be2d40c58a6f19e27b3d0c4a5e8f7b6d1"
PW2 = "Lantern-moss-482!Qv"
KEY2 = "Tz5Gm1Qw8Rb3Xn6Kd9Ls2Hv7Jc4Pf0Ay"
B64_2 = "Yk3Nq8Vw1Zr6Tb9Mc2Lx5Hd0Jf7Gs4Ap-Ue_Wi2Oq3Ey="


@pytest.mark.parametrize("line, secret", [
    (f'session.auth = HTTPDigestAuth("deploy", "{PW}")', PW),
    (f"r = httpx.get(url, auth=('builder', '{PW}'))", PW),
    (f'imap.login("inbox@lab.example", "{PW}")', PW),
    (f'mlflow_client.login(key="{HEX}")', HEX),
    (f'auth = BearerTokenAuthenticator("{KEY}")', KEY),
    (f'creds = Credentials("{KEY}")', KEY),
    (f'hub.login("{KEY}")', KEY),
    (f'driver = Neo4jDriver("bolt://db", auth=["reader", "{PW}"])', PW),
    # by position, where the call's documented signature names the credential (ftplib, hmac, PyJWT, ...)
    (f'ftp = ftplib.FTP("files.lab.example", "uploader", "{PW2}")', PW2),
    (f'ftps = FTP_TLS("files.lab.example", "uploader", "{PW2}")', PW2),
    (f'mgr.add_password(None, "https://wiki.lab.example/", "reader", "{PW2}")', PW2),
    (f'sig = hmac.new(b"{KEY2}", body, hashlib.sha256).hexdigest()', KEY2),
    (f'token = jwt.encode({{"sub": "42", "role": "ops"}}, "{KEY2}", algorithm="HS256")', KEY2),
    (f'box = Fernet(b"{B64_2}")', B64_2),
    (f's3 = boto3.Session("AKIDLAB0000EXAMPLE00", "{KEY2}")', KEY2),
    (f'store = Minio("objects.lab.example:9000", "LABACCESS01", "{KEY2}", secure=False)', KEY2),
    (f'cache = redis.Redis("cache.lab.example", 6380, 2, "{PW2}")', PW2),
    (f'exp = comet_ml.Experiment("{KEY2}", project_name="vision")', KEY2),
    (f'es = Elasticsearch(hosts, basic_auth=("elastic", "{PW2}"))', PW2),
    (f'conn.simple_bind_s("cn=admin,dc=lab", "{PW2}")', PW2),
])
def test_a_credential_given_to_an_authenticating_call_is_redacted_in_code_and_text(line, secret):
    source = f"import os\n{line}\nprint(1)\n"
    code = redact_code(source, env={})
    assert secret not in code
    ast.parse(code)
    assert code.count("\n") == source.count("\n")
    text = redact_text(f'Traceback (most recent call last):\n  File "job.py", line 2, in <module>\n    {line}\n',
                       env={}, home="")
    assert secret not in text and "line 2, in <module>" in text
    escaped = redact_text(json.dumps({"msg": line}), env={}, home="")  # a JSON log: the quotes escaped
    assert secret not in escaped


@pytest.mark.parametrize("line", [
    'ftp.login("anonymous")',  # one argument of a login: a user's name, not random
    'client.auth("Bearer")',
    "x = HTTPBasicAuth(user, password)",  # names, not literals
    'torch.autograd.grad(loss, "weights")',
    'login("user", "password")',  # a placeholder
    'sess.login(name="alice")',
])
def test_calls_without_a_credential_stay_as_they_are(line):
    assert redact_code(line + "\n", env={}) == line + "\n"
    assert redact_text(line, env={}, home="") == line


@pytest.mark.parametrize("text, secret", [
    (f'os.environ.setdefault("COMET_API_KEY", "{HEX}")', HEX),
    (f"os.putenv('DEPLOY_PASSWORD', '{PW}')", PW),
    (f"[('db_password', '{PW}'), ('lr', '3e-4')]", PW),
    (f'<add key="ServiceBusSharedKey" value="{KEY}" />', KEY),
    (f"<property name='keystore.password' value='{PW}'/>", PW),
    ("{'v': 'os.environ.setdefault(\\'RUNPOD_API_KEY\\', \\'" + KEY + "\\')'}", KEY),
])
def test_a_secret_name_and_its_value_as_two_strings_are_redacted_in_text(text, secret):
    out = redact_text(text, env={}, home="")
    assert secret not in out and "<redacted" in out


@pytest.mark.parametrize("text", [
    "[('tokenizer', 'bert-base-uncased'), ('pad_token', '<|endoftext|>')]",
    '<add key="Environment" value="production" />',
    'os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")',
    'setdefault("OMP_NUM_THREADS", "4")',
])
def test_ordinary_name_value_pairs_stay(text):
    assert redact_text(text, env={}, home="") == text


@pytest.mark.parametrize("password", [
    "Ab3dE9fGh@Ij4kLmN",  # a raw "@"
    "Xy7Qw2/Er5Ty9+Ui3Op",  # a secret key's "/" and "+"
    "Pq1'Rs2\"Tu3Vw4",  # quotes
])
@pytest.mark.parametrize("scheme, host", [("neo4j+s", "graph-2.example.io"), ("s3", "ckpt-bucket"),
                                          ("mssql+pyodbc", "sql7.corp:1433")])
def test_a_url_password_written_raw_is_redacted_whole(password, scheme, host):
    url = f"{scheme}://svc:{password}@{host}/run-3/"
    out = redact_text(f"loading from {url} now", env={}, home="")
    assert out == f"loading from {scheme}://<redacted:url-credentials>@{host}/run-3/ now"
    for part in password.replace("'", "@").replace('"', "@").replace("/", "@").replace("+", "@").split("@"):
        assert part not in out


@pytest.mark.parametrize("text", [
    "see http://localhost:8080/users/@me and https://medium.com/@someone/post",
    "http://registry:5000/v2/?owner=a@b.example",
    "git@github.com:org/repo.git mailto:x@y.example",
])
def test_urls_with_an_at_sign_but_no_password_stay(text):
    assert redact_text(text, env={}, home="") == text


def test_an_ssh2_key_block_is_redacted_whole_with_its_headers():
    body = ["P2/56wAAA" + KEY * 2, "AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + KEY, KEY + "Zx8Cv7Bn6Mm5"]
    block = "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\nComment: \"deploy key\"\n" + "\n".join(body) + \
        "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----"
    out = redact_text(f"before\n{block}\nafter\n", env={}, home="")
    assert out == "before\n<redacted:private-key>\nafter\n"
    clipped = redact_text("\n".join(body[1:]) + "\n---- END SSH2 ENCRYPTED PRIVATE KEY ----\nafter", env={}, home="")
    assert KEY not in clipped and clipped.endswith("after")


@pytest.mark.parametrize("flag, value, secret", [
    ("--inference-key", "csk-q3v8k1m9x2c7p4z6w0j5t8n3b1r7y2d9f4g6h0", True),  # one case, letters and digits drawn
    ("--endpoint-key", "Q3V8K1M9X2C7P4Z6W0J5T8N3B1R7", True),
    ("--cache-key", "resnet50_imagenet_v2", False),
    ("--sort-key", "checkpoint_epoch_0012_step_004500", False),
    ("--dict-key", "ubuntu2204-cuda121-py311", False),
])
def test_a_key_option_with_a_drawn_one_case_value_is_a_known_secret(flag, value, secret):
    from reportkit.redact import argv_secrets

    assert (value in argv_secrets(["train.py", flag, value])) is secret


@pytest.mark.parametrize("dash, label", [("-----", "RSA "), ("---- ", "SSH2 ENCRYPTED ")])
def test_a_key_block_whose_end_is_gone_does_not_reach_the_end_of_a_later_block(dash, label):
    begin, end = f"{dash}BEGIN {label}PRIVATE KEY{dash[::-1]}", f"{dash}END {label}PRIVATE KEY{dash[::-1]}"
    text = (f"args: ['--key', '{begin}\\n<redacted:secret-argument>', '--lr', '3e-4']\n"
            "epoch 1 loss 2.31\nepoch 2 loss 1.97\n"
            f"{begin}\n{KEY}{KEY}\n{KEY}\n{end}\ndone\n")
    out = redact_text(text, env={}, home="")
    assert "'--lr', '3e-4']\nepoch 1 loss 2.31\nepoch 2 loss 1.97\n<redacted:private-key>\ndone\n" in out
    assert KEY not in out


@pytest.mark.parametrize("literal, secret", [
    (f'session.auth = HTTPProxyAuth("bot", "{PW}")', PW),
    (f'<add key="QueueSharedSecret" value="{KEY}" />', KEY),
    (f'os.environ.setdefault("NEPTUNE_API_TOKEN", "{KEY}")', KEY),
])
def test_an_authenticating_call_or_a_name_value_pair_written_inside_a_string_literal(literal, secret):
    source = f"SNIPPET = {literal!r}\nprint(SNIPPET)\n"
    out = redact_code(source, env={})
    assert secret not in out
    assert ast.parse(out) and out.startswith("SNIPPET = ") and out.endswith("\nprint(SNIPPET)\n")


def test_a_raw_password_of_a_url_in_the_environment_is_a_known_value():
    password = "Gh7@Jk2/Lm9+Np4"
    env = {"GRAPH_URI": f"neo4j+s://reader:{password}@graph.example.io", "PATH": "/usr/bin"}
    out = redact_text(f"connecting with password {password} (as given)", env=env, home="")
    assert password not in out and "(as given)" in out
