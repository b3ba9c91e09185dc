"""benchmarks/corpus/ and corpus2/ to corpus23/: the held-out corpora are well-formed, and every hand-written minimal.py is a real
reproducer (self-contained, the original's failure, the cause its note names, passes where fixed).

The layout checks are fast. Running a case costs its original once plus its minimal (and the good
version's runs): the pure-Python and library cases run by default; cases that import torch or hang run
under the ``slow`` marker. The torch cases' runs go to one warm fork server per test process
(``torch_server``): torch is imported once per process, not in every run.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import json
import re
import sys
import tempfile
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus_bench.py"


def _load():
    spec = importlib.util.spec_from_file_location("corpus_bench", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_bench"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


bench = _load()
CASES = bench.load_cases()
CASES2 = bench.load_cases(_PATH.parent / "corpus2")  # the second corpus, held out from later reducer changes
CASES3 = bench.load_cases(_PATH.parent / "corpus3")  # the third, held out from the changes corpus2 judged
CASES4 = bench.load_cases(_PATH.parent / "corpus4")  # the fourth, held out from the changes corpus3 judged
CASES5 = bench.load_cases(_PATH.parent / "corpus5")  # the fifth (small), held out from the changes corpus4 judged
CASES6 = bench.load_cases(_PATH.parent / "corpus6")  # the sixth, written without reading the reducer's code
CASES7 = bench.load_cases(_PATH.parent / "corpus7")  # the seventh, held out from the changes corpus6 judged
CASES8 = bench.load_cases(_PATH.parent / "corpus8")  # the eighth, held out from the changes corpus7 judged
CASES9 = bench.load_cases(_PATH.parent / "corpus9")  # the ninth, held out from the changes corpus8 judged
CASES10 = bench.load_cases(_PATH.parent / "corpus10")  # the tenth, held out from the changes corpus9 judged
CASES11 = bench.load_cases(_PATH.parent / "corpus11")  # the eleventh, held out from the changes corpus10 judged
CASES12 = bench.load_cases(_PATH.parent / "corpus12")  # the twelfth, held out from the changes corpus11 judged
CASES13 = bench.load_cases(_PATH.parent / "corpus13")  # the thirteenth, held out from the changes corpus12 judged
CASES14 = bench.load_cases(_PATH.parent / "corpus14")  # the fourteenth, held out from the changes corpus13 judged
CASES15 = bench.load_cases(_PATH.parent / "corpus15")  # the fifteenth, held out from the changes corpus14 judged
CASES16 = bench.load_cases(_PATH.parent / "corpus16")  # the sixteenth, held out from the changes corpus15 judged
CASES17 = bench.load_cases(_PATH.parent / "corpus17")  # the seventeenth, held out from the changes corpus16 judged
CASES18 = bench.load_cases(_PATH.parent / "corpus18")  # the eighteenth, held out from the changes corpus17 judged
CASES19 = bench.load_cases(_PATH.parent / "corpus19")  # the nineteenth: wrong results caught by a check
CASES20 = bench.load_cases(_PATH.parent / "corpus20")  # the twentieth: what a new user brings on day one
CASES21 = bench.load_cases(_PATH.parent / "corpus21")  # the twenty-first, held out from the changes corpus20 judged
CASES22 = bench.load_cases(_PATH.parent / "corpus22")  # the twenty-second, held out from the changes corpus21 judged
CASES23 = bench.load_cases(_PATH.parent / "corpus23")  # the twenty-third: wrong values the library rejects
ALL = ([(c, c.name) for c in CASES] + [(c, f"corpus2-{c.name}") for c in CASES2]
       + [(c, f"corpus3-{c.name}") for c in CASES3] + [(c, f"corpus4-{c.name}") for c in CASES4]
       + [(c, f"corpus5-{c.name}") for c in CASES5] + [(c, f"corpus6-{c.name}") for c in CASES6]
       + [(c, f"corpus7-{c.name}") for c in CASES7] + [(c, f"corpus8-{c.name}") for c in CASES8]
       + [(c, f"corpus9-{c.name}") for c in CASES9] + [(c, f"corpus10-{c.name}") for c in CASES10]
       + [(c, f"corpus11-{c.name}") for c in CASES11] + [(c, f"corpus12-{c.name}") for c in CASES12]
       + [(c, f"corpus13-{c.name}") for c in CASES13] + [(c, f"corpus14-{c.name}") for c in CASES14]
       + [(c, f"corpus15-{c.name}") for c in CASES15] + [(c, f"corpus16-{c.name}") for c in CASES16]
       + [(c, f"corpus17-{c.name}") for c in CASES17] + [(c, f"corpus18-{c.name}") for c in CASES18]
       + [(c, f"corpus19-{c.name}") for c in CASES19] + [(c, f"corpus20-{c.name}") for c in CASES20]
       + [(c, f"corpus21-{c.name}") for c in CASES21] + [(c, f"corpus22-{c.name}") for c in CASES22]
       + [(c, f"corpus23-{c.name}") for c in CASES23])


def _params():
    out = []
    for case, name in ALL:
        slow = case.uses_torch or case.manifest.get("category") == "hang"
        out.append(pytest.param(case, id=name, marks=[pytest.mark.slow] if slow else []))
    return out


def test_corpus_has_the_mix_the_issue_asks_for():
    assert len(CASES) >= 12
    cats = [c.manifest["category"] for c in CASES]
    assert cats.count("multi-file") >= 3
    assert cats.count("pure-python") >= 3
    for needed in ("meta-device", "nn-module", "compile-graph-break", "compile-wrong-result", "hang",
                   "library-pytest"):
        assert needed in cats, needed
    # a multi-file case is a project: local modules or packages next to the target
    for case in CASES:
        if case.manifest["category"] == "multi-file":
            local = [p for p in case.path.rglob("*.py") if p.name != "minimal.py"]
            assert len(local) >= 3, case.name
    # one of them is a pytest suite importing local test utilities
    assert any("::" in c.target for c in CASES if c.manifest["category"] == "multi-file")


def test_corpus2_has_its_mix():
    cats = [c.manifest["category"] for c in CASES2]
    assert len(CASES2) >= 8
    assert cats.count("multi-file") >= 2 and cats.count("nn-module") >= 2
    for needed in ("pure-python", "hang", "library-pytest"):
        assert needed in cats, needed
    assert any(c.startswith("compile-") for c in cats)
    multi = [c for c in CASES2 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}  # one torch pipeline, one pure-Python project
    for case in multi:
        assert any(p.is_dir() and (p / "__init__.py").is_file() for p in case.path.iterdir()), case.name


def test_corpus3_has_its_mix():
    cats = [c.manifest["category"] for c in CASES3]
    assert len(CASES3) >= 8
    assert cats.count("multi-file") >= 2 and cats.count("pure-python") >= 2
    assert sum(c in ("nn-module", "meta-device") for c in cats) >= 2
    assert "hang" in cats and any(c.startswith("compile-") for c in cats)
    multi = [c for c in CASES3 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}
    for case in multi:
        assert any(p.is_dir() and (p / "__init__.py").is_file() for p in case.path.iterdir()), case.name
    # a fix (a known-good commit) in each pair: a multi-file helper module, a pure-Python script, a model
    fixed = {c.manifest["category"] for c in CASES3 if c.good and c.good.get("git")}
    assert {"multi-file", "pure-python"} <= fixed and fixed & {"nn-module", "meta-device"}


def test_corpus4_has_its_mix():
    cats = [c.manifest["category"] for c in CASES4]
    assert len(CASES4) >= 8
    assert cats.count("multi-file") >= 2 and cats.count("pure-python") >= 2 and cats.count("nn-module") >= 2
    assert any(c.startswith("compile-") for c in cats)
    assert "hang" in cats or "library-pytest" in cats
    multi = [c for c in CASES4 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}
    for case in multi:
        assert any(p.is_dir() and (p / "__init__.py").is_file() for p in case.path.iterdir()), case.name
    # at least three known-good commits: a multi-file project, a pure-Python script, a model
    fixed = [c.manifest["category"] for c in CASES4 if c.good and c.good.get("git")]
    assert len(fixed) >= 3 and {"multi-file", "pure-python", "nn-module"} <= set(fixed)


def test_corpus5_has_its_mix():
    cats = [c.manifest["category"] for c in CASES5]
    assert len(CASES5) >= 5
    assert cats.count("multi-file") >= 2 and cats.count("pure-python") >= 2 and "nn-module" in cats
    multi = [c for c in CASES5 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}
    fixed = {c.manifest["category"] for c in CASES5 if c.good and c.good.get("git")}
    assert {"multi-file", "nn-module"} <= fixed


def test_corpus6_has_its_mix():
    cats = [c.manifest["category"] for c in CASES6]
    assert len(CASES6) >= 7
    assert cats.count("multi-file") >= 2 and "pure-python" in cats and "hang" in cats
    assert cats.count("nn-module") + cats.count("meta-device") >= 2
    assert any(c.startswith("compile-") for c in cats)
    multi = [c for c in CASES6 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}  # one torch model package, one pure-Python project
    for case in multi:
        assert any(p.is_dir() and (p / "__init__.py").is_file() for p in case.path.iterdir()), case.name
    hang = next(c for c in CASES6 if c.manifest["category"] == "hang")
    assert hang.manifest.get("timeout") == 5
    # known-good commits: both multi-file projects, the pure-Python script, the training loop
    fixed = [c.manifest["category"] for c in CASES6 if c.good and c.good.get("git")]
    assert fixed.count("multi-file") == 2 and {"pure-python", "nn-module"} <= set(fixed)


@pytest.mark.parametrize("cases", [CASES7, CASES8, CASES9, CASES10, CASES11, CASES12, CASES13, CASES14,
                                   CASES15, CASES16, CASES17, CASES18],
                         ids=["corpus7", "corpus8", "corpus9", "corpus10", "corpus11", "corpus12", "corpus13",
                              "corpus14", "corpus15", "corpus16", "corpus17", "corpus18"])
def test_corpus7_to_18_have_their_mix(cases):
    cats = [c.manifest["category"] for c in cases]
    assert len(cases) >= 7
    assert cats.count("multi-file") >= 2 and cats.count("pure-python") >= 2 and "hang" in cats
    assert "nn-module" in cats or "meta-device" in cats
    assert any(c.startswith("compile-") for c in cats)
    multi = [c for c in cases if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}  # one torch training package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    hang = next(c for c in cases if c.manifest["category"] == "hang")
    assert hang.manifest.get("timeout") == 5
    # known-good commits: both multi-file projects, both pure-Python scripts, the model
    fixed = [c.manifest["category"] for c in cases if c.good and c.good.get("git")]
    assert fixed.count("multi-file") == 2 and fixed.count("pure-python") == 2 and "nn-module" in fixed


def test_corpus19_has_its_mix():
    """Wrong results caught by a check: every original fails with an AssertionError of a value check."""
    cats = [c.manifest["category"] for c in CASES19]
    assert len(CASES19) == 8
    assert cats.count("multi-file") >= 2 and cats.count("pure-python") >= 2
    for needed in ("nn-module", "compile-wrong-result", "library-pytest"):
        assert needed in cats, needed
    multi = [c for c in CASES19 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}  # one torch package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    # a pytest node id as a target, with a pytest minimal_target
    pytest_cases = [c for c in CASES19 if "::" in c.target]
    assert pytest_cases and all("::" in c.manifest.get("minimal_target", "") for c in pytest_cases)
    # the failure is an AssertionError, no crash
    assert all(c.manifest["signature"].startswith("AssertionError") for c in CASES19)
    # the checks: assert_close (2+), numpy.testing (1+), unittest assertEqual/assertAlmostEqual (1+),
    # a plain assert with a message (1+), a bare assert in a pytest test (1+)
    def source(case):
        return "\n".join(p.read_text(encoding="utf-8") for p in case.path.rglob("*.py") if p.name != "minimal.py")
    texts = {c.name: source(c) for c in CASES19}
    assert sum("torch.testing.assert_close(" in t for t in texts.values()) >= 2
    assert any(re.search(r"np\.testing\.assert_(allclose|array_equal)\(", t) for t in texts.values())
    assert any(re.search(r"self\.assert(Equal|AlmostEqual)\(", t) for t in texts.values())
    assert any(re.search(r"^\s*assert\b[^\n]*==[^\n]*,\s*f?[\"']", t, re.MULTILINE) for t in texts.values())
    assert any(_bare_assert_in_test(c) for c in pytest_cases)
    # at most three known-good commits: the scenario is a failure with no good version
    fixed = [c for c in CASES19 if c.good and c.good.get("git")]
    assert len(fixed) <= 3 and len(CASES19) - len(fixed) >= 5


def test_corpus20_has_its_mix():
    """What a new user brings on day one: a mix of failure kinds, one case of each."""
    cats = [c.manifest["category"] for c in CASES20]
    assert len(CASES20) == 8
    assert cats.count("multi-file") == 2 and cats.count("pure-python") == 2
    for needed in ("nn-module", "compile-graph-break", "hang", "library-pytest"):
        assert cats.count(needed) == 1, needed
    multi = [c for c in CASES20 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}  # one torch package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    hang = next(c for c in CASES20 if c.manifest["category"] == "hang")
    assert hang.manifest.get("timeout") == 5 and hang.manifest["signature"].startswith("hang (timed out)")
    # a pytest node id as a target (the library's test), with a pytest minimal_target
    pytest_cases = [c for c in CASES20 if "::" in c.target]
    assert pytest_cases and all("::" in c.manifest.get("minimal_target", "") for c in pytest_cases)
    # at most three known-good commits (the library case has one); at least five cases have none
    fixed = [c for c in CASES20 if c.good and c.good.get("git")]
    assert len(fixed) <= 3 and len(CASES20) - len(fixed) >= 5
    assert any(c.manifest["category"] == "library-pytest" for c in fixed)


def _is_project(case) -> bool:
    """A multi-file case: a package (a directory with ``__init__.py``) and 3+ modules outside the case root."""
    package = any(p.is_dir() and (p / "__init__.py").is_file() for p in case.path.iterdir())
    modules = [p for p in case.path.rglob("*.py") if p.parent != case.path and p.name != "__init__.py"]
    return package and len(modules) >= 3


def test_corpus21_has_its_mix():
    """The same mix as corpus20 (one failure of each kind), other bugs: written before the changes it judges."""
    cats = [c.manifest["category"] for c in CASES21]
    assert len(CASES21) == 8
    assert cats.count("multi-file") == 2 and cats.count("pure-python") == 2
    for needed in ("nn-module", "hang", "library-pytest"):
        assert cats.count(needed) == 1, needed
    assert sum(cat.startswith("compile-") for cat in cats) == 1
    multi = [c for c in CASES21 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}  # one torch package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    hang = next(c for c in CASES21 if c.manifest["category"] == "hang")
    assert hang.manifest.get("timeout") == 5 and hang.manifest["signature"].startswith("hang (timed out)")
    pytest_cases = [c for c in CASES21 if "::" in c.target]
    assert pytest_cases and all("::" in c.manifest.get("minimal_target", "") for c in pytest_cases)
    fixed = [c for c in CASES21 if c.good and c.good.get("git")]
    assert 2 <= len(fixed) <= 3 and len(CASES21) - len(fixed) >= 5
    assert any(c.manifest["category"] == "library-pytest" for c in fixed)


def test_corpus22_has_its_mix():
    """Six cases, one of each kind but hangs, written while corpus21's results were not yet read."""
    cats = [c.manifest["category"] for c in CASES22]
    assert len(CASES22) == 6
    assert cats.count("multi-file") == 1 and cats.count("pure-python") == 2
    for needed in ("nn-module", "library-pytest"):
        assert cats.count(needed) == 1, needed
    assert sum(cat.startswith("compile-") for cat in cats) == 1
    assert _is_project(next(c for c in CASES22 if c.manifest["category"] == "multi-file"))
    pytest_cases = [c for c in CASES22 if "::" in c.target]
    assert pytest_cases and all("::" in c.manifest.get("minimal_target", "") for c in pytest_cases)
    fixed = [c for c in CASES22 if c.good and c.good.get("git")]
    assert 1 <= len(fixed) <= 2 and any(c.manifest["category"] == "library-pytest" for c in fixed)


