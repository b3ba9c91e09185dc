"""The lines of a multi-line string literal, deleted like the elements of a display.

Data pasted into a script as a triple-quoted string (a CSV table, log lines, a config file, a JSON
document) is usually much more than the few rows the failure needs: ``propose_string_lines`` offers each
line strictly inside such a literal (not the lines holding its quotes) as one deletion, and ddmin keeps
the rows, header or keys the failure still reads. Data pasted as implicitly concatenated pieces, one
per line (``("date;payee\\n" "01.10;REWE\\n" ...)``), is the same: each piece is one deletion.
Docstrings (and any string alone as a statement) are the docstrings pass's business; f-strings are left
alone (their lines hold code).

The pass proposes; the tester decides.
"""

from __future__ import annotations

import ast
import tokenize

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
        if node.end_lineno is None:
            continue
        start, end = smap.span(node)
        first = smap.token_starting_at(start)
        if first is None:
            continue
        if smap.tokens[first].end != end:
            edits.extend(_pieces(smap, first, end))
        elif node.end_lineno - node.lineno >= 2:
            edits.extend(Splice(smap.line_start(n), smap.line_end(n))
                         for n in range(node.lineno + 1, node.end_lineno))
    return sorted(edits, key=lambda e: e.start)  # type: ignore[union-attr]


def _pieces(smap: SourceMap, first: int, end: int) -> list[Splice]:
    """One deletion per piece of an implicitly concatenated literal (``("a;b\\n" "1;2\\n" ...)``): the
    piece's line where it is alone on it, else the piece. Nothing for a single parenthesized piece."""
    toks = []
    for tok in smap.tokens[first:]:
        if tok.start >= end:
            break
        if tok.type != tokenize.STRING:
            return []
        toks.append(tok)
    if len(toks) < 2:
        return []
    edits = []
    for i, tok in enumerate(toks):
        line, last = smap.lineno_of(tok.start), smap.lineno_of(tok.end)
        alone = ((i == 0 or smap.lineno_of(toks[i - 1].end) < line)
                 and (i + 1 == len(toks) or smap.lineno_of(toks[i + 1].start) > last)
                 and not smap.line(line)[:tok.start - smap.line_start(line)].strip()
                 and not smap.line(last)[tok.end - smap.line_start(last):].strip())
        edits.append(Splice(smap.line_start(line), smap.line_end(last)) if alone else Splice(tok.start, tok.end))
    return edits
