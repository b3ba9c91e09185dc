"""Fold the script's local modules into the script itself (before reduction).

A failing script usually lives in a project: ``train.py`` imports its own ``models/`` package and
``utils/config.py``. A reproducer that still says ``from models import Encoder`` only runs inside the
reporter's checkout. :func:`flatten_source` merges every module the script imports *from its own
project* (resolved in the script's directory or the project root, not in site-packages or the
standard library) into one script, so that the reducer can shrink that code too and the result
imports installed packages only:

- the local modules are emitted before the script's own code, in import (dependency) order, each
  under a ``# --- folded in from path/to/module.py ---`` line, with their classes, functions and
  statements as written (only identifiers are edited, comments and layout stay);
- imports of local modules are removed; names they bound are rewritten to the folded definitions
  (``from .vit import VisionTransformer as VT`` → ``VisionTransformer``), attribute access through a
  module object (``utils.config.load_config``) becomes the name itself;
- a folded module's top-level name that clashes with another binding gets a prefix from its module
  (``layers_init_weights``), scope-aware (locals that shadow it are left alone); the script's own
  names never change, so its statements keep their text; a name a module (or the script) imports
  from a local module and then binds again itself keeps its own binding, the import becoming an
  assignment (``check = validate_check``);
- ``if __name__ == "__main__":`` blocks of folded modules (they do not run on import) and their
  ``__all__`` lists are dropped; ``from __future__`` imports move to the top, after the script's
  docstring (it stays the module's ``__doc__``).

Everything that cannot be folded faithfully raises :class:`NotFlattenable` with the reason (a module
object used as a value, ``import *`` from a module without literal names, a module importing the
script, ...). :func:`fold_local_code` runs the folded script once and keeps it only when it fails the
same way as the original; otherwise the reducer works on the script as it is. The comparison puts the
frames of folded lines back in their modules (:class:`~reportkit.failure.signature.SourceMap`, recorded while
folding), so an exception raised inside a local module matches its original file and line.
"""

from __future__ import annotations

import ast
import builtins
import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from reportkit.failure.signature import Signature, SourceMap
from reportkit.io import open_regular, readable_by_runs
from reportkit.redact import clip_words
from reportkit.reduce.passes.wellformed import TREES
from reportkit.run.executor import walk_statements

FOLD_MARK = "# --- folded in from {} ---"


class NotFlattenable(Exception):
    """The script's local code cannot be folded in faithfully (the message says why)."""


@dataclass
class Flattened:
    source: str
    modules: list[str]  # folded-in files, relative to the project root, in the order emitted
    renamed: dict[str, str] = field(default_factory=dict)  # "module.name" -> flat name, where it changed
    # the folded lines' modules (absolute paths) and line numbers there: a run of ``source`` gets the
    # original's signature (reportkit.failure.signature.signature_of with ``source_map``)
    source_map: SourceMap = field(default_factory=SourceMap)


# --------------------------------------------------------------------------- modules of the project


@dataclass
class _Module:
    name: str  # dotted module name
    path: Path
    is_package: bool
    source: str
    tree: ast.Module
    exports: dict[str, tuple] = field(default_factory=dict)  # top-level name -> binding key
    aliases: dict[str, object] = field(default_factory=dict)  # name -> key of a local definition, or _ModRef
    deps: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _ModRef:
    module: str  # a name bound to a (local) module object


def _resolve_path(dotted: str, roots: list[Path]) -> tuple[Path, bool] | None:
    parts = dotted.split(".")
    for root in roots:
        base = root.joinpath(*parts)
        if (base / "__init__.py").is_file():
            return base / "__init__.py", True
        if base.with_suffix(".py").is_file() and base.name != "__init__":
            return base.with_suffix(".py"), False
        if base.is_dir() and any(base.glob("*.py")):  # a namespace package of the project
            return base, True
    return None


def _check_foldable(path: Path) -> None:
    """A module file reportkit may read to fold it in, with no more rights than the runs that read it have: as root
    (the runs drop the capabilities that read other users' files), one the permission bits let root read, on every
    directory of its real path too (:func:`~reportkit.io.readable_by_runs`);
    never another user's file in a directory every user may write (a shared ``/tmp``: it is someone else's code,
    not the project's, whatever the script imports)."""
    try:
        st, parent = os.stat(path), os.stat(path.parent)
    except OSError as exc:
        raise NotFlattenable(f"cannot read {path}: {exc.strerror}") from None
    if not readable_by_runs(path):  # (as root: also a readable file in another user's private directory)
        raise NotFlattenable(f"{path} is another user's private file (runs cannot read it): not folded in")
    if st.st_uid not in (os.geteuid(), 0) and parent.st_mode & 0o002:
        raise NotFlattenable(f"{path} is another user's file in a directory every user may write: not folded in")


