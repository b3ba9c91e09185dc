"""Git facts about a checkout (e.g. the user's project, or a torch_spyre source tree).

Uses GitPython, imported lazily: GitPython refuses to import when no ``git`` executable
is found, in which case the commit/branch are still read from ``.git`` files directly.
Nothing here raises for non-repositories, bare repositories, repositories without
commits or a missing git binary: you get ``None`` (not a repository) or a ``GitInfo``
whose ``error`` says what could not be determined.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlsplit, urlunsplit

DEFAULT_MAX_FILES = 50


@dataclass
class GitInfo:
    toplevel: Optional[str]  # working tree root (git dir for bare repositories)
    commit: Optional[str] = None  # full SHA of HEAD; None without commits
    short_commit: Optional[str] = None
    branch: Optional[str] = None  # None when detached
    detached: bool = False
    dirty: Optional[bool] = None  # tracked changes (staged or not); None if unknown
    modified_files: list[str] = field(default_factory=list)  # tracked changes, bounded
    untracked_files: list[str] = field(default_factory=list)  # bounded
    files_truncated: int = 0  # entries left out of the two lists above
    remote_url: Optional[str] = None  # origin, credentials stripped
    describe: Optional[str] = None  # git describe --tags --always --dirty
    error: Optional[str] = None


def strip_url_credentials(url: str) -> str:
    """Remove credentials from a remote URL.

    ``https://user:token@host/x`` and ``https://token@host/x`` -> ``https://host/x``;
    for ``ssh://git:pw@host/x`` only the password goes (``ssh://git@host/x``).
    scp-like ``git@host:org/repo.git`` has no secret and is returned unchanged.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if not parts.scheme or "@" not in parts.netloc:
        return url
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user = userinfo.split(":", 1)[0]
    keep_user = parts.scheme in ("ssh", "git+ssh", "ssh+git") and user
    netloc = f"{user}@{hostport}" if keep_user else hostport
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def _import_git() -> Any:
    import git  # lazy: GitPython raises ImportError at import time without a git executable

    return git


def repo_info(
    path: Path, *, max_files: int = DEFAULT_MAX_FILES, require_tracked: bool = False
) -> Optional[GitInfo]:
    """Describe the git checkout containing ``path`` (parent directories are searched).

    ``require_tracked``: return None unless ``path`` is tracked in that checkout, so
    that e.g. a package installed inside some unrelated repository's virtualenv is not
    attributed to that repository.
    """
    path = Path(path)
    if not path.exists():
        return None
    try:
        git = _import_git()
    except Exception as exc:  # ImportError when git is missing; GitPython may raise others
        return _info_without_git(path, f"git unavailable: {_one_line(exc)}")
    try:
        repo = _tame(git.Repo(path, search_parent_directories=True))
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    except Exception as exc:
        return _info_without_git(path, f"cannot open repository: {_one_line(exc)}")
    try:
        return _describe_repo(repo, path, max_files, require_tracked)
    except Exception as exc:  # git errors (e.g. "dubious ownership") must not escape
        return GitInfo(toplevel=_toplevel(repo), error=_one_line(exc))
    finally:
        repo.close()


# What a repository's own configuration can make git run while reportkit only reads it (status, diff, blame, the
# blobs of a --good revision): a downloaded project's .git/config — or the config behind a ``.git`` file's ``gitdir:``
# — with ``core.fsmonitor``, a filter driver's ``clean``/``smudge``/``process`` for the paths ``.gitattributes`` names,
# a diff driver's ``textconv``/``command``, hooks. Each is replaced, for reportkit's calls, by what does nothing but
# pass the content on (``cat``) or by nothing.
_DRIVER_KEY = re.compile(r"(filter|diff)\.(.+)\.(clean|smudge|process|required|textconv|command)", re.IGNORECASE)
# (a filter's ``process``, even empty, sets its ``clean``/``smudge`` aside: emptied, with ``required`` off, the content
# passes as it is)
_NEUTRAL = {"filter": ("clean=cat", "smudge=cat", "process=", "required=false"), "diff": ("textconv=cat", "command=true")}


