"""The wrapper passes (reportkit/reduce/passes/wrappers.py): source in, candidate sources out."""

from __future__ import annotations

import ast

import pytest

from reportkit.reduce import passes as P

MODULE = "class {name}(nn.Module):\n    def __init__(self{params}):\n        super().__init__()\n"


def _check(fn, source: str, expected: list[str]) -> None:
    candidates = fn(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


@pytest.mark.parametrize(
    "source, expected",
    [
        # consecutive appends, statements between that do not mention the list
        ("xs = []\nn = 2\nxs.append(Block(n))\nxs.append(Block(3))\nrun(xs)\n",
         ["n = 2\nxs = [Block(n), Block(3)]\nrun(xs)\n"]),
        ("def f():\n    layers = list()\n    layers.append(a)\n    return layers\n",
         ["def f():\n    layers = [a]\n    return layers\n"]),
        # a parallel assignment is split
        ("stages, cin = [], 16\n", ["stages = []\ncin = 16\n"]),
        # a loop that only appends: a comprehension (a filter too)
        ("rows = []\nfor _ in range(n):\n    rows.append(())\nuse(rows)\n",
         ["rows = [() for _ in range(n)]\nuse(rows)\n"]),
        ("def f(xs):\n    out = []\n    for a, b in xs:\n        if a:\n            out.append(b)\n    return out\n",
         ["def f(xs):\n    out = [b for a, b in xs if a]\n    return out\n"]),
        # nested alike
        ('a, (b, c) = "n", ("s", "k")\n', ['a = "n"\nb = "s"\nc = "k"\n']),
        ("a, (b, c) = x, y\n", []),
        # not: a swap, an append inside an if, a read between, an append reading the list; a loop whose
        # target is read after it, that does more than append, or in a class body
        ("a, b = b, a\n", []),
        ("xs = []\nif c:\n    xs.append(1)\n", []),
        ("xs = []\nfor i in r:\n    xs.append(i)\nprint(i)\n", []),
        ("xs = []\nfor i in r:\n    xs.append(i)\n    log(i)\n", []),
        ("if c:\n    xs = []\n    for i in r:\n        xs.append(i)\nprint(i)\n", []),
        ("class C:\n    xs = []\n    for i in r:\n        xs.append(i)\n", []),
        ("xs = []\nprint(len(xs))\nxs.append(1)\n", []),
        ("xs = []\nxs.append(len(xs))\n", []),
        # a dict filled item by item with literal keys right after it is made
        ('out = dict()\nout["norm"] = D["e"]\nout[2] = f()\ncfg = out\n', ['out = {"norm": D["e"], 2: f()}\ncfg = out\n']),
        ("def g():\n    d = {}\n    d['a'] = 1\n    return d\n", ["def g():\n    d = {'a': 1}\n    return d\n"]),
        # not: a key that is not a literal, a value reading the dict, an item after a read of it
        ("d = {}\nd[k] = f()\n", []),  # a computed key: data flowing in (a merge) stays
        ("d = {}\nd[k.x] = 1\nd[d] = 2\n", []),
        ("d = {}\nd['a'] = d\n", []),
        ("d = {}\nprint(d)\nd['a'] = 1\n", []),
        ("d = {}\nk = 's'\nd['k'] = k\nuse(d)\n", ["k = 's'\nd = {'k': k}\nuse(d)\n"]),
    ],
)
def test_list_builds(source: str, expected: list[str]) -> None:
    _check(P.list_build_candidates, source, expected)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("y = nn.Sequential(conv, nn.ReLU())(x)\n", ["y = nn.ReLU()(conv(x))\n"]),
        ("y = nn.Sequential(*[a, b, c])(x)\n", ["y = c(b(a(x)))\n"]),
        # not: a keyword / two arguments to the chain, a starred name, one module (one-element pass),
        # two modules built there (the rebuilding variant)
        ("y = nn.Sequential(a, b)(x, mask=m)\n", []),
        ("y = nn.Sequential(*layers)(x)\n", []),
        ("y = nn.Sequential(a)(x)\n", []),
        ("y = nn.Sequential(nn.Linear(2, 2), nn.ReLU())(x)\n", []),
    ],
)
def test_sequential_calls(source: str, expected: list[str]) -> None:
    _check(P.sequential_call_candidates, source, expected)


