"""Unit tests of the individual reduction passes (pure text in, text out)."""

from __future__ import annotations

import ast

import pytest

from reportkit.reduce import passes as P


def apply_all(source: str, edits: list[P.Edit]) -> str:
    result = P.apply_edits(source, edits)
    assert result is not None
    return result


# ----------------------------------------------------------------------------- parses
@pytest.mark.parametrize(
    "source, ok",
    [
        ("x = 1\n", True),
        ("", True),
        ("def f():\n    return 1\n", True),
        ("return 1\n", False),  # ast.parse accepts it; compile does not
        ("nonlocal x\n", False),
        ("def f():\n    nonlocal x\n", False),
        ("break\n", False),
        ("def f(:\n", False),
        ("x = \n", False),
        ("x = 1\n  y = 2\n", False),
        ("x = '\0'\n", False),  # a NUL byte in source is invalid
    ],
)
def test_parses(source: str, ok: bool) -> None:
    assert P.parses(source) is ok


def test_parses_rejects_what_ast_accepts() -> None:
    ast.parse("return 1\n")  # the reason compile() is needed
    assert not P.parses("return 1\n")


# --------------------------------------------------------------------------- positions
def test_source_map_byte_columns_to_characters() -> None:
    source = 's = "héllo 🐍"; t = 1\n'
    tree = ast.parse(source)
    smap = P.SourceMap(source)
    second = tree.body[1]
    start, end = smap.span(second)
    assert source[start:end] == "t = 1"
    assert second.col_offset > start  # byte offset differs from the char offset


# -------------------------------------------------------------------------------- HDD
HDD_SOURCE = """\
@dec
@dec2(1)
def f():
    a = 1; b = 2; c = 3
    if x: y = 1; z = 2
s = "héllo wörld"; t = "ü"; u = 3
for i in r:
    g()
else:
    h()
class K:
    def m(self): return 1
"""


def test_statement_levels_shape() -> None:
    levels = P.statement_levels(HDD_SOURCE)
    assert [len(level) for level in levels] == [6, 7, 3]


@pytest.mark.parametrize(
    "level, picks, expected",
    [
        (
            0,
            [0],  # the decorated def goes with its decorators
            's = "héllo wörld"; t = "ü"; u = 3\nfor i in r:\n    g()\nelse:\n    h()\nclass K:\n'
            "    def m(self): return 1\n",
        ),
        (0, [2], None),  # middle of a ``;`` line: checked below
        (
            1,
            [0, 1, 2, 3, 4, 5, 6],  # every body emptied: pass (and the else: goes)
            '@dec\n@dec2(1)\ndef f():\n    pass\ns = "héllo wörld"; t = "ü"; u = 3\nfor i in r:\n    pass\n'
            "class K:\n    pass\n",
        ),
        (
            2,
            [0, 1, 2],  # header-line bodies become ``pass`` on the same line
            '@dec\n@dec2(1)\ndef f():\n    a = 1; b = 2; c = 3\n    if x: pass\ns = "héllo wörld"; t = "ü"; u = 3\n'
            "for i in r:\n    g()\nelse:\n    h()\nclass K:\n    def m(self): pass\n",
        ),
    ],
)
def test_hdd_deletions(level: int, picks: list[int], expected: str | None) -> None:
    edits = P.statement_levels(HDD_SOURCE)[level]
    result = apply_all(HDD_SOURCE, [edits[i] for i in picks])
    assert P.parses(result)
    if expected is not None:
        assert result == expected
    else:
        assert 's = "héllo wörld"; u = 3\n' in result


@pytest.mark.parametrize(
    "picks, line",
    [
        ([0], "    b = 2; c = 3\n"),
        ([1], "    a = 1; c = 3\n"),
        ([2], "    a = 1; b = 2\n"),
        ([0, 2], "    b = 2\n"),
        ([1, 2], "    a = 1\n"),
    ],
)
def test_hdd_semicolon_lines(picks: list[int], line: str) -> None:
    edits = P.statement_levels(HDD_SOURCE)[1]
    result = apply_all(HDD_SOURCE, [edits[i] for i in picks])
    assert line in result.splitlines(keepends=True)
    assert P.parses(result)


def test_hdd_empty_nested_body_gets_pass_at_its_indentation() -> None:
    source = "def f():\n    if x:\n        y = 1\n        # note\n        z = 2\n    return 3\n"
    level2 = P.statement_levels(source)[2]
    assert apply_all(source, level2) == "def f():\n    if x:\n        pass\n    return 3\n"


def test_hdd_prune_keeps_referenced_bindings() -> None:
    source = "import os\nimport sys\nx = os.getcwd()\nprint(x)\n"
    full = P.statement_levels(source)[0]
    pruned = P.statement_levels(source, prune=True)[0]
    assert len(full) == 4
    # ``import os`` and ``x = ...`` are read elsewhere; ``import sys`` and print() are not
    assert [apply_all(source, [e]) for e in pruned] == [
        "import os\nx = os.getcwd()\nprint(x)\n",
        "import os\nimport sys\nx = os.getcwd()\n",
    ]


# ----------------------------------------------------------------------------- unused
@pytest.mark.parametrize(
    "source, expected",
    [
        ("import os, sys\nprint(sys.argv)\n", "import sys\nprint(sys.argv)\n"),
        ("import os\nimport sys\nprint(sys.argv)\n", "import sys\nprint(sys.argv)\n"),
        ("import os.path\nos.getcwd()\n", None),  # ``import a.b`` binds ``a``: used
        ("from a import (b,\n    c)\nprint(c)\n", "from a import c\nprint(c)\n"),
        ("from __future__ import annotations\n", None),
        ("def f():\n    pass\nclass K:\n    pass\nx = 1\ny = 2\nprint(y)\n", "y = 2\nprint(y)\n"),
        ("def f():\n    return f()\n", ""),  # only its own recursion reads it: dead
        # scopes: the parameter ``x`` of g and the module ``x`` are other bindings than f's local ``x``
        ("x = 3\ndef f():\n    x = 1\n    return 2\ndef g(x):\n    return x\nprint(f(), g(x))\n",
         "x = 3\ndef f():\n    return 2\ndef g(x):\n    return x\nprint(f(), g(x))\n"),
        ("def f():\n    x = 1\n    def g():\n        return x\n    return g()\nprint(f())\n", None),  # closure
        ("class K:\n    x = 1\n    def m(self):\n        return x\nx = 2\nprint(K().m())\n", None),
        ("__all__ = ['f']\ndef f():\n    pass\n", "def f():\n    pass\n"),
        # g is unused; its import and local are unused too (and moot once g goes)
        ("def g():\n    import json\n    tmp = 3\n    return 1\n", ""),
    ],
)
def test_unused(source: str, expected: str | None) -> None:
    edits = P.propose_unused(source)
    if expected is None:
        assert edits == []
    else:
        assert apply_all(source, edits) == expected


def test_unused_inner_names() -> None:
    source = "def g():\n    import json\n    tmp = 3\n    return 1\ng()\n"
    assert apply_all(source, P.propose_unused(source)) == "def g():\n    return 1\ng()\n"


@pytest.mark.parametrize(
    "source, expected",
    [
        # r01-02: bound, then bound again before anything read it
        ("model = f\nmodel = compile(f)\nmodel(1)\n", "model = compile(f)\nmodel(1)\n"),
        ("def g(x):\n    y = x\n    y = h(x)\n    return y\ng(1)\n", "def g(x):\n    y = h(x)\n    return y\ng(1)\n"),
        # not: the next binding's value reads it, a read in between, the rebinding in a branch only (the first
        # value is read where it is not taken), read by a nested function
        ("model = f\nmodel = compile(model)\nmodel(1)\n", None),
        ("model = f\nprint(model)\nmodel = compile(f)\nmodel(1)\n", None),
        ("model = f\nif c:\n    model = compile(f)\nmodel(1)\n", None),
        ("model = f\ndef run():\n    return model(1)\nmodel = compile(f)\nrun()\n", None),
    ],
)
def test_unused_dead_store(source: str, expected: str | None) -> None:
    edits = P.propose_unused(source)
    assert (apply_all(source, edits) if edits else None) == expected


def test_drop_target() -> None:
    source = "def f():\n    return 1\nout = f()\nkept = f()\nprint(kept)\n"
    assert P.drop_target_candidates(source) == ["def f():\n    return 1\nf()\nkept = f()\nprint(kept)\n"]


@pytest.mark.parametrize(
    "source, expected",
    [
        # an unpacking whose targets are partly unread: those become ``_`` (the length is still checked)
        ("best, labels = images\nprint(best)\n", "best, _ = images\nprint(best)\n"),
        ("def f(batch):\n    [x, *rest], y = batch\n    return x\na, b = f(1)\nprint(a)\n",
         "def f(batch):\n    [x, *_], _ = batch\n    return x\na, _ = f(1)\nprint(a)\n"),
        # not: every target read, none read (the unused-names pass deletes it), ``_`` read elsewhere, an
        # attribute target
        ("a, b = pair\nprint(a, b)\n", None),
        ("a, b = pair\n", None),
        ("a, b = pair\nprint(a, _)\n", None),
        ("a, self.b = pair\nprint(a)\n", None),
    ],
)
def test_unread_targets(source: str, expected: str | None) -> None:
    assert P.unread_targets(source) == expected


