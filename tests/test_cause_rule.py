"""What a reproducer keeps (docs/keeps.md): the cause rule of ``minimize``.

A failure the script's own code raises keeps the values it operates on and what produced them (no
value pass turns them into literals, its message's values stay the same); a failure raised by
library code may get literal inputs; a pytest target keeps its test function.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

import reportkit.reduce.minimize as mz
from reportkit.failure.check import Outcome, establish
from reportkit.failure.signature import (
    Location,
    MatchPolicy,
    Normalizer,
    Signature,
    describe_op,
    raised_by_script,
    raised_by_tensor_operator,
    signature_of,
)
from reportkit.run.runner import run_script, target_spec
from reportkit.run.spec import RunSpec


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def minimize(spec: RunSpec, source: str, out: Path) -> tuple[mz.MinimizeReport, str]:
    policy = MatchPolicy()
    rep = establish(spec, policy, runs=1)
    report = mz.minimize(spec, source, rep, policy, mz.MinimizeOptions(output=out, jobs=2, executor="warm"))  # (the CLI's default)
    assert report.verified is True
    return report, out.read_text()


# --------------------------------------------------------------------------- who raised it


@pytest.mark.parametrize("code, own", [
    ("cfg = {'a': None}\nsched = cfg['a']\nsched.get('warmup')\n", True),  # AttributeError: LOAD_ATTR
    ("d = {}\nd['missing']\n", True),  # KeyError: a subscript
    ("x = 1 / 0\n", True),  # an operator
    ("n = 3\nassert n == 4, f'{n} != 4'\n", True),
    ("raise ValueError('bad shard')\n", True),
    ("def f():\n    raise KeyError('k')\nf()\n", True),  # raised in a user function, not at the call
    ("hooks = {'start': None}\nhooks['start']()\n", True),  # calling None: nothing was called
    ("import math\nmath.sqrt(-1)\n", False),  # a builtin (C) raised: the call
    ("int('x')\n", False),
    ("import json\njson.loads('{')\n", False),  # stdlib Python code raised
])
def test_raised_by_script_tells_the_scripts_own_bytecode_from_a_call(tmp_path, code, own):
    script = write(tmp_path / "t.py", code)
    sig = signature_of(run_script(RunSpec(script=script, python=sys.executable, timeout=30)))
    assert sig.kind == "exception"
    assert raised_by_script(sig) is own, (sig.location, sig.location.op)


@pytest.mark.torch
@pytest.mark.parametrize("code, tensor_op", [
    ("import torch\ntorch.zeros(2, 3) + torch.zeros(2, 4)\n", True),  # an operator on tensors
    ("import torch\nx = torch.zeros(2, 3)\nx[:, 0] = torch.zeros(3)\n", True),  # a subscript's store
    ("import torch\nx = torch.zeros(2, 3)\nx[torch.ones(3, dtype=torch.bool)]\n", False),  # an IndexError
    ("import torch\ntorch.zeros(2, 3) @ torch.zeros(2, 3)\n", True),
    ("import torch\ntorch.cat([torch.zeros(2), torch.zeros(2, 2)])\n", False),  # a torch call: library
    ("import torch\nd = {}\nd[torch.zeros(1).item()]\n", False),  # own, but a KeyError
    ("x = 1 / 0\n", False),
    ("raise RuntimeError('mine')\n", False),  # the script's own raise: its values are the bug
])
def test_a_tensor_operator_in_the_scripts_code(tmp_path, code, tensor_op):
    pytest.importorskip("torch")
    script = write(tmp_path / "t.py", code)
    spec = RunSpec(script=script, python=sys.executable, timeout=60)
    sig = signature_of(run_script(spec))
    assert raised_by_tensor_operator(sig) is tensor_op, (sig.exc_type, sig.location)
    keep = mz.what_to_keep(establish(spec, MatchPolicy(), runs=1), spec, MatchPolicy())
    assert keep.inputs is tensor_op and keep.values is raised_by_script(sig)
    if tensor_op:
        assert "the data fed to torch models may become random tensors" in keep.why


@pytest.mark.parametrize("location, own", [
    (Location(file="threading.py", function="wait", line=320), True),  # blocked on a queue/thread join
    (Location(file="t.py", function="work", line=3, in_script=True, user_code=True), True),  # lock re-entry
    (Location(file="torch/nn/modules/conv.py", function="forward", line=9), False),
])
def test_hangs_blocked_waiting_are_the_scripts_own(location, own):
    assert raised_by_script(Signature(kind="hang", location=location)) is own


def test_exact_message_keeps_numbers_and_drops_paths(tmp_path):
    script = write(tmp_path / "t.py", f"raise ValueError('counts 85 rows, shard has 45 at {tmp_path}/x 0x7f00')\n")
    sig = signature_of(run_script(RunSpec(script=script, python=sys.executable, timeout=30)))
    assert sig.message == "counts N rows, shard has N at <tmp>/x <hex>"
    assert sig.exact_message == "counts 85 rows, shard has 45 at <tmp>/x <hex>"


# --------------------------------------------------------------------------- minimize keeps the cause

# A deep merge lets a preset's "schedule": None override the defaults' dict; the AttributeError is
# raised by the script's own attribute lookup. `sched = None; sched.get(...)` is not the bug.
DEEP_MERGE = """
DEFAULTS = {"model": {"width": 64, "depth": 4}, "schedule": {"warmup": 100, "decay": "cosine"}}
PRESETS = {"fast": {"model": {"depth": 2}, "schedule": None}, "wide": {"model": {"width": 256}}}


