"""reportkit._picire imports picire 21.8 with or without pkg_resources (setuptools >= 82)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

BLOCKER = """
import importlib.abc
import sys

class BlockPkgResources(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "pkg_resources" or name.startswith("pkg_resources."):
            raise ImportError("pkg_resources is blocked for this test", name=name)
        return None

sys.meta_path.insert(0, BlockPkgResources())
sys.modules.pop("pkg_resources", None)
"""


def run_python(code: str, tmp_path: Path, extra_path: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    paths = [str(REPO)] + ([str(extra_path)] if extra_path else [])
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    script = tmp_path / "check.py"
    script.write_text(textwrap.dedent(code))
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )


def test_import_without_pkg_resources(tmp_path: Path) -> None:
    code = (
        BLOCKER
        + """
import importlib.metadata

try:
    import pkg_resources  # noqa: F401
except ImportError:
    pass
else:
    raise SystemExit("blocker did not work")

import reportkit._picire as rp

assert "pkg_resources" not in sys.modules, "stand-in leaked"
try:
    import pkg_resources  # noqa: F401,F811
except ImportError:
    pass
else:
    raise SystemExit("pkg_resources became importable")

assert rp.picire.__version__ == importlib.metadata.version("picire") == "21.8", rp.picire.__version__

def test(config, config_id):
    return rp.Outcome.FAIL if {3, 7} <= set(config) else rp.Outcome.PASS

dd = rp.DD(test, subset_first=False, subset_iterator=rp.skip, complement_iterator=rp.backward)
assert dd(list(range(10))) == [3, 7]
assert rp.DD is rp.picire.DD
print("ok")
"""
    )
    proc = run_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_real_pkg_resources_is_used_untouched(tmp_path: Path) -> None:
    fake = tmp_path / "fakepath"
    fake.mkdir()
    (fake / "pkg_resources.py").write_text(
        textwrap.dedent(
            """
            CALLS = []

            class DistributionNotFound(Exception):
                pass

            class _Dist:
                version = "9.9.9-real-looking"

            def get_distribution(name):
                CALLS.append(name)
                return _Dist()
            """
        )
    )
    code = """
import sys
import pkg_resources
original = pkg_resources
import reportkit._picire as rp
assert sys.modules["pkg_resources"] is original, "pkg_resources was replaced"
assert not hasattr(original, "__reportkit_stand_in__")
assert original.CALLS == ["picire"], original.CALLS
assert rp.picire.__version__ == "9.9.9-real-looking", rp.picire.__version__
print("ok")
"""
    proc = run_python(code, tmp_path, extra_path=fake)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_importable_real_pkg_resources_not_imported_in_advance(tmp_path: Path) -> None:
    """A findable pkg_resources is left for picire itself to import (and stays afterwards)."""
    fake = tmp_path / "fakepath"
    fake.mkdir()
    (fake / "pkg_resources.py").write_text(
        "class DistributionNotFound(Exception):\n    pass\n\n"
        "class _D:\n    version = '1.2.3'\n\n"
        "def get_distribution(name):\n    return _D()\n"
    )
    code = """
import sys
import reportkit._picire as rp
assert rp.picire.__version__ == "1.2.3", rp.picire.__version__
assert "pkg_resources" in sys.modules and not hasattr(sys.modules["pkg_resources"], "__reportkit_stand_in__")
print("ok")
"""
    proc = run_python(code, tmp_path, extra_path=fake)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_stand_in_is_minimal_and_honest() -> None:
    from reportkit import _picire

    module = _picire._make_stand_in()
    assert module.get_distribution("picire").version == "21.8"
    with pytest.raises(module.DistributionNotFound):
        module.get_distribution("surely-not-an-installed-distribution-xyz")
    assert not hasattr(module, "require")
    assert not hasattr(module, "working_set")


def test_reportkit_imports_picire_only_through_the_shim() -> None:
    for path in (REPO / "reportkit").rglob("*.py"):
        if path.name == "_picire.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "import picire" not in text and "from picire" not in text, path