# ----------------------------------------------------------------------------- unwrap
@pytest.mark.parametrize(
    "source, expected",
    [
        (
            "def g():\n    if x:\n        s = '''a\n  b'''\n        y = 1  # c\n    else:\n        z = 2\n",
            [
                "def g():\n    s = '''a\n  b'''\n    y = 1  # c\n",  # multi-line string content untouched
                "def g():\n    z = 2\n",
            ],
        ),
        (
            "if a:\n    x = 1\nelif b:\n    y = 2\nelse:\n    z = 3\n",
            [
                "x = 1\n",
                "if b:\n    y = 2\nelse:\n    z = 3\n",
                "if a:\n    x = 1\ny = 2\n",
                "if a:\n    x = 1\nz = 3\n",
            ],
        ),
        ('if __name__ == "__main__": main()\n', ["main()\n"]),
        ("with open(p) as fh, lock:\n    data = fh.read()\n", ["fh = open(p)\ndata = fh.read()\n"]),
        ("with torch.no_grad():\n    y = m(x)\n", ["y = m(x)\n"]),
        # a name the ``with`` binds that nothing reads: the body alone first (no object built and left open)
        ("with Pool() as pool:\n    run()\n", ["run()\n", "pool = Pool()\nrun()\n"]),
        ("def f():\n    with ctx() as (a, b), lock:\n        run()\n",
         ["def f():\n    run()\n", "def f():\n    (a, b) = ctx()\n    run()\n"]),
        # read after the block, or elsewhere in the module: the binding stays
        ("with open(p) as fh:\n    pass\nprint(fh.closed)\n", ["fh = open(p)\npass\nprint(fh.closed)\n"]),
        ("def g():\n    return pool\nwith Pool() as pool:\n    run()\n", ["def g():\n    return pool\npool = Pool()\nrun()\n"]),
        ("for i in range(3):\n    print(i)\n", ["i = next(iter(range(3)))\nprint(i)\n"]),
        # a computed bound: the loop is how a person writes its first value (and its count may be the bug)
        ("for s in range(n // per):\n    out[s] = x[s]\n", []),
        ("for s in range(-1, n):\n    f(s)\n", []),
        ("for _ in range(n):\n    step()\n", ["step()\n"]),
        ("for row in rows:\n    check(row)\n", ["row = next(iter(rows))\ncheck(row)\n"]),
        # a loop that returns (or breaks) at the end of its first pass is its first item already:
        # unwrapping it would only erase the return indented into the loop (a classic bug)
        ("def load(rows):\n    out = []\n    for row in rows:\n        out.append(row)\n        return out\n", []),
        ("for row in rows:\n    found = row\n    break\n", []),
        # an exit under a condition is not the first pass's end: unwrapped as any loop
        ("def first(rows):\n    for row in rows:\n        if row:\n            return row\n        check(row)\n",
         ["def first(rows):\n    row = next(iter(rows))\n    if row:\n        return row\n    check(row)\n",
          "def first(rows):\n    for row in rows:\n        return row\n        check(row)\n"]),
        ("for _ in range(3):\n    step()\n", ["step()\n"]),
        ("while cond():\n    step()\n", ["step()\n"]),
        ("try:\n    a()\nexcept E:\n    b()\nelse:\n    c()\nfinally:\n    d()\n", ["a()\nc()\nd()\n"]),
    ],
)
def test_unwrap(source: str, expected: list[str]) -> None:
    candidates = P.unwrap_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


# ----------------------------------------------------------------------------- inline
def test_inline_module_function() -> None:
    source = (
        "def helper(a, b=2, *, c=3):\n"
        "    t = a + b\n"
        "    return t * c\n"
        "\n"
        "def main():\n"
        "    r = helper(x, c=4)\n"
        "    print(r)\n"
        "\n"
        "main()\n"
    )
    assert P.inline_candidates(source) == [
        "\ndef main():\n    a, c, b = x, 4, 2\n    t = a + b\n    r = t * c\n    print(r)\n\nmain()\n",
        "def helper(a, b=2, *, c=3):\n    t = a + b\n    return t * c\n\n\nr = helper(x, c=4)\nprint(r)\n",
    ]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("def f(x):\n    return x / 0\nf(1)\n", ["x = 1\nx / 0\n"]),
        ("def f(x):\n    y = x\nz = f(x)\n", ["y = x\nz = None\n"]),
        ("def f(): return 1 / 0\nf()\n", ["1 / 0\n"]),
        ("def f():\n    return (g())\nx = f()\n", ["x = (g())\n"]),  # a parenthesized value keeps its "("
        # not inlined: two calls, recursion, *args, yield, early return, decorated
        ("def f():\n    pass\nf()\nf()\n", []),
        ("def f(n):\n    return f(n - 1)\n", []),
        ("def f(*a):\n    pass\nf()\n", []),
        ("def f():\n    yield 1\nf()\n", []),
        ("def f(x):\n    if x:\n        return 1\n    return 2\nf(1)\n", []),
        ("@dec\ndef f():\n    pass\nf()\n", []),
        ("def f(a):\n    pass\nprint(f(1))\n", []),  # not a statement-level call
    ],
)
def test_inline_cases(source: str, expected: list[str]) -> None:
    assert P.inline_candidates(source) == expected


# ------------------------------------------------------------------ args and elements
ARGS_SOURCE = "f(a, g(b, c), d=1)\nx = (1, 2)\ny = [1, 2, 3,]\nz = {'a': 1, **w}\n"


@pytest.mark.parametrize(
    "picks, first_line",
    [
        ([0, 1, 2], "f(a)"),
        ([0, 2], "f(a, d=1)"),  # deleting c inside the deleted g(...) is moot
        ([1], "f(a, g(b, c))"),
        ([2], "f(a, g(b), d=1)"),
    ],
)
def test_call_args(picks: list[int], first_line: str) -> None:
    # a positional argument with another one after it is not proposed: f(g(b, c), d=1), g(c) never
    edits = P.propose_call_args(ARGS_SOURCE)
    assert len(edits) == 3
    assert apply_all(ARGS_SOURCE, [edits[i] for i in picks]).splitlines()[0] == first_line


def test_call_args_skip_required_parameters_of_local_functions() -> None:
    source = "def h(a, b=1, *, c, d=2):\n    pass\nh(1, 2, c=3, d=4)\nprint(1, 2)\n"
    results = {apply_all(source, [e]) for e in P.propose_call_args(source)}
    assert results == {
        "def h(a, b=1, *, c, d=2):\n    pass\nh(1, c=3, d=4)\nprint(1, 2)\n",
        "def h(a, b=1, *, c, d=2):\n    pass\nh(1, 2, c=3)\nprint(1, 2)\n",
        "def h(a, b=1, *, c, d=2):\n    pass\nh(1, 2, c=3, d=4)\nprint(2)\n",
        "def h(a, b=1, *, c, d=2):\n    pass\nh(1, 2, c=3, d=4)\nprint(1)\n",
    }


@pytest.mark.parametrize("cls, removable", [
    # a plain class: a call reaches its own __init__, whose required parameters stay
    ("class B:\n    def __init__(self, a, b=1, *, c):\n        pass\n", {"B(1, c=3)"}),
    ("class B(Base):\n    X = 1\n    def __init__(self, a, b=1, *, c):\n        pass\n", {"B(1, c=3)"}),
    # anything that may not call that __init__ with these arguments: every argument that shifts no other
    ("@dataclass\nclass B:\n    def __init__(self, a, b=1, *, c):\n        pass\n",
     {"B(1, c=3)", "B(1, 2)"}),
    ("class B(metaclass=M):\n    def __init__(self, a, b=1, *, c):\n        pass\n",
     {"B(1, c=3)", "B(1, 2)"}),
    ("class B:\n    def __new__(cls, *a, **k):\n        pass\n    def __init__(self, a, b=1, *, c):\n        pass\n",
     {"B(1, c=3)", "B(1, 2)"}),
    ("class B:\n    if X:\n        def __init__(self, a, b=1, *, c):\n            pass\n",
     {"B(1, c=3)", "B(1, 2)"}),
    ("class B:\n    def __init__(self, a, b=1, *, c):\n        pass\nB = other\n",
     {"B(1, c=3)", "B(1, 2)"}),
])
def test_call_args_skip_required_parameters_of_local_classes(cls: str, removable: set[str]) -> None:
    source = cls + "B(1, 2, c=3)\n"
    results = {apply_all(source, [e]).splitlines()[-1] for e in P.propose_call_args(source)}
    assert results == removable


def test_call_args_multiline_and_parenthesized() -> None:
    # print: its positional arguments are alike, each one is proposed
    source = "print(\n    (a),\n    b,  # note\n)\n(x for x in y)\ng(x for x in y)\n"
    edits = P.propose_call_args(source)
    assert apply_all(source, edits[:1]) == "print(\n    b,  # note\n)\n(x for x in y)\ng(x for x in y)\n"
    assert apply_all(source, edits[1:2]) == "print(\n    (a),  # note\n)\n(x for x in y)\ng(x for x in y)\n"
    assert apply_all(source, edits[:2]) == "print(\n      # note\n)\n(x for x in y)\ng(x for x in y)\n"
    assert apply_all(source, edits[2:]) == "print(\n    (a),\n    b,  # note\n)\n(x for x in y)\ng()\n"


