"""The fix check of ``minimize`` (reportkit/reduce/fixcheck.py): results must pass on the good code."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

import reportkit.reduce.minimize as mz
from reportkit.failure.check import Check, establish
from reportkit.failure.signature import MatchPolicy
from reportkit.reduce.fixcheck import FoldMap, good_form_map, prepare_good_code
from reportkit.run.gitinfo import GoodRevError, export_commit, good_rev, uncommitted_changes
from reportkit.run.spec import RunSpec

WINDOWED_GOOD = """\
def windowed(seq, n):
    for i in range(len(seq) - n + 1):
        yield tuple(seq[i:i + n])
"""
WINDOWED_BAD = WINDOWED_GOOD.replace("len(seq) - n + 1", "len(seq) - n")

# The expected side is computed by a reference implementation: removing its loop keeps "the same
# AssertionError" — and loses the bug (it then fails with the library fixed too).
CHECK_WINDOWED = """\
from mylib import windowed


def reference(seq, n):
    out = []
    for i in range(len(seq) - n + 1):
        out.append(tuple(seq[i:i + n]))
    return out


data = [1, 2, 3, 4]
got = list(windowed(data, 2))
expected = reference(data, 2)
assert got == expected
"""


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout


def make_repo(root: Path, files: dict[str, str], broken: dict[str, str]) -> Path:
    """A repository with ``files`` committed (the good code) and ``broken`` written over them, uncommitted."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    git(root, "config", "user.email", "t@example.com")
    git(root, "config", "user.name", "t")
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(textwrap.dedent(text))
    git(root, "add", ".")
    git(root, "commit", "-qm", "good")
    for name, text in broken.items():
        (root / name).write_text(textwrap.dedent(text))
    return root


def snapshot(repo: Path) -> tuple:
    """Everything the user would see of the checkout: status (ignored files too), HEAD, stashes,
    worktrees, and every file's content."""
    files = {str(p.relative_to(repo)): hashlib.sha256(p.read_bytes()).hexdigest()
             for p in sorted(repo.rglob("*")) if p.is_file() and ".git" not in p.relative_to(repo).parts}
    return (git(repo, "status", "--porcelain", "--ignored"), git(repo, "rev-parse", "HEAD"),
            git(repo, "stash", "list"), git(repo, "worktree", "list", "--porcelain").count("worktree "), files)


def windowed_repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo", {"src/mylib/__init__.py": WINDOWED_GOOD,
                                         "tests/check_windowed.py": CHECK_WINDOWED},
                     {"src/mylib/__init__.py": WINDOWED_BAD})


def minimize(script: Path, out: Path, env: dict | None = None, **options):
    policy = MatchPolicy()
    spec = RunSpec(script=script.resolve(), python=sys.executable, timeout=20, env=dict(env or {}))
    rep = establish(spec, policy, runs=1)
    options.setdefault("executor", "warm")
    return mz.minimize(spec, script.read_text(), rep, policy, mz.MinimizeOptions(output=out, **options))


