"""Final clean-ups: comments, blank lines, trailing whitespace, imports at the top, redundant parentheses, short
statements on one line (docstrings live in statements)."""

from __future__ import annotations

import ast
import keyword
import re

from .edits import Splice, apply_splices
from .expressions import _bound_names
from .scopes import import_binding
from .source import SourceMap


def drop_comments(source: str) -> str | None:
    """The source without comments; comment-only lines disappear entirely."""
    smap = SourceMap(source)
    splices: list[Splice] = []
    for comment in smap.comments:
        lineno = smap.lineno_of(comment.start)
        line_start = smap.line_start(lineno)
        before = source[line_start : comment.start]
        if before.strip() == "":
            splices.append(Splice(line_start, smap.line_end(lineno)))
        else:
            splices.append(Splice(line_start + len(before.rstrip()), comment.end))
    if not splices:
        return None
    return apply_splices(source, splices)


def tidy_whitespace(source: str) -> str:
    """Strip trailing whitespace, collapse runs of blank lines to one, trim the ends.

    Lines inside multi-line string literals are left untouched.
    """
    smap = SourceMap(source)
    starts_inside = smap.lines_starting_in_string
    ends_inside = smap.lines_ending_in_string
    out: list[str] = []
    blank_run = 0
    for lineno in range(1, smap.nlines + 1):
        line = smap.line(lineno)
        if not line:
            continue
        body = line.rstrip("\r\n")
        newline = line[len(body) :] or smap.default_newline()
        if lineno in ends_inside or lineno in starts_inside:
            if lineno not in ends_inside:
                body = body.rstrip()
            out.append(body + newline)
            blank_run = 0
            continue
        body = body.rstrip()
        if body == "":
            blank_run += 1
            if blank_run > 1 or not out:
                continue
            out.append(newline)
            continue
        blank_run = 0
        out.append(body + newline)
    while out and out[-1].strip() == "":
        out.pop()  # trailing blank lines (a string's last line holds its closing quote)
    return "".join(out)


#: A joined statement or an import block line longer than this stays as it was (black's default).
MAX_LINE = 88


def _whole_lines(smap: SourceMap, start: int, end: int) -> bool:
    """Nothing but whitespace shares the lines of ``[start, end)`` (no ``;``-joined neighbour, no comment)."""
    first, last = smap.lineno_of(start), smap.lineno_of(end)
    before = smap.source[smap.line_start(first) : start]
    after = smap.source[end : smap.line_end(last)]
    return before.strip() == "" and after.strip() == ""