@pytest.mark.parametrize("source, removable", [
    # a positional argument followed by another one would shift it into its parameter: never proposed
    ("torch.nn.functional.pad(x, 3, 32)\n", {"torch.nn.functional.pad(x, 3)"}),
    ("nn.Conv2d(3, 16, 3, stride=2, padding=1)\n",
     {"nn.Conv2d(3, 16, stride=2, padding=1)", "nn.Conv2d(3, 16, 3, padding=1)", "nn.Conv2d(3, 16, 3, stride=2)"}),
    # a local function's *args are alike: each one goes alone; its named parameters do not
    ("def f(a, b=1, *xs):\n    pass\nf(1, 2, 3, 4)\n", {"f(1, 2, 4)", "f(1, 2, 3)"}),
    # builtins: not below their required positional arguments, unless the source rebinds the name
    ("n = len(xs)\n", set()),
    ("r = range(n)\n", set()),
    ("r = range(0, n)\n", {"r = range(0)"}),
    ("t = isinstance(x, int)\n", set()),
    ("s = sum(x for x in y)\n", set()),
    ("s = sorted(xs, key=k)\n", {"s = sorted(xs)"}),
    ("v = round(x, 4)\n", {"v = round(x)"}),
    ("v = getattr(o, 'a', None)\n", {"v = getattr(o, 'a')"}),
    ("e = enumerate(iterable=xs)\n", {"e = enumerate()"}),  # by keyword: no positional count to trust
    ("def len(*a):\n    pass\nn = len(xs)\n", {"n = len()"}),
    ("len = str\nn = len(xs)\n", {"n = len()"}),
    ("from m import *\nn = len(xs)\n", {"n = len()"}),
    ("def f(len):\n    return len(1)\n", {"    return len()"}),
    # print: every argument
    ("print(a, b)\n", {"print(b)", "print(a)"}),
    # the only input of an object built by a call, on the spot or as a submodule, or of xs.append(x)
    ("y = nn.Linear(4, 4)(x)\n", {"y = nn.Linear(4)(x)"}),
    ("y = nn.Linear(4, 4)(x, scale=2)\n", {"y = nn.Linear(4)(x, scale=2)", "y = nn.Linear(4, 4)(x)"}),
    ("class M:\n    def __init__(self):\n        self.conv = nn.Conv2d(1, 1, 1)\n"
     "    def forward(self, x):\n        return self.conv(x)\n", {"        self.conv = nn.Conv2d(1, 1)"}),
    ("class M:\n    def __init__(self):\n        self.conv = make()\n    def conv(self, x):\n        pass\n"
     "    def forward(self, x):\n        return self.conv(x)\n", {"        return self.conv()"}),  # a method
    ("class M:\n    def forward(self, x):\n        return self.fn(x)\n", {"        return self.fn()"}),  # not built
    ("xs.append(x)\n", set()),
    ("xs.append(*x)\n", {"xs.append()"}),
    ("xs.pop(0)\n", {"xs.pop()"}),
    # an argument that names a dtype: the value's type stays as written (a variable's may go)
    ("import torch\ny = torch.zeros(n, dtype=torch.int32, device=d)\n", {"y = torch.zeros(n, dtype=torch.int32)"}),
    ("y = np.array(v, dtype='int32')\n", {"y = np.array(dtype='int32')"}),
    ("y = x.to(torch.int32)\n", set()),
    ("y = x.to(d, torch.half)\n", set()),
    ("y = x.to(dtype=torch.long, non_blocking=True)\n", {"y = x.to(dtype=torch.long)"}),
    ("y = a.astype(np.int32)\n", set()),
    ("y = a.astype(kind)\n", set()),
    ("y = x.to(dtype=dt)\n", {"y = x.to()"}),
    ("y = x.to(d)\n", {"y = x.to()"}),
    ("y = f(x, dtype=torch.float16)\n", {"y = f(dtype=torch.float16)"}),
    # the dim of a shape query: without it the call returns the whole shape
    ("y = x.size(0)\n", set()),
    ("y = x.size(dim=1)\n", set()),
    ("y = x.stride(0)\n", set()),
    ("y = x.sum(0)\n", {"y = x.sum()"}),
])
def test_call_args_never_shift_or_starve(source: str, removable: set[str]) -> None:
    lines = source.splitlines()
    results = {"\n".join(line for line in apply_all(source, [e]).splitlines() if line not in lines)
               for e in P.propose_call_args(source)}
    assert results == removable


@pytest.mark.parametrize(
    "picks, lines",
    [
        ([1, 3, 4, 6], ["x = (1,)", "y = [1,]", "z = {'a': 1}"]),  # one-element tuple keeps its comma
        ([0], ["x = (2,)", "y = [1, 2, 3,]", "z = {'a': 1, **w}"]),
        ([2, 3, 4, 5, 6], ["x = (1, 2)", "y = []", "z = {}"]),
    ],
)
def test_display_elements(picks: list[int], lines: list[str]) -> None:
    edits = P.propose_display_elements(ARGS_SOURCE)
    assert len(edits) == 7  # tuple 2, list 3, dict 2 (the call has no displays)
    result = apply_all(ARGS_SOURCE, [edits[i] for i in picks])
    assert result.splitlines()[1:] == lines
    assert P.parses(result)


def test_display_elements_skip_assignment_targets() -> None:
    assert P.propose_display_elements("a, b = c\n[d, e] = f\n") == []


def test_unparenthesized_tuple_emptied_is_invalid_not_crashing() -> None:
    source = "x = 1, 2\n"
    result = apply_all(source, P.propose_display_elements(source))
    assert not P.parses(result)  # the engine skips it without testing


# ---------------------------------------------------------------------------- numbers
def test_numeric_literals() -> None:
    source = "n = 100\nm = 0x10 + 1_000 + 2.5 + 1e3 - 7 + 1 + 0\nflag = True\n"
    sites = P.numeric_literals(source)
    assert [s.value for s in sites] == [100, 16, 1000, 2.5, 1000.0, 7, 1, 0]
    assert [s.shrinkable for s in sites] == [True] * 6 + [False, False]
    assert sites[1].render(3) == "n = 100\nm = 3 + 1_000 + 2.5 + 1e3 - 7 + 1 + 0\nflag = True\n"
    assert apply_all(source, P.propose_literals_to_one(source)) == (
        "n = 1\nm = 1 + 1 + 1.0 + 1.0 - 1 + 1 + 0\nflag = True\n"
    )


def test_numeric_literals_negative_and_unicode() -> None:
    source = 's = "ü"; x = -42\n'
    (site,) = P.numeric_literals(source)
    assert site.render(7) == 's = "ü"; x = -7\n'


def test_numeric_literals_leave_an_export_dims_bounds_alone() -> None:
    # r01-06: Dim("Dim", min=16, max=64) became min=4, max=32 (the same guard, but the range the message
    # quotes is no longer the user's; a range shrunk to one value is another violation)
    source = ("import torch\nfrom torch.export import Dim\nd = torch.export.Dim('d', min=16, max=64)\n"
              "e = Dim.DYNAMIC(min=2, max=1024)\nx = torch.randn(4, 32)\ny = torch.clamp(x, min=16, max=64)\n")
    assert [s.value for s in P.numeric_literals(source)] == [4, 32, 16, 64]  # the clamp's stay numbers
    assert "min=16, max=64)\ne = Dim.DYNAMIC(min=2, max=1024)" in apply_all(source, P.propose_literals_to_one(source))
    plain = "d = Dim('d', min=16, max=64)\n"  # no torch: an unknown Dim's numbers are numbers
    assert [s.value for s in P.numeric_literals(plain)] == [16, 64]


# --------------------------------------------------------------------------- simplify
def test_simplify_candidates() -> None:
    source = "@deco(1)\ndef f(x: int = g()) -> int:\n    return x.y + h(x)\nout = f()\n"
    head = "@deco(1)\ndef f(x: int = "
    assert P.simplify_candidates(source) == [
        head + "0) -> int:\n    return x.y + h(x)\nout = f()\n",  # never annotations/decorators/callees
        head + "g()) -> int:\n    return 0\nout = f()\n",
        head + "g()) -> int:\n    return x.y\nout = f()\n",  # hoist an operand
        head + "g()) -> int:\n    return h(x)\nout = f()\n",
        head + "g()) -> int:\n    return 0 + h(x)\nout = f()\n",
        head + "g()) -> int:\n    return x.y + 0\nout = f()\n",
        head + "g()) -> int:\n    return x.y + x\nout = f()\n",  # hoist an argument
        head + "g()) -> int:\n    return x.y + h(x)\nout = 0\n",
    ]


