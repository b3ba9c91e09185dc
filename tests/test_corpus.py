"""benchmarks/corpus/: the held-out corpus is well-formed, each set has the mix it was written to have, and
every hand-written minimal.py is a real reproducer (self-contained, the original's failure, the cause its
note names, passes where fixed).

One list of cases, read from the corpus; a set is a tag (``c01`` ... ``c23``, see ``benchmarks/corpus/SETS.md``),
and the per-set checks select by tags as ``corpus_bench.py --select`` does. The layout checks are fast.
Running a case costs its original once plus its minimal (and the good version's runs): the pure-Python and
library cases run by default; cases that import torch or hang run under the ``slow`` marker. The torch
cases' runs go to one warm fork server per test process (``torch_server``): torch is imported once per
process, not in every run.
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
RESULTS = _PATH.parent / "results"
SETS_MD = _PATH.parent / "corpus" / "SETS.md"


def _load():
    spec = importlib.util.spec_from_file_location("corpus_bench", _PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_bench"] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


bench = _load()
CASES = bench.load_cases()  # the one corpus, in id order
SETS = sorted({c.set for c in CASES})


def tagged(*tags: str) -> list:
    """The cases that have all these tags (what ``corpus_bench.py --select TAG,TAG`` runs)."""
    return [c for c in CASES if set(tags) <= set(c.tags)]


def count(*tags: str) -> int:
    return len(tagged(*tags))


def compiled(set_id: str) -> list:
    """The set's torch.compile cases (category tags ``compile-graph-break``, ``compile-wrong-result``)."""
    return [c for c in tagged(set_id) if any(t.startswith("compile-") for t in c.tags)]


def fixed(set_id: str, category: str | None = None) -> list:
    """The set's cases with a known-good commit (``fix-patch``: ``[good] git = "fix.patch"``)."""
    return tagged(set_id, "fix-patch", *([category] if category else []))


def _family(case) -> tuple:
    """The kind of reproducer a case is, as far as running it goes: whether it is a real report, what it runs
    on (a hang, torch, or else its category: the first tag after the set), whether it has a good version to pass
    on. A torch case's category (compile, export, meta, ...) does not change how its runs go, only what torch
    does in them: one torch case per family keeps the slow CI run to one representative each (each costs a
    minute of torch imports and compiles)."""
    tags = set(case.tags)
    runs_on = "hang" if "hang" in tags else "torch" if "torch" in tags else next(t for t in case.tags if t not in SETS)
    return ("real-report" in tags, runs_on, bool({"fix", "fix-patch"} & tags))


def _representatives() -> set[str]:
    """The first case (in id order) of each family: what every test run checks of the corpus."""
    first: dict[tuple, str] = {}
    for case in CASES:
        first.setdefault(_family(case), case.name)
    return set(first.values())


def _params():
    """Every case; one per family (:func:`_family`) runs in the default and CI runs, the rest under the
    ``corpus`` marker (``pytest -m corpus``: run it when the corpus or the signature's judgement changes).
    Of the families, those that import torch or hang are ``slow``."""
    keep = _representatives()

    def marks(case):
        heavy = [pytest.mark.slow] if {"torch", "hang"} & set(case.tags) else []
        return heavy if case.name in keep else [*heavy, pytest.mark.corpus]

    return [pytest.param(case, id=case.name, marks=marks(case)) for case in CASES]


def _has_package(case) -> bool:
    return any(p.is_dir() and (p / "__init__.py").is_file() for p in case.path.iterdir())


def _is_project(case) -> bool:
    """A multi-file case: a package (a directory with ``__init__.py``) and 3+ modules outside the case root."""
    modules = [p for p in case.path.rglob("*.py") if p.parent != case.path and p.name != "__init__.py"]
    return _has_package(case) and len(modules) >= 3


def _one_torch_one_pure(cases) -> bool:
    return {"torch" in c.tags for c in cases} == {True, False}


def _the_hang(set_id: str):
    (hang,) = tagged(set_id, "hang")
    return hang


