"""pytest node ids as targets: run, signature, minimize of the test module, standalone reproducer."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reportkit.errors import UserError
from reportkit.failure.check import establish
from reportkit.failure.signature import MatchPolicy, signature_of
from reportkit.reduce.standalone import NotStandalone, conftest_chain, make_standalone
from reportkit.run.runner import pytest_root, run_script, split_target, target_spec


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small repository: ini and conftest at the root, tests two levels down, a helper next to them."""
    root = tmp_path / "proj"
    write(root / "pytest.ini", "[pytest]\nmarkers =\n    heavy: a marker\n")
    write(root / "conftest.py", """
        import pytest

        @pytest.fixture
        def scale():
            return 3

        @pytest.fixture
        def workdir(tmp_path):
            yield tmp_path / "w"
    """)
    write(root / "mylib" / "__init__.py", "def triple(x):\n    return 3 * x\n")
    write(root / "tests" / "unit" / "helpers.py", "def double(x):\n    return 2 * x\n")
    write(root / "tests" / "unit" / "test_ops.py", """
        import unittest

        import pytest
        from helpers import double

        from mylib import triple

        THRESHOLD = 20


        def unused_helper(values):
            return sorted(values)


        def test_ok():
            assert double(2) == 4


        @pytest.mark.parametrize("n", [1, 2, 7])
        def test_param(n, scale):
            total = double(n) * scale
            assert total < THRESHOLD, "too big"


        def test_fixture_chain(workdir):
            assert workdir.name == "x", "wrong dir name"


        class TestPlain:
            def setup_method(self, method):
                self.table = {"a": 1}

            def test_lookup(self):
                assert self.table["b"] == 2


        class TestCaseStyle(unittest.TestCase):
            def setUp(self):
                self.value = triple(2)

            def test_value(self):
                self.assertEqual(self.value, 7)
    """)
    return root


@pytest.mark.parametrize("text, path, node", [
    ("tests/test_a.py::test_b", "tests/test_a.py", "test_b"),
    ("t.py::TestA::test_b[1-x::y]", "t.py", "TestA::test_b[1-x::y]"),
    ("script.py", "script.py", None),
])
def test_split_target(text, path, node):
    assert split_target(text) == (Path(path), node)


@pytest.mark.parametrize("bad", ["tests/test_a.py::", "tests/data.txt::test_b"])
def test_split_target_rejects(bad):
    with pytest.raises(UserError):
        split_target(bad)


def test_pytest_root_is_nearest_ini_dir(project):
    assert pytest_root(project / "tests" / "unit" / "test_ops.py") == project.resolve()


def _sig(project: Path, node: str):
    spec, source = target_spec(str(project / "tests/unit/test_ops.py") + "::" + node, [], timeout=120)
    return spec, signature_of(run_script(spec, source), MatchPolicy())


@pytest.mark.parametrize("node, exc_type, message", [
    ("test_param[7]", "AssertionError", "too big"),
    ("test_fixture_chain", "AssertionError", "wrong dir name"),
    ("TestPlain::test_lookup", "KeyError", "'b'"),
    ("TestCaseStyle::test_value", "AssertionError", "6 != 7"),
])
def test_failure_is_the_tests_own(project, node, exc_type, message):
    spec, sig = _sig(project, node)
    assert sig.kind == "exception"
    assert sig.exc_type == exc_type
    assert (sig.raw_message or "").startswith(message)
    assert sig.script_frame is not None and sig.script_frame.in_script  # raised in the test module
    assert (project / "tests/unit/test_ops.py").read_text().count("THRESHOLD") == 2  # input untouched


def test_passing_and_missing_tests_are_bad_input(project):
    for node, fragment in [("test_ok", "the test passes"), ("test_param[2]", "the test passes"),
                           ("test_nope", "pytest ran no test")]:
        spec, source = target_spec(str(project / "tests/unit/test_ops.py") + "::" + node, [], timeout=120)
        with pytest.raises(UserError, match=fragment):
            establish(spec, MatchPolicy(), runs=1, source=source)