def test_corpus23_has_its_mix():
    """Eight cases where the user's code makes a wrong value and a library rejects it, written before
    the changes they judge."""
    cats = [c.manifest["category"] for c in CASES23]
    assert len(CASES23) == 8
    assert cats.count("multi-file") == 2 and cats.count("nn-module") == 3
    for needed in ("pure-python", "library-pytest"):
        assert cats.count(needed) == 1, needed
    assert sum(cat.startswith("compile-") for cat in cats) == 1
    multi = [c for c in CASES23 if c.manifest["category"] == "multi-file"]
    assert {c.uses_torch for c in multi} == {True, False}
    for case in multi:
        assert _is_project(case), case.name
    pytest_cases = [c for c in CASES23 if "::" in c.target]
    assert pytest_cases and all("::" in c.manifest.get("minimal_target", "") for c in pytest_cases)
    fixed = [c for c in CASES23 if c.good and c.good.get("git")]
    assert 1 <= len(fixed) <= 3 and any(c.manifest["category"] == "library-pytest" for c in fixed)


def _bare_assert_in_test(case) -> bool:
    """Does the test function a pytest target names hold an ``assert`` without a message?"""
    path, _, node = case.target.partition("::")
    name = node.split("::")[-1].split("[", 1)[0]
    tree = ast.parse((case.path / path).read_text(encoding="utf-8"))
    return any(isinstance(fn, ast.FunctionDef) and fn.name == name
               and any(isinstance(n, ast.Assert) and n.msg is None for n in ast.walk(fn))
               for fn in ast.walk(tree))