def run_with(source: str, tmp: Path, pythonpath: Path) -> subprocess.CompletedProcess:
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "result.py").write_text(source)
    return subprocess.run([sys.executable, "result.py"], cwd=tmp, capture_output=True, text=True, timeout=30,
                          env={"PYTHONPATH": str(pythonpath), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"})


# --------------------------------------------------------------------------- reduction with the check


def test_reduction_keeps_the_bug_only_with_the_fix_check(tmp_path):
    repo = windowed_repo(tmp_path)
    script, src = repo / "tests" / "check_windowed.py", repo / "src"
    before = snapshot(repo)
    good_src = export_commit(good_rev(repo, "HEAD"), tmp_path / "head")  # HEAD's code, to judge results by

    # without the check: the reference's loop goes, the result fails on the fixed library as well
    plain = minimize(script, tmp_path / "plain.py", env={"PYTHONPATH": str(src)})
    assert plain.fix_check is None and plain.verified
    plain_text = Path(plain.output).read_text()
    assert run_with(plain_text, tmp_path / "p1", src).returncode != 0
    assert run_with(plain_text, tmp_path / "p2", good_src / "src").returncode != 0  # fails even without the bug

    # automatic with HEAD (uncommitted change to src/mylib): the result fails here and passes on HEAD
    report = minimize(script, tmp_path / "checked.py", env={"PYTHONPATH": str(src)}, good_auto=True)
    result = Path(report.output).read_text()
    assert report.verified and report.fix_check is not None
    fix = report.fix_check
    assert fix["automatic"] and fix["commit"] == git(repo, "rev-parse", "HEAD").strip()
    assert fix["changed"] == ["src/mylib/__init__.py"] and fix["verified"] is True
    assert fix["runs"] == report.good_runs > 0 and fix["rejected"] > 0  # candidates failing on HEAD: rejected
    assert "HEAD" in report.fix_check_note and "automatic" in report.fix_check_note
    assert fix["import_path"] == ["src"]  # the good tree's src shadows the checkout's (PYTHONPATH=src)
    assert run_with(result, tmp_path / "c1", src).returncode != 0
    assert run_with(result, tmp_path / "c2", good_src / "src").returncode == 0, result
    assert report.lines_after <= report.lines_before
    assert snapshot(repo) == before  # the user's checkout untouched
    assert script.read_text() == CHECK_WINDOWED


def test_folded_helper_keeps_the_lines_the_fix_changes(tmp_path):
    repo = make_repo(tmp_path / "repo", {
        "helper.py": """\
            def square(n):
                return n * n


            def cube(n):
                return n * n * n
            """,
        "check_sq.py": """\
            from helper import square, cube


            def reference(values):
                out = []
                for v in values:
                    out.append(v * v)
                return out


            values = [1, 2, 3]
            print(cube(2))
            got = [square(v) for v in values]
            expected = reference(values)
            assert got == expected, (got, expected)
            """}, {
        "helper.py": """\
            def square(n):
                return n * n + (n > 2)


            def cube(n):
                return n * n * n
            """})
    before = snapshot(repo)
    report = minimize(repo / "check_sq.py", tmp_path / "out.py", good_auto=True)
    result = Path(report.output).read_text()
    assert report.folded == ["helper.py"] and report.verified
    assert report.fix_check["folded_mapped"] and report.fix_check["verified"] is True
    assert "return n * n + (n > 2)" in result  # the line the fix changes is kept as written
    assert "import helper" not in result and "from helper" not in result  # still self-contained
    assert "cube" not in result
    assert snapshot(repo) == before


def test_script_is_reduced_unfolded_when_the_good_code_cannot_be_folded(tmp_path):
    repo = make_repo(tmp_path / "repo", {
        "base.py": "def mul(a, b):\n    return a * b\n",
        "helper.py": "import base\n\nops = base  # a module object as a value: not foldable\n\n\n"
                     "def square(n):\n    return ops.mul(n, n)\n",
        "check_sq.py": "from helper import square\n\nvalues = [1, 2, 3]\ngot = [square(v) for v in values]\n"
                       "assert got == [1, 4, 9], got\n"}, {
        "helper.py": "def square(n):\n    return n * n + (n > 2)\n"})
    report = minimize(repo / "check_sq.py", tmp_path / "out.py", good_auto=True)
    assert report.folded == [] and "the fix check needs its good form" in report.folded_note
    assert report.verified and report.fix_check["verified"] is True and not report.fix_check["folded_mapped"]
    assert "from helper import square" in Path(report.output).read_text()


def test_original_failing_on_the_good_code_turns_the_automatic_check_off(tmp_path):
    repo = make_repo(tmp_path / "repo", {"unrelated.txt": "a\n", "boom.py": "raise RuntimeError('boom')\n"},
                     {"unrelated.txt": "b\n"})
    report = minimize(repo / "boom.py", tmp_path / "out.py", good_auto=True)
    assert report.fix_check is None and report.verified
    assert report.fix_check_note.startswith("off: the original also fails on HEAD")


def test_no_automatic_check_for_changes_the_script_cannot_import(tmp_path):
    repo = make_repo(tmp_path / "repo", {"docs/notes.txt": "a\n", "app/boom.py": "raise RuntimeError('boom')\n"},
                     {"docs/notes.txt": "b\n"})
    report = minimize(repo / "app" / "boom.py", tmp_path / "out.py", good_auto=True)
    assert report.fix_check is None and report.verified
    assert report.fix_check_note == ("off: the uncommitted changes (docs/notes.txt) are outside the script's "
                                     "directory and import path")


def test_no_automatic_check_without_changes_besides_the_script(tmp_path):
    repo = make_repo(tmp_path / "repo", {"boom.py": "x = 1\n"}, {"boom.py": "x = 1\nraise RuntimeError(x)\n"})
    assert uncommitted_changes(repo, exclude=(repo / "boom.py",)) is None
    (repo / "other.py").write_text("untracked = 1\n")  # untracked files are not changes to tracked ones
    assert uncommitted_changes(repo, exclude=(repo / "boom.py",)) is None
    assert uncommitted_changes(tmp_path / "nowhere") is None


# --------------------------------------------------------------------------- the good tree


def test_export_is_the_commit_plus_the_script_directory_untracked_files(tmp_path):
    repo = windowed_repo(tmp_path)
    (repo / "tests" / "data.json").write_text("{}")  # untracked set-up next to the script
    (repo / "tests" / "__pycache__").mkdir()
    (repo / "tests" / "__pycache__" / "x.pyc").write_bytes(b"0")
    (repo / "notes.txt").write_text("elsewhere")  # untracked, not in the script's directory
    before = snapshot(repo)
    good = good_rev(repo / "tests", "HEAD")
    assert good.changed == ["src/mylib/__init__.py"] and good.toplevel == repo.resolve()
    tree = export_commit(good, tmp_path / "tree", keep_untracked=(repo / "tests",), exclude=("__pycache__",),
                         only=("tests", "src"))
    assert (tree / "src/mylib/__init__.py").read_text() == WINDOWED_GOOD
    assert (tree / "tests/data.json").is_file() and not (tree / "notes.txt").exists()
    assert not (tree / "tests/__pycache__").exists() and not (tree / ".git").exists()
    assert sorted(p.name for p in tree.iterdir()) == ["src", "tests"]
    assert snapshot(repo) == before


def test_export_keeps_export_ignored_files_modes_and_symlinks(tmp_path):
    repo = windowed_repo(tmp_path)
    (repo / ".gitattributes").write_text("tests export-ignore\n")
    (repo / "run.sh").write_text("#!/bin/sh\n")
    (repo / "run.sh").chmod(0o755)
    (repo / "lib").symlink_to("src")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "more")
    tree = export_commit(good_rev(repo, "HEAD"), tmp_path / "tree")
    assert (tree / "tests/check_windowed.py").read_text() == CHECK_WINDOWED  # a library's tests, export-ignored
    assert (tree / "run.sh").stat().st_mode & 0o111 and (tree / "lib").is_symlink()
    assert (tree / "lib/mylib/__init__.py").read_text() == WINDOWED_BAD  # committed "more" has the bug


def test_export_takes_only_the_dirs_asked_and_built_extensions(tmp_path):
    repo = windowed_repo(tmp_path)
    (repo / "src/mylib/_native.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\x7fELF")  # a build product
    good = good_rev(repo, "HEAD")
    tree = export_commit(good, tmp_path / "t1", only=("src",), built=("src/*.so",))
    assert sorted(p.name for p in tree.iterdir()) == ["src"]
    assert (tree / "src/mylib/_native.cpython-311-x86_64-linux-gnu.so").read_bytes() == b"\x7fELF"
    assert (tree / "src/mylib/__init__.py").read_text() == WINDOWED_GOOD
    with pytest.raises(GoodRevError, match=r"2 files of HEAD \(\w+\) to export \(more than 1\)"):
        export_commit(good, tmp_path / "t2", max_files=1)


@pytest.mark.parametrize("rev", ["no-such-branch", "HEAD~5", "-x", "deadbeef" * 5])
def test_bad_rev_is_one_clear_error(tmp_path, rev):
    repo = windowed_repo(tmp_path)
    with pytest.raises(GoodRevError, match=r"--good .*not a commit in the repository"):
        good_rev(repo, rev)


def test_cli_bad_good_rev_exits_nonzero_without_traceback(tmp_path):
    repo = windowed_repo(tmp_path)
    before = snapshot(repo)
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(repo / "tests/check_windowed.py"),
                           "--good", "v9.9", "-o", str(tmp_path / "o.py")], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--good v9.9: not a commit in the repository" in proc.stderr and "Traceback" not in proc.stderr
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "t.py").write_text("raise RuntimeError(1)\n")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(outside / "t.py"), "--good", "HEAD"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "is not in a git repository" in proc.stderr and "Traceback" not in proc.stderr
    assert snapshot(repo) == before


