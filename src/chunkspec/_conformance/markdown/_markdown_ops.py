"""The Markdown chunker ops of the protocol: ``split_markdown`` and ``heading_aware``.

Both answer chunk records (RECORD-1, CONF-3) exactly as ``chunk_document`` writes them for a
Markdown document (SOURCE-1) with the whitespace counter (TOK-1): ``split_markdown`` is seed
001's structural chunker (strategy ``structural``, MD-7 to MD-11), ``heading_aware`` seed
003's ``HeadingAwareChunker`` (strategy ``heading``, HEAD-1 to HEAD-12). Offsets are code
points (SOURCE-2); the title is given, not derived (SOURCE-5 is a reader's rule).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..._chunkers._heading_aware import Sentences, heading_spans
from ..._chunkers._options import ChunkOptions
from ..._core._validate import require_int
from ..._records._chunk_document import chunk_document, records_of, script_options
from ..._text._documents import SourceDocument
from .._wire import answer

__all__ = [
    "heading_aware_records",
    "heading_aware_with",
    "markdown_answer",
    "markdown_records",
    "split_markdown_records",
]


def split_markdown_records(
    doc_id: str,
    title: str,
    text: str,
    max_tokens: int,
    count_headings: bool = False,
    split_tables: bool = False,
) -> list[dict[str, Any]]:
    """``split_markdown(doc_id, text, max_tokens)`` (MD rules) as record objects."""
    document = SourceDocument(doc_id=doc_id, text=text, format="markdown", title=title)
    require_int("max_tokens", max_tokens, minimum=1)
    return markdown_records(
        "split_markdown",
        document,
        max_tokens=max_tokens,
        count_headings=count_headings,
        split_tables=split_tables,
    )


def heading_aware_records(
    doc_id: str, title: str, text: str, max_tokens: int, overlap_tokens: int
) -> list[dict[str, Any]]:
    """``HeadingAwareChunker(max_tokens, overlap_tokens)`` (HEAD rules) as record objects."""
    document = _heading_document(doc_id, title, text, max_tokens, overlap_tokens)
    return markdown_records(
        "heading_aware", document, max_tokens=max_tokens, overlap_tokens=overlap_tokens
    )


def _heading_document(
    doc_id: str, title: str, text: str, max_tokens: int, overlap_tokens: int
) -> SourceDocument:
    """``heading_aware``'s document, its arguments checked as the op checks them."""
    document = SourceDocument(doc_id=doc_id, text=text, format="markdown", title=title)
    require_int("max_tokens", max_tokens, minimum=1)
    # No default overlap on the wire: None is a TypeError here, not chunk_document's default.
    require_int("overlap_tokens", overlap_tokens, minimum=0)
    return document


def heading_aware_with(sentences: Sentences) -> Callable[..., list[dict[str, Any]]]:
    """``heading_aware``'s op with ``sentences`` as HEAD-7's first split of an oversized
    block: the records ``chunk_document`` writes (its empty-text rule, SCRIPT-6's counter, the
    one record loop) over ``heading_spans`` given that splitter (a blame model's variant)."""

    def op(
        doc_id: str, title: str, text: str, max_tokens: int, overlap_tokens: int
    ) -> list[dict[str, Any]]:
        document = _heading_document(doc_id, title, text, max_tokens, overlap_tokens)
        options = ChunkOptions(
            strategy="heading",
            max_tokens=max_tokens,
            overlap_tokens=overlap_tokens,
            counter="whitespace",
            min_tokens=0,
        )
        if not document.text or document.text.isspace():
            return []
        options = script_options(document, options)
        spans = heading_spans(document, options, sentences)
        return [r.to_dict() for r in records_of(document, options, spans)]

    return op


def markdown_records(op: str, document: SourceDocument, **options: Any) -> list[dict[str, Any]]:
    """``op``'s records of a Markdown ``document`` (its ``parsed`` blocks when given)."""
    strategy = "structural" if op == "split_markdown" else "heading"
    # The seed functions' own chunks: SIZE-2's merging is not part of these ops (the ports
    # lack min_tokens, docs/portability.md).
    records = chunk_document(document, strategy, counter="whitespace", min_tokens=0, **options)
    return [r.to_dict() for r in records]


def markdown_answer(op: str, data: dict[str, Any]) -> dict[str, Any]:
    """The oracle's answer to the Markdown op ``op`` on the wire input ``data``."""
    function = split_markdown_records if op == "split_markdown" else heading_aware_records
    return answer(function, op, data)
