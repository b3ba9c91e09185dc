"""Tests for reportkit.run.gitinfo on throw-away repositories."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest

from reportkit.run import gitinfo
from reportkit.run.gitinfo import repo_info, strip_url_credentials

REPO_ROOT = Path(__file__).resolve().parents[1]
GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV}, check=True, capture_output=True, text=True
    )
    return result.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "a.txt").write_text("a\n")
    (path / "sub" / "deep").mkdir(parents=True)
    (path / "sub" / "deep" / "b.txt").write_text("b\n")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "initial")
    return path


def test_clean_repo(repo):
    info = repo_info(repo)
    sha = git(repo, "rev-parse", "HEAD")
    assert info.toplevel == str(repo)
    assert info.commit == sha and len(sha) == 40
    assert info.short_commit == git(repo, "rev-parse", "--short", "HEAD") and sha.startswith(
        info.short_commit
    )
    assert (info.branch, info.detached, info.dirty) == ("main", False, False)
    assert info.modified_files == [] and info.untracked_files == []
    assert info.remote_url is None
    assert info.describe == info.short_commit
    assert info.error is None


def test_searches_parent_directories(repo):
    info = repo_info(repo / "sub" / "deep" / "b.txt")
    assert info.toplevel == str(repo)
    assert info.commit == git(repo, "rev-parse", "HEAD")


def test_dirty_repo(repo):
    (repo / "a.txt").write_text("changed\n")
    (repo / "staged.txt").write_text("new\n")
    git(repo, "add", "staged.txt")
    git(repo, "mv", "sub/deep/b.txt", "sub/deep/renamed.txt")
    (repo / "untracked.txt").write_text("u\n")
    info = repo_info(repo)
    assert info.dirty is True
    assert sorted(info.modified_files) == ["a.txt", "staged.txt", "sub/deep/renamed.txt"]
    assert info.untracked_files == ["untracked.txt"]
    assert info.describe.endswith("-dirty")


def test_untracked_only_is_not_dirty(repo):
    (repo / "notes.txt").write_text("n\n")
    info = repo_info(repo)
    assert info.dirty is False and info.untracked_files == ["notes.txt"]


@pytest.mark.parametrize("max_files", [0, 3, 7])
def test_file_lists_are_bounded(repo, max_files):
    for i in range(5):
        (repo / f"u{i}.txt").write_text("x")
    (repo / "a.txt").write_text("changed\n")
    info = repo_info(repo, max_files=max_files)
    listed = len(info.modified_files) + len(info.untracked_files)
    assert listed == min(max_files, 6)
    assert info.files_truncated == 6 - listed
    assert info.dirty is True


def test_detached_head(repo):
    first = git(repo, "rev-parse", "HEAD")
    (repo / "a.txt").write_text("second\n")
    git(repo, "commit", "-q", "-am", "second")
    git(repo, "checkout", "-q", "--detach", first)
    info = repo_info(repo)
    assert info.detached is True and info.branch is None
    assert info.commit == first


def test_repo_without_commits(tmp_path):
    git(tmp_path, "init", "-q", "-b", "trunk")
    (tmp_path / "new.py").write_text("print(1)\n")
    info = repo_info(tmp_path)
    assert info is not None
    assert info.commit is None and info.short_commit is None
    assert info.branch == "trunk"
    assert "no commits" in info.error
    assert info.untracked_files == ["new.py"]


def test_not_a_repo(tmp_path):
    (tmp_path / "plain").mkdir()
    assert repo_info(tmp_path / "plain") is None
    assert repo_info(tmp_path / "does" / "not" / "exist") is None


def test_bare_repo(tmp_path):
    git(tmp_path, "init", "-q", "--bare", "-b", "main", "bare.git")
    info = repo_info(tmp_path / "bare.git")
    assert info is not None
    assert "bare repository" in info.error
    assert info.dirty is None and info.commit is None


def test_origin_credentials_are_stripped(repo):
    secret = "s3cr3t-" + "tok" * 5
    git(repo, "remote", "add", "origin", f"https://alice:{secret}@github.com/org/project.git")
    info = repo_info(repo)
    assert info.remote_url == "https://github.com/org/project.git"
    assert secret not in json.dumps(asdict(info)) and "alice" not in json.dumps(asdict(info))


def test_no_origin_but_other_remote(repo):
    git(repo, "remote", "add", "upstream", "https://github.com/org/project.git")
    assert repo_info(repo).remote_url is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://user:pass@github.com/o/r.git", "https://github.com/o/r.git"),
        ("https://x-access-token@github.com/o/r", "https://github.com/o/r"),
        ("http://user:pw@host:8080/path?q=1", "http://host:8080/path?q=1"),
        ("ssh://git:pw@example.com/o/r.git", "ssh://git@example.com/o/r.git"),
        ("ssh://git@example.com/o/r.git", "ssh://git@example.com/o/r.git"),
        ("git@github.com:o/r.git", "git@github.com:o/r.git"),
        ("https://github.com/o/r.git", "https://github.com/o/r.git"),
        ("/srv/git/r.git", "/srv/git/r.git"),
    ],
)
def test_strip_url_credentials(url, expected):
    assert strip_url_credentials(url) == expected


def test_require_tracked(repo, tmp_path):
    (repo / "venv" / "site-packages" / "pkg").mkdir(parents=True)
    assert repo_info(repo / "sub" / "deep", require_tracked=True).toplevel == str(repo)
    assert repo_info(repo / "venv" / "site-packages" / "pkg", require_tracked=True) is None
    assert repo_info(repo / "venv" / "site-packages" / "pkg").toplevel == str(repo)


def test_gitpython_failure_falls_back(repo, monkeypatch):
    def broken():
        raise ImportError("Failed to initialize: Bad git executable.")

    monkeypatch.setattr(gitinfo, "_import_git", broken)
    info = repo_info(repo)
    assert info.commit == git(repo, "rev-parse", "HEAD")
    assert info.branch == "main" and "git unavailable" in info.error


_CHILD = (
    "import json, sys; from dataclasses import asdict; from pathlib import Path;"
    "from reportkit.run.gitinfo import repo_info;"
    "info = repo_info(Path(sys.argv[1])); print(json.dumps(asdict(info) if info else None))"
)


@pytest.mark.parametrize("layout", ["loose", "packed", "detached", "not-a-repo"])
def test_without_git_executable(repo, tmp_path, layout):
    """A real process where GitPython cannot import (no git on PATH) still gets the commit."""
    sha = git(repo, "rev-parse", "HEAD")
    target = repo / "sub"
    if layout == "packed":
        git(repo, "pack-refs", "--all")
        assert not (repo / ".git" / "refs" / "heads" / "main").exists()
    elif layout == "detached":
        git(repo, "checkout", "-q", "--detach")
    elif layout == "not-a-repo":
        target = tmp_path / "plain"
        target.mkdir()
    empty_bin = tmp_path / "empty-bin"
    empty_bin.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_PYTHON")}
    env.update(PATH=str(empty_bin), PYTHONPATH=str(REPO_ROOT))
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(target)], env=env, capture_output=True, text=True, check=True
    ).stdout
    info = json.loads(out)
    if layout == "not-a-repo":
        assert info is None
        return
    assert info["commit"] == sha and info["short_commit"] == sha[:7]
    assert info["toplevel"] == str(repo)
    assert "git unavailable" in info["error"]
    assert (info["branch"], info["detached"]) == ((None, True) if layout == "detached" else ("main", False))
    assert info["dirty"] is None


def _committed(path: Path, files: dict[str, str]) -> Path:
    """A new repository at ``path`` with ``files`` in its first commit."""
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    for name, text in files.items():
        (path / name).write_text(text)
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "initial")
    return path


@pytest.mark.parametrize("layout", ["dot-git-dir", "dot-git-file"])
def test_a_checkouts_own_config_runs_nothing_when_reportkit_reads_it(tmp_path, layout):
    """Round 9 of sandbox attacks: a downloaded project's .git/config (or the config behind a ``.git`` file's
    ``gitdir:``) named programs that git ran, with the user's rights, outside any sandbox, when reportkit read the
    checkout (status, diff, blame, a --good revision's export): ``core.fsmonitor``, a filter driver for the paths
    ``.gitattributes`` names, a diff driver's textconv, a post-checkout hook. Now none runs, and what reportkit reads
    is still right."""
    path = _committed(tmp_path / "project", {".gitattributes": "*.py filter=evil diff=evil\n", "model.py": "x = 1\n"})
    canary = tmp_path / "ran"
    run = f"sh -c 'echo $0 >> {canary}; cat'"
    for key, value in (("core.fsmonitor", f"{run} fsmonitor"), ("filter.evil.clean", f"{run} clean"),
                       ("filter.evil.smudge", f"{run} smudge"), ("filter.evil.process", f"{run} process"),
                       ("filter.evil.required", "true"), ("diff.evil.textconv", f"{run} textconv"),
                       ("diff.evil.command", f"{run} command")):
        git(path, "config", key, value)
    hook = path / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\necho hook >> {canary}\n")
    hook.chmod(0o755)
    if layout == "dot-git-file":  # (the tarball shows no .git/ directory)
        (path / ".git").rename(path / ".cache-x")
        (path / ".git").write_text("gitdir: .cache-x\n")
    control = subprocess.run(["git", "status", "--porcelain"], cwd=path, capture_output=True, text=True,
                             env={**os.environ, **GIT_ENV})
    assert canary.exists(), control.stderr  # (git itself does run them)
    canary.unlink()
    (path / "model.py").write_text("x = 2\n")
    os.utime(path / "model.py", (1, 1))  # (its stat info no longer matches the index: git must read it again)

    info = repo_info(path / "model.py")
    assert info is not None and info.dirty and info.modified_files == ["model.py"], info
    good = gitinfo.good_rev(path / "model.py", "HEAD")
    assert good.changed == ["model.py"]
    assert [(h.file, h.kind, h.old_start, h.new_len) for h in gitinfo.diff_hunks(good)] == [("model.py", "text", 1, 1)]
    assert gitinfo.line_commits(good, "model.py", 1, 1) == ["uncommitted"]
    out = gitinfo.export_commit(good, tmp_path / "good")
    assert (out / "model.py").read_text() == "x = 1\n"
    assert not canary.exists(), canary.read_text()


def test_a_submodules_own_config_runs_nothing_either(tmp_path):
    """Round 10 of sandbox attacks: the submodule's configuration (``.git/modules/sub/config``) is obeyed when git looks
    inside the submodule for changes — the superproject's status, diff and ``describe --dirty`` did, and ran its
    ``core.fsmonitor`` and clean filter. reportkit's calls no longer look inside submodules."""
    canary = tmp_path / "ran"
    sub_src = _committed(tmp_path / "subsrc", {".gitattributes": "*.py filter=evil\n", "m.py": "M = 1\n"})
    path = _committed(tmp_path / "project", {"model.py": "x = 1\n"})
    git(path, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub_src), "sub")
    git(path, "add", ".")
    git(path, "commit", "-q", "-m", "initial")
    hook = tmp_path / "hook.sh"  # (a config file's value cannot hold a ";": it starts a comment there)
    hook.write_text(f"#!/bin/sh\necho \"$1\" >> {canary}\ncat\n")
    run = f"sh {hook}"
    with open(path / ".git" / "modules" / "sub" / "config", "a") as fh:
        fh.write(f"[core]\n\tfsmonitor = {run} fsmonitor\n[filter \"evil\"]\n\tclean = {run} clean\n")
    (path / "sub" / "m.py").write_text("M = 2\n")  # (dirty inside the submodule)
    (path / "model.py").write_text("x = 2\n")
    control = subprocess.run(["git", "status", "--porcelain"], cwd=path, capture_output=True, text=True,
                             env={**os.environ, **GIT_ENV})
    assert canary.exists(), control.stderr  # (git itself does run them)
    canary.unlink()

    info = repo_info(path / "model.py")
    assert info is not None and info.modified_files == ["model.py"] and info.describe.endswith("-dirty"), info
    good = gitinfo.good_rev(path / "model.py", "HEAD")
    assert good.changed == ["model.py"]
    assert [h.file for h in gitinfo.diff_hunks(good)] == ["model.py"]
    assert not canary.exists(), canary.read_text()