class _Project:
    def __init__(self, script: Path, roots: list[Path]):
        self.script = script.resolve()
        self.roots = [r.resolve() for r in roots]
        self.modules: dict[str, _Module] = {}
        self.order: list[str] = []  # load order (dependencies first)
        self._loading: set[str] = set()

    def local(self, dotted: str) -> bool:
        return dotted in self.modules or _resolve_path(dotted, self.roots) is not None

    def load(self, dotted: str) -> _Module:
        if dotted in self.modules:
            return self.modules[dotted]
        found = _resolve_path(dotted, self.roots)
        if found is None:
            raise NotFlattenable(f"module {dotted} not found in the project")
        path, is_package = found
        if path.resolve() == self.script:
            raise NotFlattenable(f"a local module imports the script itself ({dotted})")
        if "." in dotted:  # a package's __init__ runs before its submodules
            self.load(dotted.rsplit(".", 1)[0])
        _check_foldable(path)
        if path.is_dir():  # namespace package: no code of its own
            source = ""
        else:
            try:
                with open_regular(path, follow=True) as fh:  # (a FIFO or a device is no module)
                    source = fh.read().decode("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise NotFlattenable(f"cannot read {path}: {exc}") from None
        try:
            tree = ast.parse(source)
        except SyntaxError as exc:
            raise NotFlattenable(f"{path} does not parse: {exc}") from None
        mod = _Module(dotted, path, is_package, source, tree)
        self.modules[dotted] = mod
        self._loading.add(dotted)
        self._scan(mod)
        self._loading.discard(dotted)
        self.order.append(dotted)
        return mod

    # -- imports of one module (or of the script: mod.name == "__main__")

    def package_of(self, mod: _Module) -> str:
        if mod.name == "__main__":
            return ""
        return mod.name if mod.is_package else mod.name.rpartition(".")[0]

    def absolute(self, mod: _Module, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = self.package_of(mod)
        parts = base.split(".") if base else []
        if node.level - 1 > len(parts):
            raise NotFlattenable(f"relative import beyond the top package in {mod.path}")
        parts = parts[: len(parts) - (node.level - 1)]
        if node.module:
            parts.append(node.module)
        return ".".join(parts)

    def _scan(self, mod: _Module, exports: bool = True) -> None:
        """Load the local modules ``mod`` imports; record its top-level bindings (unless ``exports`` is False:
        the caller does, when it needs them)."""
        for node in walk_statements(mod.tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for dotted in self.imported(mod, node)[0]:
                    self._dep(mod, dotted)
        if exports:
            mod.exports = self._bindings(mod)

    def imported(self, mod: _Module, node: ast.Import | ast.ImportFrom) -> tuple[list[str], list[str]]:
        """The local modules an import statement of ``mod`` imports (``import a.b``: ``a.b``; ``from pkg
        import sub, name``: ``pkg`` and the submodule ``pkg.sub``), and those it reads a name of that is
        not a submodule (``pkg``, for ``name``)."""
        if isinstance(node, ast.Import):
            return [a.name for a in node.names if self.local(a.name.split(".")[0])], []
        target = self.absolute(mod, node)
        if not (node.level or (target and self.local(target.split(".")[0]))):
            return [], []
        if not target:
            raise NotFlattenable(f"cannot resolve a relative import in {mod.path}")
        subs = [f"{target}.{a.name}" for a in node.names
                if a.name != "*" and _resolve_path(f"{target}.{a.name}", self.roots)]
        return [target, *subs], [target] if len(subs) < len(node.names) else []

    def _dep(self, mod: _Module, dotted: str) -> None:
        parts = dotted.split(".")
        for i in range(1, len(parts) + 1):
            name = ".".join(parts[:i])
            if name in self._loading and name != mod.name:
                continue  # a cycle: its module is being loaded above us
            if name != mod.name:
                self.load(name)
                if name not in mod.deps:
                    mod.deps.append(name)

    def _bindings(self, mod: _Module) -> dict[str, tuple]:
        out: dict[str, tuple] = {}
        for stmt in _top_statements(mod.tree.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out[stmt.name] = ("def", mod.name, stmt.name)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for name, ref in self.import_bindings(mod, stmt).items():
                    if isinstance(ref, _ModRef):
                        mod.aliases[name] = ref
                    elif isinstance(ref, tuple) and ref[0] == "local":
                        mod.aliases[name] = ref
                    else:
                        out[name] = ref
            else:
                for name in _assigned_names(stmt):
                    out[name] = ("def", mod.name, name)
        return out

    def import_bindings(self, mod: _Module, node: ast.Import | ast.ImportFrom) -> dict[str, object]:
        """name -> _ModRef (a local module), ("local", module, attr) (a local module's attribute), or
        ("imp", text) (an installed/stdlib import, identified by what it imports)."""
        out: dict[str, object] = {}
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                local = self.local(top)
                if alias.asname:
                    out[alias.asname] = _ModRef(alias.name) if local else ("imp", "mod", alias.name)
                else:
                    out[top] = _ModRef(top) if local else ("imp", "mod", top)
            return out
        target = self.absolute(mod, node)
        local = bool(node.level) or (bool(target) and self.local(target.split(".")[0]))
        for alias in node.names:
            if alias.name == "*":
                if not local:
                    raise NotFlattenable(f"'from {target} import *' in {mod.path}: names unknown")
                src = self.load(target)
                for name in _star_names(src):
                    out[name] = ("local", target, name)
                continue
            name = alias.asname or alias.name
            if not local:
                out[name] = ("imp", "attr", target, alias.name)
            elif _resolve_path(f"{target}.{alias.name}", self.roots) and not self._binds(target, alias.name):
                out[name] = _ModRef(f"{target}.{alias.name}")
            else:
                out[name] = ("local", target, alias.name)
        return out

    def _binds(self, package: str, name: str) -> bool:
        """Does the package's ``__init__`` bind ``name`` itself (``from .load import load``)? Then
        ``from package import name`` gets that binding, not the submodule of that name: Python reads
        the package's attribute first, and ``__init__``'s binding replaced the submodule there."""
        mod = self.modules.get(package)
        return mod is not None and package not in self._loading and (name in mod.exports or name in mod.aliases)

    def key_of(self, module: str, name: str, seen: frozenset = frozenset()) -> object:
        """The binding ``module.name`` refers to, following aliases through local modules."""
        if (module, name) in seen:
            raise NotFlattenable(f"circular alias {module}.{name}")
        mod = self.load(module)
        if name in mod.exports:
            return mod.exports[name]
        ref = mod.aliases.get(name)
        if isinstance(ref, _ModRef):
            return ref
        if isinstance(ref, tuple) and ref[0] == "local":
            return self.key_of(ref[1], ref[2], seen | {(module, name)})
        if _resolve_path(f"{module}.{name}", self.roots):  # a submodule, as an attribute of its package
            return _ModRef(f"{module}.{name}")
        raise NotFlattenable(f"{module} has no top-level name {name!r} that can be folded")


def _top_statements(body: list[ast.stmt]):
    """Top-level statements, descending into if/try/with/for/while bodies (they bind module names)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            yield from _top_statements(stmt.body)
            yield from _top_statements(getattr(stmt, "orelse", []))
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            yield from _top_statements(stmt.body)
            for handler in stmt.handlers:
                yield from _top_statements(handler.body)
            yield from _top_statements(stmt.orelse)
            yield from _top_statements(stmt.finalbody)


def _assigned_names(stmt: ast.stmt) -> list[str]:
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [i.optional_vars for i in stmt.items if i.optional_vars is not None]
    names = []
    for t in targets:
        names += [n.id for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, ast.Try):
        names += [h.name for h in stmt.handlers if h.name]
    return names


def _star_names(mod: _Module) -> list[str]:
    for stmt in mod.tree.body:
        if isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
            try:
                return list(ast.literal_eval(stmt.value))
            except ValueError:
                raise NotFlattenable(f"{mod.path}: __all__ is not a literal") from None
    return [n for n in list(mod.exports) + list(mod.aliases) if not n.startswith("_")]


# --------------------------------------------------------------------------- scope-aware renaming


def _function_locals(node) -> set[str]:
    """Names bound in a function's own scope (not in nested functions/classes), minus global/nonlocal."""
    args = node.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    declared: set[str] = set()
    body = node.body if isinstance(node.body, list) else [node.body]
    stack = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Global, ast.Nonlocal)):
            declared |= set(n.names)
            continue
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(n.name)
            stack.extend(n.decorator_list)
            continue
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue  # their own scope
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            names.add(n.id)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in n.names}
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, ast.MatchAs) and n.name or isinstance(n, ast.MatchStar) and n.name:
            names.add(n.name)
        stack.extend(ast.iter_child_nodes(n))
    return names - declared


