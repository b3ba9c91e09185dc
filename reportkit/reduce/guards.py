"""A failure the script raised behind a condition keeps its condition (:attr:`reportkit.reduce.minimize.Keep.guarded`).

``if len(key) > 24: raise ValueError("keys of at most 24 characters")`` must not become the bare
``raise ValueError(...)``: it "fails the same way" and tells a maintainer nothing. The guard and the
values that made it true are the cause; a reducer may shrink them, not drop them.

A *guarded* failure is a ``raise`` inside the body (or ``else``) of an ``if``/``while`` whose test reads a
value (a name, an attribute, a call, a subscript: not ``if True:`` nor ``if 1 > 0:``) or inside an
``except`` handler, within its own function; or an ``assert`` whose test reads a value.

A compiler that reads the script's source (TorchScript) raises from library code, and its diagnostic points
at the statement it rejected: ``File "m.py", line 15`` … ``~~~~ <--- HERE``. When that statement sits under
a condition, the condition is part of what the compiler judged (``if self.bias is not None:`` refines an
optional attribute, or fails to): without it the same diagnostic is a plain user error, not the bug
(:func:`pointed_lines`, :func:`guarded_site`).
"""

from __future__ import annotations

import ast
import functools
import os
import re
from typing import Callable

from reportkit.reduce.passes.wellformed import TREES

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def reads_a_value(test: ast.expr) -> bool:
    """Does the test depend on a value the program computed? ``len(key) > 24``, ``x``, ``cfg.strict``:
    yes; ``True``, ``1 > 0``, ``not None``: no."""
    return any(isinstance(node, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) for node in ast.walk(test))


def _failing_statement(tree: ast.Module, line: int) -> tuple[ast.stmt, list[ast.AST]] | None:
    """The innermost statement spanning ``line`` and its ancestors (outermost first)."""
    found: tuple[ast.stmt, list[ast.AST]] | None = None
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        for child in ast.iter_child_nodes(node):
            start, end = getattr(child, "lineno", None), getattr(child, "end_lineno", None)
            if start is None or end is None or not start <= line <= end:
                continue
            if isinstance(child, ast.stmt):
                found = (child, parents + [node])
            stack.append((child, parents + [node]))
    return found


def _under_a_guard(statement: ast.stmt, parents: list[ast.AST]) -> bool:
    """Is ``statement`` inside a branch taken on a value (or on an exception) within its own scope?"""
    inner = [statement, *reversed(parents)]
    for node, parent in zip(inner, inner[1:]):
        if isinstance(parent, _SCOPES):
            return False
        if isinstance(parent, (ast.If, ast.While)) and node is not parent.test and reads_a_value(parent.test):
            return True
        if isinstance(parent, ast.excepthandler):
            return True
    return False