def deep_merge(base, override):
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def describe_model(cfg):
    return f"width {cfg['model']['width']} depth {cfg['model']['depth']}"


def schedule_summary(cfg):
    sched = cfg["schedule"]
    return f"warmup {sched.get('warmup', 0)} decay {sched.get('decay')}"


for name in ("wide", "fast"):
    cfg = deep_merge(DEFAULTS, PRESETS[name])
    print(name, describe_model(cfg))
    print(name, schedule_summary(cfg))
"""


def test_a_user_raised_failure_keeps_the_computation_that_is_the_bug(tmp_path):
    script = write(tmp_path / "merge.py", DEEP_MERGE)
    spec = RunSpec(script=script.resolve(), python=sys.executable, timeout=30)
    report, result = minimize(spec, script.read_text(), tmp_path / "merge.min.py")
    assert report.probes == 0 and "materialize" not in report.passes  # no value was turned into a literal
    assert report.keeps.startswith("raised by the script's own code (merge.py:"), report.keeps
    assert "in schedule_summary, an attribute access)" in report.keeps, report.keeps  # words, not bytecode
    assert not re.search(r"^\s*sched\s*=\s*None", result, re.M), result
    assert '"schedule": None' in result and "] = value" in result, result  # the override and the merge
    assert report.lines_after < report.lines_before


# The expected side of a pytest assertion is the specification: it must survive as written, and the
# node id must still name a test of the minimized module.
WINDOWS_TEST = """
import pytest


def window_sums(xs, n):
    return [sum(xs[i:i + n]) for i in range(len(xs) - n)]  # off by one: misses the last window


def load(name):
    table = {"short": [1, 2, 3, 4], "long": [5, 6, 7, 8, 9, 10]}
    return table[name]


def test_pairs():
    assert window_sums(load("short"), 2) == [3, 5, 7]


def test_empty():
    assert window_sums([], 2) == []
