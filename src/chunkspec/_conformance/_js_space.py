"""JavaScript's whitespace, the set a port's ``/\\s/`` and ``trim()`` use (WS-1, HAZ-1)."""

from __future__ import annotations

import re

__all__ = ["JS_SPACE", "JS_SPACE_CLASS", "JS_SPACE_RUN"]

#: ECMAScript's WhiteSpace and LineTerminator: Python's ``str.isspace`` set without
#: U+001C..U+001F and U+0085, with U+FEFF; as the inside of a regular-expression class.
JS_SPACE_CLASS = "\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
#: The same characters as a set.
JS_SPACE = frozenset(" \t\n\x0b\x0c\r\xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff") | frozenset(
    chr(c) for c in range(0x2000, 0x200B)
)
#: One or more of them.
JS_SPACE_RUN = re.compile(f"[{JS_SPACE_CLASS}]+")
