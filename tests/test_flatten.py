"""reportkit/reduce/flatten.py: folding a script's local modules into the script (pure Python, fast)."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reportkit.failure.check import establish
from reportkit.failure.signature import MatchPolicy, same_failure
from reportkit.reduce.flatten import NotFlattenable, flatten_source, fold_local_code, project_roots
from reportkit.run.runner import Sandbox, target_spec
from reportkit.run.spec import RunSpec


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def run_alone(tmp_path: Path, source: str) -> subprocess.CompletedProcess:
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "flat.py").write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, "flat.py"], cwd=alone, capture_output=True, text=True, timeout=60)


PROJECT = {
    "app.py": '''
        """Entry point."""
        from __future__ import annotations
        import json
        import shop.pricing as pricing
        from shop import Cart, TAX as tax_rate
        from shop.util import fmt

        def total(cart):
            return pricing.net(cart.items) * (1 + tax_rate)

        if __name__ == "__main__":
            cart = Cart([("apple", 2.0), ("pear", 3.0)])
            print(fmt(total(cart)), json.dumps(sorted(cart.names())))
    ''',
    "shop/__init__.py": '''
        from .cart import Cart
        from .pricing import TAX

        __all__ = ["Cart", "TAX"]
    ''',
    "shop/cart.py": '''
        class Cart:
            def __init__(self, items):
                self.items = items

            def names(self):
                return [name for name, _ in self.items]
    ''',
    "shop/pricing.py": '''
        TAX = 0.5

        def net(items):
            # sum of the prices
            return sum(price for _, price in items)

        if __name__ == "__main__":
            print("pricing self-test")
    ''',
    "shop/util.py": '''
        from . import pricing

        def fmt(value):
            return f"{value:.2f} (tax {pricing.TAX})"
    ''',
}


def test_package_with_relative_imports_aliases_and_module_attributes(tmp_path):
    write(tmp_path / "proj", PROJECT)
    script = tmp_path / "proj" / "app.py"
    before = subprocess.run([sys.executable, "app.py"], cwd=script.parent, capture_output=True, text=True)
    flat = flatten_source(script, script.read_text())
    assert flat is not None
    assert set(flat.modules) == {"shop/__init__.py", "shop/cart.py", "shop/pricing.py", "shop/util.py"}
    tree = ast.parse(flat.source)
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported <= {"json", "__future__"}  # installed / stdlib imports only
    assert flat.source.startswith('"""Entry point."""\nfrom __future__ import annotations\n')  # docstring first
    assert "pricing self-test" not in flat.source  # a folded module's __main__ block does not run on import
    assert "__all__" not in flat.source
    assert "# sum of the prices" in flat.source  # folded code keeps its text
    # module attribute -> the folded name; the script's alias names the folded definition
    assert "return net(cart.items) * (1 + tax_rate)" in flat.source
    assert flat.renamed == {"shop.pricing.TAX": "tax_rate"} and "tax_rate = 0.5" in flat.source
    after = run_alone(tmp_path, flat.source)
    assert after.returncode == 0, after.stderr
    assert after.stdout == before.stdout == '7.50 (tax 0.5) ["apple", "pear"]\n'


def test_name_clashes_rename_the_folded_module_not_the_script(tmp_path):
    write(tmp_path, {
        "main.py": '''
            from a import helper as helper_a
            from b import run_b

            def helper():
                return "script"

            print(helper(), helper_a(), run_b())
        ''',
        "a.py": '''
            def helper():
                return "a"
        ''',
        "b.py": '''
            LIMIT = 3

            def helper(x):
                return f"b{x}"

            def run_b():
                helper_local = [helper(i) for i in range(LIMIT)]

                def inner(helper):  # a parameter that shadows the module's name
                    return helper
                return "".join(helper_local) + inner("!")
        ''',
    })
    script = tmp_path / "main.py"
    flat = flatten_source(script, script.read_text())
    assert "def helper():\n    return \"script\"" in flat.source  # the script's own names never change
    assert flat.renamed == {"a.helper": "helper_a", "b.helper": "b_helper"}
    assert "def inner(helper):" in flat.source and "return helper\n" in flat.source  # shadowed: untouched
    out = run_alone(tmp_path, flat.source)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "script a b0b1b2!\n"


def test_no_local_imports_means_nothing_to_fold(tmp_path):
    write(tmp_path, {"s.py": "import json\nimport collections.abc\nprint(json.dumps(1))\n"})
    assert flatten_source(tmp_path / "s.py", (tmp_path / "s.py").read_text()) is None


def test_a_script_without_local_imports_is_not_analysed_further(tmp_path, monkeypatch):
    """Nothing to fold: the script's top-level bindings (a walk of every top-level statement, the larger part of
    the look at a long script) are not worked out; a star import of an installed module is refused as before."""
    from reportkit.reduce import flatten

    calls = []
    bindings = flatten._Project._bindings
    monkeypatch.setattr(flatten._Project, "_bindings", lambda self, mod: calls.append(mod.name) or bindings(self, mod))
    write(tmp_path, {"s.py": "import json\nfor i in range(3):\n    x = json.dumps(i)\nprint(x)\n",
                     "t.py": "from os.path import *\nprint(join('a', 'b'))\n"})
    assert flatten_source(tmp_path / "s.py", (tmp_path / "s.py").read_text()) is None
    assert calls == []
    with pytest.raises(NotFlattenable, match=r"'from os.path import \*' in .*t.py: names unknown"):
        flatten_source(tmp_path / "t.py", (tmp_path / "t.py").read_text())
    write(tmp_path, {"u.py": "import helpers\nprint(helpers.X)\n", "helpers.py": "X = 1\n"})
    assert flatten_source(tmp_path / "u.py", (tmp_path / "u.py").read_text()) is not None
    assert calls[-2:] == ["helpers", "__main__"]  # (something to fold: the script's bindings, after its modules')


def test_module_object_used_as_a_value_is_refused(tmp_path):
    write(tmp_path, {"s.py": "import helpers\nprint(vars(helpers))\n", "helpers.py": "X = 1\n"})
    with pytest.raises(NotFlattenable, match="module object helpers used as a value"):
        flatten_source(tmp_path / "s.py", (tmp_path / "s.py").read_text())


@pytest.mark.parametrize("init", [
    "from .load import load\n",  # the package's function named like its module (shadows the submodule)
    "from . import load as _m\nload = _m.load\n",  # rebound to the function after the submodule import
])
def test_a_package_name_that_shadows_its_submodule_is_the_packages_binding(tmp_path, init):
    """``from app import load`` takes the package's attribute ``load`` (what ``__init__`` bound last),
    not the submodule ``app/load.py``: Python reads the attribute first."""
    write(tmp_path, {
        "main.py": "from app import load\nfrom app.load import DEFAULTS\nprint(load({'workers': 2}), DEFAULTS)\n",
        "app/__init__.py": init,
        "app/load.py": '''
            DEFAULTS = {"workers": 4}

            def load(override):
                return dict(DEFAULTS, **override)
        ''',
    })
    script = tmp_path / "main.py"
    flat = flatten_source(script, script.read_text())
    assert flat is not None and "app/load.py" in flat.modules
    out = run_alone(tmp_path, flat.source)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "{'workers': 2} {'workers': 4}\n"


def test_an_imported_submodule_stays_a_module_where_the_package_does_not_rebind_it(tmp_path):
    write(tmp_path, {"main.py": "from app import load\nprint(load.VALUE)\n",
                     "app/__init__.py": "from .load import VALUE as _v\n", "app/load.py": "VALUE = 3\n"})
    script = tmp_path / "main.py"
    flat = flatten_source(script, script.read_text())
    out = run_alone(tmp_path, flat.source)
    assert out.returncode == 0 and out.stdout == "3\n", out.stderr


def test_pytest_layout_resolves_test_utilities_from_the_rootdir(tmp_path):
    write(tmp_path, {
        "pytest.ini": "[pytest]\n",
        "lib/__init__.py": "def double(x):\n    return 2 * x\n",
        "tests/__init__.py": "",
        "tests/util.py": "def make(n):\n    return list(range(n))\n",
        "tests/test_x.py": '''
            from lib import double
            from tests.util import make

            def test_double():
                assert [double(v) for v in make(3)] == [0, 2, 5]
        ''',
    })
    test = tmp_path / "tests" / "test_x.py"
    flat = flatten_source(test, test.read_text(), project_roots(test, tmp_path))
    assert flat.modules == ["lib/__init__.py", "tests/util.py"]
    assert "import" not in flat.source.replace("# --- folded in from", "")
    assert "def test_double():" in flat.source


def fold(spec: RunSpec, policy: MatchPolicy | None = None):
    """fold_local_code on ``spec``'s script (the original established first): (source, folded, note,
    expected signature, the original's signature)."""
    policy = policy or MatchPolicy()
    rep = establish(spec, policy, runs=1)
    sandbox = Sandbox(spec.script, False, spec.root)
    try:
        return (*fold_local_code(spec, spec.script.read_text(), rep, policy, sandbox), rep.signature)
    finally:
        sandbox.cleanup()


