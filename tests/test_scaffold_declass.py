"""class-to-module (reportkit/reduce/passes/declass.py) and the inliner's hygiene: source in, candidates out.

Every candidate must parse, and where the pass fires the candidate must print what the original
printed (each case is run in-process with ``exec``: they are plain Python, no torch)."""

from __future__ import annotations

import pytest
from scripts import output_of

from reportkit.reduce import passes as P

PREFETCHER = '''import queue

def make_items(n=2):
    return [n]

class Prefetcher:
    def __init__(self, items):
        self.todo = queue.Queue()
        self.todo.put(items[0])
        self.seen = []

    def work(self):
        self.seen.append(self.todo.get())

    def run(self):
        self.work()
        print(self.seen)

Prefetcher(make_items()).run()
'''

PREFETCHER_OUT = '''import queue

def make_items(n=2):
    return [n]

def work():
    seen.append(todo.get())

def run():
    work()
    print(seen)

items = make_items()
todo = queue.Queue()
todo.put(items[0])
seen = []
run()
'''

VOCAB = '''class CharVocab:
    def __init__(self, specials):
        self.specials = specials
        self.count = 0

    @property
    def pad_id(self):
        self.count += 1
        return len(self.specials)

    def encode(self, text):
        return [self.pad_id] + [ord(c) for c in text]

vocab = CharVocab(["<pad>"])
print(vocab.encode("ab"), vocab.pad_id, vocab.count)
'''

VOCAB_OUT = '''def pad_id():
    global count
    count += 1
    return len(specials)

def encode(text):
    return [pad_id()] + [ord(c) for c in text]

specials = ["<pad>"]
count = 0
print(encode("ab"), pad_id(), count)
'''

MODULE = '''import torch
from torch import nn

class Net(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)

    def forward(self, images):
        return self.norm(images)

cfg = {"dim": 4}
y = Net(dim=cfg["dim"])(torch.zeros(1, 4))
'''

MODULE_OUT = '''import torch
from torch import nn

def Net(images):
    return norm(images)

cfg = {"dim": 4}
dim = cfg["dim"]
norm = nn.LayerNorm(dim)
y = Net(torch.zeros(1, 4))
'''


@pytest.mark.parametrize("source, expected", [(PREFETCHER, PREFETCHER_OUT), (VOCAB, VOCAB_OUT), (MODULE, MODULE_OUT)])
def test_class_to_module_fires(source: str, expected: str) -> None:
    assert P.class_module_candidates(source) == [expected]
    if "torch" not in source:
        assert output_of(expected) == output_of(source)


def test_class_to_module_call_and_plain_attribute() -> None:
    source = ("class Scale:\n    def __init__(self, k=2):\n        self.k = k\n\n    def __call__(self, x):\n"
              "        return x * self.k\n\nprint(Scale()(3))\n")
    [candidate] = P.class_module_candidates(source)
    assert candidate == "def Scale(x):\n    return x * k\n\nk = 2\nprint(Scale(3))\n"
    assert output_of(candidate) == output_of(source)


