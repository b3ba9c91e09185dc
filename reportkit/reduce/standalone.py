"""Turn a (minimized) pytest test module into a standalone script that calls the failing test.

Given the module's source and what the boot recorded about the failing test item (its function,
class, parameters and fixtures), :func:`make_standalone` appends a ``__main__`` block that sets up
what pytest would have set up and calls the test:

* parameters (``@pytest.mark.parametrize``) are passed as keyword arguments, from their ``repr``;
* fixtures defined with ``@pytest.fixture`` in the module or in a ``conftest.py`` above it are copied
  as plain functions (``_fixture_<name>``) and called in dependency order (a generator fixture gives
  its first value: its teardown is not run); ``tmp_path`` and ``monkeypatch`` get their usual values;
* ``unittest.TestCase`` methods run through ``TestCase(name).debug()`` (setUp, the test, tearDown;
  exceptions propagate); methods of plain test classes on a fresh instance (``setup_method`` first).

Anything else (``request``, ``capsys``, parametrized fixtures...) makes it give up with the reason:
the caller then keeps only the pytest reproducer. The caller must still *run* the result and check
that it fails the same way; this module only writes text.
"""

from __future__ import annotations

import ast
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

# builtin fixtures with a faithful plain-Python equivalent
BUILTIN_FIXTURES = {
    "tmp_path": "__import__('pathlib').Path(__import__('tempfile').mkdtemp())",
    "monkeypatch": "__import__('pytest').MonkeyPatch()",
}


INTERNAL_FIXTURES = ("_xunit_setup", "_unittest_")


class NotStandalone(Exception):
    """The test needs something a plain script cannot set up (the message says what)."""


@dataclass
class _Fixture:
    name: str
    func: ast.FunctionDef
    source: str  # the file's text (to copy the function from)
    where: str
    deps: list[str] = field(default_factory=list)


def make_standalone(source: str, test: dict, conftests: list[tuple[str, str]], root_rel: str = ".") -> str:
    """Return a script: ``source`` plus the fixture functions it needs and a ``__main__`` block.

    ``test`` is the boot's record of the failing item (``function``, ``name``, ``cls``, ``unittest``,
    ``params``, ``fixtures``); ``conftests`` are ``(path relative to the rootdir, text)`` of the
    conftest.py files that apply, nearest last; ``root_rel`` is the rootdir relative to the module's
    directory. Like pytest (``prepend`` import mode), the directories of those conftest.py files go
    first on ``sys.path``. Raises :class:`NotStandalone`.
    """
    if test.get("when") == "collect":
        return source  # the module fails while being imported: running it is the reproducer
    tree = ast.parse(source)
    function = test.get("function") or test.get("name") or ""
    cls = test.get("cls")
    params = _params(test)
    fixtures = _all_fixtures(tree, source, conftests)
    # pytest's own autouse fixtures for xunit-style setup (setup_method, setUp...) are done below
    test_args = _arg_names(_find_test(tree, cls, function), skip_self=cls is not None)
    wanted = [f for f in (test.get("fixtures") or []) if f not in params and not f.startswith(INTERNAL_FIXTURES)
              and (f != "request" or f in test_args)]  # pytest's xunit fixtures ask for `request`
    order = _resolve(wanted, fixtures)
    lines = ["", "", "# --- reportkit: run the failing test without pytest"]
    lines += _fixture_functions(order, fixtures, conftests)
    lines += ["", "", 'if __name__ == "__main__":']
    values, setup = _fixture_values(order, fixtures)
    lines += setup
    kwargs = [f"{k}={v}" for k, v in params.items()]
    kwargs += [f"{n}={values[n]}" for n in test_args if n in values and n not in params]
    lines += _test_call(test, cls, function, kwargs, bool(params))
    return _with_conftest_paths(source, tree, conftests, root_rel) + "\n".join(lines) + "\n"


def _params(test: dict) -> dict[str, str]:
    """The test's parameters as source text (their ``repr``); NotStandalone if one cannot be written."""
    params = {k: v for k, v in (test.get("params") or {}).items()}
    for name, value in params.items():
        if value is None:
            raise NotStandalone(f"the parameter {name!r} has no repr")
        try:
            ast.parse(value, mode="eval")
        except SyntaxError:
            raise NotStandalone(f"the parameter {name}={value} cannot be written as Python source") from None
    return params