def test_fold_local_code_keeps_the_folded_script_only_when_it_fails_the_same_way(tmp_path):
    write(tmp_path, {
        "job.py": '''
            from settings import load

            cfg = load()
            print(cfg["retries"] + 1)
        ''',
        "settings.py": '''
            DEFAULTS = {"retries": 3}

            def load(override=None):
                cfg = dict(DEFAULTS)
                cfg.update(override or {"retries": None})
                return cfg
        ''',
    })
    spec = RunSpec(script=(tmp_path / "job.py").resolve(), timeout=30)
    source, folded, note, expected, original = fold(spec)
    assert folded == ["settings.py"] and note == "folded in settings.py"
    assert "from settings import" not in source and "def load(override=None):" in source
    assert same_failure(original, expected)  # raised in the script: the same statement, folded or not
    out = run_alone(tmp_path, source)
    assert "TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'" in out.stderr

    # the folded script behaves differently (a module's __name__ is "__main__" once folded): not kept
    (tmp_path / "job.py").write_text("from settings import NAME\nraise KeyError(NAME)\n")
    (tmp_path / "settings.py").write_text("NAME = __name__\n")
    source, folded, note, expected, original = fold(spec)
    assert source == "from settings import NAME\nraise KeyError(NAME)\n" and folded == []
    assert note.startswith("local modules not folded in: the folded script fails differently (KeyError: '__main__'")
    assert expected is original