# a submodule has a configuration of its own (.git/modules/NAME/config), which git obeys when it looks inside the
# submodule for changes (status, diff, describe --dirty of the superproject): reportkit's calls do not look inside
_NO_SUBMODULES = "--ignore-submodules=all"


def _tame(repo: Any) -> Any:
    """``repo`` with git's command-line overrides (``-c``, above every config file) for the commands its config
    names, so that no git call of reportkit runs a program the checkout chose. Returns ``repo``."""
    overrides = ["core.fsmonitor=false", "core.hooksPath=/dev/null", "core.pager=cat", "submodule.recurse=false",
                 "diff.ignoreSubmodules=all"]
    try:
        listed = repo.git.config("--list", "-z")  # (reading the configuration runs nothing)
    except Exception:  # noqa: BLE001 - no readable configuration: nothing of it can run either
        listed = ""
    drivers = set()
    for entry in listed.split("\0"):
        match = _DRIVER_KEY.fullmatch(entry.split("\n", 1)[0])
        if match is not None:
            drivers.add((match.group(1).lower(), match.group(2)))
    for kind, name in sorted(drivers):
        if "=" in name:  # (-c would cut the name at its "=": refuse the repository instead)
            raise ValueError(f"its configuration names a {kind} driver reportkit cannot override ({name!r})")
        overrides += [f"{kind}.{name}.{setting}" for setting in _NEUTRAL[kind]]
    repo.git.set_persistent_git_options(c=overrides)
    return repo


def _toplevel(repo: Any) -> Optional[str]:
    directory = repo.working_tree_dir or repo.git_dir
    return str(directory) if directory else None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}".strip()


def _describe_repo(repo: Any, path: Path, max_files: int, require_tracked: bool) -> Optional[GitInfo]:
    info = GitInfo(toplevel=_toplevel(repo))
    if repo.bare:
        _fill_head(repo, info)
        _add_error(info, "bare repository (no working tree)")
        return info
    if require_tracked and not _is_tracked(repo, path):
        return None
    _fill_head(repo, info)
    _fill_status(repo, info, max_files)
    info.remote_url = _origin_url(repo)
    if info.commit:
        info.describe = _safe_git(repo, "describe", "--tags", "--always")  # (--dirty would look into submodules)
        if info.describe and info.dirty:
            info.describe += "-dirty"
    return info


def _fill_head(repo: Any, info: GitInfo) -> None:
    head = repo.head
    info.detached = bool(head.is_detached)
    if not info.detached:
        try:
            info.branch = head.reference.name
        except (TypeError, ValueError):
            info.branch = None
    if head.is_valid():
        info.commit = head.commit.hexsha
        info.short_commit = repo.git.rev_parse("--short", info.commit)
    else:
        _add_error(info, "repository has no commits yet")


def _add_error(info: GitInfo, message: str) -> None:
    info.error = f"{info.error}; {message}" if info.error else message


def _fill_status(repo: Any, info: GitInfo, max_files: int) -> None:
    # -z: NUL separated, paths unquoted; renames are "R  new\0old\0". Untracked
    # directories are listed once (not every file below them).
    out = repo.git.status("--porcelain=v1", "-z", "--untracked-files=normal", _NO_SUBMODULES)
    entries = out.split("\0")
    modified: list[str] = []
    untracked: list[str] = []
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        code, name = entry[:2], entry[3:]
        if code[0] in "RC":
            i += 1  # skip the rename/copy source
        (untracked if code == "??" else modified).append(name)
    info.dirty = bool(modified)
    info.modified_files = modified[:max_files]
    info.untracked_files = untracked[: max(0, max_files - len(info.modified_files))]
    info.files_truncated = (
        len(modified) + len(untracked) - len(info.modified_files) - len(info.untracked_files)
    )


