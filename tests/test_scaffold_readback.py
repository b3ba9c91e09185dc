"""display-subscripts and field-readbacks (reportkit/reduce/passes/readback.py): source in, candidates out.

Where a pass fires, the candidate must print what the original printed (run in-process with ``exec``:
plain Python, no torch); where it must not, it proposes nothing."""

from __future__ import annotations

import pytest
from scripts import output_of

from reportkit.reduce import passes as P


@pytest.mark.parametrize(("source", "expected"), [
    ('print({**{"keep_days": 14}}["keep_days"])\n', "print(14)\n"),
    ('x = 3\nprint({"a": 1, "b": x}["b"])\n', 'x = 3\nprint(x)\n'),
    ('print({"a": 1, "a": 2}["a"])\n', "print(2)\n"),  # the last value wins
    ('print({1: "one", True: "t"}[1])\n', 'print("t")\n'),  # 1 == True: one key
    ('print({"a": [1, 2], **{"a": (3, 4)}}["a"])\n', "print((3, 4))\n"),
    ('print([10, 20, 30][1])\n', "print(20)\n"),
    ('print((10, 20, 30)[-1])\n', "print(30)\n"),
    ('y = 2\nprint({"k": y + 1}["k"] * 2)\n', 'y = 2\nprint((y + 1) * 2)\n'),
    ('item = {"b": [{"n": 1}]}["b"][0]\nprint(item)\n', 'item = [{"n": 1}][0]\nprint(item)\n'),
    ('x = 4\nprint([x * 2].pop() + 1)\n', 'x = 4\nprint((x * 2) + 1)\n'),  # an inlined ``skips.pop()``
    ('print([10, 20, 30].pop(0))\n', "print(10)\n"),
    ('print({"a": 1, "b": 2}.pop("b"))\n', "print(2)\n"),
    ('print({"a": [1]}.get("a"))\n', "print([1])\n"),
])
def test_display_subscript_fires(source: str, expected: str) -> None:
    got = P.display_subscript_candidates(source)
    assert expected in got
    assert output_of(expected) == output_of(source)


@pytest.mark.parametrize("source", [
    'print({"a": 1}["b"] if False else 0)\n',  # a missing key raises: stays
    'print([1, 2][5] if False else 0)\n',
    'def f():\n    print("called")\n    return 1\nprint({"a": f(), "b": 2}["b"])\n',  # a call is dropped
    'k = "a"\nprint({k: 1, "a": 2}["a"])\n',  # a computed key may equal the index
    'd = {"a": 1}\nprint({**d, "b": 2}["b"])\n',  # ``**`` of a name
    'xs = [1]\nprint([*xs, 2][1])\n',  # starred
    'd = {"a": 1}\n{"a": 1}["a"] = 2\nprint(d)\n',  # a store, not a read
    'print({"a": 1}[0.5 * 2] if False else 0)\n',  # the index is not a literal
    'print([n := 1, 2][1], n)\n',  # a walrus is dropped
    'print([].pop() if False else 0)\n',  # an empty list's pop raises: stays
    'print({"a": 1}.get("b"))\n',  # a missing key: None (get) or KeyError (pop), not an element
    'print({"a": 1}.get("a", 2), {"a": 1}.pop("a", 2))\n',  # a default: left alone
    'print((1, 2).count(1), [3].append(4), [5].pop)\n',  # not a read of one element
    'xs = [1, 2]\nprint(xs.pop())\n',  # a name, not a fresh display
])
def test_display_subscript_does_not_fire(source: str) -> None:
    assert P.display_subscript_candidates(source) == []


BACKUP = '''from dataclasses import dataclass

@dataclass
class Backup:
    name: str
    created: int
    size: int = 5

def old(created, days):
    return created < days

item = {"name": "a", "created": 3}
created = item["created"] + 1
print(old(Backup(item["name"], created).created, 14))
'''


