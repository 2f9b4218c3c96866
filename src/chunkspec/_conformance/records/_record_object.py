"""One chunk record as the kit's wire object (RECORD-1), the fields a case does not set filled."""

from __future__ import annotations

import hashlib
from typing import Any

__all__ = ["record_object"]


def record_object(
    doc_id: str,
    index: int,
    text: str,
    span: tuple[int, int],
    *,
    title: str,
    strategy: str,
    counter: str = "chars1",
    tokens: int | None = None,
    source: str = "",
    heading_path: list[str] | None = None,
    pages: tuple[int | None, int | None] = (None, None),
    prefix: str = "",
    oversized: bool = False,
) -> dict[str, Any]:
    """The record of ``text`` at ``span``, a ``window`` with no parent or section (RECORD-1).

    ``tokens`` defaults to the text's length in ``chars1`` and its whitespace words otherwise;
    ``content_hash`` is HASH-1's, of the UTF-8 bytes (lone surrogates, which a hazard case
    may hold, kept as they are).
    """
    if tokens is None:
        tokens = len(text) if counter == "chars1" else len(text.split())
    return {
        "id": f"{doc_id}:{index}",
        "doc_id": doc_id,
        "index": index,
        "text": text,
        "start": span[0],
        "end": span[1],
        "tokens": tokens,
        "counter": counter,
        "content_hash": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
        "kind": "window",
        "heading_path": [] if heading_path is None else heading_path,
        "parent_id": None,
        "page_start": pages[0],
        "page_end": pages[1],
        "section": None,
        "prefix": prefix,
        "oversized": oversized,
        "title": title,
        "source": source,
        "strategy": strategy,
        "metadata": {},
    }
