"""Redaction where a secret meets an edge of its text: a base64url token whose parts are short, a headline clipped
to a width, a line a log quotes behind its own lead (pytest's ``E``, a runner's timestamp, ``docker build``'s
step), a literal's context lost when its value travels, an argument whose parts are joined by ``|`` or ``:``.
Values are drawn from seeded generators (one per test), so a failure is reproducible."""

from __future__ import annotations

import random
import string
import uuid

import pytest

from reportkit.redact import (
    argv_secrets,
    clip_words,
    forget_known,
    redact_text,
    remember_argv,
    remember_code,
)

ALNUM = string.ascii_letters + string.digits


@pytest.fixture(autouse=True)
def _no_known_values():
    forget_known()
    yield
    forget_known()


def _mixed(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    while True:
        s = "".join(rng.choice(alphabet) for _ in range(n))
        if any(c.isupper() for c in s) and any(c.islower() for c in s) and any(c.isdigit() for c in s):
            return s


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


# --------------------------------------------------------------------------- base64url bodies in parts


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("shape", ["{a}_{b}_Q", "{a}-{b}_z", "Xy_{a}{b}", "k7-{a}_{b}-9"])
def test_a_vendor_token_whose_base64url_body_has_short_parts(seed, shape):
    rng = random.Random(seed)
    body = shape.format(a=_mixed(rng, 23), b=_mixed(rng, 21))
    token = "qdrnt_" + body
    for text in (f"embeddings via qdrnt {token}", f"{token}", f"client = connect({token!r})\n"):
        out = redact_text(text, home="")
        assert body[:12] not in out and body[-12:] not in out, out


@pytest.mark.parametrize("name", ["model_layers_0_self_attn_q_proj_weight", "triton_poi_fused_add_mul_0_x",
                                  "attn_fwd_bf16_a3f9", "run_2024_11_29_resnet50_v2_best", "my_var_a_b_c"])
def test_identifiers_in_parts_stay(name):
    assert redact_text(f"loading {name} from cache", home="") == f"loading {name} from cache"


# --------------------------------------------------------------------------- clipped headlines


@pytest.mark.parametrize("seed", range(4))
def test_a_headline_clipped_to_a_width_never_cuts_a_token_in_two(seed):
    rng = random.Random(seed)
    core = _hex(rng, 32)
    line = f"run 1/1, 5 s: RuntimeError: job failed at 0x7f3a (seed 3407) using glm {core}.{_mixed(rng, 16)}"
    for width in range(len(line) - 20, len(line)):
        clipped = clip_words(line, width, "…")
        assert len(clipped) <= width and core not in redact_text(clipped, home=""), clipped
    assert clip_words(line, len(line)) == line
    assert clip_words("a" * 50, 20, "…") == "…"


# --------------------------------------------------------------------------- lines behind a log's lead


@pytest.mark.parametrize("lead", ["E       ", "2026-11-29T12:00:01.1234567Z ", "Step 4/9 : ", "#6 [3/5] ", ""])
def test_a_dockerfile_env_line_behind_a_log_lead(lead):
    value = _mixed(random.Random(len(lead)), 30)
    text = f"{lead}FROM python:3.12-slim\n{lead}ENV FEATURE_STORE_APIKEY {value}\n{lead}ENV MODEL_NAME bert-base-uncased\n"
    out = redact_text(text, home="")
    assert value not in out and "bert-base-uncased" in out, out


@pytest.mark.parametrize("lead", ["E       ", "2026-11-29T12:00:01.1234567Z "])
def test_sqlalchemy_parameters_behind_a_log_lead(lead):
    value = _mixed(random.Random(7), 28)
    text = (f"{lead}(psycopg2.errors.UniqueViolation) duplicate key value\n"
            f"{lead}[SQL: INSERT INTO robots (label, access_secret) VALUES (%s, %s)]\n"
            f"{lead}[parameters: ('bot-7', '{value}')]\n")
    out = redact_text(text, home="")
    assert value not in out and "'bot-7'" in out, out


# --------------------------------------------------------------------------- a literal's finding travels


def test_a_secret_found_in_a_literal_is_redacted_where_its_context_is_lost():
    value = _mixed(random.Random(11), 32)
    remember_code(f"cfg = {{'line': 'ENV ARTIFACT_STORE_APIKEY {value}', 'dsn': '--db-password={value[::-1]}'}}\n")
    message = f"time data 'x | y | {value}' does not match format '%Y-%m-%d' ({value[::-1]})"
    out = redact_text(message, home="")
    assert value not in out and value[::-1] not in out, out


# --------------------------------------------------------------------------- arguments


@pytest.mark.parametrize("seed", range(3))
def test_argument_values_of_joined_parts_or_random_base64(seed):
    rng = random.Random(seed)
    cookie = f"{rng.randint(1, 999)}|{_hex(rng, 96)}"
    keyed = f"{uuid.UUID(int=rng.getrandbits(128))}:{_hex(rng, 32)}"
    b64 = _mixed(rng, 36, ALNUM + "/+") + "/" + _mixed(rng, 3) + "+"
    argv = ["--remember", cookie, "--session", keyed, "--key", b64]
    found = argv_secrets(argv)
    assert {cookie, keyed, b64} <= set(found), found
    remember_argv(argv)
    out = redact_text("argv: " + repr(argv), home="")
    assert all(v not in out for v in (cookie, keyed, b64)), out


@pytest.mark.parametrize("argv", [
    ["--expected-sha", "sha256:" + "9f2c" * 16], ["--commit-range", "a1b2c3d" * 5 + "a1b2c:" + "b1b2c3d" * 5 + "b1b2c"],
    ["--devices", "0:1"], ["--ports", "8080:80|8443:443"], ["--data", "data/ImageNet2012/train+val"],
    ["--ckpt-uuid", "5d41402a-bc4b-4a76-b971-9d911017c592"], ["--layers", "12|24|36"],
    ["--wheel", "torch-2.13.0+cpu-cp312-cp312-linux_x86_64.whl"],
])
def test_ordinary_arguments_with_parts_stay(argv):
    assert argv_secrets(argv) == {}


# --------------------------------------------------------------------------- a message normalized for a key


def test_a_junit_message_is_redacted_before_its_digits_are_normalized():
    from reportkit.ci.ci import JUnitCase, xml_key

    rng = random.Random(3)
    tail = _mixed(rng, 16)
    message = f"ValueError: cannot reach store 3 with glm {_hex(rng, 32)}.{tail} url: /v1/features"
    case = JUnitCase(classname="tests.test_sync", name="test_sync", outcome="failure", exc_type="ValueError",
                     message=message)
    key = " | ".join(xml_key(case))
    assert tail not in key and "cannot reach store N" in key, key


# --------------------------------------------------------------------------- base64 of text under any key


def _b64(text: str) -> str:
    import base64

    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize("seed", range(3))
def test_kubernetes_secret_data_under_neutral_keys_is_decoded_and_checked(seed):
    rng = random.Random(seed)
    secrets = [_mixed(rng, 26), f"mysql://svc:{_mixed(rng, 14)}@db.internal:3306/runs",
               "glpat-" + _mixed(rng, 20), f"Heron{rng.randint(100, 999)}!tulip{rng.randint(10, 99)}"]
    text = "apiVersion: v1\nkind: Secret\ndata:\n" + "".join(
        f"  field{i}: {_b64(s)}\n" for i, s in enumerate(secrets)) + f"  model: {_b64('bert-base-uncased')}\n"
    out = redact_text(text, home="")
    assert all(_b64(s) not in out for s in secrets) and _b64("bert-base-uncased") in out, out


def test_ordinary_base64_and_digests_near_the_decoding_rule_stay():
    import base64
    import hashlib

    rng = random.Random(9)
    digest = hashlib.sha256(b"weights").digest()
    lines = [
        f"wheel: torch-2.13.0-cp312-linux_x86_64.whl#sha256={base64.urlsafe_b64encode(digest).decode().rstrip('=')}",
        f"integrity: sha512-{base64.b64encode(hashlib.sha512(b'x').digest()).decode()}",
        f"tensor bytes: {base64.b64encode(bytes(rng.getrandbits(8) for _ in range(48))).decode()}",
        f"commit {hashlib.sha1(b'c').hexdigest()} layer sha256:{hashlib.sha256(b'l').hexdigest()}",
        f"run {uuid.UUID(int=rng.getrandbits(128))} cache /tmp/torchinductor_root/ab/cabz3fqk2x7yq4lmnd5wpe6.py",
        f"configmap: {_b64('https://huggingface.co/meta-llama/Llama-3.1-8B')} {_b64('ResNet50V2_epoch12_best.pt')}",
        f"label: {_b64('bert-base-uncased')} note: {_b64('hello world, the run finished')}",
    ]
    for line in lines:
        assert redact_text(line, home="") == line


# --------------------------------------------------------------------------- breadth: forms the rules missed


@pytest.mark.parametrize("shape", [
    "{{ headers: {{ 'x-signature': '{v}' }} }}",  # a header named ...-Signature (node's util.inspect)
    "X-Request-Signature: {v}",
    ':api_key => "{v}"',  # Ruby's and Perl's hashes
    "{{'db_password' => '{v}'}}",
    "POST body: grant_type%3Dpassword%26password%3D{v}%26username%3Dml",  # URL-encoded form
    "redirect=%2Fcb%3Faccess_token%3D{v}",
])
def test_forms_of_other_languages_and_encodings(shape):
    value = _mixed(random.Random(len(shape)), 26)
    out = redact_text(shape.format(v=value), home="")
    assert value not in out, out


@pytest.mark.parametrize("line", [
    "{ headers: { 'content-signature': 'required' } }", "X-Signature: missing",
    "opts = {:password_min_length => 12, :retries => 3}", "GET /search?q=a%3Db%26c%3Dd&next=%2Fhome",
    "https://x/login?redirect=%2Fapi%2Fv1%3Fpage%3D2", "model%3Dbert-base-uncased%26revision%3D" + "a1b2c3d4" * 5,
])
def test_ordinary_forms_near_those_rules_stay(line):
    assert redact_text(line, home="") == line


def test_a_signature_whose_raw_message_was_redacted_before_shows_no_normalized_secret():
    from reportkit.failure.signature import FailureKind, Signature, shown_message

    rng = random.Random(5)
    tail = _mixed(rng, 16)
    raw = f"cannot reach store 2 with glm {_hex(rng, 32)}.{tail}"
    sig = Signature(kind=FailureKind.EXCEPTION, exc_type="ValueError", raw_message=redact_text(raw, home=""),
                    message="cannot reach store N with glm NdNf." + tail)  # (normalized before redaction)
    assert tail not in shown_message(sig) and "store N" in shown_message(sig)


def test_a_name_a_literal_rule_took_does_not_become_a_known_value():
    value = _mixed(random.Random(13), 40)
    remember_code("print('env clearml_secret: CLEARML_API_SECRET_KEY=' + os.environ['CLEARML_API_SECRET_KEY'])\n"
                  "k = 'SSH_KEY=-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5v\\n"
                  "-----END OPENSSH PRIVATE KEY-----'\n")
    out = redact_text(f"env clearml_secret: CLEARML_API_SECRET_KEY={value}", home="")
    assert value not in out and "CLEARML_API_SECRET_KEY=" in out, out


def test_bundle_json_collected_signature_shows_the_message_normalized_after_redaction():
    import dataclasses

    from reportkit.failure.signature import FailureKind, Signature
    from reportkit.report.collect import Collected

    rng = random.Random(17)
    tail = _mixed(rng, 16)
    raw = f"cannot reach store 2 with glm {_hex(rng, 32)}.{tail}"
    sig = Signature(kind=FailureKind.EXCEPTION, exc_type="ValueError", raw_message=raw,
                    message="cannot reach store N with glm NdNf." + tail)
    fields = {f.name: None for f in dataclasses.fields(Collected) if f.default is dataclasses.MISSING
              and f.default_factory is dataclasses.MISSING}
    collected = Collected(**{**fields, "signature": sig})
    collected.evidence = {}
    assert tail not in collected.to_dict()["signature"]["message"]
