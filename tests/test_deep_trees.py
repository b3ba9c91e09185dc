"""A run's directory tree of any depth (1,500 levels: more than Python's recursion limit) is removed and scrubbed
without a traceback. ``shutil.rmtree`` and ``os.walk`` recurse once per level before Python 3.13/3.12: such a tree
made ``check`` end in a RecursionError, and its session dir, left behind, made every later reportkit command of that
user end the same way while it cleaned up stale sessions (found when a blind round of sandbox attacks shared the
machine with the suite)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from reportkit.io import SCRUB_DEPTH, remove_tree, scrub_tree

DEEP = 1500


@pytest.fixture
def deep_tmp(tmp_path):
    """``tmp_path``, emptied at the end whatever happened (pytest's own clean-up of old temp dirs recurses per
    level too: a deep tree a failed test left would end a later session in a RecursionError)."""
    yield tmp_path
    for child in list(tmp_path.iterdir()):
        remove_tree(child)


def _deep_tree(top, depth: int = DEEP) -> None:
    """``top/d/d/.../d`` ``depth`` levels down (made one level at a time: ``os.makedirs`` recurses too), a file
    and a link at the bottom, a directory without permissions half-way."""
    os.mkdir(top)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for level in range(depth):
            os.mkdir("d", dir_fd=fd)
            child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            if level == depth // 2:
                os.fchmod(fd, 0o100)  # (its owner may pass through, not list nor delete)
            os.close(fd)
            fd = child
        with open(os.open("bottom.txt", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd), "w") as fh:
            fh.write("x")
        os.symlink("/etc/passwd", "link", dir_fd=fd)
    finally:
        os.close(fd)


def test_remove_tree_removes_a_tree_deeper_than_the_recursion_limit(deep_tmp):
    tmp_path = deep_tmp
    top = tmp_path / "scratch"
    _deep_tree(top)
    remove_tree(top)
    assert not os.path.lexists(top)
    assert os.path.isdir(tmp_path) and os.stat(tmp_path).st_mode & 0o700 == 0o700  # (its parent is left as it was)


def test_scrub_tree_cuts_a_deep_tree_and_removes_links_above_the_cut(deep_tmp):
    tmp_path = deep_tmp
    top = tmp_path / "scratch"
    _deep_tree(top)
    shallow = top / "d" / "d" / "d"
    os.symlink("/etc/passwd", shallow / "link")
    os.mkfifo(shallow / "fifo")
    assert scrub_tree(top) == 3  # the link, the FIFO, the directory at the cut
    assert not os.path.lexists(shallow / "link") and not os.path.lexists(shallow / "fifo")
    depth = 0
    path = top
    while (path / "d").is_dir():
        path, depth = path / "d", depth + 1
    assert depth == SCRUB_DEPTH - 1


def test_a_run_that_leaves_a_deep_tree_does_not_break_this_or_later_commands(deep_tmp):
    tmp_path = deep_tmp
    script = tmp_path / "deep.py"
    script.write_text(
        "import os\n"
        "here = os.getcwd()\n"
        f"for _ in range({DEEP}):\n"
        "    os.mkdir('d')\n"
        "    os.chdir('d')\n"
        "os.chdir(here)\n"
        "raise ValueError('boom')\n")
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp")}
    os.mkdir(tmp_path / "tmp")
    # a stale session of an earlier reportkit, ended by SIGKILL with such a run's tree in it
    stale = tmp_path / "tmp" / "reportkit-session-stale"
    _deep_tree(stale, 1200)
    os.chmod(stale, 0o700)
    (stale / "owner").write_text('{"boot": "another boot", "pidns": 0, "pid": 1}')
    done = subprocess.run([sys.executable, "-m", "reportkit", "check", "--json", str(script)], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    assert '"message": "boom"' in done.stdout
    assert not os.path.lexists(stale)
    assert [p.name for p in (tmp_path / "tmp").iterdir() if p.name.startswith("reportkit-session")] == []