def _origin_url(repo: Any) -> Optional[str]:
    try:
        urls = list(repo.remote("origin").urls)
    except Exception:  # no origin remote, or git failed
        return None
    return strip_url_credentials(urls[0]) if urls else None


def _safe_git(repo: Any, command: str, *args: str) -> Optional[str]:
    try:
        return getattr(repo.git, command.replace("-", "_"))(*args).strip() or None
    except Exception:
        return None


def _is_tracked(repo: Any, path: Path) -> bool:
    try:
        rel = os.path.relpath(path.resolve(), Path(repo.working_tree_dir).resolve())
    except ValueError:
        return False
    if rel.startswith(".."):
        return False
    listed = _safe_git(repo, "ls-files", "--", "." if rel == "." else rel)
    return bool(listed)


# ---------------------------------------------------------------------------
# Fallback without a git executable: read .git directly (HEAD, refs, packed-refs).
# ---------------------------------------------------------------------------

_SHA = re.compile(r"^[0-9a-f]{40}(?:[0-9a-f]{24})?$")


def _find_git_dir(path: Path) -> Optional[tuple[Path, Path]]:
    start = path.resolve()
    for candidate in [start, *start.parents]:
        dot_git = candidate / ".git"
        if dot_git.is_dir():
            return candidate, dot_git
        if dot_git.is_file():  # worktree / submodule: "gitdir: <path>"
            text = dot_git.read_text(encoding="utf-8", errors="replace").strip()
            if text.startswith("gitdir:"):
                target = Path(text[len("gitdir:") :].strip())
                return candidate, target if target.is_absolute() else (candidate / target).resolve()
    return None


def _resolve_ref(git_dir: Path, ref: str) -> Optional[str]:
    common = git_dir
    commondir = git_dir / "commondir"
    if commondir.is_file():
        common = (git_dir / commondir.read_text(encoding="utf-8").strip()).resolve()
    for base in (git_dir, common):
        loose = base / ref
        if loose.is_file():
            value = loose.read_text(encoding="utf-8", errors="replace").strip()
            return value if _SHA.match(value) else None
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8", errors="replace").splitlines():
            sha, _, name = line.partition(" ")
            if name.strip() == ref and _SHA.match(sha):
                return sha
    return None


def _info_without_git(path: Path, error: str) -> Optional[GitInfo]:
    try:
        found = _find_git_dir(path)
        if found is None:
            return None
        toplevel, git_dir = found
        info = GitInfo(toplevel=str(toplevel), error=error)
        head = (git_dir / "HEAD").read_text(encoding="utf-8", errors="replace").strip()
        if head.startswith("ref:"):
            ref = head[4:].strip()
            info.branch = ref.removeprefix("refs/heads/")
            info.commit = _resolve_ref(git_dir, ref)
        elif _SHA.match(head):
            info.detached, info.commit = True, head
        info.short_commit = info.commit[:7] if info.commit else None
        return info
    except OSError:
        return None


# ---------------------------------------------------------------------------
# The good code of a checkout (minimize's fix check): a commit exported read-only.
# ---------------------------------------------------------------------------


class GoodRevError(Exception):
    """``--good REV`` cannot be used (the message says why, in one line)."""


@dataclass
class GoodRev:
    rev: str  # as the user gave it (or "HEAD")
    commit: str  # full SHA
    short: str
    toplevel: Path  # the user's working tree
    changed: list[str] = field(default_factory=list)  # tracked files that differ from ``commit`` (relative)

    def describe(self) -> str:
        return self.short if self.rev in (self.commit, self.short) else f"{self.rev} ({self.short})"


