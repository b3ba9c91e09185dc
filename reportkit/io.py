"""File output: every file reportkit writes for the user goes through here.

:func:`write_atomic` writes via a temp file in the same directory and an atomic rename, so a reader
(or a Ctrl-C) never sees half a file; :func:`replacing` does the same for writers that need a path
(archives); :func:`append_text` appends to files owned by someone else (``$GITHUB_STEP_SUMMARY``,
``$GITHUB_OUTPUT``), which cannot be replaced. One place, so that a policy for everything written
(permissions, redaction) has one place to go.
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
