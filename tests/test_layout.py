"""The house's rules (CONTRIBUTING.md, "The map"): one package per pipeline stage, imports point down the
stages and never in a circle, the ground floor imports no stage. Read from the code's own ``import``
statements (at any depth, ``TYPE_CHECKING`` blocks included), so a lazy import counts too."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "reportkit"
STAGES = ["run", "failure", "reduce", "report", "ci"]  # bottom to top; cli.py sits above them all
GROUND = {"io", "errors", "constants", "cancel", "redact", "token_table", "config", "__init__"}


def _modules() -> dict[str, Path]:
    mods = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        mods[name] = path
    return mods


def _imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the reportkit modules it imports."""

    def resolve(target: str) -> str | None:
        while target and target not in mods:
            target = target.rpartition(".")[0]
        return target or None

    edges: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = edges.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [f"{base}.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                continue
            for target in targets:
                if target.startswith("reportkit"):
                    module = resolve(target)
                    if module and module != name:
                        found.add(module)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def _stage(module: str) -> int | None:
    parts = module.split(".")
    return STAGES.index(parts[1]) if len(parts) > 1 and parts[1] in STAGES else None


def test_no_import_cycle():
    assert _cycles(_imports(_modules())) == []


def test_imports_point_down_the_stages():
    wrong = []
    for module, targets in _imports(_modules()).items():
        own = _stage(module)
        for target in targets:
            other = _stage(target)
            if own is None and other is not None and module.split(".")[-1] in GROUND:
                wrong.append(f"{module} (ground floor) -> {target}")
            elif own is not None and other is not None and other > own:
                wrong.append(f"{module} -> {target} (up from {STAGES[own]} to {STAGES[other]})")
    assert wrong == []


def test_every_module_is_in_a_stage_or_on_the_ground_floor():
    loose = [m for m in _modules() if _stage(m) is None and m.split(".")[-1] not in GROUND | {"cli", "__main__"}
             and m != "reportkit"]
    assert loose == []


def test_the_checks_see_a_cycle_and_an_upward_import():
    edges = {"reportkit.run.a": {"reportkit.failure.b"}, "reportkit.failure.b": {"reportkit.run.a"}}
    assert _cycles(edges) == [["reportkit.failure.b", "reportkit.run.a"]]
    assert _stage("reportkit.run.a") < _stage("reportkit.failure.b")


def _top_level_bindings(tree: ast.Module) -> list[str]:
    names = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names.append(node.target.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
    return names


def test_no_module_binds_a_top_level_name_twice():
    """A second module-level ``_STRING_PREFIX = ...`` (stop 53: a new helper's pattern took an old rule's name)
    silently replaced the first for every function of the module: code redaction lost its string prefixes."""
    twice = {}
    for path in sorted(ROOT.rglob("*.py")):
        names = _top_level_bindings(ast.parse(path.read_text(encoding="utf-8")))
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            twice[str(path.relative_to(ROOT))] = repeated
    assert twice == {}


def test_the_check_sees_a_name_bound_twice():
    assert _top_level_bindings(ast.parse("A = 1\ndef f(): pass\nA = 2\n")).count("A") == 2