@pytest.mark.parametrize("target", ["job.py", "test_job.py::test_units"])
def test_a_failing_statement_of_the_script_that_folding_rewrites_is_the_same_statement(tmp_path, target):
    """``assert units.kib(1024) == "1.0K"`` folded is ``assert kib(1024) == "1.0K"``: the raising statement
    of the script is the same one (its line mapped back to the script's, as written), so the fold is kept
    (c20-08: a library's test that calls its package through the package's name)."""
    write(tmp_path, {
        "units/__init__.py": "from units.size import kib\n",
        "units/size.py": '''
            def kib(n):
                return f"{n}B" if n <= 1024 else f"{n / 1024:.1f}K"
        ''',
        "job.py": '''
            import units

            assert units.kib(1024) == "1.0K", units.kib(1024)
        ''',
        "test_job.py": '''
            import units


            def test_units():
                assert units.kib(1024) == "1.0K", units.kib(1024)
        ''',
    })
    spec, _ = target_spec(str(tmp_path / target), [], timeout=60)
    source, folded, note, expected, original = fold(spec)
    assert folded == ["units/size.py", "units/__init__.py"] and note.startswith("folded in"), note
    assert "import units" not in source and 'assert kib(1024) == "1.0K"' in source


def test_a_raise_inside_a_local_module_is_folded_and_kept(tmp_path):
    """The raising frame's file and line are part of the strict signature: the folded script's frame
    is mapped back to (module, line) for the comparison with the original, then candidates are
    compared with the folded script's own signature (the raise is a statement of the script now)."""
    write(tmp_path, {
        "report.py": '''
            from stats.summary import check, summarize

            def check(rows):  # the script's own check: the module's is renamed when folded
                return rows

            print(summarize(check([3, 1, 2])))
        ''',
        "stats/__init__.py": "",
        "stats/summary.py": '''
            """Summaries."""
            import statistics

            from .validate import check


            def summarize(rows):
                check(rows)
                return statistics.mean(rows)
        ''',
        "stats/validate.py": '''
            # validation helpers


            def check(rows):
                if sorted(rows) != rows:
                    raise ValueError(f"rows not sorted: {rows[:3]}")
        ''',
    })
    spec = RunSpec(script=(tmp_path / "report.py").resolve(), timeout=30)
    source, folded, note, expected, original = fold(spec)
    assert original.location.file == "stats/validate.py" and original.location.line == 6
    assert folded == ["stats/validate.py", "stats/summary.py"], note
    assert "from stats." not in source and "def validate_check(rows):" in source
    # the script binds the imported name again: its import becomes an assignment, its own def stays
    assert "check = validate_check\n" in source and "def check(rows):  # the script's own" in source
    # candidates: the raise is the script's statement now
    assert expected.location.in_script and expected.location.text.startswith("raise ValueError(")
    assert expected.location.function == "validate_check"
    out = run_alone(tmp_path, source)
    assert "ValueError: rows not sorted: [3, 1, 2]" in out.stderr


