"""The ``recursive`` strategy: split_section over the whole text (RECORD-11)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .._core._split_section import split_section
from ._span import Span

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = ["recursive_spans"]


def recursive_spans(document: SourceDocument, options: ChunkOptions) -> list[Span]:
    """split_section's chunks; a span runs from a chunk's first word to its last (RECORD-11).

    The chunk's text is split_section's own (its words joined), so each span carries it.
    A Markdown document's front matter is not split: the chunks start after it (FM-2).
    The options were checked when made: the counter counts words (the registry entry's
    ``words_only``, RECORD-11).
    """
    body = document.body_start
    text = document.text[body:] if body else document.text
    chunks = split_section(document.doc_id, document.title, text, options.max_tokens)
    spans: list[Span] = []
    position = 0
    for c in chunks:
        n = c.tokens  # SPLIT-9: len(c.text.split())
        if n == 0:
            continue  # RECORD-11: a blank text gives one empty chunk, which is no record
        # The chunk's words are the text's next n words (SPLIT-4): a few matches skip them in
        # C, so no list of every word's span is ever built (memory, docs/performance.md).
        first = _LEAD.match(text, position).end()  # type: ignore[union-attr]
        own = c.text
        # When the chunk is the source's own text there (its words kept their separators),
        # it holds exactly the next n words, the last one ending where it ends.
        same = text.startswith(own, first)
        position = first + len(own) if same else _skip(text, first, n)
        spans.append(
            Span(
                body + first,
                body + position,
                "prose",
                text=own,
                tokens=n,
                content_hash=c.content_hash,  # SPLIT-9: HASH-1 of the chunk's text
            )
        )
    return spans


#: Whitespace (WS-1: ``\s`` is exactly ``str.isspace``, what ``str.split`` splits on).
_LEAD = re.compile(r"\s*")

#: k -> a pattern matching optional whitespace and then 2**k words.
_RUNS: dict[int, re.Pattern[str]] = {}


def _skip(text: str, position: int, n: int) -> int:
    """Return where the ``n``-th word from ``position`` ends: one match per bit of ``n``."""
    k = 0
    while n:
        if n & 1:
            pattern = _RUNS.get(k)
            if pattern is None:
                pattern = _RUNS[k] = re.compile(rf"\s*\S+(?:\s+\S+){{{(1 << k) - 1}}}")
            position = pattern.match(text, position).end()  # type: ignore[union-attr]
        n >>= 1
        k += 1
    return position