def test_corpus_option_reads_the_given_directory(tmp_path, capsys):
    with pytest.raises(SystemExit, match="no case directories"):
        bench.main(["--corpus", str(tmp_path)])
    with pytest.raises(SystemExit, match="not a directory"):
        bench.main(["--corpus", str(tmp_path / "absent")])
    (tmp_path / "01_x").mkdir()
    (tmp_path / "01_x" / "case.json").write_text('{"target": "x.py"}')
    with pytest.raises(SystemExit, match="malformed corpus cases: 01_x: missing NOTE.md"):
        bench.main(["--corpus", str(tmp_path), "--budget", "1"])


def test_a_library_case_installs_from_a_relative_corpus_path(tmp_path, monkeypatch):
    # `--corpus benchmarks/corpus2` gives relative case paths; the patch must still apply
    case = next(c for c in CASES2 if c.site)
    monkeypatch.chdir(_PATH.parent.parent)
    rel = bench.Case(case.name, case.path.relative_to(_PATH.parent.parent), case.manifest)
    ws = bench.make_workspace(rel, tmp_path)
    patched = {p.relative_to(ws.site): p.read_bytes() for p in ws.site.rglob("*.py")}
    pristine = {p.relative_to(ws.good_site): p.read_bytes() for p in ws.good_site.rglob("*.py")}
    assert patched.keys() == pristine.keys()
    assert [k for k in patched if patched[k] != pristine[k]] == [Path("semver/version.py")]


