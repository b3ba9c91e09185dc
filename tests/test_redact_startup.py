"""What importing the redaction edge costs each reportkit command: its patterns are compiled when first used, and
detect-secrets' detectors are read from a cache of their patterns (keyed by the installed plugins' files) instead
of importing the package and the HTTP client it verifies with. The rules themselves must not change."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reportkit import redact

PROBE = """
import json, re, sys
import reportkit.redact as R
lazy = [v for v in vars(R).values() if isinstance(v, R._LazyPattern)]
print(json.dumps({
    "detect_secrets_imported": "detect_secrets" in sys.modules,
    "rows": [list(r) for r in R._ds_rows()],
    "patterns": [[k, h, p.pattern, p.flags, n] for k, h, p, n in R._DS_PATTERNS],
    "lazy": len(lazy),
    "compiled_at_import": sum(p._compiled is not None for p in lazy),
    "redacted": R.redact_text(sys.argv[1]),
}))
"""


def _probe(cache: Path, text: str = "token ghp_" + "a1B2" * 9) -> dict:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    proc = subprocess.run([sys.executable, "-c", PROBE, text], capture_output=True, text=True, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _cache_files(cache: Path) -> list[Path]:
    return sorted((cache / "reportkit").glob("detect-secrets-*.json"))


def test_the_second_start_reads_detect_secrets_patterns_from_the_cache(tmp_path):
    first = _probe(tmp_path)
    assert first["detect_secrets_imported"]
    [written] = _cache_files(tmp_path)
    assert written.stat().st_mode & 0o777 == 0o600 and (tmp_path / "reportkit").stat().st_mode & 0o777 == 0o700
    second = _probe(tmp_path)
    assert not second["detect_secrets_imported"]
    # the same detectors, in the same order, with the same needles; and they still redact
    assert second["patterns"] == first["patterns"] and len(first["patterns"]) >= 20
    assert first["redacted"] == second["redacted"] != "token ghp_" + "a1B2" * 9


def test_the_cache_holds_what_the_plugins_say(tmp_path):
    rows = _probe(tmp_path)["rows"]
    assert [tuple(r) for r in rows] == redact._ds_read()
    assert any(name == "AWSKeyDetector" for _type, name, _p, _f in rows)


@pytest.mark.parametrize("damage", ["", "{", "[]", '[["a", "b", "c", "4"]]', '{"rows": 1}', '[["a", "b"]]'])
def test_a_damaged_cache_is_read_from_the_plugins_again_and_replaced(tmp_path, damage):
    good = _probe(tmp_path)
    [cache] = _cache_files(tmp_path)
    cache.write_text(damage)
    again = _probe(tmp_path)
    assert again["detect_secrets_imported"] and again["patterns"] == good["patterns"]
    assert json.loads(cache.read_text()) == good["rows"]


def test_an_unwritable_cache_dir_is_no_error(tmp_path):
    blocked = tmp_path / "file-not-dir"
    blocked.write_text("")
    out = _probe(blocked)
    assert out["detect_secrets_imported"] and len(out["patterns"]) >= 20 and "<redacted" in out["redacted"]


def test_another_detect_secrets_installation_gets_its_own_cache_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    ours = redact._ds_cache_file()
    assert ours is not None and Path(ours).parent == tmp_path / "reportkit"
    plugins = tmp_path / "ds" / "detect_secrets" / "plugins"
    plugins.mkdir(parents=True)
    (plugins.parent / "__init__.py").write_text("")
    (plugins / "aws.py").write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path / "ds"))
    monkeypatch.delitem(sys.modules, "detect_secrets", raising=False)
    other = redact._ds_cache_file()
    (plugins / "aws.py").write_text("x = 22\n")
    changed = redact._ds_cache_file()
    assert len({ours, other, changed}) == 3


def test_patterns_are_compiled_when_first_used(tmp_path):
    out = _probe(tmp_path, "nothing secret here")
    assert out["lazy"] > 200
    assert out["compiled_at_import"] < out["lazy"] // 10


def test_a_lazy_pattern_answers_like_a_compiled_one():
    lazy = redact._rx(r"(?P<k>ab+)c", 0)
    real = __import__("re").compile(r"(?P<k>ab+)c")
    assert (lazy.pattern, lazy.flags) == (r"(?P<k>ab+)c", 0)
    assert lazy._compiled is None
    text = "xabbc abc"
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.sub("-", text) == real.sub("-", text) and lazy.groupindex == real.groupindex
    with pytest.raises(__import__("re").error):
        redact._rx("(unclosed").search("x")