@pytest.mark.parametrize(
    "source, expected",
    [
        # a statement-level call: only hoisting a non-trivial argument; then the inner call
        (
            "log.append(json.loads(line))\n",
            ["json.loads(line)\n", "log.append(0)\n", "log.append(line)\n", "log.append(json)\n"],
        ),
        # a statement-level method call on a call's result: the call alone (what used its result goes)
        ("import torch\nnet(x).item()\n", ["import torch\nnet(x)\n", "import torch\nx.item()\n"]),
        ("import torch\ntorch.compile(f)().argmax()\n", ["import torch\ntorch.compile(f)()\n"]),
        ("self.items.append(1)\n", []),  # a receiver that is no call: not a statement
        # drop calls from a method chain (no ``0.cuda()``)
        ("y = x.detach().cuda()\n", ["y = 0\n", "y = x.detach()\n", "y = x.cuda()\n"]),
        # ... but not a dtype conversion: its receiver does not replace it (the dtype stays as written)
        ("y = x.float().cuda()\n", ["y = 0\n", "y = x.float()\n"]),
        ("y = labels.long()\n", ["y = 0\n"]),
        ("import torch\ny = labels.to(torch.int32)\n", ["import torch\ny = 0\n", "import torch\ny = torch.int32\n"]),
        ("import numpy as np\ny = codes.astype(np.int32)\n",
         ["import numpy as np\ny = 0\n", "import numpy as np\ny = np.int32\n"]),
        ("y = x.to(device)\n", ["y = 0\n", "y = device\n", "y = x\n"]),
        # ... nor a query's: a shape, a rank, numbers are not the tensor they read
        ("y = sum(x.size())\n", ["y = 0\n", "y = x.size()\n", "y = sum(0)\n"]),
        ("y = x.size(1)\n", ["y = 0\n", "y = 1\n"]),
        ("if loss.item() > 0:\n    pass\n", ["if 0:\n    pass\n", "if 0 > 0:\n    pass\n"]),
        ("n = len(x.tolist())\n", ["n = 0\n", "n = x.tolist()\n", "n = len(0)\n"]),
        # ... nor a whole shape for an entry of it (a tuple for a number)
        ("y = f(x.shape[0])\n", ["y = 0\n", "y = x.shape[0]\n", "y = f(0)\n"]),
        ("y = f(x.size()[1])\n", ["y = 0\n", "y = x.size()[1]\n", "y = f(0)\n"]),
        ("y = f(rows[1])\n", ["y = 0\n", "y = rows[1]\n", "y = f(0)\n", "y = f(rows)\n"]),
        # ... nor an input of a call that makes another kind of tensor (a layout, a parameter), nor 0 for it
        ("import torch\ns = torch.sparse_coo_tensor(i, v, (2, 2))\n", ["import torch\ns = torch.sparse_coo_tensor(i, v, 0)\n"]),
        ("y = f(x.to_sparse())\n", ["y = 0\n", "y = x.to_sparse()\n"]),
        ("import torch\np = torch.nn.Parameter(torch.randn(2))\n", []),
        ("y = f(nested_tensor(xs))\n", ["y = 0\n", "y = nested_tensor(xs)\n"]),
        (
            "y = (a +\n  b) * 2\n",
            ["y = 0\n", "y = (a +\n  b)\n", "y = 2\n", "y = (0) * 2\n", "y = (a) * 2\n", "y = (b) * 2\n"],
        ),
        ("a - b\n", []),
        # never a class's base, the object a method runs on, or a size in place of a library call
        ("class A(nn.Module, metaclass=M):\n    pass\n", []),
        ("y = self.fc(x)\n", ["y = 0\n", "y = x\n"]),
        ("y = super().forward(x)\n", ["y = 0\n", "y = x\n"]),
        # ... nor the class a static or class method is looked up in (another class's attribute may go)
        ("class B:\n    pass\ny = B.test(x)\nz = C.test(x)\n",
         ["class B:\n    pass\ny = 0\nz = C.test(x)\n", "class B:\n    pass\ny = x\nz = C.test(x)\n",
          "class B:\n    pass\ny = B.test(x)\nz = 0\n", "class B:\n    pass\ny = B.test(x)\nz = x\n",
          "class B:\n    pass\ny = B.test(x)\nz = C\n"]),
        # ... nor ``0`` for an installed package's call (a tensor, a module); the standard library's may be 0
        ("import torch\ny = torch.randn(16, -4, n)\n", ["import torch\ny = n\n", "import torch\ny = torch.randn(16, 0, n)\n"]),
        ("from torch import nn\ny = nn.Linear(4, 2)(x)\n", ["from torch import nn\ny = x\n"]),
        ("import torch\ny = torch.zeros(n, dtype=torch.long, layout=L)\n",
         ["import torch\ny = n\n", "import torch\ny = L\n"]),
        ("import time\ny = time.time()\n", ["import time\ny = 0\n"]),
        # ... nor for a lambda (a function: a hook, a key), its body may still shrink
        ("m.register_hook(lambda g: None)\n", []),
        ("y = sorted(xs, key=lambda k: k + 1)\n",
         ["y = 0\n", "y = xs\n", "y = sorted(xs, key=lambda k: 0)\n", "y = sorted(xs, key=lambda k: k)\n",
          "y = sorted(xs, key=lambda k: 1)\n"]),
        # a local function's or a builtin's number argument may be its value (``max(8, n)``)
        ("y = max(8, n)\n", ["y = 0\n", "y = 8\n", "y = n\n"]),
        ("import json\nlog.append(json.loads(line))\n",
         ["import json\njson.loads(line)\n", "import json\nlog.append(0)\n", "import json\nlog.append(line)\n"]),
    ],
)
def test_simplify_hoisting(source: str, expected: list[str]) -> None:
    candidates = P.simplify_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("x = torch.randn(3)\nout = f(x)\n", ["out = f(torch.randn(3))\n"]),
        ("x = a + b\nout = x * 2\n", ["out = (a + b) * 2\n"]),
        ("def f():\n    x = g()\n    return x\n", ["def f():\n    return g()\n"]),
        ("x = 1\nout = x + x\n", []),  # read twice
        ("x = 1\nx = 2\nprint(x)\n", []),  # assigned twice
        ("print(x)\nx = 1\n", []),  # read before
        ("x = 1\ndef f():\n    return x\n", ["def f():\n    return 1\n"]),  # later, nested: allowed
        ("def f():\n    return x\nx = 1\n", []),  # the read is in an earlier statement
        ("class K:\n    x = 1\n    y = x\n", []),  # class bodies are namespaces
    ],
)
def test_inline_variables(source: str, expected: list[str]) -> None:
    assert P.inline_variable_candidates(source) == expected


# --------------------------------------------------------------------------- cosmetic
COSMETIC_SOURCE = (
    '"""Mod doc."""\n# lead\nx = 1  # trailing\n\n\n\ndef f():\n    """Doc."""\n\n\n'
    '    return """a  \n\n\n  b"""   \n'
)


def test_drop_comments() -> None:
    assert P.drop_comments(COSMETIC_SOURCE) == (
        '"""Mod doc."""\nx = 1\n\n\n\ndef f():\n    """Doc."""\n\n\n    return """a  \n\n\n  b"""   \n'
    )
    assert P.drop_comments("x = 1\n") is None


def test_drop_docstrings() -> None:
    assert P.drop_docstrings(COSMETIC_SOURCE) == (
        '# lead\nx = 1  # trailing\n\n\n\ndef f():\n\n\n    return """a  \n\n\n  b"""   \n'
    )
    assert P.drop_docstrings('class K:\n    """Only a docstring."""\n') == "class K:\n    pass\n"


def test_tidy_whitespace_keeps_string_content() -> None:
    assert P.tidy_whitespace(COSMETIC_SOURCE) == (
        '"""Mod doc."""\n# lead\nx = 1  # trailing\n\ndef f():\n    """Doc."""\n\n    return """a  \n\n\n  b"""\n'
    )


@pytest.mark.parametrize(
    "source, expected",
    [
        # scattered imports go to the top in their order; one ``from`` line per module
        ("def f():\n    pass\n\nimport torch\nfrom m import A\nx = 1\nfrom m import B\nf()\n",
         "import torch\nfrom m import A, B\n\ndef f():\n    pass\n\nx = 1\nf()\n"),
        # after the docstring and __future__; a repeated import once
        ('"""Doc."""\nfrom __future__ import annotations\nx = 1\nimport os\nimport os\n',
         '"""Doc."""\nfrom __future__ import annotations\nimport os\n\nx = 1\n'),
        ("import os\nimport sys\n\nx = 1\n", None),  # already tidy
        # pinned: a name also bound otherwise, imported twice differently, a star, inside a function
        ("nn = 3\nfrom torch import nn\n", None),
        ("x = 1\nfrom a import f\ny = f()\nfrom b import f\n", None),
        ("x = 1\nfrom m import *\n", None),
        ("x = 1\nimport os; y = 2\n", None),
        ("def g():\n    import os\nx = 1\nimport os\n", None),
    ],
)
def test_tidy_imports(source: str, expected: str | None) -> None:
    assert P.tidy_imports(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ("b.lu_solve(*(torch.randn(2, 2), torch.zeros(2, dtype=torch.int32)))\n",
         "b.lu_solve(torch.randn(2, 2), torch.zeros(2, dtype=torch.int32))\n"),
        ("f(x, *[1, g(*(2,))], k=3)\n", "f(x, 1, g(2), k=3)\n"),  # one inside another too
        ("f(*(lambda: 1, a if b else c))\n", "f(lambda: 1, a if b else c)\n"),
        # not: an empty display, an unpacking inside it, a name, a display over several lines, no call
        ("f(*(), *y, *(*z, 1))\n", None),
        ("f(*(1,\n    2))\n", None),
        ("x = [*(1, 2)]\n", None),
    ],
)
def test_spread_starred_displays(source: str, expected: str | None) -> None:
    assert P.spread_starred_displays(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        ('D = {\n    "dim": 1,\n}\n', 'D = {"dim": 1}\n'),
        ("t = (\n    1,\n)\n", "t = (1,)\n"),  # a one-element tuple keeps its comma
        ("def g():\n    y = call(\n        1, 2,\n        3,\n    )\n", "def g():\n    y = call(1, 2, 3)\n"),
        ("x = a + \\\n    b\n", "x = a + b\n"),
        ("x = f(a,\n      b)  # why\n", None),  # a comment inside
        ('s = """a\nb"""\n', None),  # a multi-line string
        # a compound statement's header; its body stays
        ("for k, v in {\n    'a': 1,\n    'b': 2,\n}.items():\n    f(k)\n", "for k, v in {'a': 1, 'b': 2}.items():\n    f(k)\n"),
        ("def f(\n    a,\n    b,\n):\n    return (a,\n            b)\n", "def f(a, b):\n    return (a, b)\n"),
        ("if x:  # note\n    y = (1,\n         2)\n", "if x:  # note\n    y = (1, 2)\n"),
        ("x = [\n    " + ", ".join(["'abcdefgh'"] * 9) + ",\n]\n", None),  # too long for one line
        # too long for one line, spread over more than three: its brackets' insides on one line
        ('torch.export.export(\n    Model(),\n    (torch.randn(2, 3),),\n    dynamic_shapes={\n'
         '        "z": {1: torch.export.Dim("dz")},\n    },\n)\n',
         'torch.export.export(\n    Model(), (torch.randn(2, 3),), dynamic_shapes={"z": {1: torch.export.Dim("dz")}}\n)\n'),
        ("def g():\n    y = call_something_long(\n        " + ", ".join(["'abcdefgh'"] * 6) + ",\n        (1,),\n    )\n",
         "def g():\n    y = call_something_long(\n        " + ", ".join(["'abcdefgh'"] * 6) + ", (1,)\n    )\n"),
        ("x = [\n    " + ",\n    ".join(["'abcdefgh'"] * 9) + ",\n]\n", None),  # its insides too long for a line
        ("f(a, (\n    b,\n))\n", "f(a, (b,))\n"),  # a one-element tuple keeps its comma, the call's goes
    ],
)
def test_join_short_statements(source: str, expected: str | None) -> None:
    assert P.join_short_statements(source) == expected