def _all_fixtures(tree: ast.Module, source: str, conftests: list[tuple[str, str]]) -> dict[str, _Fixture]:
    """The fixtures the test can see: the module's, then the conftest.py files' (nearest first)."""
    fixtures = _fixture_table(tree, source, "the test module")
    for label, text in reversed(conftests):  # the nearest conftest wins, the module wins over all
        try:
            conf_tree = ast.parse(text)
        except SyntaxError:
            continue
        for name, fx in _fixture_table(conf_tree, text, label).items():
            fixtures.setdefault(name, fx)
    return fixtures


def _fixture_functions(order: list[str], fixtures: dict[str, _Fixture], conftests: list[tuple[str, str]]) -> list[str]:
    """The imports of the conftest.py files fixtures are copied from, then the fixtures as plain functions."""
    lines: list[str] = []
    copied = [fx for fx in (fixtures[n] for n in order if n in fixtures) if fx.where != "the test module"]
    imports = _conftest_imports(copied, conftests)
    if imports:
        lines += [""] + imports
    module_fixtures = {n for n in order if n in fixtures and fixtures[n].where == "the test module"}
    for fx in copied + [fixtures[n] for n in order if n in module_fixtures]:
        lines += ["", _plain_function(fx)]
    return lines


def _conftest_imports(copied: list[_Fixture], conftests: list[tuple[str, str]]) -> list[str]:
    """What the conftest.py files the ``copied`` fixtures come from import (absolute imports, once each)."""
    imports: list[str] = []
    for where in dict.fromkeys(fx.where for fx in copied):
        text = next(t for label, t in conftests if label == where)
        for node in ast.parse(text).body:
            if isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level == 0):
                segment = ast.get_source_segment(text, node)
                if segment and segment not in imports:
                    imports.append(segment)
    return imports


def _fixture_values(order: list[str], fixtures: dict[str, _Fixture]) -> tuple[dict[str, str], list[str]]:
    """``{fixture: variable}`` and the ``__main__`` lines that set the variables, in dependency order."""
    values: dict[str, str] = {}
    lines: list[str] = []
    for name in order:
        var = f"_fx_{name}"
        if name in BUILTIN_FIXTURES:
            lines.append(f"    {var} = {BUILTIN_FIXTURES[name]}")
        else:
            fx = fixtures[name]
            call = f"_fixture_{name}({', '.join(f'{d}={values[d]}' for d in fx.deps)})"
            gen = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in ast.walk(fx.func))
            lines.append(f"    {var} = next({call})" if gen else f"    {var} = {call}")
        values[name] = var
    return values, lines


def _test_call(test: dict, cls: str | None, function: str, kwargs: list[str], parametrized: bool) -> list[str]:
    """The ``__main__`` lines that call the test (``TestCase.debug()``, a fresh instance, or the function)."""
    if cls is not None and test.get("unittest"):
        if parametrized:
            raise NotStandalone("a parametrized unittest.TestCase method")
        return [f"    {cls}({test.get('name')!r}).debug()"]
    if cls is not None:
        return [f"    _obj = {cls}()",
                f"    if hasattr(_obj, 'setup_method'):\n        _obj.setup_method(_obj.{function})",
                f"    _obj.{function}({', '.join(kwargs)})"]
    return [f"    {function}({', '.join(kwargs)})"]


def _with_conftest_paths(source: str, tree: ast.Module, conftests: list[tuple[str, str]], root_rel: str) -> str:
    """``source`` with the directories of the conftest.py files put first on ``sys.path``, as pytest does
    (their imports resolve from there)."""
    dirs = sorted({posixpath.normpath(posixpath.join(root_rel, posixpath.dirname(label))) for label, _ in conftests}
                  - {"."})
    body = source.rstrip("\n") + "\n"
    if not dirs:
        return body
    head = "import os as _os, sys as _sys\n" + "".join(
        f"_sys.path.insert(0, _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), {d!r}))\n"
        for d in dirs)
    at = _after_future_imports(tree)  # a docstring and `from __future__` imports must stay first
    src_lines = body.splitlines(keepends=True)
    return "".join(src_lines[:at]) + head + "".join(src_lines[at:])