def test_cli_explicit_good_where_the_original_fails_is_an_error(tmp_path):
    repo = windowed_repo(tmp_path)
    git(repo, "commit", "-qam", "bad")  # HEAD now has the bug too; HEAD~1 is the good code
    script = repo / "tests/check_windowed.py"
    base = [sys.executable, "-m", "reportkit", "minimize", str(script), "--runs", "1", "--env",
            f"PYTHONPATH={repo / 'src'}", "-o", str(tmp_path / "o.py"), "-q"]
    proc = subprocess.run([*base, "--good", "HEAD"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "--good HEAD: the original also fails on HEAD" in proc.stderr and "Traceback" not in proc.stderr
    proc = subprocess.run([*base, "--good", "HEAD~1", "--budget", "60"], capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "fix check" in proc.stdout and "HEAD~1" in proc.stdout and "the result passes there" in proc.stdout
    proc = subprocess.run([*base, "--good", "HEAD~1", "--no-good-check"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "contradict" in proc.stderr


# --------------------------------------------------------------------------- editable installs


@pytest.mark.parametrize("install", ["pth", "finder"])
def test_good_tree_shadows_an_editable_install(tmp_path, install):
    """The library under test installed in develop mode from the checkout (a .pth path entry, or
    setuptools' editable finder with its MAPPING): the good run imports the good tree's copy."""
    repo = windowed_repo(tmp_path)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    if install == "pth":
        (site / "mylib.pth").write_text(str(repo / "src") + "\n")
    else:
        (site / "__editable___mylib_finder.py").write_text(textwrap.dedent(f"""\
            import importlib.util, sys
            MAPPING = {{"mylib": {str(repo / "src" / "mylib")!r}}}
            class _EditableFinder:
                @classmethod
                def find_spec(cls, fullname, path=None, target=None):
                    if fullname in MAPPING:
                        return importlib.util.spec_from_file_location(
                            fullname, MAPPING[fullname] + "/__init__.py", submodule_search_locations=[MAPPING[fullname]])
                    return None
            def install():
                sys.meta_path.append(_EditableFinder)
            """))
        (site / "__editable__.mylib.pth").write_text("import __editable___mylib_finder; "
                                                     "__editable___mylib_finder.install()\n")
    script = repo / "tests" / "check_windowed.py"
    policy = MatchPolicy()
    spec = RunSpec(script=script, python=str(python), timeout=20)
    rep = establish(spec, policy, runs=1)
    assert rep.signature.exc_type == "AssertionError"  # the checkout's (broken) library is the one imported
    good = prepare_good_code(good_rev(repo, "HEAD"), True, Check(spec, policy, expected=rep.signature))
    try:
        assert good.import_path == [str(good.tree / "src")]
        assert good.check.run(CHECK_WINDOWED).ok  # passes with the good tree's library
    finally:
        good.close()
    assert not good.tree.exists()


# --------------------------------------------------------------------------- folded code


BAD = """\
# --- folded in from helper.py ---
def square(n):
    return n * n + (n > 2)


def cube(n):
    return n * n * n

# --- check.py ---
got = square(3)
assert got == 9
"""
GOOD = BAD.replace("    return n * n + (n > 2)\n", "    if n < 0:\n        raise ValueError(n)\n    return n * n\n")


def test_foldmap_maps_the_changed_lines_and_leaves_the_rest():
    fold = FoldMap(BAD, GOOD)
    assert fold(BAD) == GOOD
    reduced = "def square(n):\n    return n * n + (n > 2)\ngot = square(3)\nassert got == 9\n"
    assert fold(reduced) == "def square(n):\n    if n < 0:\n        raise ValueError(n)\n    return n * n\n" \
                            "got = square(3)\nassert got == 9\n"
    gone = "n = 3\nvalue = n * n + (n > 2)\n"  # the changed line is gone (this one is another): nothing to undo
    assert fold(gone) == gone
    dedented = "n = 3\nif True:\n        return n * n + (n > 2)\n"
    assert fold(dedented).endswith("        if n < 0:\n            raise ValueError(n)\n        return n * n\n")


def test_foldmap_refuses_edited_or_ambiguous_lines():
    bad = "def f(x):\n    y = x + 1\n    z = y * 2\n    return z\n"
    good = "def f(x):\n    y = x - 1\n    z = y * 3\n    return z\n"
    fold = FoldMap(bad, good)
    assert fold("def f(x):\n    y = x + 1\n    z = y\n    return z\n") is None  # half the hunk edited
    assert fold("y = x + 1\nz = y * 2\ny = x + 1\nz = y * 2\n") is None  # ambiguous
    assert fold("def f(x):\n    return x\n") == "def f(x):\n    return x\n"
    insert = FoldMap("a = 1\nb = 2\n", "a = 1\nfix = 0\nb = 2\n")
    assert insert("a = 1\nc = 3\n") == "a = 1\nfix = 0\nc = 3\n"
    assert insert("c = 3\n") == "c = 3\n"
    assert FoldMap(BAD, BAD).identity


# --------------------------------------------------------------------------- a bug in the script itself

SELF_GOOD = """\
def windowed(seq, n):
    for i in range(len(seq) - n + 1):
        yield tuple(seq[i:i + n])


def reference(seq, n):
    out = []
    for i in range(len(seq) - n + 1):
        out.append(tuple(seq[i:i + n]))
    return out


data = [1, 2, 3, 4]
got = list(windowed(data, 2))
expected = reference(data, 2)
assert got == expected, (got, expected)
"""
# the regression: two lines where the good code has one
SELF_BAD = SELF_GOOD.replace("    for i in range(len(seq) - n + 1):\n        yield",
                             "    stop = len(seq) - n\n    for i in range(stop):\n        yield", 1)


def self_bug_repo(tmp_path: Path) -> Path:
    """The script is good in the first commit, has the bug in the second (HEAD): --good HEAD~1."""
    repo = make_repo(tmp_path / "repo", {"check_self.py": SELF_GOOD}, {"check_self.py": SELF_BAD})
    git(repo, "commit", "-qam", "regression")
    return repo


def git_dir_hash(repo: Path) -> str:
    """Every byte of .git (index, refs, objects, logs): the fix check only reads it."""
    digest = hashlib.sha256()
    for p in sorted((repo / ".git").rglob("*")):
        if p.is_file():
            digest.update(str(p.relative_to(repo)).encode() + b"\0" + p.read_bytes())
    return digest.hexdigest()


def self_good_code(repo: Path):
    script = repo / "check_self.py"
    policy = MatchPolicy()
    spec = RunSpec(script=script, python=sys.executable, timeout=20)
    rep = establish(spec, policy, runs=1)
    good = prepare_good_code(good_rev(repo, "HEAD~1"), False, Check(spec, policy, expected=rep.signature))
    good.fold = good_form_map(SELF_BAD, good.check.spec.script, good.script_source, folded=False)
    return good


def test_script_diff_maps_candidates_to_their_good_form(tmp_path):
    repo = self_bug_repo(tmp_path)
    before, before_git = snapshot(repo), git_dir_hash(repo)
    good = self_good_code(repo)
    try:
        assert good.script_source == SELF_GOOD and good.fold is not None
        assert good.good_form(SELF_BAD) == SELF_GOOD
        assert not good.check.run(SELF_BAD).ok  # the script as it is fails on REV's tree too: it carries the bug
        assert good.run(SELF_BAD).ok  # its good form passes
        # keeps the buggy lines as written: mapped, passes there
        kept = ("def windowed(seq, n):\n    stop = len(seq) - n\n    for i in range(stop):\n"
                "        yield tuple(seq[i:i + n])\nassert list(windowed([1, 2], 2)) == [(1, 2)]\n")
        assert good.run(kept).ok
        # deletes the buggy hunk (the same AssertionError without the bug): runs unchanged there, fails
        deleted = "got = []\nexpected = [(1, 2)]\nassert got == expected, (got, expected)\n"
        assert good.good_form(deleted) == deleted
        outcome = good.run(deleted)
        assert outcome is not None and not outcome.ok
        # edits the buggy hunk (one line kept, one changed): no good form, rejected without a run
        edited = kept.replace("range(stop)", "range(stop - 0)")
        runs = good.runs
        assert good.run(edited) is None and good.runs == runs and good.unmapped == 1
        assert good.rejected == 2
    finally:
        good.close()
    assert git_dir_hash(repo) == before_git and snapshot(repo) == before


def test_good_rev_reduction_keeps_a_bug_in_the_script_itself(tmp_path):
    repo = self_bug_repo(tmp_path)
    script = repo / "check_self.py"
    before_git = git_dir_hash(repo)
    before = snapshot(repo)
    plain = minimize(script, tmp_path / "plain.py")
    assert "stop" not in Path(plain.output).read_text()  # without the check the bug is reduced away
    report = minimize(script, tmp_path / "checked.py", good=good_rev(repo, "HEAD~1"))
    assert git_dir_hash(repo) == before_git and snapshot(repo) == before
    result = Path(report.output).read_text()
    fix = report.fix_check
    assert report.verified and fix["verified"] is True and fix["script_mapped"] and not fix["folded_mapped"]
    assert fix["rejected"] > 0
    assert "    stop = len(seq) - n\n" in result and "range(stop)" in result  # the lines the fix changes, as written
    mapped = FoldMap(SELF_BAD, SELF_GOOD)(result)
    assert mapped is not None and "range(len(seq) - n + 1)" in mapped
    assert run_with(result, tmp_path / "r1", tmp_path).returncode != 0
    assert run_with(mapped, tmp_path / "r2", tmp_path).returncode == 0, mapped
    assert script.read_text() == SELF_BAD


def test_automatic_check_ignores_the_scripts_own_uncommitted_diff(tmp_path):
    """HEAD because a module changed: the script (edited too, uncommitted) runs as the user has it."""
    repo = make_repo(tmp_path / "repo", {"helper.py": "def one():\n    return 1\n",
                                         "check.py": "import helper\nassert helper.one() == 1\n"},
                     {"helper.py": "def one():\n    return 2\n",
                      "check.py": "import helper\nprint('debug')\nassert helper.one() == 1\n"})
    good = uncommitted_changes(repo, exclude=(repo / "check.py",))
    assert good is not None and good.changed == ["helper.py"]
    policy = MatchPolicy()
    spec = RunSpec(script=repo / "check.py", python=sys.executable, timeout=20)
    rep = establish(spec, policy, runs=1)
    code = prepare_good_code(good, True, Check(spec, policy, expected=rep.signature))
    try:
        assert code.script_source is None and code.fold is None
        assert code.good_form("print('debug')\n") == "print('debug')\n"
    finally:
        code.close()
    report = minimize(repo / "check.py", tmp_path / "out.py", good_auto=True)
    assert report.fix_check is not None and not report.fix_check["script_mapped"] and report.verified


def test_good_rev_leaves_a_script_that_passes_there_as_it_is_unmapped(tmp_path):
    """The script gained a check since REV, the bug is in the library: the script as it is passes on
    REV's tree, so its diff is not mapped (the new lines are checked there, not dropped)."""
    repo = windowed_repo(tmp_path)
    script = repo / "tests" / "check_windowed.py"
    script.write_text(CHECK_WINDOWED + "assert list(windowed([1, 2, 3], 3)) == [(1, 2, 3)]\n")
    git(repo, "commit", "-qam", "regression, and one more check")
    report = minimize(script, tmp_path / "out.py", env={"PYTHONPATH": str(repo / "src")},
                      good=good_rev(repo, "HEAD~1"))
    assert report.verified and report.fix_check["verified"] is True and not report.fix_check["script_mapped"]
    assert "windowed" in Path(report.output).read_text()


WORKER_BAD = """\
def work(todo, done):
    while True:
        item = todo.get()
        try:
            check(item)
        except ValueError:
            continue
        done.append(item)
        todo.task_done()


def unrelated():
    a = 1
    b = 2
    c = 3
    return 0
"""
WORKER_GOOD = WORKER_BAD.replace("""\
            continue
        done.append(item)
        todo.task_done()
""", """\
            continue
        finally:
            todo.task_done()
        done.append(item)
""").replace("    return 0\n", "    return a + b + c\n")


def test_foldmap_hunks_of_one_region_stand_or_fall_together():
    fold = FoldMap(WORKER_BAD, WORKER_GOOD)
    assert fold(WORKER_BAD) == WORKER_GOOD
    assert [h.group for h in fold.hunks] == [0, 0, 1]  # the task_done() move is one region, unrelated() another
    # the skipped task_done() removed, the continue kept: the fix's finally would fix another bug
    partial = "def work(todo):\n    while True:\n        try:\n            pass\n        except ValueError:\n" \
              "            continue\n"
    assert fold(partial) is None
    # the whole region kept (unrelated() gone: another region) maps; the whole region gone runs unchanged
    kept = WORKER_BAD.split("\n\n\n")[0] + "\n"
    assert fold(kept) == WORKER_GOOD.split("\n\n\n")[0] + "\n"
    gone = "import queue\nq = queue.Queue()\nq.put(0)\nq.join()\n"
    assert fold(gone) == gone


# --------------------------------------------------------------------------- materialization, good side
# The fix changes a width; the script takes the square root of what is left (math domain error, raised by
# the library: values may become literals). A literal of the width, or of anything computed from it, would
# freeze the bug's value: such a candidate fails on the good code too.
WIDTH_GOOD = "def width(cfg):\n    return cfg['dim'] - 16\n"
WIDTH_BAD = "def width(cfg):\n    return cfg['dim']\n"
USE_WIDTH = """\
import math

from mylib import width

cfg = {"dim": 64}
w = width(cfg)
left = 50 - w
print(math.sqrt(left))
"""


def test_values_the_fix_changes_are_not_materialized(tmp_path, monkeypatch):
    repo = make_repo(tmp_path / "repo", {"src/mylib/__init__.py": WIDTH_GOOD, "use_width.py": USE_WIDTH},
                     {"src/mylib/__init__.py": WIDTH_BAD})
    script, src = repo / "use_width.py", repo / "src"
    good_src = export_commit(good_rev(repo, "HEAD"), tmp_path / "head")
    found: list[set[str]] = []  # per probe: the texts of the sites whose values differ on the good code
    real = mz.differing_sites

    def spy(source, spans, *rest):
        differ = real(source, spans, *rest)
        found.append({source[spans[i][0]:spans[i][1]] for i in differ})
        return differ

    monkeypatch.setattr(mz, "differing_sites", spy)
    report = minimize(script, tmp_path / "a.py", env={"PYTHONPATH": str(src)}, good_auto=True)
    assert report.verified and report.fix_check is not None
    assert run_with(Path(report.output).read_text(), tmp_path / "good", good_src / "src").returncode == 0
    # the first probe, on the original: the width and what is computed from it differ, cfg does not
    assert found and {"width(cfg)", "w", "50 - w"} <= found[0] and "cfg" not in found[0]
    assert report.probes >= 2 * len(found)  # each of those probes ran on both sides
    # without a fix check: one side only, nothing compared
    found.clear()
    plain = minimize(script, tmp_path / "b.py", env={"PYTHONPATH": str(src)})
    assert plain.fix_check is None and not found


INVENTORY = """\
    import csv
    import io

    from stock import below_minimum

    STOCK = '''sku;name;qty;min
    A-100;bolt;50;10
    B-200;nut;250;100
    C-300;washer;100;20
    D-400;rivet;80;50
    E-500;pin;30;30
    '''


    def parse(text):
        return list(csv.DictReader(io.StringIO(text), delimiter=";"))


    for row in parse(STOCK):
        if below_minimum(row):
            raise ValueError(f"reorder {row['sku']}: {row['qty']} left, minimum {row['min']}")
    """
STOCK_GOOD = """\
    def below_minimum(row):
        return int(row["qty"]) < int(row["min"])
    """


def test_a_fix_check_lets_the_data_rows_the_bug_does_not_need_go(tmp_path):
    """The failure is raised by the script's own code, so its values stay code (the cause rule): the
    rows of the pasted CSV stay without a fix check. With one, the rows the failure does not need go:
    a row the bug needed could not (without it the candidate passes, or it fails on the good code too)."""
    bad = STOCK_GOOD.replace('int(row["qty"]) < int(row["min"])', 'row["qty"] < row["min"]')
    repo = make_repo(tmp_path / "repo", {"inventory.py": INVENTORY, "stock.py": STOCK_GOOD}, {"stock.py": bad})
    script = repo / "inventory.py"
    assert "reorder C-300: 100 left" in subprocess.run([sys.executable, str(script)], capture_output=True,
                                                     text=True).stderr  # '100' < '20'; 100 < 20 is not
    checked = minimize(script, tmp_path / "checked.py", good_auto=True)
    plain = minimize(script, tmp_path / "plain.py")
    assert checked.fix_check is not None and checked.verified and plain.fix_check is None and plain.verified
    with_check, without = Path(checked.output).read_text(), Path(plain.output).read_text()
    rows = ("A-100;bolt", "B-200;nut", "C-300;washer", "D-400;rivet", "E-500;pin")
    assert all(row in without for row in rows), without  # the cause rule alone: the data stays
    assert "string-lines" in checked.passes and "string-lines" not in plain.tests_by_pass
    assert [row for row in rows if row in with_check] == ["C-300;washer"], with_check  # the row that fails
    assert 'row["qty"] < row["min"]' in with_check, with_check


@pytest.mark.parametrize("good_form, said", [
    ('value = 2\nraise KeyError("not fixed after all")\n', "(it ends with KeyError: 'not fixed after all')"),
    ("import time\ntime.sleep(60)\nvalue = 2\n", "(it timed out after 3 s)"),
], ids=["raises", "hangs"])
def test_explicit_good_error_says_what_the_scripts_own_good_form_did(tmp_path, good_form, said):
    """--good REV where the bug is in the script: when REV's form of the script does not pass either, the error
    says how it ended (it said only that the original fails there: a fixed script that compiles longer than the
    failing one, and times out, read as "the original fails the same way")."""
    repo = make_repo(tmp_path / "r", {"app.py": good_form}, {})
    (repo / "app.py").write_text("value = 1\nassert value == 2, value\n")
    git(repo, "commit", "-qam", "bad")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(repo / "app.py"), "--runs", "1",
                           "--timeout", "3", "--good", "HEAD~1", "-o", str(tmp_path / "o.py"), "-q"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "the original also fails on HEAD~1" in proc.stderr and "(it fails the same way)" in proc.stderr
    assert re.search(r"; the script as it is at HEAD~1 \(\w+\) does not pass either " + re.escape(said), proc.stderr), \
        proc.stderr
    assert "Traceback" not in proc.stderr


# (not `slow`: the fixed script sleeps past the per-candidate timeout, twice, ~40 s of waiting, no computing: under
# the default run's 4 workers a waiting test costs the 2 cores nothing; the slow run has 2 workers, both computing)
def test_good_code_may_run_longer_than_the_failing_original(tmp_path):
    """The fixed script runs past the point where the buggy one failed (r01-02: a fixed torch.compile compiles
    what the failing one refused): on the good code the original gets the run's own timeout (--timeout), not
    the per-candidate one the failing original's quick runs set (it timed out, and --good was an error)."""
    repo = make_repo(tmp_path / "r", {"app.py": "import time\ntime.sleep(16)\nvalue = 2\nassert value == 2, value\n"},
                     {})
    (repo / "app.py").write_text("value = 1\nassert value == 2, value\n")
    git(repo, "commit", "-qam", "bad")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(repo / "app.py"), "--runs", "1",
                           "--timeout", "60", "--good", "HEAD~1", "-o", str(tmp_path / "o.py"), "--budget", "120"],
                          capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "fix check" in proc.stdout and "the result passes there" in proc.stdout, proc.stdout


def test_explicit_good_error_says_when_the_scripts_fix_cannot_be_mapped(tmp_path):
    """The fix is in the script, on a line that occurs twice and that the lines before it cannot tell apart
    (the script's first line; r01-07's second export is told apart by its call's lines above: it maps): the fix
    check cannot carry it onto candidates; the error says so (it said only that the original fails the same
    way there)."""
    repo = make_repo(tmp_path / "r", {"app.py": "value = 2\nfirst = value\nvalue = 1\nassert first == 2, first\n"}, {})
    (repo / "app.py").write_text("value = 1\nfirst = value\nvalue = 1\nassert first == 2, first\n")
    git(repo, "commit", "-qam", "bad")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(repo / "app.py"), "--runs", "1",
                           "--timeout", "30", "--good", "HEAD~1", "-o", str(tmp_path / "o.py"), "-q"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "the original also fails on HEAD~1" in proc.stderr
    assert "but its change cannot be carried onto a candidate (a line the change touches occurs more than once" \
        in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