def _pytest_cases_have_pytest_minimals(set_id: str) -> bool:
    cases = tagged(set_id, "pytest")
    return bool(cases) and all("::" in c.manifest.get("minimal_target", "") for c in cases)


def test_the_corpus_is_one_list_of_sets():
    assert len(CASES) >= 172
    assert SETS[:23] == [f"c{n:02d}" for n in range(1, 24)]
    assert len({c.name for c in CASES}) == len(CASES)
    assert all(c.path.parent == _PATH.parent / "corpus" for c in CASES)
    # every set has its section in SETS.md (who wrote it, when, held out from what, its results)
    sections = set(re.findall(r"^## `?([a-z]\d\d)\b", SETS_MD.read_text(encoding="utf-8"), re.MULTILINE))
    assert set(SETS) <= sections


def test_c01_has_the_mix_the_issue_asks_for():
    assert count("c01") >= 12
    assert count("c01", "multi-file") >= 3
    assert count("c01", "pure-python") >= 3
    for needed in ("meta-device", "nn-module", "compile-graph-break", "compile-wrong-result", "hang",
                   "library-pytest"):
        assert tagged("c01", needed), needed
    # a multi-file case is a project: local modules or packages next to the target
    for case in tagged("c01", "multi-file"):
        local = [p for p in case.path.rglob("*.py") if p.name != "minimal.py"]
        assert len(local) >= 3, case.name
    # one of them is a pytest suite importing local test utilities
    assert tagged("c01", "multi-file", "pytest")


def test_c02_has_its_mix():
    assert count("c02") >= 8
    assert count("c02", "multi-file") >= 2 and count("c02", "nn-module") >= 2
    for needed in ("pure-python", "hang", "library-pytest"):
        assert tagged("c02", needed), needed
    assert compiled("c02")
    multi = tagged("c02", "multi-file")
    assert _one_torch_one_pure(multi)  # one torch pipeline, one pure-Python project
    for case in multi:
        assert _has_package(case), case.name


def test_c03_has_its_mix():
    assert count("c03") >= 8
    assert count("c03", "multi-file") >= 2 and count("c03", "pure-python") >= 2
    assert count("c03", "nn-module") + count("c03", "meta-device") >= 2
    assert tagged("c03", "hang") and compiled("c03")
    multi = tagged("c03", "multi-file")
    assert _one_torch_one_pure(multi)
    for case in multi:
        assert _has_package(case), case.name
    # a fix (a known-good commit) in each pair: a multi-file helper module, a pure-Python script, a model
    assert fixed("c03", "multi-file") and fixed("c03", "pure-python")
    assert fixed("c03", "nn-module") or fixed("c03", "meta-device")


def test_c04_has_its_mix():
    assert count("c04") >= 8
    assert count("c04", "multi-file") >= 2 and count("c04", "pure-python") >= 2 and count("c04", "nn-module") >= 2
    assert compiled("c04")
    assert tagged("c04", "hang") or tagged("c04", "library-pytest")
    multi = tagged("c04", "multi-file")
    assert _one_torch_one_pure(multi)
    for case in multi:
        assert _has_package(case), case.name
    # at least three known-good commits: a multi-file project, a pure-Python script, a model
    assert len(fixed("c04")) >= 3
    assert all(fixed("c04", category) for category in ("multi-file", "pure-python", "nn-module"))


def test_c05_has_its_mix():
    assert count("c05") >= 5
    assert count("c05", "multi-file") >= 2 and count("c05", "pure-python") >= 2 and tagged("c05", "nn-module")
    assert _one_torch_one_pure(tagged("c05", "multi-file"))
    assert fixed("c05", "multi-file") and fixed("c05", "nn-module")


def test_c06_has_its_mix():
    assert count("c06") >= 7
    assert count("c06", "multi-file") >= 2 and tagged("c06", "pure-python") and tagged("c06", "hang")
    assert count("c06", "nn-module") + count("c06", "meta-device") >= 2
    assert compiled("c06")
    multi = tagged("c06", "multi-file")
    assert _one_torch_one_pure(multi)  # one torch model package, one pure-Python project
    for case in multi:
        assert _has_package(case), case.name
    assert _the_hang("c06").manifest.get("timeout") == 5
    # known-good commits: both multi-file projects, the pure-Python script, the training loop
    assert len(fixed("c06", "multi-file")) == 2 and fixed("c06", "pure-python") and fixed("c06", "nn-module")