def guarded_failure(source: str, line: int | None) -> bool:
    """Is the statement at ``line`` of ``source`` a guarded ``raise`` or ``assert`` (see the module doc)?
    False when the source does not parse or no such statement spans the line."""
    if line is None:
        return False
    try:
        tree = TREES.tree(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    found = _failing_statement(tree, line)
    if found is None:
        return False
    statement, parents = found
    if isinstance(statement, ast.Assert):
        return reads_a_value(statement.test)
    return isinstance(statement, ast.Raise) and _under_a_guard(statement, parents)


def guarded_site(source: str, line: int) -> bool:
    """Is the innermost statement spanning ``line`` of ``source`` (of any kind) inside a branch taken on a
    value within its own scope (see the module doc)? False when the source does not parse."""
    try:
        tree = TREES.tree(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    found = _failing_statement(tree, line)
    return found is not None and _under_a_guard(*found)


#: A source reference in a message (``File "/x/m.py", line 15``), and a compiler's mark of what it rejected.
_FILE_LINE_RE = re.compile(r'File "([^"\n]+)", line (\d+)')
_HERE_MARK = "<--- HERE"
#: How many lines after a reference its excerpt may run before the mark.
_EXCERPT_LINES = 12


def pointed_lines(message: str, script_path: str) -> tuple[int, ...]:
    """The lines of the script at ``script_path`` that a source compiler's diagnostic in ``message`` points
    at: a ``File "<the script>", line N`` reference whose excerpt (the lines up to the next reference) holds
    the compiler's ``<--- HERE`` mark. A traceback printed into a message (a worker's, Dynamo's "from user
    code") names lines that ran, not source a compiler rejected: those have no mark."""
    if not script_path or _HERE_MARK not in message:
        return ()
    target = os.path.abspath(script_path)
    lines = message.splitlines()
    found: list[int] = []
    for i, text in enumerate(lines):
        m = _FILE_LINE_RE.search(text)
        if m is None or os.path.abspath(m.group(1)) != target:
            continue
        for after in lines[i + 1:i + 1 + _EXCERPT_LINES]:
            if _FILE_LINE_RE.search(after):
                break
            if _HERE_MARK in after:
                found.append(int(m.group(2)))
                break
    return tuple(dict.fromkeys(found))


def _module_base(cls: ast.ClassDef) -> bool:
    """``class C(nn.Module)`` (``torch.nn.Module``, ``Module``)."""
    return any(ast.unparse(b).rsplit(".", 1)[-1] == "Module" for b in cls.bases)


def _forward_classes(tree: ast.Module) -> dict[str, bool]:
    """Module-level torch module classes: name -> does it define ``forward`` itself?"""
    return {s.name: any(isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == "forward"
                        for m in s.body)
            for s in tree.body if isinstance(s, ast.ClassDef) and _module_base(s)}


def _instance_used(tree: ast.Module, name: str) -> bool:
    """Is an object of class ``name`` called or passed on (``C()(x)``, ``export(C(), ...)``, ``m = C()`` …
    ``m(x)`` / ``export(m.eval(), ...)``), rather than only built?"""
    bound: set[str] = set()

    def instance(e: ast.expr) -> bool:
        while isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):  # C().eval().to(d)
            e = e.func.value
        return _builds(e, name, bound)

    for _ in range(2):  # (m = C().eval(); n = m.to(d))
        bound |= {t.id for s in ast.walk(tree) if isinstance(s, ast.Assign) and instance(s.value)
                  for t in s.targets if isinstance(t, ast.Name)}

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and (instance(node.func) or any(
                instance(a.value if isinstance(a, ast.Starred) else a)
                for a in [*node.args, *(k.value for k in node.keywords)])):
            return True
    return False


def _builds(e: ast.expr, name: str, bound: set[str]) -> bool:
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == name) \
        or (isinstance(e, ast.Name) and e.id in bound)


#: What reads a module's forward signature before (or instead of) calling it: export (also Dynamo's),
#: tracing, FX's symbolic tracing, ONNX export, ``inspect.signature``. Not scripting: ``torch.jit.script`` compiles
#: a forward only where the class defines one (nn.Module's stand-in is skipped), so a module scripted without its
#: forward that fails the same way failed on the rest of the class (held-out r13-04: an attribute's annotation).
_SIGNATURE_READERS = re.compile(r"\bexport\b|\btrace\(|symbolic_trace|\bfx\b|\bonnx\b|signature")


@functools.lru_cache(maxsize=2)
def _candidate_tree(candidate: str) -> ast.Module:
    """``ast.parse(candidate)``, once for all the screens that read the same candidate (nobody changes it)."""
    return ast.parse(candidate)


def _parsed(candidate: str) -> ast.Module | None:
    """:func:`_candidate_tree`, None for a candidate that does not parse (refused before any screen)."""
    try:
        return _candidate_tree(candidate)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def forward_screen(source: str) -> Callable[[str], str | None] | None:
    """A torch module class that defines ``forward`` keeps it while its objects are called or passed on.

    Without it, ``nn.Module``'s own stands in: ``_forward_unimplemented(self, *input)``, a forward of ``*args``.
    Export and tracing read the forward's signature before anything runs, so a module left without one can
    fail the same way for another reason: ``torch.export.export(Main(), (x,), dynamic_shapes=({0: d},))``
    of an unflattened module (whose forward takes ``*args``) says "``inputs[0]`` is a tuple, but
    ``dynamic_shapes[0]`` is a dict" — and so does an empty ``class Main(nn.Module): pass``, which is
    another program. A call of the object needs no screen: nn.Module's own forward raises
    ``NotImplementedError`` when the call reaches it, so a candidate without a forward fails the same way only
    where the failure came before the forward (a hook's check, a compiler's guard) — and then the forward was
    not the bug. None when ``source`` has no such class or reads no signature (:data:`_SIGNATURE_READERS`)."""
    if not _SIGNATURE_READERS.search(source):
        return None
    try:
        original = {n for n, has in _forward_classes(TREES.tree(source)).items() if has}
    except SyntaxError:
        return None
    if not original:
        return None

    def screen(candidate: str) -> str | None:
        tree = _parsed(candidate)
        if tree is None:
            return None
        for name, has in _forward_classes(tree).items():
            if name in original and not has and _instance_used(tree, name):
                return f"the torch module {name} keeps its forward (nn.Module's own takes *args)"
        return None

    return screen


