"""Final clean-ups: comments, blank lines, trailing whitespace (docstrings live in statements)."""

from __future__ import annotations

from .edits import Splice, apply_splices
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