def test_sequential_call_builds_only_where_several_are_built() -> None:
    assert P.sequential_call_build_candidates("y = nn.Sequential(nn.Linear(2, 2), nn.ReLU())(x)\n") == [
        "y = nn.ReLU()(nn.Linear(2, 2)(x))\n"]
    assert P.sequential_call_build_candidates("y = nn.Sequential(a, nn.ReLU())(x)\n") == []


STAGE = (MODULE.format(name="Stage", params=", cin, cout, stride")
         + "        self.blocks = Block(cin, cout, stride)\n\n    def forward(self, x):\n        return self.blocks(x)\n\n")


@pytest.mark.parametrize(
    "source, expected",
    [
        # each construction becomes the submodule's construction, arguments substituted
        (STAGE + "m = Stage(16, c, stride=2)\nn = nn.Sequential(Stage(1, 2, 1))\n",
         ["\nm = Block(16, c, 2)\nn = nn.Sequential(Block(1, 2, 1))\n"]),
        # a forward that calls the submodule as a statement (a graph break one module down)
        (MODULE.format(name="Model", params="") + "        self.hour = HourEmbedding()\n\n    def forward(self):\n"
         "        self.hour()\n\nmodel = torch.compile(Model(), fullgraph=True)\nmodel()\n",
         ["\nmodel = torch.compile(HourEmbedding(), fullgraph=True)\nmodel()\n"]),
        (MODULE.format(name="Model", params="") + "        self.hour = HourEmbedding()\n\n    def forward(self, x):\n"
         "        print(x)\n\nModel()(1)\n", []),  # a statement that is no call of the submodule
        # its own two-argument super() is no use of the class: it goes with it
        (MODULE.format(name="Model", params="").replace("super()", "super(Model, self)")
         + "        self.hour = HourEmbedding()\n\n    def forward(self):\n"
         "        self.hour()\n\nmodel = torch.compile(Model(), fullgraph=True)\nmodel()\n",
         ["\nmodel = torch.compile(HourEmbedding(), fullgraph=True)\nmodel()\n"]),
        # not: an argument with effects used twice, the attribute read elsewhere, a subclass,
        # forward passes something else, a name captured at the construction site, self in the build
        (MODULE.format(name="W", params=", d") + "        self.m = Block(d, d)\n"
         "    def forward(self, x):\n        return self.m(x)\nW(f())\n", []),
        (STAGE + "s = Stage(1, 2, 1)\nprint(s.blocks)\n", []),
        (STAGE + "class Deep(Stage):\n    pass\n", []),
        (MODULE.format(name="W", params="") + "        self.m = Block()\n"
         "    def forward(self, x):\n        return self.m(x + 1)\nW()\n", []),
        (MODULE.format(name="W", params="") + "        self.m = Block()\n"
         "    def forward(self, x):\n        return self.m(x)\ndef g(Block):\n    return W()\n", []),
        (MODULE.format(name="W", params=", d") + "        self.m = Block(self.training)\n"
         "    def forward(self, x):\n        return self.m(x)\nW(1)\n", []),
    ],
)
def test_delegating_modules(source: str, expected: list[str]) -> None:
    _check(P.delegating_module_candidates, source, expected)


FIXED = (MODULE.format(name="Net", params="") + "        self.bn = nn.BatchNorm1d(2)\n\n    def forward(self):\n"
         "        return self.bn(torch.randn(1, 2))\n\n")


@pytest.mark.parametrize(
    "source, expected",
    [
        # a forward that makes its submodule's inputs: each call of the object gets them
        ("import torch\n" + FIXED + "net = Net()\nnet.eval()\nnet()\n",
         ["import torch\n\nnet = nn.BatchNorm1d(2)\nnet.eval()\nnet(torch.randn(1, 2))\n"]),
        ("import torch\n" + FIXED + "y = Net()()\n", ["import torch\n\ny = nn.BatchNorm1d(2)(torch.randn(1, 2))\n"]),
        # not: the object passed on (its calls are not seen), called with an argument, bound twice, never
        # called, an input that reads a local name, ``torch`` another name where the object is called
        ("import torch\n" + FIXED + "net = Net()\nrun(net)\n", []),
        ("import torch\n" + FIXED + "net = Net()\nnet(1)\n", []),
        ("import torch\n" + FIXED + "net = Net()\nnet = Net()\nnet()\n", []),
        ("import torch\n" + FIXED + "net = Net()\nnet.eval()\n", []),
        ("import torch\n" + FIXED.replace("torch.randn(1, 2)", "self.x") + "Net()()\n", []),
        ("import torch\n" + FIXED + "def f(torch):\n    return net()\nnet = Net()\nf(1)\n", []),
    ],
)
def test_delegating_modules_with_fixed_inputs(source: str, expected: list[str]) -> None:
    _check(P.delegating_module_candidates, source, expected)


