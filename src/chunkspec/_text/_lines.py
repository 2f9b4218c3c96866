"""Line tables: a text's lines as exact offsets, with CommonMark's line terminators (MD-2)."""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from itertools import accumulate
from operator import add

__all__ = ["LineTable", "line_table"]

#: Line terminators exactly as CommonMark (and markdown-it's normalize step) counts them
#: (rule MD-2). ``str.splitlines`` would also break at \v, \f, \x1c..\x1e, \x85, \u2028...
_NEWLINE = re.compile(r"\r\n|\r|\n")

#: A line table: ``(starts, ends)``, line ``i`` is ``text[starts[i]:ends[i]]`` (MD-2).
LineTable = tuple[Sequence[int], Sequence[int]]

#: Characters split into lines at once when building a line table (bounds its scratch memory).
_PIECE = 1 << 16


def line_table(text: str) -> LineTable:
    """Return ``(starts, ends)``: line ``i`` is ``text[starts[i]:ends[i]]``, terminator excluded.

    A text ending in a terminator has a final empty line; ``""`` has one empty line. The two
    are arrays of machine integers (4 bytes a line below 4 GiB, not an ``int`` object each).
    """
    # Fast paths, in C: one kind of terminator throughout (MD-2's three kinds all count).
    if "\r" not in text:
        return _uniform(text, "\n")
    if text.count("\r\n") == text.count("\r") == text.count("\n"):
        return _uniform(text, "\r\n")
    starts = array(_typecode(text), [0])
    ends = array(_typecode(text))
    for match in _NEWLINE.finditer(text):
        ends.append(match.start())
        starts.append(match.end())
    ends.append(len(text))
    return starts, ends


def _uniform(text: str, terminator: str) -> LineTable:
    """The line table of ``text`` whose only line terminator is ``terminator``.

    Split a piece at a time so that the lines of the whole text are never held at once.
    """
    width = len(terminator)
    starts = array(_typecode(text))
    ends = array(_typecode(text))
    at = 0
    while True:
        cut = text.find(terminator, at + _PIECE) if len(text) - at > _PIECE else -1
        lengths = list(map(len, text[at : len(text) if cut < 0 else cut].split(terminator)))
        first = len(starts)
        starts.extend(
            map(add, accumulate(lengths[:-1], initial=at), range(0, width * len(lengths), width))
        )
        ends.extend(map(add, starts[first:], lengths))
        if cut < 0:
            return starts, ends
        at = cut + width


def _typecode(text: str) -> str:
    """The array type of ``text``'s offsets: 4 bytes each when they fit (they do below 4 GiB)."""
    return "I" if len(text) < 1 << 32 else "q"