def _comp_locals(node) -> set[str]:
    out = set()
    for gen in node.generators:
        out |= {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    return out


_LINE_RE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _source_lines(source: str) -> list[str]:
    """The lines of ``source`` (with their ends) as Python numbers them: only \\n, \\r\\n and \\r end a
    line (``str.splitlines`` also splits at form feeds and other separators)."""
    return _LINE_RE.findall(source)


class _Edits:
    """Text edits by (line, byte column) positions, applied back to front."""

    def __init__(self, source: str):
        self.lines = _source_lines(source)
        self.items: list[tuple[int, int, int, int, str]] = []
        self.removed: set[int] = set()  # ids of the statements deleted without a replacement
        self.top: list[ast.stmt] | None = None  # the module's body (it needs no ``pass``)

    def add(self, l1: int, c1: int, l2: int, c2: int, text: str) -> None:
        self.items.append((l1, c1, l2, c2, text))

    def apply_lines(self) -> list[tuple[str, int]]:
        """The edited text as (line with its end, the line number it came from in the source)."""
        data = [ln.encode("utf-8") for ln in self.lines]
        origin = list(range(1, len(data) + 1))
        for l1, c1, l2, c2, text in sorted(self.items, reverse=True):
            first, last = data[l1 - 1], data[l2 - 1]
            data[l1 - 1:l2] = [first[:c1] + text.encode("utf-8") + last[c2:]]
            origin[l1 - 1:l2] = [l1]
        return [(piece, line) for chunk, line in zip(data, origin)
                for piece in _source_lines(chunk.decode("utf-8"))]

    def apply(self) -> str:
        return "".join(piece for piece, _ in self.apply_lines())


class _Renamer(ast.NodeVisitor):
    """Collect edits that rename module-global references (``names``: old -> new or _ModRef)."""

    def __init__(self, project: _Project, flat_of, names: dict[str, object], edits: _Edits, lines: list[str],
                 where: Path):
        self.project = project
        self.flat_of = flat_of
        self.names = names
        self.edits = edits
        self.lines = lines
        self.where = where
        self.scopes: list[set[str]] = []

    def shadowed(self, name: str) -> bool:
        return any(name in s for s in self.scopes)

    # definitions: their own names (top level only are renamed), their scopes
    def _def_name(self, node) -> None:
        if self.scopes or node.name not in self.names:
            return
        new = self.names[node.name]
        if isinstance(new, str) and new != node.name:
            line = self.lines[node.lineno - 1]
            kw = "class" if isinstance(node, ast.ClassDef) else "def"
            m = re.compile(rf"\b{kw}\s+({re.escape(node.name)})\b").search(line)
            if not m:
                raise NotFlattenable(f"cannot locate the definition of {node.name} in {self.where}")
            start = len(line[:m.start(1)].encode("utf-8"))
            self.edits.add(node.lineno, start, node.lineno, start + len(node.name.encode("utf-8")), new)

    def visit_FunctionDef(self, node) -> None:
        for d in node.decorator_list:
            self.visit(d)
        self._visit_args(node.args)
        if node.returns:
            self.visit(node.returns)
        self._def_name(node)
        self.scopes.append(_function_locals(node))
        for stmt in node.body:
            self.visit(stmt)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _visit_args(self, args: ast.arguments) -> None:
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(d)
        for a in args.posonlyargs + args.args + args.kwonlyargs + [x for x in (args.vararg, args.kwarg) if x]:
            if a.annotation is not None:
                self.visit(a.annotation)

    def visit_Lambda(self, node) -> None:
        self._visit_args(node.args)
        self.scopes.append(_function_locals(node))
        self.visit(node.body)
        self.scopes.pop()

    def visit_ClassDef(self, node) -> None:
        for d in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(d)
        self._def_name(node)
        for stmt in node.body:  # class-body names are not visible in methods; keep it simple: not shadowing
            self.visit(stmt)

    def _visit_comp(self, node) -> None:
        # the first iterable is evaluated in the enclosing scope
        self.visit(node.generators[0].iter)
        self.scopes.append(_comp_locals(node))
        for i, gen in enumerate(node.generators):
            if i:
                self.visit(gen.iter)
            for cond in gen.ifs:
                self.visit(cond)
        for part in ("elt", "key", "value"):
            if hasattr(node, part):
                self.visit(getattr(node, part))
        self.scopes.pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _visit_comp

    def visit_Global(self, node) -> None:
        line = self.lines[node.lineno - 1]
        for name in node.names:
            new = self.names.get(name)
            if isinstance(new, str) and new != name:
                m = re.compile(rf"\b{re.escape(name)}\b").search(line, node.col_offset)
                if m:
                    start = len(line[:m.start()].encode("utf-8"))
                    self.edits.add(node.lineno, start, node.lineno, start + len(name.encode("utf-8")), new)

    def visit_Attribute(self, node) -> None:
        chain = []
        base = node
        while isinstance(base, ast.Attribute):
            chain.append(base)
            base = base.value
        if isinstance(base, ast.Name) and not self.shadowed(base.id) and isinstance(self.names.get(base.id), _ModRef):
            module = self.names[base.id].module
            for attr_node in reversed(chain):  # innermost first: a.b.c -> (a.b), (a.b.c)
                ref = self.project.key_of(module, attr_node.attr)
                if isinstance(ref, _ModRef):
                    module = ref.module
                    continue
                self.edits.add(attr_node.lineno, attr_node.col_offset, attr_node.end_lineno,
                               attr_node.end_col_offset, self.flat_of(ref))
                # what follows (e.g. .weight) stays as written
                return
            raise NotFlattenable(f"module object {module} used as a value in {self.where}:{node.lineno}")
        self.generic_visit(node)

    def visit_Name(self, node) -> None:
        if self.shadowed(node.id) or node.id not in self.names:
            return
        new = self.names[node.id]
        if isinstance(new, _ModRef):
            raise NotFlattenable(f"module object {new.module} used as a value in {self.where}:{node.lineno}")
        if new != node.id:
            self.edits.add(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, new)


# --------------------------------------------------------------------------- flatten


def _parents(tree: ast.Module) -> dict[int, list[ast.stmt]]:
    """id(statement) -> the statement list that holds it."""
    out = {}
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            body = getattr(node, name, None)
            if isinstance(body, list):
                for stmt in body:
                    out[id(stmt)] = body
        for handler in getattr(node, "handlers", []) or []:
            for stmt in handler.body:
                out[id(stmt)] = handler.body
    return out


def _delete(edits: _Edits, lines: list[str], stmt: ast.stmt, siblings: list[ast.stmt], replacement: str = "") -> None:
    """Remove ``stmt`` (whole lines when it has them to itself; ``pass`` when its block needs one: the
    last of its statements to go)."""
    first, last = lines[stmt.lineno - 1], lines[stmt.end_lineno - 1]
    whole = not first[:len(first.encode()[:stmt.col_offset].decode("utf-8", "replace"))].strip() and \
        not last.encode("utf-8")[stmt.end_col_offset:].decode("utf-8", "replace").split("#")[0].strip()
    if not replacement:
        edits.removed.add(id(stmt))
    alone = siblings is not edits.top and all(id(s) in edits.removed for s in siblings)
    text = replacement or ("pass" if alone else "")
    if whole and not text:
        edits.add(stmt.lineno, 0, stmt.end_lineno, len(last.encode("utf-8")), "")
    else:
        edits.add(stmt.lineno, stmt.col_offset, stmt.end_lineno, stmt.end_col_offset, text)


def _is_main_guard(stmt: ast.stmt) -> bool:
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare):
        return False
    parts = [stmt.test.left, *stmt.test.comparators]
    return any(isinstance(p, ast.Name) and p.id == "__name__" for p in parts) and \
        any(isinstance(p, ast.Constant) and p.value == "__main__" for p in parts)


