"""Vendor token formats (issue 35, item 5b): the prefix rules come from the public catalogues of secret
scanners (gitleaks' rule list, Kingfisher's rules): a vendor's prefix or structure, its character set and length.
Each format is made here at run time from that shape and must be redacted in text (plain, after a JSON escape,
in a URL-less sentence) and inside a string literal of code (which still parses); ordinary values that look a
little like them stay.
"""

from __future__ import annotations

import ast
import base64
import json
import os
import random
import secrets
import string

import pytest

from reportkit.redact import redact_code, redact_text

A = string.ascii_letters + string.digits
UP = string.ascii_uppercase + string.digits
LOW = string.ascii_lowercase + string.digits


def r(n: int, alphabet: str = A) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(n))


def h(n: int) -> str:
    return r(n, "0123456789abcdef")


FORMATS = {
    "1password-secret-key": lambda: f"A3-{r(6, UP)}-{r(11, UP)}-{r(5, UP)}-{r(5, UP)}-{r(5, UP)}",
    "1password-service-account": lambda: "ops_eyJ" + r(300, A + "+/"),
    "adafruit": lambda: "aio_" + r(28),
    "adobe": lambda: "p8e-" + r(32, LOW),
    "airtable": lambda: "pat" + r(14) + "." + h(64),
    "alibaba": lambda: "LTAI" + r(20),
    "tencent": lambda: "AKID" + r(32),
    "artifactory-reference": lambda: "cmVmd" + r(59),
    "aws-bedrock": lambda: "ABSK" + r(140, A + "+/"),
    "aws-a3t": lambda: "A3T" + r(17, UP),
    "azure-ad-client-secret": lambda: r(3) + secrets.choice("0123456789") + "Q~" + r(34, A + "_~.-"),
    "bitbucket-app-password": lambda: "ATBB" + r(32),
    "buildkite": lambda: "bkua_" + r(40, LOW),
    "circleci": lambda: "CCIPAT_" + r(22) + "_" + h(40),
    "clickup": lambda: "pk_" + r(8, string.digits) + "_" + r(32, UP),
    "clojars": lambda: "CLOJARS_" + r(60, LOW),
    "cloudflare-origin-ca": lambda: "v1.0-" + h(24) + "-" + h(146),
    "contentful": lambda: "CFPAT-" + r(43, A + "_-"),
    "dependency-track": lambda: "odt_" + r(40),
    "dropbox": lambda: "sl." + r(140, A + "_-"),
    "duffel": lambda: "duffel_live_" + r(43),
    "dynatrace": lambda: f"dt0c01.{r(24, UP)}.{r(64, UP)}",
    "easypost": lambda: "EZAK" + r(54),
    "facebook": lambda: "EAAC" + r(120),
    "figma": lambda: "figd_" + r(43, A + "_-"),
    "firebase-fcm": lambda: "AAAA" + r(7, A + "_-") + ":APA91b" + r(134, A + "_-"),
    "flyio": lambda: "fo1_" + r(43, A + "_-"),
    "frameio": lambda: "fio-u-" + r(64, A + "_-"),
    "harness": lambda: f"pat.{r(22)}.{r(24)}.{r(20)}",
    "heroku": lambda: "HRKU-AA" + r(58, A + "_-"),
    "huggingface-org": lambda: "api_org_" + r(34, string.ascii_letters),
    "infracost": lambda: "ico-" + r(32),
    "mailchimp": lambda: h(32) + "-us" + r(2, string.digits),
    "maxmind": lambda: r(6) + "_" + r(29) + "_mmk",
    "mongodb-atlas": lambda: "mdb_sa_sk_" + r(40),
    "nuget": lambda: "oy2" + r(43, LOW),
    "nvidia": lambda: "nvapi-" + r(64, A + "_-"),
    "octopus": lambda: "API-" + r(20, string.ascii_uppercase) + r(6, string.digits),
    "openshift": lambda: "sha256~" + r(43, A + "_-"),
    "pinecone": lambda: "pcsk_" + r(6) + "_" + r(63),
    "planetscale": lambda: "pscale_pw_" + r(43),
    "posthog": lambda: "phx_" + r(47),
    "prefect": lambda: "pnu_" + r(36),
    "pulumi": lambda: "pul-" + h(40),
    "readme": lambda: "rdme_" + r(70, LOW),
    "scalingo": lambda: "tk-us-" + r(48, A + "_-"),
    "sendinblue": lambda: "xkeysib-" + h(64) + "-" + r(16),
    "sentry-user": lambda: "sntryu_" + h(64),
    "settlemint": lambda: "sm_pat_" + r(16),
    "shippo": lambda: "shippo_live_" + h(40),
    "slack-config": lambda: "xoxe.xoxp-1-" + r(160, UP),
    "sonarqube": lambda: "squ_" + h(40),
    "sourcegraph": lambda: "sgp_" + h(16) + "_" + h(40),
    "square": lambda: "EAAA" + r(60, A + "_-"),
    "stackhawk": lambda: f"hawk.{r(20)}.{r(20)}",
    "stripe-prod": lambda: "sk_prod_" + r(40),
    "supabase": lambda: "sbp_" + h(40),
    "terraform-cloud": lambda: r(14) + ".atlasv1." + r(67),
    "twilio": lambda: "SK" + h(32),
    "typeform": lambda: "tfp_" + r(44),
    "ubidots": lambda: "BBFF-" + r(30),
    "voiceflow": lambda: "VF.DM." + h(24) + "." + r(16),
    "zoho": lambda: "1000." + h(32) + "." + h(32),
    "teams-webhook": lambda: (f"https://acme.webhook.office.com/webhookb2/{h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}@"
                              f"{h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}/IncomingWebhook/{h(32)}/{h(8)}-{h(4)}-{h(4)}-{h(4)}-{h(12)}"),
}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_vendor_format_is_redacted_in_text(name):
    value = FORMATS[name]()
    core = value[len(value) // 4: -len(value) // 4]
    for text in (f"deploy with {value} now", f"key={value}", f"({value})", json.dumps({"log": f"ok\n{value}\tend"}),
                 f"token: '{value}'"):
        out = redact_text(text, home="")
        assert value not in out and core not in out, (text, out)


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_a_vendor_format_is_redacted_in_code_which_still_parses(name):
    value = FORMATS[name]()
    source = f'CONFIG = {{"endpoint": "https://api.example.com", "auth": "{value}"}}\nprint(CONFIG["endpoint"])\n'
    out = redact_code(source, home="")
    assert value not in out, out
    ast.parse(out)
    assert 'print(CONFIG["endpoint"])' in out


@pytest.mark.parametrize("text,secret", [
    ("keytool -genkeypair -alias app -storepass {pw} -keystore app.jks", "{pw}"),
    ("keytool -importkeystore -srcstorepass {pw} -deststorepass other", "{pw}"),
    ("[Interface]\nAddress = 10.0.0.2/32\nPrivateKey = {wg}\n", "{wg}"),
    ("[Peer]\nPresharedKey={wg}", "{wg}"),
    ("export aws_session_token={long}", "{long}"),
    ("curl -H 'Authorization: SSWS 00{okta}' https://x.okta.com/api/v1/users", "00{okta}"),
])
def test_structural_credentials(text, secret):
    values = {"pw": "Pw" + r(10) + "9", "wg": base64.b64encode(os.urandom(32)).decode(), "long": r(356, A + "/+"),
              "okta": r(40, A + "_-")}
    text, secret = text.format(**values), secret.format(**values)
    out = redact_text(text, home="")
    assert secret not in out, out


@pytest.mark.parametrize("text", [
    "commit 82dede8e2a19a2666b90aca5e51781d6720c0efb of resnet50_v2",
    "run 550e8400-e29b-41d4-a716-446655440000 finished",
    "sha256:9f86d081884c7d659a2f0a3c8e4c3a1d5f2b6e7a8c9d0e1f2a3b4c5d6e7f8091 digest",
    "md5 d41d8cd98f00b204e9800998ecf8427e checksum",
    "keytool -list -storepass:env STOREPASS -keystore app.jks",
    "sl.no 3 of the list, pk_id 42, API-VERSION 2024-01-01",
    "the model sha256~ marker and pul-request notes",
    "see https://github.com/pytorch/pytorch/pull/123456 and torch 2.13.0+cpu",
    "PrivateKey = (not set)",
])
def test_ordinary_text_stays(text):
    assert redact_text(text, home="") == text
    source = f"NOTE = {text!r}\n"
    assert redact_code(source, home="") == source


@pytest.mark.parametrize("prefix", ["opk_", "zsk_", "tsk-"])
def test_an_unknown_vendors_prefix_that_ends_in_a_short_known_one_is_still_a_prefix(prefix):
    # (most short words end in a two-letter prefix and its "_" or "-": pk_, sk_, sk-; only a longer one glued to a word,
    # xghp_, says "not that vendor's token")
    rng = random.Random(prefix)
    body = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(40))
    assert body not in redact_text(f"dataset uploaded {prefix}{body}", env={}, home="")
