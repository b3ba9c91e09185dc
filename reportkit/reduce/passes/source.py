"""Source text utilities: AST positions -> character offsets, tokens, re-indentation.

Everything here is source-preserving: edits are splices on the original text, located
with AST positions (``lineno``/``col_offset`` are 1-based lines and UTF-8 *byte*
columns) and tokenize positions (character columns).
"""

from __future__ import annotations

import ast
import bisect
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator, Sequence

from . import wellformed

_NEWLINE = re.compile(r"\r\n|\r|\n")
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)
_TSTRING_START = getattr(tokenize, "TSTRING_START", -1)
_TSTRING_END = getattr(tokenize, "TSTRING_END", -1)
_INSIGNIFICANT = {
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.COMMENT,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")", "]", "}"}

#: Before 3.12, nodes inside f-strings carry positions relative to the f-string piece.
FSTRING_POSITIONS_OK = sys.version_info >= (3, 12)


def parses(source: str) -> bool:
    """True if ``source`` is a valid module: parses *and* compiles.

    ``compile(..., 'exec')`` also runs the symbol table and code generator, which catch
    errors ``ast.parse`` alone accepts (``return`` outside a function, ``nonlocal`` at
    module level, ``break`` outside a loop, ...). The answer is that of compiling ``source`` whole;
    :mod:`reportkit.reduce.passes.wellformed` mostly finds it without doing so (answers kept by
    content; a candidate made from the reducer's current source compiled only where it differs).
    """
    return wellformed.parses(source)


@dataclass(frozen=True)
class Tok:
    type: int
    string: str
    start: int  # character offset in the source
    end: int


