"""The Markdown chunker ops of the protocol: ``split_markdown`` and ``heading_aware``.

Both answer chunk records (RECORD-1, CONF-3) exactly as ``chunk_document`` writes them for a
Markdown document (SOURCE-1) with the whitespace counter (TOK-1): ``split_markdown`` is seed
001's structural chunker (strategy ``structural``, MD-7 to MD-11), ``heading_aware`` seed
003's ``HeadingAwareChunker`` (strategy ``heading``, HEAD-1 to HEAD-12). Offsets are code
points (SOURCE-2); the title is given, not derived (SOURCE-5 is a reader's rule).
"""

from __future__ import annotations

from typing import Any

from ..._core._validate import require_int
from ..._records._chunk_document import chunk_document
from ..._text._documents import SourceDocument

__all__ = ["heading_aware_records", "markdown_records", "split_markdown_records"]


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
    document = SourceDocument(doc_id=doc_id, text=text, format="markdown", title=title)
    require_int("max_tokens", max_tokens, minimum=1)
    # No default overlap on the wire: None is a TypeError here, not chunk_document's default.
    require_int("overlap_tokens", overlap_tokens, minimum=0)
    return markdown_records(
        "heading_aware", document, max_tokens=max_tokens, overlap_tokens=overlap_tokens
    )


def markdown_records(op: str, document: SourceDocument, **options: Any) -> list[dict[str, Any]]:
    """``op``'s records of a Markdown ``document`` (its ``parsed`` blocks when given)."""
    strategy = "structural" if op == "split_markdown" else "heading"
    # The seed functions' own chunks: SIZE-2's merging is not part of these ops (the ports
    # lack min_tokens, docs/portability.md).
    records = chunk_document(document, strategy, counter="whitespace", min_tokens=0, **options)
    return [r.to_dict() for r in records]
