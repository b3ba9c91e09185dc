"""What reportkit writes lands where it says, never through a symbolic link a checkout or a script's directory ships;
what a run leaves unreadable is still removed; what a run prints cannot drive the terminal or start a workflow
command's line."""

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from reportkit.errors import UserError
from reportkit.io import check_output_dir, check_writable, output_file, remove_tree, write_atomic
from reportkit.redact import RedactingStream, shown


def test_a_result_replaces_a_symbolic_link_at_its_name_instead_of_writing_through_it(tmp_path):
    victim = tmp_path / "victim" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("precious\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "job.min.py").symlink_to(victim)
    target = output_file(project / "job.min.py")
    assert target == project.resolve() / "job.min.py"
    write_atomic(target, "x = 1\n")
    assert victim.read_text() == "precious\n"
    assert not (project / "job.min.py").is_symlink() and (project / "job.min.py").read_text() == "x = 1\n"


def test_minimize_does_not_write_the_reproducer_through_a_planted_link(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (tmp_path / "job.py").write_text("x = 1\nraise RuntimeError('boom')\n")
    (tmp_path / "job.min.py").symlink_to(victim)
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--budget", "60", "--cold", "-j", "1",
                           "job.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert victim.read_text() == "precious\n"
    assert "boom" in (tmp_path / "job.min.py").read_text()


@pytest.mark.parametrize("kind", ["link-to-empty-dir", "dangling-link", "file", "full-dir"])
def test_an_output_directory_that_is_a_link_or_not_empty_is_refused(tmp_path, kind):
    out = tmp_path / "reportkit-ci"
    elsewhere = tmp_path / "elsewhere"
    if kind == "link-to-empty-dir":
        elsewhere.mkdir()
        out.symlink_to(elsewhere)
    elif kind == "dangling-link":
        out.symlink_to(elsewhere)
    elif kind == "file":
        out.write_text("x")
    else:
        out.mkdir()
        (out / "old").write_text("x")
    with pytest.raises(UserError, match="symbolic link" if "link" in kind else "not an empty directory"):
        check_output_dir(out)
    assert not elsewhere.exists() or not any(elsewhere.iterdir())


@pytest.mark.parametrize("where", ["dir", "new-dir-under-link", "parent"])
def test_an_output_in_a_directory_that_is_a_link_is_refused(tmp_path, where):
    """Round 30: ``minimize -o <link to a dir>/out.min.py`` wrote the result into the link's target; a bundle or ci
    directory made under a link (its .tar.gz next to it) did too. Every output refuses it the same way."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "outlink").symlink_to(elsewhere)
    name = {"dir": "outlink/out.min.py", "new-dir-under-link": "outlink/new/out.min.py",
            "parent": "outlink/out"}[where]
    with pytest.raises(UserError, match="is a symbolic link; reportkit does not write through one"):
        output_file(tmp_path / name)
    with pytest.raises(UserError, match="is a symbolic link; reportkit does not write through one"):
        check_output_dir(tmp_path / name)
    from reportkit.report.bundle import check_out

    with pytest.raises(UserError, match="symbolic link"):
        check_out(tmp_path / name)
    assert list(elsewhere.iterdir()) == []
    # a link above the output's own directory is the user's path: kept
    (elsewhere / "real").mkdir()
    assert output_file(tmp_path / "outlink" / "real" / "out.min.py") == elsewhere.resolve() / "real" / "out.min.py"


def test_minimize_refuses_an_output_directory_that_is_a_link(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "outlink").symlink_to(elsewhere)
    (tmp_path / "job.py").write_text("x = 1\nraise RuntimeError('boom')\n")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--budget", "30", "--cold", "-j", "1",
                           "-o", "outlink/out.min.py", "job.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "outlink is a symbolic link" in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
    assert list(elsewhere.iterdir()) == []


def test_an_empty_or_absent_output_directory_is_fine(tmp_path):
    check_output_dir(tmp_path / "new")
    (tmp_path / "empty").mkdir()
    check_output_dir(tmp_path / "empty")


def _locked_tree(root: Path) -> None:
    (root / "a" / "b" / "c").mkdir(parents=True)
    (root / "a" / "b" / "c" / "f").write_text("x")
    (root / "a" / "b" / "link").symlink_to("/etc/hostname")
    os.chmod(root / "a" / "b" / "c", 0)
    os.chmod(root / "a" / "b", 0o100)


def test_a_tree_a_run_locked_for_its_own_user_is_removed(tmp_path):
    if os.geteuid() == 0:  # root reads whatever the mode: lock it as another user
        if shutil.which("setpriv") is None:
            pytest.skip("needs setpriv to act as another user")
        base = Path(tempfile.mkdtemp(prefix="rk-locked-"))  # (tmp_path's parents are root's, 0700)
        os.chmod(base, 0o755)
        os.chown(base, 65534, 65534)
        scratch = base / "scratch"
        code = ("import sys; from pathlib import Path; sys.path.insert(0, sys.argv[2]); "
                "from tests.test_output_paths import _locked_tree; from reportkit.io import remove_tree; "
                "_locked_tree(Path(sys.argv[1])); remove_tree(sys.argv[1]); print(Path(sys.argv[1]).exists())")
        root_dir = str(Path(__file__).resolve().parents[1])
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                               code, str(scratch), root_dir], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": root_dir})
        shutil.rmtree(base)
        assert proc.stdout.strip() == "False", proc.stderr
        return
    scratch = tmp_path / "scratch"
    _locked_tree(scratch)
    remove_tree(scratch)
    assert not scratch.exists()


@pytest.mark.parametrize("hiding", ["\x1b[8m", "\x1b[30;40m", "\x1b[2;49;39m", "\x1b[7;30m", "\x1b[38;2;0;0;0m",
                                    "\x1b[48;5;0m", "\x1b[97;107m"])
def test_what_a_run_prints_cannot_hide_text_or_the_rows_after_it(hiding):
    """Blind round 32: an exception's class name and message with the code of concealed text (``ESC[8m``), or black on
    black, hid their own text and, unreset, every row reportkit printed after them (the sandbox row too)."""
    text = f"type       ok{hiding}.E\nmessage    visible {hiding}HIDDEN\n"
    assert "\x1b" not in shown(text) and shown(text) == text.replace("\x1b", "\\x1b")


@pytest.mark.parametrize("colour", ["\x1b[1;31m", "\x1b[0m", "\x1b[32m", "\x1b[m", "\x1b[1m\x1b[33m", "\x1b[22;39m"])
def test_colours_that_hide_nothing_pass(colour):
    assert shown(f"FAILED {colour}test_a\x1b[0m\n") == f"FAILED {colour}test_a\x1b[0m\n"


@pytest.mark.parametrize("control", ["\x1b[2J\x1b[3J\x1b[H", "\x1bP$q m\x1b\\", "\x9b2J", "\x1b]0;title\x07", "\x08\x08\x08"])
def test_what_a_run_prints_cannot_drive_the_terminal(control):
    text = f"RuntimeError: boom{control} after\n"
    assert "\x1b" not in shown(text).replace("\x1b[31m", "") and "\x9b" not in shown(text) and "\x08" not in shown(text)
    written = []

    class Sink:
        def write(self, s):
            written.append(s)

    RedactingStream(lambda: Sink()).write(text)
    assert written == [shown(text)] and written[0].startswith("RuntimeError: boom") and written[0].endswith(" after\n")


@pytest.mark.parametrize("control", ["\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u202a", "\u200f"])
def test_bidi_controls_are_shown_not_obeyed(control):
    """Blind round 8: a failure message's bidi overrides reached the job log, the step summary and issue.md raw
    (text shown in another order than it holds: Trojan Source)."""
    from reportkit.redact import redact_markdown

    text = f"AssertionError: expected {control}admin{control} got user"
    out = shown(text)
    assert control not in out and f"\\u{ord(control):04x}" in out and out.startswith("AssertionError: expected ")
    assert control not in redact_markdown(f"## Failure\n\n{text}\n") and shown("caf\u00e9 \u4e2d") == "caf\u00e9 \u4e2d"


def test_colours_and_line_ends_stay():
    text = "\x1b[1;31mred\x1b[0m\tcol\r\n"
    assert shown(text) == text


# what rich's Live writes to draw reportkit's progress line (recorded): frames, a line printed above it, the end
LIVE_WRITES = ["\x1b[?25l", "run 0/7", "\r\x1b[2Krun 1/7", "\r\x1b[2Kdone phase X\nrun 1/7",
               "\r\x1b[2Krun 2/7\n\x1b[?25h\r\x1b[1A\x1b[2K"]


def test_a_live_displays_frames_keep_their_cursor_moves():
    from reportkit.redact import live_display

    with live_display():
        assert [shown(w, live=True) for w in LIVE_WRITES] == LIVE_WRITES


@pytest.mark.parametrize("control", ["\x1b[1A\x1b[2K", "\rHIDDEN", "\x1b[?25l", "\x1b[12G"])
def test_a_runs_cursor_moves_inside_a_frame_are_escaped(control):
    """A run's message with cursor moves (up, erase, a bare carriage return) cannot hide reportkit's lines, live
    display or not: only a frame's leading and trailing moves are the display's."""
    from reportkit.redact import RedactingStream, live_display

    written = []

    class Sink:
        def write(self, s):
            written.append(s)

    with live_display():
        RedactingStream(lambda: Sink()).write(f"\r\x1b[2Kcheck: fails with ValueError: boom{control} after\n")
    RedactingStream(lambda: Sink()).write(f"ValueError: boom{control} after\n")
    for w in written:
        assert w.count("\x1b") <= 1 and "\x1b[1A" not in w and "\rHIDDEN" not in w, w
        assert "boom\\x" in w, w


def test_a_test_id_with_line_breaks_cannot_start_a_workflow_command_line():
    from reportkit.cli import _one_line

    name = "tests/test_x.py::test_a[\n::add-path::/tmp/evil\n]"
    assert "\n" not in _one_line(name) and "::add-path::" in _one_line(name)


def test_a_failures_note_cannot_start_a_workflow_command_line(capsys):
    """Round 16 of sandbox attacks: ci's console escaped a failure's test id and headline, not the note under it,
    which holds the JUnit class name as written (``classname="tests.test_a&#10;::error::..."``): its own line."""
    from types import SimpleNamespace

    from reportkit.cli import _print_ci_failure

    failure = SimpleNamespace(fingerprint="f" * 16, verdict="error", headline="ValueError: x",
                              tests=["tests/test_a.py::test_b"], regression=None, bundle_dir="",
                              note="no test file under /repo for tests.test_a\n::error::INJECTED")  # the class name
    _print_ci_failure(failure)
    printed = capsys.readouterr().out
    assert "::error::INJECTED" in printed
    assert not any(line.startswith("::") for line in printed.replace("\r", "\n").splitlines())


def test_a_temp_file_swapped_for_a_link_is_never_written_through(tmp_path):
    """Round 9 of sandbox attacks (not promised, fixed): minimize made its temp file safely, then reopened it by
    name (O_TRUNC, links followed) and chmodded it by name; another user of a shared script directory swapped it
    for a link between the calls (inotify), and root's private file became 0644 with the result in it. Now the data
    and the mode go through the descriptor mkstemp opened, and a swapped temp file is not renamed into place."""
    from reportkit.io import replacing

    victim = tmp_path / "victim"
    victim.write_text("private\n")
    victim.chmod(0o600)
    target = tmp_path / "s.min.py"
    with pytest.raises(OSError, match="was replaced while reportkit wrote it"):
        with replacing(target, mode=0o644) as fh:
            temp = next(tmp_path.glob(".s.min.py.*"))
            temp.unlink()
            temp.symlink_to(victim)  # (the racer's move)
            fh.write(b"V7 = 7\n")
    assert victim.read_text() == "private\n" and victim.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim"]  # no result, the link removed
    write_atomic(target, "x = 1\n", mode=0o640)  # (unraced: written, with its mode)
    assert target.read_text() == "x = 1\n" and target.stat().st_mode & 0o777 == 0o640


def test_appended_lines_never_go_through_a_link(tmp_path):
    """Round 11 of sandbox attacks (blind): another user's link planted at REPORTKIT_TRACE's name in a shared
    directory made minimize append its trace (the failure's message in the why column) to the link's target."""
    from reportkit.io import append_text
    from reportkit.reduce.bookkeeping import Trace

    victim = tmp_path / "bashrc"
    victim.write_text("mine\n")
    (tmp_path / "trace.tsv").symlink_to(victim)
    with pytest.raises(OSError):
        append_text(tmp_path / "trace.tsv", "planted\n")
    with pytest.raises(UserError, match="REPORTKIT_TRACE"):
        Trace(tmp_path / "trace.tsv")
    assert victim.read_text() == "mine\n"
    append_text(tmp_path / "plain.tsv", "a\n")  # (a plain file: created, then appended to)
    append_text(tmp_path / "plain.tsv", "b\n")
    assert (tmp_path / "plain.tsv").read_text() == "a\nb\n"


def test_a_result_that_cannot_replace_its_name_is_one_clear_error_and_kept(tmp_path, monkeypatch):
    """Round 11 (blind): as an unprivileged user, a result whose name in a sticky directory was another user's link
    ended in a traceback (os.replace: PermissionError) and was lost; now one clear error that says where it is."""
    import reportkit.io as rio

    (tmp_path / "x.min.py").write_text("old\n")

    def refused(src, dst):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(rio.os, "replace", refused)
    with pytest.raises(UserError, match="cannot write .*x.min.py.*is in ") as info:
        with rio.replacing(tmp_path / "x.min.py") as fh:
            fh.write(b"new\n")
    kept = Path(str(info.value).rsplit(" is in ", 1)[1])
    assert kept.read_text() == "new\n" and (tmp_path / "x.min.py").read_text() == "old\n"


@pytest.mark.parametrize("where", ["proc", "file-as-dir"])
def test_an_output_that_cannot_be_written_is_refused_before_the_work(tmp_path, where):
    """Sandbox attacks round 12 (blind): ``-o`` into a directory reportkit cannot write gave a traceback after the
    whole minimization. It is one line and exit 2 before the original is even run."""
    (tmp_path / "job.py").write_text("raise RuntimeError('boom')\n")
    (tmp_path / "plain").write_text("a file\n")
    target = "/proc/job.min.py" if where == "proc" else str(tmp_path / "plain" / "job.min.py")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--cold", "-j", "1", "job.py", "-o", target],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "cannot write in" in proc.stderr and "running the original" not in proc.stdout
    assert (tmp_path / "plain").read_text() == "a file\n"


def test_a_writable_output_passes_the_check_and_leaves_nothing(tmp_path):
    check_writable(tmp_path / "new" / "deeper" / "job.min.py", "--output")
    check_output_dir(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_a_directory_that_became_unwritable_keeps_the_result_privately(tmp_path):
    (tmp_path / "gone").write_text("now a file\n")  # (the directory was replaced while reportkit worked)
    with pytest.raises(UserError) as err:
        write_atomic(tmp_path / "gone" / "job.min.py", "x = 1\n")
    kept = Path(str(err.value).rsplit(" is in ", 1)[1])
    assert kept.read_text() == "x = 1\n" and "cannot write" in str(err.value)
    assert kept.stat().st_mode & 0o777 == 0o600 and kept.parent.stat().st_mode & 0o777 == 0o700
    shutil.rmtree(kept.parent)


@pytest.mark.skipif(os.geteuid() != 0, reason="making another user's directory needs root")
def test_another_users_empty_directory_in_a_shared_one_is_refused(tmp_path):
    """Sandbox attacks round 12 (blind, not promised then): another local user made ``/tmp/reportkit-ci`` ahead of
    ``ci --out``; everything written there stayed theirs to read and swap."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    (shared / "theirs").mkdir()
    os.chown(shared / "theirs", 65534, 65534)
    with pytest.raises(UserError, match="another user's directory"):
        check_output_dir(shared / "theirs")
    (shared / "mine").mkdir()
    check_output_dir(shared / "mine")  # (one's own, or another's in a directory only its owner writes: fine)
    private = tmp_path / "private"
    private.mkdir()
    (private / "theirs").mkdir()
    os.chown(private / "theirs", 65534, 65534)
    check_output_dir(private / "theirs")


@pytest.fixture
def full_fs(tmp_path):
    """A file system with no space left (a small tmpfs, filled): root only."""
    where = tmp_path / "full"
    where.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(where)],
                                           capture_output=True).returncode:
        pytest.skip("mounting a tmpfs needs root")
    try:
        with open(where / "fill", "wb") as fh:
            with contextlib.suppress(OSError):
                fh.write(b"\0" * 65536)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def test_a_full_disk_is_one_clear_error_and_the_result_is_kept(tmp_path, full_fs):
    (tmp_path / "job.py").write_text("import json\nx = 1\ny = [1, 2, 3]\nraise RuntimeError('boom')\n")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--cold", "-j", "1", "job.py", "-o",
                           str(full_fs / "job.min.py")], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert "No space left on device" in proc.stderr
    kept = Path(proc.stderr.strip().rsplit(" is in ", 1)[1].split()[0])
    assert "RuntimeError('boom')" in kept.read_text() and kept.stat().st_mode & 0o777 == 0o600
    shutil.rmtree(kept.parent)
    assert sorted(p.name for p in full_fs.iterdir()) == ["fill"]  # (no temp file left behind)