@pytest.mark.parametrize("set_id", [f"c{n:02d}" for n in range(7, 19)])
def test_c07_to_c18_have_their_mix(set_id):
    assert count(set_id) >= 7
    assert count(set_id, "multi-file") >= 2 and count(set_id, "pure-python") >= 2 and tagged(set_id, "hang")
    assert tagged(set_id, "nn-module") or tagged(set_id, "meta-device")
    assert compiled(set_id)
    multi = tagged(set_id, "multi-file")
    assert _one_torch_one_pure(multi)  # one torch training package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    assert _the_hang(set_id).manifest.get("timeout") == 5
    # known-good commits: both multi-file projects, both pure-Python scripts, the model
    assert len(fixed(set_id, "multi-file")) == 2 and len(fixed(set_id, "pure-python")) == 2
    assert fixed(set_id, "nn-module")


def test_c19_has_its_mix():
    """Wrong results caught by a check: every original fails with an AssertionError of a value check."""
    cases = tagged("c19")
    assert len(cases) == 8
    assert count("c19", "multi-file") >= 2 and count("c19", "pure-python") >= 2
    for needed in ("nn-module", "compile-wrong-result", "library-pytest"):
        assert tagged("c19", needed), needed
    multi = tagged("c19", "multi-file")
    assert _one_torch_one_pure(multi)  # one torch package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    # a pytest node id as a target, with a pytest minimal_target
    assert _pytest_cases_have_pytest_minimals("c19")
    # the failure is an AssertionError, no crash
    assert all(c.manifest["signature"].startswith("AssertionError") for c in cases)
    # the checks: assert_close (2+), numpy.testing (1+), unittest assertEqual/assertAlmostEqual (1+),
    # a plain assert with a message (1+), a bare assert in a pytest test (1+)
    def source(case):
        return "\n".join(p.read_text(encoding="utf-8") for p in case.path.rglob("*.py") if p.name != "minimal.py")
    texts = {c.name: source(c) for c in cases}
    assert sum("torch.testing.assert_close(" in t for t in texts.values()) >= 2
    assert any(re.search(r"np\.testing\.assert_(allclose|array_equal)\(", t) for t in texts.values())
    assert any(re.search(r"self\.assert(Equal|AlmostEqual)\(", t) for t in texts.values())
    assert any(re.search(r"^\s*assert\b[^\n]*==[^\n]*,\s*f?[\"']", t, re.MULTILINE) for t in texts.values())
    assert any(_bare_assert_in_test(c) for c in tagged("c19", "pytest"))
    # at most three known-good commits: the scenario is a failure with no good version
    assert len(fixed("c19")) <= 3 and len(cases) - len(fixed("c19")) >= 5


def test_c20_has_its_mix():
    """What a new user brings on day one: a mix of failure kinds, one case of each."""
    assert count("c20") == 8
    assert count("c20", "multi-file") == 2 and count("c20", "pure-python") == 2
    for needed in ("nn-module", "compile-graph-break", "hang", "library-pytest"):
        assert count("c20", needed) == 1, needed
    multi = tagged("c20", "multi-file")
    assert _one_torch_one_pure(multi)  # one torch package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    hang = _the_hang("c20")
    assert hang.manifest.get("timeout") == 5 and hang.manifest["signature"].startswith("hang (timed out)")
    # a pytest node id as a target (the library's test), with a pytest minimal_target
    assert _pytest_cases_have_pytest_minimals("c20")
    # at most three known-good commits (the library case has one); at least five cases have none
    assert len(fixed("c20")) <= 3 and count("c20") - len(fixed("c20")) >= 5
    assert fixed("c20", "library-pytest")


