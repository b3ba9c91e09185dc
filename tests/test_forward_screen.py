"""A torch module keeps its forward while its objects are called or passed on, where the script reads a
forward's signature (issue 38: a reproducer of an unflattened module's re-export became an empty
``class Main(nn.Module): pass`` exported — the same message from another program). A script that only calls
its modules needs no screen: a call that reaches nn.Module's own forward raises, so a candidate without one
fails the same way only where the failure came first (held-out r12-06: a backward hook under compile)."""

from __future__ import annotations

import textwrap

import pytest

from reportkit.reduce.guards import forward_screen

ORIGINAL = textwrap.dedent('''
    import torch


    class Main(torch.nn.Module):
        def forward(self, x):
            return x


    model = Main()
    model(1)
    torch.export.export(model, (1,))
''')


@pytest.mark.parametrize("candidate, rejected", [
    ("import torch\nclass Main(torch.nn.Module):\n    pass\ntorch.export.export(Main(), (1,))\n", True),
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nm = Main()\nm(1)\n", True),
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nm = Main()\nf(m.eval().to('cpu'))\n", True),
    ("from torch import nn\nclass Main(nn.Module):\n    pass\nMain()(1)\n", True),
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nmodel = Main().eval()\ntorch.export.export(model, (1,))\n", True),
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nm = Main().eval()\nn = m.to('cpu')\nn(1)\n", True),
    # only built (a failing constructor): its forward may go
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nMain()\n", False),
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nm = Main()\nm.eval()\n", False),
    ("import torch\nclass Main(torch.nn.Module):\n    pass\nm = Main().eval()\n", False),
    # still has a forward, or is no module class any more, or gone
    ("import torch\nclass Main(torch.nn.Module):\n    def forward(self, x):\n        pass\nMain()(1)\n", False),
    ("def Main(x):\n    return x\nMain(1)\n", False),
    ("import torch\ntorch.nn.Identity()(1)\n", False),
])
def test_a_module_that_had_a_forward_keeps_it_while_used(candidate, rejected):
    screen = forward_screen(ORIGINAL)
    assert screen is not None
    assert (screen(candidate) is not None) is rejected


@pytest.mark.parametrize("source", [
    "import torch\nclass Main(torch.nn.Module):\n    pass\nMain()(1)\n",  # no forward to keep
    "class Main:\n    def forward(self, x):\n        return x\n",  # no torch module
    "x = (\n",  # does not parse
    # reads no forward's signature: only calls its module
    "import torch\nclass Main(torch.nn.Module):\n    def forward(self, x):\n        return x\nMain()(1)\n",
    "import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n        return x\ntorch.compile(M())(1)\n",
    # scripting compiles the class's own forward only (held-out r13-04: an attribute's annotation failed)
    "import torch\nclass M(torch.nn.Module):\n    w: torch.nn.Module\n    def forward(self, x):\n        return x\n"
    "torch.jit.script(M())\n",
])
def test_nothing_to_screen(source):
    assert forward_screen(source) is None