def test_an_output_directory_in_a_directory_everyone_may_rename_in_is_refused(tmp_path):
    """Sandbox attacks round 13 (blind): ``ci --out team/cio`` in another user's 0777 directory; 0.4 s after the start
    that user moved ``cio`` aside and put a link to the victim's private directory at its name, and ci wrote its
    bundles, manifest and summary there. Without the sticky bit anyone may rename what reportkit makes in such a
    directory; with it (``/tmp``) only its owner may."""
    team = tmp_path / "team"
    team.mkdir()
    team.chmod(0o777)
    with pytest.raises(UserError, match="writable by everyone or by a group"):
        check_output_dir(team / "cio")
    with pytest.raises(UserError, match="writable by everyone or by a group"):
        check_output_dir(team / "new" / "cio")  # (its nearest existing directory decides)
    team.chmod(0o1777)
    check_output_dir(team / "cio")
    team.chmod(0o775)
    check_output_dir(team / "cio")


@pytest.mark.skipif(os.geteuid() != 0, reason="making a group with another member needs root")
def test_an_output_directory_in_a_directory_a_shared_group_may_write_is_refused(tmp_path):
    """Sandbox attacks round 14 (blind): the same swap of ``ci --out`` in a 0775 directory of a group the victim
    shares with another user. A group-writable directory of a group no one else is in is fine."""
    import grp

    team = tmp_path / "team"
    team.mkdir()
    shared = next((g for g in grp.getgrall() if g.gr_gid != 0 and (g.gr_mem or any(
        p.pw_gid == g.gr_gid and p.pw_uid != 0 for p in __import__("pwd").getpwall()))), None)
    if shared is None:
        pytest.skip("no group with a member on this machine")
    os.chown(team, 0, shared.gr_gid)
    team.chmod(0o775)
    with pytest.raises(UserError, match="writable by everyone or by a group"):
        check_output_dir(team / "cio")
    os.chown(team, 0, 0)  # (root's own group: no one else in it here)
    check_output_dir(team / "cio")