def test_field_readback_dataclass() -> None:
    got = P.field_readback_candidates(BACKUP)
    assert got == [BACKUP.replace('Backup(item["name"], created).created', "created")]
    assert output_of(got[0]) == output_of(BACKUP)


@pytest.mark.parametrize(("source", "expected"), [
    # keyword argument, a literal default
    ("from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    b: int = 7\n"
     "print(P(a=1).b, P(b=2, a=3).a)\n",
     ["from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    b: int = 7\nprint(7, P(b=2, a=3).a)\n",
      "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    b: int = 7\nprint(P(a=1).b, 3)\n"]),
    # dataclasses.dataclass(frozen=True), the value is an expression
    ("import dataclasses\n@dataclasses.dataclass(frozen=True)\nclass P:\n    a: int\nx = 2\nprint(P(x + 1).a * 2)\n",
     ["import dataclasses\n@dataclasses.dataclass(frozen=True)\nclass P:\n    a: int\nx = 2\nprint((x + 1) * 2)\n"]),
    # a plain class whose __init__ stores its parameters
    ("class P:\n    def __init__(self, a, b=4):\n        self.first = a\n        self.b = b\n\n    def total(self):\n"
     "        return self.first + self.b\n\nprint(P(1).first, P(1, 2).total())\n",
     ["class P:\n    def __init__(self, a, b=4):\n        self.first = a\n        self.b = b\n\n    def total(self):\n"
      "        return self.first + self.b\n\nprint(1, P(1, 2).total())\n"]),
])
def test_field_readback_fires(source: str, expected: list[str]) -> None:
    got = P.field_readback_candidates(source)
    assert got == expected
    for candidate in got:
        assert output_of(candidate) == output_of(source)


@pytest.mark.parametrize("source", [
    # __post_init__ may change the field
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    def __post_init__(self):\n"
    "        self.a += 1\nprint(P(1).a)\n",
    # a field with a factory
    "from dataclasses import dataclass, field\n@dataclass\nclass P:\n    a: list = field(default_factory=list)\n"
    "print(P().a)\n",
    # init=False / kw_only change what the arguments bind to
    "from dataclasses import dataclass\n@dataclass(init=False)\nclass P:\n    a: int = 1\nprint(P().a)\n",
    "from dataclasses import dataclass\n@dataclass(kw_only=True)\nclass P:\n    a: int\nprint(P(a=1).a)\n",
    # a base class may define __init__ / properties
    "from dataclasses import dataclass\nclass B:\n    pass\n@dataclass\nclass P(B):\n    a: int\nprint(P(1).a)\n",
    # another argument is a call: its effect would be dropped
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    b: int\n"
    "def f():\n    print('side effect')\n    return 1\nprint(P(1, f()).a)\n",
    # __init__ computes: the field is not the parameter
    "class P:\n    def __init__(self, a):\n        self.a = a * 2\nprint(P(1).a)\n",
    "class P:\n    def __init__(self, a):\n        self.a = a\n        print('built')\nprint(P(1).a)\n",
    # a property named like the field, __getattribute__, __slots__ without it
    "class P:\n    def __init__(self, a):\n        self.b = a\n    @property\n    def b(self):\n        return 0\n"
    "print(P(1).b)\n",
    "class P:\n    def __init__(self, a):\n        self.a = a\n    def __getattribute__(self, n):\n        return 0\n"
    "print(P(1).a)\n",
    "class P:\n    __slots__ = ()\n    def __init__(self, a):\n        self.a = a\nprint(P(1).a if False else 0)\n",
    # the name is rebound / shadowed where it is called
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\ndef g(P):\n    return P(1).a\nprint(g(dict))\n"
    .replace("P(1).a", "P(a=1).get('a')"),
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\ndef g(P):\n    return P(1).a\n"
    "class Q:\n    def __init__(self, a):\n        self.a = a + 1\nprint(g(Q))\n",
    # a default that is not a literal is evaluated once, at class creation
    "import itertools\nc = itertools.count()\nclass P:\n    def __init__(self, a=next(c)):\n        self.a = a\n"
    "print(P().a)\n",
    # a missing argument is a TypeError: stays
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    b: int\nprint(P(1).a if False else 0)\n",
    # not a field
    "from dataclasses import dataclass\n@dataclass\nclass P:\n    a: int\n    def b(self):\n        return 1\n"
    "print(P(1).b())\n",
])
def test_field_readback_does_not_fire(source: str) -> None:
    assert P.field_readback_candidates(source) == []