@pytest.mark.parametrize("case", [c for c, _ in ALL], ids=[n for _, n in ALL])
def test_case_layout(case):
    assert bench.structure_problems(case) == []
    minimal = (case.path / "minimal.py").read_text(encoding="utf-8")
    # the hand-written reproducer keeps the cause the note names, and is smaller than the original
    assert case.missing_causes(minimal) == []
    assert bench.count_lines(minimal) < bench.count_lines((case.path / case.target.split("::")[0]).read_text())


def test_cause_markers_reject_a_reproducer_without_the_bug():
    case = next(c for c in CASES if c.name.startswith("05_"))
    materialized = 'exported = 192\nassert exported == 203, f"export lost records: {exported} of {203}"\n'
    assert case.missing_causes(materialized) == ["//"]


def test_structure_problems_are_reported(tmp_path):
    d = tmp_path / "99_broken"
    d.mkdir()
    (d / "case.json").write_text('{"target": "gone.py", "cause": ["("], "colour": 1}')
    case = bench.Case("99_broken", d, {"target": "gone.py", "cause": ["("], "colour": 1})
    problems = " | ".join(bench.structure_problems(case))
    for expected in ("missing NOTE.md", "missing minimal.py", "unknown manifest keys", "lacks 'category'",
                     "gone.py does not exist", "does not compile"):
        assert expected in problems