CONV = "def conv3x3(cin, cout, stride=1):\n    return nn.Conv2d(cin, cout, 3, stride=stride, padding=1)\n"


@pytest.mark.parametrize(
    "source, expected",
    [
        # every call at once; a default (a constant) where the argument is left out
        (CONV + "a = conv3x3(3, 16)\nb = conv3x3(c, c, s)\n",
         ["a = nn.Conv2d(3, 16, 3, stride=1, padding=1)\nb = nn.Conv2d(c, c, 3, stride=s, padding=1)\n"]),
        # an argument with effects used once: substituted once, parenthesized where needed
        ("def twice(x):\n    return x * 2\nprint(twice(a + 1), twice(g()))\n",
         ["print((a + 1) * 2, g() * 2)\n"]),
        # not: an argument with effects used twice, or not at all; a default that is not a constant;
        # a name captured where it is called; a local of the function; called once (the one-use
        # inliner does that); used as a value; arguments with effects reordered
        ("def sq(x):\n    return x * x\nsq(f())\nsq(2)\n", []),
        ("def k(x):\n    return 1\nk(f())\nk(2)\n", []),
        ("def h(x=[]):\n    return x\nh()\nh()\n", []),
        (CONV + "def build(nn):\n    return conv3x3(1, 2)\nconv3x3(2, 3)\n", []),
        ("def f(a):\n    return a + b\ndef g(b):\n    return f(b)\nf(1)\n", []),
        (CONV + "conv3x3(1, 2)\n", []),
        (CONV + "conv3x3(1, 2)\nconv3x3(3, 4)\nlayers = map(conv3x3, xs)\n", []),
        ("def sub(a, b):\n    return b - a\nsub(f(), g())\nsub(1, 2)\n", []),
        ("def later(a):\n    return log() + a\nlater(f())\nlater(2)\n", []),
    ],
)
def test_helper_inline(source: str, expected: list[str]) -> None:
    _check(P.helper_inline_candidates, source, expected)


@pytest.mark.parametrize(
    "source, expected",
    [
        # a wrapper passed as a value and called: the function it forwards to, everywhere
        ("import torch.nn.functional as F\ndef fn(a, b):\n    return F.mse_loss(a, b)\n"
         "c = torch.compile(fn, fullgraph=True)\nc(x, y)\nfn(x, y)\n",
         ["import torch.nn.functional as F\nc = torch.compile(F.mse_loss, fullgraph=True)\nc(x, y)\n"
          "F.mse_loss(x, y)\n"]),
        ("import torch\ndef init(t):\n    \"\"\"Docs.\"\"\"\n    return torch.nn.init.trunc_normal_(t)\nrun(init)\n",
         ["import torch\nrun(torch.nn.init.trunc_normal_)\n"]),
        # not: arguments reordered, a keyword, a default, a value computed, a parameter's method, the callee
        # shadowed where it is read, the wrapper called with a keyword (its own name for it)
        ("def f(a, b):\n    return g(b, a)\nf(1, 2)\n", []),
        ("def f(a):\n    return g(a, dim=1)\nf(1)\n", []),
        ("def f(a, b=2):\n    return g(a, b)\nf(1)\n", []),
        ("def f(a):\n    return g(a + 1)\nf(1)\n", []),
        ("def f(a):\n    return a.g(a)\nf(1)\n", []),
        ("def f(a):\n    return g(a)\ndef h(g):\n    return f(g)\n", []),
        ("def f(a):\n    return g(a)\nf(a=1)\n", []),
        # a lambda that only forwards its arguments: the function it calls, where the lambda stands
        ("import torch\nf = lambda t: torch.nn.functional.normalize(t)\nvmap(f)(x)\n",
         ["import torch\nf = torch.nn.functional.normalize\nvmap(f)(x)\n"]),
        ("run(key=lambda a, b: cmp(a, b))\n", ["run(key=cmp)\n"]),
        # not: reordered, a keyword, a computed argument, the callee a parameter or a local where the lambda is,
        # a default, in an f-string
        ("run(lambda a, b: cmp(b, a))\n", []),
        ("run(lambda a: cmp(a, k=1))\n", []),
        ("run(lambda a: cmp(a + 1))\n", []),
        ("run(lambda a: a.cmp(a))\n", []),
        ("def h(cmp):\n    return run(lambda a: cmp(a))\n", []),
        ("run(lambda a, b=1: cmp(a, b))\n", []),
        ('print(f"{(lambda a: cmp(a))}")\n', []),
    ],
)
def test_forwarding_functions(source: str, expected: list[str]) -> None:
    _check(P.forwarding_function_candidates, source, expected)


