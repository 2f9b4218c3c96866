"""Whitespace word counts in memory bounded by a piece, not by the text (TRUST-51).

``len(text.split())`` builds one string object a word: about 50 bytes for a word of one or
two characters, 25 times the text for a table of one-character cells. The counts here read
the text a piece at a time and give the same number.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["PIECE", "whitespace_pieces", "word_count"]

#: Characters read at once (a piece grows to the next whitespace so no word is cut).
PIECE = 1 << 16

#: Whitespace as ``str.split`` and ``str.isspace`` take it (WS-1): ``re``'s ``\s`` on ``str``
#: is the same predicate (``Py_UNICODE_ISSPACE``).
_SPACE = re.compile(r"\s")


def word_count(text: str, piece: int = PIECE) -> int:
    """Return ``len(text.split())`` (WS-1) without holding every word at once: the words of
    one :func:`whitespace_pieces` piece at a time."""
    if len(text) <= piece:
        return len(text.split())
    return sum(len(part.split()) for part in whitespace_pieces(text, piece))


def whitespace_pieces(text: str, piece: int = PIECE) -> Iterator[str]:
    """Yield consecutive pieces of ``text`` that join to ``text``, each of about ``piece``
    characters and each but the last ending just before whitespace, so every whitespace
    word lies inside one piece (a word longer than a piece is one piece)."""
    n = len(text)
    at = 0
    while at < n:
        stop = at + piece
        if stop >= n:
            yield text[at:]
            return
        space = _SPACE.search(text, stop)
        stop = n if space is None else space.start()
        yield text[at:stop]
        at = stop