def test_c21_has_its_mix():
    """The same mix as c20 (one failure of each kind), other bugs: written before the changes it judges."""
    assert count("c21") == 8
    assert count("c21", "multi-file") == 2 and count("c21", "pure-python") == 2
    for needed in ("nn-module", "hang", "library-pytest"):
        assert count("c21", needed) == 1, needed
    assert len(compiled("c21")) == 1
    multi = tagged("c21", "multi-file")
    assert _one_torch_one_pure(multi)  # one torch package, one pure-Python project
    for case in multi:
        assert _is_project(case), case.name
    hang = _the_hang("c21")
    assert hang.manifest.get("timeout") == 5 and hang.manifest["signature"].startswith("hang (timed out)")
    assert _pytest_cases_have_pytest_minimals("c21")
    assert 2 <= len(fixed("c21")) <= 3 and count("c21") - len(fixed("c21")) >= 5
    assert fixed("c21", "library-pytest")


def test_c22_has_its_mix():
    """Six cases, one of each kind but hangs, written while c21's results were not yet read."""
    assert count("c22") == 6
    assert count("c22", "multi-file") == 1 and count("c22", "pure-python") == 2
    for needed in ("nn-module", "library-pytest"):
        assert count("c22", needed) == 1, needed
    assert len(compiled("c22")) == 1
    assert _is_project(tagged("c22", "multi-file")[0])
    assert _pytest_cases_have_pytest_minimals("c22")
    assert 1 <= len(fixed("c22")) <= 2 and fixed("c22", "library-pytest")


def test_c23_has_its_mix():
    """Eight cases where the user's code makes a wrong value and a library rejects it, written before
    the changes they judge."""
    assert count("c23") == 8
    assert count("c23", "multi-file") == 2 and count("c23", "nn-module") == 3
    for needed in ("pure-python", "library-pytest"):
        assert count("c23", needed) == 1, needed
    assert len(compiled("c23")) == 1
    multi = tagged("c23", "multi-file")
    assert _one_torch_one_pure(multi)
    for case in multi:
        assert _is_project(case), case.name
    assert _pytest_cases_have_pytest_minimals("c23")
    assert 1 <= len(fixed("c23")) <= 3 and fixed("c23", "library-pytest")


def test_r01_is_real_reports():
    """r01: public bug reports, the reporter's script as the target and a smaller repro posted for the same
    bug (or, where the thread has none, written from it: SETS.md), each with its issue's address."""
    cases = tagged("r01")
    assert len(cases) >= 8
    assert all({"torch", "real-report"} <= set(c.tags) and c.target == "repro.py" for c in cases)
    assert all(c.manifest["provenance"]["url"].startswith("https://github.com/") for c in cases)
    assert len(fixed("r01")) >= 8  # a workaround from the thread, as a fix.patch of repro.py


def test_r02_is_real_reports():
    """r02: ten more public bug reports (2026-12-01), the reporter's script as the target; every minimal.py is the
    helper's, written from the thread (the threads' later comments were out of its reach: SETS.md), and one case
    needs no torch (sympy's Risch code)."""
    cases = tagged("r02")
    assert len(cases) >= 8
    assert all("real-report" in c.tags and c.target == "repro.py" for c in cases)
    assert all(c.manifest["provenance"]["url"].startswith("https://github.com/") for c in cases)
    assert [c for c in cases if "torch" not in c.tags] and len(fixed("r02")) >= 4


def test_r03_is_real_reports():
    """r03: ten more public bug reports (2026-12-01, built blind while the reducer changed), the reporter's script as
    the target; one needs no torch (sympy), one is a two-file project, nine have the thread's or the helper's fix."""
    cases = tagged("r03")
    assert len(cases) >= 8
    assert all("real-report" in c.tags and c.target == "repro.py" for c in cases)
    assert all(c.manifest["provenance"]["url"].startswith("https://github.com/") for c in cases)
    assert [c for c in cases if "torch" not in c.tags] and len(fixed("r03")) >= 8