def test_a_bundle_on_a_full_disk_is_kept_whole_in_a_private_dir(tmp_path, full_fs):
    """Sandbox attacks round 14 (blind) noticed: ``bundle --out`` on a full disk kept one file (the reproducer) and
    lost the rest. Now the whole bundle goes to a private dir the error names, and nothing is left on the full one."""
    (tmp_path / "job.py").write_text("import json\nx = 1\nraise RuntimeError('boom')\n")
    proc = subprocess.run([sys.executable, "-m", "reportkit", "bundle", "--issue", "--no-ladder", "job.py", "--out",
                           str(full_fs / "b")], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert "No space left on device" in proc.stderr
    kept = Path(" ".join(proc.stderr.split()).rsplit(" is in ", 1)[1].split()[0])
    try:
        assert kept.name == "b" and kept.parent.name.startswith("reportkit-unwritten-")
        assert kept.parent.stat().st_mode & 0o777 == 0o700
        names = {str(p.relative_to(kept)) for p in kept.rglob("*") if p.is_file()}
        assert {"issue.md", "bundle.json", "reproducer/job.py", "logs/error.txt"} <= names, names
        assert "RuntimeError('boom')" in (kept / "reproducer" / "job.py").read_text()
    finally:
        shutil.rmtree(kept.parent)
    assert sorted(p.name for p in full_fs.iterdir()) == ["fill"]  # (no partial bundle left behind)


@pytest.mark.parametrize("what", ["gone", "locked-top"])
def test_removing_a_tree_never_changes_the_directory_that_holds_it(tmp_path, what):
    """A scratch tree another process removed first made remove_tree chmod its *parent* 0700 (rmtree's error on the
    tree's own top went to the parent): as root, ``/tmp`` itself became 0700 and every other user lost it. The
    lookalike, a tree whose top a run locked (chmod 0), is still given back and removed."""
    holder = tmp_path / "holder"
    holder.mkdir()
    holder.chmod(0o1777)
    tree = holder / "reportkit-session-x"
    if what == "locked-top":
        (tree / "sub").mkdir(parents=True)
        (tree / "sub" / "f").write_text("x")
        tree.chmod(0)
    remove_tree(tree)
    assert oct(holder.stat().st_mode & 0o7777) == oct(0o1777)
    assert not tree.exists()


def _set_acl(path: Path, named_user: int) -> None:
    """A POSIX access ACL (as ``setfacl -m u:<named_user>:rwx`` writes it) on ``path``, mode bits kept."""
    import struct

    everyone = 0xFFFFFFFF
    entries = [(0x01, 7, everyone), (0x02, 7, named_user), (0x04, 5, everyone), (0x10, 7, everyone), (0x20, 5, everyone)]
    os.setxattr(path, "system.posix_acl_access",
                struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *entry) for entry in entries))


