"""A failure the script raised behind a condition keeps its condition (issue 38.5): the guard and the values
that made it true are the cause; ``if len(key) > 24: raise ValueError(...)`` never becomes a bare ``raise``."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reportkit.reduce.guards import (
    attribute_screen,
    guarded_failure,
    guarded_site,
    keyword_screen,
    member_screen,
    named_attributes,
    named_keywords,
    pointed_lines,
    reads_a_value,
)


def _line(source: str, needle: str) -> int:
    return next(i for i, text in enumerate(source.splitlines(), 1) if needle in text)


@pytest.mark.parametrize("source, guarded", [
    ("if len(key) > 24:\n    raise ValueError('long')\n", True),
    ("if x:\n    pass\nelse:\n    raise ValueError('long')\n", True),
    ("while queue.pending():\n    raise RuntimeError('long')\n", True),
    ("try:\n    int(s)\nexcept ValueError:\n    raise SystemExit('long')\n", True),
    ("assert total == 3, 'long'\n", True),
    ("if cfg['strict']:\n    if True:\n        raise ValueError('long')\n", True),
    # unconditional: the failure no longer depends on anything the program computed
    ("raise ValueError('long')\n", False),
    ("if True:\n    raise ValueError('long')\n", False),
    ("if 1 > 0:\n    raise ValueError('long')\n", False),
    ("assert 2 == 3, 'long'\n", False),
    # the guard must be in the raise's own function: a guarded call of a function that raises is not it
    ("def check():\n    raise ValueError('long')\nif key:\n    check()\n", False),
    ("print('long')\n", False),
    ("raise ValueError('long'\n", False),  # does not parse
])
def test_guarded_failure(source, guarded):
    assert guarded_failure(source, _line(source, "long")) is guarded


def test_reads_a_value():
    import ast
    assert reads_a_value(ast.parse("len(k) > 24", mode="eval").body)
    assert not reads_a_value(ast.parse("not None", mode="eval").body)


SCRIPT = '''
import json

CONFIG = {"signer": "legacy", "key": "k" * 30, "rounds": 3, "name": "prod"}


def load_key(cfg):
    return cfg["key"].strip()


def sign(cfg, payload):
    key = load_key(cfg)
    if cfg["signer"] == "legacy":
        if len(key) > 24:
            raise ValueError("legacy signer accepts keys of at most 24 characters")
    return f"{cfg['name']}:{sum(map(ord, key + payload)) % 997}"


for i in range(CONFIG["rounds"]):
    print(sign(CONFIG, json.dumps({"n": i})))
'''


def test_minimize_keeps_the_condition_of_a_guarded_raise(tmp_path):
    """The reproducer still raises behind a condition that reads a value (today's result before the fix
    was the single line ``raise ValueError(...)``), and it fails the same way on its own."""
    script = tmp_path / "sign.py"
    script.write_text(textwrap.dedent(SCRIPT))
    done = subprocess.run([sys.executable, "-m", "reportkit", "minimize", str(script), "--timeout", "30"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    result = (tmp_path / "sign.min.py").read_text()
    raise_line = _line(result, "raise ValueError")
    assert guarded_failure(result, raise_line), result
    assert "condition it was raised under stays" in done.stdout
    alone = subprocess.run([sys.executable, "sign.min.py"], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert "ValueError: legacy signer accepts keys of at most 24 characters" in alone.stderr


@pytest.mark.parametrize("source, message, expected", [
    ("op.register_autograd(bw, setup_context=setup)\n",
     "it must override the setup_context staticmethod. See notes/extending.func.html", ("setup_context",)),
    ("F.sdpa(q, k, v, attn_mask=m, dropout_p=0.1)\n", "Expected attn_mask dtype to be bool", ("attn_mask",)),
    # English words and names the script does not pass as a keyword are not kept
    ("torch.zeros(2, dtype=torch.long, device=d)\n", "expected scalar type Long but found Float on device", ()),
    ("f(setup_context)\n", "must override the setup_context staticmethod", ()),
    ("f(a_b=1)\n", "see torch.a_b or a_b() or x.a_b", ()),  # an attribute or a call of that name is not it
])
def test_named_keywords(source, message, expected):
    assert named_keywords(source, message) == expected


def test_keyword_screen():
    screen = keyword_screen(("setup_context",))
    assert screen("op.register(bw, setup_context = s)\n") is None
    assert "setup_context=" in screen("op.register(bw)\nif setup_context == 1: pass\n")
    assert keyword_screen(()) is None


@pytest.mark.parametrize("source, message, expected", [
    ('p = Parameter(x)\np.baz = "qux"\nprint(deepcopy(p).baz)\n', "'Parameter' object has no attribute 'baz'", ("baz",)),
    ("m = script(M())\nm.extra_attr = Attribute(0, int)\nfreeze(m)\n", "Unknown name: extra_attr", ("extra_attr",)),
    ('setattr(cfg, "depth", 2)\nbuild(cfg)\n', "config has no attribute `depth`", ("depth",)),
    ("class M:\n    def __init__(self):\n        self.n: int = 0\n        self.n += 1\n", "'M' object has no attribute 'n'", ("n",)),
    # defined in a class body: a property that raised inside (nn.Module.__getattr__ says the property is missing),
    # a method, a class attribute
    ("class M(nn.Module):\n    @property\n    def inner(self):\n        return OPT.name\nM().inner\n",
     "'M' object has no attribute 'inner'", ("inner",)),
    ("class C:\n    size = 2\n    def run(self): pass\n", "no attribute 'size' or 'run'", ("run", "size")),
    # the message names the type that lacks it: only what the script sets on that type counts
    ("class M(nn.Module):\n    def __init__(self):\n        self.fc1 = nn.Linear(2, 2)\n",
     "'Tensor (inferred)' object has no attribute or method 'fc1'.", ()),
    ("class M(nn.Module):\n    def __init__(self):\n        self.fc1 = nn.Linear(2, 2)\n",
     "'M' object has no attribute 'fc1'", ("fc1",)),
    ("class M:\n    def f(self):\n        self.fc1 = 1\nt.fc1 = 2\n", "'torch.Tensor' object has no attribute 'fc1'", ("fc1",)),
    ("class M:\n    fc1 = 1\nclass N:\n    pass\n", "'N' object has no attribute 'fc1'", ()),
    # a name the script only reads, or binds as a variable, or a quoted word the script never sets: not kept
    ("print(p.baz)\n", "'Parameter' object has no attribute 'baz'", ()),
    ("baz = 1\nprint(p.baz)\n", "'Parameter' object has no attribute 'baz'", ()),
    ("p.grad = None\n", "'NoneType' object has no attribute 'shape'", ()),
    ("p.baz = 1\n", "", ()),
    ("class M:\n    def __init__(self):\n        self.baz: int\n", "'M' object has no attribute 'baz'", ()),
])
def test_named_attributes(source, message, expected):
    assert named_attributes(source, message) == expected


def test_a_key_error_names_no_attribute():
    source = "class Item:\n    sku: str = ''\nrow = {}\nrow['sku']\n"
    assert named_attributes(source, "'sku'") == ("sku",)
    assert named_attributes(source, "'sku'", "KeyError") == ()
    assert named_attributes("class Item:\n    sku: str\n", "'sku'") == ()  # a bare annotation sets nothing


def test_attribute_screen():
    screen = attribute_screen(("baz", "extra_attr"))
    assert screen('p.baz = "q"\nm.extra_attr = 0\n') is None
    assert screen('p.baz: str = "q"\nsetattr(m, "extra_attr", 0)\n') is None
    assert screen("p.baz += 1\nm.extra_attr |= 2\n") is None
    assert "(.extra_attr)" in screen('p.baz = "q"\nif m.extra_attr == 0: pass\n')
    assert "(.baz, .extra_attr)" in screen("print(p.baz, baz_x)\n")
    assert screen("class M:\n    @property\n    def baz(self): pass\n    extra_attr: int = 0\n") is None
    assert "(.baz)" in screen("def baz(): pass\nm.extra_attr = 0\nbaz = 1\n")  # not in a class body
    # stored in a tuple or a loop, the original's own ways: still set; a bare annotation sets nothing
    assert screen("p.baz, m.extra_attr = 1, 2\n") is None
    assert screen("for p.baz in xs:\n    m.extra_attr: int = 0\n") is None
    assert "(.baz)" in screen("p.baz: int\nm.extra_attr = 0\n")
    assert attribute_screen(()) is None


ATTRIBUTE_SCRIPT = '''
import copy


class Param:
    def __init__(self, data):
        self.data = data

    def __deepcopy__(self, memo):
        return Param(copy.deepcopy(self.data, memo))  # the bug: the instance's other attributes are dropped


weights = Param([0.5, 0.25, 0.125])
weights.label = "encoder.weight"
saved = copy.deepcopy(weights)
print(len(saved.data))
print(saved.label)
'''


KEYWORD_SCRIPT = '''
class Op:
    def __init__(self, name):
        self.name = name
        self.backward = None
        self.setup = None

    def register_autograd(self, backward, setup_context=None):
        self.backward = backward  # the bug: setup_context is dropped

    def jacrev(self):
        if self.setup is None:
            raise RuntimeError(f"{self.name} must override the setup_context staticmethod")
        return self.backward


op = Op("mylib::solve")
op.register_autograd(lambda ctx, g: g * 2, setup_context=lambda ctx, inputs, output: None)
print(op.jacrev())
'''


@pytest.mark.parametrize("name, script, kept, keeps", [
    # the message says what the op lacks; the script gave it: the call that passes ``setup_context=`` stays
    # (without it the same message comes from an op that was never given one, another program; before the fix
    # the result had no ``register_autograd`` call)
    ("op.py", KEYWORD_SCRIPT, ("register_autograd(", "setup_context="),
     "the keyword arguments the message names stay (setup_context=)"),
    # the message names an attribute the script set; a copy lost it: the assignment stays, and so the copy
    # (without it, ``Param([…]).label`` fails with the same words for that alone: another program)
    ("copy_param.py", ATTRIBUTE_SCRIPT, (".label = ", "deepcopy("), "the attributes the message names stay set (.label)"),
])
def test_minimize_keeps_what_the_message_names(tmp_path, name, script, kept, keeps):
    (tmp_path / name).write_text(script)
    done = subprocess.run([sys.executable, "-m", "reportkit", "minimize", name, "--timeout", "30"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    result = (tmp_path / name.replace(".py", ".min.py")).read_text()
    assert all(k in result for k in kept), result
    assert keeps in done.stdout


# --- a source compiler's diagnostic points at a statement under a condition (r06-09: TorchScript) ---------

#: TorchScript's report on torch 2.13.0 (abridged: the overloads it tried), as raised for a module whose
#: ``forward`` adds an attribute annotated ``torch.Tensor | None`` under ``if self.bias is not None:``.
TORCHSCRIPT_MESSAGE = '''
Arguments for call are not valid.
The following variants are available:

  aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor:
  Expected a value of type 'Tensor' for argument 'other' but instead found type 'Optional[Tensor]'.

The original call is:
  File "{path}", line {line}
    def forward(self, input):
        if self.bias is not None:
            return input + self.bias
                   ~~~~~~~~~~~~~~~~~ <--- HERE
        else:
            return input
'''


@pytest.mark.parametrize("message, expected", [
    (TORCHSCRIPT_MESSAGE.format(path="/w/m.py", line=15), (15,)),
    (TORCHSCRIPT_MESSAGE.format(path="/w/other.py", line=15), ()),  # another file's source
    # a traceback printed into a message names lines that ran, not source a compiler rejected: no mark
    ('from user code:\n   File "/w/m.py", line 7, in forward\n    return x + 1\n', ()),
    # the mark belongs to the reference before it, not to an earlier one
    ('File "/w/m.py", line 3\n    f(x)\nFile "/w/lib.py", line 9\n    g(x)\n    ~~~ <--- HERE\n', ()),
    ('File "/w/m.py", line 3\n  ~ <--- HERE\n' + TORCHSCRIPT_MESSAGE.format(path="/w/m.py", line=15), (3, 15)),
])
def test_pointed_lines(message, expected):
    assert pointed_lines(message, "/w/m.py") == expected


@pytest.mark.parametrize("source, guarded", [
    ("if b is not None:\n    y = x + b  # site\n", True),
    ("def f(x, b):\n    if b is not None:\n        return x + b  # site\n    return x\n", True),
    ("y = x + b  # site\n", False),
    ("if True:\n    y = x + b  # site\n", False),
    ("if b:\n    def f(x):\n        return x + b  # site\n", False),  # the guard must be in its own function
    ("y = (x +\n  b)  # site\n", False),
])
def test_guarded_site(source, guarded):
    assert guarded_site(source, _line(source, "site")) is guarded


#: A stand-in for a source compiler, outside the script's directory (library code): it reads the source of
#: the class it is given and rejects the statement that adds ``self.bias``, the way TorchScript does.
FAKE_COMPILER = '''
import inspect


def compile_module(obj):
    path = inspect.getsourcefile(type(obj))
    lines, first = inspect.getsourcelines(type(obj))
    for offset, text in enumerate(lines):
        if "+ self.bias" in text:
            raise RuntimeError(
                "Arguments for call are not valid.\\nThe original call is:\\n"
                f'  File "{path}", line {first + offset}\\n{text}    ~~~~~~~~~ <--- HERE\\n')
'''

GUARDED_MODULE = '''
import sys
sys.path.insert(0, {site!r})
import fakejit


class M:
    def __init__(self, bias):
        self.bias = bias

    def forward(self, x):
        if self.bias is not None:
            return x + self.bias
        return x


fakejit.compile_module(M(1.0))
'''


def test_a_compilers_diagnostic_keeps_the_condition_around_the_statement_it_rejected(tmp_path):
    """The failure is raised by library code, but the message points at a statement of the script under
    ``if self.bias is not None:``: the condition is kept, a candidate without it is not the bug."""
    import reportkit.reduce.minimize as mz
    from reportkit.failure.check import Outcome, establish
    from reportkit.failure.signature import MatchPolicy, signature_of
    from reportkit.run.runner import run_script
    from reportkit.run.spec import RunSpec

    site = tmp_path / "site"
    site.mkdir()
    (site / "fakejit.py").write_text(FAKE_COMPILER)
    project = tmp_path / "project"
    project.mkdir()
    code = GUARDED_MODULE.format(site=str(site))
    script = project / "m.py"
    script.write_text(code)
    spec = RunSpec(script=script, python=sys.executable, timeout=60)
    rep = establish(spec, MatchPolicy(), runs=1)
    keep = mz.what_to_keep(rep, spec, MatchPolicy())
    assert keep.guarded and "the condition around the statement the compiler rejected stays" in keep.why
    assert keep.kept(Outcome(result=rep.results[0], signature=rep.signature, ok=True), code)

    bare = code.replace("        if self.bias is not None:\n            return x + self.bias\n        return x\n",
                        "        return x + self.bias\n")
    assert bare != code
    result = run_script(spec, bare)
    assert signature_of(result).message == rep.signature.message  # the same failure, by its words ...
    assert not keep.kept(Outcome(result=result, signature=signature_of(result), ok=True), bare)  # ... unguarded

    # the script's own code raising a plain library error is not a compiler's diagnostic: nothing kept
    plain = project / "plain.py"
    plain.write_text("import json\nif len('ab') > 1:\n    json.loads('{')\n")
    spec2 = RunSpec(script=plain, python=sys.executable, timeout=60)
    assert not mz.what_to_keep(establish(spec2, MatchPolicy(), runs=1), spec2, MatchPolicy()).guarded


@pytest.mark.torch
def test_torchscript_diagnostics_point_at_the_rejected_statement(tmp_path):
    """TorchScript's own report (torch as installed) has the form :func:`pointed_lines` reads."""
    pytest.importorskip("torch")
    from reportkit.run.runner import run_script
    from reportkit.run.spec import RunSpec

    # (the corpus's hand-written minimal of pytorch/pytorch#143258)
    minimal = Path(__file__).resolve().parents[1] / "benchmarks" / "corpus" / \
        "r06-09-torchscript-optional-tensor-attr" / "minimal.py"
    script = tmp_path / "m.py"
    script.write_text(minimal.read_text())
    result = run_script(RunSpec(script=script, python=sys.executable, timeout=120))
    assert result.exception is not None, result.stderr
    assert pointed_lines(result.exception.message, result.script_path) == (_line(script.read_text(), "+ self.bias"),)