def test_a_project_exception_class_is_folded_and_the_folded_script_fails_the_same_way(tmp_path):
    """The project defines its exception class (``app.errors.ConfigError``) and a function named like
    its module (``app.load.load``, exported by the package). Folded, the class is
    ``__main__.ConfigError``: the same failure."""
    write(tmp_path, {
        "main.py": '''
            from app import load

            for override in [{"timeout": 10}, {"workers": 0}]:
                print(load(override))
        ''',
        "app/__init__.py": "from .errors import ConfigError\nfrom .load import load\n",
        "app/errors.py": 'class ConfigError(Exception):\n    """Invalid configuration."""\n',
        "app/load.py": '''
            from .errors import ConfigError

            DEFAULTS = {"workers": 4, "timeout": 30}


            def load(override):
                cfg = {**DEFAULTS, **override}
                if cfg["workers"] < 1:
                    raise ConfigError(f"workers must be >= 1, got {cfg['workers']}")
                return cfg
        ''',
    })
    spec = RunSpec(script=(tmp_path / "main.py").resolve(), timeout=30)
    source, folded, note, expected, original = fold(spec)
    assert original.exc_type == "app.errors.ConfigError"
    assert sorted(folded) == ["app/__init__.py", "app/errors.py", "app/load.py"], note
    assert expected.exc_type == "__main__.ConfigError" and same_failure(original, expected)
    out = run_alone(tmp_path, source)
    assert "ConfigError: workers must be >= 1, got 0" in out.stderr and "import app" not in source


REGISTRY_PROJECT = {
    "main.py": '''
        from plugins import REGISTRY, run

        print(sorted(REGISTRY), run("two"))
    ''',
    "plugins/__init__.py": '''
        """Plugins register themselves on import."""
        REGISTRY = {}


        def register(name):
            def deco(fn):
                REGISTRY[name] = fn
                return fn
            return deco


        from . import builtin  # noqa: E402 - needs register above
        from .extra import run  # noqa: E402
    ''',
    "plugins/builtin.py": '''
        from . import register


        @register("one")
        def one():
            return 1
    ''',
    "plugins/extra.py": '''
        from plugins import REGISTRY, register


        @register("two")
        def two():
            return 2


        def run(name):
            return REGISTRY[name]()
    ''',
}


def test_an_import_cycle_runs_in_pythons_order(tmp_path):
    """A package that defines ``register`` and then imports the submodules that use it at import time:
    its code goes in two parts, the submodules between them, as Python runs it."""
    write(tmp_path, REGISTRY_PROJECT)
    script = tmp_path / "main.py"
    flat = flatten_source(script, script.read_text())
    assert "# --- folded in from plugins/__init__.py (continued) ---" not in flat.source  # nothing after the imports
    marks = [line for line in flat.source.splitlines() if line.startswith("# --- folded in from")]
    assert marks == ["# --- folded in from plugins/__init__.py ---", "# --- folded in from plugins/builtin.py ---",
                     "# --- folded in from plugins/extra.py ---"]
    out = run_alone(tmp_path, flat.source)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "['one', 'two'] 2\n"
    lines = flat.source.splitlines()
    for number, (file, line, text) in flat.source_map.lines.items():
        assert Path(file).read_text().splitlines()[line - 1].strip() == text == lines[number - 1].strip()

    # code after the imports: a second part of the package, after the submodules
    project = tmp_path / "second"
    write(project, {**REGISTRY_PROJECT, "main.py": "from plugins import DEFAULT\nprint(DEFAULT())\n"})
    init = project / "plugins" / "__init__.py"
    init.write_text(init.read_text() + "\nDEFAULT = REGISTRY['one']\n")
    flat = flatten_source(project / "main.py", (project / "main.py").read_text())
    assert "# --- folded in from plugins/__init__.py (continued) ---\nDEFAULT = REGISTRY['one']" in flat.source
    out = run_alone(project, flat.source)
    assert out.returncode == 0 and out.stdout == "1\n", out.stderr


