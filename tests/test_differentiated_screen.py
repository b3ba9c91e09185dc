"""The function a gradient check or transform differentiates keeps depending on its input (held-out r13-03: CTC
loss under ``gradcheck`` became ``def f(x): return torch.randn(..., requires_grad=True)``, which fails gradcheck
with the same "Jacobian mismatch" for that alone)."""

from __future__ import annotations

import pytest

from reportkit.reduce.guards import differentiated_screen

ORIGINAL = """\
import torch
loss_fn = torch.nn.CTCLoss()
def f(x):
    return loss_fn(x, targets, input_lens, target_lens)
torch.autograd.gradcheck(f, (log_probs,))
"""


@pytest.mark.parametrize("candidate", [
    "import torch\ndef f(x):\n    return torch.randn(2, dtype=torch.float64, requires_grad=True)\n"
    "torch.autograd.gradcheck(f, (log_probs,))\n",
    "import torch\ndef f(x):\n    x\n    return torch.ones(2, requires_grad=True)\ntorch.autograd.gradcheck(f, (p,))\n",
    "import torch\ndef f(x):\n    y = torch.zeros(2)\n    return y\ntorch.autograd.gradcheck(f, (p,))\n",
])
def test_a_function_that_no_longer_reads_its_input_is_screened(candidate):
    assert "depending on its input (f)" in differentiated_screen(ORIGINAL)(candidate)


@pytest.mark.parametrize("candidate", [
    ORIGINAL,
    "import torch\ndef f(x):\n    y = x.exp()\n    return y\ntorch.autograd.gradcheck(f, (p,))\n",
    "import torch\ndef f(x):\n    out = []\n    out.append(x)\n    return out[0]\ntorch.autograd.gradcheck(f, (p,))\n",
    "import torch\ndef f(x):\n    for v in x:\n        r = v\n    return r\ntorch.autograd.gradcheck(f, (p,))\n",
    "import torch\ntorch.autograd.gradcheck(torch.nn.CTCLoss(), (p, t, a, b))\n",  # (no function of the script's)
    "def f(x):\n    return 1\n",  # (no longer differentiated: what fails is for the other checks to say)
    "def f(x:\n",  # (unparsable: the reducer's own check)
])
def test_what_still_depends_or_is_not_differentiated_passes(candidate):
    assert differentiated_screen(ORIGINAL)(candidate) is None


@pytest.mark.parametrize("call", ["torch.func.jacrev({})(p)", "torch.func.grad({})(p)", "jacfwd({})(p)",
                                  "torch.autograd.functional.jacobian({}, p)", "torch.autograd.gradgradcheck({}, (p,))",
                                  "torch.func.vjp({}, p)"])
def test_each_differentiator_and_a_lambda(call):
    source = "import torch\n" + call.format("lambda x: x.sin()") + "\n"
    screen = differentiated_screen(source)
    assert screen is not None
    assert screen("import torch\n" + call.format("lambda x: torch.ones(2)") + "\n")
    assert screen(source) is None


@pytest.mark.parametrize("source", [
    "import torch\nx = torch.ones(2)\nprint(x.sum())\n",  # (nothing differentiated)
    "import torch\ndef f(x):\n    return torch.ones(2)\ntorch.autograd.gradcheck(f, (p,))\n",  # (never depended)
    "import torch\ny = torch.autograd.grad(loss, [w])\n",  # (autograd.grad of tensors: no function)
    "def f(:\n",
])
def test_no_screen_where_no_function_depends_on_its_input(source):
    assert differentiated_screen(source) is None


def test_a_function_that_fails_in_its_own_body_needs_no_return():
    """r10-04: ``def func(a): torch.svd(a)`` under forward-mode ``jacobian`` fails inside the call; the function
    computes from its input without returning it."""
    source = "import torch\ndef func(a):\n    return torch.svd(a)\njacobian(func, (p,))\n"
    assert differentiated_screen(source)("import torch\ndef func(a):\n    torch.svd(a)\njacobian(func, (p,))\n") is None