def test_r04_and_r05_are_real_reports():
    """r04, r05: sixteen more public bug reports (2026-12-01, built blind before the stop's changes), the reporter's
    script as the target; r04 has a pure-Python one (dateutil), r05 a 411-line training script."""
    for set_id in ("r04", "r05"):
        cases = tagged(set_id)
        assert len(cases) >= 8
        assert all("real-report" in c.tags and c.target == "repro.py" for c in cases)
        assert all(c.manifest["provenance"]["url"].startswith("https://github.com/") for c in cases)
        assert len(fixed(set_id)) >= 4
    assert [c for c in tagged("r04") if "torch" not in c.tags]
    assert max(len((c.path / "repro.py").read_text().splitlines()) for c in tagged("r05")) > 400


def test_r06_are_real_reports_with_readable_minimals():
    """r06: ten more public bug reports (2026-12-01, built blind by two helpers before the raise-site change was
    measured on them), the reporter's script as the target; the helpers were asked for minimals a maintainer would
    write (plain lines, not golfed), and say which are theirs."""
    cases = tagged("r06")
    assert len(cases) >= 8
    assert all("real-report" in c.tags and c.target == "repro.py" for c in cases)
    assert all(c.manifest["provenance"]["url"].startswith("https://github.com/") for c in cases)
    assert all(c.manifest["hand_minimal"].get("by") == "helper" for c in cases)  # (none came from a thread)
    assert len(fixed("r06")) >= 4
    assert [c for c in cases if "torch" not in c.tags]  # the dateutil case


@pytest.mark.parametrize("set_id, size, with_fix, other_library", [("r07", 5, 3, True), ("r08", 8, 2, True),
                                                                     ("r09", 9, 2, False), ("r10", 7, 2, False),
                                                                     ("r11", 7, 3, False)])
def test_blind_real_report_sets_are_what_they_say(set_id, size, with_fix, other_library):
    """r07 (2026-12-01: five, while the compiler-diagnostic guard rule was written), r08 (2026-12-02: eight, before
    stop 64's measurements), r09 (2026-12-02: nine, during stop 65, all torch; every minimal the helper's, none of
    the threads showing a smaller script by anyone else) and r10 (2026-12-02: seven, during stop 66, the same way;
    two from a tutorial repository's issues, whose scripts plot with matplotlib) and r11 (2026-12-02: seven, during
    stop 67, the same way): public bug reports built blind by
    helpers that read no reportkit code; r07 and r08 each with a case that is not torch's (sympy; dateutil)."""
    cases = tagged(set_id)
    assert len(cases) >= size
    assert all("real-report" in c.tags and c.target == "repro.py" for c in cases)
    assert all(c.manifest["provenance"]["url"].startswith("https://github.com/") for c in cases)
    assert all(c.manifest["provenance"]["blind"] is True for c in cases)
    assert len(fixed(set_id)) >= with_fix
    assert bool([c for c in cases if "torch" not in c.tags]) == other_library


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
    (tmp_path / "c01-01-x").mkdir()
    (tmp_path / "c01-01-x" / "case.toml").write_text('target = "x.py"\n')
    with pytest.raises(SystemExit, match="malformed corpus cases: c01-01-x: missing NOTE.md"):
        bench.main(["--corpus", str(tmp_path), "--budget", "1"])
    (tmp_path / "c01-01-x" / "case.toml").write_text('target = "x.py\n')
    with pytest.raises(SystemExit, match=r"c01-01-x/case.toml: not a valid manifest"):
        bench.main(["--corpus", str(tmp_path), "--budget", "1"])


