"""Value materialization: replace an expression by a literal of the value it had at run time.

A script usually computes the values that trigger a bug through a long chain (data loading,
formatting, a model's earlier layers). Deleting statements cannot cut such a chain; replacing the
expression at its end by its value can: ``linear(self.features(x))`` becomes
``linear(torch.randn(64, 576))`` and everything that computed ``x`` is dead.

The pass needs one *probe* run of an instrumented copy of the current program: every candidate
expression ``e`` becomes ``__reportkit_value__(i, e)``, which records a source text for the value
``e`` last had (``repr`` of literals; ``torch.randn(shape, dtype=...)`` for tensors, the dtype unless it is ``randn``'s default; the constructor
call of leaf ``torch.nn`` modules) and returns ``e`` unchanged. When the failure compares computed
values, a module with weights is spelled only where its site was evaluated once: its literal builds
new random weights at each evaluation, where the script reused one module. The recorded texts become candidate
splices; the engine keeps only those under which the failure persists. A site whose value was spelled
differently at different evaluations (a loop's item, a per-call argument) is replaced only together with all
the other such sites, each by its last value (:class:`~reportkit.reduce.passes.edits.Together`: in the first cut's
second all-at-once candidate, and once after the ddmin over the others): alone, one literal would stand for
several values, and a failure that needs them to differ would go.

Where the failure has a second condition (a fix check: the candidate must pass on the good code; a
differential: it must pass with the suspect switched off), the same program also runs on that side once
(:func:`differing_sites`): a value that differs there *depends on the fix* (a width the fix computes
differently, a tensor the compiled path produces); its literal would freeze the bug's value, so the
candidate would fail on the good side too. Such sites are not proposed (:func:`without_sites`).
"""

from __future__ import annotations

import ast
import builtins
import difflib
import json
import re

from .edits import Edit, Splice, Together
from .expressions import _skipped_expressions
from .scopes import import_binding
from .source import SourceMap, iter_nodes, parses

CAPTURE_ENV = "REPORTKIT_CAPTURE"
#: Comma-separated names of the run's variables that hold secrets (kept with --keep-env, or set by --env):
#: a value that holds one of their values, or a piece of one, is spelled by its shape (:func:`shape`).
SECRETS_ENV = "REPORTKIT_CAPTURE_SECRETS"
#: Set (to any value) when the failure compares computed values: a random tensor is then spelled with
#: its own seeded generator, so that the candidate computes the same values in every run (a wrong result
#: that shows for some random inputs only would otherwise make the reproducer flaky).
SEEDED_ENV = "REPORTKIT_CAPTURE_SEEDED"
#: Set (to any value) when the failure's message shows a tensor's values (``Bernoulli(probs: tensor([2.]))``, "found
#: invalid values"): a tensor of at most :data:`EXACT_MAX` elements is then spelled by its values
#: (``torch.tensor([2.0])``), not by its shape (``torch.randn(1)``, a value that fails in two runs of three).
EXACT_ENV = "REPORTKIT_CAPTURE_EXACT"
EXACT_MAX = 8
_BUILTINS = set(dir(builtins))
WRAPPER = "__reportkit_value__"
CALLEE = "__reportkit_callee__"