def project_roots(script: Path, root: Path | None = None) -> list[Path]:
    """Where the script's own imports resolve: its directory, pytest's rootdir-insertion base (the
    first ancestor without ``__init__.py``) and the project root, in that order."""
    script = script.resolve()
    roots = [script.parent]
    base = script.parent
    while (base / "__init__.py").is_file() and base.parent != base:
        base = base.parent
    for extra in (base, root.resolve() if root else None):
        if extra is not None and extra not in roots:
            roots.append(extra)
    return roots


def flatten_source(script: Path, source: str, roots: list[Path] | None = None) -> Flattened | None:
    """The script with its local modules folded in; None when it imports no local module."""
    roots = roots or project_roots(script)
    try:
        tree = TREES.parse(source)  # (kept: the analyses of the original that follow read it too)
    except SyntaxError as exc:
        raise NotFlattenable(f"the script does not parse: {exc}") from None
    project = _Project(script, roots)
    main = _Module("__main__", script.resolve(), False, source, tree)
    project._scan(main, exports=False)  # (the script's bindings: only when there is something to fold)
    if not project.order:
        if any(isinstance(stmt, ast.ImportFrom) and any(a.name == "*" for a in stmt.names)
               for stmt in _top_statements(tree.body)):
            project._bindings(main)  # ``from installed import *``: not flattenable, said as before
        return None
    main.exports = project._bindings(main)  # (after its imports were loaded, as in _scan)
    flat_names = _FlatNames()
    script_names = _claim_script_names(project, main, flat_names)
    renamed = _assign_module_names(project, flat_names)
    future: list[str] = []
    parts, folded = _fold_modules(project, flat_names, roots, future, main)
    names = _script_rewrite_names(script_names, flat_names)
    rebound = {name: flat_names.flat_of(ref) for name, ref in script_names.items() if _rebinds(main, name, ref)}
    for name in rebound:
        names.pop(name, None)
    pieces = _rewrite(project, main, names, flat_names.flat_of, future, set(), folded_module=False, rebound=rebound)
    doc = _docstring_lines(tree)  # the script's docstring stays the module's: first (``__doc__`` reads it)
    script_pieces = [(piece, line) for piece, line in pieces if line not in doc]
    script_text = "".join(piece for piece, _ in script_pieces)
    head = "".join(piece for piece, line in pieces if line in doc)
    head += "".join(f"{line}\n" for line in dict.fromkeys(future))
    source, source_map = _assemble(head, parts, f"# --- {script.name} ---\n" + script_text.lstrip("\n"), renamed,
                                   project)
    # the script's own lines too: a frame there is the original's at its line, as the user wrote it (folding
    # rewrites ``humanize.naturalsize(...)`` as ``naturalsize(...)``; the raising statement is the same)
    lead = 0
    while lead < len(script_pieces) and script_pieces[lead][0] == "\n":
        lead += 1
    if "".join(piece for piece, _ in script_pieces[lead:]) == script_text.lstrip("\n"):
        first = len(_source_lines(source)) - len(_source_lines(script_text.lstrip("\n"))) + 1
        original = _source_lines(main.source)
        for k, (_piece, line) in enumerate(script_pieces[lead:]):
            if 0 < line <= len(original):
                source_map.lines.setdefault(first + k, (str(script.resolve()), line, original[line - 1].strip()))
    return Flattened(source=source, modules=folded, renamed=renamed, source_map=source_map)


