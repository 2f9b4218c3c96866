"""The in-process oracle: every op of the protocol, answered by chunkspec in wire form.

The core's functions answer as they are; each op family (``markdown``, ``windows``,
``records``, ``packing``, ``html``, ``code``, ``documents``) gives the function of its ops,
which this table puts together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._core._assemble import assemble
from .._core._hashing import hash_text
from .._core._seed_chunk import render
from .._core._split_section import split_section
from .._core._tokens import count_tokens
from .._core._words import words
from .._text._sentences import split_sentences
from ._wire import answer
from .code._code_ops import chunk_code
from .documents._documents_ops import document_records
from .html._html_ops import read_html
from .markdown._markdown_ops import heading_aware_records, split_markdown_records
from .packing._packing_ops import pack_records_op
from .records._records_ops import chunk_records
from .records._schema_cases import accepts
from .windows._windows_ops import page_records, token_window_records

__all__ = ["OPS", "expect"]

#: The operations of the protocol: one per function, named as in Python (CONF-4).
OPS: dict[str, Callable[..., Any]] = {
    "split_section": split_section,
    "assemble": assemble,
    "count_tokens": count_tokens,
    "hash_text": hash_text,
    "render": render,
    "words": words,
    "chunk": chunk_records,
    "split_markdown": split_markdown_records,
    "heading_aware": heading_aware_records,
    "token_windows": token_window_records,
    "chunk_pages": page_records,
    "split_sentences": split_sentences,
    "validate_record": accepts,
    "pack_records": pack_records_op,
    "read_html": read_html,
    "chunk_code": chunk_code,
    "chunk_document": document_records,
}


def expect(op: str, data: dict[str, Any]) -> dict[str, Any]:
    """The oracle: ``{"ok": output}`` or ``{"error": {"kind", "argument"}}`` from chunkspec."""
    return answer(OPS[op], op, data)