@pytest.mark.parametrize("team_mode, kind, refused", [
    (0o777, "grandparent", True),   # team/sub/out: sub may be renamed away by anyone
    (0o755, "grandparent", False),
    (0o1777, "grandparent", False),  # sticky: only sub's owner (we) may rename it
    (0o755, "acl-other", True),     # team/out, team 0755 plus an ACL letting another user write
    (0o755, "acl-self", False),
])
def test_an_output_below_a_directory_others_may_rename_is_refused(tmp_path, team_mode, kind, refused):
    """Sandbox attacks round 15 (blind): ``team/sub/OUT`` where ``team`` lets another user rename ``sub``: 0.4 s into
    the run ``sub`` was moved aside and a link to the victim's private dir put at its name, and ci, bundle and
    minimize wrote there. The same for a 0755 ``team`` whose ACL lets another user write (ci). Every directory on the
    way is checked, not only the last."""
    team = tmp_path / "team"
    team.mkdir()
    team.chmod(team_mode)
    if kind.startswith("acl"):
        _set_acl(team, 65534 if kind == "acl-other" else os.geteuid())
        out = team / "cio"
    else:
        (team / "sub").mkdir()
        out = team / "sub" / "cio"
    for check in (lambda: check_output_dir(out), lambda: check_writable(out / "a.min.py", "--output")):
        if refused:
            with pytest.raises(UserError, match="other users may rename"):
                check()
        else:
            check()