def test_display_copy_of_a_display() -> None:
    source = 'cfg = {**{"a": 1, "b": [2]}}\nprint(cfg)\n'
    assert P.display_copy_candidates(source) == ['cfg = {"a": 1, "b": [2]}\nprint(cfg)\n']
    assert P.display_copy_candidates('d = {"a": 1}\ncfg = {**d}\nprint(cfg)\n') == []  # a real copy
    assert P.display_copy_candidates('cfg = {**{"a": 1}, "b": 2}\nprint(cfg)\n') == []


def test_lookups_are_value_passes() -> None:
    # a value read out of a table is what the failing code operates on: off where the values are the bug
    assert P.DISPLAY_SUBSCRIPTS in P.VALUE_PASSES and P.LOOKUP_TABLES in P.VALUE_PASSES
    assert P.DISPLAY_COPIES not in P.VALUE_PASSES and P.FIELD_READBACKS not in P.VALUE_PASSES


CONFIG = '''config = {"workers": 2, "chunk": 400, "names": ["a"]}

def chunks(text):
    return [text[i:i + config["chunk"]] for i in range(0, len(text), config["chunk"])]

print(config["workers"], chunks("x" * 900), config["names"])
'''


def test_lookup_table_fires() -> None:
    got = P.lookup_table_candidates(CONFIG)
    every = CONFIG.replace('config["chunk"]', "400").replace('config["workers"]', "2").replace('config["names"]',
                                                                                              '["a"]')
    assert got[0] == every
    assert len(got) == 5  # every read, then one read at a time
    for candidate in got:
        assert output_of(candidate) == output_of(CONFIG)


def test_lookup_table_is_scope_aware() -> None:
    # a parameter (or a comprehension's target) of that name is another binding: its reads stay, the
    # module-level read is the table's
    source = 'config = {"a": 1}\ndef f(config):\n    return config["a"]\nprint(f({"a": 3}), config["a"])\n'
    assert P.lookup_table_candidates(source) == [source.replace('), config["a"])', '), 1)')]
    source = 'config = {"a": 1}\nprint([config["a"] for config in ({"a": 2},)], config["a"])\n'
    assert P.lookup_table_candidates(source) == [source.replace('], config["a"])', '], 1)')]
    for candidate in P.lookup_table_candidates(source):
        assert output_of(candidate) == output_of(source)


@pytest.mark.parametrize("source", [
    # the table itself is used: passed on, iterated, .get, written, deleted from
    'config = {"a": 1}\nprint(config["a"], len(config))\n',
    'config = {"a": 1}\nprint(config.get("a"), config["a"])\n',
    'config = {"a": 1}\nconfig["a"] = 2\nprint(config["a"])\n',
    'config = {"a": 1}\ndel config["a"]\nprint(config["a"] if config else 0)\n',
    # rebound, augmented, a parameter or a global declaration of that name somewhere
    'config = {"a": 1}\nconfig = {"a": 2}\nprint(config["a"])\n',
    'config = {"a": 1}\ndef f():\n    global config\n    config = {"a": 5}\nf()\nprint(config["a"])\n',
    'config = {"a": 1}\nconfig |= {"a": 2}\nprint(config["a"])\n',
    'config = {"a": 1}\nglobals()["config"] = {"a": 2}\nprint(config["a"])\n',
    # an except or match target of that name rebinds (and an except target unbinds) it
    'config = {"a": 1}\ntry:\n    1 / 0\nexcept ZeroDivisionError as config:\n    pass\nprint(config["a"])\n',
    'config = {"a": 1}\nmatch 2:\n    case config:\n        pass\nprint(config["a"])\n',
    # a key it does not have, a computed key, a value that is not literal data
    'config = {"a": 1}\nprint(config["b"] if False else 0)\n',
    'k = "a"\nconfig = {"a": 1}\nprint(config[k])\n',
    'x = [1]\nconfig = {"a": x}\nx.append(2)\nprint(config["a"])\n',
    'config = {"a": len("ab")}\nprint(config["a"])\n',
    # one list read twice is one object: two displays would not be
    'config = {"a": [1]}\nconfig["a"].append(2)\nprint(config["a"])\n',
    # read before it is bound
    'try:\n    print(config["a"])\nexcept NameError:\n    print("unbound")\nconfig = {"a": 1}\n',
    # not at module level
    'def f():\n    config = {"a": 1}\n    return config["a"]\nprint(f())\n',
])
def test_lookup_table_does_not_fire(source: str) -> None:
    assert P.lookup_table_candidates(source) == []


