"""The rendered text of a page and where each run of it came from (HTML-4, HTML-6..HTML-9).

:class:`Writer` receives text runs with their markup pieces and line-break requests, and
writes the document text: CSS's ``white-space: normal`` collapsing (CSS Text 3 §4.1.1: "any
sequence of collapsible spaces and tabs immediately preceding or following a segment break
is removed", a run of document white space becomes one space, spaces at a line's start and
end are removed), ``white-space: pre`` kept verbatim, and the HTML standard's ``innerText``
"required line break count" (§3.2.7): a run of requests becomes as many newlines as the
largest request, none at a block's start or end. It records the top-level blocks (HTML-8)
and, for every run written, the markup span it came from (HTML-18).
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from typing import Final

from .._blocks import Block, new_block
from ._align import Piece

__all__ = ["Segments", "Writer"]

#: HTML-4: CSS "document white space": space, tab, segment break (LF; CR and CRLF were
#: normalized to LF before parsing, HTML §13.2.3.5) and form feed (HTML's ASCII whitespace).
#: Other spaces (NBSP, U+2000..U+200A, ideographic space) are content, as in browsers.
SPACE_RUN: Final = re.compile(r"[ \t\n\f]+")
NOT_SPACE: Final = re.compile(r"[^ \t\n\f]")

#: HTML-8: the text between two top-level blocks.
BLOCK_SEPARATOR: Final = "\n\n"


class Segments:
    """HTML-18: runs of the document text and the markup spans they came from.

    Four parallel arrays, one entry per run, runs in text order and never overlapping:
    ``text_start``, ``text_end``, ``markup_start``, ``markup_end`` (markup offsets are into
    the newline-normalized markup), and ``exact``: 1 when ``text[a:b] ==
    markup[s:e]`` character for character, else 0 (the run came from the whole span: a
    character reference, a collapsed run of white space). Text between runs (block
    separators, line breaks, cell tabs) came from no markup of its own.
    """

    __slots__ = ("exact", "markup_end", "markup_start", "text_end", "text_start")

    def __init__(self) -> None:
        self.text_start = array("q")
        self.text_end = array("q")
        self.markup_start = array("q")
        self.markup_end = array("q")
        self.exact = bytearray()

    def add(self, a: int, b: int, s: int, e: int, exact: bool) -> None:
        """Append the run ``text[a:b]`` from ``markup[s:e]``, joining a contiguous exact run."""
        last = len(self.exact) - 1
        joins = last >= 0 and self.exact[last] and self.text_end[last] == a
        if exact and joins and self.markup_end[last] == s:
            self.text_end[last] = b
            self.markup_end[last] = e
            return
        self.text_start.append(a)
        self.text_end.append(b)
        self.markup_start.append(s)
        self.markup_end.append(e)
        self.exact.append(1 if exact else 0)

    def cut(self, length: int) -> None:
        """Drop every run at or after text offset ``length`` and shorten one across it."""
        while self.text_start and self.text_start[-1] >= length:
            for column in (self.text_start, self.text_end, self.markup_start, self.markup_end):
                column.pop()
            self.exact.pop()
        if self.text_end and self.text_end[-1] > length:
            over = self.text_end[-1] - length
            self.text_end[-1] = length
            if self.exact[-1]:
                self.markup_end[-1] -= over


class Writer:
    """Writes one page's text, blocks and segments (see the module docstring)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.segments = Segments()
        self.blocks: list[Block] = []
        # The open top-level block: its kind and level, where its text starts (None until
        # it has content) and the index of its first part.
        self.kind = "paragraph"
        self.level = 0
        self.block_start: int | None = None
        self.block_part = 0
        self.separator_part = 0  # where the open block's separator starts: parts, text
        self.separator_start = 0
        self.attributes: dict[str, int] = {}
        self.breaks = 0  # HTML-6: the largest line-break request since the last text
        self.newlines = 0  # HTML-9: the ``br`` elements since the last text
        self.tabs = 0  # HTML-10: the cell separators since the last text of the row
        # A collapsed run waiting: its markup span, and whether it is one " " (exact).
        self.space: tuple[int, int, bool] | None = None
        self.pre_tail: list[tuple[str, int, int, list[Piece] | None]] = []  # HTML-6
        self.flatten = 0  # HTML-10: >0 inside a table cell: every line break is a space
        self._pieces: list[Piece] | None = None  # the node whose piece starts are listed
        self._piece_starts: list[int] = []

    # -- blocks ----------------------------------------------------------------------
    def open_block(self, kind: str, level: int = 0) -> None:
        """Close the open block and open one of ``kind`` (HTML-8)."""
        self.close_block()
        self.kind, self.level = kind, level

    def close_block(self) -> None:
        """Close the open block: it ends after its last non-space text (HTML-8)."""
        if self.block_start is not None:
            text = "".join(self.parts[self.block_part :])
            if text.isspace():  # HTML-8: never blank (NBSP alone is text, not a block)
                self._unwrite(self.separator_part, self.separator_start)
            else:
                block = new_block(self.kind, text, self.block_start, self.length, self.level)
                if self.attributes:
                    object.__setattr__(block, "attributes", dict(self.attributes))
                self.blocks.append(block)
        self.block_start = None
        self.kind, self.level = "paragraph", 0
        self.attributes = {}
        self._forget()

    def _forget(self) -> None:
        """Drop what is pending: nothing is written at a block's start or end."""
        self.breaks = self.newlines = self.tabs = 0
        self.space = None
        self.pre_tail = []

    def line_break(self, count: int = 1) -> None:
        """HTML-6: ask for ``count`` newlines before the next text of this block; a row's
        trailing empty cells write no tab (HTML-10)."""
        if self.flatten:
            self.request_space()
            return
        self.tabs = 0
        self.pre_tail = []  # white space ending a pre element ends a line: not written
        if count > self.breaks:
            self.breaks = count

    def br(self) -> None:
        """HTML-9: a ``br`` element: one newline (a space inside a heading or a cell)."""
        if self.flatten:
            self.request_space()
        else:
            self.newlines += 1

    def cell(self) -> None:
        """HTML-10: a cell boundary in a table row: a tab before the next text of the row
        (a space in a table inside a block, which is flattened)."""
        if self.flatten:
            self.request_space()
        else:
            self.tabs += 1

    def request_space(self) -> None:
        """A collapsible space from no markup (a flattened line break)."""
        if self.space is None:
            self.space = (-1, -1, False)

    # -- text ------------------------------------------------------------------------
    def text(self, data: str, pieces: list[Piece] | None, pre: bool) -> None:
        """Write a text node's ``data`` (its markup ``pieces``; None: unplaced, HTML-20)."""
        if pre and not self.flatten:
            if "\f" in data:  # HTML-6: a form feed in pre is a space, never a page break
                data, pieces = _no_form_feeds(data, pieces)
            self._pre(data, pieces)
            return
        at = 0
        for match in SPACE_RUN.finditer(data):
            if match.start() > at:
                self._content(data, at, match.start(), pieces)
            if self.space is None:
                s, e = self._span(match.start(), match.end(), pieces)
                self.space = (s, e, e - s == 1 and match.group() == " ")
            at = match.end()
        if at < len(data):
            self._content(data, at, len(data), pieces)

    def _pre(self, data: str, pieces: list[Piece] | None) -> None:
        """HTML-6: ``white-space: pre``: every character kept, but a block's leading blank
        lines and trailing white space are not written."""
        first = NOT_SPACE.search(data)
        if first is None:
            if self.block_start is not None:
                self.pre_tail.append((data, 0, len(data), pieces))
            return
        start = 0
        if self.block_start is None:
            start = data.rfind("\n", 0, first.start()) + 1  # leading blank lines go
            self._begin()
        else:
            for tail in self.pre_tail:
                self._write(*tail)
            self.pre_tail = []
            self._open_line()
        last = len(data.rstrip(" \t\n\f"))
        self._write(data, start, last, pieces)
        if last < len(data):
            self.pre_tail.append((data, last, len(data), pieces))

    def _begin(self) -> None:
        """Start the open block's text: after the blocks before it, a blank line (HTML-8);
        a table's first row keeps the tabs of its leading empty cells (HTML-10)."""
        tabs = self.tabs
        self._forget()
        self.separator_part, self.separator_start = len(self.parts), self.length
        if self.blocks:
            self._raw(BLOCK_SEPARATOR)
        self.block_start = self.length
        self.block_part = len(self.parts)
        if tabs:
            self._raw("\t" * tabs)

    def _content(self, data: str, a: int, b: int, pieces: list[Piece] | None) -> None:
        """Write the non-space run ``data[a:b]`` after what is pending."""
        if self.block_start is None:
            self._begin()
        else:
            self.pre_tail = []
            self._open_line()
        self._write(data, a, b, pieces)

    def _open_line(self) -> None:
        """Write what is pending before new text: newlines, tabs, or one space."""
        lines = max(self.breaks, self.newlines)
        if lines:
            self._raw("\n" * lines)
        if self.tabs:
            self._raw("\t" * self.tabs)
        elif not lines and self.space is not None:
            s, e, exact = self.space
            if s >= 0:
                self.segments.add(self.length, self.length + 1, s, e, exact)
            self._raw(" ")
        self.breaks = self.newlines = self.tabs = 0
        self.space = None

    def _unwrite(self, part: int, length: int) -> None:
        """Remove what was written from part ``part`` (text offset ``length``) on."""
        del self.parts[part:]
        self.length = length
        self.segments.cut(length)

    def _raw(self, text: str) -> None:
        """Write text (its segments, if any, are the caller's)."""
        self.parts.append(text)
        self.length += len(text)

    def _first(self, pieces: list[Piece], a: int) -> int:
        """The index of the first piece ending after ``a`` (pieces are in data order and
        tile the data). Their starts are listed once per node, so a node of many pieces
        (a paragraph of character references) costs a bisection a run, not a scan."""
        if pieces is not self._pieces:
            self._pieces = pieces
            self._piece_starts = [piece[0] for piece in pieces]
        return max(0, bisect_right(self._piece_starts, a) - 1)

    def _write(self, data: str, a: int, b: int, pieces: list[Piece] | None) -> None:
        """Write ``data[a:b]`` and its segments."""
        if a >= b:
            return
        base = self.length - a
        if pieces is None:
            pass  # HTML-20: unplaced text has no segment (it maps to a point)
        elif len(pieces) == 1 and pieces[0][4]:
            s = pieces[0][2]
            self.segments.add(base + a, base + b, s + a, s + b, True)
        else:
            for k in range(self._first(pieces, a), len(pieces)):
                pa, pb, s, e, exact = pieces[k]
                if pa >= b:
                    break
                lo, hi = max(pa, a), min(pb, b)
                if lo >= hi:
                    continue
                if exact:
                    self.segments.add(base + lo, base + hi, s + lo - pa, s + hi - pa, True)
                else:
                    self.segments.add(base + lo, base + hi, s, e, False)
        self._raw(data[a:b] if a or b < len(data) else data)

    def _span(self, a: int, b: int, pieces: list[Piece] | None) -> tuple[int, int]:
        """The markup span of ``data[a:b]`` (a white-space run) from its pieces."""
        if pieces is None:
            return (-1, -1)
        start = end = -1
        for k in range(self._first(pieces, a), len(pieces)):
            pa, pb, s, e, exact = pieces[k]
            if pa > b:
                break
            if pa <= a < pb:
                start = s + a - pa if exact else s
            if pa < b <= pb:
                end = s + b - pa if exact else e
        return (start, end) if 0 <= start <= end else (-1, -1)

    def finish(self) -> str:
        """Close the last block and return the document text (blocks joined, HTML-8)."""
        self.close_block()
        return "".join(self.parts)


def _no_form_feeds(data: str, pieces: list[Piece] | None) -> tuple[str, list[Piece] | None]:
    """HTML-6: ``data`` with each form feed a space, and the pieces split so a space written
    for a form feed is a run of its own, not exact (HTML-18: text " ", markup "\\f")."""
    if pieces is None:
        return data.replace("\f", " "), None
    out: list[Piece] = []
    for pa, pb, s, e, exact in pieces:
        if not exact:
            out.append((pa, pb, s, e, exact))
            continue
        at = pa
        for f in range(pa, pb):
            if data[f] == "\f":
                if f > at:
                    out.append((at, f, s + at - pa, s + f - pa, True))
                out.append((f, f + 1, s + f - pa, s + f - pa + 1, False))
                at = f + 1
        if at < pb:
            out.append((at, pb, s + at - pa, s + pb - pa, True))
    return data.replace("\f", " "), out
