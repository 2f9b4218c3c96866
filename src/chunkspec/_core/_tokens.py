"""Token counting: tokens are maximal runs of non-whitespace (``str.split()``)."""

from __future__ import annotations

from ._validate import require_str

__all__ = ["SEPARATORS", "WHITESPACE", "count_tokens"]

#: Paragraph, then line, then word (rule SPLIT-2).
SEPARATORS: tuple[str, str, str] = ("\n\n", "\n", " ")

#: The code points for which ``str.isspace()`` is true (rule WS-1); ``str.split()`` and
#: ``str.strip()`` without arguments use exactly this set.
WHITESPACE: frozenset[str] = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000"
)


def count_tokens(text: str) -> int:
    """Return ``len(text.split())``: the number of whitespace-separated words (rule TOK-1)."""
    return len(require_str("text", text).split())