def test_field_readback_through_a_variable() -> None:
    source = ("from dataclasses import dataclass\n@dataclass\nclass B:\n    name: str\n    created: list\n"
              "def g():\n    b = B('x', [3])\n    b.created.append(4)\n    print(b.created)\ng()\n")
    [candidate] = P.field_readback_candidates(source)
    assert "    b = [3]\n    b.append(4)\n    print(b)\n" in candidate
    assert output_of(candidate) == output_of(source)


CONFIG_RECORD = '''from dataclasses import dataclass

@dataclass
class Config:
    dim: int = 8
    scale: float = -0.5
    name: str = "enc"
    sizes: tuple = (2, 3)

cfg = Config(dim=16)

def build():
    return [cfg.dim * 2, cfg.scale.hex(), cfg.sizes[0]]

print(build(), cfg.name, [cfg for cfg in "ab"])
'''


def test_field_readback_of_a_configuration_record() -> None:
    # several fields read: each holding a literal (an argument or the class's default) is read as that literal
    [candidate] = P.field_readback_candidates(CONFIG_RECORD)
    assert "return [16 * 2, (-0.5).hex(), (2, 3)[0]]" in candidate
    assert 'print(build(), "enc", [cfg for cfg in "ab"])' in candidate
    assert output_of(candidate) == output_of(CONFIG_RECORD)
    # a computed argument's field stays a read (where it was computed is where the value comes from)
    computed = CONFIG_RECORD.replace("Config(dim=16)", "Config(dim=len('abc'))")
    [candidate] = P.field_readback_candidates(computed)
    assert "return [cfg.dim * 2, (-0.5).hex(), (2, 3)[0]]" in candidate
    assert output_of(candidate) == output_of(computed)


@pytest.mark.parametrize("source", [
    # a method read (it may change a field), a field read before the binding
    CONFIG_RECORD.replace("    sizes: tuple = (2, 3)\n", "    sizes: tuple = (2, 3)\n\n    def grow(self):\n"
                          "        self.dim += 1\n").replace("print(build()", "cfg.grow()\nprint(build()"),
    "from dataclasses import dataclass\n@dataclass\nclass B:\n    a: int = 1\n    b: int = 2\n"
    "try:\n    print(x.a)\nexcept NameError:\n    pass\nx = B()\nprint(x.a, x.b)\n",
])
def test_field_readback_of_a_configuration_record_does_not_fire(source: str) -> None:
    assert P.field_readback_candidates(source) == []


@pytest.mark.parametrize("source", [
    # the instance passed on; a field set; the name rebound
    "from dataclasses import dataclass\n@dataclass\nclass B:\n    a: int\nx = B(1)\nprint(x.a, x)\n",
    "from dataclasses import dataclass\n@dataclass\nclass B:\n    a: int\nx = B(1)\nx.a = 2\nprint(x.a)\n",
    "from dataclasses import dataclass\n@dataclass\nclass B:\n    a: int\nx = B(1)\nprint(x.a)\nx = B(2)\nprint(x.a)\n",
])
def test_field_readback_through_a_variable_does_not_fire(source: str) -> None:
    assert P.field_readback_candidates(source) == []


