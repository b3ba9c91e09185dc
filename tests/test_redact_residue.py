"""Redaction residue of the blind round 4 (issue 35): the general causes, each with values of its own (none of
any benchmark's)."""

import shlex

import pytest

from reportkit.redact import argv_secrets, is_secret_env, redact_code, redact_text

# ---------------------------------------------------------------- values of the environment under neutral names

PICKED = "Marlinmaple582^Tkw"  # a password a person picked: words, digits, a symbol


@pytest.mark.parametrize("value", [
    PICKED,
    "c0ffee5e7d1b4a2f9e8d7c6b5a4f3e2d1c0b9a8f",  # 40 hex digits: an API key's usual shape
    "5b0e7c1d-93a2-4f6e-8b1c-d2e3f4a5b6c7",  # a UUID: a CI token's
])
def test_a_neutral_variable_holding_a_credential_is_withheld_and_known(value):
    env = {"APP_SETTING_7": value}
    assert is_secret_env("APP_SETTING_7", value)
    out = redact_text(f"the script printed {value} and {value}!", env=env, home="")
    assert value not in out and "<redacted:" in out


@pytest.mark.parametrize("name,value", [
    ("BUILD_COMMIT_SHA", "c0ffee5e7d1b4a2f9e8d7c6b5a4f3e2d1c0b9a8f"),  # a digest: its name says so
    ("JOB_INVOCATION_ID", "0f1e2d3c4b5a69788796a5b4c3d2e1f0"),
    ("RUN_LABEL", "Exp#12_A"),  # short, a label
    ("RUN_TAG", "nightly#2026-03-14"),  # a date, not a password's digits
    ("RELEASE", "v3.1.4-rc2#7"),
    ("LC_ALL", "en_US.UTF-8"),
    ("TERM", "xterm-256color"),
    ("QUERY", "lr=0.1&bs=32&warmup=100"),
])
def test_settings_identifiers_and_digests_stay(name, value):
    assert not is_secret_env(name, value)
    assert redact_text(f"x {value} y", env={name: value}, home="") == f"x {value} y"


def test_a_picked_password_among_the_arguments_is_known():
    argv = ["-x", "-D", "cn=svc,dc=corp", "-w", PICKED, "--run-name", "Exp#12_A"]
    found = argv_secrets(argv)
    assert PICKED in found and "Exp#12_A" not in found


def test_a_known_value_shell_quoted_into_a_command_line_is_redacted_whole():
    value = "Marlin482*tw\\'Qz7Kd"  # a quote inside: shlex writes '...'"'"'...'
    command = shlex.join(["python", "job.py", "--db-pass", value])
    out = redact_text(command, extra={value: "secret-argument"}, home="")
    assert "Qz7Kd" not in out and "Marlin482" not in out


def test_code_keeps_parsing_with_a_known_picked_password():
    source = f'PW = "{PICKED}"\nprint(PW)\n'
    out = redact_code(source, env={"APP_SETTING_7": PICKED}, home="")
    assert PICKED not in out
    compile(out, "x.py", "exec")


# ---------------------------------------------------------------- vendor formats from the scanners' catalogues

def _key(n, seed=7):
    import random
    rng = random.Random(seed)
    while True:
        s = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") for _ in range(n))
        if any(c.isdigit() for c in s) and any(c.isupper() for c in s) and any(c.islower() for c in s):
            return s


def _hex(n, seed=3):
    import random
    rng = random.Random(seed)
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


VENDOR_TOKENS = {
    "together": "tgp_v1_" + _key(43),
    "fireworks": "fw_" + _key(28),
    "elevenlabs": "sk_" + _hex(48),
    "crates.io": "cio" + _key(32),
    "braintree": "access_token$sandbox$" + _hex(16, 5).replace("a", "k") + "$" + _hex(32, 6),
    "new relic license": _hex(36, 8) + "NRAL",
    "new relic insert": "NRII-" + _key(32),
    "azure devops": _key(76, 9) + "AZDO" + _key(4, 10),
    "rancher": "kubeconfig-u-" + _hex(10, 11) + ":" + _hex(54, 12).replace("f", "z"),
    "discord bot": "N" + _key(25, 13) + "." + _key(6, 14) + "." + _key(38, 15),
}


