"""hoist-calls (reportkit/reduce/passes/hoist_calls.py): a one-use function called as the first thing a statement
evaluates runs just before it. Where it fires the candidate prints what the original printed (``exec``)."""

from __future__ import annotations

import pytest
from scripts import output_of

from reportkit.reduce import passes as P


@pytest.mark.parametrize(("source", "expected"), [
    # an argument: the default bound, the body before the statement, the call its result
    ("def make(n=3):\n    items = list(range(n))\n    items.append(-1)\n    return items\n\n"
     "print(sorted(make()))\n",
     "\nn = 3\nitems = list(range(n))\nitems.append(-1)\nprint(sorted(items))\n"),
    # the object of a method call; an expression result; in a function
    ("def load(path):\n    print('load', path)\n    return {'a': path}\n\ndef main():\n"
     "    for k in load('x').keys():\n        print(k)\n\nmain()\n",
     "\ndef main():\n    path = 'x'\n    print('load', path)\n    for k in {'a': path}.keys():\n        print(k)\n\nmain()\n"),
    # an if test
    ("def check(x):\n    y = x * 2\n    return y > 3\n\nif check(2):\n    print('big')\n",
     "\nx = 2\ny = x * 2\nif y > 3:\n    print('big')\n"),
])
def test_hoist_call_fires(source: str, expected: str) -> None:
    assert P.hoist_call_candidates(source) == [expected]
    assert output_of(expected) == output_of(source)


@pytest.mark.parametrize("source", [
    # not the first thing the statement evaluates: a() would run after the body
    "def f():\n    print('f')\n    return 2\nprint(input(), f())\n",
    "def f():\n    print('f')\n    return 2\nx = [0][0] + f()\n",
    # a while test runs each time; an elif test only when the if's is false; a comprehension, a lambda
    "def f():\n    print('f')\n    return False\nwhile f():\n    pass\n",
    "def f():\n    print('f')\n    return 1\nif 1:\n    pass\nelif f():\n    pass\n",
    "def f(t):\n    u = t\n    return u\nprint([f(t) for t in range(2)])\n",
    "def f():\n    u = 1\n    return u\ng = lambda: print(f())\ng()\n",
    # a default that is not a literal was evaluated once, at the def
    "import itertools\nc = itertools.count()\ndef f(n=next(c)):\n    m = n\n    return m\nprint(next(c), str(f()))\n",
    # the statement mentions a local of the body: it would see the body's binding
    "x = 'outer'\ndef f():\n    x = 'inner'\n    return x\nprint(str(f()), x)\n",
    "def f():\n    print = None\n    return 1\nprint(str(f()))\n",
    # in a function that has a local named like a global the body reads
    "cfg = 1\ndef f():\n    v = cfg\n    return v\ndef main(cfg):\n    print(str(f()), cfg)\nmain(2)\n",
    # returns early, yields, recursion, called before the def
    "def f(a):\n    if a:\n        return 1\n    b = 2\n    return b\nprint(str(f(0)))\n",
    "def f():\n    yield 1\n    return 2\nprint(list(f()))\n",
    "def f(n):\n    m = n\n    return str(f(n - 1)) if n else m\nprint(str(f(2)))\n",
    # the statement-level inliner's own cases
    "def f():\n    v = 1\n    return v\nx = f()\n",
    "def f():\n    v = 1\n    return v\nf()\n",
])
def test_hoist_call_does_not_fire(source: str) -> None:
    assert P.hoist_call_candidates(source) == []
