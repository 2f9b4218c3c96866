"""The window, page and sentence ops of the protocol (CONF-3): what a port answers for each.

``token_windows`` is the window over whitespace tokens (TOKWIN rules) and ``chunk_pages``
the page chunker (PAGE rules), both as ``chunk_document`` writes them (strategies ``window``
and ``pages``, counter ``whitespace``): chunk records, offsets in code points (WIN-9, PAGE-6).
``split_sentences`` (registered as is) answers a list of strings (SENT-2).
"""

from __future__ import annotations

from typing import Any

from ..._chunkers._pages import join_pages
from ..._core._validate import require_text
from ..._records._chunk_document import chunk_document
from ..._text._documents import SourceDocument
from ..records._records_ops import window_records

__all__ = ["page_records", "token_window_records"]


def token_window_records(
    doc_id: str, title: str, text: str, max_tokens: int, overlap_tokens: int
) -> list[dict[str, Any]]:
    """``token_windows(text, max_tokens, overlap_tokens)`` as record objects (TOKWIN rules)."""
    return window_records(doc_id, title, text, max_tokens, overlap_tokens, "whitespace")


def page_records(
    doc_id: str,
    title: str,
    pages: list[str],
    max_tokens: int = 400,
    overlap_tokens: int | None = None,
) -> list[dict[str, Any]]:
    """``chunk_pages(pages, max_tokens, overlap_tokens)`` as record objects (PAGE rules).

    Checked in the order ``doc_id``, ``pages`` (PAGE-1, PAGE-2), ``title``, ``max_tokens``,
    ``overlap_tokens``; an absent or null overlap is RECORD-13's ``max_tokens // 4``.
    """
    require_text("doc_id", doc_id)
    text = join_pages(pages)
    document = SourceDocument(
        doc_id=doc_id, text=text, format="text", title=title, pages=tuple(pages)
    )
    records = chunk_document(  # seed 004's chunk_pages counts words (SCRIPT-6 applied)
        document,
        "pages",
        max_tokens=max_tokens,
        overlap_tokens=overlap_tokens,
        counter="whitespace",
    )
    return [r.to_dict() for r in records]
