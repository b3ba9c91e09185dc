"""Failure signatures: the same bug matches across sizes/addresses/paths; a different bug never does."""

from __future__ import annotations

import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from reportkit.errors import UserError
from reportkit.failure.check import establish, settled_waits
from reportkit.failure.signature import MatchPolicy, Normalizer, same_failure, signature_of
from reportkit.run.runner import run_script
from reportkit.run.spec import RunSpec


def sig_of(tmp_path: Path, code: str, name: str = "s.py", policy: MatchPolicy | None = None, timeout=20,
           files: dict[str, str] | None = None):
    d = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
    d.mkdir()
    for fname, text in (files or {}).items():
        (d / fname).write_text(textwrap.dedent(text))
    script = d / name
    script.write_text(textwrap.dedent(code))
    result = run_script(RunSpec(script=script, python=sys.executable, timeout=timeout))
    return signature_of(result, policy)


# ---------------------------------------------------------------- normalization


@pytest.mark.parametrize("raw, expected", [
    ("size mismatch: [512, 3] vs [256, 3]", "size mismatch: [N, N] vs [N, N]"),
    ("Could not run 'aten::_unique2' with arguments", "Could not run 'aten::_unique2' with arguments"),
    ("dtype torch.float16 expected", "dtype torch.float16 expected"),
    ("object at 0x7f3a2b1c4d90 is gone", "object at <hex> is gone"),
    ("cannot open /tmp/reportkit-session-ab12cd3x/reportkit-qzmbwxyd/run-hfqpwtra/work/data.bin",
     "cannot open <tmp>/work/data.bin"),
    ("cannot open /tmp/tmpk3j_x8a1", "cannot open <tmp>"),
    ("worker pid 48213 died", "worker pid N died"),
    ("lr=3.5e-4 failed", "lr=N failed"),
    ("mat1 and mat2 shapes cannot be multiplied (64x576 and 3136x128)",
     "mat1 and mat2 shapes cannot be multiplied (NxN and NxN)"),
    ("time data '2024-03-17T03:02:54Z' does not match", "time data 'N-N-NTN:N:NZ' does not match"),
    ("expected sm_80 on cuda:0", "expected sm_80 on cuda:N"),
    # a digest is one value, not digit runs made N among its letters (a drawn-looking token the edge then took)
    ('{"hashed_secret": "68d1c215b8097704eb3d0e7e0e6ba263a59d6ec8"}', '{"hashed_secret": "<hex>"}'),
    ("checksum 3F786850E387550F mismatch", "checksum <hex> mismatch"),
    ("x-amz-request-id: 72ffdd50-1c2b-4d3e-9f10-5a6b7c8d9e0f refused", "x-amz-request-id: <uuid> refused"),
    ("deadbeefcafebabe1 and 1234567890123456 and abcdefabcdefabcdef",  # (letters and digits both)
     "<hex> and N and abcdefabcdefabcdef"),
])
def test_normalizer_text(raw, expected):
    assert Normalizer().text(raw) == expected


@pytest.mark.parametrize("path, expected", [
    # the per-run part goes, the file name and the stable directories after it stay
    ("/tmp/rk-corpus-kqjxbmae/site/inflection/__init__.py", "<tmp>/site/inflection/__init__.py"),
    ("/tmp/rk-corpus-k3jx_ma0/site/inflection/__init__.py", "<tmp>/site/inflection/__init__.py"),
    ("/tmp/pytest-of-root/pytest-12/test_lib0/lib/mod.py", "<tmp>/lib/mod.py"),
    ("/tmp/tmpab12cd34/pkg/mod.py", "<tmp>/pkg/mod.py"),
    ("/private/var/folders/x1/ab_cd2/T/tmpab12cd34/mod.py", "<tmp>/mod.py"),
    ("/var/tmp/build/lib/mod.py", "<tmp>/build/lib/mod.py"),
    ("/tmp/x/conv2d.py", "<tmp>/x/conv2d.py"),
    # file names made for one run: tempfile's, a generated file's content hash
    ("/tmp/x/tmpk3j_x8a1.json", "<tmp>"),
    ("/tmp/x/batch_k3j8x1ab.pt", "<tmp>"),
    ("/tmp/torchinductor_root/ab/cabx7qkz3l2mw9pq4rs8tu1v.py", "<tmp>"),
])
def test_temp_paths_keep_the_file_and_a_stable_tail(path, expected):
    assert Normalizer().path(path) == expected
    assert Normalizer().text(f"error in {path}: bad") == f"error in {expected}: bad"


def test_library_files_under_tmp_are_told_apart(tmp_path):
    """Two libraries installed under a temp dir, the same function and line: not the same failure
    (all of /tmp used to collapse to ``<tmp>``); the same library from another scratch copy is."""
    lib = "def parse(text):\n    raise ValueError('cannot parse')\n"
    for copy in ("site-a", "site-b"):
        for name in ("alpha", "beta"):
            (tmp_path / copy / name).mkdir(parents=True)
            (tmp_path / copy / name / "__init__.py").write_text(lib)
    sigs = {}
    for copy in ("site-a", "site-b"):
        for name in ("alpha", "beta"):
            script = tmp_path / f"use_{name}_{copy}" / "s.py"
            script.parent.mkdir()
            script.write_text(f"import {name}\n{name}.parse('x')\n")
            spec = RunSpec(script=script, python=sys.executable, timeout=20,
                           env={"PYTHONPATH": str(tmp_path / copy)})
            sigs[name, copy] = signature_of(run_script(spec))
    assert sigs["alpha", "site-a"].location.file.endswith("alpha/__init__.py")
    assert str(sigs["alpha", "site-a"].location).startswith("<tmp>/")
    assert not same_failure(sigs["alpha", "site-a"], sigs["beta", "site-a"])
    assert sigs["alpha", "site-a"].location.file == sigs["alpha", "site-b"].location.file.replace("site-b", "site-a")


