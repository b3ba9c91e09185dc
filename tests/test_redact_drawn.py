"""Text's drawn-token rule (reportkit.redact._drawn_spans): a random-looking token of 24-64 letters and digits of
both cases is redacted in text without a name beside it; code never gets the guess, and the random-looking texts
that are not keys (base64 data and digests, hex, UUIDs, identifiers, paths, mangled symbols, long blobs) stay."""

import base64
import hashlib
import random
import secrets  # (for lookalikes: any draw must stay)
import string
import uuid

import pytest

from reportkit.redact import redact_code, redact_text

ALPHABET = string.ascii_letters + string.digits


def drawn(n: int, seed: str = "", alphabet: str = ALPHABET) -> str:
    # (seeded: the guess finds ~90% of 24-character draws, 99% from 32 on; a test must not depend on the draw)
    rng = random.Random(f"{n}{seed}")
    while True:  # (a draw with no digit or no capital is not what the rule is about: draw again)
        value = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isdigit() for c in value) and any(c.isupper() for c in value) and any(c.islower() for c in value):
            return value


CONTEXTS = [
    "value {t} here",
    "('svc', '{t}')",
    "Failed validating 'pattern' in schema: '{t}' is not valid",
    "INSERT INTO creds VALUES('svc','{t}');",
    '{{"label": "prod", "v": "{t}"}}',
    "send \"{t}\\r\"",
    "E       AssertionError: assert '{t}' == 'expected'",
    "2026-11-30 12:00:01 INFO client ready ({t})",
    "| prod | {t} |",
]


@pytest.mark.parametrize("context", CONTEXTS)
@pytest.mark.parametrize("length", [40, 64])
def test_a_drawn_token_in_text_is_redacted(context, length):
    token = drawn(length, context)
    out = redact_text(context.format(t=token), env={}, home="")
    assert token not in out, out
    assert "<redacted:" in out


@pytest.mark.parametrize(("length", "rate"), [(24, 0.85), (32, 0.97), (48, 0.99)])
def test_how_many_draws_the_guess_finds(length, rate):
    # (a guess: a draw that happens to read as words is missed; shorter draws more often)
    tokens = [drawn(length, f"rate{i}") for i in range(300)]
    found = sum(t not in redact_text(f"got {t} back", env={}, home="") for t in tokens)
    assert found >= rate * len(tokens), found


@pytest.mark.parametrize("sep", ["_", "-"])
def test_a_drawn_token_with_joins_is_redacted(sep):
    token = drawn(20, sep) + sep + drawn(16, sep)
    assert token not in redact_text(f"using {token} now", env={}, home="")


def test_code_gets_no_guess_but_its_comments_do():
    token = drawn(36)
    source = f'x = "{token}"\nprint(x)\n'
    assert redact_code(source, env={}, home="") == source
    out = redact_code(f"# old one: {token}\nprint(1)\n", env={}, home="")
    assert token not in out
    compile(out, "x.py", "exec")


LOOKALIKES = [
    lambda: "digest " + base64.b64encode(hashlib.sha256(secrets.token_bytes(8)).digest()).decode(),  # padded
    lambda: "configmap: " + base64.b64encode(b"https://huggingface.co/meta-llama/Llama-3.1-8B").decode(),
    lambda: "data " + base64.urlsafe_b64encode(b"ResNet50V2_epoch12_best.pt and more").decode().rstrip("="),
    lambda: "blob " + drawn(80),  # longer than a key: data
    lambda: f"commit {secrets.token_hex(20)} and {secrets.token_hex(32).upper()}",
    lambda: f"request {uuid.uuid4()} / {str(uuid.uuid4()).upper()}",
    lambda: "AutoModelForSequenceClassification ResNet50V2 Qwen2.5-7B-Instruct bert-base-uncased",
    lambda: "SomeVeryLongCamelCaseClassNameForTesting123 test_forward_backward_with_amp_bf16_cuda",
    lambda: "#3 _ZN2at6native12_GLOBAL__N_115mm_out_cpuERKNS_6TensorES4_ in libtorch_cpu.so",
    lambda: "/tmp/torchinductor_root/ab/cabcdefghijklmnopqrstuvwxyz234567abcdefgh.py",
    lambda: "fxgraph cache key fz3kq5abcxyzq2ml7n4p5kd3fx6kzbb3f3fj5uoq7o4x4yvtm3ze",
    lambda: "totp " + "".join(secrets.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567") for _ in range(32)),
    lambda: "models/ResNet50V2/weights/AbCdEfGh12345678 ok",
    lambda: "x." + drawn(30),  # an attribute's (dotted) name
    # a drawn id named so (a request's, a trace's: no key)
    lambda: f"X-Amz-Cf-Id: {drawn(56, 'cf')}",
    lambda: f"request_id={drawn(32, 'rq')} RequestId {drawn(32, 'rq2')} trace-ID: {drawn(40, 'tr')}",
    lambda: f"script-src 'self' 'nonce-{drawn(32, 'n')}'",
    lambda: f"Job 'raysubmit_{drawn(16, 'ray')}' submitted successfully",  # (a word first: the prefix rule's)
    # Inductor's own log lines: a cache's key after "key" is no credential
    lambda: "[__fx_graph_cache] fx graph cache hit for key f" + "".join(random.Random(7).choices(
        "abcdefghijklmnopqrstuvwxyz234567", k=51)),
    lambda: "AOTAutogradCache miss for key a" + "".join(random.Random(8).choices("abcdefghijklmnopqrstuvwxyz234567", k=51)),
]


@pytest.mark.parametrize("before", ["paid ", "valid: ", "session id ", "sessionId=", "squid "])
def test_only_an_ids_name_keeps_a_drawn_token(before):
    token = drawn(36, before)
    assert token not in redact_text(before + token, env={}, home="")


@pytest.mark.parametrize("i", range(len(LOOKALIKES)))
def test_lookalikes_stay(i):
    text = LOOKALIKES[i]()
    assert redact_text(text, env={}, home="") == text


def test_what_the_output_gives_away_is_known_in_code():
    from reportkit.redact import forget_known, remember_output

    token, password = drawn(36, "out"), "Harbor417!Kqzv53"
    source = f'UPSTREAM = "{token}"\nPIN = "{password}"\nLABEL = "Harbor"\n'
    assert redact_code(source, env={}, home="") == source  # (code alone: no guess)
    try:
        remember_output(f"worker failed: upstream rejected ({token})", f"login failed with password {password}")
        out = redact_code(source, env={}, home="")
        again = redact_text(f"retry {token}", env={}, home="")
    finally:
        forget_known()
    assert token not in out and password not in out and 'LABEL = "Harbor"' in out, out
    compile(out, "x.py", "exec")
    assert token not in again


def test_bundle_removes_a_literal_the_failure_message_gave_away(tmp_path):
    import subprocess
    import sys

    token = drawn(36, "bundle")
    script = tmp_path / "w.py"
    script.write_text(f'UPSTREAM = "{token}"\n\ndef load():\n    raise RuntimeError(f"rejected ({{UPSTREAM}})")\n\n'
                      "load()\n")
    done = subprocess.run([sys.executable, "-m", "reportkit", "bundle", "--issue", str(script), "--out",
                           str(tmp_path / "b")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    files = [p for p in (tmp_path / "b").rglob("*") if p.is_file()]
    assert files and not any(token.encode() in p.read_bytes() for p in files)
    assert token not in done.stdout + done.stderr
    assert token in script.read_text()  # (the user's file is never changed)