@pytest.mark.parametrize(
    "source, expected",
    [
        # what inlining leaves (it parenthesizes what it puts in place so it stands anywhere)
        ("((torch.sum(torch.mul(a, b)))).backward()\n", "torch.sum(torch.mul(a, b)).backward()\n"),
        ("x = f((a), ((b)), **(kw))\n", "x = f(a, b, **kw)\n"),
        ("y = ((a) + (b)) * c\n", "y = (a + b) * c\n"),  # the operator's grouping stays
        ("if (x):\n    pass\nz = not (y[0])\n", "if x:\n    pass\nz = not y[0]\n"),
        ("print(((a)))  # (a)\n", "print(a)  # (a)\n"),  # a comment is no bracket
        ("n = [(x) for x in y]\n", "n = [x for x in y]\n"),
        # nothing else: a call's own brackets, an attribute of an int, a tuple, a lambda called, a yield, lines
        ("r = print (a)\n", None),
        ("t = (1).real\n", None),
        ("s = print((1, 2))\n", None),
        ("u = (lambda: 1)()\n", None),
        ("def g():\n    v = (yield)\n", None),
        ("w = (\n    f(x)\n)\n", None),
        ("q = '(' + x + ')'\n", None),
    ],
)
def test_drop_redundant_parens(source: str, expected: str | None) -> None:
    assert P.drop_redundant_parens(source) == expected


def test_string_lines_are_deletions_of_interior_lines() -> None:
    from reportkit.reduce.passes.strings import propose_string_lines

    source = ('def f(text="""a,b\n1,2\n3,4\n"""):\n    """Doc\n    more\n    """\n'
              'x = b"""\nq\n"""\ny = f"""\n{x}\n"""\nz = ("one"\n     "two"\n     "three")\n')
    edits = propose_string_lines(source)
    # the CSV's rows (not its header, which shares the opening quotes' line), the bytes' row and each
    # implicitly concatenated piece (its line where it is alone on it); not the docstring or the f-string
    assert [source[e.start:e.end] for e in edits] == ["1,2\n", "3,4\n", "q\n", '"one"', '     "two"\n', '"three"']
    assert P.apply_edits(source, edits[:2]).startswith('def f(text="""a,b\n"""):')
    assert P.apply_edits(source, edits[4:5]).endswith('z = ("one"\n     "three")\n')


@pytest.mark.parametrize("source", [
    'x = ("solo")\n',  # one parenthesized literal
    'x = (f"{a}"\n     "b")\n',  # with an f-string: code
    'x = ("a" +\n     "b")\n',  # an operator, not implicit concatenation
])
def test_string_pieces_are_only_implicit_concatenations_of_plain_literals(source: str) -> None:
    from reportkit.reduce.passes.strings import propose_string_lines

    assert propose_string_lines(source) == []


# --------------------------------------------------------------------- reindentation
def test_block_text_reindents_around_multiline_strings() -> None:
    source = "if x:\n    s = '''\n    keep\n  this'''\n    t = (1,\n  2)\n"
    tree = ast.parse(source)
    smap = P.SourceMap(source)
    body = tree.body[0].body  # type: ignore[attr-defined]
    assert P.block_text(smap, body, "") == "s = '''\n    keep\n  this'''\nt = (1,\n2)\n"
    assert (
        P.block_text(smap, body, "        ")
        == "        s = '''\n    keep\n  this'''\n        t = (1,\n        2)\n"
    )


@pytest.mark.parametrize(
    "source, expected",
    [
        ("def is_clone(node):\n    return node.target == 'clone'\nfor n in ns:\n    if not is_clone(n):\n"
         "        continue\n", ["for n in ns:\n    if not (n.target == 'clone'):\n        continue\n"]),
        ('def f(a, b=2):\n    """Doc."""\n    return a * b\nprint(f(x + 1))\n', ["print(((x + 1) * (2)))\n"]),
        ("def f(a):\n    return a + a\nprint(f(n))\n", ["print((n + n))\n"]),
        # not inlined: a repeated argument that would be evaluated twice, a statement-level call (the
        # statement pass does those), two statements, names bound inside the expression, two calls
        ("def f(a):\n    return a + a\nprint(f(g()))\n", []),
        ("def f(a):\n    return a + a\nprint(f(g.h))\n", []),
        ("def f(a):\n    return a\nf(1)\n", []),
        ("def f(a):\n    b = a\n    return b\nprint(f(1))\n", []),
        ("def f(a):\n    return [a for a in range(3)]\nprint(f(1))\n", []),
        ("def f(a):\n    return a\nprint(f(1), f(2))\n", []),
    ],
)
def test_inline_expression_cases(source: str, expected: list[str]) -> None:
    assert P.inline_expression_candidates(source) == expected