"""


def test_a_pytest_target_keeps_its_test_and_the_expected_literal(tmp_path):
    root = tmp_path / "proj"
    write(root / "pytest.ini", "[pytest]\n")
    write(root / "test_windows.py", WINDOWS_TEST)
    spec, source = target_spec(str(root / "test_windows.py") + "::test_pairs", [], python=sys.executable,
                               timeout=60)
    report, result = minimize(spec, source, root / "min_test_windows.py")
    assert "def test_pairs(" in result, result
    assert "== [3, 5, 7]" in result, result  # the expected side as written
    assert "range(len(xs) - n)" in result, result  # the off-by-one stays code
    assert "test_empty" not in result
    assert "must stay as they are" in report.keeps and "test_windows.py::test_pairs (call)" in report.keeps


def test_a_pytest_candidate_failing_at_collection_is_not_the_test(tmp_path):
    """A library-raised failure: its input becomes a literal, the call then needs none of the test's
    locals, and hoisted to module level it fails the module at import with the same exception in the
    same library frame while the test function is dead. That is not the test's failure."""
    root = tmp_path / "proj"
    write(root / "pytest.ini", "[pytest]\n")
    write(root / "test_parse.py", """
        import json


        def parse(text):
            return json.loads(text)


        def test_parse():
            text = "{" + '"lr": 0.1'
            assert parse(text) == {"lr": 0.1}
    """)
    spec, source = target_spec(str(root / "test_parse.py") + "::test_parse", [], python=sys.executable,
                               timeout=60)
    report, result = minimize(spec, source, root / "min_test_parse.py")
    assert "def test_parse(" in result, result
    again = run_script(spec, result)
    assert (again.test_item or {}).get("when") == "call", again.test_item


#: A wrong value (a negative spread) computed by the script and rejected by library code (math.sqrt).
SPREAD = """
        import math


        def spread(xs):
            mean = sum(xs) / len(xs)
            return mean - max(xs)


        values = [3, 1, 4, 1, 5]
        print("values", values)
        print(math.sqrt(spread(values)))
"""


def test_a_library_raised_failure_still_gets_literal_inputs(tmp_path):
    script = write(tmp_path / "spread.py", SPREAD)
    spec = RunSpec(script=script.resolve(), python=sys.executable, timeout=30)
    report, result = minimize(spec, script.read_text(), tmp_path / "spread.min.py")
    assert report.passes.get("materialize"), report.passes
    assert report.keeps.startswith("raised by library code (spread.py:"), report.keeps
    assert ", a call)" in report.keeps, report.keeps
    assert "math.sqrt(" in result and not re.search(r"sum\(|max\(", result), result  # the inputs became literals
    assert report.lines_after <= 6, result


