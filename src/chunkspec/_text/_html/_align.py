"""Where a text node's characters sit in the markup (HTML-19).

The parser (turbohtml, WHATWG) gives each element's start- and end-tag spans but not its
text nodes'. A text node's data is what the tokenizer made of the markup after the last tag
before it: literal characters, character references (``&amp;``, ``&#x41;``), and NULs the
tree builder dropped or replaced, with comments and tags the tree builder ignored between
them. :func:`align` walks the markup from a cursor and pairs each character of the data
with the markup that made it, in order, skipping only what makes no text (a comment, an
ignored tag, a dropped NUL or whitespace). It decides nothing about the parse: it only
finds, in the markup, the characters the parser already chose. Text the parser moved out of
source order (a table's foster-parented text) is not found after the cursor: such a node is
*unplaced* and maps to the cursor, an empty span (HTML-20).
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["Piece", "align"]

#: One run of a text node's data and the markup that made it: ``(data_start, data_end,
#: markup_start, markup_end, exact)``; ``exact`` means ``data[a:b] == markup[s:e]``
#: character for character, else the whole run came from the whole markup span.
Piece = tuple[int, int, int, int, bool]

#: A character reference as the tokenizer reads one in data (HTML §13.2.5.72-80); what it
#: decodes to is :func:`html.unescape`'s, which implements the same table and rules
#: (longest named match, the legacy names without ``;``, the numeric replacements).
_REFERENCE: Final = re.compile(r"&(?:#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")

#: Markup that makes no text node character: a comment (``<!-- ... -->``, ``<!-->``), a
#: bogus comment or doctype (``<!...>``, ``<?...>``), a tag the tree builder ignored
#: (``</p>`` with no ``p`` open), an end tag without a name (``</>``).
_COMMENT: Final = re.compile(r"<!--(?:>|->|.*?(?:--!?>|\Z))", re.DOTALL)
_BOGUS: Final = re.compile(r"<[!?][^>]*>?")
_TAG: Final = re.compile(r"</?[A-Za-z][^\t\n\f />]*(?:[^>\"']|\"[^\"]*\"|'[^']*')*>?|</>")

#: The most markup :func:`align` reads past a cursor per character of data before it calls
#: a node unplaced: bounded, so a document of unplaceable nodes stays linear.
_REACH: Final = 4096


def align(data: str, markup: str, cursor: int) -> tuple[list[Piece], int] | None:
    """Return the pieces of ``data`` found in ``markup`` from ``cursor`` and the position
    after them, or None when the data is not there (an unplaced node, HTML-20)."""
    if markup.startswith(data, cursor):  # the usual case: the node is verbatim markup
        return [(0, len(data), cursor, cursor + len(data), True)], cursor + len(data)
    pieces: list[Piece] = []
    i, p, n = 0, cursor, len(data)
    limit = min(len(markup), cursor + _REACH + 8 * n)
    while i < n:
        if p >= limit:
            return None
        c = markup[p]
        if c == "&":
            match = _REFERENCE.match(markup, p)
            if match is not None:
                decoded = html.unescape(match.group())
                if decoded != match.group() and data.startswith(decoded, i):
                    pieces.append((i, i + len(decoded), p, match.end(), False))
                    i, p = i + len(decoded), match.end()
                    continue
        if c == data[i]:
            _literal(pieces, i, p)
            i, p = i + 1, p + 1
            continue
        if c == "<":
            end = _skip(markup, p)
            if end is None:
                return None
            p = end
            continue
        if c == "\0":
            if data[i] == "\ufffd":  # RCDATA and attribute-like contexts replace a NUL
                pieces.append((i, i + 1, p, p + 1, False))
                i += 1
            p += 1
            continue
        if c in " \t\n\f":  # whitespace the tree builder dropped (before <head>, in tables)
            p += 1
            continue
        return None
    return pieces, p


def _literal(pieces: list[Piece], i: int, p: int) -> None:
    """Add the exact one-character piece ``data[i] == markup[p]``, joining the last."""
    if pieces:
        a, b, s, e, exact = pieces[-1]
        if exact and b == i and e == p:
            pieces[-1] = (a, b + 1, s, e + 1, True)
            return
    pieces.append((i, i + 1, p, p + 1, True))


def _skip(markup: str, p: int) -> int | None:
    """Return the end of the text-free markup construct at ``p``, or None."""
    for pattern in (_COMMENT, _BOGUS, _TAG):
        match = pattern.match(markup, p)
        if match is not None:
            return match.end()
    return None
