"""reportkit.reduce._picire imports picire 21.8 with or without pkg_resources (setuptools >= 82)."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import textwrap
import threading
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

import reportkit.reduce._picire as rp

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
import reportkit.reduce._picire as rp
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
import reportkit.reduce._picire as rp
assert rp.picire.__version__ == "1.2.3", rp.picire.__version__
assert "pkg_resources" in sys.modules and not hasattr(sys.modules["pkg_resources"], "__reportkit_stand_in__")
print("ok")
"""
    proc = run_python(code, tmp_path, extra_path=fake)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_stand_in_is_minimal_and_honest() -> None:
    from reportkit.reduce import _picire

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


# ------------------------------------------------- the tested picire range (reportkit/reduce/dd.py)
def test_pyproject_pins_the_tested_range() -> None:
    from reportkit.reduce import dd

    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"{dd.PICIRE_RANGE}"' in pyproject
    installed = tuple(int(p) for p in importlib.metadata.version("picire").split(".")[:2])
    assert (21, 8) <= installed < (22, 0), installed


class _Renamed:
    """A DD whose per-iteration hook was renamed (as on picire's main branch)."""

    def _reduce_iteration(self, run, subsets, complement_offset):  # pragma: no cover - never called
        return None, complement_offset


class _Changed:
    def _reduce_config(self, subsets):  # pragma: no cover - never called
        return None, 0


@pytest.mark.parametrize("dd_class, found", [(_Renamed, "is missing"), (_Changed, "has the parameters")])
def test_incompatible_picire_fails_loudly(dd_class: type, found: str) -> None:
    from reportkit.reduce import dd

    dd.check_picire()  # the installed one is fine
    with pytest.raises(ImportError) as excinfo:
        dd.check_picire(dd_class, version="22.1")
    message = str(excinfo.value)
    assert "picire>=21.8,<22" in message and "22.1" in message and found in message
    assert "_reduce_config" in message


def test_importing_the_reducer_with_an_incompatible_picire_fails_with_the_message(tmp_path: Path) -> None:
    """A real picire with the hook renamed: importing reportkit.reduce.schedule stops with the clear message."""
    import shutil

    import picire

    fake = tmp_path / "fakepath"
    shutil.copytree(Path(picire.__file__).parent, fake / "picire", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("abstract_dd.py", "dd.py", "parallel_dd.py", "combined_parallel_dd.py"):
        path = fake / "picire" / name
        if path.exists():
            path.write_text(path.read_text().replace("_reduce_config", "_reduce_iteration"))
    proc = run_python("import reportkit.reduce.schedule\n", tmp_path, extra_path=fake)
    assert proc.returncode != 0
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: reportkit needs picire>=21.8,<22"), proc.stderr
    assert "pip install 'picire>=21.8,<22'" in last


def test_parallel_ddmin_prefetches_through_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    """With jobs > 1 picire calls the hook each iteration and its planned complements run ahead in
    worker threads; the result and the test count are those of jobs = 1."""
    from reportkit.reduce import dd
    from reportkit.reduce.schedule import reduce_source

    planned: list[int] = []
    original = dd._DD._planned

    def counting(self, subsets, offset):  # type: ignore[no-untyped-def]
        planned.append(len(subsets))
        return original(self, subsets, offset)

    monkeypatch.setattr(dd._DD, "_planned", counting)
    source = "".join(f"x{i} = {i}\n" for i in range(12)) + "assert x3 + x7 != 10\n"

    def workers(jobs: int) -> tuple[str, int, set[str]]:
        names: set[str] = set()

        def predicate(candidate: str) -> bool:
            names.add(threading.current_thread().name.split("_")[0])
            return "x3 = 3\n" in candidate and "x7 = 7\n" in candidate and candidate.endswith("assert x3 + x7 != 10\n")

        result = reduce_source(source, predicate, jobs=jobs)
        return result.source, result.stats.tests_run, names

    serial = workers(1)
    assert serial[0] == "x3 = 3\nx7 = 7\nassert x3 + x7 != 10\n"
    assert "reportkit-reduce" not in serial[2]
    planned.clear()
    parallel = workers(2)
    assert planned, "picire never called DD._reduce_config: the prefetch hook is bypassed"
    assert parallel[:2] == serial[:2]
    assert "reportkit-reduce" in parallel[2], parallel[2]


def test_stop_raised_by_the_test_reaches_the_caller_unwrapped() -> None:
    """picire must not wrap the test's exceptions (its main branch does): Stop ends a reduction."""
    from reportkit.reduce._picire import DD, Outcome, backward, skip
    from reportkit.reduce.schedule import Stop

    def test(config, config_id):  # type: ignore[no-untyped-def]
        if len(config) < 10:
            raise Stop()
        return Outcome.FAIL

    dd = DD(test, subset_first=False, subset_iterator=skip, complement_iterator=backward)
    with pytest.raises(Stop):
        dd(list(range(10)))
