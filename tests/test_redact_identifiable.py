"""Vendor shapes the scanners' catalogues of 69a794b lacked (issue 35, item 5): Microsoft's identifiable keys (a
signature inside the key at a fixed offset, github.com/microsoft/security-utilities), ngrok's keys, LaunchDarkly's
keys, Flutterwave's, Onfido's two-part tokens, Defined Networking's ``dnkey-``, and shapes read from Nosey Parker's
and trufflehog's catalogues. Each is made at run time from its documented shape and must go in text and in code
(which still parses); a lookalike of each (the same alphabet and length without the signature, a name, a UUID
after an ordinary word) stays."""

from __future__ import annotations

import ast
import json
import secrets
import string
import uuid

import pytest

from reportkit.redact import redact_code, redact_text

A = string.ascii_letters + string.digits
B64 = A + "+/"
URL = A + "_-"


def r(n: int, alphabet: str = A) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


def azure64(sig: str) -> str:  # a 64-byte key: 88 base64 characters, the signature at 76
    return r(76, B64) + sig + r(5, B64) + secrets.choice("AQgw") + "=="


def azure32(sig: str) -> str:  # a 32-byte key: 44 characters, the signature at 33
    return r(33, B64) + sig + secrets.choice("ABCDEFGHIJKLMNOP") + r(5, B64) + "="


FORMATS = {
    "azure-storage": lambda: azure64("+ASt"),
    "azure-cosmosdb": lambda: azure64("ACDb"),
    "azure-batch": lambda: azure64("+ABa"),
    "azure-apim": lambda: azure64("APIM"),
    "azure-redis": lambda: azure32("AzCa"),
    "azure-service-bus": lambda: azure32("+ASb"),
    "azure-event-hub": lambda: azure32("+AEh"),
    "azure-iot": lambda: azure32("AIoT"),
    "azure-function": lambda: r(44, URL) + "AzFu" + r(5, URL) + secrets.choice("AQgw") + "==",
    "azure-search": lambda: r(42) + "AzSe" + secrets.choice("ABCD") + r(5),
    "azure-container-registry": lambda: r(42, B64) + "+ACR" + secrets.choice("ABCD") + r(5, B64),
    "ngrok": lambda: "2" + r(26) + "_" + secrets.choice(string.digits) + r(20),
    "launchdarkly-sdk": lambda: f"sdk-{uuid.uuid4()}",
    "launchdarkly-api": lambda: f"api-{uuid.uuid4()}",
    "launchdarkly-mobile": lambda: f"mob-{uuid.uuid4()}",
    "flutterwave": lambda: "FLWSECK-" + r(32, "0123456789abcdef") + "-X",
    "flutterwave-test": lambda: "FLWSECK_TEST-" + r(32, "0123456789abcdef") + "-X",
    "onfido": lambda: f"api_live.{r(11, URL)}.{r(32, URL)}",
    "onfido-sandbox": lambda: f"api_sandbox.{r(11, URL)}.{r(32, URL)}",
    "defined-networking": lambda: f"dnkey-{r(26, string.ascii_lowercase + string.digits)}-{r(52, string.ascii_lowercase + string.digits)}",
    "tavily": lambda: "tvly-" + r(32),
    "jina": lambda: "jina_" + r(60),
    "nightfall": lambda: "NF-" + r(32),
    "salesforce-refresh": lambda: "5AEP861" + r(90),
    "trufflehog-enterprise": lambda: "thog-secret-" + r(32, "0123456789abcdef"),
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_vendor_shape_is_redacted_in_text(name):
    value = FORMATS[name]()
    for text in (f"deploy with {value} now", f"value: {value}", f"({value})", json.dumps({"log": f"ok\n{value}\tend"}),
                 f"'{value}'"):
        out = redact_text(text, env={}, home="")
        assert value not in out and value[8:-8] not in out, (text, out)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_vendor_shape_is_redacted_in_code_which_still_parses(name):
    value = FORMATS[name]()
    source = f'CONFIG = {{"endpoint": "https://api.example.com", "x": "{value}"}}\nprint(CONFIG["endpoint"])\n'
    out = redact_code(source, env={}, home="")
    assert value not in out, out
    ast.parse(out)
    assert 'print(CONFIG["endpoint"])' in out


def test_ngrok_authtoken_given_to_its_cli_is_redacted():
    token = "2" + r(26) + "_" + secrets.choice(string.digits) + r(20)
    out = redact_text(f"$ ngrok config add-authtoken {token}\nAuthtoken saved", env={}, home="")
    assert token not in out


LOOKALIKES = [
    # base64 of the same lengths without a signature at its offset (a digest, a random nonce)
    lambda: "nonce " + r(76, B64) + "abcd" + r(5, B64) + "A==",
    lambda: "sha256-" + r(43, B64) + "=",
    lambda: "digest " + r(33, B64) + "Azxx" + "A" + r(5, B64) + "=",
    # ordinary words before a UUID, a version, a name
    lambda: f"request-{uuid.uuid4()} done",
    lambda: "pod api-server-7d9f8b6c5-xkq2p restarted",
    lambda: "sdk-1.2.3 and mob-programming notes",
    lambda: "api_live.example.com is up",
    lambda: "2024_01_15_resnet50_checkpoint_v2_final_run",
    lambda: "22_layers_of_the_network_were_frozen_today",
    lambda: "dnkey-rotation is weekly",
    lambda: "FLWSECK- is Flutterwave's prefix",
    lambda: f"id {uuid.uuid4()}",
]


@pytest.mark.parametrize("i", range(len(LOOKALIKES)))
def test_lookalikes_stay(i):
    text = LOOKALIKES[i]()
    assert redact_text(text, env={}, home="") == text
    source = f"NOTE = {text!r}\n"
    assert redact_code(source, env={}, home="") == source


@pytest.mark.parametrize("drawn", [True, False])
@pytest.mark.parametrize("command", ["ngrok authtoken {t}", "ngrok config add-authtoken {t}"])
def test_a_token_given_to_a_sub_command_that_takes_one_is_redacted(command, drawn):
    # ngrok's older authtokens have no shape of their own; a draw of letters alone can look written (CI at stop 53:
    # this draw, vowels a quarter of its letters and a run of 12 lower-case ones, stayed)
    token = r(20) + "_" + r(21) if drawn else "IRkeqRQFZCMBEmohUUIf_qWSdeuRHNkfmmnhweqmup"
    out = redact_text("$ " + command.format(t=token) + "\nAuthtoken saved to configuration file", env={}, home="")
    assert token not in out, out
    from reportkit.redact import redact_argv

    assert token not in " ".join(redact_argv(command.format(t=token).split()))


@pytest.mark.parametrize("command", ["ngrok http 8080", "kubectl create token build-robot --duration 1h",
                                     "ngrok config add-authtoken --help"])
def test_sub_commands_without_a_credential_stay(command):
    assert redact_text(command, env={}, home="") == command
    from reportkit.redact import redact_argv

    assert redact_argv(command.split()) == command.split()


def test_a_key_with_slashes_escaped_as_some_json_encoders_write_them_is_redacted():
    key = azure64("+ASt")
    while "/" not in key:
        key = azure64("+ASt")
    text = '{"storage": {"key": "' + key.replace("/", "\\/") + '"}}'
    out = redact_text(text, env={}, home="")
    assert not [part for part in key.split("/") if len(part) >= 8 and part in out], out
    assert json.loads(out)