# --------------------------------------------------------------------------- unused-fields
TASKS = '''from dataclasses import dataclass


@dataclass
class Task:
    id: int
    title: str
    due: int
    done: bool = False


def overdue(tasks: list[Task], now: int) -> list[Task]:
    return [t for t in tasks if not t.done and t.due < now]


rows = [(1, "rota", 5, False), (2, "backup", 9, True), (3, "report".replace("r", "R"), 2, False)]
tasks = [Task(i, title, due, done) for i, title, due, done in rows]
tasks.append(Task(4, "audit", due=1))
print(len(overdue(tasks, 6)), isinstance(tasks[0], Task))
'''


def test_unused_field_goes_with_its_arguments() -> None:
    got = P.unused_field_candidates(TASKS)
    assert len(got) == 2  # .id and .title are never read; .due and .done are
    without_id = got[0]
    assert "    id: int\n" not in without_id and "    title: str\n" in without_id
    assert "Task(title, due, done)" in without_id and 'Task("audit", due=1)' in without_id
    assert 'Task(i, due, done)' in got[1] and 'Task(4, due=1)' in got[1]
    for candidate in got:
        assert output_of(candidate) == output_of(TASKS)


@pytest.mark.parametrize("source", [
    TASKS.replace("print(len(", "print(tasks[0].id, len("),  # read somewhere: .id stays (and .title too, below)
    TASKS.replace("from dataclasses import dataclass", "from dataclasses import asdict, dataclass")
    + "print(asdict(tasks[0]))\n",  # every field listed by name
    TASKS + "print(getattr(tasks[0], 'title'))\n",
    TASKS + "import dataclasses\nprint(dataclasses.astuple(tasks[0]))\n",
    TASKS + "print(tasks[0].__dict__)\n",
    TASKS + "make = Task\n",  # the class used as a value: constructions not all seen
    TASKS + "extra = Task(*rows[0])\n",  # arguments unpacked
    TASKS.replace("@dataclass\n", ""),  # not a dataclass: HDD and unused-params handle plain classes
    TASKS.replace("@dataclass\n", "@dataclass\n@register\n"),  # another decorator may read the fields
    TASKS + "match tasks[0]:\n    case Task(a, b):\n        print(b)\n",  # fields matched by position
])
def test_unused_field_does_not_fire(source: str) -> None:
    got = P.unused_field_candidates(source)
    if "tasks[0].id" in source:
        assert all("    id: int\n" in c for c in got) and len(got) == 1  # only .title goes
    else:
        assert got == []


# --------------------------------------------------------------------------- argparse-defaults
CLI = '''import argparse

parser = argparse.ArgumentParser(description="reminders")
parser.add_argument("--as-of", default="2026-11-27 09:00", help="reference time")
parser.add_argument("-v", "--verbose", action="store_true")
parser.add_argument("--limit", type=int, default="3")
parser.add_argument("--scale", default=-2)
args = parser.parse_args()
print(args.as_of.split()[0], args.verbose, args.limit, args.scale * 2, args.scale.bit_length())
'''


def test_argparse_default_is_read_back(monkeypatch) -> None:
    monkeypatch.setattr("sys.argv", ["cli.py"])  # the run the reducer makes: no arguments
    got = P.argparse_default_candidates(CLI)
    assert len(got) == 3  # --limit has a type and a string default: its read stays
    assert '"2026-11-27 09:00".split()[0]' in got[0]
    assert "print(args.as_of.split()[0], False," in got[1]
    assert "(-2) * 2, (-2).bit_length())" in got[2]
    for candidate in got:
        assert output_of(candidate) == output_of(CLI)


