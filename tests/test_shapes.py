"""Tensor shapes in the reduction passes (issue 38 item 2): a tensor keeps its rank, partner dims move together,
and a message's ranks and dims are part of what a candidate must keep."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import reportkit.reduce.minimize as mz
from reportkit.failure.check import Outcome, establish
from reportkit.failure.signature import MatchPolicy, same_failure, signature_of
from reportkit.reduce import passes as P
from reportkit.reduce.passes.kinds import NumericPass
from reportkit.run.runner import run_script
from reportkit.run.spec import RunSpec


def _changed(source: str, candidate: str) -> list[str]:
    before = source.splitlines()
    return [line for line in candidate.splitlines() if line not in before]


@pytest.mark.parametrize("line, allowed", [
    ("q = torch.randn(2, 4, 16, 8, requires_grad=True)", {"q = torch.randn(2, 4, 16, 8)"}),
    ("q = torch.zeros((2, 4, 16))", set()),
    ("q = torch.full((2, 3), 0.5)", {"q = torch.full((2, 3))"}),
    ("q = torch.randint(0, 9, (2, 3))", set()),
    ("q = torch.empty(size=(2, 3))", set()),
    ("q = x.view(2, -1, 8)", set()),
    ("q = x.reshape((2, 8))", set()),
    ("q = x.new_zeros((2, 8))", set()),
    ("q = torch.autograd.Variable(x).double()", set()),  # its data: without it an empty tensor
    ("q = torch.DoubleTensor(x, device=None)", {"q = torch.DoubleTensor(x)"}),
])
def test_a_tensor_keeps_its_rank(line, allowed):
    """Neither an argument nor a display element that is a dim of a shape is proposed for deletion: dropping
    one changes the tensor's rank (flex_attention's inputs became (1, 1) and failed only because another
    check ran first)."""
    source = f"import torch\nx = torch.ones(16)\n{line}\nprint(q)\n"
    changed = {ln for e in [*P.propose_call_args(source), *P.propose_display_elements(source)]
               for ln in _changed(source, P.apply_edits(source, [e])) if ln.startswith("q = ")}
    assert changed == allowed
    # the same dims anywhere else are still data: a list printed loses elements, an option its keyword
    other = "import torch\nq = torch.randn(2, 3, requires_grad=True)\nprint([2, 3])\n"
    assert {ln for e in [*P.propose_call_args(other), *P.propose_display_elements(other)]
            for ln in _changed(other, P.apply_edits(other, [e]))} == {"q = torch.randn(2, 3)", "print([3])", "print([2])",
                                                                      "print()"}


@pytest.mark.parametrize("source", [
    "import random\nn = random.randint(1, 6)\nm = random.randint(1, 6)\n",
    "import random\nr = random.Random(2)\nn = r.randint(1, 6)\nm = r.randint(1, 6)\n",
])
def test_not_a_shape_where_no_tensor_is_made(source):
    """``random.randint(1, 6)`` is a number: its 6 may be deleted and shrinks on its own."""
    assert P.partner_literals(source) == []
    assert len(P.propose_literals_to_one(source)) >= 2


@pytest.mark.parametrize("line, allowed", [
    # the data a tensor is made of becomes neither 0 nor a part of it (a (4,) tensor of the sizes, an empty one)
    # (the call may become its data, the array: the test decides)
    ("q = torch.DoubleTensor(np.random.uniform(size=(4, 1, 6)))", {"q = np.random.uniform(size=(4, 1, 6))"}),
    ("q = torch.tensor(np.ones((2, 3)))", {"q = np.ones((2, 3))"}),
    # a shape display stays whole: a dim may become 0, the shape not 0 nor one of its dims
    ("q = torch.zeros((2, n + 1))", {"q = torch.zeros((2, 0))", "q = torch.zeros((2, n))", "q = torch.zeros((2, 1))",
                                     "q = (2, n + 1)"}),
])
def test_simplify_keeps_a_tensor_s_rank(line, allowed):
    source = f"import numpy as np\nimport torch\n{line}\nprint(q)\n"
    assert {ln for c in P.simplify_candidates(source) for ln in _changed(source, c) if ln.startswith("q = ")} == allowed


def test_a_tensor_s_data_loses_elements():
    """The data of ``torch.tensor([[1, 2], [3, 4]])`` stays (an argument), its rows and elements may go (the rank
    stays): only a shape's display is whole."""
    source = "import torch\nq = torch.tensor([[1, 2], [3, 4]])\n"
    changed = {ln for e in P.propose_display_elements(source) for ln in _changed(source, P.apply_edits(source, [e]))}
    assert "q = torch.tensor([[3, 4]])" in changed and "q = torch.tensor([[1], [3, 4]])" in changed
    assert not any(ln.startswith("q = ") for e in P.propose_call_args(source)
                   for ln in _changed(source, P.apply_edits(source, [e])))


def test_a_shape_bound_to_a_name_keeps_its_rank():
    source = "import torch\nshape = (2, 3, 4)\nx = torch.randn(shape)\nother = (5, 6)\nprint(other)\n"
    changed = [ln for e in P.propose_display_elements(source) for ln in _changed(source, P.apply_edits(source, [e]))]
    assert changed and all(ln.startswith("other = ") for ln in changed), changed