# ------------------------------------------------------------ CONTRIBUTING.md's example
def test_contributing_example_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The "Adding a reduction pass" example of CONTRIBUTING.md works as shown."""
    import importlib.util
    import re
    from pathlib import Path

    from reportkit.reduce.schedule import reduce_source

    text = (Path(__file__).resolve().parents[1] / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Adding a reduction pass", 1)[1].split("\n## ", 1)[0]
    module_code, registration = re.findall(r"```python\n(.*?)```", section, re.S)[:2]
    spec = importlib.util.spec_from_loader("reportkit.reduce.passes.asserts", loader=None)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    module.__package__ = "reportkit.reduce.passes"
    exec(compile(module_code, "CONTRIBUTING.md", "exec"), module.__dict__)
    monkeypatch.setitem(__import__("sys").modules, "reportkit.reduce.passes.asserts", module)
    namespace = dict(vars(P))
    exec(compile(registration.replace("from .asserts", "from reportkit.reduce.passes.asserts"),
                 "CONTRIBUTING.md", "exec"), namespace)
    monkeypatch.setattr(P, "FINE", namespace["FINE"])
    assert namespace["ASSERT_MESSAGES"] in P.FINE

    source = "def check(n):\n    assert n % 2 == 0, f'odd: {n}'\n\ncheck(7)\n"

    def fails_the_assert(candidate: str) -> bool:
        try:
            exec(compile(candidate, "<candidate>", "exec"), {})
        except AssertionError:
            return True
        except Exception:
            return False
        return False

    result = reduce_source(source, fails_the_assert)
    assert result.stats.passes.get("assert-messages") == 1, result.stats.passes
    assert result.source.startswith("assert ") and "," not in result.source, result.source


# ------------------------------------------------------------------------- scaffolding
MODEL = "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"


@pytest.mark.parametrize(
    "source, expected",
    [
        # a dict built in __init__ is a build too
        (MODEL + "        self.d = {}\n    def forward(self):\n        return self.d\n", []),
        # a module built in __init__ is a build (the value pass below), not a plain hoist
        (MODEL + "        self.fc = nn.Linear(2, 3)\n\n    def forward(self, x):\n        return self.fc(x)\n", []),
        # a constant read twice; a constructor parameter bound to the one construction's constant
        ("class M:\n    def __init__(self, p=0.5):\n        self.p = p * 2\n\n    def f(self):\n"
         "        return self.p + self.p\nM(0.1).f()\n",
         ["class M:\n    def __init__(self, p=0.5):\n        pass\n\n    def f(self):\n"
          "        return (0.1 * 2) + (0.1 * 2)\nM(0.1).f()\n"]),
        # not moved: a call read twice, stored twice, read from outside, a local of __init__,
        # a parameter bound to a non-constant, a name the method binds differently
        (MODEL + "        self.fc = nn.Linear(2, 3)\n    def forward(self, x):\n        return self.fc(self.fc(x))\n",
         []),
        (MODEL + "        self.n = 1\n    def forward(self, x):\n        self.n = 2\n        return self.n\n", []),
        (MODEL + "        self.n = 1\nprint(M().n)\n", []),
        (MODEL + "        k = 2\n        self.n = k\n    def forward(self):\n        return self.n\n", []),
        ("class M:\n    def __init__(self, p):\n        self.p = p\n    def f(self):\n        return self.p\n"
         "M(g()).f()\n", []),
        ("class M:\n    def __init__(self):\n        self.p = k\n    def f(self, k):\n        return self.p\n", []),
        ("class M:\n    def __init__(self, p=1):\n        p = p + 1\n        self.p = p\n    def f(self):\n"
         "        return self.p\nM().f()\n", []),
        ("class M:\n    def __init__(self):\n        self.p = 1\nclass N(M):\n    def f(self):\n        return self.p\n",
         []),
    ],
)
def test_self_attrs(source: str, expected: list[str]) -> None:
    candidates = P.self_attr_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        # a module built in __init__, read once: built where it is read
        (MODEL + "        self.fc = nn.Linear(2, 3)\n\n    def forward(self, x):\n        return self.fc(x)\n",
         [MODEL + "\n    def forward(self, x):\n        return nn.Linear(2, 3)(x)\n"]),
        # register_buffer is an assignment too
        (MODEL + "        self.register_buffer('t', torch.ones(2))\n    def forward(self):\n"
         "        return self.t.tolist()\n",
         [MODEL + "    def forward(self):\n        return torch.ones(2).tolist()\n"]),
        # not moved: read twice (it would be built twice), a constant (the plain hoist does those)
        (MODEL + "        self.fc = nn.Linear(2, 3)\n    def forward(self, x):\n        return self.fc(self.fc(x))\n",
         []),
        (MODEL + "        self.p = 0.5\n    def forward(self):\n        return self.p\n", []),
        (MODEL + "        self.d = {}\n    def forward(self):\n        self.d['a'] = 1\n        return self.d\n", []),
    ],
)
def test_self_attr_builds(source: str, expected: list[str]) -> None:
    candidates = P.self_attr_build_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        (MODEL + "\n    def forward(self, x, y=1):\n        return x + y\n\n"
         "out = M()(1)\nc = torch.compile(M().eval(), fullgraph=True)\nm = M()\n",
         ["def M(x, y=1):\n    return x + y\n\nout = M(1)\nc = torch.compile(M, fullgraph=True)\nm = M\n"]),
        ("class Runner:\n    '''Doc.'''\n    def run(self, n) -> int:\n        return n\nprint(Runner(3).run(2))\n",
         ["def Runner(n) -> int:\n    return n\nprint(Runner(2))\n"]),
        # not a function: uses self, a non-trivial __init__, two methods, an instance in a container,
        # a method called through another name, a subclass
        (MODEL + "    def forward(self, x):\n        return self.w * x\nM()(1)\n", []),
        ("class M:\n    def __init__(self):\n        self.w = 1\n    def forward(self, x):\n        return x\nM()(1)\n",
         []),
        ("class M:\n    def a(self):\n        pass\n    def b(self):\n        pass\nM().a()\n", []),
        (MODEL + "    def forward(self, x):\n        return x\nnn.Sequential(M())\n", []),
        ("class R:\n    def run(self):\n        pass\nR().other()\n", []),
        ("class R:\n    def run(self):\n        pass\nclass S(R):\n    pass\n", []),
    ],
)
def test_class_to_function(source: str, expected: list[str]) -> None:
    candidates = P.class_function_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("def f(a, b=2, c=3):\n    return c\nf(1, c=5)\nf(1, 2)\n",
         ["def f(c=3):\n    return c\nf(c=5)\nf()\n",
          "def f(b=2, c=3):\n    return c\nf(c=5)\nf(2)\n",
          "def f(a, c=3):\n    return c\nf(1, c=5)\nf(1)\n"]),
        ("class C(nn.Module):\n    def __init__(self, dim, p=0.1):\n        super().__init__()\n"
         "        self.p = p\nC(4, p=0.2)\n",
         ["class C(nn.Module):\n    def __init__(self, p=0.1):\n        super().__init__()\n"
          "        self.p = p\nC(p=0.2)\n"]),
        # a compiled function's arguments are at the call of the compiled one
        ("def f(x, y):\n    return x.tolist()\ntorch.compile(f, fullgraph=True)(a, b)\n",
         ["def f(x):\n    return x.tolist()\ntorch.compile(f, fullgraph=True)(a)\n"]),
        # a function a thread or process is started to run: its arguments are in the args display
        ("def stage(lines, out):\n    out.put(1)\nThread(target=stage, args=(data, q)).start()\nstage(a, b)\n",
         ["def stage(out):\n    out.put(1)\nThread(target=stage, args=(q,)).start()\nstage(b)\n"]),
        ("def stage(lines):\n    pass\nmp.Process(target=stage, args=[data], daemon=True).start()\n",
         ["def stage():\n    pass\nmp.Process(target=stage, args=[], daemon=True).start()\n"]),
        # ... not where they cannot all be seen: kwargs=, an args value, another callee's target=
        ("def stage(lines):\n    pass\nThread(target=stage, args=(d,), kwargs={}).start()\n", []),
        ("def stage(lines):\n    pass\nThread(target=stage, args=xs).start()\n", []),
        ("def stage(lines):\n    pass\nrun(target=stage, args=(d,))\n", []),
        # *args / **kwargs nothing reads and no call fills
        ("def log(step, *args, **values):\n    flush()\nlog(0)\n", ["def log(step):\n    flush()\nlog(0)\n"]),
        ("def log(**values):\n    print(values)\nlog(a=1)\n", []),
        ("def log(**values):\n    flush()\nlog(a=1)\n", []),
        ("def log(*args):\n    flush()\nlog(1)\n", []),
        # not dropped: passed as a value (unused_defaults_of_values's), *args at a call, a read in a nested function
        ("def f(x):\n    pass\ng(f)\n", []),
        ("def f(x):\n    pass\nf(*xs)\n", []),
        ("def f(x):\n    def g():\n        return x\n    return g\nf(1)\n", []),
        # what pytest calls itself: a test's fixtures, a fixture's, nothing reads (not a parametrize name)
        ("@pytest.mark.parametrize('size', [65])\ndef test_c(size, half):\n    f(size)\n",
         ["@pytest.mark.parametrize('size', [65])\ndef test_c(size):\n    f(size)\n"]),
        ("@pytest.mark.parametrize(['a', 'b'], [(1, 2)])\ndef test_c(a, b, tmp_path):\n    pass\n",
         ["@pytest.mark.parametrize(['a', 'b'], [(1, 2)])\ndef test_c(a, b):\n    pass\n"]),
        ("@pytest.fixture\ndef half(seeded):\n    return 2\n", ["@pytest.fixture\ndef half():\n    return 2\n"]),
        ("@pytest.mark.parametrize(NAMES, [1])\ndef test_c(a):\n    pass\n", []),  # names it cannot read
        ("@pytest.mark.slow\ndef test_c(x=1):\n    pass\n", []),  # a default: the test is called with it
        # undecorated: a module-level function without calls (one candidate each, not two)
        ("def test_c(half):\n    pass\ndef f(a):\n    pass\nf(1)\n",
         ["def test_c():\n    pass\ndef f():\n    pass\nf()\n", "def test_c():\n    pass\ndef f(a):\n    pass\nf(1)\n",
          "def test_c(half):\n    pass\ndef f():\n    pass\nf()\n"]),
        ("@pytest.fixture\ndef half(request):\n    return 2\n", []),  # request: pytest's own
        # a class named by its own two-argument super() is not used otherwise (held-out r14-23 kept ``p``)
        ("class M(nn.Module):\n    def __init__(self, p):\n        super(M, self).__init__()\nM(1)\n",
         ["class M(nn.Module):\n    def __init__(self):\n        super(M, self).__init__()\nM()\n"]),
        # ... but a subclass names it among its bases (its __init__ may call M's with the argument)
        ("class M(nn.Module):\n    def __init__(self, p):\n        super(M, self).__init__()\n"
         "class N(M):\n    def __init__(self):\n        super(N, self).__init__(1)\nM(1)\nN()\n", []),
    ],
)
def test_unused_parameters(source: str, expected: list[str]) -> None:
    candidates = P.unused_parameter_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize("source, expected", [
    # passed as a value (jacrev(f), a callback): who calls it is not in the source, so the parameters with a
    # default only, all at once (held-out r08-08 kept ``_input: torch.Tensor = None`` of a function given to jacrev)
    ("def f(x, scale=2):\n    return x\ng(f)\n", "def f(x):\n    return x\ng(f)\n"),
    ("def f(x, y: T = None, z=1):\n    return x\njacrev(f)(a)\n", "def f(x):\n    return x\njacrev(f)(a)\n"),
    ("def f(x, y=None, z=1):\n    return z\nmap(f, xs)\n", "def f(x, z=1):\n    return z\nmap(f, xs)\n"),
    ("def f(x):\n    pass\ng(f)\n", None),  # no default: a caller passes it
    ("def f(x, y=1):\n    pass\nf(2)\n", None),  # called where the source shows it: unused_parameter_candidates's
    ("def f(x, y=1, *rest):\n    pass\ng(f)\n", None),
    ("@cache\ndef f(x, y=1):\n    pass\ng(f)\n", None),
])
def test_unused_defaults_of_a_function_passed_as_a_value(source: str, expected: str | None) -> None:
    assert P.unused_defaults_of_values(source) == expected
    assert P.UNUSED_DEFAULTS in P.FINAL_RIDERS  # cosmetic: it rides with the final passes' one test


EXPORTED = "class M(nn.Module):\n    def forward(self, x, mask):\n        return x.sum()\n"


@pytest.mark.parametrize(
    "source, expected",
    [
        # an exported module's unread forward parameter goes with its argument and its dynamic_shapes entry
        (EXPORTED + 'export(M(), (a, b), dynamic_shapes={"x": {0: batch}, "mask": {0: batch}})\n',
         ["class M(nn.Module):\n    def forward(self, x):\n        return x.sum()\n"
          'export(M(), (a,), dynamic_shapes={"x": {0: batch}})\n']),
        (EXPORTED + "m = M()\ntorch.export.export(m, args=(a, b), dynamic_shapes=({0: d}, None))\nm(a, b)\n",
         ["class M(nn.Module):\n    def forward(self, x):\n        return x.sum()\n"
          "m = M()\ntorch.export.export(m, args=(a,), dynamic_shapes=({0: d},))\nm(a)\n"]),
        (EXPORTED + "export(M(), (a, b))\n",
         ["class M(nn.Module):\n    def forward(self, x):\n        return x.sum()\nexport(M(), (a,))\n"]),
        # not where export's view of the arguments is not in sight: kwargs=, an args name, dynamic_shapes a name,
        # another library's export (its own argument conventions)
        (EXPORTED + "export(M(), (a,), kwargs={'mask': b})\n", []),
        (EXPORTED + "export(M(), inputs)\n", []),
        (EXPORTED + "export(M(), (a, b), dynamic_shapes=shapes)\n", []),
        (EXPORTED + "torch.onnx.export(M(), (a, b), 'm.onnx')\n", []),
    ],
)
def test_unused_forward_parameters_of_an_exported_module(source: str, expected: list[str]) -> None:
    candidates = P.unused_parameter_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)



_NET = "class Net(nn.Module):\n    def forward(self, x, mask):\n        return x.sum()\n"


@pytest.mark.parametrize(
    "source, expected",
    [
        # a torch module's forward, called through its objects: every call loses the argument
        (_NET + "model = Net()\nmodel(a, b)\nmodel.forward(c, d)\n",
         [_NET.replace("x, mask", "x") + "model = Net()\nmodel(a)\nmodel.forward(c)\n"]),
        (_NET + "Net().to(dev).eval()(a, b)\n", [_NET.replace("x, mask", "x") + "Net().to(dev).eval()(a)\n"]),
        (_NET + "model = torch.compile(Net(), fullgraph=True)\nmodel(a, b)\n",
         [_NET.replace("x, mask", "x") + "model = torch.compile(Net(), fullgraph=True)\nmodel(a)\n"]),
        (_NET + "class Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.net = Net()\n    def forward(self, x):\n        return self.net(x, x > 0)\n",
         [_NET.replace("x, mask", "x") + "class Outer(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
          "        self.net = Net()\n    def forward(self, x):\n        return self.net(x)\n"]),
        # an object seen only where it is built: its attributes read, nothing else
        (_NET + "model = Net()\nprint(model.training)\nmodel(a, b)\n",
         [_NET.replace("x, mask", "x") + "model = Net()\nprint(model.training)\nmodel(a)\n"]),
        # not dropped: an object that may be called where the pass cannot see it
        (_NET + "model = Net()\nrun(model, a, b)\n", []),  # passed on
        (_NET + "layers = nn.Sequential(Net())\nlayers(a, b)\n", []),  # kept in a container
        (_NET + "model = Net()\nmodel = Net()\nmodel(a, b)\n", []),  # bound twice
        # ... but bound again to itself compiled or moved, it is the same object
        (_NET + "model = Net()\nmodel = torch.compile(model, fullgraph=True)\nmodel = model.to(d)\nmodel(a, b)\n",
         [_NET.replace("x, mask", "x") + "model = Net()\nmodel = torch.compile(model, fullgraph=True)\n"
          "model = model.to(d)\nmodel(a)\n"]),
        (_NET + "model = Net()\nmodel = wrap(model)\nmodel(a, b)\n", []),  # wrapped: not known to call forward alike
        (_NET + "model = Net()\nmodel.eval()\nmodel(a, b)\n",  # a method called for its effect
         [_NET.replace("x, mask", "x") + "model = Net()\nmodel.eval()\nmodel(a)\n"]),
        ("class Base(nn.Module):\n    def __call__(self, x):\n        return self.forward(x, x)\n"
         "class Net(Base):\n    def forward(self, x, mask):\n        return x\nNet()(a)\n", []),  # a base's own call
        (_NET + "model = Net()\nmodel.register_forward_hook(h)\nmodel(a, b)\n", []),  # a hook gets the inputs
        (_NET + "def make():\n    return Net()\nmake()(a, b)\n", []),  # returned
        (_NET + "class Deep(Net):\n    pass\nDeep()(a, b)\n", []),  # a subclass inherits forward
        (_NET + "isinstance(m, Net)\nNet()(a, b)\n", []),  # the class used otherwise
        # its own two-argument super() is no use of the class
        (_NET + "    def __init__(self):\n        super(Net, self).__init__()\nNet()(a, b)\n",
         [_NET.replace("x, mask", "x") + "    def __init__(self):\n        super(Net, self).__init__()\nNet()(a)\n"]),
    ],
)
def test_unused_forward_parameters(source: str, expected: list[str]) -> None:
    candidates = P.unused_parameter_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("blk = next(iter([Block(0)]))\n", ["blk = Block(0)\n"]),
        ("m = next(Block(0) for _ in range(1))\n", ["m = Block(0)\n", "m = next([Block(0)])\n"]),
        ("y = nn.Sequential(*[Block(1)])(x)\n", ["y = Block(1)(x)\n"]),
        ("blocks = nn.ModuleList(Block(d) for _ in range(1))\n", ["blocks = nn.ModuleList([Block(d)])\n"]),
        ("y = [a + b][0]\n", ["y = (a + b)\n"]),
        ("for b in nn.ModuleList([m]):\n    x = b(x)\n", ["b = m\nx = b(x)\n"]),
        ("for _ in [step()]:\n    go()\n", ["step()\ngo()\n"]),
        # a comprehension that reads its target: the element substituted (a call read once only)
        ("x = [f(i) for i in range(1)]\n", ["x = [f(0)]\n"]),
        ("y = nn.Sequential(*[Block(s) for s in (2,)])\n", ["y = nn.Sequential(*[Block(2)])\n"]),
        ("y = [f(t, t) for t in [g()]]\n", []),
        # the one item of a one-entry dict's view
        ('k, v = next(iter({"a": (1, 2)}.items()))\n', ['k, v = ("a", (1, 2))\n']),
        ('v = next(iter({"a": b + 1}.values()))\n', ['v = (b + 1)\n']),
        ('v = next(iter({"a": 1, "b": 2}.items()))\n', []),
        # not one element: two, a starred one, or with a filter
        ("x = next(iter([a, b]))\n", []),
        ("x = next(iter([*a]))\n", []),
        ("x = [f() for _ in range(1) if c]\n", []),
    ],
)
def test_one_element(source: str, expected: list[str]) -> None:
    candidates = P.one_element_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("for row, limit in t.tolist():\n    pass\n", ["for _ in t.tolist():\n    pass\n"]),
        ("assert 0 == 0\nx = 1\n", ["x = 1\n"]),
        ("def f():\n    assert (1, 2) != ()\n", ["def f():\n    pass\n"]),
        ("blk = next(iter(self.blocks))\n", ["blk = self.blocks[0]\n"]),
        ("identity = x if None is None else f(x)\n", ["identity = x\n"]),
        ("y = a if 0 > 1 else b + c\n", ["y = (b + c)\n"]),
        ("y = a if 1 / 0 else b\n", []),  # arithmetic is not evaluated
        ("y = a if 'a' < 1 else b\n", []),  # a test that raises is left alone
        # kept: a target that is read, an assert of a computed value, next(iter()) of an iterator
        ("for a, b in xs:\n    print(b)\n", []),
        ("assert x == 0\n", []),
        ("i = next(iter(range(n)))\nk = next(iter({1, 2}))\nv = next(iter(d.items()))\n", []),
        # next(iter(range(...))) of literal bounds is its first value; an empty range raises: kept
        ("i = next(iter(range(3)))\nj = next(iter(range(0)))\n", ["i = 0\nj = next(iter(range(0)))\n"]),
        ("i = next(iter(range(2, 9, 3)))\n", ["i = 2\n"]),
        # an empty if-branch: the negated test; a last elif of a true literal test: else
        ("if a == b:\n    pass\nelse:\n    g()\n", ["if not a == b:\n    g()\n"]),
        ("if a or b:\n    pass\nelse:\n    g()\n", ["if not (a or b):\n    g()\n"]),
        ("if a:\n    f()\nelif None is None:\n    g()\n", ["if a:\n    f()\nelse:\n    g()\n"]),
        ("if a:\n    f()\nelif 0:\n    g()\n", []),
        ("if a:\n    pass\nelif b:\n    g()\n", []),
        # an if that does nothing but evaluate its test: the test alone (not in an elif chain)
        ("if check(a, 14):\n    pass\nx = 1\n", ["check(a, 14)\nx = 1\n"]),
        ("def f():\n    if (n := g()):\n        pass\n", ["def f():\n    (n := g())\n"]),
        ("if (a or\n        b):\n    pass\n", ["(a or\n        b)\n"]),
        ("if a:\n    f()\nelif b:\n    pass\n", []),
        # an unused enumerate counter (a loop whose counter is read nowhere, a comprehension's)
        ("for i, row in enumerate(rows):\n    f(row)\n", ["for row in rows:\n    f(row)\n"]),
        ("ys = [r for n, r in enumerate(csv.reader(t), 1)]\n", ["ys = [r for r in csv.reader(t)]\n"]),
        ("for i, (a, b) in enumerate(p):\n    f(a)\n", ["for (a, b) in enumerate(p):\n    f(a)\n"
                                                         .replace("enumerate(p)", "p")]),
        ("for i, row in enumerate(rows):\n    f(row)\nprint(i)\n", []),  # the counter outlives the loop
        ("ys = [(n, r) for n, r in enumerate(rows)]\n", []),
        ("ys = [r for n, r in enumerate(rows, k)]\n", []),  # start is not a literal
        ("enumerate = zip\nys = [r for n, r in enumerate(a, b)]\n", []),  # not the builtin
        # a literal that cannot change a test's truth
        ("if missing and True:\n    f()\n", ["if missing:\n    f()\n"]),
        ("while a or False or b:\n    f()\n", ["while a or b:\n    f()\n"]),
        ("x = not ((a or b) and True)\n", ["x = not (a or b)\n"]),
        ("x = a and True\ny = [v for v in xs if v or 1]\n", []),  # a value, not a test; 1 is truthy
        ("ys = (r for r in t if True)\n", ["ys = (r for r in t)\n"]),
        ("cfg.update({'dim': 48} or 0)\nx = None and f()\n",
         ["cfg.update({'dim': 48} or 0)\nx = None\n", "cfg.update({'dim': 48})\nx = None and f()\n"]),
        ("x = {**a} or b\ny = [*a] or b\nw = a or {'k': 1}\n", []),
        # a first literal that passes on: the rest is the value
        ("t = Tower(None or ShapeTrace())\n", ["t = Tower(ShapeTrace())\n"]),
        ("x = True and (a or b)\ny = 0 or a or b\n", ["x = (a or b)\ny = 0 or a or b\n",
                                                       "x = True and (a or b)\ny = a or b\n"]),
        ("z = [] or b\n", ["z = b\n"]),
        # ``not`` of a literal: the literal it is
        ("bidirectional = not False\nx = not 0\n", ["bidirectional = True\nx = not 0\n", "bidirectional = not False\nx = True\n"]),
        ("y = not flag\n", []),
        ("ys = [r for r in t if True if r]\n", ["ys = [r for r in t if r]\n"]),
        # a statement's whole value in parentheses
        ("def f():\n    return (derive())\n", ["def f():\n    return derive()\n"]),
        ("x = (a +\n     b)\ny = (a, b)\n", []),
        ("for i in range((len(r) // k)):\n    f(i)\n", ["for i in range(len(r) // k):\n    f(i)\n"]),
        ("f(x)\ng((a, b), key=(c))\n", ["f(x)\ng((a, b), key=c)\n"]),  # a call's own parentheses, a tuple stay
        # a one-element display as a statement: its element
        ("[f(x)]\n(g(),)\n", ["f(x)\n(g(),)\n", "[f(x)]\ng()\n"]),
        ("[*xs]\n[a, b]\n", []),
        # a comprehension's target that unpacks nothing read
        ("m = L(G() for a, b in zip(xs, ys))\n", ["m = L(G() for _ in zip(xs, ys))\n"]),
        ("m = [a for a, b in xs]\nd = {k: 1 for k, v in xs}\n", []),
        # an argument tuple / keyword dict spelled out where it is unpacked
        ("y = f(*(a, g(b)), c)\n", ["y = f(a, g(b), c)\n"]),
        ("y = f(x, **{'k': 1, 'm': z})\n", ["y = f(x, k=1, m=z)\n"]),
        ("y = f(*(), **{'class': 1, **d})\n", []),  # nothing to spell out; not a keyword name
        # an item of a comprehension whose element reads no loop name: the element
        ("t = [Thread(target=w) for i in range(3)][0]\nt.start()\n", ["t = Thread(target=w)\nt.start()\n"]),
        ("y = [f(a) for _ in xs][-1]\n", ["y = f(a)\n"]),
        ("y = [f(i) for i in xs][0]\nz = [f() for i in xs if i][0]\nw = [f() for i in xs][k]\n", []),
        ("y = [f() for i in xs for j in ys][0]\n", []),
        # a loop that only drains its iterable
        ("for _ in DataLoader(ds, batch_size=2):\n    pass\n", ["list(DataLoader(ds, batch_size=2))\n"]),
        ("for x in 1, 2:\n    pass\n", ["list((1, 2))\n"]),
        ("for x in xs:\n    pass\nprint(x)\n", []),  # the target is read
        ("for x in xs:\n    pass\nelse:\n    f()\n", []),
        ("list = tuple\nfor x in xs:\n    pass\n", []),
    ],
)
def test_readability(source: str, expected: list[str]) -> None:
    candidates = P.readability_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        ('cfg = json.loads("""\n{"a": {"b": 1.5, "c": [true, null]}}\n""")\n',
         ['cfg = {"a": {"b": 1.5, "c": [True, None]}}\n']),  # its strings in JSON's double quotes
        ("""x = json.loads('["it\\'s", "a\\\\"b", "tab\\\\t"]')\n""", ["""x = ["it's", 'a"b', 'tab\\t']\n"""]),
        ("m = json.loads(json.dumps(cfg))\nn = copy.deepcopy(a + b)\n",
         ["m = cfg\nn = copy.deepcopy(a + b)\n", "m = json.loads(json.dumps(cfg))\nn = (a + b)\n"]),
        # not JSON, NaN (no literal), a non-constant argument
        ("x = json.loads('{oops')\n", []),
        ("x = json.loads('NaN')\n", []),
        ("x = json.loads(text)\n", []),
    ],
)
def test_data_literals(source: str, expected: list[str]) -> None:
    candidates = P.data_literal_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize("names", ["present", "absent"])