def _digits(text: str) -> str:
    return re.sub(r"\d+", "N", text.splitlines()[0]).strip()


@pytest.fixture(scope="session")  # xdist hands a worker this module's tests in several chunks
def torch_server():
    """One fork server per test process for the cases that import torch: torch is imported once there,
    not in each of a case's runs (about 3 s each on the CI machine; 74 of the 164 cases import torch).
    The original, its minimal.py and the good form all run on it (so they are compared like with like);
    runs it cannot serve (another environment: a library case's site, a good version's env) run cold."""
    from reportkit.run.executor import WarmExecutor

    warm = WarmExecutor(["torch"])
    yield warm
    warm.close()


@pytest.mark.parametrize("case", _params())
def test_minimal_reproduces_the_original(case, torch_server, monkeypatch):
    """minimal.py, copied alone into an empty directory, fails like the original (strict signature);
    where the case names a good version, minimal.py passes there (a fix patch: the fixed original passes)."""
    policy = bench.MatchPolicy()
    executor = torch_server if case.uses_torch else None
    # pytest names the running test in the environment: a server serves one environment, and each test's
    # would differ from the one it started with (every later case ran cold)
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    served = torch_server.warm_runs
    with tempfile.TemporaryDirectory(prefix="rk-corpus-test-") as tmp:
        ws = bench.make_workspace(case, Path(tmp))
        spec, _ = bench.spec_for(case.target, ws.project, case.timeout, ws.env(), case.manifest.get("args"))
        rep = bench.establish_once(spec, policy, executor)
        # the manifest names the failure as people read it; what a hang's child processes wait in is the
        # kernel's name for it (anon_pipe_write, pipe_write...), compared between runs, not written down
        shown = dataclasses.replace(rep.signature, child_waits=None).headline()
        assert _digits(shown) == _digits(case.manifest["signature"])
        minimal_target = case.manifest.get("minimal_target", "minimal.py")
        name, _, node = minimal_target.partition("::")
        text = (case.path / name).read_text(encoding="utf-8")
        got = bench.run_alone(text, name, node or None, case, ws, good=False, python=sys.executable,
                              timeout=case.timeout if rep.signature.kind == "hang" else 120, executor=executor)
        assert bench.same_failure(rep.signature, got, policy), got.headline()
        if case.good and case.good.get("git"):
            # a known-good commit: the fixed original passes; and where the fix check's mapping carries
            # the fix onto the hand-written minimal (it keeps the lines the fix changes), that good form
            # passes too — the minimal is then a result the benchmark's ``good`` check accepts
            assert bench.fixed_original_problem(case, ws, sys.executable, 120, executor) is None
            good_text = _good_form(text, case, ws)
            if case.path.parent.name != "corpus":  # corpus2 and later: hand-minimals keep the fixed lines
                assert good_text is not None and good_text != text, "the fix does not map onto minimal.py"
            if good_text is not None and good_text != text:
                fixed = bench.run_alone(good_text, name, node or None, case, ws, good=True, python=sys.executable,
                                        timeout=120, executor=executor)
                legacy = case.path.parent.name == "corpus"
                if legacy and fixed.exc_type == "NameError":
                    # corpus/'s hand-minimals were written before the fix check: the fix's tokens merged
                    # into one of their lines can name what the minimal does not have (02's self.max_len)
                    return
                assert fixed.kind == "passed", fixed.headline()
        elif case.good:
            fixed = bench.run_alone(text, name, node or None, case, ws, good=True, python=sys.executable,
                                    timeout=120, executor=executor)
            assert fixed.kind == "passed", fixed.headline()
    if executor is not None and torch_server.usable:
        assert torch_server.warm_runs > served, torch_server.notes  # the server ran this case's runs