def test_the_script_line_is_shown_as_written_and_compared_normalized(tmp_path):
    from reportkit.cli import _loc_line

    s1 = sig_of(tmp_path, "import json\n\nrows = json.loads('[1, 2')  # 2 rows\n")
    s2 = sig_of(tmp_path, "import json\nrows = json.loads('[7, 8')  # 2 rows\n")
    assert s1.script_frame.text == "rows = json.loads('[N, N') # N rows"  # what is compared
    assert s1.script_frame.source == s1.script_frame.shown == "rows = json.loads('[1, 2')  # 2 rows"
    assert same_failure(s1, s2)
    rows = dict(_loc_line(s1))
    assert rows["in script"] == "s.py:3 in <module>: rows = json.loads('[1, 2')  # 2 rows"
    # raised by the script's own statement: the raising row shows it as written too
    s3 = sig_of(tmp_path, "for i in range(10):\n    assert i < 3, 'too big'\n")
    assert dict(_loc_line(s3))["raised at"] == "s.py:2 in <module>: assert i < 3, 'too big'"
    assert s3.location.text == "assert i < N, 'too big'"


def test_normalizer_home_dir_whole_component(monkeypatch):
    monkeypatch.setenv("HOME", "/home/ada")
    norm = Normalizer()
    assert norm.text("/home/ada/proj/x.py and /home/adam/y") == "~/proj/x.py and /home/adam/y"


def test_message_key_is_first_line():
    assert Normalizer().message_key("\n  first 12 line\nsecond line") == "first N line"


_SCHEMA = """
ctc_loss(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, str reduction="mean", bool zero_infinity=False) -> Tensor:
{how}
:
  File "repro.py", line 13
    res = torch.nn.functional.ctc_loss(log_probs=log_probs,
          ~~~~~~~~~~~~~~~~~~~~~~~~~~~~ <--- HERE
"""
_OVERLOADS = """
Arguments for call are not valid.
The following variants are available:

  aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor:
  Expected a value of type 'Tensor' for argument 'other' but instead found type '{found}'.

  aten::add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor:
  Expected a value of type 'number' for argument 'other' but instead found type '{found}'.
"""


def test_torchscripts_schema_mismatch_keeps_how_the_call_failed():
    """Held-out r09-02 (pytorch #121634, blind): ``ctc_loss``'s lengths as ``List[int]`` under ``torch.jit.script``;
    the message's first line is the schema, so ``input_lengths=0`` (another wrong type) and a missing argument failed
    "the same way". The line after the first schema is part of the key (also under "Arguments for call are not
    valid.", the overloads' title)."""
    norm = Normalizer()
    lists = "Expected a value of type 'Tensor' for argument 'input_lengths' but instead found type 'List[int]'."
    keys = {norm.message_key(_SCHEMA.format(how=how)) for how in (
        lists, lists.replace("List[int]", "int"), "Argument log_probs not provided.")}
    assert len(keys) == 3
    assert norm.message_key(_SCHEMA.format(how=lists)) == norm.message_key(_SCHEMA.format(how=lists).replace("line 13", "line 4"))
    assert norm.message_key(_OVERLOADS.format(found="str")) != norm.message_key(_OVERLOADS.format(found="List[int]"))
    assert "found type 'str'" in norm.message_key(_OVERLOADS.format(found="str"))


_VERSION_COUNTER = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
                    "[torch.FloatTensor [3]], which is output 0 of AsStrided, is at version 2; expected version 1 instead.")


@pytest.mark.parametrize("hint", [" Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
                                  "with torch.autograd.set_detect_anomaly(True, check_nan=False).",
                                  " Hint: the backtrace further above shows the operation that failed to compute its "
                                  "gradient. The variable in question was changed in there or anywhere later. Good luck!"])
def test_a_hint_after_the_failures_statement_is_no_part_of_the_key(hint):
    """Torch's advice after a message's statement follows the debug modes in force (anomaly mode changes it), not the
    failure: a held-out report (r08-01) kept its ``set_detect_anomaly(True)`` line only because the hint differed."""
    norm = Normalizer()
    assert norm.message_key(_VERSION_COUNTER + hint) == norm.message_key(_VERSION_COUNTER)
    assert norm.exact_key(_VERSION_COUNTER + hint) == norm.exact_key(_VERSION_COUNTER)
    assert norm.message_key("Hint: a message that is only a hint") == "Hint: a message that is only a hint"
    other = _VERSION_COUNTER.replace("inplace operation", "out-of-place operation")
    assert norm.message_key(other + hint) != norm.message_key(_VERSION_COUNTER + hint)


def _graph_break(what: str) -> str:
    """A message in the format of torch 2.13's ``torch._dynamo.exc.Unsupported``."""
    return (f"Unsupported context manager\n  Explanation: Dynamo does not know how to enter a `{what}` context manager.\n"
            "  Hint: Avoid using the unsupported context manager.\n\n"
            f"  Developer debug context: Attempted SETUP_WITH on UserDefinedObjectVariable({what}) at 0x7f00aa\n")


def test_an_address_pytest_shortened_is_normalized():
    """pytest's saferepr cuts a long repr in the middle (``<test_dicttoo...x7f1493370f90>``): the address's
    tail differs from run to run and is no part of the failure (held-out toolz suite: one bug, two issues)."""
    norm = Normalizer()
    a = "assert <test_dicttoolz.C object at 0x7f1493370f90> == <test_dicttoo...x7f1493370e90>"
    b = "assert <test_dicttoolz.C object at 0x7f00aa370f91> == <test_dicttoo...x7f00aa370e91>"
    assert norm.message_key(a) == norm.message_key(b)
    assert norm.exact_key(a) == norm.exact_key(b)
    assert "<test_dicttoo...<hex>>" in norm.exact_key(a)
    assert "<hex>" not in norm.exact_key("size ...abcdef12 left")  # no '>' after it: not an address