def test_select_picks_cases_by_tags_and_ids():
    assert [c.name for c in bench.select_cases(CASES, "pure-python,c01")] == [
        "c01-04-py-cli-config-override", "c01-05-py-pagination-floor", "c01-06-py-mutable-default"]
    assert [c.name for c in bench.select_cases(CASES, "c23")] == [c.name for c in CASES if c.set == "c23"]
    assert len(bench.select_cases(CASES, "c23")) == 8
    # --case: an id or a prefix of exactly one; the selection keeps the corpus's order
    assert [c.name for c in bench.select_cases(CASES, "c23", ["c23-08", "c23-01-mf-torch-float64-features-linear"])] \
        == ["c23-01-mf-torch-float64-features-linear", "c23-08-lib-parse-ti-time-group-index-int"]
    assert bench.select_cases(CASES, None, ["c01-12"])[0].name == "c01-12-hang-lock-reentry"
    assert bench.select_cases(CASES) == CASES
    for select, ids, message in [("no-such-tag", None, "no case has the tag"), ("c01,c02", None, "no case has all"),
                                 (None, ["c2"], "ambiguous"), (None, ["zz"], "unknown"),
                                 ("c23", ["c22-01"], "does not have the tags of --select c23")]:
        with pytest.raises(SystemExit, match=message):
            bench.select_cases(CASES, select, ids)