def test_a_block_whose_local_imports_all_go_keeps_a_pass(tmp_path):
    """``try:`` around two imports of local modules: both go, and the block gets ``pass`` (the last to
    go); a package ``__init__`` left empty needs none. In an import cycle, the two imports are one place
    to continue the package from."""
    project = {
        **REGISTRY_PROJECT,
        "main.py": "from plugins import REGISTRY, TOTAL\nprint(sorted(REGISTRY), TOTAL)\n",
        # the package's register(), then its two imports in a try
        "plugins/__init__.py": textwrap.dedent(REGISTRY_PROJECT["plugins/__init__.py"].split("from . import builtin")[0])
        + textwrap.dedent('''
            try:
                from . import builtin
                from .extra import run
            except ImportError:
                pass

            TOTAL = len(REGISTRY)
        '''),
    }
    write(tmp_path, project)
    flat = flatten_source(tmp_path / "main.py", (tmp_path / "main.py").read_text())
    assert "try:\n    pass\nexcept ImportError:" in flat.source
    assert flat.source.count("TOTAL = len(REGISTRY)") == 1
    out = run_alone(tmp_path, flat.source)
    assert out.returncode == 0 and out.stdout == "['one', 'two'] 2\n", out.stderr


def test_minimize_cli_folds_a_project_whose_module_raises(tmp_path):
    """End to end (the real CLI): the exception is raised inside the project's own module; the
    result folds it in, says so, and fails the same way run alone from another directory."""
    import json

    write(tmp_path / "proj", {
        "ingest.py": '''
            import sys

            from pipeline.steps import normalize

            ROWS = [{"id": 1, "score": "0.5"}, {"id": 2, "score": "n/a"}, {"id": 3, "score": "0.9"}]


            def main(argv):
                cleaned = [normalize(row) for row in ROWS]
                print(len(cleaned), "rows", argv)


            if __name__ == "__main__":
                main(sys.argv[1:])
        ''',
        "pipeline/__init__.py": "",
        "pipeline/steps.py": '''
            MISSING = ("", "na", "NA")  # "n/a" is missing here


            def normalize(row):
                score = row["score"]
                if score in MISSING:
                    return {**row, "score": None}
                if not score.replace(".", "", 1).isdigit():
                    raise ValueError(f"row {row['id']}: bad score {score!r}")
                return {**row, "score": float(score)}
        ''',
    })
    script = tmp_path / "proj" / "ingest.py"
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--json", "-j", "2", str(script)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["folded"] == ["pipeline/steps.py"] and report["verified"] is True
    assert report["signature"]["location"]["file"] == "pipeline/steps.py"  # the original's, as reported
    result = (tmp_path / "proj" / "ingest.min.py").read_text()
    assert "pipeline" not in result and "raise ValueError(f\"row {row['id']}: bad score {score!r}\")" in result
    out = run_alone(tmp_path, result)
    assert re.search(r"ValueError: row \d+: bad score 'n/a'", out.stderr), out.stderr


def test_source_map_puts_folded_frames_back_in_their_modules(tmp_path):
    write(tmp_path, PROJECT)
    script = tmp_path / "app.py"
    flat = flatten_source(script, script.read_text())
    lines = flat.source.splitlines()
    for number, (file, line, text) in flat.source_map.lines.items():
        assert Path(file).read_text().splitlines()[line - 1].strip() == text
        if text and "import" not in text and file != str(script.resolve()):
            # renamed names aside, a folded line is its module's line
            assert lines[number - 1].strip() == text.replace("TAX = ", "tax_rate = ").replace(
                "pricing.TAX", "tax_rate")
    net = next(n for n, (f, _, t) in flat.source_map.lines.items() if t == "def net(items):")
    assert flat.source_map.lines[net][0] == str((tmp_path / "shop" / "pricing.py").resolve())
    assert lines[net - 1] == "def net(items):"
    assert flat.source_map.names == {(str((tmp_path / "shop" / "pricing.py").resolve()), "tax_rate"): "TAX"}
    # the script's own lines map to themselves, as written (folding rewrote ``pricing.net`` as ``net``)
    own = lines.index("def total(cart):") + 1
    assert flat.source_map.lines[own] == (str(script.resolve()), script.read_text().splitlines().index(
        "def total(cart):") + 1, "def total(cart):")
    rewritten = next(n for n, line in enumerate(lines, 1) if line.strip().startswith("return net(cart.items)"))
    assert flat.source_map.lines[rewritten][2].startswith("return pricing.net(cart.items)")