def _docstring_lines(tree: ast.Module) -> range:
    """The line numbers of the module's docstring (empty when it has none or shares a line with code)."""
    body = tree.body
    if not (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        return range(0)
    first = body[0]
    end = first.end_lineno or first.lineno
    if len(body) > 1 and body[1].lineno <= end:
        return range(0)
    return range(first.lineno, end + 1)


class _FlatNames:
    """The flat script's one namespace: which key holds each name (``taken``) and the name each folded
    definition got (``flat``). The script's names stay; folded modules' names yield on a clash."""

    def __init__(self) -> None:
        self.taken: dict[str, object] = {}
        self.flat: dict[object, str] = {}

    def assign(self, key, preferred: str, prefix: str) -> str:
        if key in self.flat:
            return self.flat[key]
        name = preferred
        if name in self.taken and self.taken[name] != key:
            base = f"{prefix}_{preferred.lstrip('_')}" if prefix else preferred
            name, i = base, 2
            while name in self.taken:
                name, i = f"{base}_{i}", i + 1
        self.taken[name] = key
        self.flat[key] = name
        return name

    def flat_of(self, key) -> str:
        if key not in self.flat:
            raise NotFlattenable(f"no folded definition for {key}")
        return self.flat[key]


def _claim_script_names(project: _Project, main: _Module, flat_names: _FlatNames) -> dict[str, object]:
    """Reserve every name the script uses (builtins it reads, its imports, exports and stores); returns
    what each of the script's top-level import bindings refers to."""
    taken, flat, tree = flat_names.taken, flat_names.flat, main.tree
    free = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and hasattr(builtins, n.id)}
    for name in free:
        taken[name] = ("free", name)
    script_names: dict[str, object] = {}
    for stmt in _top_statements(tree.body):
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            continue
        for name, ref in project.import_bindings(main, stmt).items():
            if isinstance(ref, tuple) and ref[0] == "local":
                ref = project.key_of(ref[1], ref[2])
            script_names[name] = ref
            if _rebinds(main, name, ref):
                continue  # imported, then bound by the script itself: the name stays the script's
            if not isinstance(ref, _ModRef):
                taken[name] = ref
                flat.setdefault(ref, name)
    for name, key in main.exports.items():
        taken.setdefault(name, key)
    for name in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}:
        taken.setdefault(name, ("script", name))
    return script_names


def _rebinds(main: _Module, name: str, ref: object) -> bool:
    """Does the script bind ``name``, imported from a local module, again itself (a def, an assignment)?"""
    own = main.exports.get(name)
    return not isinstance(ref, _ModRef) and isinstance(own, tuple) and own[0] == "def" and own != ref


def _fold_prefix(dotted: str, is_package: bool) -> str:
    """The prefix a folded module's clashing names get (module name; a package's full dotted name)."""
    return re.sub(r"\W", "_", dotted.rsplit(".", 1)[-1] if not is_package else dotted.replace(".", "_"))


def _assign_module_names(project: _Project, flat_names: _FlatNames) -> dict[str, str]:
    """Give every folded module's export its flat name; returns the renamed ones (``mod.name`` -> new)."""
    renamed: dict[str, str] = {}
    for dotted in project.order:
        mod = project.modules[dotted]
        prefix = _fold_prefix(dotted, mod.is_package)
        for name, key in mod.exports.items():
            if name == "__all__":
                continue
            new = flat_names.assign(key, name, prefix)
            if new != name:
                renamed[f"{dotted}.{name}"] = new
    return renamed


