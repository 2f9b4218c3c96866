"""The chunker ops of the protocol: their answers are chunk records (RECORD-1, CONF-3).

``chunk`` is the character windows (WIN rules) as ``chunk_document`` writes them: strategy
``window``, counter ``chars1``, over a plain-text document; offsets are code points (WIN-9).
"""

from __future__ import annotations

from typing import Any

from ..._core._validate import require_int
from ..._records._chunk_document import chunk_document
from ..._text._documents import SourceDocument

__all__ = ["chunk_records", "window_records"]


def chunk_records(
    doc_id: str, title: str, text: str, max_tokens: int, overlap_tokens: int
) -> list[dict[str, Any]]:
    """``chunk(text, max_tokens, overlap_tokens)`` (WIN rules) as record objects."""
    return window_records(doc_id, title, text, max_tokens, overlap_tokens, "chars1")


def window_records(
    doc_id: str, title: str, text: str, max_tokens: int, overlap_tokens: int, counter: str
) -> list[dict[str, Any]]:
    """Windows (WIN, TOKWIN rules) over ``counter``'s tokens of a plain-text document as records."""
    document = SourceDocument(doc_id=doc_id, text=text, format="text", title=title)
    # ``chunk`` has no default overlap: None is a TypeError here, not chunk_document's default.
    require_int("max_tokens", max_tokens, minimum=1)
    require_int("overlap_tokens", overlap_tokens, minimum=0)
    records = chunk_document(
        document,
        "window",
        max_tokens=max_tokens,
        overlap_tokens=overlap_tokens,
        counter=counter,
    )
    return [r.to_dict() for r in records]