def test_stdlib_modules_are_told_from_installed_packages(monkeypatch, names) -> None:
    from reportkit.reduce.passes import expressions as E

    if names == "absent":  # Python 3.9 has no sys.stdlib_module_names: found in the stdlib directory
        monkeypatch.delattr("sys.stdlib_module_names", raising=False)
    E._stdlib.cache_clear()
    try:
        assert E._stdlib("time") and E._stdlib("json") and E._stdlib("collections")
        assert not E._stdlib("torch") and not E._stdlib("pytest") and not E._stdlib("no_such_module_here")
    finally:
        E._stdlib.cache_clear()


# ----------------------------------------------------------------------------- statement complexity
@pytest.mark.parametrize(
    "source, nodes",
    [
        ("x = 1\n", 2),  # Assign, Constant: a name bound is no node (``x = EXPR`` is ``return EXPR`` inlined)
        ("def f():\n    return 1\n", 2),
        ("x = y + f(z)\n", 6),  # operators and contexts are no nodes of their own
        # a literal of constants is one node: data, read at a glance
        ('CONFIG = {"lr": 0.1, "betas": (0.9, 0.99), "name": "adam", "off": -1}\n', 2),
        ('CONFIG = {"lr": rate}\n', 4),
        # so is an imported module's constructor of constants (a tensor, a module of literal shape) ...
        ("import torch\nx = torch.tensor([1.0, 2.0], dtype=torch.float64)\n", 2),
        ("import torch\ny = f(torch.randn(2, 3), nn.Linear(4, 2))\n", 9),
        ("import torch\nfrom torch import nn\ny = f(torch.randn(2, 3), nn.Linear(4, 2))\n", 5),
        # ... but not a method of a value, a call with a computed argument, or a bare function's call
        ("import torch\nx = merged.items()\n", 4),
        ("import torch\nx = torch.randn(n)\n", 5),
        ("import torch\nx = randn(2)\n", 4),
        # a compound statement counts its header, not its body
        ("if a and b and c and d and e:\n    y = 1\n", 7),
        ("if a and b:\n    x = [1, 2, 3]\n    y = f(g(h(1)))\n", 8),
        # a parallel assignment (an inlined function's parameters) counts as its most complex single one
        ("rows, when, n = load(path), now(), 3\n", 4),
        ("a, b = c\n", 3),
        ("", 0),
    ],
)
def test_max_statement_nodes(source: str, nodes: int) -> None:
    from reportkit.reduce.passes.complexity import max_statement_nodes

    assert max_statement_nodes(source, lenient=True) == nodes
    assert max_statement_nodes(source) >= nodes  # the cap's count: every node
    if "torch.tensor([1.0, 2.0]" in source:
        assert max_statement_nodes(source) == 8