def _module_rewrite_names(project: _Project, mod: _Module,
                          flat_names: _FlatNames) -> tuple[dict[str, object], dict[str, str]]:
    """What each of a folded module's own names becomes in the flat script, and the names it imports
    from a local module and binds again itself (name -> the imported definition's flat name)."""
    names: dict[str, object] = {}
    rebound: dict[str, str] = {}
    for name, key in mod.exports.items():
        names[name] = flat_names.flat.get(key, name)
    for name, ref in mod.aliases.items():
        if isinstance(ref, _ModRef):
            names[name] = ref
        elif name in mod.exports:
            rebound[name] = flat_names.flat_of(project.key_of(ref[1], ref[2]))
        else:
            names[name] = flat_names.flat_of(project.key_of(ref[1], ref[2]))
    return names, rebound


@dataclass
class _Part:
    """One folded module's text in the flat script: its fold mark, then its lines."""

    text: str
    module: _Module
    origins: list[int]  # the module's line number of each line after the fold mark


def _local_imports(project: _Project, mod: _Module) -> list[tuple[int, list[str], list[str]]]:
    """``mod``'s top-level imports of local modules, by module-level statement (a ``try`` may hold
    several), in order: (the line after that statement, the modules its imports run (packages first),
    the modules they read names of that are not submodules: ``pkg`` for ``from pkg import register``)."""
    out = []
    for top in mod.tree.body:
        runs: list[str] = []
        reads: list[str] = []
        for stmt in _top_statements([top]):
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                dotted, read = project.imported(mod, stmt)
                reads += read
                runs += [".".join(d.split(".")[:i]) for d in dotted for i in range(1, d.count(".") + 2)]
        if runs:
            out.append(((top.end_lineno or top.lineno) + 1, list(dict.fromkeys(runs)), reads))
    return out


def _execution_segments(project: _Project, main: _Module) -> list[tuple[str, int]] | None:
    """Where an import cycle needs Python's own order: (module, the line its segment starts at), in
    the order Python runs them. A module runs up to its top-level import of a module not run yet, then
    that module, then on -- ``plugins/__init__.py`` defines ``register`` and then imports
    ``plugins.builtin``, whose ``from plugins import register`` reads the half-run package. None when
    no module reads a name of a module that is still running: then each module goes whole, its
    dependencies first (:attr:`_Project.order`)."""
    segments: list[tuple[str, int]] = []
    state: dict[str, str] = {}
    cyclic = False

    def run(dotted: str) -> None:
        nonlocal cyclic
        if dotted in state or dotted not in project.modules:
            return
        parent = dotted.rpartition(".")[0]
        if parent:
            run(parent)  # a package's __init__ runs before its submodules
            if dotted in state:  # the package's code imported it
                return
        state[dotted] = "running"
        segments.append((dotted, 1))
        for after, runs, reads in _local_imports(project, project.modules[dotted]):
            cyclic |= any(state.get(r) == "running" for r in reads)
            new = [r for r in runs if r not in state]
            for r in new:
                run(r)
            if new:
                segments.append((dotted, after))
        state[dotted] = "done"

    for _, runs, _ in _local_imports(project, main):
        for dotted in runs:
            run(dotted)
    if not cyclic:
        return None
    segments += [(dotted, 1) for dotted in project.order if dotted not in state]  # imported in functions only
    return segments


def _fold_modules(project: _Project, flat_names: _FlatNames, roots: list[Path],
                  future: list[str], main: _Module) -> tuple[list[_Part], list[str]]:
    """The rewritten text of each folded module (with its fold mark) and the folded modules' paths.
    In an import cycle (:func:`_execution_segments`) a module may go in several parts."""
    segments = _execution_segments(project, main)
    emitted_imports: set[str] | None = set() if segments is None else None  # split: no import is dropped
    pieces_of: dict[str, list[tuple[str, int]]] = {}
    folded: list[str] = []
    common = Path(os.path.commonpath([str(r) for r in roots]))
    for dotted in project.order if segments is None else dict.fromkeys(d for d, _ in segments):
        mod = project.modules[dotted]
        if not mod.source.strip():
            continue
        names, rebound = _module_rewrite_names(project, mod, flat_names)
        pieces_of[dotted] = _rewrite(project, mod, names, flat_names.flat_of, future, emitted_imports,
                                     folded_module=True, rebound=rebound)
        folded.append(os.path.relpath(mod.path, common))
    if segments is None:
        segments = [(dotted, 1) for dotted in pieces_of]
    parts: list[_Part] = []
    for i, (dotted, start) in enumerate(segments):
        if dotted not in pieces_of:
            continue
        end = min((s for d, s in segments[i + 1:] if d == dotted and s > start), default=None)
        pieces = [(piece, line) for piece, line in pieces_of[dotted]
                  if line >= start and (end is None or line < end)]
        text = "".join(piece for piece, _ in pieces)
        if not text.strip():  # e.g. a package __init__ that only re-exported
            continue
        mod = project.modules[dotted]
        lead = len(text) - len(text.lstrip("\n"))  # leading empty lines, dropped
        mark = FOLD_MARK.format(os.path.relpath(mod.path, common) + (" (continued)" if start > 1 else ""))
        parts.append(_Part(mark + "\n" + text.strip("\n") + "\n", mod, [line for _, line in pieces[lead:]]))
    return parts, folded