@pytest.mark.parametrize("swapped", [False, True])
def test_a_guarded_output_directory_swapped_for_a_link_is_not_written_through(tmp_path, swapped):
    """Sandbox attacks round 15 (blind): the owner of the directory that holds ``ci --out`` (a 0755 team dir of
    another user) moved ``cio`` aside 0.4 s after the start and put a link to the victim's private dir at its name;
    ci wrote its bundles, manifest and summary there. Every write below a guarded directory first checks that its
    name still leads to the directory reportkit made."""
    from reportkit.io import _GUARDED, check_guarded, guard_dir

    out, victim = tmp_path / "cio", tmp_path / "victim-private"
    out.mkdir()
    victim.mkdir()
    guard_dir(out)
    resolved = out.resolve()
    try:
        if swapped:
            out.rename(tmp_path / "moved")
            out.symlink_to(victim)
            with pytest.raises(UserError, match="was replaced while reportkit wrote into it"):
                write_atomic(out / "bundles" / "x" / "issue.md", "text")
            with pytest.raises(UserError, match="was replaced while reportkit wrote into it"):
                check_guarded(resolved / "bundles" / "y")  # (a path resolved before the swap: still ours)
            assert list(victim.iterdir()) == []
        else:
            write_atomic(out / "bundles" / "x" / "issue.md", "text")
            assert (out / "bundles" / "x" / "issue.md").read_text() == "text"
    finally:
        _GUARDED.pop(os.path.abspath(out), None)
        _GUARDED.pop(str(resolved), None)
