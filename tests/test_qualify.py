"""Gathering one package's imports into ``import package`` (reportkit/reduce/passes/qualify.py)."""

from __future__ import annotations

import pytest

from reportkit.reduce import passes as P
from reportkit.reduce.passes.qualify import MAX_READS


@pytest.mark.parametrize(
    "source, expected",
    [
        # a from-import beside the package's import: its name spelled in full where it is read
        ("import torch\nfrom torch.func import vmap\nvmap(f)(torch.randn(1))\n",
         ["import torch\ntorch.func.vmap(f)(torch.randn(1))\n"]),
        # several; the package's import stands where the first of them stood; a module's alias stays
        ("from torch.optim import SGD\nimport torch.nn.functional as F\nimport torch\nfrom torch import nn\n"
         "opt = SGD(nn.Linear(1, 1).parameters())\nF.relu(torch.randn(1))\n",
         ["import torch\nimport torch.nn.functional as F\nopt = torch.optim.SGD(torch.nn.Linear(1, 1).parameters())\n"
          "F.relu(torch.randn(1))\n"]),
        # two from-imports without the package's own import, and ``import torch.fx`` (which binds ``torch``)
        ("from torch import nn\nfrom torch.fx import symbolic_trace\nsymbolic_trace(nn.Identity())\n",
         ["import torch\ntorch.fx.symbolic_trace(torch.nn.Identity())\n"]),
        ("import torch.fx\nfrom torch import nn\ntorch.fx.symbolic_trace(nn.Identity())\n",
         ["import torch\ntorch.fx.symbolic_trace(torch.nn.Identity())\n"]),
        # ``from m import a as b``, read in a function and in an annotation
        ("import torch\nfrom torch.nn import Module as M\ndef f(m: M):\n    return M\n",
         ["import torch\ndef f(m: torch.nn.Module):\n    return torch.nn.Module\n"]),
        # a name read too often keeps its import; the others are still gathered when two statements remain
        ("import torch\nfrom torch import nn\nfrom torch.func import vmap\n" + "nn.Identity()\n" * (MAX_READS + 1)
         + "vmap(f)\n",
         ["import torch\nfrom torch import nn\n" + "nn.Identity()\n" * (MAX_READS + 1) + "torch.func.vmap(f)\n"]),
        # in order, as long as no line grows past the longest (or 88 columns): a name whose line would stays
        ("import torch\nfrom torch.optim import SGD\nfrom torch.optim.lr_scheduler import MultiplicativeLR\n"
         "opt = SGD(m.parameters())\nMultiplicativeLR(opt, lr_lambda=lambda epoch: None, last_epoch=1, verbose=False)\n",
         ["import torch\nfrom torch.optim.lr_scheduler import MultiplicativeLR\nopt = torch.optim.SGD(m.parameters())\n"
          "MultiplicativeLR(opt, lr_lambda=lambda epoch: None, last_epoch=1, verbose=False)\n"]),
        # one candidate per package, the one saving the most lines first
        ("import numpy\nfrom numpy import zeros\nimport torch\nfrom torch import cat\nfrom torch.func import vmap\n"
         "zeros(1)\ncat(vmap(f))\n",
         ["import numpy\nfrom numpy import zeros\nimport torch\nzeros(1)\ntorch.cat(torch.func.vmap(f))\n",
          "import numpy\nimport torch\nfrom torch import cat\nfrom torch.func import vmap\nnumpy.zeros(1)\ncat(vmap(f))\n"]),
        # not: one statement per package, a relative or star import, ``__future__``, a name bound otherwise too
        # (a parameter, an assignment), the package's own name bound otherwise, a name declared global, read in an
        # f-string, a program that reads its scope by name, an import sharing its line, one inside a function,
        # a line longer than any the script had
        ("from torch.func import vmap\nvmap(f)\n", []),
        ("import torch.nn as nn\nimport torch.fx as fx\nfx.symbolic_trace(nn.Identity())\n", []),
        ("import torch as T\nfrom torch.func import vmap\nvmap(T.randn(1))\n", []),
        ("import torch\nfrom .x import y\nfrom torch import *\ny(cat)\n", []),
        ("from __future__ import annotations\nimport __future__\n", []),
        ("import torch\nfrom torch.func import vmap\ndef g(vmap):\n    return vmap\n", []),
        ("import torch\nfrom torch.func import vmap\nvmap = 1\n", []),
        ("import torch\nfrom torch.func import vmap\ntorch = 1\nvmap(f)\n", []),
        ("import torch\nfrom torch.func import vmap\ndef g():\n    global vmap\n", []),
        ('import torch\nfrom torch.func import vmap\nprint(f"{vmap}")\n', []),
        ("import torch\nfrom torch.func import vmap\nglobals()\nvmap(f)\n", []),
        ("import torch; from torch.func import vmap\nvmap(f)\n", []),
        ("import torch\ndef g():\n    from torch.func import vmap\n    return vmap\n", []),
        ("import torch\nfrom torch.func import vmap\n" + "vmap(" + "x, " * 28 + "x)\n", []),
    ],
)
def test_qualify_import_candidates(source: str, expected: list[str]) -> None:
    candidates = P.qualify_import_candidates(source)
    assert candidates == expected
    assert all(P.parses(c) for c in candidates)


def test_gathering_rides_with_the_final_passes() -> None:
    """It changes no reduction and may cost a test only where it fails: never a test of its own."""
    assert P.QUALIFY_IMPORTS in P.FINAL_RIDERS and P.STARRED in P.FINAL_RIDERS
    assert P.QUALIFY_IMPORTS not in P.FINAL + P.SCAFFOLD + P.FINE + P.STRUCTURAL