def _assemble(head: str, parts: list[_Part], tail: str, renamed: dict[str, str],
              project: _Project) -> tuple[str, SourceMap]:
    """The flat script (``head``, the parts, ``tail``) and where its folded lines came from."""
    source_map = SourceMap()
    text = head
    for i, part in enumerate(parts):
        text += "\n\n" if i else ""
        mark = len(_source_lines(text)) + 1  # the part's first line: its fold mark
        lines = _source_lines(part.module.source)
        for k, line in enumerate(part.origins[:len(_source_lines(part.text)) - 1]):
            source_map.lines[mark + 1 + k] = (str(part.module.path), line, lines[line - 1].strip())
        text += part.text
    for dotted_name, new in renamed.items():
        dotted, _, name = dotted_name.rpartition(".")
        source_map.names[(str(project.modules[dotted].path), new)] = name
    return text + "\n\n" + tail, source_map


def _script_rewrite_names(script_names: dict[str, object], flat_names: _FlatNames) -> dict[str, object]:
    """What the script's imported local names become: module references, or folded definitions' flat names."""
    names: dict[str, object] = {}
    for name, ref in script_names.items():
        if isinstance(ref, _ModRef):
            names[name] = ref
        elif isinstance(ref, tuple) and ref[0] in ("def",):
            names[name] = flat_names.flat_of(ref)
    return names


def _rewrite(project: _Project, mod: _Module, names: dict[str, object], flat_of, future: list[str],
             emitted_imports: set[str], *, folded_module: bool,
             rebound: dict[str, str] | None = None) -> list[tuple[str, int]]:
    """``mod``'s text with its local imports removed and names rewritten, as (line, line number in
    ``mod``) pairs. ``rebound``: names imported from a local module that ``mod`` binds again itself;
    their import becomes an assignment (``check = validate_check``), so each use sees what it saw."""
    lines = _source_lines(mod.source)
    edits = _Edits(mod.source)
    edits.top = mod.tree.body
    parents = _parents(mod.tree)
    skip: set[int] = set()
    for node in ast.walk(mod.tree):
        if not isinstance(node, ast.stmt) or id(node) not in parents:
            continue
        siblings = parents[id(node)]
        top_of_folded = folded_module and siblings is mod.tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            assign = {str(names.get(n, n)): rebound[n] for n in _bound_by(node) if n in (rebound or {})}
            _rewrite_import(project, mod, node, siblings, edits, lines, future,
                            emitted_imports if top_of_folded else None, assign)
            skip.add(id(node))
        elif top_of_folded and _is_module_boilerplate(node):
            _delete(edits, lines, node, siblings)
            skip.add(id(node))
    renamer = _Renamer(project, flat_of, names, edits, lines, mod.path)
    for stmt in mod.tree.body:
        if id(stmt) not in skip:
            renamer.visit(stmt)
    return edits.apply_lines()


def _bound_by(node: ast.Import | ast.ImportFrom) -> list[str]:
    return [(a.asname or a.name).split(".")[0] for a in node.names]


def _rewrite_import(project: _Project, mod: _Module, node: ast.Import | ast.ImportFrom, siblings: list[ast.stmt],
                    edits: _Edits, lines: list[str], future: list[str], emitted_imports: set[str] | None,
                    assign: dict[str, str] | None = None) -> None:
    """Hoist ``__future__`` imports, drop imports of local modules (trimming mixed ones; ``assign``: the
    assignments that replace the local names bound again later) and, for a folded module's top-level
    imports (``emitted_imports`` given), imports already emitted by an earlier module."""
    assignments = "; ".join(f"{target} = {value}" for target, value in (assign or {}).items() if target != value)
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        future.append(ast.get_source_segment(mod.source, node) or "")
        _delete(edits, lines, node, siblings)
        return
    binds = project.import_bindings(mod, node)
    local = [n for n, ref in binds.items() if isinstance(ref, _ModRef) or ref[0] == "local"]
    if local and len(local) == len(binds):
        _delete(edits, lines, node, siblings, assignments)
    elif local:  # mixed: keep the installed names only
        keep = [a for a in node.names if (a.asname or a.name).split(".")[0] not in local]
        clone = type(node)(**{**{f: getattr(node, f) for f in node._fields}, "names": keep})
        _delete(edits, lines, node, siblings, "; ".join(filter(None, [ast.unparse(clone), assignments])))
    elif emitted_imports is not None:
        text = ast.get_source_segment(mod.source, node) or ""
        if text in emitted_imports:
            _delete(edits, lines, node, siblings)
        emitted_imports.add(text)


def _is_module_boilerplate(node: ast.stmt) -> bool:
    """A folded module's ``if __name__ == "__main__":`` block or ``__all__ = ...`` (dropped when folding)."""
    return _is_main_guard(node) or (isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets))


# --------------------------------------------------------------------------- the minimize hook


#: what pytest reads from a conftest.py that means nothing in a test module: hooks and plugin lists
_CONFTEST_ONLY = re.compile(r"pytest_\w+$")
#: the pytest option that runs a test whose conftest.py files are folded into its module without them
NO_CONFTEST = "--noconftest"


