"""Retrieval for ``pack_records``: records and scores from a store's filtered search (STORE-10).

The store applies the access rule in its own query (STORE-9); every answer is checked
against the same rule again here, and an answer the principal may not read is a StoreError
(a broken filter), never a record handed on.
"""

from __future__ import annotations

from collections.abc import Sequence

from .._errors import ArgumentTypeError, StoreError
from .._packing._access import Principal, readable
from .._records._record import ChunkRecord
from ._embedder import Embedder
from ._rows import record_of
from ._store import Store, check_search, row_readable

__all__ = ["search_records"]


def search_records(
    store: Store,
    query: str | Sequence[float],
    embedder: Embedder | None = None,
    *,
    k: int = 20,
    principal: Principal | None = None,
) -> tuple[list[ChunkRecord], list[float]]:
    """The ``k`` records nearest ``query`` that ``principal`` may read, with their cosine
    similarities, best first: ``pack_records(records, scores, budget, principal=...)``.

    ``query`` is a text (embedded by ``embedder``, uncached) or a vector.
    """
    check_search(k, principal)
    if isinstance(query, str):
        if embedder is None:
            raise ArgumentTypeError("embedder", "an Embedder (query is a text)", embedder)
        vector: Sequence[float] = embedder.vectors([query], None)[0]
    else:
        vector = query
    records: list[ChunkRecord] = []
    scores: list[float] = []
    for hit in store.search(vector, k, principal):
        record = record_of(hit.row)
        allowed = row_readable(hit.row, principal) and readable(
            "record.metadata", record.metadata, principal
        )
        if not allowed:  # STORE-9: the store's filter let through what CTX-13 withholds
            raise StoreError(f"{store.address}: the search returned {hit.row.key}, withheld")
        records.append(record)
        scores.append(hit.score)
    return records, scores
