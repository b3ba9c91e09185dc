"""Failures in code torch generated from the script (reportkit.failure.generated): the generated statement
is the site, read from where torch tells it."""

from __future__ import annotations

import sys
import textwrap

import pytest

from reportkit.failure import generated as G
from reportkit.failure.signature import same_failure, signature_of
from reportkit.run.runner import run_script
from reportkit.run.spec import RunSpec

# FX's wrapper (torch/fx/graph_module.py, _WrappedCall) as torch 2.13.0 prints it on stderr, then re-raises
FX_REPORT = """Traceback (most recent call last):
  File "<eval_with_key>.1 from /tmp/run/work/repro.py:6 in forward", line 6, in forward
    relu = torch.relu(relu)
                      ^^^^
UnboundLocalError: cannot access local variable 'relu' where it is not associated with a value

Call using an FX-traced Module, line 6 of the traced Module's generated forward function:
    add = x + y;  x = y = add = None
    relu = torch.relu(relu)

~~~~~~~~~~~~~~~~~~~~~~~~~~ <--- HERE
    return relu

Traceback (most recent call last):
  File "/tmp/run/work/repro.py", line 22, in <module>
UnboundLocalError: cannot access local variable 'relu' where it is not associated with a value
"""

# TorchScript compiling a traced module whose fx.wrap'ed leaf fails (torch 2.13.0)
TS_MESSAGE = """
object has no attribute foo:
  File "/tmp/run/work/repro.py", line 7
def foo_wrapper(x):
    return torch.foo(x)
           ~~~~~~~~~ <--- HERE
'foo_wrapper' is being compiled since it was called from 'to_trace.forward'
  File "<eval_with_key>.0 from /tmp/run/work/repro.py:10 in to_trace", line 5
def forward(self, x):
    foo_wrapper = __main___foo_wrapper(x);  x = None
    ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~ <--- HERE
    return foo_wrapper
"""


def test_the_statement_fx_reported():
    assert G.from_stderr(FX_REPORT) == "relu = torch.relu(relu)"
    assert G.from_stderr(FX_REPORT.replace("    relu = torch.relu(relu)\n\n", "    return relu\n\n")) == "return relu"
    assert G.from_stderr("Traceback (most recent call last):\nValueError: x\n") is None
    # the last report counts (an earlier one was caught)
    assert G.from_stderr(FX_REPORT + FX_REPORT.replace("relu = torch.relu(relu)\n\n", "y = f(x)\n\n")) == "y = f(x)"


def test_the_generated_statement_a_torchscript_message_quotes():
    assert G.from_message(TS_MESSAGE) == "foo_wrapper = __main___foo_wrapper(x);  x = None"
    direct = TS_MESSAGE.split("'foo_wrapper' is being")[0]
    assert G.from_message(direct) is None  # the script's function scripted directly: no generated code
    # a quoted generated file without a marker before the next file: none
    assert G.from_message('  File "<eval_with_key>.2", line 3\n    x = y\n  File "a.py", line 1\n ~~~ <--- HERE\n') is None


@pytest.mark.parametrize("file, generated", [
    ("<eval_with_key>.1 from /tmp/x/repro.py:6 in forward", True),
    ("<eval_with_key>.12", True),
    ("<string>", False),
    ("/tmp/x/repro.py", False),
])
def test_generated_files(file, generated):
    assert G.is_generated(file) is generated


@pytest.mark.parametrize("a, b, same", [
    ("relu = torch.relu(relu)", "relu = torch.relu(relu);  relu = None", True),  # the frees FX appends
    ("linear_1 = self.linear1(relu_2)", "linear = self.linear1(x)", True),  # numbering, operands
    ("relu = torch.relu(relu)", "return relu", False),
    ("add = x + N", "add_1 = x + N", True),
    ("add = x + N", "mul = x * N", False),
    ("foo_wrapper = __main___foo_wrapper(x); x = None", "return x", False),
])
def test_sites(a, b, same):
    assert (G.site(a) == G.site(b)) is same


def sig_of(tmp_path, code):
    d = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
    d.mkdir()
    (d / "s.py").write_text(textwrap.dedent(code))
    return signature_of(run_script(RunSpec(script=d / "s.py", python=sys.executable, timeout=120)))


EDIT = """
    import torch

    class Net(torch.nn.Module):
        def forward(self, a, b):
            return a * b

    gm = torch.fx.symbolic_trace(Net())
    mul = [n for n in gm.graph.nodes if n.op == "call_function"][0]
    {edit}
    gm.recompile()
    gm(torch.ones(2), torch.ones(2))
    """