def _parsed(source: str) -> tuple[ast.Module, str, SourceMap] | None:
    """``source``'s tree, its dump (what a rewrite must parse to again) and its source map; None if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    return tree, ast.dump(tree), SourceMap(source)


def join_short_statements(source: str) -> str | None:
    """A statement (or a compound statement's header) written over several lines that fits on one -> one line.

    ``DEFAULTS = {\\n    "dim": 1,\\n}`` -> ``DEFAULTS = {"dim": 1}``: what a person does with what reduction
    left of a once-long literal or call. Only text without comments or multi-line strings inside, and only
    where the program parses to the very same tree (a one-element tuple keeps its comma).
    """
    parsed = _parsed(source)
    if parsed is None:
        return None
    tree, reference, smap = parsed
    commented = {smap.lineno_of(c.start) for c in smap.comments}
    in_string = smap.lines_starting_in_string | smap.lines_ending_in_string
    splices: list[Splice] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        start = smap.span(node)[0]
        if isinstance(body, list) and body:  # compound: the header only, up to the line its body starts on
            last = body[0].lineno - 1
            end = smap.line_end(last) - len(smap.newline_of(last))
        else:
            last, end = node.end_lineno, smap.span(node)[1]
        lines = range(node.lineno, last + 1)
        if last <= node.lineno or commented.intersection(lines) or in_string.intersection(lines):
            continue
        if smap.source[smap.line_start(node.lineno) : start].strip() or smap.source[end : smap.line_end(last)].strip():
            continue  # shares a line with another statement
        indent = smap.indent_at(start)
        one_line = _joined(source[start:end])
        if len(indent) + len(one_line) <= MAX_LINE:
            text = _without_commas(source, start, end, one_line, reference)
        elif not isinstance(body, list) or not body:
            text = _hugged(source, start, end, indent, reference)
        else:
            text = None
        if text is not None:
            splices.append(Splice(start, end, text))
    if not splices:
        return None
    return apply_splices(source, splices)


def _hugged(source: str, start: int, end: int, indent: str, reference: str) -> str | None:
    """A statement too long for one line whose first line opens a bracket and whose last line closes it, with
    more lines between: those as one indented line, where it fits (``export(\n    model,\n    (x,),\n)`` ->
    ``export(\n    model, (x,)\n)``)."""
    lines = source[start:end].split("\n")
    if len(lines) < 4 or lines[0].rstrip()[-1:] not in ("(", "[", "{") or lines[-1].strip()[:1] not in (")", "]", "}"):
        return None
    inner = _joined("\n".join(lines[1:-1]))
    if len(indent) + 4 + len(inner) > MAX_LINE:
        return None
    text = f"{lines[0].rstrip()}\n{indent}    {inner}\n{indent}{lines[-1].strip()}"
    return _without_commas(source, start, end, text, reference)


def _without_commas(source: str, start: int, end: int, text: str, reference: str) -> str | None:
    """``text`` in place of ``source[start:end]`` without the commas before a closing bracket that the tree
    does not need (a one-element tuple keeps its comma); None if ``text`` is no longer the same program."""
    if _dump(source[:start] + text + source[end:]) != reference:
        return None
    for m in reversed(list(re.finditer(r",(\s*)(?=[)\]}])", text))):
        shorter = text[:m.start()] + text[m.end():] if "\n" not in m.group(1) else text[:m.start()] + text[m.start() + 1:]
        if _dump(source[:start] + shorter + source[end:]) == reference:
            text = shorter
    return text


def _joined(text: str) -> str:
    """The lines of ``text`` as one: no space inside brackets, one between tokens, continuations dropped."""
    pieces = [piece.strip() for piece in text.splitlines()]
    joined = pieces[0]
    for piece in pieces[1:]:
        if joined.endswith("\\"):
            joined = joined[:-1].rstrip()
        if not joined or not piece or joined[-1] in "([{" or piece[0] in ")]},:":
            joined += piece
        else:
            joined += " " + piece
    return joined


def _dump(source: str) -> str | None:
    try:
        return ast.dump(ast.parse(source))
    except (SyntaxError, ValueError):
        return None


def _import_text(stmt: ast.Import | ast.ImportFrom, names: list[ast.alias]) -> str:
    listed = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in names)
    if isinstance(stmt, ast.Import):
        return f"import {listed}"
    return f"from {'.' * stmt.level}{stmt.module or ''} import {listed}"


def tidy_imports(source: str) -> str | None:
    """The module's imports at its top, one ``from m import a, b`` per module, each import once.

    Folded modules and reduction leave imports scattered between statements (``import torch`` after a
    function, ``from torch.utils.data import Dataset`` and ``... import DataLoader`` apart). Only
    whole-line module-level imports move, after the docstring and ``__future__`` imports, in their order;
    an import of a name the program also binds otherwise, or imports differently, stays where it is.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    smap = SourceMap(source)
    body = tree.body
    first = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        first = 1
    while first < len(body) and isinstance(body[first], ast.ImportFrom) and body[first].module == "__future__":
        first += 1
    if first >= len(body):
        return None
    movable = [stmt for stmt in body[first:] if isinstance(stmt, (ast.Import, ast.ImportFrom))
               and _whole_lines(smap, *smap.span(stmt)) and _only_binder(tree, stmt)]
    if not movable:
        return None
    # the block: one statement per ``import`` line or ``from`` module, each alias once, in first-seen order
    block: list[tuple[ast.Import | ast.ImportFrom, list[ast.alias]]] = []
    from_index: dict[tuple[str | None, int], int] = {}
    seen: set[tuple] = set()
    for stmt in movable:
        fresh = []
        for alias in stmt.names:
            key = _source_of(stmt, alias)
            if key not in seen:
                seen.add(key)
                fresh.append(alias)
        if not fresh:
            continue
        if isinstance(stmt, ast.ImportFrom):
            where = from_index.get((stmt.module, stmt.level))
            if where is not None:
                block[where][1].extend(fresh)
                continue
            from_index[(stmt.module, stmt.level)] = len(block)
        block.append((stmt, fresh))
    newline = smap.default_newline()
    lines = [_import_text(stmt, names) for stmt, names in block]
    text = "".join(line + newline for line in lines)
    at = smap.line_start(smap.lineno_of(smap.stmt_span(body[first])[0]))
    removed = sorted((smap.line_start(s.lineno), smap.line_end(s.end_lineno)) for s in movable)
    out, cursor = [source[:at], text], at
    for start, end in removed:
        out.append(source[cursor:start])
        cursor = end
    out.append(source[cursor:])
    candidate = "".join(out)
    rest = "".join(out[2:])
    if rest.strip() and not rest.startswith(("\n", "\r")):
        candidate = "".join(out[:2]) + newline + rest
    return None if candidate == source or _same_layout(candidate, source) else candidate


def _source_of(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> tuple:
    return type(node).__name__, getattr(node, "module", None), getattr(node, "level", 0), alias.name, alias.asname


def _only_binder(tree: ast.Module, stmt: ast.Import | ast.ImportFrom) -> bool:
    """Each name ``stmt`` binds is bound nowhere else but by module-level imports of the same thing."""
    if any(alias.name == "*" for alias in stmt.names):
        return False
    names = {import_binding(stmt, alias): _source_of(stmt, alias) for alias in stmt.names}
    top = {id(node) for node in tree.body}
    binders: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = import_binding(node, alias)
                if name in names:
                    if id(node) not in top or _source_of(node, alias) != names[name]:
                        return False
                    binders[name] = binders.get(name, 0) + 1
    bound = _bound_names(tree)
    return all(bound.get(name, 0) == binders.get(name, 0) for name in names)


def _same_layout(a: str, b: str) -> bool:
    """Equal up to blank lines (a move that only shifted blank lines is no change)."""
    return [line for line in a.splitlines() if line.strip()] == [line for line in b.splitlines() if line.strip()]


#: Expressions that read the same without parentheses around them wherever they stand (atoms and trailers).
_ATOMIC = (ast.Call, ast.Attribute, ast.Subscript, ast.Name, ast.Constant, ast.List, ast.Dict, ast.Set,
           ast.ListComp, ast.DictComp, ast.SetComp)


def drop_redundant_parens(source: str) -> str | None:
    """``((torch.sum(x))).backward()`` -> ``torch.sum(x).backward()``: parentheses around a call, an attribute, a
    subscript, a name, a constant or a display, left by inlining (which parenthesizes what it puts in place so it
    stands anywhere). Only pairs on one line that are nobody's call or subscript brackets, and only where the
    program parses to the very same tree: the same program, one test in the final passes."""
    parsed = _parsed(source)
    if parsed is None:
        return None
    tree, reference, smap = parsed
    cuts = {pair for node in ast.walk(tree) if isinstance(node, _ATOMIC) for pair in _enclosing_pairs(source, *smap.span(node))}
    out = source
    removed: list[int] = []  # offsets in ``source`` of the parentheses gone so far
    for before, after in sorted(cuts, reverse=True):  # inner pairs of a nest first
        b = before - sum(r < before for r in removed)
        a = after - sum(r < after for r in removed)
        candidate = out[:b] + out[b + 1:a] + out[a + 1:]
        if _parses_to(candidate, reference):
            out = candidate
            removed += [before, after]
    return out if out != source else None


def spread_starred_displays(source: str) -> str | None:
    """``b.lu_solve(*(lu, pivots))`` -> ``b.lu_solve(lu, pivots)``: a call's argument that unpacks a tuple or list
    display written there (what materializing ``*torch.lu(A)`` leaves) passes its elements. The same call;
    only a display of one line, not empty, without an unpacking of its own."""
    out = source
    for _ in range(8):  # (one inside another: the outer one first)
        spread = _spread_once(out)
        if spread is None:
            break
        out = spread
    return out if out != source else None


def _spread_once(source: str) -> str | None:
    parsed = _parsed(source)
    if parsed is None:
        return None
    tree, _reference, smap = parsed
    splices = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        for arg in node.args:
            display = arg.value if isinstance(arg, ast.Starred) else None
            if (isinstance(display, (ast.Tuple, ast.List)) and display.elts and arg.lineno == arg.end_lineno
                    and not any(isinstance(e, ast.Starred) for e in display.elts)):
                splices.append(Splice(*smap.span(arg), ", ".join(smap.text(e) for e in display.elts)))
    if not splices:
        return None
    candidate = apply_splices(source, splices)
    return candidate if candidate is not None and _dump(candidate) is not None else None


def _enclosing_pairs(source: str, start: int, end: int) -> list[tuple[int, int]]:
    """The offsets of the ``(`` and ``)`` right around ``source[start:end]`` (blanks between), pair after pair
    outwards, up to a pair that is a call's own (``f(x)``; not ``return (x)``, ``not (x)``) or across lines."""
    pairs: list[tuple[int, int]] = []
    while True:
        before, after = source.rfind("(", 0, start), source.find(")", end)
        if before < 0 or after < 0 or source[before + 1:start].strip(" \t") or source[end:after].strip(" \t"):
            return pairs
        head = source[:before].rstrip(" \t")
        word = re.search(r"\w+$", head)
        keyword_before = word is not None and keyword.iskeyword(word.group()) and word.group() not in ("None", "True",
                                                                                                     "False")
        if not keyword_before and head[-1:] and (head[-1].isalnum() or head[-1] in "_)]}'\""):
            return pairs
        pairs.append((before, after))
        start, end = before, after + 1


def _parses_to(candidate: str, reference: str) -> bool:
    try:
        return ast.dump(ast.parse(candidate)) == reference
    except SyntaxError:
        return False
