"""The lines of a multi-line string literal, deleted like the elements of a display.

Data pasted into a script as a triple-quoted string (a CSV table, log lines, a config file, a JSON
document) is usually much more than the few rows the failure needs: ``propose_string_lines`` offers each
line strictly inside such a literal (not the lines holding its quotes) as one deletion, and ddmin keeps
the rows, header or keys the failure still reads. Docstrings (and any string alone as a statement) are
the docstrings pass's business; f-strings are left alone (their lines hold code).

The pass proposes; the tester decides.
"""

from __future__ import annotations

import ast

from .edits import Edit, Splice
from .source import SourceMap


def propose_string_lines(source: str) -> list[Edit]:  # Splices: ddmin's edits
    """One deletion per interior line of each multi-line ``str``/``bytes`` literal."""
    tree = ast.parse(source)
    smap = SourceMap(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr):
            skip.add(id(node.value))
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(value) for value in node.values)
    edits: list[Splice] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))) or id(node) in skip:
            continue
        if node.end_lineno is None or node.end_lineno - node.lineno < 2:
            continue
        start, end = smap.span(node)
        first = smap.token_starting_at(start)
        if first is None or smap.tokens[first].end != end:
            continue  # implicitly concatenated pieces, or a parenthesized string: not one literal
        edits.extend(Splice(smap.line_start(n), smap.line_end(n)) for n in range(node.lineno + 1, node.end_lineno))
    return sorted(edits, key=lambda e: e.start)  # type: ignore[union-attr]