def _open_repo(path: Path) -> Any:
    try:
        git = _import_git()
    except Exception as exc:
        raise GoodRevError(f"git is not available ({_one_line(exc)})") from None
    try:
        repo = _tame(git.Repo(path, search_parent_directories=True))
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise GoodRevError(f"{path} is not in a git repository") from None
    except Exception as exc:
        raise GoodRevError(f"cannot open the git repository of {path}: {_one_line(exc)}") from None
    if repo.bare or not repo.working_tree_dir:
        repo.close()
        raise GoodRevError(f"the git repository of {path} has no working tree")
    return repo


def _changed_since(repo: Any, commit: str) -> list[str]:
    """Tracked files of the working tree (staged or not) that differ from ``commit``."""
    out = repo.git.diff("--name-only", "-z", "--no-renames", _NO_SUBMODULES, commit, "--")
    return [name for name in out.split("\0") if name]


def good_rev(path: Path, rev: str) -> GoodRev:
    """Resolve ``rev`` in the repository holding ``path``; :class:`GoodRevError` if it is not a commit there."""
    repo = _open_repo(Path(path))
    try:
        try:
            commit = repo.git.rev_parse("--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").strip()
        except Exception:
            commit = ""
        if not _SHA.match(commit):
            raise GoodRevError(f"--good {rev}: not a commit in the repository {repo.working_tree_dir}")
        short = repo.git.rev_parse("--short", commit).strip()
        return GoodRev(rev, commit, short, Path(repo.working_tree_dir).resolve(), _changed_since(repo, commit))
    except GoodRevError:
        raise
    except Exception as exc:  # git errors ("dubious ownership", ...)
        raise GoodRevError(f"--good {rev}: {_one_line(exc)}") from None
    finally:
        repo.close()


def uncommitted_changes(path: Path, exclude: tuple[Path, ...] = ()) -> Optional[GoodRev]:
    """HEAD as the good code when the repository holding ``path`` has uncommitted changes to tracked
    files other than ``exclude`` (the target script itself); None otherwise (no repository, no
    commit, nothing changed, git unavailable)."""
    try:
        good = good_rev(path, "HEAD")
    except GoodRevError:
        return None
    skip = {str(p.resolve()) for p in exclude}
    good.changed = [name for name in good.changed if str((good.toplevel / name).resolve()) not in skip]
    return good if good.changed else None


def file_at(good: GoodRev, path: Path) -> Optional[bytes]:
    """The content of the file ``path`` (of the working tree) in ``good.commit``, read from the object
    database; None when the commit has no such file (a new script) or it is outside the repository."""
    try:
        name = Path(path).resolve().relative_to(good.toplevel).as_posix()
    except ValueError:
        return None
    repo = _open_repo(good.toplevel)
    try:
        entries = _tree_blobs(repo, good.commit, (name,))
        blob = next((sha for mode, sha, entry in entries if entry == name and mode != "120000"), None)
        return None if blob is None else repo.odb.stream(bytes.fromhex(blob)).read()
    except Exception as exc:
        raise GoodRevError(f"cannot read {name} of {good.describe()}: {_one_line(exc)}") from None
    finally:
        repo.close()


