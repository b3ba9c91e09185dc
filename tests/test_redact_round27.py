"""Round 27 (a blind tester's planted secrets, 2026-12-02): a ``.py`` artifact that does not parse (one stray line of
a progress bar) lost the text rules in its comments, 33 formats at once; an SDK's key passed as ``sdk_key='...'``;
a password's word in Spanish and French spelled with underscores; Mattermost's hook ids with few digits; and what is
no secret: an npm integrity digest inside an argument, a Windows path and a storage URL given as ``--env`` values.
Values are drawn per run."""

from __future__ import annotations

import ast
import base64
import secrets
import string

import pytest
from drawn import drawn

from reportkit import redact

PICKED = "Linden" + str(secrets.randbelow(900) + 100) + "^Brin" + str(secrets.randbelow(90) + 10)


def _lower_digits(n: int, digits: int) -> str:
    chars = [secrets.choice(string.ascii_lowercase) for _ in range(n - digits)]
    for _ in range(digits):
        chars.insert(secrets.randbelow(len(chars) + 1), secrets.choice(string.digits))
    return "".join(chars)


@pytest.mark.parametrize("stray", ["", " upload  20%|##        | eta 00:10", "<<<<<<< HEAD", "x = (1,\n"])
def test_comments_of_a_source_that_does_not_parse_are_prose_still(stray):
    key, token = drawn(32), drawn(40)
    comments = ["# AOT ID: ['0_forward']", f"# key={key}", f"# password {PICKED}",
                f"# + gh secret set REGISTRY_ROBOT --repo acme/ml --body {token}"]
    source = "\n".join(comments[:2] + ([stray] if stray else []) + comments[2:]
                       + ["def call(args):", "    return args", ""])
    out = redact.redact_code(source)
    assert key not in out and PICKED not in out and token not in out, out
    assert "def call(args):\n    return args" in out and "# AOT ID: ['0_forward']" in out
    if not stray:
        ast.parse(out)


def test_an_sdk_key_is_a_secret_by_its_name():
    key = _lower_digits(36, 12)
    line = f"factory = SplitFactory(sdk_key='{key}', config={{'impressionsMode': 'optimized'}})"
    assert key not in redact.redact_text(line, env={})
    out = redact.redact_code(line + "\n")
    assert key not in out and "impressionsMode" in out, out
    ast.parse(out)
    assert redact.redact_text("sdk_key_path=/etc/split/key.txt sdk_version=9.4.1", env={}) == \
        "sdk_key_path=/etc/split/key.txt sdk_version=9.4.1"


@pytest.mark.parametrize("line", ["error de conexión: usuario=etl clave_secreta={}", "clave secreta: {}",
                                  "échec de connexion: mot_de_passe: {}", "mot de passe={}"])
def test_a_password_word_in_another_language_with_underscores(line):
    text = line.format(PICKED)
    assert PICKED not in redact.redact_text(text, env={})
    out = redact.redact_code(f"msg = {text!r}\n")
    assert PICKED not in out, out
    ast.parse(out)


def test_a_mattermost_hook_id_with_few_digits_is_drawn():
    for digits in (1, 2, 3):
        hook = _lower_digits(26, digits)
        out = redact.redact_text(f"POST https://chat.acme.io/hooks/{hook} -> 200", env={})
        assert hook not in out, out
    for route in ("https://ci.acme.io/hooks/build_status_notifications", "POST /hooks/on-push HTTP/1.1",
                  "https://ci.acme.io/hooks/githubpushevents"):
        assert redact.redact_text(route, env={}) == route


@pytest.mark.parametrize("integrity", [
    "sha512-" + base64.b64encode(secrets.token_bytes(64)).decode(),
    "sha512-5M53BsOqcReBM10CEzSaGC4lddbxUMy9v+iLQ8GPQl2d27nb8yuN8GHr8JhtKZe3H3AIIBvsdZDfCqO8lqGa6Q==",  # the round's
], ids=["drawn", "round27"])
def test_an_integrity_digest_in_an_argument_is_no_secret(integrity):
    argv = ["job.py", f"npm integrity {integrity}", "--lr", "3"]
    assert redact.redact_argv(argv) == argv
    assert redact.argv_secrets(argv[1:]) == {}


@pytest.mark.parametrize("sha", ["9fceb02d0ae598e95dc970b74767f19372d61af8", secrets.token_hex(20)],
                         ids=["round27", "drawn"])
