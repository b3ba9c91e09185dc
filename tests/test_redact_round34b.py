"""Blind secrets round 34b: values a line wrap cut (the script printed them in 60-column pieces)."""

from __future__ import annotations

import base64
import random
import string

import pytest

from reportkit import redact

_RNG = random.Random(3434_2)


def _drawn(n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(_RNG.choice(alphabet) for _ in range(n))


def _wrapped(value: str, width: int) -> str:
    return "\n".join(value[i:i + width] for i in range(0, len(value), width))


@pytest.mark.parametrize("width", [9, 20, 40, 60, 64])
def test_a_known_value_printed_in_pieces_is_redacted_whole(width):
    """A known value cut by the wrap: the cut rule (12+ first characters) took the first line alone and left the
    last piece (9 characters of a SendGrid key at 60 columns); the pieces are joined first now."""
    value = f"SG.{_drawn(22)}.{_drawn(43)}"
    env = {"SENDGRID_API_KEY": value}
    redact.remember_env(env)
    out = redact.redact_output("sending mail\n" + _wrapped(value, width) + "\nTraceback (most recent call last):\n",
                               env=env)
    assert out == "sending mail\n<redacted:env-secret>\nTraceback (most recent call last):\n", out


def test_a_quoted_value_a_wrap_cut_loses_its_tail_too():
    """A printed docker config.json folded at 60 columns: `"auth": "<base64>` then `<tail>=="` on the next line."""
    auth = base64.b64encode(f"robot$ci:{_drawn(32)}".encode()).decode()
    config = '{\n  "auths": {\n    "registry.corp.example:5000": {\n      "auth": "' + auth + '"\n    }\n  }\n}'
    out = redact.redact_text(_wrapped(config, 60))
    for piece in (auth[:8], auth[-10:], auth[20:30]):
        assert piece not in out, out
    assert out.count('"') == config.count('"') and '"registry.corp.example:5000"' in out


@pytest.mark.parametrize("text", [
    'token: "<redacted:secret>"\nnext: "value"\n',  # (closed on its line)
    'say "<redacted:secret>\nthen a sentence" on the next line\n',  # (the next line is prose, not a value's tail)
])
def test_what_is_not_a_wrapped_tail_stays(text):
    assert redact.redact_text(text) == text


def _program(middle: str) -> str:
    lines = [f"        x{i} = torch.ops.aten.add.Tensor(x{i - 1}, {i})  # File: job.py:{i} in forward" for i in range(1, 60)]
    return "import torch\n\nclass G(torch.nn.Module):\n    def forward(self, x0):\n" + "\n".join(
        lines[:30] + [middle] + lines[30:]) + "\n        return (x59,)\n"


def test_a_secret_in_a_long_literal_of_source_is_found():
    """A compiled graph's source written by the script (``_f.write('...')``, over 4,096 characters): a literal that long
    was not read for names and labels at all, and a Kafka JAAS password in it stayed in the bundled reproducer."""
    password = _drawn(24)
    jaas = ("sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
            f'username="{_drawn(16)}" password="{password}";')
    program = _program(f"        cfg = {jaas!r}")
    assert len(program) > 4096
    source = f"with open('graph.py', 'w') as _f:\n    _f.write({program!r})\n"
    out = redact.redact_code(source)
    assert password not in out and "<redacted" in out
    __import__("ast").parse(out)


def test_a_long_literal_without_a_secret_stays():
    program = _program("        password_length = 12  # (a setting's name, not a secret)")
    source = f"with open('graph.py', 'w') as _f:\n    _f.write({program!r})\n"
    assert redact.redact_code(source) == source
