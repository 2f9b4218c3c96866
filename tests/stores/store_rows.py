"""Rows for the store tests: every field shape STORE-3 names, hostile strings included."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from chunkspec.stores import FIELDS, Embedder, StoreRow

#: Labels and tenants that break a filter built by pasting strings (quotes, backslashes,
#: SQL and JSON syntax, LIKE wildcards, a non-BMP letter).
HOSTILE = [
    "a'b",
    'q"uote',
    "back\\slash",
    "x') OR true --",
    "50%_",
    "𝔘nicode",
    "sp ace",
    "in,comma",
]

DIMENSION = 8


def vector_of(text: str) -> tuple[float, ...]:
    """A deterministic float32-exact vector of ``text`` (halves: exact in float32)."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()
    return tuple((b - 128) / 2.0 for b in digest[:DIMENSION])


def hash_embed(texts: list[str]) -> Sequence[Sequence[float]]:
    """The test embedder: :func:`vector_of` of each text."""
    return [vector_of(text) for text in texts]


def embedder(model: str = "hash8") -> Embedder:
    """A counting embedder over :func:`hash_embed`."""
    return Embedder(model, hash_embed, batch_size=16)


def row(
    n: int,
    *,
    tenant: str | None = None,
    labels: Sequence[str] = (),
    readable: bool = True,
    text: str | None = None,
    pages: tuple[int, int] | None = None,
    digest: str = "",
) -> StoreRow:
    """Store row number ``n`` with the given access fields."""
    body = text if text is not None else f"chunk {n}: ünïcödé, “quotes”, 'single' and \"double\""
    fields: dict[str, Any] = {
        "record_id": f"doc{n % 3}:{n}",
        "doc_id": f"doc{n % 3}",
        "index": n,
        "text": body,
        "start": 10 * n,
        "end": 10 * n + len(body),
        "tokens": len(body.split()),
        "counter": "whitespace",
        "content_hash": hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest(),
        "kind": "heading",
        "heading_path": ["Guide", f"Part {n}", "Ünïcode > trail"],
        "parent_id": None if n % 2 else f"doc{n % 3}:p",
        "page_start": None if pages is None else pages[0],
        "page_end": None if pages is None else pages[1],
        "section": None if n % 4 == 0 else f"Part {n}",
        "prefix": "",
        "oversized": n % 5 == 0,
        "title": "Guide",
        "source": f"docs/doc{n % 3}.md",
        "strategy": "heading:max_tokens=512,overlap_tokens=64,min_tokens=64",
        "metadata": '{"acl_labels":["a"]}' if labels else "{}",
        "tenant": tenant,
        "labels": sorted(labels),
        "labels_readable": readable,
    }
    assert set(fields) == set(FIELDS)
    key = hashlib.sha256(f"key {n}".encode()).hexdigest()
    return StoreRow(
        key, vector_of(body), digest or hashlib.sha256(body.encode()).hexdigest(), fields
    )
