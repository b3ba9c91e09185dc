"""reportkit's own Landlock layer (reportkit/run/landlock.py), tested directly: a forked child confines itself
and tries each forbidden thing (EACCES / EPERM / EXDEV) and each allowed one (works), as root and as nobody."""

from __future__ import annotations

import encodings.idna  # noqa: F401 - imported here: a child as nobody may not read the stdlib
import errno
import json
import os
import shutil
import signal
import socket
import tempfile
import uuid
from pathlib import Path

import pytest

from reportkit.run import landlock

pytestmark = pytest.mark.skipif(landlock.abi() < 1, reason="this kernel has no Landlock")


def test_abi_negotiation_drops_what_the_kernel_lacks():
    every = landlock.WRITE_RIGHTS
    assert landlock.fs_rights(7, every) == every
    one = landlock.fs_rights(1, every)
    for name in ("REFER", "TRUNCATE", "IOCTL_DEV"):
        assert not one & landlock.ACCESS_FS[name]
    assert landlock.fs_rights(3, every) & landlock.ACCESS_FS["TRUNCATE"]
    assert not landlock.fs_rights(4, every) & landlock.ACCESS_FS["IOCTL_DEV"]
    ruleset = landlock.Ruleset(version=3, tcp=False)  # an older ABI on this kernel: no net, no scopes
    try:
        assert ruleset.handled()["net"] == [] and ruleset.handled()["scoped"] == []
        assert "TRUNCATE" in ruleset.handled()["fs"] and "IOCTL_DEV" not in ruleset.handled()["fs"]
    finally:
        ruleset.close()


def _in_child(fn, user: str) -> dict:
    """Run ``fn()`` (returns a dict) in a forked child, as ``user``; its result."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            if user == "nobody":
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            out = fn()
        except BaseException as exc:  # noqa: BLE001
            out = {"crash": repr(exc)}
        os.write(write, json.dumps(out).encode())
        os._exit(0)
    os.close(write)
    data = b""
    while chunk := os.read(read, 65536):
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(data)


def _try(fn) -> str:
    try:
        fn()
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))


@pytest.mark.parametrize("user", ["root", "nobody"])
def test_a_confined_child_can_only_write_beneath_what_it_was_allowed(user):
    if os.geteuid() != 0 and user == "root":
        pytest.skip("not root")
    tmp_path = Path(tempfile.mkdtemp(prefix="rk-landlock-", dir="/tmp"))  # nobody can reach it (not pytest's)
    try:
        _confined_child(tmp_path, user)
    finally:
        shutil.rmtree(tmp_path, ignore_errors=True)


def _confined_child(tmp_path: Path, user: str) -> None:
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (outside / "file.txt").write_text("keep\n")
    (allowed / "mine.txt").write_text("mine\n")
    tmp_path.chmod(0o777)
    for path in (allowed, outside, outside / "file.txt", allowed / "mine.txt"):
        path.chmod(0o777 if path.is_dir() else 0o666)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    abstract = socket.socket(socket.AF_UNIX)
    name = "\0reportkit-landlock-" + uuid.uuid4().hex[:8]
    abstract.bind(name)
    abstract.listen()
    parent = os.getpid()

    def attempts():
        summary = landlock.confine([str(allowed)], ["/dev/null"], tcp=False)
        o, a = str(outside), str(allowed)
        child = os.fork()
        if child == 0:
            os.closerange(3, 4096)  # not the result pipe
            signal.pause()
            os._exit(0)
        out = {
            "summary": summary,
            "write": _try(lambda: open(o + "/file.txt", "w")),
            "create": _try(lambda: open(o + "/new.txt", "x")),
            "truncate": _try(lambda: os.truncate(o + "/file.txt", 0)),
            "unlink": _try(lambda: os.unlink(o + "/file.txt")),
            "mkdir": _try(lambda: os.mkdir(o + "/d")),
            "symlink": _try(lambda: os.symlink("/etc/passwd", o + "/l")),
            "fifo": _try(lambda: os.mkfifo(o + "/f")),
            "rename-out": _try(lambda: os.rename(a + "/mine.txt", o + "/moved.txt")),
            "link-in": _try(lambda: os.link(o + "/file.txt", a + "/linked.txt")),
            "tcp-connect": _try(lambda: socket.create_connection(("127.0.0.1", port), timeout=2)),
            "tcp-bind": _try(lambda: socket.socket().bind(("127.0.0.1", 0))),
            "signal-parent": _try(lambda: os.kill(parent, 0)),
            "abstract": _try(lambda: socket.socket(socket.AF_UNIX).connect(name)),
            # allowed
            "own-child": _try(lambda: os.kill(child, signal.SIGKILL)),
            "write-in": _try(lambda: open(a + "/new.txt", "w").write("x")),
            "mkdir-in": _try(lambda: os.mkdir(a + "/d")),
            "rename-in": _try(lambda: os.rename(a + "/new.txt", a + "/d/new.txt")),
            "unlink-in": _try(lambda: os.unlink(a + "/d/new.txt")),
            "devnull": _try(lambda: open("/dev/null", "w").write("x")),
            "read-out": _try(lambda: open(o + "/file.txt").read()),
            "udp": _try(lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).bind(("127.0.0.1", 0))),
        }
        if out["own-child"] != "ok":
            os.kill(child, signal.SIGKILL)  # (refused: then the test fails, it does not hang)
        os.waitpid(child, 0)
        return out

    try:
        out = _in_child(attempts, user)
    finally:
        listener.close()
        abstract.close()
    assert "crash" not in out, out
    assert out["summary"]["abi"] == landlock.abi()
    for name in ("write", "create", "truncate", "unlink", "mkdir", "symlink", "fifo", "tcp-connect", "tcp-bind"):
        assert out[name] == "EACCES", (name, out)
    assert out["rename-out"] in ("EXDEV", "EACCES") and out["link-in"] in ("EXDEV", "EACCES"), out
    if landlock.abi() >= 6:
        assert out["signal-parent"] == "EPERM" and out["abstract"] == "EPERM", out
    for name in ("own-child", "write-in", "mkdir-in", "rename-in", "unlink-in", "devnull", "read-out", "udp"):
        assert out[name] == "ok", (name, out)
    assert (outside / "file.txt").read_text() == "keep\n" and sorted(p.name for p in outside.iterdir()) == ["file.txt"]