@pytest.mark.parametrize(
    "source",
    [
        # used twice; the instance passed out; self passed out / read via getattr
        "class C:\n    def run(self):\n        print(1)\n\nC().run()\nC().run()\n",
        "class C:\n    def run(self):\n        print(1)\n\nc = C()\nuse(c)\n",
        "class C:\n    def run(self):\n        register(self)\n\nC().run()\n",
        "class C:\n    def run(self):\n        return getattr(self, 'x')\n\nC().run()\n",
        # inheritance: a subclass, a base other than object / nn.Module, super() beyond __init__
        "class C:\n    def run(self):\n        print(1)\n\nclass D(C):\n    pass\n\nD().run()\nC().run()\n",
        "class C(Base):\n    def run(self):\n        print(1)\n\nC().run()\n",
        "class C(nn.Module):\n    def forward(self, x):\n        return super().forward(x)\n\nC()(1)\n",
        # an inherited attribute (self.training), never set
        "class C(nn.Module):\n    def forward(self, x):\n        return x if self.training else 0\n\nC()(1)\n",
        # name clashes: an attribute named like a module global; a method's local named like an attribute;
        # an __init__ local named like a module global read later
        "todo = 1\nclass C:\n    def __init__(self):\n        self.todo = 2\n    def run(self):\n"
        "        print(self.todo)\n\nC().run()\nprint(todo)\n",
        "class C:\n    def __init__(self):\n        self.n = 2\n    def run(self):\n        n = 3\n"
        "        print(self.n, n)\n\nC().run()\n",
        "x = 1\nclass C:\n    def __init__(self):\n        x = 5\n        self.y = x\n    def run(self):\n"
        "        print(self.y)\n\nC().run()\nprint(x)\n",
        # an early return in __init__; a dunder method other than __call__; a decorated method
        "class C:\n    def __init__(self, a):\n        if a:\n            return\n        self.a = a\n"
        "    def run(self):\n        print(self.a)\n\nC(0).run()\n",
        "class C:\n    def __len__(self):\n        return 1\n    def run(self):\n        print(len(self))\n\nC().run()\n",
        "class C:\n    @staticmethod\n    def run():\n        print(1)\n\nC().run()\n",
        # built inside a function: a name the class brings is one the function uses; bound to a name there;
        # a nested function / a method / a function defined twice
        "class C:\n    def __init__(self):\n        self.n = 2\n    def run(self):\n        print(self.n)\n\n"
        "def main():\n    n = 1\n    C().run()\n    print(n)\nmain()\n",
        "class C:\n    def __init__(self, k):\n        self.n = k\n    def run(self):\n        print(self.n)\n\n"
        "def main(k):\n    C(1).run()\n    print(k)\nmain(0)\n",
        "class C:\n    def run(self):\n        print(1)\n\ndef main():\n    c = C()\n    c.run()\nmain()\n",
        "class C:\n    def run(self):\n        print(1)\n\ndef main():\n    def inner():\n        C().run()\n"
        "    inner()\nmain()\n",
        "class C:\n    def run(self):\n        print(1)\n\ndef main():\n    C().run()\ndef main():\n    pass\n",
        # not the first thing its statement evaluates
        "class C:\n    def run(self):\n        return 1\n\nprint(f(), C().run())\n",
        # an attribute set in a nested function (it would need its own global)
        "class C:\n    def run(self):\n        def inner():\n            self.x = 1\n        inner()\n\nC().run()\n",
    ],
)
def test_class_to_module_does_not_fire(source: str) -> None:
    assert P.class_module_candidates(source) == []