PARTNERS = """import torch
from torch import nn
q = torch.randn(8, 4, 32, 64)
k = torch.randn(8, 4, 32, 64)
v = torch.randn(8, 4, 32, 48)
head = nn.Linear(48, 10)
bias = torch.zeros(16, 16)
"""


def test_partner_dims_are_grouped_by_value_across_calls():
    groups = [[PARTNERS[a:b] for a, b in g] for g in P.partner_literals(PARTNERS)]
    assert sorted(groups) == sorted([["8"] * 3, ["4"] * 3, ["32"] * 3, ["64"] * 2, ["48"] * 2])
    # 16 twice in one call is one tensor's two dims, not partners; 10 has none
    literal_ones = {ln for e in P.propose_literals_to_one(PARTNERS) for ln in _changed(PARTNERS, P.apply_edits(PARTNERS, [e]))}
    assert {"head = nn.Linear(48, 1)", "bias = torch.zeros(1, 16)", "bias = torch.zeros(16, 1)"} <= literal_ones
    assert not any(", 1," in ln or ln.endswith(", 1)") and not ln.startswith(("head", "bias")) for ln in literal_ones)
    # a group goes to 2 in one edit: every member at once (the cheap first try of literals -> 1)
    both = P.apply_edits(PARTNERS, [e for e in P.propose_literals_to_one(PARTNERS) if isinstance(e, P.Together)])
    assert "q = torch.randn(2, 2, 2, 2)\nk = torch.randn(2, 2, 2, 2)\nv = torch.randn(2, 2, 2, 2)\nhead = nn.Linear(2, 10)" in both


class _Problem:
    """A pass's view of a reduction: a predicate on sources, every accepted candidate kept."""

    def __init__(self, source, predicate):
        self.current, self.predicate, self.round, self.tests = source, predicate, 1, 0

    def first_interesting(self, candidates):
        for i, c in enumerate(candidates):
            self.tests += 1
            if self.predicate(c):
                return i
        return None

    def accept(self, candidate, name, count):
        self.current = candidate
        return True

    def try_candidate(self, candidate, name, count):
        self.tests += 1
        if candidate is not None and self.predicate(candidate):
            self.current = candidate
            return True
        return False


def _matmul_fails(source: str) -> bool:
    """``x @ w.T`` with x (B, IN) and w = Linear(IN, OUT) fails when OUT is odd (the bug), any sizes else."""
    ns: dict = {}
    exec(source.replace("import torch\nfrom torch import nn\n", ""), {"torch": _Fake, "nn": _Fake}, ns)
    x, w = ns["x"], ns["w"]
    return x[-1] == w[0] and w[1] % 2 == 1


class _Fake:
    @staticmethod
    def randn(*shape):
        return shape

    @staticmethod
    def Linear(i, o):  # noqa: N802
        return (i, o)


def test_partner_dims_shrink_together_never_to_one():
    source = "import torch\nfrom torch import nn\nx = torch.randn(8, 64)\nw = nn.Linear(64, 7)\n"
    problem = _Problem(source, _matmul_fails)
    assert NumericPass("shrink-literals", P.numeric_literals, groups=P.partner_literals).run(problem)
    assert problem.current.endswith("x = torch.randn(0, 2)\nw = nn.Linear(2, 1)\n"), problem.current
    # alone, each of the two 64s is stuck: no smaller value of one matches the other
    alone = _Problem(source, _matmul_fails)
    NumericPass("shrink-literals", P.numeric_literals).run(alone)
    assert "64" in alone.current


def test_rank_words():
    assert mz.rank_words("Expected 4-dimensional input for 4-dimensional weight [16, 3, 3, 3], but got "
                         "3-dimensional input of size [3, 32, 32] instead") == ("4-dimensional", "4-dimensional", "3-dimensional")
    assert mz.rank_words("The size of tensor a (64) must match the size of tensor b (32) at non-singleton dimension 3") \
        == ("dimension 3",)
    assert mz.rank_words("Expected 3D (unbatched) or 4D (batched) input to conv2d") == ("3D", "4D")
    assert mz.rank_words("Dimension out of range (expected to be in range of [-2, 1], but got 2)") == ("range of [-2, 1]",)
    assert mz.rank_words("mat1 and mat2 shapes cannot be multiplied (8x64 and 48x10)") == ()
    assert mz.rank_words(None) == ()


def test_a_check_naming_another_dim_is_another_failure(tmp_path: Path):
    """numpy's ``axis 2 is out of bounds for array of dimension 2`` and ``axis 1 ... of dimension 1`` have the
    same signature (numbers are N, same frame): the rank words of the message tell them apart."""
    pytest.importorskip("numpy")
    script = tmp_path / "t.py"
    script.write_text("import numpy as np\nnp.sum(np.ones((2, 3)), axis=2)\n")
    spec = RunSpec(script=script, python=sys.executable, timeout=60)
    rep = establish(spec, MatchPolicy(), runs=1)
    keep = mz.what_to_keep(rep, spec, MatchPolicy())
    assert keep.dims == ("axis 2", "dimension 2") and "ranks and dims" in keep.why
    script.write_text("import numpy as np\nnp.sum(np.ones((3,)), axis=1)\n")
    other = run_script(spec)
    assert same_failure(rep.signature, signature_of(other))  # the hole: the signature alone takes it
    assert not keep.kept(Outcome(result=other, signature=signature_of(other), ok=True))
    assert keep.kept(Outcome(result=rep.results[0], signature=rep.signature, ok=True))