def test_list_prints_the_selection(capsys):
    assert bench.main(["--select", "c01,pure-python", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == [c.name for c in tagged("c01", "pure-python")]
    assert lines[-1] == "3 case(s)"


RESULT_FILES = sorted(RESULTS.glob("*.json"))


def test_results_are_one_file_per_run_named_by_case_ids(capsys):
    """benchmarks/results/<set or selection>-<label>.json: every stored run names the corpus's cases by
    their ids (the files converted from the old layout keep the old names in ``ids``) and re-prints."""
    assert len(RESULT_FILES) >= 79
    ids = {c.name for c in CASES}
    for path in RESULT_FILES:
        assert re.fullmatch(r"[a-z]\d\d(,[a-z0-9-]+)*-[A-Za-z0-9_]+\.json", path.name), path.name
        data = json.loads(path.read_text(encoding="utf-8"))
        names = [r["case"] for r in data["cases"]]
        assert names and set(names) <= ids, path.name
        assert data["select"] is None or path.name.startswith(data["select"] + "-"), path.name
        if "ids" in data:  # converted: old name -> id, one per case
            assert list(data["ids"].values()) == names, path.name
        assert bench.main(["--report-from", str(path)]) == 0
        assert f"re-printed from {path}" in capsys.readouterr().out


def test_a_library_case_installs_from_a_relative_corpus_path(tmp_path, monkeypatch):
    # `--corpus benchmarks/corpus` gives relative case paths; the patch must still apply
    case = next(c for c in tagged("c02") if c.site)
    monkeypatch.chdir(_PATH.parent.parent)
    rel = bench.Case(case.name, case.path.relative_to(_PATH.parent.parent), case.manifest)
    ws = bench.make_workspace(rel, tmp_path)
    patched = {p.relative_to(ws.site): p.read_bytes() for p in ws.site.rglob("*.py")}
    pristine = {p.relative_to(ws.good_site): p.read_bytes() for p in ws.good_site.rglob("*.py")}
    assert patched.keys() == pristine.keys()
    assert [k for k in patched if patched[k] != pristine[k]] == [Path("semver/version.py")]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_layout(case):
    assert bench.structure_problems(case) == []
    minimal = (case.path / "minimal.py").read_text(encoding="utf-8")
    # the hand-written reproducer keeps the cause the note names, and is smaller than the original (a real
    # report's minimal.py is the smaller repro posted for it, not always shorter than the reporter's script)
    assert case.missing_causes(minimal) == []
    if "real-report" not in case.tags:
        assert bench.count_lines(minimal) < bench.count_lines((case.path / case.target.split("::")[0]).read_text())


def test_cause_markers_reject_a_reproducer_without_the_bug():
    case = next(c for c in CASES if c.name.startswith("c01-05-"))
    materialized = 'exported = 192\nassert exported == 203, f"export lost records: {exported} of {203}"\n'
    assert case.missing_causes(materialized) == ["//"]


def test_structure_problems_are_reported(tmp_path):
    d = tmp_path / "99_broken"
    d.mkdir()
    (d / "case.toml").write_text('target = "gone.py"\ncause = ["("]\ncolour = 1\n')
    case = bench.Case("99_broken", d, {"target": "gone.py", "cause": ["("], "colour": 1})
    problems = " | ".join(bench.structure_problems(case))
    for expected in ("missing NOTE.md", "missing minimal.py", "unknown manifest keys", "lacks 'category'",
                     "gone.py does not exist", "does not compile", "lacks 'id'", "lacks 'tags'",
                     "'99_broken' is no case id", "lacks [provenance]"):
        assert expected in problems


def test_ids_tags_provenance_and_hand_minimal_are_checked(tmp_path):
    (case,) = _toml_case(tmp_path, "c01-97-wrong", GIT_CASE_TOML.replace('id = "t01-98-git"', 'id = "c01-96-other"'))
    assert bench.structure_problems(case) == [
        "id 'c01-96-other' is not the directory's name 'c01-97-wrong'", "set 't01' is not the id's prefix 'c01'"]
    for old, new, problem in [
        ('"pure-python", ', "", "tags lack ['pure-python']"),
        ('"fix", ', '"torch", "fix", ', "tag 'torch' does not hold for this case"),
        ('"fix-patch"]', '"fix-patch", "pytest"]', "tag 'pytest' does not hold for this case"),
        ('held_out_from = "unknown"\n', "", "provenance lacks 'held_out_from'"),
        ('blind = "unknown"', 'blind = "mostly"', 'provenance.blind must be true, false or "unknown"'),
        ("lines = 1", "lines = 3", "hand_minimal.lines is 3, minimal.py has 1 non-blank lines"),
    ]:
        assert old in GIT_CASE_TOML
        (case,) = _toml_case(tmp_path / new.strip() / str(len(problem)), "t01-98-git", GIT_CASE_TOML.replace(old, new))
        assert bench.structure_problems(case) == [problem]


def _digits(text: str) -> str:
    return re.sub(r"\d+", "N", text.splitlines()[0]).strip()


def _missing_imports(case) -> list[str]:
    """Top-level modules the case's target imports that are neither installed here nor the case's own files."""
    target = case.path / case.target.partition("::")[0]
    roots = set()
    for node in ast.walk(ast.parse(target.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            roots |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    own = {p.stem for p in case.path.rglob("*.py")} | {p.name for p in case.path.iterdir() if p.is_dir()}
    return sorted(r for r in roots - own if importlib.util.find_spec(r) is None)


@pytest.fixture(scope="session")  # xdist hands a worker this module's tests in several chunks
def torch_server():
    """One fork server per test process for the cases that import torch: torch is imported once there,
    not in each of a case's runs (about 3 s each on the CI machine; nearly half the cases import torch).
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
    missing = _missing_imports(case)
    if missing:
        pytest.skip(f"the case imports what this interpreter lacks: {', '.join(missing)} (r10-01/02: matplotlib)")
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
        # a run that is no hang may take 120 s, or the manifest's timeout where a case gives one for a run
        # that is slow, not hung (r01's torch.compile runs: up to ~130 s on a loaded 2-core machine)
        slow_run = max(120.0, case.timeout if "timeout" in case.manifest else 0.0)
        minimal_target = case.manifest.get("minimal_target", "minimal.py")
        name, _, node = minimal_target.partition("::")
        text = (case.path / name).read_text(encoding="utf-8")
        got = bench.run_alone(text, name, node or None, case, ws, good=False, python=sys.executable,
                              timeout=case.timeout if rep.signature.kind == "hang" else slow_run, executor=executor)
        assert bench.same_failure(rep.signature, got, policy), got.headline()
        if case.good and case.good.get("git"):
            # a known-good commit: the fixed original passes; and where the fix check's mapping carries
            # the fix onto the hand-written minimal (it keeps the lines the fix changes), that good form
            # passes too — the minimal is then a result the benchmark's ``good`` check accepts
            assert bench.fixed_original_problem(case, ws, sys.executable, slow_run, executor) is None
            # the repro posted for a real report is not made from the reporter's script: the fix check's mapping
            # from that script says nothing about it (r01-09's fix would land in a trailing comment)
            real = "real-report" in case.tags
            good_text = None if real else _good_form(text, case, ws)
            if case.set != "c01" and not real:  # c02 ... c23: hand-minimals keep the fixed lines
                assert good_text is not None and good_text != text, "the fix does not map onto minimal.py"
            if good_text is not None and good_text != text:
                fixed = bench.run_alone(good_text, name, node or None, case, ws, good=True, python=sys.executable,
                                        timeout=slow_run, executor=executor)
                legacy = case.set == "c01"
                if legacy and fixed.exc_type == "NameError":
                    # c01's hand-minimals were written before the fix check: the fix's tokens merged
                    # into one of their lines can name what the minimal does not have (02's self.max_len)
                    return
                assert fixed.kind == "passed", fixed.headline()
        elif case.good:
            fixed = bench.run_alone(text, name, node or None, case, ws, good=True, python=sys.executable,
                                    timeout=slow_run, executor=executor)
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
    original fails at that statement as folding spelled it, which is the original's (c20-08)."""
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


GIT_CASE_TOML = """\
id = "t01-98-git"
set = "t01"
tags = ["t01", "pure-python", "fix", "fix-patch"]
target = "app.py"
category = "pure-python"
cause = ['value']
signature = "AssertionError: 1"

[good]
git = "fix.patch"

[provenance]
written_by = "tests/test_corpus.py"
written = "unknown"
blind = "unknown"
held_out_from = "unknown"

[hand_minimal]
lines = 1
"""
FIX = "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n-value = 1\n+value = 2\n assert value == 2, value\n"


def _toml_case(root: Path, name: str, manifest: str, patch: str = FIX) -> list:
    """A corpus at ``root`` with one case ``name`` (a script failing an assert, its fix), as load_cases reads it."""
    d = root / name
    d.mkdir(parents=True)
    (d / "app.py").write_text("value = 1\nassert value == 2, value\n")
    (d / "minimal.py").write_text("assert 1 == 2\n")
    (d / "NOTE.md").write_text("Bug, cause, Signature\n")
    (d / "fix.patch").write_text(patch)
    (d / "case.toml").write_text(manifest)
    return bench.load_cases(root)


def _git_case(tmp_path: Path, patch: str) -> bench.Case:
    (case,) = _toml_case(tmp_path, "t01-98-git", GIT_CASE_TOML, patch)
    return case


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


SITE_CASE_TOML = GIT_CASE_TOML.replace("t01-98-git", "t01-97-site").replace(
    '"fix", "fix-patch"', '"fix"').replace('git = "fix.patch"', 'site = "pristine"') + \
    '\n[site]\ndir = "vendor"\npatch = "fix.patch"\n'


def test_a_case_whose_step_fails_is_recorded_and_the_run_goes_on(tmp_path, capsys):
    """A case whose workspace cannot be made (its library's patch does not apply) is one result with its
    error, in the table and the JSON; the next case is still minimized (the run used to stop at the first)."""
    _toml_case(tmp_path / "corpus", "t01-98-git", GIT_CASE_TOML.replace('\n[good]\ngit = "fix.patch"\n', "")
               .replace('"fix", "fix-patch"', "").replace(", ]", "]"))
    (case,) = [c for c in _toml_case(tmp_path / "corpus", "t01-97-site", SITE_CASE_TOML,
                                     FIX.replace("-value = 1", "-value = 7")) if c.name == "t01-97-site"]
    (case.path / "vendor").mkdir()
    (case.path / "vendor" / "app.py").write_text("value = 1\n")
    assert bench.structure_problems(case) == []
    out = tmp_path / "run.json"
    assert bench.main(["--corpus", str(tmp_path / "corpus"), "--budget", "60", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    first, second = json.loads(out.read_text())["cases"]
    assert first["case"] == "t01-97-site" and "does not apply" in first["error"] and first["lines_after"] is None
    assert second["case"] == "t01-98-git" and second["error"] == "" and second["lines_after"] == 2
    assert "t01-97-site: error: SystemExit:" in printed and "stopped by an error 1" in printed
    assert bench.main(["--report-from", str(out), "--markdown"]) == 0
    assert "| error: SystemExit:" in capsys.readouterr().out