class SourceMap:
    """Offsets, lines and tokens of one source text (which must tokenize). ``newline``: what
    :meth:`default_newline` says (a part of a module: the module's), by default the text's first line break."""

    def __init__(self, source: str, newline: str | None = None) -> None:
        self.source = source
        self._newline = newline
        starts = [0]
        starts.extend(m.end() for m in _NEWLINE.finditer(source))
        self.line_starts = starts

    # ------------------------------------------------------------------ lines
    @property
    def nlines(self) -> int:
        return len(self.line_starts)

    def line_start(self, lineno: int) -> int:
        return self.line_starts[lineno - 1]

    def line_end(self, lineno: int) -> int:
        """Offset just after the newline ending line ``lineno`` (or the end of the text)."""
        if lineno < len(self.line_starts):
            return self.line_starts[lineno]
        return len(self.source)

    def line(self, lineno: int) -> str:
        """Line text including its newline."""
        return self.source[self.line_start(lineno) : self.line_end(lineno)]

    def lineno_of(self, offset: int) -> int:
        return bisect.bisect_right(self.line_starts, offset)

    def newline_of(self, lineno: int) -> str:
        text = self.line(lineno)
        stripped = text.rstrip("\r\n")
        return text[len(stripped) :]

    def default_newline(self) -> str:
        if self._newline is not None:
            return self._newline
        m = _NEWLINE.search(self.source)
        return m.group(0) if m else "\n"

    def offset(self, lineno: int, col_bytes: int) -> int:
        start = self.line_start(lineno)
        text = self.source[start : self.line_end(lineno)]
        if text.isascii():
            return start + col_bytes
        return start + len(text.encode("utf-8", "surrogatepass")[:col_bytes].decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        return (
            self.offset(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.offset(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def stmt_span(self, stmt: ast.stmt) -> tuple[int, int]:
        """Span of a statement including its decorators."""
        start, end = self.span(stmt)
        decorators = getattr(stmt, "decorator_list", None)
        if decorators:
            # Decorators start at the column of the ``def``/``class`` keyword.
            start = min(start, self.offset(decorators[0].lineno, stmt.col_offset))
        return start, end

    def text(self, node: ast.AST) -> str:
        start, end = self.span(node)
        return self.source[start:end]

    def blank_before(self, offset: int) -> bool:
        """True if only whitespace precedes ``offset`` on its line."""
        start = self.line_start(self.lineno_of(offset))
        return self.source[start:offset].strip() == ""

    def indent_at(self, offset: int) -> str:
        """Leading whitespace of the line containing ``offset``."""
        line = self.line(self.lineno_of(offset))
        return line[: len(line) - len(line.lstrip(" \t\f"))]

    # ----------------------------------------------------------------- tokens
    @cached_property
    def _tokenized(self) -> tuple[list[Tok], list[Tok], set[int], set[int]]:
        significant: list[Tok] = []
        comments: list[Tok] = []
        starts_inside: set[int] = set()  # lines whose start lies inside a string literal
        newline_inside: set[int] = set()  # lines whose newline lies inside a string literal
        fstring_stack: list[int] = []
        try:
            for tok in tokenize.generate_tokens(io.StringIO(self.source).readline):
                (r1, c1), (r2, c2) = tok.start, tok.end
                if r1 > len(self.line_starts) or r2 > len(self.line_starts):
                    continue
                start = self.line_starts[r1 - 1] + c1
                end = self.line_starts[r2 - 1] + c2
                if tok.type in (_FSTRING_START, _TSTRING_START):
                    fstring_stack.append(r1)
                elif tok.type in (_FSTRING_END, _TSTRING_END) and fstring_stack:
                    first = fstring_stack.pop()
                    if not fstring_stack:
                        starts_inside.update(range(first + 1, r2 + 1))
                        newline_inside.update(range(first, r2))
                elif tok.type == tokenize.STRING and r2 > r1:
                    starts_inside.update(range(r1 + 1, r2 + 1))
                    newline_inside.update(range(r1, r2))
                if tok.type == tokenize.COMMENT:
                    comments.append(Tok(tok.type, tok.string, start, end))
                elif tok.type not in _INSIGNIFICANT:
                    significant.append(Tok(tok.type, tok.string, start, end))
        except (tokenize.TokenError, SyntaxError):
            pass
        return significant, comments, starts_inside, newline_inside

    @property
    def tokens(self) -> list[Tok]:
        return self._tokenized[0]

    @property
    def comments(self) -> list[Tok]:
        return self._tokenized[1]

    @property
    def lines_starting_in_string(self) -> set[int]:
        return self._tokenized[2]

    @property
    def lines_ending_in_string(self) -> set[int]:
        return self._tokenized[3]

    @cached_property
    def _token_index(self) -> tuple[dict[int, int], dict[int, int]]:
        by_start: dict[int, int] = {}
        by_end: dict[int, int] = {}
        for i, tok in enumerate(self.tokens):
            by_start.setdefault(tok.start, i)
            by_end[tok.end] = i
        return by_start, by_end

    def token_starting_at(self, offset: int) -> int | None:
        return self._token_index[0].get(offset)

    def token_ending_at(self, offset: int) -> int | None:
        return self._token_index[1].get(offset)

    @cached_property
    def brackets(self) -> dict[int, int]:
        """Token index of each opening bracket -> token index of its closing bracket."""
        pairs: dict[int, int] = {}
        stack: list[int] = []
        for i, tok in enumerate(self.tokens):
            if tok.type != tokenize.OP:
                continue
            if tok.string in _OPEN:
                stack.append(i)
            elif tok.string in _CLOSE and stack:
                pairs[stack.pop()] = i
        return pairs

    def unparenthesize(self, start: int, end: int, lo: int, hi: int) -> tuple[int, int]:
        """Grow ``[start, end)`` over redundant parentheses, staying inside ``(lo, hi)``."""
        first = self.token_starting_at(start)
        last = self.token_ending_at(end)
        if first is None or last is None:
            return start, end
        toks = self.tokens
        while first > 0 and last + 1 < len(toks):
            before, after = toks[first - 1], toks[last + 1]
            if before.string != "(" or after.string != ")" or self.brackets.get(first - 1) != last + 1:
                break
            if before.start < lo or after.end > hi:
                break
            first, last = first - 1, last + 1
        return toks[first].start, toks[last].end

    def next_token_after(self, offset: int) -> Tok | None:
        i = self.token_ending_at(offset)
        if i is None or i + 1 >= len(self.tokens):
            return None
        return self.tokens[i + 1]

    def prev_token_before(self, offset: int) -> Tok | None:
        i = self.token_starting_at(offset)
        if i is None or i == 0:
            return None
        return self.tokens[i - 1]


def iter_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Walk ``tree`` in source (pre-)order, skipping f-string internals when positions are unreliable."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.JoinedStr) and not FSTRING_POSITIONS_OK:
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def reindent_lines(smap: SourceMap, first_line: int, text: str, old_indent: str, new_indent: str) -> str:
    """Re-indent ``text`` (whole lines of the source starting at ``first_line``).

    Lines that start inside a multi-line string literal are left alone, so literal
    content never changes.  ``text`` must have the same line structure as the source
    lines it was taken from.
    """
    out: list[str] = []
    inside = smap.lines_starting_in_string
    for i, line in enumerate(text.splitlines(keepends=True)):
        lineno = first_line + i
        if lineno in inside:
            out.append(line)
            continue
        body = line.rstrip("\r\n")
        newline = line[len(body) :]
        if body.strip() == "":
            out.append(newline)
        elif body.startswith(old_indent):
            out.append(new_indent + body[len(old_indent) :] + newline)
        else:
            out.append(new_indent + body.lstrip(" \t\f") + newline)
    result = "".join(out)
    if result and not result.endswith(("\n", "\r")):
        result += smap.default_newline()
    return result


def block_text(
    smap: SourceMap,
    stmts: Sequence[ast.stmt],
    indent: str,
    replacements: Sequence[tuple[int, int, str]] = (),
) -> str:
    """The text of consecutive statements ``stmts`` of one body, re-indented to ``indent``.

    ``replacements`` are ``(start, end, text)`` splices inside the statements that do
    not add or remove line breaks.  The result consists of whole, newline-terminated lines.
    """
    start = smap.stmt_span(stmts[0])[0]
    end = smap.stmt_span(stmts[-1])[1]
    if not smap.blank_before(start):
        # Body on the header line (``if x: a = 1; b = 2``): keep it on one logical line.
        region_start, region_end = start, end
        region = splice_region(smap.source, region_start, region_end, replacements)
        return indent + region.strip() + smap.default_newline()
    first_line = smap.lineno_of(start)
    last_line = smap.lineno_of(end)
    region_start, region_end = smap.line_start(first_line), smap.line_end(last_line)
    region = splice_region(smap.source, region_start, region_end, replacements)
    old_indent = smap.source[region_start:start]
    return reindent_lines(smap, first_line, region, old_indent, indent)


def splice_region(source: str, start: int, end: int, replacements: Sequence[tuple[int, int, str]]) -> str:
    out: list[str] = []
    pos = start
    for r_start, r_end, text in sorted(replacements):
        if r_start < pos or r_end > end:
            continue
        out.append(source[pos:r_start])
        out.append(text)
        pos = r_end
    out.append(source[pos:end])
    return "".join(out)