# Runs inside the target program (any Python >= 3.8, torch optional). Records the text of the last
# value each site had; written at exit (an uncaught exception still runs atexit handlers).
PROLOGUE = r'''
__reportkit_state__ = {"outside": []}


def __reportkit_watch_reads__():
    # files the program reads outside its own directories (and outside the interpreter's): their contents
    # are no value a reproducer may carry as a literal (a token file, a key) -- spelled by their shape
    import os, sys
    inside = set()
    for p in (os.getcwd(), os.path.dirname(os.path.abspath(sys.argv[0] or "."))):
        inside.update((p.rstrip(os.sep) + os.sep, os.path.realpath(p).rstrip(os.sep) + os.sep))
    system = {os.sep + "proc" + os.sep, os.sep + "sys" + os.sep, os.sep + "dev" + os.sep}
    for p in [sys.prefix, sys.base_prefix, sys.exec_prefix] + [p for p in sys.path if p]:
        p = os.path.realpath(p).rstrip(os.sep) + os.sep
        if len(p) > 1 and not any(p.startswith(d) for d in inside):
            system.add(p)
    inside, system = tuple(inside), tuple(system)
    outside = __reportkit_state__["outside"]
    writing = os.O_WRONLY | os.O_RDWR

    def hook(event, args):
        if event != "open" or len(args) < 3 or not isinstance(args[0], str):
            return
        mode, flags = args[1], args[2]
        if (mode is not None and any(c in mode for c in "wax+")) or (mode is None and (flags or 0) & writing):
            return
        try:
            path = os.path.realpath(args[0])
        except Exception:
            return
        if path not in outside and not path.startswith(inside) and not path.startswith(system) \
                and not path.endswith((".py", ".pyc", ".so", ".pth")) and len(outside) < 64:
            outside.append(path)

    sys.addaudithook(hook)


try:
    __reportkit_watch_reads__()
except Exception:
    pass


def __reportkit_value__(i, v):
    _state = __reportkit_state__
    if "values" not in _state:
        import atexit, json, os, sys, types
        _state["values"] = {"fed": _state.setdefault("fed", {}), "computed": {}}
        _state["sys"] = sys
        _state["seeded"] = bool(os.environ.get("REPORTKIT_CAPTURE_SEEDED"))
        _state["exact"] = bool(os.environ.get("REPORTKIT_CAPTURE_EXACT"))
        _state["types"] = types
        # paths of this run only (its working directory and the script's, its temp dir and home: in a
        # sandbox, scratch directories that are gone after the run): a string holding one is not a value
        # the reproducer can carry elsewhere
        local = set()
        for p in (os.getcwd(), os.path.dirname(os.path.abspath(sys.argv[0] or ".")), os.environ.get("TMPDIR"),
                  os.environ.get("HOME")):
            if p and len(p.rstrip(os.sep)) > 1:
                local.update((p.rstrip(os.sep), os.path.realpath(p).rstrip(os.sep)))
        _state["local"] = tuple(local)
        # values of the run's environment: a string that is one is spelled by its shape; of the secret-bearing
        # ones (REPORTKIT_CAPTURE_SECRETS) also a string that holds one, or a piece of one
        names = [n for n in os.environ.get("REPORTKIT_CAPTURE_SECRETS", "").split(",") if n]
        _state["secrets"] = [os.environ[n] for n in names if len(os.environ.get(n, "")) >= 4]
        _state["env"] = set(v for k, v in os.environ.items()
                            if len(v) >= 4 and not k.startswith(("REPORTKIT_", "PYTHON")))
        # the script's arguments (and an option's value after "="): spelled by their shape too, unless a plain
        # word or number (lower-case words, no letter next to a digit: "train", "0.01", "/data/x")
        import re
        pieces = set()
        for a in sys.argv[1:]:
            pieces.add(a)
            if a.startswith("-") and "=" in a:
                pieces.add(a.split("=", 1)[1])
        _state["argv"] = sorted((a for a in pieces if len(a) >= 6 and not a.startswith("-") and not (
            re.fullmatch(r"[a-z0-9_.,:;+=/ -]*|[A-Z_]+", a) and not re.search(r"[a-z][0-9]|[0-9][a-z]", a))),
            key=len, reverse=True)
        _state["files"] = {}  # outside file -> (its content, its lines)
        path = os.environ.get("REPORTKIT_CAPTURE")
        def _dump():
            if path:
                with open(path, "w") as fh:
                    json.dump(_state["values"], fh)
        atexit.register(_dump)

    def shape(s):
        return "".join("X" if c.isupper() else "x" if c.islower() else "0" if c.isdigit() else c for c in s)

    def outside_texts():
        files = _state["files"]
        for p in __reportkit_state__["outside"]:
            if p not in files:
                files[p] = ("", [])
                try:
                    if __import__("os").path.getsize(p) <= 1 << 20:
                        with open(p, "rb") as fh:
                            content = fh.read().decode("utf-8", "replace")
                        lines = [ln.strip() for ln in content.splitlines()[:1000]]
                        files[p] = (content, [ln for ln in lines if len(ln) >= 6])
                except Exception:
                    pass
        return list(files.values())

    def unsecret(s):
        # ``s`` with the values it holds from the environment or from a file outside spelled by their shape
        files = outside_texts()
        for known in _state["secrets"] + _state["argv"] + [ln for _, lines in files for ln in lines]:
            if known in s:
                s = s.replace(known, shape(known))
        if (len(s) >= 4 and any(s in known for known in _state["secrets"] + _state["argv"])) or s in _state["env"] or \
                (len(s) >= 6 and any(s in content for content, _ in files)):
            return shape(s)
        return s

    def number(torch, x, dtype):
        # the shortest decimal that is the same value in the tensor's dtype
        if type(x) is not float:
            return repr(x)
        if x != x or x in (float("inf"), float("-inf")):
            raise ValueError(x)
        for digits in range(1, 18):
            r = repr(float(f"{x:.{digits}g}"))
            if torch.tensor(float(r), dtype=dtype).item() == x:
                return r
        return repr(x)

    def exact(torch, v):
        def spell(x):
            return "[" + ", ".join(spell(y) for y in x) + "]" if type(x) is list else number(torch, x, v.dtype)

        values = v.detach().tolist()
        r = "torch.tensor(" + spell(values)
        if torch.tensor(values).dtype != v.dtype:
            r += ", dtype=" + str(v.dtype)
        if v.requires_grad and v.is_leaf:
            r += ", requires_grad=True"
        return r + ")"

    def text(v, depth=0):
        t = type(v)
        if v is None or t is bool or t is int:
            return repr(v)
        if t is float:
            r = repr(v)
            return r if r not in ("inf", "-inf", "nan") else None
        if t is str or t is bytes:
            r = repr(v)
            if len(r) > 200:
                return None
            for p in _state["local"]:
                if (p if t is str else p.encode(errors="ignore")) in v:
                    return None
            if t is str:
                return repr(unsecret(v))
            if unsecret(v.decode("latin-1")) != v.decode("latin-1"):
                return None
            return r
        if (t is tuple or t is list) and len(v) <= 16 and depth < 3:
            parts = [text(x, depth + 1) for x in v]
            if None in parts:
                return None
            if t is tuple:
                return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
            return "[" + ", ".join(parts) + "]"
        if (t is _state["types"].FunctionType or isinstance(v, type)) and getattr(v, "__module__", None) == "__main__":
            # a function or class defined at the script's top level: refer to it by name
            main = _state["sys"].modules.get("__main__")
            name = getattr(v, "__name__", "")
            return name if name.isidentifier() and getattr(main, name, None) is v else None
        torch = _state["sys"].modules.get("torch")
        if torch is None:
            return None
        if t is torch.Tensor or t is torch.nn.Parameter:
            shape = ", ".join(str(s) for s in v.shape)
            dtype = str(v.dtype)
            device = v.device.type
            if v.dim() > 8 or v.layout != torch.strided:
                return None
            if _state["exact"] and device == "cpu" and 0 < v.numel() <= 8 and not v.dtype.is_complex:
                return exact(torch, v)
            if device == "meta":
                ctor = "torch.empty"
            elif v.dtype.is_floating_point or v.dtype.is_complex:
                ctor = "torch.randn"
            else:
                ctor = "torch.zeros"
            args = "(" + shape + ("" if shape else "()")
            if ctor == "torch.zeros" or v.dtype != torch.get_default_dtype():
                args += ", dtype=" + dtype  # (randn's and empty's default is the default dtype)
            if device != "cpu":
                args += ", device=" + repr(device)
            if ctor == "torch.randn" and _state.get("seeded"):
                args += ", generator=torch.Generator().manual_seed(0)"
            if v.requires_grad and v.is_leaf:
                args += ", requires_grad=True"
            return ctor + args + ")"
        if t is torch.dtype:
            return str(v)
        if t is torch.Size:
            return "torch.Size(" + repr(list(v)) + ")"
        if t is torch.device:
            return "torch.device(" + repr(str(v)) + ")"
        if isinstance(v, torch.nn.Module) and t.__module__.startswith("torch.nn.modules.") and depth < 4:
            children = list(v.children())
            if not children:  # a leaf module: its extra_repr spells its constructor arguments
                return "torch.nn." + t.__name__ + "(" + v.extra_repr() + ")"
            if t is torch.nn.Sequential and len(children) <= 32:
                parts = [text(c, depth + 1) for c in children]
                if None not in parts:
                    return "torch.nn.Sequential(" + ", ".join(parts) + ")"
        return None

    _state["n"] = _state.get("n", 0) + 1
    try:
        t = text(v)
    except Exception:
        t = None
    seen = _state["values"].get(str(i))
    if t is not None and seen is not None and _state["seeded"] and t.startswith("torch.nn."):
        # a module with weights, built anew by its literal at every evaluation of the site, where the
        # script reused one: two evaluations (compiled and eager, say) no longer compute the same thing
        try:
            if any(True for _ in v.parameters()):
                t = None
        except Exception:
            t = None
    if t is not None and t.startswith(("torch.randn(", "torch.zeros(", "torch.empty(", "torch.tensor(")):
        # a tensor autograd saw computed (from a module's weights, say): what a model computed, not data
        computed = _state["values"]["computed"]
        computed[str(i)] = computed.get(str(i), False) or getattr(v, "grad_fn", None) is not None
    # [the last value's text, when it was recorded, the texts of the first 16 values]
    history = seen[2] if seen else []
    if len(history) < 16:
        history.append(t)
    _state["values"][str(i)] = [t, _state["n"], history]
    return v


def __reportkit_callee__(args, f):
    # ``f`` is called with the sites ``args`` as its arguments: record whether it is a torch module called
    # from outside every module (a model fed its data, as opposed to a layer fed what the layers before
    # it computed)
    _state = __reportkit_state__
    sys = __import__("sys")
    torch = sys.modules.get("torch")
    fed = False
    try:
        if torch is not None and isinstance(f, torch.nn.Module):
            fed = True
            frame = sys._getframe(1)
            while frame is not None and fed:
                name = frame.f_code.co_filename.replace("\\", "/")
                fed = not name.endswith("torch/nn/modules/module.py")
                frame = frame.f_back
    except Exception:
        fed = False
    record = _state.setdefault("fed", {})
    for i in args:
        record[str(i)] = record.get(str(i), True) and fed
    return f
'''