def _after_future_imports(tree: ast.Module) -> int:
    """The line index after the module docstring and ``from __future__`` imports (0 if none)."""
    end = 0
    for i, node in enumerate(tree.body):
        docstring = i == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, str)
        if docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            end = node.end_lineno or node.lineno
        else:
            break
    return end


def _find_test(tree: ast.Module, cls: str | None, function: str) -> ast.FunctionDef | None:
    body = tree.body
    if cls is not None:
        found = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None)
        if found is None:
            return None  # e.g. a class generated at import time (torch's instantiate_device_type_tests)
        body = found.body
    return next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == function),
                None)


def _arg_names(func, skip_self: bool) -> list[str]:
    if func is None:
        return []
    names = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
    return names[1:] if skip_self and names else names


def _fixture_decorator(node: ast.expr) -> tuple[bool, str | None, bool]:
    """Is this decorator ``pytest.fixture`` / ``fixture`` (called or not)? Its ``name=``? ``params=``?"""
    call = node if isinstance(node, ast.Call) else None
    target = call.func if call is not None else node
    is_fixture = (isinstance(target, ast.Attribute) and target.attr == "fixture") or \
                 (isinstance(target, ast.Name) and target.id == "fixture")
    name, parametrized = None, False
    if is_fixture and call is not None:
        for kw in call.keywords:
            if kw.arg == "name" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                name = kw.value.value
            parametrized = parametrized or kw.arg == "params"
    return is_fixture, name, parametrized


def _fixture_table(tree: ast.Module, source: str, where: str) -> dict[str, _Fixture]:
    table: dict[str, _Fixture] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            is_fixture, alias, parametrized = _fixture_decorator(deco)
            if is_fixture:
                name = alias or node.name
                table[name] = _Fixture(name, node, source, "unsupported" if parametrized else where,
                                       _arg_names(node, skip_self=False))
                break
    return table


def _resolve(wanted: list[str], fixtures: dict[str, _Fixture]) -> list[str]:
    """Fixture names in an order where every fixture comes after the fixtures it takes."""
    order: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in order:
            return
        if name in BUILTIN_FIXTURES:
            order.append(name)
            return
        fx = fixtures.get(name)
        if fx is None:
            raise NotStandalone(f"the fixture {name!r} (pytest's own, or from a plugin) has no plain equivalent")
        if fx.where == "unsupported":
            raise NotStandalone(f"the fixture {name!r} is parametrized")
        if name in visiting:
            raise NotStandalone(f"the fixtures around {name!r} depend on each other in a cycle")
        visiting.add(name)
        for dep in fx.deps:
            visit(dep)
        visiting.discard(name)
        order.append(name)

    for name in wanted:
        visit(name)
    return order


def _plain_function(fx: _Fixture) -> str:
    """The fixture's function without its decorators, renamed ``_fixture_<name>``."""
    func = fx.func
    text = ast.get_source_segment(fx.source, func) or ""
    if not text:
        raise NotStandalone(f"cannot copy the fixture {fx.name!r}")
    head = f"def {func.name}("
    if not text.lstrip().startswith("def ") and not text.lstrip().startswith("async def "):
        raise NotStandalone(f"cannot copy the fixture {fx.name!r}")
    renamed = text.replace(head, f"def _fixture_{fx.name}(", 1)
    origin = f"# fixture {fx.name!r} from {fx.where}" if fx.where != "the test module" else \
        f"# fixture {fx.name!r} as a plain function"
    return origin + "\n" + renamed


def conftest_chain(root: Path, test_dir: Path) -> list[tuple[str, str]]:
    """``(label, text)`` of the conftest.py files from ``root`` down to ``test_dir`` (nearest last)."""
    out: list[tuple[str, str]] = []
    root, test_dir = root.resolve(), test_dir.resolve()
    chain = [test_dir, *[p for p in test_dir.parents if p == root or root in p.parents]]
    for directory in reversed(chain):
        conf = directory / "conftest.py"
        if conf.is_file():
            try:
                out.append((str(conf.relative_to(root)), conf.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError, ValueError):
                continue
    return out