@pytest.mark.parametrize(
    "source, expected",
    [
        # a function passed once as a value: a lambda where it is passed (annotations and docstring gone)
        ("import torch\n@torch.jit.script\ndef inner(x):\n    return x\n\ndef Foo(x):\n    return inner(x)\n\n"
         "torch.fx.symbolic_trace(Foo)\n",
         ["import torch\n@torch.jit.script\ndef inner(x):\n    return x\n\n\ntorch.fx.symbolic_trace(lambda x: inner(x))\n"]),
        ("def f(x: int, y=2, *a, k=(1, 2), **kw) -> int:\n    \"\"\"Docs.\"\"\"\n    return x + y\ncheck(f, (1,))\n",
         ["check(lambda x, y=2, *a, k=(1, 2), **kw: x + y, (1,))\n"]),
        ("def f():\n    return 1\nrun(callback=f)\n", ["run(callback=lambda: 1)\n"]),
        ("def f(x):\n    return (x +\n            1)\nrun(f)\n", ["run(lambda x: (x +\n            1))\n"]),

        # not: called (inline-expr's), read twice, not an argument, recursive, a default computed, a decorator,
        # more than a return, a yield, a name the body reads bound otherwise where f is passed, f shadowed there,
        # in an f-string
        ("def f(x):\n    return x\nf(1)\n", []),
        ("def f(x):\n    return x\nrun(f)\nrun(f)\n", []),
        ("def f(x):\n    return x\ng = f\n", []),
        ("def f(x):\n    return x\nf.__name__\n", []),
        ("def f(x):\n    return f(x)\nrun(f)\n", []),
        ("def f(x, y=z()):\n    return x\nrun(f)\n", []),
        ("@cache\ndef f(x):\n    return x\nrun(f)\n", []),
        ("def f(x):\n    y = x\n    return y\nrun(f)\n", []),
        ("def f(x):\n    pass\nrun(f)\n", []),  # (a test of its own for two lines: not tried)
        ("def f(x):\n    return (yield x)\nrun(f)\n", []),
        ("def f(x):\n    return g(x)\ndef h(g):\n    return run(f)\n", []),
        ("def f(x):\n    return x\ndef h(f):\n    return run(f)\n", []),
        ('def f(x):\n    return x\nprint(f"{run(f)}")\n', []),
    ],
)
def test_lambdas(source: str, expected: list[str]) -> None:
    _check(P.lambda_candidates, source, expected)


VOCAB = ("class Vocab:\n    def __init__(self, symbols):\n        self.s = symbols\n\n"
         "    @classmethod\n    def build(cls, texts):\n        return cls(sorted(texts))\n\n"
         "    def encode(self, t):\n        return t\n")


@pytest.mark.parametrize(
    "source, expected",
    [
        (VOCAB + "v = Vocab.build(CORPUS)\n",
         ["class Vocab:\n    def __init__(self, symbols):\n        self.s = symbols\n\n\n"
          "    def encode(self, t):\n        return t\nv = Vocab(sorted(CORPUS))\n"]),
        ("class C:\n    @staticmethod\n    def make(n):\n        return C(n, 2)\nc = C.make(4)\n",
         ["class C:\n    pass\nc = C(4, 2)\n"]),
        # not: the factory passes cls on, does more than construct, or is called through an instance
        ("class C:\n    @classmethod\n    def make(cls):\n        return cls(cls.N)\nC.make()\n", []),
        ("class C:\n    @classmethod\n    def make(cls):\n        x = 1\n        return cls(x)\nC.make()\n", []),
        ("class C:\n    @classmethod\n    def make(cls):\n        return cls()\nc.make()\n", []),
    ],
)
def test_factories(source: str, expected: list[str]) -> None:
    _check(P.factory_candidates, source, expected)


DATASET = ("class Pairs(Dataset):\n    def __len__(self):\n        return 2\n\n"
           "    def __getitem__(self, i):\n{body}\nloader = DataLoader(Pairs(), batch_size=2)\n")