def test_collection_error_is_the_import_error_itself(project):
    write(project / "tests" / "unit" / "test_broken.py", "import json\njson.loads('{')\n\ndef test_x():\n    pass\n")
    spec, source = target_spec(str(project / "tests/unit/test_broken.py::test_x"), [], timeout=120)
    sig = signature_of(run_script(spec, source), MatchPolicy())
    assert sig.exc_type == "json.decoder.JSONDecodeError"
    assert sig.script_frame is not None and "json.loads" in sig.script_frame.text


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reportkit", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_cli_check_on_missing_node_is_one_message(project):
    proc = cli("check", str(project / "tests/unit/test_ops.py::test_nope"), "--runs", "1")
    assert proc.returncode == 2
    assert "pytest ran no test" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("node, kept, standalone_call", [
    ("test_param[7]", "def test_param(n, scale):", "test_param(n=7, scale=_fx_scale)"),
    # (a class's test and a unittest one: the standalone call of each is checked offline below,
    # test_standalone_calls_a_class_test_as_pytest_would; end to end under `-m corpus`)
    pytest.param("TestPlain::test_lookup", "def test_lookup(self):", "_obj.test_lookup()", marks=pytest.mark.corpus),
    pytest.param("TestCaseStyle::test_value", "def test_value(self):", "TestCaseStyle('test_value').debug()",
                 marks=pytest.mark.corpus),
])
def test_minimize_a_test_module(project, node, kept, standalone_call):
    target = str(project / "tests/unit/test_ops.py") + "::" + node
    proc = cli("minimize", target, "--json", "-j", "2")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    out = Path(report["output"])
    assert out.name == "min_test_ops.py" and out.parent == project / "tests" / "unit"
    text = out.read_text()
    assert kept in text
    assert "test_ok" not in text and "unused_helper" not in text  # other tests and dead helpers go
    assert report["verified"] is True and report["pytest_node"] == node
    # the minimized module still fails the same way under pytest, from the project root
    again = cli("check", str(out) + "::" + node, "--runs", "1", "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["signature"]["exc_type"] == report["signature"]["exc_type"]
    # and the standalone script fails the same way with plain python
    assert report["standalone"], report["standalone_note"]
    repro = Path(report["standalone"])
    assert repro.name == "repro_test_ops.py" and standalone_call in repro.read_text()
    plain = subprocess.run([sys.executable, str(repro)], capture_output=True, text=True, cwd=project, timeout=120)
    last = plain.stderr.strip().splitlines()[-1]
    assert plain.returncode == 1 and last.startswith(report["signature"]["exc_type"]), plain.stderr


# --------------------------------------------------------------------------- make_standalone, offline

MODULE = textwrap.dedent("""
    import pytest

    @pytest.fixture(name="cfg")
    def make_cfg(base):
        return {"base": base}

    def test_it(cfg, tmp_path):
        assert cfg["base"] == 2
""").lstrip()


def test_standalone_resolves_fixture_dependencies_and_aliases():
    conftests = [("conftest.py", "import pytest\n\n@pytest.fixture\ndef base():\n    yield 1\n")]
    test = {"function": "test_it", "name": "test_it", "cls": None, "unittest": False, "params": {},
            "fixtures": ["cfg", "base", "tmp_path"], "when": "call"}
    script = make_standalone(MODULE, test, conftests)
    compile(script, "repro.py", "exec")
    main = script[script.index('if __name__ == "__main__":'):]
    assert main.index("_fx_base = next(_fixture_base())") < main.index("_fx_cfg = _fixture_cfg(base=_fx_base)")
    assert "test_it(cfg=_fx_cfg, tmp_path=_fx_tmp_path)" in main
    namespace: dict = {"__name__": "__main__"}
    with pytest.raises(AssertionError):
        exec(compile(script, "repro.py", "exec"), namespace)


CLASS_MODULE = textwrap.dedent("""
    import unittest

    class TestPlain:
        def test_lookup(self):
            assert {"a": 1}["a"] == 2

    class TestCaseStyle(unittest.TestCase):
        def test_value(self):
            self.assertEqual(6, 7)
""").lstrip()


@pytest.mark.parametrize("cls, function, unittest_style, call", [
    ("TestPlain", "test_lookup", False, "_obj.test_lookup()"),
    ("TestCaseStyle", "test_value", True, "TestCaseStyle('test_value').debug()"),
])
def test_standalone_calls_a_class_test_as_pytest_would(cls, function, unittest_style, call):
    """A plain class's test on an instance, a unittest.TestCase's through ``debug()`` (its failure raised, not
    recorded); the script fails with the test's own AssertionError."""
    test = {"function": function, "name": function, "cls": cls, "unittest": unittest_style, "params": {},
            "fixtures": [], "when": "call"}
    script = make_standalone(CLASS_MODULE, test, [])
    main = script[script.index('if __name__ == "__main__":'):]
    assert call in main
    with pytest.raises(AssertionError):
        exec(compile(script, "repro.py", "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("fixtures, module, reason", [
    (["request"], "def test_it(request):\n    pass\n", "'request'"),
    (["p"], "import pytest\n\n@pytest.fixture(params=[1, 2])\ndef p(request):\n    return request.param\n\n"
     "def test_it(p):\n    pass\n", "parametrized"),
    (["a"], "import pytest\n\n@pytest.fixture\ndef a(b):\n    return 1\n\n@pytest.fixture\ndef b(a):\n"
     "    return 2\n\ndef test_it(a):\n    pass\n", "cycle"),
])
def test_standalone_gives_up_with_a_reason(fixtures, module, reason):
    test = {"function": "test_it", "name": "test_it", "cls": None, "unittest": False, "params": {},
            "fixtures": fixtures, "when": "call"}
    with pytest.raises(NotStandalone, match=reason):
        make_standalone(module, test, [])


def test_standalone_rejects_unwritable_parameters():
    test = {"function": "test_it", "name": "test_it[x]", "cls": None, "unittest": False,
            "params": {"fn": "<function f at 0x7f>"}, "fixtures": ["fn"], "when": "call"}
    with pytest.raises(NotStandalone, match="cannot be written"):
        make_standalone("def test_it(fn):\n    pass\n", test, [])


def test_conftest_chain_nearest_last(project):
    write(project / "tests" / "conftest.py", "X = 1\n")
    labels = [label for label, _ in conftest_chain(project, project / "tests" / "unit")]
    assert labels == ["conftest.py", "tests/conftest.py"]


def test_standalone_copies_the_imports_of_the_conftest_it_takes_fixtures_from():
    conftests = [("tests/conftest.py", "import itertools\nimport pytest\nfrom . import sibling\n\n@pytest.fixture\n"
                                       "def pairs():\n    return list(itertools.pairwise([1, 2, 3]))\n")]
    test = {"function": "test_it", "name": "test_it", "cls": None, "unittest": False, "params": {},
            "fixtures": ["pairs"], "when": "call"}
    script = make_standalone("def test_it(pairs):\n    assert pairs == []\n", test, conftests, root_rel="..")
    assert "import itertools" in script and "from . import sibling" not in script  # relative imports stay out
    with pytest.raises(AssertionError):
        exec(compile(script, "/nowhere/repro.py", "exec"), {"__name__": "__main__", "__file__": "/nowhere/repro.py"})


def test_standalone_sys_path_lines_come_after_future_imports():
    module = '"""Doc."""\nfrom __future__ import annotations\n\nimport os\n\n\ndef test_it():\n    assert os.sep == "?"\n'
    test = {"function": "test_it", "name": "test_it", "cls": None, "unittest": False, "params": {},
            "fixtures": [], "when": "call"}
    script = make_standalone(module, test, [("conftest.py", "X = 1\n")], root_rel="../..")
    compile(script, "repro.py", "exec")  # a __future__ import after other statements would not compile
    lines = script.splitlines()
    assert lines[:2] == ['"""Doc."""', "from __future__ import annotations"]
    assert "'../..'" in lines[3]


@pytest.mark.parametrize("addopts", ["", "--basetemp={outside}/bt --junitxml={outside}/junit.xml",
                                     "-p no:junitxml --basetemp={outside}/bt"])
def test_a_projects_addopts_writing_outside_the_run_does_not_replace_the_tests_own_failure(project, tmp_path, addopts):
    """A pytest setting that puts pytest's temp dir or JUnit file outside the run (a project's, or a hostile pull
    request's ``addopts``) meets the sandbox's write refusal; the failure is still the test's own, and nothing is
    written there. The lookalike without addopts fails the same way."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("precious\n")
    ini = "[pytest]\nmarkers =\n    heavy: a marker\n"
    if addopts:
        ini += "addopts = " + addopts.format(outside=outside) + "\n"
    (project / "pytest.ini").write_text(ini)
    spec, sig = _sig(project, "test_fixture_chain")
    assert (sig.exc_type, (sig.raw_message or "").splitlines()[0]) == ("AssertionError", "wrong dir name")
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
