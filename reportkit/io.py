"""File output: every file reportkit writes for the user goes through here.

:func:`write_atomic` writes via a temp file in the same directory and an atomic rename, so a reader
(or a Ctrl-C) never sees half a file; :func:`replacing` does the same for writers that need a file
(archives); :func:`append_text` appends to files owned by someone else (``$GITHUB_STEP_SUMMARY``,
``$GITHUB_OUTPUT``), which cannot be replaced. One place, so that a policy for everything written
(permissions, redaction) has one place to go.

Permissions: a temp file is created 0600, and stays so unless a ``mode`` is given. Results are for sharing:
a minimized script gets its input's mode (:func:`mode_of`), reports (``issue.md``, ``bundle.json``)
:func:`shared_mode` (0644 less the umask); logs and archives holding them stay private (0600).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator

from reportkit.errors import UserError

# the temp files of writes in progress end so (unique names: two runs writing one file never share one);
# a scratch copy of a directory leaves them out (reportkit.run.runner.COPY_IGNORE)
TEMP_SUFFIX = ".reportkit-tmp"
TEMP_PATTERN = ".*" + TEMP_SUFFIX


# output directories reportkit made and writes into over a while (ci's --out): what each was when made
_GUARDED: dict[str, tuple[int, int]] = {}


def guard_dir(path: Path) -> None:
    """Remember what the directory ``path`` (one reportkit just made for its results) is: every later write below it
    first checks that the name still leads there (:func:`check_guarded`). The owner of the directory that holds it
    could move it aside and put a link at its name — round 15 of sandbox attacks: ``ci`` then wrote its bundles,
    manifest and summary into the link's target."""
    st = os.lstat(path)
    for name in {os.path.abspath(path), os.path.realpath(path)}:  # (paths made from it resolved, too)
        _GUARDED[name] = (st.st_dev, st.st_ino)


def check_guarded(path: str | os.PathLike) -> None:
    """Raise UserError when ``path`` is below a guarded directory whose name no longer leads to it."""
    where = os.path.abspath(path)
    for top, ident in _GUARDED.items():
        if where == top or where.startswith(top.rstrip(os.sep) + os.sep):
            try:
                st = os.lstat(top)
                same = stat.S_ISDIR(st.st_mode) and (st.st_dev, st.st_ino) == ident
            except OSError:
                same = False
            if not same:
                raise UserError(f"{top} was replaced while reportkit wrote into it (moved aside, and a link or another "
                                f"directory put at its name?); reportkit writes nothing more there")


