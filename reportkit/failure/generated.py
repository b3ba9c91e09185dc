"""Failures in code torch generated from the script: an FX ``GraphModule``'s forward (``<eval_with_key>.N``).

A traced module's forward is a program torch wrote from the script's (traced, then edited by graph passes
or by hand); where a failure arose in it, its statement is the site the way a statement of the script is. The
same message from another generated statement is another failure: a graph edit that made a node read itself
(``relu = torch.relu(relu)``) and a node appended after the output (``return relu``) both raise
"cannot access local variable 'relu'", and a function ``torch.fx.wrap`` kept as a leaf, reached by TorchScript
through the traced module's forward, fails with the message its direct scripting gives.

Where torch tells the statement:

- a raising frame ``<eval_with_key>.N from <file>:<line> in <function>`` (the generated file's name);
- FX's wrapper (``torch/fx/graph_module.py``, ``_WrappedCall``), which re-raises the exception without its
  traceback after printing ``Call using an FX-traced Module, line N of the traced Module's generated forward
  function:``, the lines around it and a ``~~~ <--- HERE`` marker under the failing one on stderr;
- TorchScript's compile error, whose message quotes each function on the call chain (``File "<eval_with_key>.0
  ...", line 5`` and its lines, the marker under the call).
"""

from __future__ import annotations

import ast
import re

_FILE_RE = re.compile(r"<eval_with_key>(?:\.\d+)?(?: from .*)?")
_FX_REPORT = "of the traced Module's generated forward function:"
_HERE_RE = re.compile(r"^\s*~+ <--- HERE\s*$")
_EXCERPT_RE = re.compile(r'^\s*File "<eval_with_key>[^"]*", line \d+')
_FILE_LINE_RE = re.compile(r'^\s*File "[^"]*", line \d+')
_NUMBERED_RE = re.compile(r"\b([A-Za-z_]\w*?)_\d+\b")

GENERATED_FILE = "<eval_with_key>"


def is_generated(file: str) -> bool:
    return bool(_FILE_RE.fullmatch(file))


def _marked(lines: list[str], start: int) -> str | None:
    """The last non-blank line above the first ``<--- HERE`` marker from ``start`` (FX's report puts a blank
    line between), before another quoted file begins."""
    for i in range(start, len(lines)):
        if i > start and _FILE_LINE_RE.match(lines[i]):
            return None
        if _HERE_RE.match(lines[i]):
            above = [line.strip() for line in lines[start:i] if line.strip()]
            return above[-1] if above else None
    return None


def from_stderr(stderr: str) -> str | None:
    """The statement FX's wrapper marked in its last report on stderr."""
    lines = stderr.splitlines()
    at = next((i for i in range(len(lines) - 1, -1, -1) if _FX_REPORT in lines[i]), None)
    return None if at is None else _marked(lines, at + 1)


def from_message(message: str) -> str | None:
    """The statement TorchScript's message marks in the first generated function it quotes."""
    lines = message.splitlines()
    at = next((i for i, line in enumerate(lines) if _EXCERPT_RE.match(line)), None)
    return None if at is None else _marked(lines, at + 1)


def site(statement: str) -> str:
    """What a generated statement does, the numbering of its names aside (``linear_1`` is ``linear``: a node
    removed before it renumbers the rest) and the frees FX appends (``;  x = y = None``): the call its value
    makes (``torch.relu()``, ``self.fc()``), ``return`` for the output, else the statement so normalized."""
    first = statement.split(";")[0].strip()
    try:
        node = ast.parse(first).body[0]
    except (SyntaxError, ValueError, IndexError):
        return _NUMBERED_RE.sub(r"\1", first)
    if isinstance(node, ast.Return):
        return "return"
    value = node.value if isinstance(node, (ast.Assign, ast.Expr)) else None
    if isinstance(value, ast.Call):
        return _NUMBERED_RE.sub(r"\1", ast.unparse(value.func)) + "()"
    return _NUMBERED_RE.sub(r"\1", ast.unparse(node))