@pytest.mark.parametrize(
    "source, expected",
    [
        # a local clashing with a global read later: not inlined
        ("x = 1\ndef f(a):\n    x = a + 1\n    return x\ny = f(2)\nprint(x, y)\n", []),
        # ... read in another function: not inlined
        ("def show():\n    print(n)\ndef f():\n    n = 3\n    return n\nn = 1\nf()\nshow()\nshow()\n", []),
        # the site's own target as the function's local: inlined, without ``x = x``
        ("def f(a):\n    x = [a]\n    return x\nx = f(2)\nprint(x)\n", ["a = 2\nx = [a]\nprint(x)\n"]),
        # in a function: a local of that function read after the site; a global it reads (it would become
        # local); the parameter spelled like its argument is no binding
        ("def f(a):\n    x = a\n    return x\ndef main():\n    x = 1\n    y = f(2)\n    print(x, y)\nmain()\nmain()\n", []),
        ("def f(a):\n    x = a\n    return x\ndef main():\n    print(x)\n    y = f(2)\nmain()\nmain()\n", []),
        ("def f(cfg):\n    t = cfg[0]\n    return t\ndef main(cfg):\n    y = f(cfg)\n    print(y)\nmain(1)\nmain(2)\n",
         ["def main(cfg):\n    t = cfg[0]\n    y = t\n    print(y)\nmain(1)\nmain(2)\n"]),
        # ``return f(...)``: nothing of the caller runs after it (but a finally would)
        ("def f(a):\n    x = a\n    return x\ndef main():\n    if c:\n        return f(2)\n    x = 1\n    print(x)\n"
         "main()\nmain()\n",
         ["def main():\n    if c:\n        a = 2\n        x = a\n        return x\n    x = 1\n    print(x)\n"
          "main()\nmain()\n"]),
        ("def f(a):\n    x = a\n    return x\ndef main():\n    x = 0\n    try:\n        return f(2)\n    finally:\n"
         "        print(x)\nmain()\nmain()\n", []),
        # ``return (expr)``
        ("def f(a):\n    g(a)\n    return (h())\ny = f(1)\n", ["a = 1\ng(a)\ny = (h())\n"]),
        # a parameter named like the argument: read before the site only
        ("cfg = {}\ndef f(cfg):\n    size = cfg['a']\n    return size\nf(cfg)\n",
         ["cfg = {}\nsize = cfg['a']\nsize\n"]),
    ],
)
def test_inline_hygiene(source: str, expected: list[str]) -> None:
    got = P.inline_candidates(source)
    assert got == expected
    assert all(P.parses(c) for c in got)


def test_class_to_module_first_evaluated_forms() -> None:
    # the construction as a loop's iterable and as a method passed on as a callback
    source = ("class Rows:\n    def __init__(self, n):\n        self.n = n\n\n    def items(self):\n"
              "        return list(range(self.n))\n\nfor r in Rows(2).items():\n    print(r)\n")
    [candidate] = P.class_module_candidates(source)
    assert candidate == "def items():\n    return list(range(n))\n\nn = 2\nfor r in items():\n    print(r)\n"
    assert output_of(candidate) == output_of(source)
    source = ("class Job:\n    def __init__(self):\n        self.done = []\n\n    def step(self, x):\n"
              "        self.done.append(x)\n\n    def run(self):\n        list(map(self.step, [1, 2]))\n"
              "        print(self.done)\n\njob = Job()\njob.run()\n")
    [candidate] = P.class_module_candidates(source)
    assert "map(step, [1, 2])" in candidate and "job" not in candidate
    assert output_of(candidate) == output_of(source)


def test_class_to_module_argument_with_effects_keeps_its_order() -> None:
    source = ("def a():\n    print('a')\n    return 1\n\nclass C:\n    def __init__(self, x, y):\n"
              "        print('init')\n\n    def run(self):\n        print('run')\n\nC(a(), y=a()).run()\n")
    [candidate] = P.class_module_candidates(source)
    assert "x, y = a(), a()" in candidate
    assert output_of(candidate) == output_of(source)


def test_class_to_module_in_a_function() -> None:
    # built in a module-level function: __init__'s parameters become its locals, the attributes globals it
    # declares (a method used as a value through self is the function itself)
    source = ("import threading\n\nclass Worker:\n    def __init__(self, source):\n        self.seen = []\n"
              "        self.items = list(source)\n\n    def work(self):\n        for x in self.items:\n"
              "            self.seen.append(x)\n\n    def run(self):\n        t = threading.Thread(target=self.work)\n"
              "        t.start()\n        t.join()\n        print(self.seen)\n\n"
              "def main(n):\n    Worker(range(n)).run()\n\nmain(3)\n")
    [candidate] = P.class_module_candidates(source)
    assert "def main(n):\n    global items, seen\n    source = range(n)\n    seen = []\n" in candidate
    assert "threading.Thread(target=work)" in candidate and "class" not in candidate
    assert output_of(candidate) == output_of(source)


