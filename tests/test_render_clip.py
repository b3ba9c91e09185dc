"""issue.md clips a long reproducer so that the block still parses (issue 35: the cut marker inside a python
block made it a syntax error)."""

from __future__ import annotations

import ast
import random
import string

import pytest

RNG = random.Random()


def _r(n: int) -> str:
    return "".join(RNG.choice(string.ascii_letters + string.digits) for _ in range(n))


@pytest.mark.parametrize("shape", ["list", "function", "class"])
def test_clipped_reproducer_still_parses(shape):
    from reportkit.report.render import Clipper

    rows = "".join(f"    {_r(30)!r},\n" for _ in range(400))
    body = {"list": f"DATA = [\n{rows}]\n",
            "function": "def main():\n" + "".join(f"    x{i} = {_r(20)!r}\n" for i in range(900)),
            "class": "class T:\n    def test(self):\n        try:\n" +
                     "".join(f"            y{i} = {i}\n" for i in range(2500)) + "        finally:\n            pass\n"}[shape]
    source = "import os\n\n" + body + "\nmain = print\n"
    clipped = Clipper(0.5)(source, "code", "reproducer/x.py")
    assert len(clipped) < len(source)
    ast.parse(clipped)
    assert clipped.rstrip().endswith("the full text is in the bundle: reproducer/x.py]")
    assert clipped.rstrip().splitlines()[-1].startswith("# [... ")


def test_hard_cut_inside_a_python_block_leaves_it_parsing():
    from reportkit.report.render import hard_cut

    code = "import os\n\n" + "".join(f"def f{i}():\n    return [\n        {_r(40)!r},\n    ]\n\n" for i in range(400))
    md = "## Reproducer\n\n```python\n" + code + "```\n\n## Logs\n\n```shell\nok\n```\n"
    out = hard_cut(md, 9000)
    assert len(out) < 9000
    block = out.split("```python\n", 1)[1].split("\n```", 1)[0]
    ast.parse(block)
    assert "def f" in block