def export_commit(good: GoodRev, dest: Path, keep_untracked: tuple[Path, ...] = (),
                  exclude: tuple[str, ...] = (), only: tuple[str, ...] | None = None,
                  built: tuple[str, ...] = (), max_files: int | None = None) -> Path:
    """Write the tree of ``good.commit`` to ``dest`` (its blobs read from the object database: the
    repository is only read, the user's checkout and its ``.git`` are never written; unlike ``git
    archive``, ``export-ignore`` attributes drop no file, e.g. a library's tests) — only the directories ``only`` (relative to the
    top level; those the commit has) when given — then copy the untracked (and ignored) files of
    the directories ``keep_untracked`` over from the working tree — they belong to the run's set-up
    (data, the script itself if it is new), not to the code under test; ``exclude``: glob patterns of
    names not copied (caches, virtualenvs). ``built``: pathspecs of untracked build products copied
    over as well (compiled extension modules: git has no good version of them, and without them the
    good tree's package does not import). ``max_files``: refuse (:class:`GoodRevError`) to export more.
    Returns ``dest``.
    """
    import shutil

    repo = _open_repo(good.toplevel)
    try:
        dest.mkdir(parents=True, exist_ok=True)
        whole = only is None or "." in only
        entries = _tree_blobs(repo, good.commit, () if whole else tuple(only or ())) if whole or only else []
        if max_files is not None and len(entries) > max_files:
            raise GoodRevError(f"{len(entries)} files of {good.describe()} to export (more than {max_files})")
        for mode, sha, name in entries:
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            data = repo.odb.stream(bytes.fromhex(sha)).read()
            if mode == "120000":
                os.symlink(os.fsdecode(data), target)
            else:
                target.write_bytes(data)
                if mode == "100755":
                    target.chmod(0o755)
        specs = []
        for directory in keep_untracked:
            try:
                specs.append(str(directory.resolve().relative_to(good.toplevel)))
            except ValueError:
                continue
        for spec in [*specs, *built]:
            out = repo.git.ls_files("--others", "-z", *(f"--exclude={pattern}" for pattern in exclude),
                                    "--", spec)
            for name in out.split("\0"):
                if not name:
                    continue
                source, target = good.toplevel / name, dest / name
                if source.is_symlink() or not source.is_file():
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
        return dest
    except GoodRevError:
        raise
    except Exception as exc:
        raise GoodRevError(f"cannot export {good.describe()} of {good.toplevel}: {_one_line(exc)}") from None
    finally:
        repo.close()


def _tree_blobs(repo: Any, commit: str, paths: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(mode, blob SHA, path) of the files of ``commit`` under ``paths`` (all without); submodules and
    names that would leave the tree are skipped."""
    listed = repo.git.ls_tree("-r", "-z", "--full-tree", commit, "--", *paths)
    out = []
    for line in listed.split("\0"):
        meta, _, name = line.partition("\t")
        fields = meta.split()
        if len(fields) != 3 or fields[1] != "blob" or not name:
            continue
        if name.startswith("/") or ".." in Path(name).parts:
            continue
        out.append((fields[0], fields[2], name))
    return out


# ---------------------------------------------------------------------------
# The change since a good commit (ci's culprit search): hunks, who made them, the merge base.
# ---------------------------------------------------------------------------

_HUNK_HEADER = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass
class DiffHunk:
    """One hunk of ``git diff -U0 GOOD`` (the working tree against the good commit): lines
    ``old_start..`` (``old_len`` of them) of the good file replaced by ``new_len`` lines from
    ``new_start`` of the working tree's. A zero length means "after that line" (git's convention).
    ``kind``: ``text``, or ``added`` / ``deleted`` / ``binary`` for a file taken or left whole."""

    file: str  # relative to the top level, posix
    kind: str
    old_start: int = 0
    old_len: int = 0
    new_start: int = 0
    new_len: int = 0


def diff_hunks(good: GoodRev, max_hunks: int | None = None) -> list[DiffHunk]:
    """The hunks of the tracked files of the working tree that differ from ``good.commit`` (no renames:
    a renamed file is a deletion and an addition). :class:`GoodRevError` when git cannot tell, or with
    more than ``max_hunks``."""
    status, numstat, text = _diff_outputs(good)
    kinds = _file_kinds(status)
    binary = _binary_files(numstat)
    hunks = _whole_file_hunks(kinds, binary)
    hunks += _text_hunks(text, kinds, binary)
    hunks += _unparsed_file_hunks(kinds, hunks)
    hunks.sort(key=lambda h: (h.file, h.old_start))
    if max_hunks is not None and len(hunks) > max_hunks:
        raise GoodRevError(f"{len(hunks)} hunks between {good.describe()} and the working tree (more than "
                           f"{max_hunks})")
    return hunks


def _diff_outputs(good: GoodRev) -> tuple[str, str, str]:
    """``git diff``'s name-status, numstat and ``-U0`` patch of the working tree against ``good.commit``."""
    repo = _open_repo(good.toplevel)
    try:
        status = repo.git.diff("--name-status", "-z", "--no-renames", _NO_SUBMODULES, good.commit, "--")
        numstat = repo.git.diff("--numstat", "-z", "--no-renames", _NO_SUBMODULES, good.commit, "--")
        text = repo.git.diff("-U0", "--no-renames", "--no-color", "--no-ext-diff", _NO_SUBMODULES, good.commit, "--",
                             stdout_as_string=False).decode("utf-8", "surrogateescape")
    except Exception as exc:
        raise GoodRevError(f"cannot diff {good.describe()} against the working tree: {_one_line(exc)}") from None
    finally:
        repo.close()
    return status, numstat, text