@pytest.mark.parametrize(
    "source, expected",
    [
        # a single return: the items as a comprehension over the indices
        (DATASET.format(body="        return torch.zeros(i + 3)\n"),
         ["\nloader = DataLoader([torch.zeros(i + 3) for i in range(2)], batch_size=2)\n"]),
        # a longer __getitem__: a function, called for each index
        (DATASET.format(body="        n = i + 3\n        return torch.zeros(n)\n"),
         ["def Pairs(i):\n    n = i + 3\n    return torch.zeros(n)\n\n"
          "loader = DataLoader([Pairs(0), Pairs(1)], batch_size=2)\n"]),
        # not: __getitem__ reads self, __len__ is not a constant, an __init__ that stores something,
        # a construction argument with effects, an index name shadowing a name the item reads
        (DATASET.format(body="        return self.x[i]\n"), []),
        (DATASET.format(body="        return i\n").replace("return 2", "return len(DATA)"), []),
        (DATASET.format(body="        return i\n").replace(
            "class Pairs(Dataset):\n", "class Pairs(Dataset):\n    def __init__(self):\n        self.n = 1\n\n"),
         []),
        (DATASET.format(body="        return i\n").replace("Pairs()", "Pairs(load())"), []),
    ],
)
def test_dataset_lists(source: str, expected: list[str]) -> None:
    _check(P.dataset_list_candidates, source, expected)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import torch.nn.functional as F\nF.cross_entropy(model(x), y)\n",
         ["import torch.nn.functional as F\nmodel(x)\n"]),
        ("print(f(x) + 1)\n", ["f(x) + 1\n"]),
        # a call an f-string argument formats
        ('print(f"{now:5.1f} pruned, {prune(now)} left")\n', ["prune(now)\n"]),
        ('print(f"{n} rows")\n', []),
        # an f-string, an arithmetic chain, a display left as a statement (an inlined function's return value)
        ('(f"<nav>{render(menu)}</nav>"\n f"<main>{page.body}</main>")\n', ["render(menu)\n"]),
        ("def f(x):\n    x + self.attn(norm(x), mask)\n", ["def f(x):\n    self.attn(norm(x), mask)\n"]),
        ("(load(a), b, load(c))\n", ["load(a)\n", "load(c)\n"]),
        # a method of a value computed on the spot (an accuracy left over), a comparison's operands
        ("(net(x).argmax() == y).float().mean().item()\n", ["(net(x).argmax() == y).float().mean()\n"]),
        ("(net(x).argmax() == y)\n", ["net(x).argmax()\n"]),
        ("net(x).argmax()\n", ["net(x)\n"]),
        ("labels == net(x)\n", ["net(x)\n"]),
        ("model.eval()\nopt.step()\nself.net.train()\n", []),  # methods of objects something holds
        # an attribute or a subscript read of a computed value and dropped (the value's own failure stays)
        ("fn(x).shape\n", ["fn(x)\n"]),
        ("model(x)[0]\n", ["model(x)\n"]),
        ("print(net(x).shape)\n", ["net(x).shape\n"]),
        ("x.shape\nself.fc.weight[0]\n", []),  # nothing computed: HDD's business
        # not: a method with effects of its own, an argument that calls nothing, a used result,
        # an f-string formatting no call, a subscript (its __getitem__ may be what fails)
        ("xs.append(Block(1))\n", []),
        ("print(x)\n", []),
        ("y = F.relu(conv(x))\n", []),
        ('f"{a} {b.c}"\n', []),
        ("table[key(x)]\n", []),
    ],
)
def test_discarded_calls(source: str, expected: list[str]) -> None:
    _check(P.discarded_call_candidates, source, expected)


@pytest.mark.parametrize(
    "source, expected",
    [
        # an assert whose test calls something -> the test (the failure may be raised while it is computed)
        ("assert (vjp(f, x)[1] == torch.stack(ys)).all()\n", ["(vjp(f, x)[1] == torch.stack(ys)).all()\n"]),
        ('def f(x):\n    assert torch.isfinite(x).all(), "nan"\n    return x\n',
         ["def f(x):\n    torch.isfinite(x).all()\n    return x\n"]),
        ("assert (a ==\n        g(b))\n", ["(a ==\n        g(b))\n"]),
        ("assert x > 0\nassert ok, msg(x)\n", []),  # a test that calls nothing (a message is not the test)
    ],
)
def test_assert_tests(source: str, expected: list[str]) -> None:
    _check(P.assert_test_candidates, source, expected)