@pytest.mark.parametrize("source", [
    CLI.replace("args = parser.parse_args()", "args = parser.parse_args(['--as-of', 'x'])"),  # given arguments
    CLI.replace("args = parser.parse_args()", "args, _ = parser.parse_known_args()"),
    CLI + "run(args)\n",  # the namespace passed on: read elsewhere under another name
    CLI + "parser.set_defaults(scale=5)\n",
    CLI + "args = None\n",  # the namespace bound twice
    CLI.replace('parser.add_argument("-v"', 'parser.add_argument(*FLAGS)\nparser.add_argument("-v"'),
])
def test_argparse_default_does_not_fire(source: str) -> None:
    assert P.argparse_default_candidates(source) == []


MOVED = '''import argparse
import os
import tempfile
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("--probe", default=os.path.join(tempfile.gettempdir(), "probe.csv"))
parser.add_argument("--cache", default=Path.home() / "cache")
parser.add_argument("--workers", default=os.environ.get("WORKERS", "2"))
args = parser.parse_args()
print(args.probe, args.cache, args.workers)
'''


def test_argparse_default_computed_from_imported_modules_is_read_back(monkeypatch) -> None:
    """A default computed from imported modules only is computed where the option is read, the same way."""
    monkeypatch.setattr("sys.argv", ["cli.py"])
    got = P.argparse_default_candidates(MOVED)
    assert len(got) == 3
    assert "print(os.path.join(tempfile.gettempdir(), \"probe.csv\"), args.cache" in got[0]
    assert "(Path.home() / \"cache\")" in got[1]
    for candidate in got:
        assert output_of(candidate) == output_of(MOVED)


@pytest.mark.parametrize("default", [
    "make_path()",  # a function of the script's: it may read state the script changes in between
    "os.path.join(base, 'x')",  # a variable of the script's
    "[tempfile.gettempdir() for _ in 'a'][0]",  # a comprehension
    "(lambda: 1)()",
])
def test_argparse_default_computed_otherwise_stays(default: str) -> None:
    source = MOVED.replace('default=Path.home() / "cache"', f"default={default}")
    got = P.argparse_default_candidates(source)
    assert len(got) == 2 and all(default not in c.split("args = parser.parse_args()")[1] for c in got)


def test_argparse_typed_option_with_a_non_string_default_is_read_back(monkeypatch) -> None:
    # argparse converts a string default only: ``type=int, default=10`` is 10, ``default="3"`` is 3
    monkeypatch.setattr("sys.argv", ["cli.py"])
    source = ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--batch", type=int, default=10)\n'
              'p.add_argument("--lr", type=float, default=-0.5)\np.add_argument("--limit", type=int, default="3")\n'
              'p.add_argument("--seed", type=int)\nargs = p.parse_args()\n'
              'print(args.batch, args.lr, args.limit, args.seed)\n')
    got = P.argparse_default_candidates(source)
    assert [c.splitlines()[-1] for c in got] == ["print(10, args.lr, args.limit, args.seed)",
                                                  "print(args.batch, (-0.5), args.limit, args.seed)",
                                                  "print(args.batch, args.lr, args.limit, None)"]
    for candidate in got:
        assert output_of(candidate) == output_of(source)


def test_argparse_parser_named_like_a_comprehension_target(monkeypatch) -> None:
    # ``p`` the parser and ``p`` a comprehension's (or a function's) own variable are two bindings
    monkeypatch.setattr("sys.argv", ["cli.py"])
    source = ('import argparse\np = argparse.ArgumentParser()\np.add_argument("--n", default=3)\n'
              'args = p.parse_args()\ndef f(args):\n    return args.n + 1\n'
              'print({k: p.real for k, p in [("a", 2)]}, args.n, f(argparse.Namespace(n=5)))\n')
    [candidate] = P.argparse_default_candidates(source)
    assert candidate.splitlines()[-1] == 'print({k: p.real for k, p in [("a", 2)]}, 3, f(argparse.Namespace(n=5)))'
    assert output_of(candidate) == output_of(source)
    # a ``global`` store in a function binds the module's name a second time
    rebound = source + "def g():\n    global p\n    p = None\n"
    assert P.argparse_default_candidates(rebound) == []