def _class_members(tree: ast.AST) -> dict[str, set[str]]:
    """Per class the script defines: what its body defines (:func:`_class_attributes`)."""
    classes: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            classes.setdefault(node.name, set()).update(_class_attributes(node))
    return classes


def _name_attribute_reads(tree: ast.AST) -> set[tuple[str, str]]:
    """Every ``name.attribute`` the tree reads: (name, attribute)."""
    return {(n.value.id, n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Load) and isinstance(n.value, ast.Name)}


def member_screen(source: str) -> Callable[[str], str | None] | None:
    """A member of a script's class that the script reads through the class's name stays defined while it is read.

    A candidate that deletes ``def test`` from ``class B`` and keeps ``B.test(image)`` reads what no longer exists;
    where the failure comes before the read runs (TorchScript compiles ``B`` first and fails in its
    ``__init__``, held-out r18-03), it fails "the same way" while its code says the call is the bug. Deleting the
    read, or both, stays possible. None when the script reads no such member."""
    try:
        tree = TREES.tree(source)
    except SyntaxError:
        return None
    classes = _class_members(tree)
    reads = {(cls, member) for cls, member in _name_attribute_reads(tree) if member in classes.get(cls, ())}
    if not reads:
        return None

    def screen(candidate: str) -> str | None:
        tree = _parsed(candidate)
        if tree is None:
            return None
        classes = _class_members(tree)
        lost = sorted(f"{cls}.{member}" for cls, member in _name_attribute_reads(tree) & reads
                      if cls in classes and member not in classes[cls])
        return f"a class member the script reads stays defined ({', '.join(lost)})" if lost else None

    return screen


#: What differentiates a function it is given (its first argument): autograd's gradient checks and functional
#: API, torch.func's transforms. A function that no longer depends on its input has a zero analytic derivative,
#: and such a check then fails for that alone: ``gradcheck(lambda x: torch.randn(2, requires_grad=True), (x,))``
#: raises the same "Jacobian mismatch for output 0 with respect to input 0" as a wrong backward formula does.
_DIFFERENTIATORS = frozenset({"gradcheck", "gradgradcheck", "jacobian", "hessian", "vjp", "jvp", "hvp", "vhp",
                              "jacrev", "jacfwd", "grad", "grad_and_value", "linearize"})


