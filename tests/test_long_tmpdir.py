"""A long ``$TMPDIR``: a run's own temp dir is deeper still, and the unix sockets multiprocessing makes there
(``<TMPDIR>/pymp-*/listener-*``) must fit the kernel's 107 characters. Runs get their ``$TMPDIR`` through a short
link in /tmp, made per session and removed with it; a killed reportkit's links go with its session dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reportkit.run import sandbox

FORKSERVER = textwrap.dedent("""
    import multiprocessing as mp
    import os

    def square(x):
        return x * x

    if __name__ == "__main__":
        with mp.get_context("forkserver").Pool(2) as pool:
            values = pool.map(square, [1, 2, 3])
        raise ValueError(f"pool gave {values}")
""").lstrip()


@pytest.fixture
def aliases(tmp_path, monkeypatch):
    where = tmp_path / "links"
    where.mkdir()
    monkeypatch.setattr(sandbox, "ALIAS_DIR", str(where))
    monkeypatch.setattr(sandbox, "_aliases", {})
    return where


def test_a_session_dir_too_deep_for_sockets_gets_a_short_alias(tmp_path, aliases):
    deep = tmp_path / ("t" * 60) / (sandbox.SESSION_PREFIX + "abcdefgh")
    deep.mkdir(parents=True)
    alias = sandbox.make_alias(deep)
    assert alias is not None and alias.parent == aliases and os.readlink(alias) == str(deep)
    run_tmp = deep / "reportkit-12345678" / "run-12345678" / "tmp"
    short = sandbox.short_path(run_tmp)
    assert short == f"{alias}/reportkit-12345678/run-12345678/tmp"
    in_tmp = "/tmp/" + alias.name + short[len(str(alias)):]  # (where the real links go)
    assert len(in_tmp) + len("/pymp-xxxxxxxx/listener-xxxxxxxx") <= sandbox.SUN_PATH_MAX
    assert sandbox.short_path(tmp_path / "elsewhere") == str(tmp_path / "elsewhere")
    sandbox.drop_alias(deep)
    assert not os.path.lexists(alias) and sandbox.short_path(run_tmp) == str(run_tmp)


def test_a_session_dir_where_sockets_fit_keeps_its_path(aliases):
    assert sandbox.make_alias(Path("/tmp") / (sandbox.SESSION_PREFIX + "abcdefgh")) is None
    assert os.listdir(aliases) == []


def test_an_existing_name_is_never_replaced(tmp_path, aliases, monkeypatch):
    """Another user's link at the drawn name stays theirs: the next name is drawn."""
    names = iter([bytes.fromhex("aaaaaaaaaaaa"), bytes.fromhex("bbbbbbbbbbbb")])
    monkeypatch.setattr(sandbox.os, "urandom", lambda n: next(names))
    theirs = aliases / (sandbox.ALIAS_PREFIX + "aaaaaaaaaaaa")
    theirs.symlink_to("/somewhere/else")
    deep = tmp_path / ("t" * 80) / (sandbox.SESSION_PREFIX + "x")
    deep.mkdir(parents=True)
    alias = sandbox.make_alias(deep)
    assert alias == aliases / (sandbox.ALIAS_PREFIX + "bbbbbbbbbbbb")
    assert os.readlink(theirs) == "/somewhere/else"


def test_only_aliases_of_gone_sessions_are_removed(tmp_path, aliases):
    temp = tmp_path / "temp"
    live = temp / (sandbox.SESSION_PREFIX + "live")
    live.mkdir(parents=True)
    links = {name: aliases / (sandbox.ALIAS_PREFIX + name) for name in ("gone", "live", "other", "file", "orphan")}
    links["gone"].symlink_to(temp / (sandbox.SESSION_PREFIX + "gone"))
    links["live"].symlink_to(live)
    (tmp_path / "another-temp").mkdir()
    links["other"].symlink_to(tmp_path / "another-temp" / (sandbox.SESSION_PREFIX + "gone"))  # not this $TMPDIR's
    links["file"].write_text("not a link\n")
    # a $TMPDIR that is gone with the session in it (a test's tmp_path): its reportkit will never clean it
    links["orphan"].symlink_to(tmp_path / "removed-temp" / (sandbox.SESSION_PREFIX + "gone"))
    assert sorted(sandbox.remove_dead_aliases(temp)) == sorted([str(links["gone"]), str(links["orphan"])])
    assert [n for n, p in links.items() if os.path.lexists(p)] == ["live", "other", "file"]


@pytest.mark.parametrize("mode", ["", "fallback"])
def test_a_forkserver_pool_runs_under_a_long_tmpdir(tmp_path, mode):
    """Before: "AF_UNIX path too long" from multiprocessing, a failure the script does not have."""
    script = tmp_path / "app" / "pool.py"
    script.parent.mkdir()
    script.write_text(FORKSERVER)
    temp = tmp_path / ("t" * 60)
    temp.mkdir()
    before = {p for p in os.listdir(sandbox.ALIAS_DIR) if p.startswith(sandbox.ALIAS_PREFIX)}
    env = {**os.environ, "TMPDIR": str(temp), "REPORTKIT_SANDBOX": mode}
    proc = subprocess.run([sys.executable, "-m", "reportkit", "check", "--json", "--runs", "1", "--confirm-runs", "1",
                           "--timeout", "120", str(script)], capture_output=True, text=True, env=env, timeout=400)
    assert proc.returncode == 0, proc.stderr
    signature = json.loads(proc.stdout)["signature"]
    assert (signature["exc_type"], signature["message"]) == ("ValueError", "pool gave [N, N, N]")
    left = {p for p in os.listdir(sandbox.ALIAS_DIR) if p.startswith(sandbox.ALIAS_PREFIX)} - before
    assert not [p for p in left if os.readlink(os.path.join(sandbox.ALIAS_DIR, p)).startswith(str(temp))]


def test_sockets_bound_through_a_link_are_not_masked_for_other_runs(tmp_path, aliases):
    """Another run's socket, bound by its link's path (its forkserver's listener), comes and goes like every run's:
    masking it for a new bubblewrap run failed that run's setup once it was gone ("Can't mkdir parents"), 42 tests
    of a suite running beside a long-$TMPDIR reportkit."""
    import socket

    session = tmp_path / (sandbox.SESSION_PREFIX + "x")
    (session / "run").mkdir(parents=True)
    session.chmod(0o700)
    link = aliases / (sandbox.ALIAS_PREFIX + "abc")
    link.symlink_to(session)
    path = str(link / "run" / "l.sock")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(path)
        server.listen(1)
        assert path in sandbox._confine.host_unix_sockets()
        assert path not in sandbox.bwrap_masks([])
    finally:
        server.close()