@contextmanager
def replacing(path: Path, mode: int | None = None) -> Iterator[BinaryIO]:
    """Yield a binary file open on a new temp file next to ``path``; on success it replaces ``path`` atomically
    (with ``mode`` if given), on an exception it is removed and ``path`` is left as it was.

    Everything goes through the descriptor ``mkstemp`` opened (the data, the mode): never through the temp file's
    name, which whoever else may write in the directory can swap for a symbolic link between our calls (a user of
    a shared project directory, racing a root ``minimize``: the link's target — any file — was truncated, filled
    with the result and chmodded 0644). The name is renamed into place only while it is still that file."""
    if _GUARDED:
        check_guarded(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
        refused = None
    except OSError as exc:  # (the directory went read-only, full or away while reportkit ran: nothing is lost)
        refused = exc
        fd, name = _unwritten_file(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            if mode is not None:
                os.fchmod(fh.fileno(), mode)
            ours, there = os.fstat(fh.fileno()), os.lstat(name)
            if (ours.st_dev, ours.st_ino) != (there.st_dev, there.st_ino):
                raise OSError(errno.EEXIST, f"{name} was replaced while reportkit wrote it; {path} is unchanged")
    except BaseException:
        Path(name).unlink(missing_ok=True)  # (a link put there goes, never what it points to)
        raise
    if refused is not None:
        raise Unwritten(f"cannot write {path}: {refused.strerror or refused}; what was to be written there is in "
                        f"{name}", refused.strerror or str(refused))
    try:
        os.replace(name, path)
    except OSError as exc:  # (another user's file at that name in a sticky directory: the result stays in the temp)
        raise UserError(f"cannot write {path}: {exc.strerror or exc} (is it another user's file in a shared "
                        f"directory?); what was to be written there is in {name}") from None


PRIVATE = 0o600


class Unwritten(UserError):
    """A result its destination refused (a full, read-only or vanished file system): ``reason`` says why."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def umask() -> int:
    """The process's umask (from /proc on Linux; else set and restored, which is not thread-safe)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def shared_mode() -> int:
    """The mode of a file written for sharing: 0644 less the umask (what ``open()`` would give a new file,
    without the execute bits)."""
    return 0o644 & ~umask()


def mode_of(path: Path) -> int | None:
    """The permission bits of ``path`` (for a result made from it), or None if it cannot be read."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return None


def write_atomic(path: Path, text: str | bytes, mode: int | None = None, keep: bool = True) -> None:
    """Write ``text`` (UTF-8) or bytes to ``path`` via a temp file in the same directory and an atomic rename.
    A write the file system refuses (full, over quota, gone read-only) leaves ``path`` as it was and raises
    :class:`Unwritten`, which says where the text was kept instead (a private temp dir), when it could be;
    ``keep=False``: not kept (a caller that keeps a whole set of files elsewhere itself)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    try:
        with replacing(path, mode) as fh:
            fh.write(data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise Unwritten(f"cannot write {path}: {reason}{_kept_privately(path, data) if keep else ''}", reason) from None


def _unwritten_file(path: Path) -> tuple[int, str]:
    """A new 0600 file named like ``path`` in a private ``reportkit-unwritten-*`` dir: where a result goes that its
    own directory refused."""
    name = os.path.join(tempfile.mkdtemp(prefix="reportkit-unwritten-"), path.name)
    return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), PRIVATE), name


def _kept_privately(path: Path, data: bytes) -> str:
    try:
        fd, name = _unwritten_file(path)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except OSError:
        return ""
    return f"; what was to be written there is in {name}"


def append_text(path: str | Path, text: str) -> None:
    """Append ``text`` to a file that belongs to someone else (GitHub's step summary, a trace the user named), created
    0600 when missing; never through a symbolic link at that name (another user's, planted in a shared directory,
    would send the lines into whatever it points to) and only to a regular file (raises OSError)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "a", encoding="utf-8") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(f"{path}: not a regular file, not written")
        fh.write(text)


def output_file(path: Path, option: str = "--output") -> Path:
    """``path`` made absolute without following its last part: a result written there replaces a symbolic link
    found at that name (one a checkout or the script's directory ships, pointing anywhere) instead of writing
    through it into the link's target. An output directory that is a link is refused (:func:`check_not_linked`)."""
    path = Path(os.path.abspath(path))
    check_not_linked(path, option)
    return path.parent.resolve() / path.name


def check_not_linked(path: Path, option: str, directory: bool = False) -> None:
    """Refuse an output whose directory is a symbolic link (reportkit would write through it, wherever it points):
    the directory the result is written in (``path`` itself when ``directory``), or, where that is not made yet, the
    nearest one that exists, which reportkit would make it in. The directories above it are the user's path."""
    where = Path(os.path.abspath(path if directory else path.parent))
    while True:
        if where.is_symlink():
            what = f"{option} {path} is a symbolic link" if where == Path(os.path.abspath(path)) else \
                f"{option} {path}: its directory {where} is a symbolic link"
            raise UserError(f"{what}; reportkit does not write through one: choose another {option} or remove the "
                            f"link")
        if where.exists() or where == where.parent:
            return
        where = where.parent


def check_writable(path: Path, option: str, directory: bool = False) -> None:
    """Refuse at once an output ``path`` whose directory reportkit could not write (a read-only or full file system,
    ``/proc``, a file where a directory should be): found before the work, not when its result is written. The
    nearest existing directory is tried with a temp file, removed at once."""
    where = path if directory else path.parent
    while not where.exists() and where != where.parent:
        where = where.parent
    try:
        if not where.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        fd, name = tempfile.mkstemp(prefix=".reportkit-probe.", suffix=TEMP_SUFFIX, dir=where)
    except OSError as exc:
        raise UserError(f"{option} {path}: reportkit cannot write in {where} ({exc.strerror or exc}); choose "
                        f"another {option}") from None
    os.close(fd)
    os.unlink(name)
    swappable = _swappable_ancestor(path)
    if swappable is not None:
        raise UserError(f"{option} {path}: other users may rename {swappable} (what holds it, {swappable.parent}, "
                        f"lets them), so a directory on the way to what reportkit writes could be swapped for a link "
                        f"while it works; choose another {option}")


def _swappable_ancestor(path: Path) -> Path | None:
    """The first directory on the way to ``path`` that another user could rename and put a link in its place (its
    parent lets them: :func:`_renamable_by_others`; or it is theirs in a sticky directory everyone may write): every
    write below it would follow the link (round 15 of sandbox attacks: ``team/sub/out`` with ``team`` group-writable,
    ``sub`` swapped mid-run for a link to the victim's private directory). Owners are trusted: a directory only its
    owner may write is fine whoever owns it."""
    for ancestor in Path(os.path.abspath(path)).parents:
        if ancestor == ancestor.parent:
            break
        if _renamable_by_others(ancestor.parent) or _others_in_sticky_dir(ancestor):
            return ancestor
    return None


def _others_in_sticky_dir(path: Path) -> bool:
    """``path`` is a directory of another user (root aside) in a sticky one others may write (``/tmp/theirs``):
    its owner may rename it there."""
    try:
        st, parent = path.lstat(), path.parent.stat()
    except OSError:
        return False
    return st.st_uid not in (os.geteuid(), 0) and bool(parent.st_mode & stat.S_ISVTX) \
        and bool(parent.st_mode & (stat.S_IWOTH | stat.S_IWGRP))


def check_output_dir(path: Path, option: str = "--out") -> None:
    """Refuse an output directory that is a symbolic link (reportkit would write through it, wherever it points:
    a repository can ship ``reportkit-ci`` as one), or whose parent is one (where the directory is made, and a
    bundle's .tar.gz next to it), or that exists and is not an empty directory."""
    check_not_linked(path, option, directory=True)
    check_not_linked(path, option)
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise UserError(f"{option} {path} already exists and is not an empty directory; choose another or remove it")
    if path.exists() and _others_in_shared_dir(path):
        raise UserError(f"{option} {path} is another user's directory in a shared one ({path.parent}): they could "
                        f"read or swap what reportkit writes there; choose another {option}")
    if _renamable_by_others(path.parent):
        raise UserError(f"{option} {path}: other users may rename or replace what is in {path.parent} (it is writable "
                        f"by everyone or by a group with other members, without the sticky bit), so the directory "
                        f"reportkit writes into could be swapped for a link while it works; choose another {option}")
    check_writable(path, option, directory=True)


def _renamable_by_others(directory: Path) -> bool:
    """``directory`` (its nearest existing ancestor) lets other users rename its entries: writable by everyone, or by
    a group other users are in, and no sticky bit (``/tmp`` has one: there only an entry's owner may rename it). A
    directory only its owner may write is fine whoever owns it (a CI container's root writing into the runner user's
    checkout)."""
    while not os.path.lexists(directory) and directory != directory.parent:
        directory = directory.parent
    try:
        st = directory.stat()
    except OSError:
        return False
    if st.st_mode & stat.S_ISVTX:
        return False
    return bool(st.st_mode & stat.S_IWOTH) or bool(st.st_mode & stat.S_IWGRP and _group_has_others(st.st_gid)) \
        or _acl_writers(directory, st)


# a POSIX access ACL as Linux stores it (system.posix_acl_access): a 4-byte version, then (tag u16, perm u16, id u32)
_ACL_USER, _ACL_GROUP, _ACL_MASK, _ACL_WRITE = 0x02, 0x08, 0x10, 0x02


def _acl_writers(directory: Path, st: os.stat_result) -> bool:
    """``directory``'s access ACL lets another user write it: a named user's entry, or a named group's with other
    members, with write (through the mask) — ``setfacl -m u:colleague:rwx team`` on a 0755 directory (round 15)."""
    try:
        raw = os.getxattr(directory, "system.posix_acl_access")
    except (OSError, AttributeError):
        return False
    import struct

    entries = [struct.unpack_from("<HHI", raw, at) for at in range(4, len(raw) - 7, 8)]
    mask = next((perm for tag, perm, _ in entries if tag == _ACL_MASK), _ACL_WRITE)
    me = os.geteuid()
    return bool(mask & _ACL_WRITE) and any(
        perm & _ACL_WRITE and ((tag == _ACL_USER and ident != me) or (tag == _ACL_GROUP and _group_has_others(ident)))
        for tag, perm, ident in entries)


def _group_has_others(gid: int) -> bool:
    """Another user is in group ``gid`` (a member, or it is their primary group); an unknown group names nobody."""
    import grp
    import pwd

    me = os.geteuid()
    try:
        members = set(grp.getgrgid(gid).gr_mem)
        users = pwd.getpwall()
        mine = {p.pw_name for p in users if p.pw_uid == me}
        return bool(members - mine) or any(p.pw_gid == gid and p.pw_uid != me for p in users)
    except KeyError:
        return False


def _others_in_shared_dir(path: Path) -> bool:
    """``path`` belongs to another user and stands in a directory everyone may write (``/tmp``): whoever made it
    there ahead of reportkit keeps its rights over what is written into it."""
    try:
        st, parent = path.lstat(), path.parent.stat()
    except OSError:
        return False
    return st.st_uid != os.geteuid() and bool(parent.st_mode & stat.S_IWOTH)


# ---------------------------------------------------------------------- reading what a run left

# What reportkit reads back from a run (its captured output, events, stack dumps, the artifacts of a kept scratch
# dir) was writable by the run: a file there may have been swapped for a symbolic link to a file the run could not
# read itself (reportkit would read it with its own rights: as root, anyone's), for a FIFO (a read that never
# returns) or for a link to /dev/zero (a read that never ends). Such files are read only when they are regular
# files reached without following a link, and never past a limit.
_OPEN_REGULAR = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) \
    | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
RUN_FILE_LIMIT = 64 << 20  # a run's events, dumps, logs: more is not read


class NotRegular(OSError):
    """A file a run left is not a regular file reached without a link (it is not read)."""


def open_regular(path: str | os.PathLike, *, follow: bool = False):  # noqa: ANN201 - a binary file object
    """Open ``path`` for reading when it is a regular file and its last component is not a symbolic link
    (``O_NOFOLLOW``, unless ``follow``: a file the user named; ``O_NONBLOCK`` so that opening a FIFO does not wait
    for a writer); :class:`NotRegular` otherwise, ``FileNotFoundError`` when it is not there."""
    try:
        fd = os.open(path, _OPEN_REGULAR & ~os.O_NOFOLLOW if follow else _OPEN_REGULAR)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise NotRegular(exc.errno, f"{path}: not read ({exc.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegular(f"{path}: not a regular file, not read")
    return os.fdopen(fd, "rb")


def readable_by_runs(path: str | os.PathLike) -> bool:
    """Whether a sandboxed run could read ``path`` where reportkit, as root, can: as root the runs have no
    ``CAP_DAC_OVERRIDE``/``CAP_DAC_READ_SEARCH``, so the permission bits decide for them — every directory on the file's
    real path searchable and the file readable by its owner class (root), group class (a group of root's) or others.
    Not root: True (the kernel checked reportkit's own rights, which are the runs')."""
    if os.geteuid() != 0:
        return True
    groups = {os.getegid(), *os.getgroups()}

    def allows(st: os.stat_result, bits: int) -> bool:  # bits: the owner's (0o400 read, 0o100 search)
        if st.st_uid == 0:
            return bool(st.st_mode & bits)
        return bool(st.st_mode & (bits >> 3 if st.st_gid in groups else bits >> 6))

    real = Path(os.path.realpath(path))
    try:
        if not all(allows(os.stat(d), 0o100) for d in reversed(real.parents)):
            return False
        st = os.stat(real)
        return allows(st, 0o400 | (0o100 if stat.S_ISDIR(st.st_mode) else 0))
    except OSError:
        return False


def read_run_file(path: str | os.PathLike, limit: int = RUN_FILE_LIMIT, *, follow: bool = False) -> bytes:
    """The first ``limit`` bytes of a file a run left (:func:`open_regular`; ``follow``: a file of the user's
    checkout, reached through a link too); b"" when it is missing or is not a regular file."""
    try:
        with open_regular(path, follow=follow) as fh:
            return fh.read(limit)
    except OSError:
        return b""


def read_run_text(path: str | os.PathLike, limit: int = RUN_FILE_LIMIT, *, follow: bool = False) -> str:
    return read_run_file(path, limit, follow=follow).decode("utf-8", errors="replace")


def read_artifact(path: str | os.PathLike, limit: int = RUN_FILE_LIMIT) -> str:
    """The text of an artifact a run wrote (a compiler's log, ``output_code.py``, ``sdsc_N.json``, an FFDC report):
    at most ``limit`` bytes (a 4 GiB sparse file is not read whole), only from a regular file reached without a
    link (:func:`open_regular`). Raises ``FileNotFoundError`` / :class:`NotRegular` (``OSError``s) like a read would."""
    with open_regular(path) as fh:
        return fh.read(limit).decode("utf-8", errors="replace")


def load_artifact_json(path: str | os.PathLike, limit: int = RUN_FILE_LIMIT) -> object:
    """An artifact's JSON (:func:`read_artifact`); ``ValueError`` when it is larger than ``limit`` bytes, is not JSON
    or nests deeper than the parser's recursion allows (a run's ``[[[...]]]`` two million deep)."""
    with open_regular(path) as fh:
        if os.fstat(fh.fileno()).st_size > limit:
            raise ValueError(f"{os.fspath(path)}: larger than {limit} bytes, not read")
        data = fh.read(limit)
    try:
        return json.loads(data.decode("utf-8"))
    except RecursionError:
        raise ValueError(f"{os.fspath(path)}: JSON nested too deep to read") from None


#: How deep a kept scratch dir may go (a run's tree below this is removed by :func:`scrub_tree`): Inductor's
#: caches and ``torch_compile_debug`` go five or six levels down; every reader after it walks a bounded tree.
SCRUB_DEPTH = 64


def scrub_tree(root: str | os.PathLike) -> int:
    """Remove every symbolic link, FIFO, socket and device node under ``root`` (a kept scratch dir, once its run and
    all its processes ended), and every directory deeper than :data:`SCRUB_DEPTH`, so that whatever reads its files
    afterwards (globs, ``read_text``, copies into a bundle) reads only what the run wrote there, through a tree of
    bounded depth; links are never followed. The number removed. (Iterative: a run's directory 1,500 levels deep
    made ``os.walk`` recurse past Python's limit.)"""
    removed = 0
    todo = [(os.fspath(root), 0)]
    while todo:
        dirpath, depth = todo.pop()
        try:
            with os.scandir(dirpath) as entries:
                listed = [(e.name, e.is_dir(follow_symlinks=False), e.is_file(follow_symlinks=False)) for e in entries]
        except OSError:
            continue
        for name, is_dir, is_file in listed:
            path = os.path.join(dirpath, name)
            try:
                if is_dir and depth + 1 < SCRUB_DEPTH:
                    todo.append((path, depth + 1))
                elif is_dir:
                    remove_tree(path)
                    removed += 1
                elif not is_file:
                    os.unlink(path)
                    removed += 1
            except OSError:
                pass
    return removed


def remove_tree(path: str | os.PathLike) -> None:
    """Remove a scratch tree, also what a run left unreadable for its own user (a directory it chmodded to 0o100
    or 0): its owner gives such a directory back ``rwx`` and removes it (symbolic links are never followed, never
    chmodded). Errors are ignored: what cannot be removed stays. Only the tree's own directories are ever chmodded,
    never the directory that holds it: a tree already gone (removed by another process) made ``/tmp`` itself 0700
    when reportkit ran as root, and every other user lost it (found when round 15 of sandbox attacks ran)."""
    top = os.path.abspath(path)
    retried: set[str] = set()

    def ours(name: str) -> bool:
        name = os.path.abspath(name)
        return name == top or name.startswith(top.rstrip(os.sep) + os.sep)

    def again(func, name, exc) -> None:  # noqa: ANN001 - shutil's onerror signature
        if isinstance(exc[1], FileNotFoundError):
            return  # (gone already: nothing to give back)
        try:
            parent = os.path.dirname(name)
            if parent and ours(parent) and not os.path.islink(parent):
                os.chmod(parent, 0o700)
            if os.path.isdir(name) and not os.path.islink(name) and os.path.abspath(name) not in retried:
                retried.add(os.path.abspath(name))  # (once: a directory that still cannot go stays)
                os.chmod(name, 0o700)
                shutil.rmtree(name, onerror=again)
            else:
                func(name)
        except OSError:
            pass

    try:
        shutil.rmtree(path, onerror=again)
    except RecursionError:  # (shutil.rmtree recurses once per level before Python 3.13: a run's deep tree)
        _remove_deep(top)


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_NOFOLLOW", 0)


def _remove_deep(top: str) -> None:
    """Remove the tree at ``top`` whatever its depth, holding one directory open at a time: down into each
    subdirectory by name, back up through ``..`` (checked to be the directory it came from: a tree moved meanwhile
    is left where it is). What cannot be removed stays; a directory left without ``rwx`` for its owner gets it
    back (only the tree's own directories, as in :func:`remove_tree`)."""
    try:
        fd = os.open(top, _DIR_FLAGS)
    except OSError:
        return
    stack: list[tuple[str, list[str], int, int]] = []  # (name in the parent, the parent's pending names, its dev, ino)
    try:
        pending = _clear_dir(fd)
        while True:
            if pending:
                name = pending.pop()
                child = _open_subdir(fd, name)
                if child is None:
                    continue
                st = os.fstat(fd)
                stack.append((name, pending, st.st_dev, st.st_ino))
                os.close(fd)
                fd, pending = child, _clear_dir(child)
                continue
            if not stack:
                break
            name, pending, dev, ino = stack.pop()
            parent = os.open("..", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = parent
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != (dev, ino):
                return
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                pass
    except OSError:
        return
    finally:
        os.close(fd)
    try:
        os.rmdir(top)
    except OSError:
        pass


def _clear_dir(fd: int) -> list[str]:
    """Unlink what the directory open at ``fd`` holds but directories; their names."""
    try:
        if os.fstat(fd).st_mode & 0o700 != 0o700:
            os.fchmod(fd, 0o700)
        with os.scandir(fd) as entries:
            listed = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
    except OSError:
        return []
    dirs = []
    for name, is_dir in listed:
        if is_dir:
            dirs.append(name)
            continue
        try:
            os.unlink(name, dir_fd=fd)
        except OSError:
            pass
    return dirs


def _open_subdir(fd: int, name: str) -> int | None:
    for attempt in range(2):
        try:
            return os.open(name, _DIR_FLAGS, dir_fd=fd)
        except PermissionError:
            if attempt:
                return None
            try:
                os.chmod(name, 0o700, dir_fd=fd)  # (a directory, listed as one: never a link's target)
            except OSError:
                return None
        except OSError:
            return None
    return None