def test_keep_values_keeps_what_made_the_value_the_library_rejected(tmp_path):
    """``--keep-values``: the same library-raised failure keeps the computation of what math.sqrt was given
    (the user's mistake), through the real CLI."""
    script = write(tmp_path / "spread.py", SPREAD)
    proc = subprocess.run([sys.executable, "-m", "reportkit", "minimize", "--keep-values", "-j", "2", "--json",
                           str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    result = (tmp_path / "spread.min.py").read_text()
    assert report["verified"] is True and report["passes"].get("materialize", 0) == 0, report["passes"]
    assert report["keeps"].startswith("raised by library code (spread.py:") and "--keep-values" in report["keeps"]
    assert re.search(r"sum\(", result) and re.search(r"max\(", result) and "math.sqrt(" in result, result
    assert "print(\"values\"" not in result, result  # the rest still goes


def test_keep_values_also_overrides_the_differential(tmp_path):
    """Under the compiled-vs-eager differential values may become literals; --keep-values keeps them, and
    the keeps line says why."""
    script = write(tmp_path / "check.py", "total = sum([1, 2])\nassert total == 4, f'total {total}'\n")
    spec = RunSpec(script=script, python=sys.executable, timeout=30)
    rep = establish(spec, MatchPolicy(), runs=1)
    assert not mz.what_to_keep(rep, spec, MatchPolicy(), differential=True).values
    keep = mz.what_to_keep(rep, spec, MatchPolicy(), differential=True, keep_values=True)
    assert keep.values and keep.why.startswith("a check of computed values; its values stay code"), keep.why


# A check in library code (numpy.testing here, torch.testing.assert_close alike) reports how many elements
# differ and where. Its first line ("Arrays are not equal") is the same for any two arrays that differ: a
# copy that drops the last block and an array of zeros (the copy loop deleted) alike. What it measured
# is the bug's trace and must stay.
BLOCK_COPY = """
import numpy as np

BLOCK = 4


def n_blocks(n):
    return n // BLOCK  # rounds down: the last, partial block is never copied


def copy_blocks(a):
    out = np.zeros_like(a)
    for i in range(n_blocks(len(a))):
        out[i * BLOCK:(i + 1) * BLOCK] = a[i * BLOCK:(i + 1) * BLOCK]
    return out


def report(a):
    print("blocks", n_blocks(len(a)), "of", BLOCK)


a = np.arange(1, 10)
report(a)
np.testing.assert_array_equal(copy_blocks(a), a)
"""


def test_measured_lines_keep_counts_and_indices_not_float_values(tmp_path):
    norm = Normalizer(str(tmp_path), str(tmp_path / "t.py"))
    message = ("Tensor-likes are not close!\n\nMismatched elements: 1 / 65 (1.5%)\n"
               "Greatest absolute difference: 0.8412 at index (64,) (up to 1e-05 allowed)\n"
               f"  data in {tmp_path}/cache/x.pt at 0x7f3a\n")
    assert norm.measured_lines(message) == [
        "Tensor-likes are not close!", "Mismatched elements: 1 / 65 (N%)",
        "Greatest absolute difference: N at index (64,) (up to N allowed)", "data in cache/x.pt at <hex>"]
    assert len(norm.measured_lines("\n".join(f"line {i}" for i in range(40)))) == 12


@pytest.mark.parametrize("code, pinned", [
    (BLOCK_COPY, True),  # numpy.testing: a check in library code
    ("a = [1, 2, 3]\nassert a == [1, 2, 4], f'{a} != [1, 2, 4]'\n", False),  # own: its first line is pinned
    ("import numpy as np\nnp.sqrt(-np.ones(2), out=np.ones(3))\n", False),  # a library crash: no check
])
def test_a_library_check_pins_what_it_measured(tmp_path, code, pinned):
    pytest.importorskip("numpy")
    script = write(tmp_path / "t.py", code)
    spec = RunSpec(script=script, python=sys.executable, timeout=30)
    rep = establish(spec, MatchPolicy(), runs=2)
    keep = mz.what_to_keep(rep, spec, MatchPolicy())
    if not pinned:
        assert keep.measured == ()
        return
    assert "Mismatched elements: 1 / 9 (N%)" in keep.measured and "[8]: 0 (ACTUAL), 9 (DESIRED)" in keep.measured
    assert "what the check reported stays as it was (Mismatched elements: 1 / 9 (N%)" in keep.why
    assert keep.kept(Outcome(result=rep.results[0], signature=rep.signature, ok=True))
    zeros = run_script(spec, code.replace("out[i * BLOCK", "pass  # out[i * BLOCK"))
    assert signature_of(zeros).message == rep.signature.message  # the same first line ...
    assert not keep.kept(Outcome(result=zeros, signature=signature_of(zeros), ok=True))  # 9 / 9 differ: not what the original measured
    # ... and --match / --exit-code ask for less
    assert mz.what_to_keep(rep, spec, MatchPolicy(match="not equal")).measured == ()
    # a line that differs between the original's runs (a random index) is not asked of a candidate
    moved = replace(rep.signatures[1], measured=[ln.replace("[8]", "[3]") for ln in rep.signatures[1].measured])
    keep2 = mz.what_to_keep(replace(rep, signatures=[rep.signatures[0], moved]), spec, MatchPolicy())
    assert "Mismatched elements: 1 / 9 (N%)" in keep2.measured and "[8]: 0 (ACTUAL), 9 (DESIRED)" not in keep2.measured


def test_a_library_check_keeps_the_computation_it_measured(tmp_path):
    """Without the measured lines, deleting the copy loop (an array of zeros against ``a``) keeps the check's
    first line and its raising frame, and the reproducer loses the bug."""
    pytest.importorskip("numpy")
    script = write(tmp_path / "blocks.py", BLOCK_COPY)
    spec = RunSpec(script=script.resolve(), python=sys.executable, timeout=30)
    report, result = minimize(spec, script.read_text(), tmp_path / "blocks.min.py")
    assert re.search(r"for i in range\(", result) and "// BLOCK" in result, result  # the loop and its bound
    assert "report(" not in result and report.lines_after < report.lines_before, result


@pytest.mark.parametrize("file, function, user_code, oracle", [
    ("torch/__init__.py", "_check_with", False, False),  # torch checking its input (torch._check_with)
    ("torch/nn/functional.py", "multi_head_attention_forward", False, False),  # a library's own assert
    ("json/decoder.py", "raw_decode", False, False),
    ("torch/testing/_comparison.py", "assert_close", False, True),  # checks of computed results
    ("numpy/testing/_private/utils.py", "assert_array_equal", False, True),
    ("unittest/case.py", "assertEqual", False, True),
    ("pandas/_testing/asserters.py", "assert_frame_equal", False, True),
    ("mylib/checks.py", "assert_sorted", False, True),  # a library's assertion helper, by its name
    ("train.py", "main", True, True),  # the script's own assert
])
def test_a_library_assert_on_its_input_is_no_check_of_computed_values(file, function, user_code, oracle):
    """An ``AssertionError`` from library code that checks what it was given is the library rejecting its
    input, like its ``ValueError``s: its inputs may become literals. A testing module's comparison is not."""
    loc = Location(file=file, function=function, line=3, text="assert x", user_code=user_code, in_script=user_code)
    sig = Signature(kind="exception", exc_type="AssertionError", message="Expected N, got N", location=loc)
    assert mz.is_oracle(sig) is oracle
    assert mz.keeps_values(sig) is oracle


@pytest.mark.torch
def test_an_input_check_of_torch_is_raised_by_library_code(tmp_path):
    """nn.MultiheadAttention's key padding mask check raises AssertionError from torch._check_with: the mask
    given may become a literal, and the message is not pinned to the original's numbers."""
    pytest.importorskip("torch")
    script = write(tmp_path / "mha.py", """
        import torch
        from torch.nn.utils.rnn import pad_sequence

        mask = pad_sequence([torch.zeros(n, dtype=torch.bool) for n in (6, 3, 2, 1)], padding_value=True)
        x = torch.randn(4, 6, 8)
        torch.nn.MultiheadAttention(8, 2, batch_first=True)(x, x, x, key_padding_mask=mask)
    """)
    spec = RunSpec(script=script, python=sys.executable, timeout=60)
    keep = mz.what_to_keep(establish(spec, MatchPolicy(), runs=1), spec, MatchPolicy())
    assert not keep.values and keep.message is None and not keep.measured, keep
    assert keep.why.startswith("raised by library code (torch/"), keep.why


def test_drop_target_drops_unread_names_of_an_unpacking():
    from reportkit.reduce.passes import drop_target_candidates

    src = "def f():\n    n, seed, k = 203, 7, 1\n    return n + k\n"
    assert drop_target_candidates(src) == ["def f():\n    n, k = 203, 1\n    return n + k\n"]
    assert drop_target_candidates("n, seed = 203, 7\nprint(n, seed)\n") == []


@pytest.mark.parametrize("op, words", [
    ("RAISE_VARARGS", "a raise statement"),
    ("LOAD_ATTR", "an attribute access"),
    ("BINARY_SUBSCR", "a subscript"),
    ("BINARY_OP", "an operator"),
    ("CALL", "a call"),
    ("CALL_FUNCTION_EX", "a call"),
    ("COMPARE_OP", "a comparison"),
    ("UNPACK_SEQUENCE", "an unpacking"),
    ("NOP", ""),
    ("", ""),
])
def test_the_raising_instruction_is_described_in_words(op, words):
    assert describe_op(op) == words