def test_pytest_helper_raising_in_the_test_utilities_is_folded(tmp_path):
    write(tmp_path, {
        "pytest.ini": "[pytest]\n",
        "tests/__init__.py": "",
        "tests/helpers.py": '''
            def expect_sorted(xs):
                assert xs == sorted(xs), f"not sorted: {xs}"
        ''',
        "tests/test_order.py": '''
            from tests.helpers import expect_sorted

            def test_other():
                pass

            def test_order():
                expect_sorted([2, 1])
        ''',
    })
    spec, _ = target_spec(str(tmp_path / "tests" / "test_order.py") + "::test_order", [], timeout=60)
    source, folded, note, expected, original = fold(spec)
    assert original.location.file == "tests/helpers.py" and not original.location.in_script
    assert folded == ["tests/helpers.py"], note
    assert "def test_order():" in source and "from tests." not in source
    assert expected.location.in_script and expected.location.text.startswith("assert xs == sorted(xs)")


def test_the_scripts_docstring_stays_the_module_docstring(tmp_path):
    """A script that reads its own ``__doc__`` (argparse descriptions often do) fails the same way folded:
    its docstring stays the folded script's first statement, ahead of the folded modules."""
    write(tmp_path, {
        "report.py": '''\
            """Print the daily report.

            Usage: python report.py
            """
            from __future__ import annotations

            import argparse

            from helpers import title

            parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
            print(title(parser.description))
        ''',
        "helpers.py": '''\
            """Helpers (their docstring is not the script's)."""


            def title(text):
                return text.upper()
        ''',
    })
    script = tmp_path / "report.py"
    flat = flatten_source(script, script.read_text())
    assert flat is not None and flat.modules == ["helpers.py"]
    assert ast.get_docstring(ast.parse(flat.source)) == "Print the daily report.\n\nUsage: python report.py"
    after = run_alone(tmp_path, flat.source)
    assert after.returncode == 0, after.stderr
    assert after.stdout == "PRINT THE DAILY REPORT.\n"


# --------------------------------------------------------------------------- a pytest test's conftest.py files

CONFTEST_PROJECT = {
    "pytest.ini": "[pytest]\n",
    "conftest.py": '''
        """Shared fixtures."""
        import pytest

        from stats.data import sample

        pytest_plugins = []


        def pytest_configure(config):
            config.addinivalue_line("markers", "slow: slow tests")


        @pytest.fixture
        def latencies():
            return sample(7)


        @pytest.fixture(autouse=True)
        def quiet(monkeypatch):
            monkeypatch.setenv("STATS_QUIET", "1")
    ''',
    "tests/conftest.py": '''
        import pytest


        @pytest.fixture
        def bins():
            return 3
    ''',
    "stats/__init__.py": "",
    "stats/data.py": '''
        def sample(n):
            return [float(i * i % 11) for i in range(n)]
    ''',
    "stats/hist.py": '''
        def counts(values, bins):
            lo, hi = min(values), max(values)
            width = (hi - lo) / bins
            out = [0] * bins
            for v in values:
                i = int((v - lo) // width)
                if i < bins:  # drops the maximum
                    out[i] += 1
            return out
    ''',
    "tests/test_hist.py": '''
        import os

        from stats.hist import counts


        def test_total(latencies, bins):
            assert os.environ["STATS_QUIET"] == "1"
            assert sum(counts(latencies, bins)) == len(latencies)
    ''',
}


def pytest_alone(tmp_path: Path, source: str, test: str) -> subprocess.CompletedProcess:
    """Run ``test`` of the module ``source`` with pytest, alone in an empty directory (no conftest.py)."""
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "test_alone.py").write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"test_alone.py::{test}"],
                          cwd=alone, capture_output=True, text=True, timeout=120)


