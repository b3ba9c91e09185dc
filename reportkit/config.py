"""``[tool.reportkit]`` in a ``pyproject.toml``: defaults for the command-line options of a project.

The file is the ``pyproject.toml`` nearest the script that has a ``[tool.reportkit]`` table (walking up
from the script's directory), else the current directory's (walking up from it). The command line wins
over the file; an unknown key or a value of the wrong type is an error naming the file and the key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from reportkit.constants import AUTO_TEMPLATE, TEMPLATE_NAMES
from reportkit.errors import UserError

SANDBOXES = ("auto", "bwrap", "fallback")
#: key -> what it sets (for the README table and the messages)
KEYS = {
    "timeout": "--timeout: seconds per run (check, minimize, bundle, ci)",
    "jobs": "--jobs: candidates tested in parallel (minimize, ci --minimize)",
    "runs": "--runs: runs of the original in fresh interpreters (check, minimize)",
    "python": "--python: the interpreter that runs the script (a relative path is relative to the file)",
    "sandbox": "REPORTKIT_SANDBOX: auto | bwrap (the environment variable wins; fallback only from it: the project's "
               "file cannot weaken the sandbox)",
    "keep_env": "--keep-env: names of environment variables the runs keep (a list)",
    "venue": f"--template: {AUTO_TEMPLATE} | {' | '.join(TEMPLATE_NAMES)} (bundle, ci)",
    "labels": "--label: labels for new issues (publish; a list)",
}


@dataclass
class Config:
    path: Optional[Path] = None  # the pyproject.toml read, None: none found
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def pick(self, key: str, given: Any, default: Any = None) -> Any:
        """The command line's value if given (not None), else the file's, else ``default``. An interpreter the
        file names inside the project is refused: reportkit starts the interpreter itself, outside any sandbox
        (its version is asked before a run), so a program the project ships would run with the user's rights
        whenever anyone runs reportkit on the project — so would a virtual environment's there, even as a link
        to a system Python: its ``pyvenv.cfg`` puts the project's ``site-packages`` (a ``.pth`` runs code) on the
        path at every start. The command line's ``--python`` may name either."""
        if given is not None:
            return given
        value = self.values.get(key, default)
        if key == "python" and self.path is not None and value is not None:
            self._check_python(self.path, value)
        return value

    @staticmethod
    def _check_python(path: Path, value: str) -> None:
        """UserError for an interpreter ``path`` (the file) may not choose: one set in a file of another user, or
        one inside the project (a program there, or a virtual environment there)."""
        owner = path.stat().st_uid
        if owner not in (os.geteuid(), 0):  # (the walk up crossed into a shared directory: /tmp, a group's)
            raise UserError(f"{path}: [tool.reportkit] python = {value!r} is set in a file of another user "
                            f"(uid {owner}), who would choose the program reportkit starts with your rights; pass "
                            "--python to use it")
        if not isinstance(value, str) or os.sep not in value:
            return
        project = Path(os.path.realpath(path.parent))
        named = os.path.expanduser(value)
        for where in (Path(os.path.realpath(named)), Path(os.path.realpath(os.path.dirname(named)))):
            if where == project or project in where.parents:
                raise UserError(f"{path}: [tool.reportkit] python = {value!r} is inside the project (a program "
                                "or a virtual environment there runs the project's code when it starts), which "
                                "reportkit would start outside its sandbox; pass --python to use it")


def _table(path: Path) -> Optional[dict]:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ModuleNotFoundError:
            raise UserError(f"{path}: reading [tool.reportkit] needs Python 3.11+ or the tomli package") from None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read it: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML: {exc}") from None
    table = data.get("tool", {}).get("reportkit") if isinstance(data.get("tool"), dict) else None
    if table is not None and not isinstance(table, dict):
        raise UserError(f"{path}: [tool.reportkit] must be a table")
    return table


def find(start: Path) -> Optional[tuple[Path, dict]]:
    """The nearest ``pyproject.toml`` at or above ``start`` with a ``[tool.reportkit]`` table, and the table."""
    for directory in (start, *start.parents):
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            table = _table(candidate)
            if table is not None:
                return candidate, table
    return None


def load(target: Optional[str] = None, cwd: Optional[Path] = None) -> Config:
    """The configuration for ``target`` (a script path or a pytest node id; None: only the current directory)."""
    starts = []
    if target:
        path = Path(target.split("::", 1)[0]).expanduser()
        starts.append((path if path.is_dir() else path.parent).resolve())
    starts.append((cwd or Path.cwd()).resolve())
    for start in starts:
        found = find(start)
        if found is not None:
            return Config(found[0], validate(found[0], found[1]))
    return Config()


def validate(path: Path, table: dict) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in KEYS:
            raise UserError(f"{path}: unknown key {key!r} in [tool.reportkit] (known: {', '.join(KEYS)})")
        values[key] = _check(path, key, value)
    return values


def _check(path: Path, key: str, value: Any) -> Any:
    def bad(expected: str) -> UserError:
        return UserError(f"{path}: [tool.reportkit] {key} = {value!r}: expected {expected}")

    if key == "timeout":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0.1:
            raise bad("a number of seconds >= 0.1")
        return float(value)
    if key in ("jobs", "runs"):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad("an integer >= 1")
        return value
    if key == "python":
        if not isinstance(value, str) or not value:
            raise bad("a path or command name")
        if os.sep in value and not os.path.isabs(os.path.expanduser(value)):
            return str(path.parent / value)
        return value
    if key == "sandbox":
        if value not in SANDBOXES:
            raise bad(" or ".join(SANDBOXES))
        return value
    if key == "venue":
        if value not in (AUTO_TEMPLATE, *TEMPLATE_NAMES):
            raise bad(", ".join((AUTO_TEMPLATE, *TEMPLATE_NAMES)))
        return value
    if key in ("keep_env", "labels"):
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise bad("a list of strings")
        return list(value)
    raise bad("?")  # pragma: no cover - every key of KEYS is handled above
