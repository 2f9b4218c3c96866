"""The one interface a vector store implements (STORE-1): five calls over flat rows.

A writer module (``chunkspec.stores.lancedb`` and its siblings, or a user's own) turns a
:class:`StoreRow` into the store's own idiom and back. Everything else (what to write,
what to delete, embeddings, the state in the manifest, access filters' meaning) lives in
the modules beside this one, the same for every store (docs/stores.md, "Adding a store").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .._core._access_keys import LABELS_KEY, TENANT_KEY
from .._errors import ArgumentTypeError, ArgumentValueError
from .._packing._access import Principal, readable

__all__ = ["FIELDS", "NULLABLE", "Hit", "Store", "StoreRow", "check_search", "row_readable"]

#: STORE-3: the fields of a stored row besides its id, its vector and its digest, with the
#: Python type each holds. ``record_id`` is the record's ``id`` (the store's id is the key);
#: ``metadata`` is the record metadata's canonical JSON text (META-6); ``tenant`` and
#: ``labels`` are the access labels read from it (CTX-13) and ``labels_readable`` false when
#: they cannot be read (TRUST-10: such a row is never returned, STORE-9).
FIELDS: dict[str, type] = {
    "record_id": str,
    "doc_id": str,
    "index": int,
    "text": str,
    "start": int,
    "end": int,
    "tokens": int,
    "counter": str,
    "content_hash": str,
    "kind": str,
    "heading_path": list,
    "parent_id": str,
    "page_start": int,
    "page_end": int,
    "section": str,
    "prefix": str,
    "oversized": bool,
    "title": str,
    "source": str,
    "strategy": str,
    "metadata": str,
    "tenant": str,
    "labels": list,
    "labels_readable": bool,
}

#: The fields that may be None (every other field always holds its type).
NULLABLE = frozenset({"parent_id", "page_start", "page_end", "section", "title", "tenant"})


@dataclass(frozen=True, slots=True)
class StoreRow:
    """One chunk as a store holds it (STORE-3).

    ``key`` is the record's key (KEY-1) and the store's id; ``vector`` the embedding of its
    embedded text (STORE-6) as float32 values; ``digest`` identifies what was written
    (STORE-4); ``fields`` maps every name of :data:`FIELDS` to its value.
    """

    key: str
    vector: tuple[float, ...]
    digest: str
    fields: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Hit:
    """One answer of a store's search: the row (its vector may be empty) and its cosine
    similarity to the query, higher is nearer (STORE-10)."""

    row: StoreRow
    score: float


@runtime_checkable
class Store(Protocol):
    """A collection in a vector store, as chunkspec writes and reads it (STORE-1).

    ``address`` names the store in messages and in the manifest (``lancedb://./store``).
    """

    address: str

    def held(self) -> dict[str, str]:
        """Every id the collection holds, with the digest written with it ("" for a row that
        has none: one chunkspec did not write); an empty dict for a missing collection."""
        ...

    def upsert(self, rows: Sequence[StoreRow]) -> None:
        """Write ``rows``: a row whose id is held is replaced, field for field; creates the
        collection (cosine distance, the rows' dimension) when it does not exist."""
        ...

    def delete(self, keys: Sequence[str]) -> None:
        """Remove the rows of these ids; an id not held is no error."""
        ...

    def fetch(self, keys: Sequence[str]) -> dict[str, StoreRow]:
        """The rows of these ids that are held, vectors included (STORE-8's comparison)."""
        ...

    def search(self, vector: Sequence[float], k: int, principal: Principal | None) -> list[Hit]:
        """The ``k`` rows nearest ``vector`` that ``principal`` may read, best first, the
        access rule applied in the store's own query (STORE-9)."""
        ...

    def close(self) -> None:
        """Release the store's files and locks."""
        ...


def check_search(k: object, principal: object) -> None:
    """STORE-10: ``k`` an int of at least 1, ``principal`` a Principal or None; else an
    error naming the argument (every store's ``search`` and ``search_records`` call it)."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise ArgumentTypeError("k", "an int", k)
    if k < 1:
        raise ArgumentValueError("k", "must be at least 1", k)
    if principal is not None and not isinstance(principal, Principal):
        raise ArgumentTypeError("principal", "a Principal or None", principal)


def row_readable(row: StoreRow, principal: Principal | None) -> bool:
    """STORE-9: CTX-13 on a stored row's own fields: ``labels_readable`` true, and its tenant
    and labels ones ``principal`` may read; labels of any other shape (a null in the list, a
    number): never. Each store checks its answers with it after its own filter."""
    fields = row.fields
    if fields["labels_readable"] is not True:
        return False
    try:
        return readable(
            "row", {TENANT_KEY: fields["tenant"], LABELS_KEY: fields["labels"]}, principal
        )
    except ArgumentTypeError:
        return False