def _file_kinds(status: str) -> dict[str, str]:
    """Each changed file's status letter (A, D, M, ...) from ``git diff --name-status -z``."""
    fields = [f for f in status.split("\0") if f]
    return {name: code[0] for code, name in zip(fields[::2], fields[1::2])}


def _binary_files(numstat: str) -> set[str]:
    """The files ``git diff --numstat -z`` counts no lines for (binary)."""
    return {entry.split("\t")[-1] for entry in numstat.split("\0") if entry.startswith("-\t-\t")}


def _whole_file_hunks(kinds: dict[str, str], binary: set[str]) -> list[DiffHunk]:
    """One hunk per binary, added or deleted file: such a file is taken or left whole."""
    hunks: list[DiffHunk] = []
    for name, code in kinds.items():
        if name in binary or code in "AD":
            hunks.append(DiffHunk(name, _whole_file_kind(name, code, binary)))
    return hunks


def _whole_file_kind(name: str, code: str, binary: set[str]) -> str:
    """The kind of a file taken or left whole: binary, added or deleted."""
    if name in binary:
        return "binary"
    return "added" if code == "A" else "deleted"


def _text_hunks(text: str, kinds: dict[str, str], binary: set[str]) -> list[DiffHunk]:
    """The ``@@`` hunks of the modified text files of a ``git diff -U0`` patch."""
    hunks: list[DiffHunk] = []
    current = None
    for line in text.splitlines():
        if line.startswith("diff --git "):
            current = None
        elif line.startswith("+++ "):
            current = _patch_target(line)
        elif line.startswith("@@") and _is_text_file(current, kinds, binary):
            hunk = _parse_hunk_header(current, line)
            if hunk is not None:
                hunks.append(hunk)
    return hunks


def _patch_target(line: str) -> Optional[str]:
    """The file a ``+++ b/NAME`` line names; None for /dev/null or a quoted (unusual) name."""
    target = line[4:]
    current = target[2:] if target.startswith("b/") else None
    if current is not None and current.startswith('"'):
        return None  # a quoted (unusual) name: taken whole by _unparsed_file_hunks
    return current


def _is_text_file(name: Optional[str], kinds: dict[str, str], binary: set[str]) -> bool:
    """Whether ``name`` is a modified, non-binary file (whose hunks are parsed)."""
    return name is not None and kinds.get(name) == "M" and name not in binary


def _parse_hunk_header(name: str, line: str) -> Optional[DiffHunk]:
    """The text hunk of ``name`` an ``@@ -a,b +c,d @@`` line describes; None when it does not parse."""
    m = _HUNK_HEADER.match(line)
    if not m:
        return None
    return DiffHunk(name, "text", int(m.group(1)), int(m.group(2) or 1), int(m.group(3)), int(m.group(4) or 1))


def _unparsed_file_hunks(kinds: dict[str, str], hunks: list[DiffHunk]) -> list[DiffHunk]:
    """A whole-file hunk for each file modified but without a parsed hunk (e.g. a quoted name)."""
    seen = {h.file for h in hunks}
    return [DiffHunk(name, "binary") for name, code in kinds.items() if name not in seen and code not in "AD"]