def test_class_to_module_in_a_function_parameter_stored_as_is() -> None:
    # ``self.k = k``: the parameter is the global the function declares
    source = ("class C:\n    def __init__(self, k):\n        self.k = k\n    def run(self):\n        print(self.k)\n\n"
              "def main():\n    C(5).run()\nmain()\n")
    [candidate] = P.class_module_candidates(source)
    assert candidate == "def run():\n    print(k)\n\ndef main():\n    global k\n    k = 5\n    run()\nmain()\n"
    assert output_of(candidate) == output_of(source)


def test_class_to_module_parameter_passed_its_own_name() -> None:
    # ``Prefetcher(shards)`` for a parameter ``shards``: no ``shards = shards``, and the module's own
    # ``shards`` is no clash -- __init__'s body reads it where the instance was built
    source = ("import queue\n\nclass Prefetcher:\n    def __init__(self, shards):\n        self.todo = queue.Queue()\n"
              "        self.todo.put(shards[0])\n\n    def run(self):\n        print(self.todo.get())\n\n"
              "shards = [1, 2]\nPrefetcher(shards).run()\nprint(shards)\n")
    [candidate] = P.class_module_candidates(source)
    assert candidate == ("import queue\n\ndef run():\n    print(todo.get())\n\nshards = [1, 2]\ntodo = queue.Queue()\n"
                         "todo.put(shards[0])\nrun()\nprint(shards)\n")
    assert output_of(candidate) == output_of(source)


@pytest.mark.parametrize(
    "source",
    [
        # __init__ rebinds the parameter: the module's own name would change
        "shards = [1]\nclass C:\n    def __init__(self, shards):\n        shards = shards * 2\n        self.n = len(shards)\n"
        "    def run(self):\n        print(self.n)\n\nC(shards).run()\nprint(shards)\n",
        # read later, in a lambda: it would see the module's name as it is then
        "shards = [1]\nclass C:\n    def __init__(self, shards):\n        self.f = lambda: shards\n"
        "    def run(self):\n        print(self.f())\n\nC(shards).run()\nshards = 0\n",
        # passed another name, or an expression, under a parameter named like a module global
        "shards = [1]\nother = [2]\nclass C:\n    def __init__(self, shards):\n        self.n = shards\n"
        "    def run(self):\n        print(self.n)\n\nC(other).run()\nprint(shards)\n",
    ],
)
def test_class_to_module_parameter_passed_its_own_name_only_when_safe(source: str) -> None:
    assert P.class_module_candidates(source) == []


SHADOWED = '''class loss:
    def __init__(self):
        pass

    def value(self, a, b):
        return a - b

def run(x):
    return loss.value(x, 1)

loss = loss()
print(run(3), loss.value(5, 2))
'''

SHADOWED_OUT = '''def value(a, b):
    return a - b

def run(x):
    return value(x, 1)

pass
print(run(3), value(5, 2))
'''


def test_class_to_module_instance_named_like_its_class() -> None:
    """``loss = loss()`` (the instance shadows its class, issue 38's real-03): declassed as if it had a name of
    its own; the fresh name never reaches the result."""
    assert P.class_module_candidates(SHADOWED) == [SHADOWED_OUT]
    assert output_of(SHADOWED_OUT) == output_of(SHADOWED)


@pytest.mark.parametrize(
    "source",
    [
        # read at module level before the binding (the class then); the class itself passed on; bound again;
        # the class defined after the binding; a read that is no member of the class
        SHADOWED.replace("loss = loss()", "print(loss.value)\nloss = loss()"),
        SHADOWED.replace("loss = loss()", "keep(loss)\nloss = loss()"),
        SHADOWED + "loss = 2\n",
        "c = 1\nc = c()\nclass c:\n    def run(self):\n        return 1\n",
        SHADOWED.replace("loss.value(5, 2)", "loss.other"),
    ],
)
def test_class_to_module_instance_named_like_its_class_does_not_fire(source: str) -> None:
    assert P.class_module_candidates(source) == []