def _good_form(text: str, case, ws) -> str | None:
    """``text`` mapped onto the fixed code the way the benchmark judges a result (``judge_git_good``:
    the fix check's mapping from the original, folded when it imports local modules); None: no good form."""
    spec, source = bench.spec_for(case.target, ws.project, 120, ws.env(), case.manifest.get("args"))
    rel = spec.script.resolve().relative_to(ws.project.resolve())
    good_root = None
    if spec.root is not None:
        good_root = ws.good_project / spec.root.resolve().relative_to(ws.project.resolve())
    flat = bench.fold_target(spec.script, source, spec.root, False)
    good_script = ws.good_project / rel
    fold = bench.good_form_map(flat.source if flat is not None else source, good_script,
                               good_script.read_text(encoding="utf-8"), folded=flat is not None, root=good_root)
    return None if fold is None else fold(text)


def test_a_folded_result_is_judged_against_the_folded_original(tmp_path):
    """``assert units.kib(1024) == ...`` folded is ``assert kib(1024) == ...``: a result made from the folded
    original fails at that statement as folding spelled it, which is the original's (corpus20/08)."""
    (tmp_path / "units").mkdir()
    (tmp_path / "units" / "__init__.py").write_text("def kib(n):\n    return f'{n}B' if n <= 1024 else 'K'\n")
    (tmp_path / "job.py").write_text("import units\n\nassert units.kib(1024) == '1.0K', units.kib(1024)\n")
    spec, source = bench.spec_for("job.py", tmp_path, 60, {})
    policy = bench.MatchPolicy()
    rep = bench.establish(spec, policy, runs=1)
    folded = bench.folded_signature(spec, source, rep, policy)
    assert folded.location.source.startswith("assert kib(1024) == ")
    result = "def kib(n):\n    return f'{n}B' if n <= 1024 else 'K'\n\nassert kib(1024) == '1.0K', kib(1024)\n"
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "job.min.py").write_text(result)
    got = bench.signature_of(bench.run_script(bench.spec_for("job.min.py", alone, 60, {})[0]))
    assert not bench.same_failure(rep.signature, got, policy) and bench.same_failure(folded, got, policy)
    # a result that fails elsewhere is not the folded original's failure either
    (alone / "job.min.py").write_text("assert 1 == 2, '1024B'\n")
    other = bench.signature_of(bench.run_script(bench.spec_for("job.min.py", alone, 60, {})[0]))
    assert not bench.same_failure(folded, other, policy)