def test_message_key_keeps_a_graph_breaks_explanation():
    norm = Normalizer()
    lock, int_ = norm.message_key(_graph_break("lock")), norm.message_key(_graph_break("int"))
    assert lock == ("Unsupported context manager Explanation: Dynamo does not know how to enter a `lock` "
                    "context manager.")
    assert lock != int_
    assert norm.exact_key(_graph_break("lock")) == lock
    # the hints and the debug context (object reprs, addresses) are not part of it
    assert "Hint" not in lock and "debug" not in lock
    # an "Explanation:" far down a long message (a log, a table) is not a graph break's
    far = "bad input\n" + "row\n" * 5 + "Explanation: none\n"
    assert norm.message_key(far) == "bad input"


# Messages as torch 2.13.0 prints them (torch.export of a dynamic dim; a compiler backend's failure;
# TorchScript's interpreter): a title many failures share, then the line that says which one.
_EXPORT_GUARD = """Constraints violated (dz)! For more information, run with TORCH_LOGS="+dynamic".
  - Not all values of dz = L['z'].size()[0] in the specified range satisfy the generated guard ((1 + L['z'].size()[0]) // 2) != 1.
Suggested fixes:
  _dz = Dim('_dz', max=oo)
"""
_EXPORT_CONSTANT = """Constraints violated (dz)! For more information, run with TORCH_LOGS="+dynamic".
  - You marked dz as dynamic but your code specialized it to be a constant (1). If you're using mark_dynamic, either remove it or use maybe_mark_dynamic.
Suggested fixes:
  dz = 1
"""
_BACKEND = """backend='inductor' raised:
{error}

Set TORCHDYNAMO_VERBOSE=1 for the internal stack trace (please do this especially if you're reporting a bug to PyTorch).
"""
_TORCHSCRIPT = """The following operation failed in the TorchScript interpreter.
Traceback of TorchScript (most recent call last):
  File "<string>", line 3, in f
        return torch.mm(x, x)
               ~~~~~~~~ <--- HERE
{error}
"""


def test_an_export_dim_specialized_to_0_or_1_is_another_cause_than_to_its_example():
    """A held-out report (r08-06: an LSTM's loop specializes the dynamic time dim to its example, 100): shrinking the
    input to size 1 made any forward, ``pass`` too, "specialized it to be a constant (1)", torch's 0/1
    specialization, which the digits made N hid. Other sizes stay one key (the example's size is no cause)."""
    norm = Normalizer()
    at = {n: norm.message_key(_EXPORT_CONSTANT.replace("(1)", f"({n})")) for n in (0, 1, 2, 7, 100)}
    assert at[100] == at[7] == at[2]
    assert len({at[0], at[1], at[100]}) == 3
    assert norm.exact_key(_EXPORT_CONSTANT).count("(1)") == 1  # the exact key keeps the number as raised