def working_file(good: GoodRev, name: str) -> Optional[bytes]:
    """The working tree's ``name`` (relative to the top level); None when it is absent or a link."""
    path = good.toplevel / name
    if path.is_symlink() or not path.is_file():
        return None
    return path.read_bytes()


def line_commits(good: GoodRev, name: str, start: int, count: int) -> list[str]:
    """The commits since ``good`` that made lines ``start..start+count-1`` of the working tree's ``name``
    (``git blame``), short SHAs in order of appearance; "uncommitted" for lines not committed yet."""
    repo = _open_repo(good.toplevel)
    try:
        out = repo.git.blame("--porcelain", "-L", f"{start},+{count}", f"{good.commit}..", "--", name)
        return _blame_commits(repo, out, good.commit)
    except Exception:
        return []
    finally:
        repo.close()


def removing_commits(good: GoodRev, name: str, start: int, count: int) -> list[str]:
    """The commits since ``good`` that removed lines ``start..start+count-1`` of ``good``'s ``name``: for each
    line, the first commit after the last one that still had it (``git blame --reverse``)."""
    repo = _open_repo(good.toplevel)
    try:
        out = repo.git.blame("--porcelain", "--reverse", "-L", f"{start},+{count}", f"{good.commit}..HEAD",
                             "--", name)
        found: list[str] = []
        for last in _blame_commits(repo, out, None, short=False):
            later = repo.git.rev_list("--reverse", "--ancestry-path", f"{last}..HEAD", "--", name).split()
            sha = repo.git.rev_parse("--short", later[0]).strip() if later else "uncommitted"
            if sha not in found:
                found.append(sha)
        return found
    except Exception:
        return []
    finally:
        repo.close()


def _blame_commits(repo: Any, porcelain: str, boundary: str | None, short: bool = True) -> list[str]:
    found: list[str] = []
    for line in porcelain.splitlines():
        fields = line.split()
        if len(fields) >= 3 and _SHA.match(fields[0]):
            sha = fields[0]
            if sha == boundary:
                continue
            name = "uncommitted" if set(sha) == {"0"} else (repo.git.rev_parse("--short", sha).strip() if short
                                                           else sha)
            if name not in found:
                found.append(name)
    return found


def commit_subjects(good: GoodRev, shas: list[str]) -> dict[str, str]:
    """The subject line of each commit of ``shas`` (short SHAs; "uncommitted" is left out)."""
    repo = _open_repo(good.toplevel)
    try:
        out = {}
        for sha in shas:
            if sha != "uncommitted":
                try:
                    out[sha] = repo.git.log("-1", "--format=%s", sha).strip()
                except Exception:
                    continue
        return out
    finally:
        repo.close()


DEFAULT_BRANCHES = ("origin/HEAD", "origin/main", "origin/master", "main", "master")


def merge_base_rev(path: Path) -> GoodRev:
    """``--good auto``: the merge base of HEAD with the default branch (``origin/HEAD``, else the first of
    :data:`DEFAULT_BRANCHES` that exists); :class:`GoodRevError` without one, or when it is HEAD itself."""
    repo = _open_repo(Path(path))
    try:
        for ref in DEFAULT_BRANCHES:
            try:
                base = repo.git.merge_base("HEAD", ref).strip()
            except Exception:
                continue
            if not _SHA.match(base):
                continue
            head = repo.git.rev_parse("HEAD").strip()
            if base == head:
                raise GoodRevError(f"--good auto: HEAD is on {ref} (the merge base is HEAD itself); give --good "
                                   "REV (the last green commit, a push's `before`)")
            short = repo.git.rev_parse("--short", base).strip()
            toplevel = Path(repo.working_tree_dir).resolve()
            return GoodRev(f"merge-base with {ref}", base, short, toplevel, _changed_since(repo, base))
        raise GoodRevError("--good auto: no default branch to take the merge base with (fetch origin, or give "
                           "--good REV)")
    finally:
        repo.close()