def test_assert_tests_are_off_when_the_failure_is_the_scripts_assertion() -> None:
    """Its candidates would all pass: no test is spent on them (the pass costs nothing there)."""
    from reportkit.reduce.schedule import Problem, _Schedule

    problem = Problem("assert f(1) == 2\n", lambda s: True)
    assert _Schedule(problem, oracle=True)._allowed(P.ASSERT_TESTS)
    assert not _Schedule(problem, oracle=True, assertion=True)._allowed(P.ASSERT_TESTS)


@pytest.mark.parametrize(
    "source, expected",
    [
        ("{path(p): render(p) for p in pages}\n", ["for p in pages:\n    path(p)\n    render(p)\n"]),
        ("def f(rows):\n    [check(r, c) for r in rows if r for c in r.cols]\n    return 1\n",
         ["def f(rows):\n    for r in rows:\n        if r:\n            for c in r.cols:\n"
          "                check(r, c)\n    return 1\n"]),
        ("{emit(k,\n      v) for k, v in items}\n", ["for k, v in items:\n    (emit(k,\n      v))\n"]),
        # not: a used result, a generator (never runs), an async comprehension, after a semicolon
        ("out = [f(x) for x in xs]\n", []),
        ("(f(x) for x in xs)\n", []),
        ("async def g():\n    [f(x) async for x in xs]\n", []),
        ("a = 1; [f(x) for x in xs]\n", []),
    ],
)
def test_comprehension_loops(source: str, expected: list[str]) -> None:
    _check(P.comprehension_loop_candidates, source, expected)


def test_a_comprehension_as_a_loop_runs_the_same_calls_in_the_same_order() -> None:
    source = ("calls = []\ndef f(*a):\n    calls.append(a)\n    return a\n"
              "{f('k', x): f('v', x) for x in range(3) if x != 1 for y in [x, -x] if f('if', y)}\n")
    (loop,) = P.comprehension_loop_candidates(source)
    ran = []
    for code in (source, loop):
        scope: dict = {}
        exec(compile(code, "<candidate>", "exec"), scope)
        ran.append(scope["calls"])
    assert ran[0] == ran[1] and len(ran[0]) > 6


def test_self_attr_through_a_module_level_name() -> None:
    """``self.vocab = vocab`` with the one construction given a module-level name bound once: reads
    of ``self.vocab`` become that name (the same object); not when the name is bound again."""
    source = ("class D:\n    def __init__(self, vocab):\n        self.vocab = vocab\n\n"
              "    def get(self, t):\n        return self.vocab.encode(t)\n"
              "v = Vocab()\nD(v).get('a')\n")
    assert P.self_attr_candidates(source) == [
        "class D:\n    def __init__(self, vocab):\n        pass\n\n"
        "    def get(self, t):\n        return v.encode(t)\nv = Vocab()\nD(v).get('a')\n"]
    assert P.self_attr_candidates(source + "v = Vocab()\n") == []
    assert P.self_attr_candidates(source.replace("def get(self, t)", "def get(self, v)")) == []


def test_class_to_function_through_an_instance_name() -> None:
    source = ("class Vocab:\n    def __init__(self):\n        pass\n\n    def encode(self, t):\n        return t\n"
              "v = Vocab()\nprint(v.encode('a'), v.encode('b'))\n")
    assert P.class_function_candidates(source) == [
        "def Vocab(t):\n    return t\nv = Vocab\nprint(v('a'), v('b'))\n"]
    # the instance also used otherwise, or bound twice: stays a class
    assert P.class_function_candidates(source + "print(v)\n") == []
    assert P.class_function_candidates(source + "v = Vocab()\n") == []


