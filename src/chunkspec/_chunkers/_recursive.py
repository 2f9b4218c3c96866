"""The ``recursive`` strategy: split_section over the whole text (RECORD-11)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core._split import split_section
from .._counters._builtin import WhitespaceCounter
from .._errors import ArgumentValueError
from ._span import Span

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = ["recursive_spans"]


def recursive_spans(document: SourceDocument, options: ChunkOptions) -> list[Span]:
    """split_section's chunks; a span runs from a chunk's first word to its last (RECORD-11).

    The chunk's text is split_section's own (its words joined), so each span carries it.
    A Markdown document's front matter is not split: the chunks start after it (FM-2).
    """
    if not isinstance(options.token_counter(), WhitespaceCounter):
        raise ArgumentValueError(
            "counter",
            "must be whitespace for recursive (seed 000 counts words)",
            options.counter_name,
        )
    body = document.body_start
    text = document.text[body:] if body else document.text
    chunks = split_section(document.doc_id, document.title, text, options.max_tokens)
    words = WhitespaceCounter().token_spans(text)
    spans: list[Span] = []
    word = 0
    for c in chunks:
        n = len(c.text.split())
        if n == 0:
            continue  # RECORD-11: a blank text gives one empty chunk, which is no record
        spans.append(
            Span(body + words[word][0], body + words[word + n - 1][1], "prose", text=c.text)
        )
        word += n
    return spans