# a node made to read itself: created as a user of ``mul``, then given ``mul``'s uses
SELF_LOOP = EDIT.format(edit="""with gm.graph.inserting_after(mul):
        sig = gm.graph.call_function(torch.sigmoid, (mul,))
        mul.replace_all_uses_with(sig)""")
# reportkit's result on the original before the rule: the node appended after the output
AFTER_OUTPUT = EDIT.format(edit="mul.replace_all_uses_with(gm.graph.call_function(torch.sigmoid))")


@pytest.mark.torch
def test_a_graph_edit_fails_at_its_generated_statement(tmp_path):
    """Held-out r15-03 (pytorch #118626): a node made to read itself by ``replace_all_uses_with`` and a node
    appended after the output (no ``args``) raise one message from one frame (FX's wrapper); the generated
    statement tells them apart."""
    pytest.importorskip("torch")
    loop = sig_of(tmp_path, SELF_LOOP)
    assert loop.exc_type == "UnboundLocalError" and loop.generated == "sigmoid = torch.sigmoid(sigmoid)"
    assert same_failure(loop, sig_of(tmp_path, SELF_LOOP.replace("import torch", "import os\n    import torch")))
    after_output = sig_of(tmp_path, AFTER_OUTPUT)
    assert after_output.message == loop.message and after_output.location == loop.location
    assert after_output.generated == "return sigmoid"
    assert not same_failure(loop, after_output)


WRAPPED_LEAF = """
    import torch
    import torch.fx

    torch.fx.wrap('leaf')

    def leaf(x):
        return torch.foo(x)

    def f(x):
        return leaf(x)

    torch.jit.script({scripted})
    """


@pytest.mark.torch
def test_torchscript_reached_through_a_traced_forward(tmp_path):
    """Held-out r17-02 (pytorch #50397): an ``fx.wrap``'ed leaf compiled by TorchScript from a traced module's
    forward, and the function scripted directly, fail with one message; the generated call is the path."""
    pytest.importorskip("torch")
    traced = sig_of(tmp_path, WRAPPED_LEAF.format(scripted="torch.fx.symbolic_trace(f)"))
    assert traced.generated is not None and G.site(traced.generated) == "__main___leaf()"
    direct = sig_of(tmp_path, WRAPPED_LEAF.format(scripted="f"))
    assert direct.message == traced.message and direct.generated is None
    assert not same_failure(traced, direct)


def test_a_raising_generated_frame_is_its_statement():
    """A generated forward called without FX's wrapper (``gm.forward(x)``) raises in its own frame: its file is
    numbered per generated module and names the script's line that traced it; the statement is the site."""
    from reportkit.failure.signature import Location, Normalizer, same_location
    from reportkit.run.spec import Frame

    norm = Normalizer("/tmp/run-1/work", "/tmp/run-1/work/repro.py")
    frame = Frame(file="<eval_with_key>.3 from /tmp/run-1/work/repro.py:9 in forward", line=6, function="forward",
                  text="linear_1 = self.linear1(relu);  relu = None")
    loc = norm.location(frame)
    assert loc.file == G.GENERATED_FILE and not loc.user_code
    moved = Location(file=G.GENERATED_FILE, function="forward", line=4, text="linear = self.linear1(x); x = None")
    other = Location(file=G.GENERATED_FILE, function="forward", line=6, text="relu = torch.relu(linear)")
    assert same_location(loc, moved)
    assert not same_location(loc, other)


def test_a_generated_statement_passes_the_redaction_edge():
    """The statement is shown (``check``'s row, the signature in JSON): a secret the script put in its graph
    (a constant a traced forward reads) is redacted like the message."""
    from reportkit.failure.signature import FailureKind, Location, Normalizer, Signature, _generated_statement
    from reportkit.run.spec import ExceptionInfo, RunResult

    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    stderr = FX_REPORT.replace("relu = torch.relu(relu)\n\n", f"relu = torch.relu(relu, '{token}')\n\n")
    result = RunResult(returncode=1, signal=None, timed_out=False, duration=0.1, stdout="", stderr=stderr,
                       exception=ExceptionInfo(type="UnboundLocalError", message="cannot access local variable"))
    sig = Signature(kind=FailureKind.EXCEPTION,
                    location=Location(file="torch/fx/graph_module.py", function="__call__", line=505))
    statement = _generated_statement(result, sig, Normalizer())
    assert statement is not None and statement.startswith("relu = torch.relu(relu,") and token not in statement