# Never wrapped: their syntax forbids a call around them, or their value is not a value.
_NEVER = (ast.Constant, ast.Starred, ast.Slice, ast.Lambda, ast.GeneratorExp, ast.Yield, ast.YieldFrom,
          ast.Await, ast.JoinedStr, ast.FormattedValue)


def _pattern_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.match_case) if hasattr(ast, "match_case") else False:
            out.update(id(n) for n in ast.walk(node.pattern))
    return out


def sites(source: str) -> list[tuple[int, int]]:
    """Character spans of the expressions whose values are worth capturing, in source order."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    skip = _skipped_expressions(tree) | _pattern_nodes(tree)
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    # Worth it only where a value depends on something computed: an expression that reads only
    # imported names and builtins (``torch.ones(4)``) is already self-contained.
    closed = _module_imports(source) | _BUILTINS
    spans: list[tuple[int, int]] = []
    for node in iter_nodes(tree):
        if not isinstance(node, ast.expr) or isinstance(node, _NEVER):
            continue
        if isinstance(node, ast.Tuple) and any(isinstance(e, ast.Slice) for e in node.elts):
            continue  # ``x[:, :, :-k]``'s index: a slice is no value outside a subscript
        if not isinstance(getattr(node, "ctx", ast.Load()), ast.Load):
            continue
        # call targets may be materialized (a leaf nn.Module instance), other skipped ones not
        if id(node) in skip and not (id(node) in calls and isinstance(node, (ast.Name, ast.Attribute))):
            continue
        if all(n.id in closed for n in ast.walk(node) if isinstance(n, ast.Name)):
            continue
        spans.append(smap.span(node))
    return sorted(set(spans))


def _prologue_offset(source: str) -> int:
    """Where the prologue may go: after the docstring and ``from __future__`` imports."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    offset = 0
    for i, stmt in enumerate(tree.body):
        docstring = i == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
            and isinstance(stmt.value.value, str)
        if docstring or (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
            offset = smap.line_end(smap.lineno_of(smap.stmt_span(stmt)[1]))
        else:
            break
    return offset


def _callee_args(source: str, spans: list[tuple[int, int]]) -> list[tuple[tuple[int, int], list[int]]]:
    """The calls some of whose arguments (positional, or a keyword's value) are sites: the span of the
    callee, and the indices of those sites."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    index = {span: i for i, span in enumerate(spans)}
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            args = [index[smap.span(a)] for a in [*node.args, *(k.value for k in node.keywords)]
                    if not isinstance(a, ast.Starred) and smap.span(a) in index]
            if args:
                out.append((smap.span(node.func), args))
    return out


def instrument(source: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The program with every site wrapped in the recorder, and the sites; None if impossible. The callee
    of a call with sites among its arguments is wrapped too: the run records whether it was a torch
    module (:func:`model_input_edits`)."""
    try:
        spans = sites(source)
    except SyntaxError:
        return None
    if not spans:
        return None
    # (pos, kind, order, text); closes before opens; of two opens at one place the outer first, of two
    # closes the inner first (a callee that is a site itself: the callee's wrapper is the outer one)
    inserts: list[tuple[int, int, float, str]] = []
    for i, (start, end) in enumerate(spans):
        # parenthesized: an unparenthesized tuple (``x[a, b]``) must stay one argument
        inserts.append((start, 1, -end, f"{WRAPPER}({i}, ("))
        inserts.append((end, 0, -start, "))"))
    for (start, end), args in _callee_args(source, spans):
        inserts.append((start, 1, -end - 0.5, f"{CALLEE}({tuple(args)!r}, ("))
        inserts.append((end, 0, -start + 0.5, "))"))
    inserts.sort()
    out: list[str] = []
    pos = 0
    for at, _kind, _order, text in inserts:
        out.append(source[pos:at])
        out.append(text)
        pos = at
    out.append(source[pos:])
    body = "".join(out)
    cut = _prologue_offset(source)
    head = body[:cut]
    if head and not head.endswith("\n"):
        head += "\n"
    program = head + PROLOGUE.lstrip("\n") + body[cut:]
    return (program, spans) if parses(program) else None


def _module_imports(source: str) -> set[str]:
    names: set[str] = set()
    for stmt in ast.parse(source).body:
        if isinstance(stmt, ast.Import):
            names.update(import_binding(stmt, a) for a in stmt.names)
    return names


#: torch's dtypes that have another name (``torch.cfloat`` is ``torch.complex64``): a value's text says the
#: canonical one, the script may say the other
_DTYPE_ALIASES = {"torch.complex64": "torch.cfloat", "torch.complex128": "torch.cdouble", "torch.float32": "torch.float",
                  "torch.float64": "torch.double", "torch.float16": "torch.half", "torch.int64": "torch.long",
                  "torch.int32": "torch.int", "torch.int16": "torch.short", "torch.complex32": "torch.chalf"}


def _users_dtype_names(text: str, source: str) -> str:
    """A materialized value's dtypes as the script names them (``dtype=torch.cfloat`` stays so, not
    ``torch.complex64``), where the script uses the other name and never the canonical one."""
    if "dtype=torch." not in text:
        return text
    for canonical, alias in _DTYPE_ALIASES.items():
        if canonical in text and re.search(re.escape(alias) + r"(?!\w)", source) \
                and not re.search(re.escape(canonical) + r"(?!\w)", source):
            text = re.sub(re.escape(canonical) + r"(?!\w)", alias, text)
    return text


def materialize_edits(source: str, spans: list[tuple[int, int]], captured: str | None) -> list[Edit]:
    """Edits replacing each captured site by its value text, the most recently evaluated first.

    The sites evaluated last before the failure are usually the failing call's arguments: trying
    them first cuts the longest chain of computation with the fewest tests. The sites whose values
    varied (:func:`_varied`) are one edit, all of them at once.
    """
    if not captured:
        return []
    try:
        values = json.loads(captured)
    except ValueError:
        return []
    has_torch = "torch" in _module_imports(source)
    ranked: list[tuple[int, Edit]] = []
    varied: list[tuple[int, Splice]] = []
    for i, (start, end) in enumerate(spans):
        entry = values.get(str(i))
        if not isinstance(entry, list) or len(entry) < 2:
            continue
        text, seq = entry[:2]
        if not isinstance(text, str) or not isinstance(seq, int) or text == source[start:end].strip():
            continue
        if text.startswith("torch.") and not has_torch:
            continue  # the replacement needs ``import torch`` at module level
        text = _users_dtype_names(without_secrets(text), source)
        (varied if _varied(entry) else ranked).append((seq, Splice(start, end, text)))
    if len(varied) > 1:  # alone, each would stand for several values: all of them at once (the last evaluation's)
        ranked.append((max(seq for seq, _ in varied), Together(tuple(sp for _, sp in varied))))
    else:
        ranked.extend(varied)
    ranked.sort(key=lambda item: -item[0])
    return [edit for _seq, edit in ranked]


def model_input_edits(source: str, spans: list[tuple[int, int]], captured: str | None) -> list[Edit]:
    """:func:`materialize_edits` for the data fed to torch models only: the sites that were arguments of a
    call of an ``nn.Module`` made outside every module's call (every time that call ran), whose value was
    a tensor autograd did not compute (no ``grad_fn``: not what a module's weights produced).

    For a failure a tensor operator in the script's own code raised (``out + res``), the values it
    operates on and what computed them are the bug (the module that computed ``out``, its
    configuration); the data fed to the model is not: a random tensor of the same shape, dtype and device
    stands for it, and whatever produced it (data generation, loading) can go. A layer's input inside a
    model, or another model's output, is what the model computed: it stays."""
    if not captured:
        return []
    try:
        values = json.loads(captured)
    except ValueError:
        return []
    if not isinstance(values, dict):
        return []
    fed, computed = values.get("fed"), values.get("computed")
    if not isinstance(fed, dict) or not isinstance(computed, dict):
        return []
    kept = {i: entry for i, entry in values.items()
            if fed.get(i) is True and computed.get(i) is False and isinstance(entry, list) and entry
            and all(isinstance(t, str) and t.startswith(_TENSOR_LITERALS) for t in [*_history(entry), entry[0]])}
    return materialize_edits(source, spans, json.dumps(kept))


_TENSOR_LITERALS = ("torch.randn(", "torch.zeros(", "torch.empty(")


def _history(entry: list) -> list:
    """The texts of a site's first 16 values (None: not spelled), from its capture entry (an entry without
    them, as older captures have: its last value's)."""
    return entry[2] if len(entry) >= 3 and isinstance(entry[2], list) else [entry[0]]


def _varied(entry: list) -> bool:
    """Whether a site's recorded values were spelled differently at different evaluations (the texts of
    its first 16 values and of its last; an unspellable value counts as one more spelling)."""
    return len({repr(t) for t in [*_history(entry), entry[0]]}) > 1


def _histories(captured: str | None) -> dict[str, list] | None:
    """Site index -> the texts of the first values it had (None: not spelled), from a capture file."""
    if not captured:
        return None
    try:
        values = json.loads(captured)
    except ValueError:
        return None
    if not isinstance(values, dict):
        return None
    return {i: _history(entry) for i, entry in values.items() if isinstance(entry, list) and len(entry) >= 2}


def _lines_and_site_keys(source: str, spans: list[tuple[int, int]]) -> tuple[list[str], list[tuple[int, str, int]]]:
    """The source's lines, and each site as (its line's index, its text, how many sites with that text
    come before it on that line)."""
    smap = SourceMap(source)
    lines = [smap.line(n).rstrip("\r\n") for n in range(1, smap.nlines + 1)]
    keys: list[tuple[int, str, int]] = []
    seen: dict[tuple[int, str], int] = {}
    for start, end in spans:
        line = smap.lineno_of(start) - 1
        text = source[start:end]
        n = seen.get((line, text), 0)
        seen[(line, text)] = n + 1
        keys.append((line, text, n))
    return lines, keys


def differing_sites(source: str, spans: list[tuple[int, int]], captured: str | None,
                    other_source: str, other_spans: list[tuple[int, int]], other_captured: str | None) -> set[int]:
    """The sites of ``source`` whose values differ in ``other_source``'s run (the same program on the good
    code, or its good form; the same source under the switched environment).

    A site of ``source`` is the same site of ``other_source`` when its line is one the two sources share
    (a line outside the fix's hunks), with the same text at the same place among that line's sites. Its
    values are compared evaluation by evaluation, as far as both runs got (the failing run stops at the
    failure, the other one goes on: its later values say nothing); a site only one side reached says
    nothing either."""
    mine, theirs = _histories(captured), _histories(other_captured)
    if mine is None or theirs is None:
        return set()
    a, keys = _lines_and_site_keys(source, spans)
    b, other_keys = _lines_and_site_keys(other_source, other_spans)
    line_map: dict[int, int] = {}
    for tag, i1, i2, j1, _j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            line_map.update((i1 + k, j1 + k) for k in range(i2 - i1))
    other_index = {k: j for j, k in enumerate(other_keys)}
    out: set[int] = set()
    for i, (line, text, n) in enumerate(keys):
        j = other_index.get((line_map.get(line, -1), text, n))
        if j is None or str(i) not in mine or str(j) not in theirs:
            continue
        a_values, b_values = mine[str(i)], theirs[str(j)]
        if any(x != y for x, y in zip(a_values, b_values)):
            out.add(i)
    return out


def without_sites(captured: str, drop: set[int]) -> str:
    """``captured`` without the entries of the sites ``drop`` (they are then not proposed)."""
    if not drop:
        return captured
    values = json.loads(captured)
    return json.dumps({i: v for i, v in values.items() if not (i.isdigit() and int(i) in drop)})


# --------------------------------------------------------------------------- no secrets as literals


def shape(value: str) -> str:
    """A placeholder of the same shape: each upper-case letter ``X``, lower-case ``x``, digit ``0``, the rest
    as it is (same length, same separators: a parser or a length check sees the same kind of string)."""
    return "".join("X" if c.isupper() else "x" if c.islower() else "0" if c.isdigit() else c for c in value)


def _secret(value: str) -> bool:
    from reportkit.redact import redact_text

    return len(value) >= 8 and redact_text(value, home="") != value


def without_secrets(text: str) -> str:
    """A value's source text (:func:`materialize_edits`) with every string literal that the redactor's
    patterns call a credential (a token, a key, a URL with a password) replaced by its :func:`shape`: the
    candidate with the placeholder is kept only if the failure does not depend on the value, else the
    expression that computed it stays."""
    import io
    import tokenize

    if "'" not in text and '"' not in text:
        return text
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return text
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out, pos = [], 0
    for tok in tokens:
        if tok.type != tokenize.STRING:
            continue
        try:
            value = ast.literal_eval(tok.string)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, bytes):
            value = value.decode("latin-1")
            wrap = lambda v: repr(v.encode("latin-1"))  # noqa: E731
        elif isinstance(value, str):
            wrap = repr
        else:
            continue
        if not _secret(value):
            continue
        start = starts[tok.start[0] - 1] + tok.start[1]
        end = starts[tok.end[0] - 1] + tok.end[1]
        out += [text[pos:start], wrap(shape(value))]
        pos = end
    return "".join(out) + text[pos:] if out else text


_ENV_GETTERS = {"getenv", "get"}


def env_reads(source: str) -> list[str]:
    """The names of the environment variables ``source`` reads by a literal name: ``os.environ["X"]``,
    ``os.environ.get("X")``, ``os.getenv("X")``, ``environ["X"]``/``getenv("X")`` imported from ``os``;
    in order of first appearance."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []

    def environ(node: ast.expr) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr == "environ" and isinstance(node.value, ast.Name)
                and node.value.id == "os") or (isinstance(node, ast.Name) and node.id == "environ")

    found: list[tuple[tuple[int, int], str]] = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and environ(node.value):
            key = node.slice
        elif isinstance(node, ast.Call) and node.args:
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr in _ENV_GETTERS and
                    (environ(f.value) if f.attr == "get" else isinstance(f.value, ast.Name) and f.value.id == "os")) \
                    or (isinstance(f, ast.Name) and f.id == "getenv"):
                key = node.args[0]
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            found.append(((node.lineno, node.col_offset), key.value))
    names: list[str] = []
    for _, name in sorted(found):
        if name not in names:
            names.append(name)
    return names