def with_conftests(source: str, conftests: list[tuple[str, str]]) -> str:
    """A pytest test module with the ``conftest.py`` files that apply to it (``(label, text)``, the nearest
    last: :func:`reportkit.reduce.standalone.conftest_chain`) appended, each under a fold mark: their fixtures
    (the nearest definition last, so it wins as in pytest), imports and helpers, as written; hooks
    (``def pytest_*``) and ``pytest_plugins`` left out. Appended, so the module's own lines keep their
    numbers; their imports of local modules are folded with the module's. A fixture copied into the module
    overrides the conftest's, so the module runs the same where the conftest.py files are, and alone.
    :class:`NotFlattenable` when a conftest.py does not parse, imports relatively, or binds a name the
    module binds too (other than by the same import)."""
    tree = ast.parse(source)
    own = {name: what for stmt in tree.body for name, what in _bindings(stmt).items()}
    parts = [source.rstrip("\n") + "\n"]
    for label, text in conftests:
        try:
            conf = ast.parse(text)
        except SyntaxError as exc:
            raise NotFlattenable(f"{label} does not parse: {exc.msg}") from None
        lines = _source_lines(text)
        keep: list[str] = []
        for stmt in conf.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.level:
                raise NotFlattenable(f"{label} imports relatively (from {'.' * stmt.level}{stmt.module or ''})")
            names = _top_bound(stmt)
            if (names and all(_CONFTEST_ONLY.match(n) for n in names)) or _is_main_guard(stmt):
                continue
            if _docstring_lines(conf) and stmt is conf.body[0]:
                continue
            for name, what in _bindings(stmt).items():
                if name in own and own[name] != what:
                    raise NotFlattenable(f"{label}'s {name} clashes with the test module's")
            first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
            keep.append("".join(lines[first - 1:stmt.end_lineno or stmt.lineno]))
        if keep:
            parts.append("\n\n" + FOLD_MARK.format(label) + "\n" + "\n".join(k.rstrip("\n") + "\n" for k in keep))
    return "".join(parts)


def _top_bound(stmt: ast.stmt) -> list[str]:
    """The names a top-level statement binds: a definition's, an import's, an assignment's."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return _bound_by(stmt)
    return _assigned_names(stmt)


def _bindings(stmt: ast.stmt) -> dict[str, str]:
    """``{name: what it is bound to}`` of a top-level statement: for an import, the module and name it
    imports (``from a import b, c`` and ``from a import b`` bind ``b`` alike); else the statement."""
    if isinstance(stmt, ast.Import):
        return {(a.asname or a.name.split(".")[0]): f"import {a.name if a.asname else a.name.split('.')[0]}"
                for a in stmt.names}
    if isinstance(stmt, ast.ImportFrom):
        return {(a.asname or a.name): f"from {'.' * stmt.level}{stmt.module or ''} import {a.name}"
                for a in stmt.names}
    return dict.fromkeys(_top_bound(stmt), ast.unparse(stmt))


def fold_target(script: Path, source: str, root: Path | None, conftests: bool) -> Flattened | None:
    """The target with its local modules folded in (:func:`flatten_source`) and, with ``conftests`` (a
    pytest test; ``root``: its rootdir), the conftest.py files that apply to it first appended
    (:func:`with_conftests`); their labels lead :attr:`Flattened.modules`. None when nothing is folded."""
    labels: list[str] = []
    if conftests and root is not None:
        from reportkit.reduce.standalone import conftest_chain

        chain = conftest_chain(root, script.parent)
        if chain:
            source, labels = with_conftests(source, chain), [label for label, _text in chain]
    flat = flatten_source(script, source, project_roots(script, root))
    if flat is None:
        return Flattened(source=source, modules=labels) if labels else None
    flat.modules = labels + flat.modules
    return flat


def folded_conftests(folded: list[str]) -> bool:
    """Did the fold (:attr:`Flattened.modules`) take in conftest.py files?"""
    return any(Path(m).name == "conftest.py" for m in folded)


def fold_local_code(run_spec, source: str, rep, policy, sandbox) -> tuple[str, list[str], str, Signature]:
    """(source to reduce, folded modules, note, the signature candidates must have). The folded script
    replaces ``source`` only when it runs and fails the way the original did, its folded lines' frames
    put back in their modules (so a raise inside a local module at the same line matches); candidates
    are then compared with the folded script's own signature, that raise being in the script now.
    Otherwise ``source`` is returned with the reason and the original's signature."""
    from reportkit.failure.signature import same_failure, signature_of
    from reportkit.run.runner import run_script

    note = ""
    # a pytest test: with its conftest.py files first (run without them: --noconftest), then without
    for conftests in ([True, False] if run_spec.pytest_node is not None and run_spec.root is not None else [False]):
        spec = replace(run_spec, args=[*run_spec.args, NO_CONFTEST]) if conftests else run_spec
        try:
            flat = fold_target(run_spec.script, source, run_spec.root, conftests)
        except NotFlattenable as exc:
            note = note or f"local modules not folded in: {exc}"
            continue
        except (RecursionError, ValueError) as exc:
            note = note or f"local modules not folded in: {type(exc).__name__}: {exc}"
            continue
        if flat is None:
            continue
        try:
            TREES.parse(flat.source)  # (kept: it becomes the source reduced, when it fails the same way)
        except SyntaxError as exc:
            note = note or f"local modules not folded in: the folded script does not parse ({exc.msg})"
            continue
        result = run_script(spec, flat.source, sandbox)
        got = signature_of(result, policy, _relative_to_run(flat.source_map, sandbox))
        if not same_failure(rep.signature, got, policy):
            note = note or ("local modules not folded in: the folded script fails differently ("
                            + clip_words(got.headline().splitlines()[0], 160) + ")")
            continue
        return flat.source, flat.modules, "folded in " + ", ".join(flat.modules), signature_of(result, policy)
    return source, [], note, rep.signature


def _relative_to_run(source_map: SourceMap, sandbox) -> SourceMap:
    """``source_map`` with the modules inside the directory a run's scratch copy mirrors (the script's
    directory, or a pytest target's rootdir) relative to it: the original run had them in its copy."""
    base = str(sandbox.mirror_root or sandbox.script.parent)

    def rel(file: str) -> str:
        return os.path.relpath(file, base) if file.startswith(base + os.sep) else file

    return SourceMap(lines={n: (rel(f), line, text) for n, (f, line, text) in source_map.lines.items()},
                     names={(rel(f), name): old for (f, name), old in source_map.names.items()})