@pytest.mark.parametrize(
    "source, expected",
    [
        ("class R(nn.Module):\n    LAYOUT = ((16, 2, 2),)\n\n    def __init__(self):\n"
         "        a, b, c = self.LAYOUT[0]\nprint(R.LAYOUT)\n",
         ["class R(nn.Module):\n\n    def __init__(self):\n        a, b, c = ((16, 2, 2),)[0]\nprint(((16, 2, 2),))\n"]),
        ("class C:\n    N = 2 * 3\n    def f(self):\n        return self.N + 1\n",
         ["class C:\n    def f(self):\n        return (2 * 3) + 1\n"]),
        ("class C:\n    N = 2\nprint(C.N)\n", ["class C:\n    pass\nprint(2)\n"]),
        # not: stored (self.N = ...), read through another object, overridden in a subclass,
        # read by the class body, not a constant
        ("class C:\n    N = 2\n    def f(self):\n        self.N = 3\n        return self.N\n", []),
        ("class C:\n    N = 2\n    def f(self, other):\n        return other.N\n", []),
        ("class C:\n    N = 2\n    def f(self):\n        return self.N\nclass D(C):\n    N = 3\n", []),
        ("class C:\n    N = 2\n    M = N + 1\n    def f(self):\n        return self.N\n", []),
        ("class C:\n    N = make()\n    def f(self):\n        return self.N\n", []),
    ],
)
def test_class_constants(source: str, expected: list[str]) -> None:
    _check(P.class_constant_candidates, source, expected)


NET = ("class Net(nn.Module):\n    def __init__(self, d):\n        super().__init__()\n        blocks.append(Block(d))\n\n"
       "    def forward(self, x, scale=2):\n        return run(blocks, x) * scale\n\n")


@pytest.mark.parametrize(
    "source, expected",
    [
        (NET + "y = Net(4)(inp)\n",
         ["def Net(d, x, scale=2):\n    blocks.append(Block(d))\n    return run(blocks, x) * scale\n\ny = Net(4, inp)\n"]),
        # not: the instance kept (called later or twice), self used, forward reads a name __init__ binds,
        # a parameter name in both
        (NET + "m = Net(4)\ny = m(inp)\n", []),
        (NET.replace("blocks.append(Block(d))", "self.b = Block(d)") + "Net(4)(inp)\n", []),
        (NET.replace("blocks.append(Block(d))", "run = Block(d)") + "Net(4)(inp)\n", []),
        (NET.replace("(self, d)", "(self, x)").replace("Block(d)", "Block(x)") + "Net(4)(inp)\n", []),
    ],
)
def test_module_calls(source: str, expected: list[str]) -> None:
    _check(P.module_call_candidates, source, expected)


def test_bare_tuple_result_keeps_its_parentheses() -> None:
    source = "def pair(a):\n    return a, 1\nf(pair(1), 2)\nf(pair(2), 3)\n"
    assert P.helper_inline_candidates(source) == ["f((1, 1), 2)\nf((2, 1), 3)\n"]


def test_no_substitution_inside_f_strings_and_multiline_results_stay_valid() -> None:
    # inlined into an f-string, a helper's quotes could end the string (before Python 3.12)
    assert P.helper_inline_candidates(
        'def cell(t):\n    return t.replace("|", "/")\nprint(f"{cell(a)}")\nprint(cell(b))\n') == []
    # an argument spanning lines becomes a statement that still parses
    source = "print(a +\n      b(), c)\n"
    assert P.discarded_call_candidates(source) == ["(a +\n      b())\n"]


# --------------------------------------------------------------------------- end to end
MODEL_SCRIPT = '''\
class Module:
    def __init__(self):
        pass

    def __call__(self, *args):
        return self.forward(*args)


class Sequential(Module):
    def __init__(self, *mods):
        super().__init__()
        self.mods = mods

    def forward(self, x):
        for m in self.mods:
            x = m(x)
        return x


class Scale(Module):
    def __init__(self, factor):
        super().__init__()
        self.factor = factor

    def forward(self, x):
        return [v * self.factor for v in x]


class Pool(Module):
    def __init__(self, stride):
        super().__init__()
        self.stride = stride

    def forward(self, x):
        return x[::self.stride]


def pool(stride=1):
    return Pool(stride)


def add(a, b):
    if len(a) != len(b):
        raise ValueError(f"lengths {len(a)} and {len(b)} differ")
    return [p + q for p, q in zip(a, b)]


class Block(Module):
    def __init__(self, stride):
        super().__init__()
        self.main = pool(stride)

    def forward(self, x):
        return add(self.main(x), x)


class Stage(Module):
    def __init__(self, stride):
        super().__init__()
        self.block = Block(stride)

    def forward(self, x):
        return self.block(x)


class Net(Module):
    LAYOUT = (1, 2)

    def __init__(self):
        super().__init__()
        stages = []
        for stride in self.LAYOUT:
            stages.append(Stage(stride))
        self.stem = pool()
        self.stages = Sequential(*stages)

    def forward(self, x):
        return self.stages(self.stem(x))


def loss(values):
    return sum(values)


print(loss(Net()(list(range(8)))))
'''