def test_a_pytest_result_must_keep_its_test():
    # a module that fails at import fails "the same way" for any node id: the benchmark also
    # requires the node's test (and class) to be defined in the result
    assert bench.node_defined("class TestX:\n    def test_y(self):\n        assert 0\n", "TestX::test_y[3]")
    assert not bench.node_defined("import torch\ntorch.ones(2) @ torch.ones(3)\n", "test_y")
    assert not bench.node_defined("def test_y_other():\n    pass\n", "test_y")


def _git_case(tmp_path: Path, patch: str) -> bench.Case:
    d = tmp_path / "98_git"
    d.mkdir(parents=True)
    (d / "app.py").write_text("value = 1\nassert value == 2, value\n")
    (d / "minimal.py").write_text("assert 1 == 2\n")
    (d / "NOTE.md").write_text("Bug, cause, Signature\n")
    (d / "fix.patch").write_text(patch)
    manifest = {"target": "app.py", "category": "pure-python", "cause": ["value"], "signature": "AssertionError: 1",
                "good": {"git": "fix.patch"}}
    (d / "case.json").write_text(json.dumps(manifest))
    return bench.Case("98_git", d, manifest)


FIX = "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-value = 1\n+value = 2\n assert value == 2, value\n"


def test_git_good_version_is_validated(tmp_path):
    assert bench.structure_problems(_git_case(tmp_path / "ok", FIX)) == []
    stale = FIX.replace("-value = 1", "-value = 7")
    assert any("does not apply" in p for p in bench.structure_problems(_git_case(tmp_path / "stale", stale)))
    assert bench.structure_problems(_git_case(tmp_path / "empty", "")) != []


def test_git_good_workspace_is_fixed_then_buggy_history(tmp_path):
    case = _git_case(tmp_path / "c", FIX)
    ws = bench.make_workspace(case, tmp_path / "ws")
    assert (ws.project / "app.py").read_text() == (case.path / "app.py").read_text()  # HEAD: the case (bug)
    assert not (ws.project / "fix.patch").exists() and not (ws.project / "minimal.py").exists()
    log = bench._git(ws.project, "log", "--format=%H").split()
    assert len(log) == 2 and log[1] == ws.good_commit
    assert bench._git(ws.project, "show", f"{ws.good_commit}:app.py").startswith("value = 2")
    assert bench._git(ws.project, "status", "--porcelain") == ""
    assert (ws.good_project / "app.py").read_text().startswith("value = 2")
    assert bench.fixed_original_problem(case, ws, sys.executable, 60) is None
    assert (case.path / "app.py").read_text().startswith("value = 1")  # the corpus is never written to