def test_conftests_are_appended_without_hooks_and_keep_the_modules_lines():
    from reportkit.reduce.flatten import with_conftests

    module = "import pytest\n\n\ndef test_x(a):\n    assert a == 2\n"
    got = with_conftests(module, [("conftest.py", textwrap.dedent(CONFTEST_PROJECT["conftest.py"]).lstrip()),
                                  ("tests/conftest.py", "import pytest\n\n@pytest.fixture\ndef a():\n    return 1\n")])
    assert got.startswith(module)  # the module's lines keep their numbers
    assert got.index("# --- folded in from conftest.py ---") < got.index("# --- folded in from tests/conftest.py ---")
    assert "def latencies():" in got and "@pytest.fixture(autouse=True)\ndef quiet(" in got
    assert "pytest_configure" not in got and "pytest_plugins" not in got and "Shared fixtures" not in got
    ast.parse(got)
    with pytest.raises(NotFlattenable, match="relatively"):
        with_conftests(module, [("conftest.py", "from .helpers import x\n")])
    with pytest.raises(NotFlattenable, match="conftest.py's test_x clashes"):
        with_conftests(module, [("conftest.py", "def test_x():\n    pass\n")])
    with pytest.raises(NotFlattenable, match="does not parse"):
        with_conftests(module, [("conftest.py", "def (:\n")])
    with pytest.raises(NotFlattenable, match="conftest.py's np clashes"):
        with_conftests("import numpy as np\n", [("conftest.py", "import torch as np\n")])
    # the same import, spelled with others: no clash
    assert with_conftests("from os import path, sep\n", [("conftest.py", "from os import sep\nX = sep\n")])


def test_a_pytest_tests_conftest_fixtures_are_folded_and_run_without_them(tmp_path):
    write(tmp_path, CONFTEST_PROJECT)
    spec, _ = target_spec(str(tmp_path / "tests" / "test_hist.py") + "::test_total", [], timeout=60)
    source, folded, note, expected, original = fold(spec)
    assert folded[:2] == ["conftest.py", "tests/conftest.py"] and "stats/hist.py" in folded, note
    assert "def latencies():" in source and "def bins():" in source and not re.search(r"^from stats", source, re.M)
    assert same_failure(original, expected)
    # the folded module alone (no conftest.py, no project): pytest collects its fixtures, the same failure
    run = pytest_alone(tmp_path, source, "test_total")
    assert run.returncode == 1 and "assert 6 == 7" in run.stdout, run.stdout[-2000:]
    assert (tmp_path / "conftest.py").read_text() == textwrap.dedent(CONFTEST_PROJECT["conftest.py"]).lstrip("\n")


def test_a_conftest_that_cannot_be_folded_leaves_the_modules_folded(tmp_path):
    files = dict(CONFTEST_PROJECT)
    files["tests/conftest.py"] = "from .shared import bins  # noqa\n"
    files["tests/__init__.py"] = ""
    files["tests/shared.py"] = "import pytest\n\n\n@pytest.fixture\ndef bins():\n    return 3\n"
    write(tmp_path, files)
    spec, _ = target_spec(str(tmp_path / "tests" / "test_hist.py") + "::test_total", [], timeout=60)
    source, folded, note, expected, original = fold(spec)
    assert folded == ["stats/hist.py"] and "def bins():" not in source, (folded, note)
    assert same_failure(original, expected)


def test_a_minimized_pytest_test_carries_its_conftest_fixtures(tmp_path):
    """The reducer cannot lean on the conftest.py files (candidates run with --noconftest): the result
    runs alone, from a directory with nothing else in it, and fails the same way."""
    from reportkit.reduce.minimize import MinimizeOptions, minimize

    write(tmp_path / "proj", CONFTEST_PROJECT)
    before = {p: p.read_bytes() for p in (tmp_path / "proj").rglob("*") if p.is_file()}
    spec, source = target_spec(str(tmp_path / "proj" / "tests" / "test_hist.py") + "::test_total", [], timeout=60)
    rep = establish(spec, MatchPolicy(), runs=1)
    out = tmp_path / "proj" / "tests" / "min_test_hist.py"
    report = minimize(spec, source, rep, MatchPolicy(), MinimizeOptions(output=out, jobs=2, executor="warm"))
    assert report.verified and report.folded[:2] == ["conftest.py", "tests/conftest.py"], report.folded_note
    result = out.read_text()
    assert "def latencies(" in result and "def bins(" in result and "if i < bins" in result, result
    assert "quiet" not in result and "STATS_QUIET" not in result, result  # an autouse fixture the failure needs not
    run = pytest_alone(tmp_path, result, "test_total")
    assert run.returncode == 1 and "assert 6 == 7" in run.stdout, run.stdout[-2000:]
    assert {p: p.read_bytes() for p in before} == before  # the project is untouched


