"""Byte offsets of the UTF-8 source turned into code points, once (CODE-2).

tree-sitter reports byte offsets into the UTF-8 encoding it parsed; records index the text
by code point (PORT-2). Reporting bytes as characters is the peers' most common bug: wrong on
the first non-ASCII letter of a file. The table here holds one entry per non-ASCII code
point (where the two counts part), so an ASCII file costs nothing and a lookup is a bisect.
"""

from __future__ import annotations

import bisect
import re
from array import array

__all__ = ["ByteOffsets"]

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


class ByteOffsets:
    """``code_point(b)``: the code point offset of UTF-8 byte offset ``b`` of ``text``.

    ``ends[k]`` is the byte offset just after the ``k``-th non-ASCII code point and
    ``extra[k]`` how many more bytes than code points the text holds up to there, so for
    ``b`` at a code point boundary ``code_point(b) == b - extra[k]`` with ``k`` the last
    entry at or before ``b``.
    """

    __slots__ = ("ends", "extra")

    def __init__(self, text: str) -> None:
        self.ends = array("q")
        self.extra = array("q")
        if text.isascii():
            return
        more = 0
        for match in _NON_ASCII.finditer(text):
            cp = ord(match.group())
            more += 1 if cp < 0x800 else 2 if cp < 0x10000 else 3
            self.ends.append(match.end() + more)
            self.extra.append(more)

    def code_point(self, offset: int) -> int:
        """The code point offset of the byte offset ``offset`` (a code point boundary)."""
        ends = self.ends
        if not ends:
            return offset
        k = bisect.bisect_right(ends, offset) - 1
        return offset if k < 0 else offset - self.extra[k]