def test_a_digest_named_so_inside_an_argument_is_no_secret(sha):
    argv = ["job.py", f"GITHUB_SHA={sha} GITHUB_RUN_ATTEMPT=2", f"run_id={drawn(20)}"]
    assert redact.redact_argv(argv) == argv
    assert redact.argv_secrets(argv[1:]) == {}
    assert PICKED not in redact.redact_argv(["job.py", f"GITHUB_SHA={sha} DB_PASSWORD={PICKED}"])[1]


def test_a_digest_named_so_after_a_secrets_word_on_its_line_is_no_secret():
    """Round 27's re-run: a list repr put "api_key_id: 4821', '[o40L] GITHUB_SHA=<hex>" on one line; the rule that
    takes a credential near a secret's word took the digest with its name, and every copy went in the bundle."""
    sha, token = secrets.token_hex(20), "ghx" + drawn(36)
    for line in (f"protobuf api_key_id: 4821 key_version: 3', '[o40L] GITHUB_SHA={sha} GITHUB_RUN_ATTEMPT=2'",
                 f"token: 4821, BUILD_REVISION={sha}", f"secret rotated; SOURCE_COMMIT={sha}"):
        assert redact.redact_text(line, env={}) == line
    assert token not in redact.redact_text(f"token: 4821, GITHUB_SHA={sha} DEPLOY_TOKEN={token}", env={})


def _b64url(n: int) -> str:
    while True:  # (drawn until it has both cases and a digit, as 99.7% of such draws have)
        value = "".join(secrets.choice(string.ascii_letters + string.digits + "-_") for _ in range(n))
        if any(c.islower() for c in value) and any(c.isupper() for c in value) and any(c.isdigit() for c in value):
            return value


def test_a_capability_urls_key_in_its_path_is_redacted_in_text_and_code():
    """Round 27's Sumo Logic HTTP source: the URL's last segment (100+ characters of base64) is the whole key."""
    key = "ZaVnC4dhaV" + _b64url(110) + "=="
    url = f"https://endpoint4.collection.sumologic.com/receiver/v1/http/{key}"
    assert key[:40] not in redact.redact_text(f"log shipper: POST {url} -> 429", env={})
    source = f'SUMO_URL = "{url}"\nrequests.post(SUMO_URL, data=b"x")\n'
    out = redact.redact_code(source)
    assert key[:40] not in out and "sumologic.com/receiver/v1/http/" in out
    ast.parse(out)


@pytest.mark.parametrize("url", [
    "https://files.pythonhosted.org/packages/3a/5f/{hex60}/numpy-2.3.0-cp311-cp311-manylinux_2_28_x86_64.whl",
    "https://github.com/pytorch/pytorch/blob/{hex40}/torch/_dynamo/eval_frame.py",
    "https://registry-1.docker.io/v2/library/python/blobs/sha256:{hex64}",
    "https://example.com/docs/ThisIsAVeryLongCamelCaseRouteNameForTestingPurposesOnly2024Edition",
    "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/model-00001-of-00004.safetensors",
    "https://storage.googleapis.com/bucket/{a60}",
])
def test_long_path_segments_that_are_no_key_stay(url):
    url = url.format(hex60=secrets.token_hex(30), hex40=secrets.token_hex(20), hex64=secrets.token_hex(32), a60="a" * 60)
    assert redact.redact_text(f"GET {url} 200", env={}) == f"GET {url} 200"


@pytest.mark.parametrize("value", [r"C:\Users\runner\AppData\Local\Temp\torchinductor_runner\cache",
                                   "hf://datasets/HuggingFaceFW/fineweb-edu/data/000_00000.parquet",
                                   "s3://ml-artifacts/runs/2026-12-02/ckpt.pt", "gs://bucket/a/b"])
def test_a_windows_path_or_a_storage_url_given_with_env_is_shown(value):
    assert not redact.override_known(value)


@pytest.mark.parametrize("value", ["s3://ci:{}@minio.local/bucket", "hf://datasets/x?token={}", "C:{}"])
def test_a_storage_url_with_a_credential_is_not_a_path(value):
    assert redact.override_known(value.format(PICKED))


def test_a_key_inside_an_argument_is_known_in_the_commands_quoting_too():
    """africastalking's ``headers={'apiKey': 'atsk_<64 hex>'}`` as a script's argument: the argument is redacted
    by the dict rule, and the value is known, so bundle.json's command line (``shlex.quote``'s ``'"'"'``) loses it too."""
    import shlex

    from reportkit.report.render import Redactor

    key = "atsk_" + secrets.token_hex(32)
    arg = f"headers={{'apiKey': '{key}', 'Accept': 'application/json'}}"
    assert key in redact.argv_secrets(["job.py", arg])
    out = Redactor.for_env({}, args=["job.py", arg]).text(shlex.join(["python", "job.py", arg]))
    assert key not in out and out.startswith("python job.py "), out