STATIC = """import torch


class Codec(object):
    LIMIT = 3

    def __init__(self):
        super().__init__()

    @staticmethod
    def decode(x):
        return x + 1


@torch.jit.script
def g(x):
    return Codec.decode(x) + Codec.LIMIT
"""


@pytest.mark.parametrize("edit, why", [
    (("", ""), None),  # the original
    (("    @staticmethod\n    def decode(x):\n        return x + 1\n", ""), "Codec.decode"),  # deleted, still read
    (("    LIMIT = 3\n", ""), "Codec.LIMIT"),
    (("    LIMIT = 3\n", "    LIMIT: int\n"), "Codec.LIMIT"),  # annotated only: unset
    (("Codec.decode(x) + Codec.LIMIT", "Codec.LIMIT"), None),  # the read deleted
    (("    @staticmethod\n    def decode(x):\n        return x + 1\n", "    def decode(self):\n        pass\n"), None),
    (("class Codec(object):", "class Other(object):"), None),  # the class gone: a NameError's business
])
def test_member_screen(edit, why):
    """Held-out r18-03 (pytorch #64628): a static method deleted from the class while a call of it stays."""
    screen = member_screen(STATIC)
    result = screen(STATIC.replace(*edit) if edit[0] else STATIC)
    assert (result is None) if why is None else (why in result)


def test_member_screen_needs_a_read_member():
    assert member_screen("class B:\n    x = 1\nb = B()\nprint(b.x)\n") is None
    assert member_screen("import enum\nprint(enum.Enum.x)\n") is None
    assert member_screen("def f(:\n") is None