@pytest.mark.parametrize("name", sorted(VENDOR_TOKENS))
def test_vendor_formats_in_text_and_in_code(name):
    token = VENDOR_TOKENS[name]
    assert token not in redact_text(f"deploy: using {token} now", home="")
    out = redact_code(f'CLIENT = make("{token}")\n', home="")
    assert token not in out
    compile(out, "x.py", "exec")


def test_a_discord_shaped_dotted_name_stays():
    text = "Module_for_sequence_tasks.method.attribute_name_of_the_layer_norm"
    assert redact_text(text, home="") == text


def test_jwk_private_members_in_json_repr_and_code():
    import json
    jwk = json.dumps({"kty": "RSA", "n": _key(86, 20), "e": "AQAB", "d": _key(86, 21), "p": _key(43, 22),
                      "q": _key(43, 23), "dp": _key(43, 24), "dq": _key(43, 25), "qi": _key(43, 26)})
    privates = [json.loads(jwk)[k] for k in ("d", "p", "q", "dp", "dq", "qi")]
    for out in (redact_text(jwk, home=""), redact_text(repr([jwk]), home=""), redact_code(f"K = {jwk!r}\n", home="")):
        assert not any(p in out for p in privates)
        assert json.loads(jwk)["n"] in out  # the public modulus stays
    other = json.dumps({"p": _key(43, 27), "mode": "x"})  # no "kty": not a key (drawn, so text's guess may take it)
    assert "private-key" not in redact_text(other, home="")


def test_oracle_user_password_at():
    pw = "Marlin5Tkw"
    for text in (f"jdbc:oracle:thin:scott/{pw}@//db.example:1521/SVC", f"sqlplus -S hr/{pw}@prod"):
        assert pw not in redact_text(text, home="")
        assert pw in argv_secrets(["--url", text])


def test_a_random_value_with_a_dot_after_a_secret_name_is_not_a_module_path():
    value = "Tq8LmNp2Rt.vXk4BcDf5GhJk7Lm"
    assert value not in redact_text(f"client_secret = {value}", home="")
    assert redact_text("dtype = torch.float32", home="") == "dtype = torch.float32"


def test_escaped_quotes_of_a_repr_in_a_repr():
    pw = "Heronmaple415*tQ\\'Xk3Lm9Qp2W"
    text = "creds = " + repr(["a", repr({"user": "etl", "password": pw}), "b"])
    out = redact_text(text, home="")
    assert "Xk3Lm9Qp2W" not in out and "Heronmaple415" not in out


# ---------------------------------------------------------------- a credential encoded once more

def test_hex_of_a_token_and_bare_base64_of_user_password():
    import base64
    token = _key(26, 30)
    pair = base64.b64encode(b"svc-etl:Marlinmaple582^Tkw").decode()
    for fn in (lambda t: redact_text(t, home=""), lambda t: redact_code(f'X = "{t}"\n', home="")):
        assert token.encode().hex() not in fn("bytes (hex): " + token.encode().hex())
        assert pair not in fn("creds: " + pair)


@pytest.mark.parametrize("text", [
    "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 md5 d41d8cd98f00b204e9800998ecf8427e",
    "sha256:5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
    "hex of a word: " + b"hello world, this is fine".hex(),
    "b64 of a pair: bW9kZWw6cmVzbmV0NTA= and a word configuration",
])
def test_digests_and_ordinary_encodings_stay(text):
    assert redact_text(text, home="") == text