def _other_user() -> tuple[int, int]:
    import pwd

    for name in ("nobody", "daemon"):
        try:
            entry = pwd.getpwnam(name)
            return entry.pw_uid, entry.pw_gid
        except KeyError:
            continue
    pytest.skip("no other user on this machine")


@pytest.mark.skipif(not hasattr(__import__("os"), "geteuid") or __import__("os").geteuid() != 0,
                    reason="needs root to own a file as another user")
@pytest.mark.parametrize("case", ["private-link", "private-dir-link", "shared-dir", "own-in-shared-dir",
                                  "readable-link"])
def test_fold_reads_no_more_than_the_runs_may(tmp_path, case):
    """Round 11 of sandbox attacks (blind): minimize, as root, folded in helper.py, a link to another user's 0600
    file that the (capability-less) runs cannot read, and handed its content to them; and folded another user's
    module planted in a shared directory above the script's package. A module is folded only when the runs could
    read it and it is not another user's file in a directory every user may write."""
    import os

    uid, gid = _other_user()
    project = tmp_path / "project"
    project.mkdir()
    script = project / "main.py"
    if case in ("private-link", "private-dir-link", "readable-link"):  # (round 12: a 0644 file in a 0700 dir)
        private = tmp_path / "theirs"
        private.mkdir(mode=0o700)
        (private / "settings.py").write_text("SECRET_KEY = 'their-secret'\n")
        os.chmod(private / "settings.py", 0o600 if case == "private-link" else 0o644)
        os.chmod(private, 0o755 if case == "readable-link" else 0o700)
        os.chown(private, uid, gid)
        os.chown(private / "settings.py", uid, gid)
        (project / "helper.py").symlink_to(private / "settings.py")
        script.write_text("import helper\nraise ValueError(helper.SECRET_KEY)\n")
    else:
        shared = tmp_path / "shared"
        shared.mkdir()
        os.chmod(shared, 0o1777)
        (shared / "local_settings.py").write_text("X = 'planted'\n")
        if case == "shared-dir":
            os.chown(shared / "local_settings.py", uid, gid)
        script = shared / "main.py"
        script.write_text("import local_settings\nraise ValueError(local_settings.X)\n")
    source = script.read_text()
    if case in ("private-link", "private-dir-link", "shared-dir"):
        with pytest.raises(NotFlattenable, match="another user's"):
            flatten_source(script, source)
    else:  # (a world-readable file; one's own file in a shared directory: folded as before)
        assert flatten_source(script, source) is not None


@pytest.mark.skipif(__import__("os").geteuid() != 0, reason="needs root to own a file as another user")
def test_a_script_that_links_to_another_users_private_file_is_not_read_as_root(tmp_path):
    """Round 12 of sandbox attacks (blind): a project shipped tests/test_leak.py as a link to another user's 0644 file
    in their 0700 directory; reportkit, as root, read it and the runs executed its content (into ci's issue.md)."""
    import os

    from reportkit.errors import UserError
    from reportkit.run.runner import read_script

    uid, gid = _other_user()
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    (theirs / "note.py").write_text("print('their private note')\n")
    os.chmod(theirs / "note.py", 0o644)
    os.chown(theirs, uid, gid)
    os.chown(theirs / "note.py", uid, gid)
    (tmp_path / "test_leak.py").symlink_to(theirs / "note.py")
    with pytest.raises(UserError, match="could not read"):
        read_script(tmp_path / "test_leak.py")
    os.chmod(theirs, 0o755)  # (the control: a directory anyone may enter)
    assert read_script(tmp_path / "test_leak.py") == "print('their private note')\n"
    os.mkfifo(tmp_path / "fifo.py")
    with pytest.raises(UserError, match="not a readable Python script"):
        read_script(tmp_path / "fifo.py")
