"""Byte offsets of the UTF-16LE source turned into code points, once (CODE-2).

tree-sitter reports byte offsets into the encoding it parsed, UTF-16LE here (the encoding
web-tree-sitter parses in the TypeScript port, so both sides recover from syntax errors
alike); records index the text by code point (PORT-2). Reporting bytes or units as
characters is the peers' most common bug: wrong on the first non-ASCII letter of a file. The
table here holds one entry per astral code point (where units and code points part), so a
file of the Basic Multilingual Plane costs nothing and a lookup is a bisect.
"""

from __future__ import annotations

import bisect
import re
from array import array

__all__ = ["ByteOffsets"]

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class ByteOffsets:
    """``code_point(b)``: the code point offset of byte offset ``b`` of ``text`` encoded as
    UTF-16LE (CODE-2: what tree-sitter parsed, as web-tree-sitter does in the port).

    ``ends[k]`` is the UTF-16 unit just after the ``k``-th astral code point (two units, one
    code point), so for ``b`` at a code point boundary ``code_point(b) == b // 2 - k`` with
    ``k`` the astral code points before it; a text of the BMP costs nothing.
    """

    __slots__ = ("ends",)

    def __init__(self, text: str) -> None:
        self.ends = array("q")
        if text.isascii():
            return
        for k, match in enumerate(_ASTRAL.finditer(text)):
            self.ends.append(match.end() + k + 1)

    def code_point(self, offset: int) -> int:
        """The code point offset of the UTF-16LE byte offset ``offset``."""
        unit = offset >> 1
        if not self.ends:
            return unit
        return unit - bisect.bisect_right(self.ends, unit)