def _parameters(f: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    a = f.args
    return {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _flow(node: ast.AST) -> tuple[ast.AST, list[ast.AST]] | None:
    """(what is read, what it is bound to) of an assignment, a ``for``'s target or a ``with``'s ``as``."""
    if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
        return node.value, node.targets if isinstance(node, ast.Assign) else [node.target]
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return node.iter, [node.target]
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return node.context_expr, [node.optional_vars]
    return None


def _depends_on_input(f: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> bool:
    """Does ``f`` compute from its parameters? A lambda's body reads one; a def calls something with one or a name
    bound from one (through assignments, ``for`` and ``with`` targets: ``torch.svd(a)``, ``out.append(y)``; a
    failure raised in the function's own body needs no return), or returns (yields) such a name. A parameter only
    named (a statement ``x``) is not read."""
    tainted = _parameters(f)
    if isinstance(f, ast.Lambda):
        return bool(_names(f.body) & tainted)
    flows = [flow for flow in map(_flow, ast.walk(f)) if flow is not None]
    for _ in range(2):  # (a loop binds a name after the statement that reads it)
        for value, targets in flows:
            if _names(value) & tainted:
                tainted |= set().union(*map(_names, targets))
    reads = [n for n in ast.walk(f) if isinstance(n, ast.Call) or (isinstance(n, (ast.Return, ast.Yield))
                                                                    and n.value is not None)]
    return any(_names(n) & tainted for n in reads)


def _differentiated(tree: ast.Module) -> dict[str, bool]:
    """The functions given to a differentiator (:data:`_DIFFERENTIATORS`) as its first argument: a def's name, or
    ``<lambda>`` for each lambda given so -> does it depend on its input (:func:`_depends_on_input`)? Every lambda
    must for ``<lambda>`` to be true."""
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    out: dict[str, bool] = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        first = node.args[0]
        if name not in _DIFFERENTIATORS:
            continue
        if isinstance(first, ast.Lambda):
            out["<lambda>"] = out.get("<lambda>", True) and _depends_on_input(first)
        elif isinstance(first, ast.Name) and first.id in defs:
            out[first.id] = _depends_on_input(defs[first.id])
    return out


def differentiated_screen(source: str) -> Callable[[str], str | None] | None:
    """A function a gradient check or transform differentiates (``gradcheck(f, (x,))``, ``jacrev(f)(x)``,
    ``torch.autograd.functional.jacobian(lambda x: ..., x)``) keeps depending on its input where it did: one that
    returns a fresh tensor instead fails the check for that alone (:data:`_DIFFERENTIATORS`), which is another
    program, not the bug. None when the script gives no such function one that depends on its input."""
    if not any(name in source for name in ("grad", "jac", "vjp", "jvp", "hessian", "hvp", "vhp", "linearize")):
        return None
    try:
        original = {name for name, depends in _differentiated(TREES.tree(source)).items() if depends}
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not original:
        return None

    def screen(candidate: str) -> str | None:
        try:
            now = _differentiated(_candidate_tree(candidate))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        lost = sorted(name for name, depends in now.items() if name in original and not depends)
        if not lost:
            return None
        return f"the function a gradient check differentiates keeps depending on its input ({', '.join(lost)})"

    return screen


#: A name written as code in a failure's message: snake_case with an underscore (``setup_context``,
#: ``attn_mask``), not an English word (``type``, ``device``) that any message may hold.
_CODE_NAME_RE = re.compile(r"(?<![\w.])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w(])")


def _named_in(source: str, message: str | None, *spellings: re.Pattern[str]) -> tuple[set[str], ast.AST | None]:
    """The names ``message`` spells one of these ways, and the script's tree (None when it names none, or the
    script does not parse)."""
    names = {name for spelling in spellings for name in spelling.findall(message or "")}
    if not names:
        return names, None
    try:
        return names, TREES.tree(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return names, None


def named_keywords(source: str, message: str | None) -> tuple[str, ...]:
    """The keyword arguments the script passes (``register_autograd(backward, setup_context=setup)``) whose
    names the failure's message spells as code ("it must override the setup_context staticmethod"): what the
    message is about is what the script gave. A candidate without them fails with the same words for
    another reason (a custom op with no autograd formula at all says the same to ``jacrev``), which is not
    the bug; :func:`keyword_screen` keeps them."""
    names, tree = _named_in(source, message, _CODE_NAME_RE)
    if tree is None:
        return ()
    passed = {k.arg for node in ast.walk(tree) if isinstance(node, ast.Call) for k in node.keywords if k.arg}
    return tuple(sorted(names & passed))


def keyword_screen(keywords: tuple[str, ...]) -> Callable[[str], str | None] | None:
    """A candidate must still pass each of ``keywords`` (:func:`named_keywords`) as a keyword argument; None
    when there are none."""
    if not keywords:
        return None
    patterns = [(name, re.compile(rf"(?<![\w.]){name}\s*=(?!=)")) for name in keywords]
    return _lost_screen(lambda candidate: {name for name, pattern in patterns if pattern.search(candidate)}, keywords,
                        "the keyword argument{s} the message names stay{_s} ({names})", "{}=")


def _lost_screen(present: Callable[[str], set[str]], names: tuple[str, ...], why: str,
                 spell: str) -> Callable[[str], str | None]:
    """A screen refusing a candidate that lacks some of ``names`` (``present``: those a candidate has): ``why``
    says which (``{names}``, each spelled by ``spell``; ``{s}`` / ``{_s}`` a plural's and a singular verb's ``s``)."""

    def screen(candidate: str) -> str | None:
        have = present(candidate)
        lost = [name for name in names if name not in have]
        if not lost:
            return None
        many = len(lost) > 1
        return why.format(s="s" if many else "", _s="" if many else "s", names=", ".join(spell.format(n) for n in lost))

    return screen


#: A name a failure's message quotes (``no attribute 'baz'``, ``Unknown name `x```) or spells as code.
_QUOTED_NAME_RE = re.compile(r"""['"`\u2018\u2019]([A-Za-z_]\w*)['"`\u2018\u2019]""")


#: "'Parameter' object has no attribute 'baz'", TorchScript's "'Tensor (inferred)' object has no attribute or
#: method 'fc1'": the type of the object that lacks the attribute.
_LACKING_TYPE_RE = re.compile(r"'(?:[\w.]+\.)?(\w+)(?: \([^')]*\))?' object has no attribute")


def _attribute_stores(tree: ast.AST) -> list[ast.Attribute]:
    """The attributes ``tree`` stores to (``a.x = …``, ``a.x += …``, ``a.x, a.y = …``, ``for a.i in …``), not a
    bare annotation (``self.x: int``, which sets nothing)."""
    bare = {id(n.target) for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) and n.value is None}
    return [n for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and id(n) not in bare]


def _class_attributes(cls: ast.ClassDef) -> set[str]:
    """What ``cls``'s body defines (methods, properties, class attributes with a value) and its methods assign
    to ``self``."""
    own: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own.add(stmt.name)
            own.update(n.attr for n in _attribute_stores(stmt) if isinstance(n.value, ast.Name) and n.value.id == "self")
        targets = (stmt.targets if isinstance(stmt, ast.Assign)
                   else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else [])
        own.update(t.id for t in targets if isinstance(t, ast.Name))
    return own


def _set_attributes(tree: ast.AST) -> tuple[dict[str, set[str]], set[str]]:
    """The attribute names the script sets, per class (defined in its body: a method, a ``@property``, a class
    attribute with a value; assigned to ``self`` in its methods) and elsewhere (``p.baz = …``, ``x.n += 1``,
    ``setattr(m, "extra", …)``)."""
    other = {n.attr for n in _attribute_stores(tree) if not (isinstance(n.value, ast.Name) and n.value.id == "self")}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            other.add(node.args[1].value)
    return _class_members(tree), other


def named_attributes(source: str, message: str | None, exc_type: str | None = None) -> tuple[str, ...]:
    """The attributes the script sets whose names the failure's message quotes or spells as code ("'Parameter'
    object has no attribute 'baz'" after ``p.baz = "qux"``, "Unknown name: extra_attr" after ``m.extra_attr =
    …``, "'Model' object has no attribute 'inner'" for a ``@property def inner`` that raised inside): the message
    is about an attribute the script set, and lost or hid somewhere (a copy, a freeze, ``nn.Module.__getattr__``).
    A candidate that never sets it fails with the same words for that alone, which is not the bug;
    :func:`attribute_screen` keeps it set. Where the message names the type of the object that lacks it, only
    what the script may have set on that type counts: what it sets on other objects than ``self``, and the
    attributes of that class if the script defines it (not ``self.fc1`` of a module for a ``'Tensor (inferred)'
    object``). A ``KeyError`` (``exc_type``) quotes a key, no attribute."""
    if (exc_type or "").rsplit(".", 1)[-1] == "KeyError":
        return ()
    names, tree = _named_in(source, message, _CODE_NAME_RE, _QUOTED_NAME_RE)
    if tree is None:
        return ()
    classes, other = _set_attributes(tree)
    lacking = _LACKING_TYPE_RE.search(message or "")
    if lacking is None:
        candidates = other.union(*classes.values())
    else:
        candidates = other | classes.get(lacking.group(1), set())
    return tuple(sorted(names & candidates))


def attribute_screen(attributes: tuple[str, ...]) -> Callable[[str], str | None] | None:
    """A candidate must still set each of ``attributes`` (:func:`named_attributes`) somewhere, as
    :func:`_set_attributes` reads a script (so the original always passes); None when there are none."""
    if not attributes:
        return None

    def still_set(candidate: str) -> set[str]:
        tree = _parsed(candidate)
        if tree is None:
            return set(attributes)  # (a candidate that does not parse is refused before any screen)
        classes, other = _set_attributes(tree)
        return other.union(*classes.values())

    return _lost_screen(still_set, attributes, "the attribute{s} the message names stay{_s} set ({names})", ".{}")