@pytest.mark.parametrize("same_title, other_cause, cause_line", [
    (_EXPORT_GUARD, _EXPORT_CONSTANT, "- Not all values of dz"),
    (_BACKEND.format(error="RuntimeError: Expected a 'cpu' device type for generator but found 'meta'"),
     _BACKEND.format(error="AssertionError: view of a graph input"), "RuntimeError: Expected a 'cpu' device"),
    (_TORCHSCRIPT.format(error="RuntimeError: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
     _TORCHSCRIPT.format(error="RuntimeError: expected scalar type Float but found Half"),
     "RuntimeError: mat1 and mat2 shapes"),
])
def test_message_key_of_a_generic_title_keeps_the_cause(same_title, other_cause, cause_line):
    """One title, two causes: the line that names the cause is part of the key (issue 38: a shrunk input
    turned an export's generated-guard violation into "specialized it to be a constant" with the same title)."""
    norm = Normalizer()
    key = norm.message_key(same_title)
    assert key.startswith(norm.text(same_title.splitlines()[0]) + " ")
    assert norm.text(cause_line) in key
    assert key != norm.message_key(other_cause)
    assert norm.exact_key(same_title) != norm.exact_key(other_cause)
    # the hints after the cause are not part of it
    assert "Suggested" not in key and "TORCHDYNAMO_VERBOSE" not in key and "HERE" not in key


def test_export_violations_with_one_title_and_other_causes_differ(tmp_path):
    """Raised by a library in torch.export's format: the first violated constraint decides."""
    lib = {"lib.py": """
        class UserError(Exception):
            pass

        def export(why):
            raise UserError('Constraints violated (dz)! For more information, run with TORCH_LOGS="+dynamic".\\n'
                            f'  - {why}\\nSuggested fixes:\\n  dz = 1')
        """}
    guard = sig_of(tmp_path, "import lib\nlib.export('dz fails the generated guard 2 <= dz')\n", files=lib)
    assert same_failure(guard, sig_of(tmp_path, "import lib\nlib.export('dz fails the generated guard 2 <= dz')\n",
                                      files=lib))
    assert not same_failure(guard, sig_of(tmp_path, "import lib\nlib.export('dz is a constant (1)')\n", files=lib))


def test_graph_breaks_with_one_title_and_other_explanations_differ(tmp_path):
    """Raised by a library with Dynamo's format: the explanation decides, the title alone does not."""
    lib = {"lib.py": """
        class Unsupported(Exception):
            pass

        def enter(what, n):
            raise Unsupported(f"Unsupported context manager\\n  Explanation: Dynamo does not know how to enter "
                              f"a `{what}` context manager.\\n  Hint: {n} hints")
        """}
    lock = sig_of(tmp_path, "import lib\nlib.enter('lock', 1)\n", files=lib)
    assert same_failure(lock, sig_of(tmp_path, "import lib\nlib.enter('lock', 7)\n", files=lib))
    assert not same_failure(lock, sig_of(tmp_path, "import lib\nlib.enter('int', 1)\n", files=lib))


@pytest.mark.slow
def test_a_real_graph_break_keeps_its_object(tmp_path):
    """torch.compile(fullgraph=True) on a ``with`` over a threading.Lock vs over an int: one title,
    two failures."""
    pytest.importorskip("torch")
    code = """
        import threading
        import torch
        guard = {}

        def f(x):
            with guard:
                return x + 1

        torch.compile(f, backend="eager", fullgraph=True)(torch.randn(2))
        """
    lock = sig_of(tmp_path, code.replace("{}", "threading.Lock()"), timeout=120)
    assert lock.exc_type == "torch._dynamo.exc.Unsupported" and "`lock`" in lock.message
    assert not same_failure(lock, sig_of(tmp_path, code.replace("{}", "threading.RLock()"), timeout=120))
    assert not same_failure(lock, sig_of(tmp_path, code.replace("{}", "0"), timeout=120))
    assert same_failure(lock, sig_of(tmp_path, code.replace("{}", "threading.Lock()").replace("x + 1", "x * 3"),
                                     timeout=120))


# ---------------------------------------------------------------- exceptions

SHAPE_BUG = """
    def check(a, b):
        if a != b:
            raise ValueError(f"size of tensor a ({a}) must match the size of tensor b ({b})")

    check({a}, {b})
"""


def test_same_bug_with_other_sizes_matches(tmp_path):
    s1 = sig_of(tmp_path, "from lib import check\ncheck(4, 8)\n",
                files={"lib.py": SHAPE_BUG.replace("check({a}, {b})", "")})
    s2 = sig_of(tmp_path, "from lib import check\nx = 1\ncheck(512, 3)\n",
                files={"lib.py": SHAPE_BUG.replace("check({a}, {b})", "")})
    assert s1.kind == "exception" and s1.exc_type == "ValueError"
    assert s1.location.file == "lib.py" and s1.location.function == "check"
    assert s1.message == "size of tensor a (N) must match the size of tensor b (N)"
    assert same_failure(s1, s2)


def test_addresses_and_paths_do_not_matter(tmp_path):
    code = "class A: pass\nimport tempfile\nraise RuntimeError(f'bad object {{A()!r}} in {{tempfile.mkdtemp()}}')\n"
    s1, s2 = sig_of(tmp_path, code.format()), sig_of(tmp_path, code.format())
    assert s1.raw_message != s2.raw_message
    assert same_failure(s1, s2)


def test_other_exception_type_does_not_match(tmp_path):
    s1 = sig_of(tmp_path, "d = {}\nd['k']\n")
    s2 = sig_of(tmp_path, "d = []\nd[3]\n")
    assert (s1.exc_type, s2.exc_type) == ("KeyError", "IndexError")
    assert not same_failure(s1, s2)


def test_other_raising_frame_does_not_match(tmp_path):
    lib = {"liba.py": "def f():\n    raise ValueError('bad value')\n",
           "libb.py": "def g():\n    raise ValueError('bad value')\n"}
    s1 = sig_of(tmp_path, "import liba\nliba.f()\n", files=lib)
    s2 = sig_of(tmp_path, "import libb\nlibb.g()\n", files=lib)
    assert s1.message == s2.message and s1.exc_type == s2.exc_type
    assert not same_failure(s1, s2)


def test_other_message_does_not_match(tmp_path):
    lib = {"lib.py": "def fail(msg):\n    raise ValueError(msg)\n"}
    s1 = sig_of(tmp_path, "import lib\nlib.fail('expected a tensor')\n", files=lib)
    s2 = sig_of(tmp_path, "import lib\nlib.fail('expected a module')\n", files=lib)
    assert s1.location == s2.location and s1.exc_type == s2.exc_type
    assert not same_failure(s1, s2)


def test_raise_in_script_is_identified_by_statement_not_line(tmp_path):
    s1 = sig_of(tmp_path, "x = 1\n\n\nassert x == 2, 'x must be 2'\n")
    s2 = sig_of(tmp_path, "x = 3\nassert x == 2, 'x must be 2'\n")
    s3 = sig_of(tmp_path, "x = 3\nassert x == 2 + 0, 'x must be 2'\n")
    assert s1.location.in_script and s1.location.text == "assert x == N, 'x must be N'"
    assert same_failure(s1, s2)
    assert not same_failure(s1, s3)  # another assert: slipping to it is a different failure


@pytest.mark.parametrize("a, b, same", [
    ("return d['k'] / n", "steps = d['k'] / n", True),  # a one-use function inlined
    ("x = d['k'] / n", "d['k'] / n", True),
    ("a, b = d['k'] / n", "out: float = d['k'] / n", True),
    ("with self._lock:", "with _lock:", True),  # a class built once turned into module code
    ("return self.todo.get()", "todo.get()", True),
    ("x = d['k'] / n", "x = d['k'] / m", False),
    ("x == d['k'] / n", "d['k'] / n", False),  # a comparison is not a target
    ("x += d['k'] / n", "d['k'] / n", False),  # nor an augmented assignment
    ("d[0] = f(n)", "f(n)", False),  # a subscript store can raise by itself
    ("assert x, 'm'", "x, 'm'", False),
    ("myself.lock()", "my.lock()", False),
])
def test_script_raise_site_is_what_the_statement_evaluates(a, b, same):
    from reportkit.failure.signature import Location, same_location
    la, lb = (Location(file="s.py", function="f", text=t, in_script=True) for t in (a, b))
    assert same_location(la, lb) is same


def test_inlined_function_fails_at_the_same_site(tmp_path):
    s1 = sig_of(tmp_path, "def steps(cfg):\n    return cfg['n'] / cfg['bs']\n\nsteps({'n': 5, 'bs': 0})\n")
    s2 = sig_of(tmp_path, "cfg = {'n': 5, 'bs': 0}\nresult = cfg['n'] / cfg['bs']\n")
    s3 = sig_of(tmp_path, "cfg = {'n': 5, 'bs': 0}\nresult = 1 / cfg['bs']\n")  # another division
    assert s1.exc_type == s2.exc_type == s3.exc_type == "ZeroDivisionError" and s1.message == s3.message
    assert same_failure(s1, s2)
    assert not same_failure(s1, s3)


@pytest.mark.parametrize("expr, site", [
    ("input_tensor[j].item()", "input_tensor[].item()"),
    ("input_tensor[0].item()", "input_tensor[].item()"),
    ("a[ind:ind2]", "a[]"),
    ("a[ind:(ind + len)]", "a[]"),
    ("torch.mm(a, b)", "torch.mm()"),
    ("cfg['n'] / cfg['bs']", "cfg[] Div cfg[]"),
    ("1 / cfg['bs']", "N Div cfg[]"),
    ("ch.retries", "ch.retries"),
    ("(lambda v: v)(x)", None),  # applied to no name: the statement is the site
    ("x if y else z", None),
    ("sum[i] += t[j]", None),  # a statement (an augmented store raised): not an expression
    ("", None),
])
def test_the_operation_site_keeps_what_an_operation_is_applied_to_not_its_values(expr, site):
    from reportkit.failure.signature import operation_site
    assert operation_site(expr) == site


@pytest.mark.parametrize("a, b, op, same", [
    # (statement, raising sub-expression) of the original and of a candidate
    (("s[i] += t[j, x[j].item(), i]", "x[j].item()"), ("s[0] += t[0, x[0].item(), 0]", "x[0].item()"), "CALL", True),
    (("return a[ind:ind2]", "a[ind:ind2]"), ("return a[ind:(ind + n)]", "a[ind:(ind + n)]"), "BINARY_SUBSCR", True),
    (("return a[ind:ind2]", "a[ind:ind2]"), ("return b[ind:ind2]", "b[ind:ind2]"), "BINARY_SUBSCR", False),
    (("y = x.item() + z.item()", "x.item()"), ("y = z.item()", "z.item()"), "CALL", False),  # another call
    (("raise E(f'{n} > 3')", "raise E(f'{n} > 3')"), ("raise E(f'{4} > 3')", "raise E(f'{4} > 3')"),
     "RAISE_VARARGS", False),  # the script's own raise: its statement is the site
    (("v = x.item()", "x.item()"), ("v = x.item()", ""), "CALL", True),  # the same statement
    (("v = f(x.item())", "x.item()"), ("v = g(x.item())", ""), "CALL", False),  # a candidate's unknown site
    # the same thing spelled through a longer dotted path (an import gathered into ``import torch``); not another
    (("class M(nn.Module[T]):", "nn.Module[T]"), ("class M(torch.nn.Module[T]):", "torch.nn.Module[T]"),
     "BINARY_SUBSCR", True),
    (("y = vmap(f)", "vmap(f)"), ("y = torch.func.vmap(f)", "torch.func.vmap(f)"), "CALL", True),
    (("y = m.x[0]", "m.x[0]"), ("y = n.x[0]", "n.x[0]"), "BINARY_SUBSCR", False),
    (("y = xmap(f)", "xmap(f)"), ("y = torch.func.vmap(f)", "torch.func.vmap(f)"), "CALL", False),
])
def test_a_script_frame_raising_in_the_same_operation_is_the_same_site(a, b, op, same):
    from reportkit.failure.signature import Location, same_location
    la, lb = (Location(file="s.py", function="f", text=t, in_script=True, op=op, expr=e) for t, e in (a, b))
    assert same_location(la, lb) is same
    assert same_location(lb, la) is same


def test_a_run_records_the_sub_expression_that_raised(tmp_path):
    """The boot reports the raising instruction's source (co_positions): a key lookup in a longer statement,
    across lines; a candidate that inlined the key and dropped the slice fails at the same operation."""
    s1 = sig_of(tmp_path, "cfg = {'a': [1, 2]}\nname = 'b'\ntotal = sum(\n    cfg[name][1:]) + 2\n")
    s2 = sig_of(tmp_path, "cfg = {}\nsum(cfg['b'])\n")
    s3 = sig_of(tmp_path, "cfg = {}\nother = {}\nsum(other['b'])\n")  # the same KeyError from another dict
    if sys.version_info < (3, 11):
        pytest.skip("co_positions is Python 3.11+")
    assert s1.location.expr == "cfg[name]" and s1.location.op == "BINARY_SUBSCR"
    assert s2.location.expr == "cfg['b']"
    assert same_failure(s1, s2) and same_failure(s2, s1)
    assert not same_failure(s1, s3)


def test_a_raise_in_a_project_module_matches_the_same_statement_in_a_reproducer(tmp_path):
    """The original raised in a module of its own project; the reproducer folded it into one script."""
    helper = {"helpers.py": "def attempts(ch):\n    return ch.retries + 1\n"}
    original = sig_of(tmp_path, "from helpers import attempts\nattempts(object())\n", files=helper)
    repro = sig_of(tmp_path, "ch = object()\nn = ch.retries + 1\n")
    other = sig_of(tmp_path, "ch = object()\nn = ch.retries * 2\n")  # the same error at another statement
    library = sig_of(tmp_path, "import string\nstring.Template('$x').substitute(x=object().retries)\n")
    assert not original.location.in_script and original.location.user_code
    assert original.location.file == "helpers.py" and repro.location.in_script
    assert same_failure(original, repro) and same_failure(repro, original)
    assert not same_failure(original, other)
    assert not same_failure(original, library)  # raised in the script at another statement


@pytest.mark.torch
def test_meta_ops_are_told_apart(tmp_path):
    pytest.importorskip("torch")
    base = "import torch\nx = torch.zeros({n}, dtype=torch.long, device='meta')\n"
    a = sig_of(tmp_path, base.format(n=5) + "torch.bincount(x)\n")
    a2 = sig_of(tmp_path, base.format(n=9) + "torch.bincount(x)\n")
    b = sig_of(tmp_path, base.format(n=5) + "torch.unique(x)\n")
    assert a.kind == b.kind == "exception"
    assert same_failure(a, a2)
    assert not same_failure(a, b)


# ---------------------------------------------------------------- hangs, exits, signals

HANG_QUEUE = "import queue\nprint('before')\nqueue.Queue().get()\n"
HANG_LOCK = "import threading\nlock = threading.Lock()\nlock.acquire()\nlock.acquire()\n"


def test_hangs_match_on_blocking_location(tmp_path):
    q1 = sig_of(tmp_path, HANG_QUEUE, timeout=1)
    q2 = sig_of(tmp_path, "import queue\nx = 5\nqueue.Queue().get()\n", timeout=1)
    lk = sig_of(tmp_path, HANG_LOCK, timeout=1)
    assert q1.kind == "hang" and q1.location.function == "wait" and q1.location.file == "threading.py"
    assert q1.script_frame.text == "queue.Queue().get()"
    assert same_failure(q1, q2)
    assert lk.kind == "hang" and not same_failure(q1, lk)


# The main thread waits for the stage's end marker; the stage either ended (on a marker it did not pass
# on) or is still blocked on its own input.
HANG_STAGE = """\
import queue, threading
inp, out = queue.Queue(), queue.Queue()
def stage():
    while True:
        item = inp.get()
        if item is None:
            return
        out.put(item)
threading.Thread(target=stage, daemon=True).start()
{feed}
out.get()
"""
HANG_HELD = """\
import threading
{lock} = threading.Lock()
def flush():
    with {lock}:
        pass
{lock}.acquire()
threading.Thread(target=flush, daemon=True).start()
threading.Event().wait()
"""


def test_a_hang_whose_other_threads_now_wait_elsewhere_is_another_hang(tmp_path):
    """The main thread waits in the same place, but a thread that had ended (or waited elsewhere) in the
    original now blocks in the script's code: a stage that hangs on its own input is not a stage that
    dropped the end marker."""
    ended = sig_of(tmp_path, HANG_STAGE.format(feed="inp.put(None)"), timeout=1)
    blocked = sig_of(tmp_path, HANG_STAGE.format(feed="pass"), timeout=1)
    assert ended.kind == blocked.kind == "hang" and ended.location == blocked.location
    assert ended.thread_waits == [] and blocked.thread_waits == ["queue.py in get"]
    assert not same_failure(ended, blocked)
    assert same_failure(blocked, ended)  # fewer waiting threads than the original: not a new wait
    # blocked on its own line (a lock's with): the statement, whatever the lock is called
    held = sig_of(tmp_path, HANG_HELD.format(lock="_lock"), timeout=1)
    renamed = sig_of(tmp_path, HANG_HELD.format(lock="guard"), timeout=1)
    assert held.thread_waits == renamed.thread_waits == ["with _ :"] and same_failure(held, renamed)
    assert not same_failure(ended, replace(ended, thread_waits=held.thread_waits))
    # a worker that now spins where it blocked (its get() gone, it retries forever) is in the script's code
    spin = "import queue, threading\nq = queue.Queue()\ndef work():\n    while True:\n        {body}\n" \
           "threading.Thread(target=work, daemon=True).start()\nthreading.Event().wait()\n"
    waiting, spinning = (sig_of(tmp_path, spin.format(body=b), timeout=1) for b in ("q.get()", "n = len('x')"))
    assert waiting.thread_waits == ["queue.py in get"] and spinning.thread_waits and not same_failure(waiting, spinning)
    # what any of the original's runs waited in is allowed (a stage caught before or after its input came)
    settled = settled_waits(ended, [ended, blocked])
    assert settled.thread_waits == ["queue.py in get"] and same_failure(settled, blocked)
    assert settled_waits(replace(ended, thread_waits=None), [ended, blocked]).thread_waits is None  # not compared


def test_exit_and_signal_kinds(tmp_path):
    e3 = sig_of(tmp_path, "import sys\nprint('error: disk full', file=sys.stderr)\nsys.exit(3)\n")
    e4 = sig_of(tmp_path, "import sys\nprint('error: disk full', file=sys.stderr)\nsys.exit(4)\n")
    assert e3.kind == "exit" and e3.exit_code == 3 and e3.last_stderr == "error: disk full"
    assert not same_failure(e3, e4)
    seg = sig_of(tmp_path, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    abort = sig_of(tmp_path, "import os\nos.abort()\n")
    assert seg.kind == abort.kind == "signal"
    assert seg.headline() == "killed by SIGSEGV"
    assert not same_failure(seg, abort)
    assert not same_failure(seg, e3)


# ---------------------------------------------------------------- policies


def test_policy_overrides(tmp_path):
    original = sig_of(tmp_path, "raise KeyError('a')\n")
    other = sig_of(tmp_path, "raise ValueError('b')\n")
    assert not same_failure(original, other)
    assert same_failure(original, other, MatchPolicy(any_exception=True))
    exit5 = sig_of(tmp_path, "import sys; sys.exit(5)\n")
    assert same_failure(original, exit5, MatchPolicy(exit_code=5))
    assert not same_failure(original, other, MatchPolicy(exit_code=5))
    policy = MatchPolicy(match=r"MISMATCH at \d+")
    printed = sig_of(tmp_path, "print('MISMATCH at 64')\n", policy=policy)
    assert printed.kind == "output" and printed.matched == "MISMATCH at 64"
    assert same_failure(printed, printed, policy)
    assert not same_failure(printed, sig_of(tmp_path, "print('ok')\n", policy=policy), policy)


# ---------------------------------------------------------------- establishing the original


def test_flaky_failure_is_measured(tmp_path):
    import shutil
    import tempfile

    # state across runs: the sandbox keeps each run's writes to itself, except in reportkit-* temp dirs
    # the run is handed through its environment
    state = Path(tempfile.mkdtemp(prefix="reportkit-test-state-"))
    script = tmp_path / "flaky.py"
    script.write_text("import os, pathlib\np = pathlib.Path(os.environ['FLAKY_COUNTER'])\n"
                      "n = int(p.read_text()) if p.exists() else 0\np.write_text(str(n + 1))\n"
                      "if n % 2 == 0:\n    raise RuntimeError('only sometimes')\n")
    try:
        rep = establish(RunSpec(script=script, python=sys.executable, timeout=20,
                                env={"FLAKY_COUNTER": str(state / "count")}), MatchPolicy(), runs=4)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    assert rep.failures == 2 and rep.runs == 4 and not rep.deterministic and rep.rate == 0.5


def test_passing_script_is_nothing_to_reproduce(tmp_path):
    script = tmp_path / "ok.py"
    script.write_text("print('fine')\n")
    with pytest.raises(UserError, match="nothing to reproduce: the script exits 0"):
        establish(RunSpec(script=script, python=sys.executable, timeout=20), MatchPolicy(), runs=1)


def test_missing_module_is_bad_input(tmp_path):
    script = tmp_path / "needs.py"
    script.write_text("import reportkit_surely_not_installed_xyz\n")
    with pytest.raises(UserError, match="needs the module 'reportkit_surely_not_installed_xyz'"):
        establish(RunSpec(script=script, python=sys.executable, timeout=20), MatchPolicy(), runs=1)


def test_pytest_target_failing_at_import_is_not_the_tests_failure(tmp_path):
    """A candidate that hoists the test's body to module level raises the same exception while
    pytest collects the module: the test no longer runs (any node id would "fail" that way)."""
    from reportkit.run.runner import target_spec

    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_ran.py").write_text("def test_a():\n    x = {}\n    x['a']\n")
    (tests / "test_hoisted.py").write_text("x = {}\nx['a']\n\ndef test_a():\n    pass\n")

    def sig(name):
        spec, _ = target_spec(str(tests / name) + "::test_a", [], python=sys.executable, timeout=60)
        return signature_of(run_script(spec))

    ran, hoisted, again = sig("test_ran.py"), sig("test_hoisted.py"), sig("test_ran.py")
    assert (ran.pytest_phase, hoisted.pytest_phase) == ("call", "collect")
    assert ran.location.text == hoisted.location.text == "x['a']"
    assert not same_failure(ran, hoisted)
    assert same_failure(ran, again) and same_failure(hoisted, hoisted)


# a worker skips its bookkeeping on one item, so the main thread's join() never returns
JOIN_HANG = """
import queue, threading, zlib

todo = queue.Queue()
todo.put(b"corrupt")

def work():
    while True:
        item = todo.get()
        try:
            zlib.decompress(item)
        except zlib.error:
            continue
        todo.task_done()

threading.Thread(target=work, daemon=True).start()
todo.join()
"""


@pytest.mark.parametrize("candidate, same", [
    (JOIN_HANG.replace('b"corrupt"', 'b"also corrupt"'), True),
    # a reduction artifact: the import went, the worker dies of a NameError (its own failure) and join()
    # hangs all the same
    (JOIN_HANG.replace("import queue, threading, zlib", "import queue, threading"), False),
])
def test_a_thread_dying_of_a_new_exception_is_not_the_same_failure(tmp_path, candidate, same):
    original = sig_of(tmp_path, JOIN_HANG, timeout=2)
    assert original.kind == "hang" and original.thread_exceptions == []
    got = sig_of(tmp_path, candidate, name="c.py", timeout=2)
    assert got.kind == "hang" and got.location == original.location  # the same blocked frame, and yet
    assert same_failure(original, got) is same, got.thread_exceptions


def test_thread_exceptions_the_original_raised_too_are_allowed():
    from reportkit.failure.signature import Signature

    original = Signature(kind="exception", exc_type="ValueError", message="x",
                         thread_exceptions=["KeyError: 'a'"])
    assert same_failure(original, Signature(kind="exception", exc_type="ValueError", message="x",
                                            thread_exceptions=["KeyError: 'b'"]))
    assert not same_failure(original, Signature(kind="exception", exc_type="ValueError", message="x",
                                                thread_exceptions=["NameError: name 'zlib' is not defined"]))


# ---------------------------------------------------------------- exception classes of the project

_APP_ERRORS = {"errors.py": "class ConfigError(Exception):\n    pass\n"}


def test_a_project_exception_class_matches_the_same_class_folded_into_the_script(tmp_path):
    """``errors.ConfigError`` raised by the project and ``__main__.ConfigError`` raised by the one-file
    reproducer that folded ``errors.py`` in are the same failure."""
    original = sig_of(tmp_path, "from errors import ConfigError\nraise ConfigError('workers must be >= 1, got 0')\n",
                      files=_APP_ERRORS)
    assert original.exc_type == "errors.ConfigError" and original.local_type == "ConfigError"
    folded = sig_of(tmp_path, "class ConfigError(Exception):\n    pass\n\nraise ConfigError('workers must be >= 1, got 0')\n")
    assert folded.exc_type == "__main__.ConfigError"
    assert same_failure(original, folded)
    # another class of the script, or the same name for another message: not the same failure
    assert not same_failure(original, sig_of(
        tmp_path, "class OtherError(Exception):\n    pass\n\nraise OtherError('workers must be >= 1, got 0')\n"))
    assert not same_failure(original, sig_of(
        tmp_path, "class ConfigError(Exception):\n    pass\n\nraise ConfigError('no workers')\n"))


def test_an_installed_exception_class_is_not_matched_by_a_script_class_of_its_name(tmp_path):
    original = sig_of(tmp_path, "import json\njson.loads('{')\n")
    assert original.exc_type == "json.decoder.JSONDecodeError" and original.local_type is None
    imitation = sig_of(tmp_path, """
        import json
        class JSONDecodeError(Exception):
            pass
        try:
            json.loads('{')
        except ValueError as exc:
            raise JSONDecodeError(str(exc)) from None
        """)
    assert imitation.exc_type == "__main__.JSONDecodeError" and imitation.local_type == "JSONDecodeError"
    assert not same_failure(original, imitation)
    # the type alone decides: the same message and raising frame, the installed class vs the script's
    from dataclasses import replace

    assert not same_failure(original, replace(original, exc_type=imitation.exc_type, local_type=imitation.local_type))
    project = replace(original, exc_type="app.errors.JSONDecodeError", local_type="JSONDecodeError")
    assert same_failure(project, replace(project, exc_type=imitation.exc_type))


# The executor's worker never ends: the main thread hangs in the with block's exit (in the script) or,
# without the with block, after the script's last line, at the interpreter's exit, joining that worker.
HANG_EXECUTOR = """\
import threading
from concurrent.futures import ThreadPoolExecutor
stop = threading.Event()
{body}
"""


def test_a_hang_at_the_interpreters_exit_is_not_a_hang_in_the_script(tmp_path):
    inside = sig_of(tmp_path, HANG_EXECUTOR.format(body="with ThreadPoolExecutor() as pool:\n    pool.submit(stop.wait)\n"
                                                       "stop.set()"), timeout=1)
    at_exit = sig_of(tmp_path, HANG_EXECUTOR.format(body="ThreadPoolExecutor().submit(stop.wait)"), timeout=1)
    assert inside.kind == at_exit.kind == "hang" and inside.location == at_exit.location  # the same blocked frame
    assert inside.script_frame is not None and at_exit.script_frame is None
    assert not same_failure(inside, at_exit) and not same_failure(at_exit, inside)
    again = sig_of(tmp_path, HANG_EXECUTOR.format(body="pool = ThreadPoolExecutor()\npool.submit(stop.wait)"), timeout=1)
    assert same_failure(at_exit, again)


@pytest.mark.parametrize("b, same", [
    (dict(line=40), True),  # hunks above it applied or not (a culprit search's candidate trees): the same raise
    (dict(line=12, source="raise ValueError(msg)", text="raise ValueError(msg)"), False),  # another raise
    (dict(line=12, function="other"), False),
    (dict(line=12, file="pkg/other.py"), False),
    (dict(line=40, user_code=False, file="<tmp>/pkg/core.py"), False),
])
def test_raise_in_a_project_module_is_identified_by_function_and_statement_not_line(b, same):
    from reportkit.failure.signature import Location, same_location
    a = Location(file="pkg/core.py", function="match", line=12, text="raise ValueError(", source="raise ValueError(",
                 user_code=True)
    assert same_location(a, replace(a, **b)) is same


@pytest.mark.parametrize("line, same", [(106, True), (110, False)])
def test_raise_in_an_installed_library_keeps_its_line(line, same):
    from reportkit.failure.signature import Location, same_location
    a = Location(file="isodate/isotime.py", function="parse_time", line=106, text="raise ISO8601Error(", source="x")
    assert same_location(a, replace(a, line=line)) is same


def test_raise_in_a_project_module_moved_by_lines_above_it_is_the_same_failure(tmp_path):
    lib = "def fail(msg):\n    raise ValueError(msg)\n"
    s1 = sig_of(tmp_path, "import lib\nlib.fail('bad')\n", files={"lib.py": lib})
    s2 = sig_of(tmp_path, "import lib\nlib.fail('bad')\n", files={"lib.py": "X = 1\n\n\n" + lib})
    s3 = sig_of(tmp_path, "import lib\nlib.fail('bad')\n",
                files={"lib.py": lib + "    raise ValueError(msg + '')\n"})  # never reached: same raise
    s4 = sig_of(tmp_path, "import lib\nlib.fail('bad')\n",
                files={"lib.py": "def fail(msg):\n    raise ValueError(str(msg))\n"})
    assert s1.location.user_code and not s1.location.in_script and s1.location.line != s2.location.line
    assert same_failure(s1, s2) and same_failure(s1, s3)
    assert not same_failure(s1, s4)


# ---------------------------------------------------------------- a module's train/eval mode

_BATCH_NORM = """
import torch
bn = torch.nn.BatchNorm1d(3)
{mode}
bn({input})
"""


def _bn(tmp_path: Path, mode: str, input: str = "torch.randn(4, 2)"):
    return sig_of(tmp_path, _BATCH_NORM.format(mode=mode, input=input), timeout=120)


def test_a_library_frame_that_read_its_modules_mode_keeps_it(tmp_path):
    """Held-out r10-07 (pytorch, blind): batch norm in eval mode fails with the message and line train mode fails
    with, for another reason (running statistics vs the batch's); the reducer removed ``bn.eval()``."""
    pytest.importorskip("torch")
    evaluating = _bn(tmp_path, "bn.eval()")
    assert evaluating.modes == {"torch/nn/modules/batchnorm.py:forward": "eval"}
    training = _bn(tmp_path, "")
    assert training.modes == {"torch/nn/modules/batchnorm.py:forward": "train"}
    assert evaluating.message == training.message and evaluating.location == training.location
    assert not same_failure(evaluating, training) and not same_failure(training, evaluating)
    assert same_failure(evaluating, _bn(tmp_path, "bn.training = False"))
    from reportkit.cli import _loc_line

    assert dict(_loc_line(evaluating))["mode"] == "eval in torch/nn/modules/batchnorm.py:forward"  # (check's row)


def test_a_mode_read_after_the_raise_or_by_the_users_code_is_no_part_of_it(tmp_path):
    pytest.importorskip("torch")
    # the forward's rank check raised before it read the flag: the mode chose nothing
    rank = _bn(tmp_path, "bn.eval()", "torch.randn(1, 3, 2, 2)")
    assert rank.modes == {} and same_failure(rank, _bn(tmp_path, "", "torch.randn(1, 3, 2, 2)"))
    # a module that never reads it (nn.Linear), and the user's own module that does (compared as the user's code)
    linear = sig_of(tmp_path, "import torch\nm = torch.nn.Linear(3, 2).eval()\nm(torch.randn(4, 2))\n", timeout=120)
    assert linear.modes == {}
    own = sig_of(tmp_path, """
        import torch
        class Net(torch.nn.Module):
            def forward(self, x):
                if self.training:
                    x = x + 1
                return x @ torch.ones(3, 3)
        Net().eval()(torch.ones(4, 2))
        """, timeout=120)
    assert own.exc_type == "RuntimeError" and own.modes == {}