def test_argparse_option_with_a_type_or_positional_is_left_alone() -> None:
    source = ('import argparse\nparser = argparse.ArgumentParser()\nparser.add_argument("path")\n'
              'parser.add_argument("--n", nargs="+", default=[1])\nargs = parser.parse_args()\nprint(args.path, args.n)\n')
    assert P.argparse_default_candidates(source) == []


# --------------------------------------------------------------------------- global-args
CONFIGURED = '''from dataclasses import dataclass

@dataclass
class PoolConfig:
    dim: int = 8
    out_dim: int = 3
    seed: int = 7

class Encoder:
    def __init__(self, config, scale):
        self.w = [config.dim] * config.out_dim
        self.scale = scale

def run(model, cfg, k=0):
    return [x * model.scale + k for x in model.w], cfg.seed, [cfg for cfg in "a"]

cfg = PoolConfig()
enc = Encoder(cfg, 2)
print(run(enc, cfg), run(enc, cfg=cfg, k=1))
'''


def test_global_argument_is_read_where_the_parameter_was() -> None:
    got = P.global_argument_candidates(CONFIGURED)
    assert len(got) == 3  # Encoder's config, run's model and cfg (scale and k: not a name, two values)
    assert "    def __init__(self, scale):\n        self.w = [cfg.dim] * cfg.out_dim\n" in got[0]
    assert "enc = Encoder(2)\n" in got[0]
    assert "def run(cfg, k=0):\n    return [x * enc.scale + k for x in enc.w]" in got[1]
    assert "print(run(cfg), run(cfg=cfg, k=1))" in got[1]
    assert "def run(model, k=0):\n    return [x * model.scale + k for x in model.w], cfg.seed, [cfg for cfg in" in got[2]
    for candidate in got:
        assert output_of(candidate) == output_of(CONFIGURED)
    # then the configuration is read only as fields: each becomes its literal
    both = P.global_argument_candidates(P.global_argument_candidates(got[0])[1])[0]
    [literal] = P.field_readback_candidates(both)
    assert "self.w = [8] * 3" in literal and "], 7, [cfg" in literal
    assert output_of(literal) == output_of(CONFIGURED)


@pytest.mark.parametrize("source", [
    # different names passed; a local passed; the global rebound; the name bound in the function (or a scope in
    # it) where the parameter is read; the function passed on; a subclassed class; the parameter rebound
    "a, b = 1, 2\ndef f(x):\n    return x + 1\nprint(f(a), f(b))\n",
    "a = 1\ndef g():\n    a = 5\n    return f(a)\ndef f(x):\n    return x + 1\nprint(f(a), g())\n",
    "a = 1\ndef f(x):\n    return x + 1\nprint(f(a))\na = 2\nprint(f(a))\n",
    "a = 1\ndef f(x):\n    a = 3\n    return x + a\nprint(f(a))\n",
    "a = 1\ndef f(x):\n    return [x + a for a in (5,)]\nprint(f(a))\n",
    "a = 1\ndef f(x):\n    return x + 1\nprint(f(a), list(map(f, [2])))\n",
    "a = 1\nclass B:\n    def __init__(self, x):\n        self.x = x\nclass C(B):\n    pass\nprint(B(a).x, C(2).x)\n",
    "a = 1\ndef f(x):\n    x = x + 1\n    return x\nprint(f(a))\n",
    # bound in a loop: a closure the function returns keeps the value of its call, the name moves on
    "def f(x):\n    return lambda: x\nfs = []\nfor a in (1, 2):\n    fs.append(f(a))\nprint([g() for g in fs])\n",
])
def test_global_argument_does_not_fire(source: str) -> None:
    assert P.global_argument_candidates(source) == []
