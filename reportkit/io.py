"""File output: every file reportkit writes for the user goes through here.

:func:`write_atomic` writes via a temp file in the same directory and an atomic rename, so a reader
(or a Ctrl-C) never sees half a file; :func:`replacing` does the same for writers that need a path
(archives); :func:`append_text` appends to files owned by someone else (``$GITHUB_STEP_SUMMARY``,
``$GITHUB_OUTPUT``), which cannot be replaced. One place, so that a policy for everything written
(permissions, redaction) has one place to go.

Permissions: a temp file is created 0600, and stays so unless a ``mode`` is given. Results are for sharing:
a minimized script gets its input's mode (:func:`mode_of`), reports (``issue.md``, ``bundle.json``)
:func:`shared_mode` (0644 less the umask); logs and archives holding them stay private (0600).
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

# the temp files of writes in progress end so (unique names: two runs writing one file never share one);
# a scratch copy of a directory leaves them out (reportkit.run.runner.COPY_IGNORE)
TEMP_SUFFIX = ".reportkit-tmp"
TEMP_PATTERN = ".*" + TEMP_SUFFIX


@contextmanager
def replacing(path: Path, mode: int | None = None) -> Iterator[Path]:
    """Yield a temp path next to ``path``; on success it replaces ``path`` atomically (with ``mode``
    if given), on an exception it is removed and ``path`` is left as it was."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


PRIVATE = 0o600


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


def write_atomic(path: Path, text: str | bytes, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) or bytes to ``path`` via a temp file in the same directory and an atomic rename."""
    with replacing(path, mode) as tmp:
        if isinstance(text, bytes):
            tmp.write_bytes(text)
        else:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)


def append_text(path: str | Path, text: str) -> None:
    """Append ``text`` to a file that belongs to someone else (raises OSError)."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)