def test_scaffolding_goes_around_a_failure_the_script_raises() -> None:
    """A model hierarchy around a failure its own code raises (value passes off): the wrappers go and
    the failing computation stays code."""
    from tests.test_reduce import raises, reduce_checked

    predicate = raises(ValueError, "lengths 4 and 8 differ", "add")
    result, _ = reduce_checked(MODEL_SCRIPT, predicate, oracle=True, rebuild=True)
    tree = ast.parse(result.source)
    assert [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)] == []
    assert "loss" not in result.source and "LAYOUT" not in result.source
    assert "[::2]" in result.source  # the strided slice that makes the lengths differ is still code
    assert len([line for line in result.source.splitlines() if line.strip()]) <= 6


# --------------------------------------------------------------------------- modules that do nothing
HEAD = "class Head(nn.Module):\n    pass\n"


@pytest.mark.parametrize(
    "source, expected",
    [
        # an empty module still built and called: its call becomes its input (the class goes with unused names)
        (HEAD + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
         "        self.head = Head()\n    def forward(self, x):\n        return self.head(body(x))\n",
         [HEAD + "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
          "        self.head = Head()\n    def forward(self, x):\n        return body(x)\n"]),
        # a forward that is ``pass``: None; one that returns an input: that input (by position or keyword)
        ("class M(nn.Module):\n    '''Doc.'''\n    def forward(self, x):\n        pass\ny = M()(a)\n",
         ["class M(nn.Module):\n    '''Doc.'''\n    def forward(self, x):\n        pass\ny = None\n"]),
        ("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n    def forward(self, x, mask):\n"
         "        return x\nm = M()\nout = m(a, mask=k) + m(x=b, mask=k)\n",
         ["class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n    def forward(self, x, mask):\n"
          "        return x\nm = M()\nout = a + b\n"]),
        # a plain class called through __call__
        ("class Noop:\n    def __call__(self, v):\n        return v\nf(Noop()(v=2))\n",
         ["class Noop:\n    def __call__(self, v):\n        return v\nf(2)\n"]),
        # not: a forward that computes, a class with state, an object passed on or in a container, a subclass,
        # several arguments to a module without forward
        ("class M(nn.Module):\n    def forward(self, x):\n        return x + 1\nM()(a)\n", []),
        ("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.w = 1\n"
         "    def forward(self, x):\n        return x\nM()(a)\n", []),
        (HEAD + "nn.Sequential(Head())(x)\n", []),
        (HEAD + "class Big(Head):\n    pass\nHead()(x)\n", []),
        (HEAD + "Head()(x, y)\n", []),
    ],
)
def test_trivial_modules(source: str, expected: list[str]) -> None:
    _check(P.trivial_module_candidates, source, expected)


@pytest.mark.parametrize(
    "source, expected",
    [
        # held-out r09-07 (pytorch #50402, blind): a model whose layers went, still built for its parameters
        ("import torch\nclass Model(torch.nn.Module):\n    pass\nmodel = Model()\ntorch.optim.Adam(model.parameters())\n",
         ["import torch\nclass Model(torch.nn.Module):\n    pass\nmodel = torch.nn.Module()\n"
          "torch.optim.Adam(model.parameters())\n"]),
        ('class Base:\n    pass\nclass Cfg(Base):\n    """Settings."""\nx = Cfg()\nisinstance(x, Cfg)\n',
         ['class Base:\n    pass\nclass Cfg(Base):\n    """Settings."""\nx = Base()\nisinstance(x, Base)\n']),
        # not: a body that does something, two bases, keywords, a decorator, an exception, a name bound again
        ("class M(nn.Module):\n    x = 1\nM()\n", []),
        ("class M(A, B):\n    pass\nM()\n", []),
        ("class M(A, metaclass=Meta):\n    pass\nM()\n", []),
        ("@dataclass\nclass M(A):\n    pass\nM()\n", []),
        ("class ConfigError(ValueError):\n    pass\nraise ConfigError('x')\n", []),
        ("class M(A):\n    pass\nM = make(M)\nM()\n", []),
        ("class M(A):\n    pass\n", []),  # never read: the unused-names pass's
    ],
)
def test_empty_subclasses(source: str, expected: list[str]) -> None:
    """An empty class with one base reads as its base: ``Model()`` is ``torch.nn.Module()``."""
    _check(P.empty_subclass_candidates, source, expected)
    assert P.EMPTY_SUBCLASSES in P.SCAFFOLD