@pytest.mark.parametrize("cut", ["…", "..."])
def test_a_vendor_token_cut_short_by_a_repr_loses_what_is_left(cut):
    """pytest shortened an ``assert not [...]`` list's repr in the middle of Paddle's ``pdl_live_apikey_01<drawn>``:
    about 20 drawn characters stayed in the CI bundle's logs."""
    left = "pdl_live_apikey_01" + _lower_digits(8, 3)
    text = f"E   AssertionError: assert not ['401 using {left}{cut}bo6_jlA...']"
    assert left not in redact.redact_text(text, env={})
    for kept in (f"set sk_test_{cut} in your env", f"run_test_suite{cut}", f"the model_test_set{cut} split"):
        assert redact.redact_text(kept, env={}) == kept


def test_a_progress_bars_frames_after_a_carriage_return_are_prose():
    """Python reads a line that starts with "\\r" as blank, so its text was neither code nor comment."""
    value = drawn(36)
    frames = f"\r upload  10%|#         | eta 00:12\r upload  20%|##        | auth={value} eta 00:10\r upload  30%|###   |"
    for source in ("# AOT ID\nimport torch\n" + frames + "\nclass M(torch.nn.Module):\n    pass\n", "x = 1\n" + frames + "\n"):
        out = redact.redact_code(source)
        assert value not in out and source.splitlines()[-1] in out, out


@pytest.mark.parametrize("body", ["SplitFactory(sdk_key=\\'{}\\', config={{\\'impressionsMode\\': \\'optimized\\'}})",
                                  "headers={{\\'apiKey\\': \\'{}\\', \\'Accept\\': \\'application/json\\'}}"])
def test_a_secret_inside_a_reprs_single_quoted_string_is_seen_through_its_escapes(body):
    key = _lower_digits(36, 12)
    text = "E   RuntimeError('upload failed\\n[s36] " + body.format(key) + " timed out\\n[s37] next')"
    out = redact.redact_text(text, env={})
    assert key not in out and ("impressionsMode" in out or "Accept" in out), out
    assert redact.redact_text("it's a 'quoted \\' thing' don't", env={}) == "it's a 'quoted \\' thing' don't"


def test_a_secret_in_a_long_reprs_single_quoted_string_is_seen_through_its_escapes():
    """A locals dump prints the exception's repr on one line: 35 KB in the round, more than one string is read at."""
    key, sdk = "atsk_" + secrets.token_hex(32), _lower_digits(36, 12)
    filler = "\\n[s00exc] an ordinary line of the message" * 900
    line = ("    e = RuntimeError('upload failed" + filler + "\\n[s07exc] POST headers={\\'apiKey\\': \\'" + key
            + "\\', \\'Accept\\': \\'application/json\\'}\\n[s36exc] SplitFactory(sdk_key=\\'" + sdk + "\\')" + filler + "')")
    assert len(line) > 60000
    out = redact.redact_text("Traceback (most recent call last):\n" + line + "\n", env={})
    assert key not in out and sdk not in out


def test_a_long_reprs_string_with_many_secrets_is_read_for_every_one():
    """Round 27's re-run: the 37 KB repr held 65 secrets in one piece of its lines, and what the rules took was not
    told apart above 64 (a cap from when telling them apart backtracked): the key found there leaked."""
    others = [drawn(32) for _ in range(80)]
    key = "atsk_" + secrets.token_hex(32)
    body = "".join(f"\\n[s{i:02d}exc] retry {i}: password={value}" for i, value in enumerate(others))
    line = ("    e = RuntimeError('upload failed" + body + "\\n[s90exc] POST headers={\\'apiKey\\': \\'" + key
            + "\\', \\'Accept\\': \\'application/json\\'}')")
    out = redact.redact_text("Traceback (most recent call last):\n" + line + "\n", env={})
    assert key not in out and not [value for value in others if value in out], out[:2000]
    assert "application/json" in out


def test_after_a_line_that_stops_tokenizing_a_comment_after_code_on_its_line_is_prose():
    """The round's artifact: an indented comment, then a progress bar's frames one per line (" upload  20%|##   |
    auth=..."): tokenize stopped at the dedent, and the frames' "#" did not start their lines."""
    value = drawn(36)
    source = ("def forward(self, x):\n        # [s78art] \n upload  10%|#         | eta 00:12\n"
              f" upload  20%|##        | auth={value} eta 00:10\n upload  30%|###       |\n   return x\n")
    out = redact.redact_code(source)
    assert value not in out and "def forward(self, x):" in out, out