def test_a_token_wrapped_by_a_logger_that_repeats_its_prefix():
    token = "sk-" + _key(60, 31)
    line = "2026-03-14 09:00:01,123 INFO auth: using key " + token
    wrapped = "\n2026-03-14 09:00:01,123 INFO (cont) ".join(line[i:i + 64] for i in range(0, len(line), 64))
    out = redact_text("start\n" + wrapped + "\nend", home="")
    assert line[64:] not in out and out.count("\n") == wrapped.count("\n") + 2


# ---------------------------------------------------------------- config lines in the channel that missed them

def test_a_key_after_a_name_that_ends_in_a_secret_word_is_a_name_not_the_value():
    value = _key(40, 40)
    out = redact_text(f"ci fmt yaml_api_secret:   api_secret: {value}", home="")
    assert value not in out and "api_secret:" in out


def test_a_multi_line_netrc_quoted_line_by_line():
    pw = "Walnutember417!Qz"
    text = f"E       machine mirror.example\nE         login ci-bot\nE         password {pw}\nE   next"
    out = redact_text(text, home="")
    assert pw not in out and out.count("\n") == text.count("\n")


@pytest.mark.parametrize("command", [
    "az login --service-principal -u app -p {pw} --tenant t1",
    "mongosh mongodb://db01 -u admin -p {pw}",
])
def test_a_password_option_whose_value_starts_with_a_dash(command):
    pw = "-Qw_3rT.yU8iO~p2Lk"
    assert pw not in redact_text(command.format(pw=pw), home="")
    assert pw not in redact_code(f'CMD = "{command.format(pw=pw)}"\n', home="")
    flags = "az login --service-principal -u app -p --use-device-code"
    assert redact_text(flags, home="") == flags


def test_a_drawn_value_after_a_secrets_name_inside_a_string_literal():
    value = _key(32, 41)
    out = redact_code(f'CONF = {{"twilio": "api key SK{_hex(32, 42)} secret {value}"}}\n', home="")
    assert value not in out
    compile(out, "x.py", "exec")
    prose = 'DOC = "the secret sauce is in transformer_layer_norm_scaling"\n'
    assert redact_code(prose, home="") == prose


def test_hex_of_a_token_with_few_digits():
    token = "QkTrWmPzXbLnVc7HgFdSaJyE"  # letters of both cases and one digit: its hex says enough
    assert token.encode().hex() not in redact_text("raw (hex): " + token.encode().hex(), home="")
    word = b"transformer_layer_norm".hex()
    assert redact_text("name (hex): " + word, home="") == "name (hex): " + word


def test_a_logger_wrapped_token_after_another_prefix_and_in_a_literal():
    token = "sk-" + _key(60, 43)
    line = "2026-03-14 09:00:01,123 INFO auth: using key " + token
    wrapped = "\n2026-03-14 09:00:01,123 INFO (cont) ".join(line[i:i + 64] for i in range(0, len(line), 64))
    out = redact_text("job output: " + wrapped + "\nend", home="")
    assert line[64:] not in out and line[48:64] not in out
    code = redact_code(f"D = {{'k': {wrapped!r}}}\n", home="")
    assert line[64:] not in code and line[48:64] not in code
    compile(code, "x.py", "exec")


def test_a_logger_wrapped_token_in_a_repr_and_in_pytests_failure_lines():
    token = "sk-" + _key(60, 44)
    line = "2026-03-14 09:00:01,123 INFO auth: using key " + token
    wrapped = "\n2026-03-14 09:00:01,123 INFO (cont) ".join(line[i:i + 64] for i in range(0, len(line), 64))
    quoted = "E       api(x)\n" + "\n".join("E       " + part for part in wrapped.splitlines()) + "\nE         next"
    for text in ("creds = " + repr(["x", wrapped, "y"]), quoted):
        out = redact_text(text, home="")
        assert line[64:] not in out and line[48:64] not in out, out
        assert out.count("\n") == text.count("\n")
