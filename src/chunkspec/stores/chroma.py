"""Chroma (extra ``chunkspec[chroma]``): a ``PersistentClient`` folder, no server (STORE-1).

A collection is a Chroma collection with cosine space and no embedding function of its own
(chunkspec gives every vector; nothing is downloaded, telemetry is off). A row is Chroma's
own triple: the id is the key, the ``document`` is the ``text`` and the ``embedding`` the
vector; every other field is a metadata key of its own name (STORE-3) in Chroma's types:

* str, int and bool fields as they are; a None (``parent_id``, the pages, ``section``,
  ``title``, ``tenant``) is no key at all (Chroma stores no None), read back as None;
* ``heading_path`` and ``labels`` as Chroma lists of str; an empty list is no key (Chroma
  refuses empty lists), read back as ``[]``;
* ``vector_f32``: the vector as written, little-endian float32 in base64 (Chroma's cosine
  space normalises the embedding it keeps and scales it back when read, which can change
  the last bit of a value; STORE-3 reads back what was written, so fetch reads this key);
* ``digest`` (STORE-4), and two keys for the access filter: ``has_tenant`` (bool) and
  ``label_set``, the JSON text of the row's sorted labels (``'[]'`` for none).

So Chroma's own filters work on the fields::

    collection.get(where={"$and": [{"doc_id": "guide.md"}, {"page_start": {"$gte": 3}}]})
    collection.get(where={"labels": {"$contains": "staff"}})

STORE-9 in Chroma's ``where``: Chroma has no "is a subset of" operator, so the collection's
own metadata records every label set ever written (``chunkspec_label_sets``, written before
the rows) and a search asks for ``label_set`` among the recorded sets the principal holds
every label of. The filter is closed by construction: a row whose label set the record does
not name (a writer racing another, a row written by another tool) matches no set and is
returned to nobody; a row lacking ``labels_readable`` or ``has_tenant`` matches neither.
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Mapping, Sequence
from typing import Any

try:
    import chromadb as _chromadb
    from chromadb.config import Settings as _Settings
    from chromadb.errors import NotFoundError as _NotFoundError
except ImportError as error:  # pragma: no cover - see tests/stores/test_stores_lazy.py
    raise ImportError("chromadb is not installed: pip install 'chunkspec[chroma]'") from error

from .._errors import ArgumentValueError, StoreError
from .._packing._access import Principal
from ._store import FIELDS, Hit, StoreRow, check_search, row_readable

__all__ = ["ChromaStore", "access_filter", "label_set", "open_store", "packed", "unpacked"]

#: The collection metadata key that records every label set written (JSON: a list of lists).
SETS_KEY = "chunkspec_label_sets"

#: The fields stored as Chroma lists (absent when empty).
_LISTS = frozenset(name for name, kind in FIELDS.items() if kind is list)

#: Rows per ``get``/``delete`` by ids, and label sets per ``$in`` (SQLite binds at most
#: 32,766 variables in one statement; a search with more sets runs one query a slice).
_IDS = 1_000
_SETS = 10_000

#: Rows per page of :meth:`ChromaStore.held`.
_PAGE = 2_000


def label_set(labels: Sequence[str]) -> str:
    """The one JSON text of a label set: sorted, unique, UTF-8 as is (``'[]'`` for none)."""
    return json.dumps(sorted(set(labels)), ensure_ascii=False, separators=(",", ":"))


def packed(vector: Sequence[float]) -> str:
    """The vector as little-endian float32 values in base64 (the ``vector_f32`` key)."""
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode("ascii")


def unpacked(text: str) -> tuple[float, ...]:
    """The vector of a ``vector_f32`` text (a ValueError when it is not one)."""
    data = base64.b64decode(text, validate=True)
    if len(data) % 4:
        raise ValueError("not a whole number of float32 values")
    return struct.unpack(f"<{len(data) // 4}f", data)


def _agree(written: Sequence[float], kept: Sequence[float]) -> bool:
    """Whether ``written`` is the vector Chroma keeps as ``kept`` (equal up to the rounding
    of its normalising: 1e-5 of the largest value); a row whose embedding another
    client replaced without its ``vector_f32`` reads as the embedding."""
    if len(written) != len(kept):
        return False
    scale = max((abs(x) for x in kept), default=0.0)
    return all(abs(a - b) <= 1e-5 * scale for a, b in zip(written, kept, strict=True))


def access_filter(principal: Principal | None, sets: Sequence[str]) -> list[dict[str, Any]]:
    """STORE-9: CTX-13 as Chroma ``where`` filters (one per slice of ``sets``; the answer is
    their union): ``labels_readable`` true, the tenant unset or the principal's, and the
    row's ``label_set`` one of ``sets`` (the recorded label sets, :func:`label_set` texts)
    whose labels the principal all holds. Structured values only: nothing is pasted."""
    if principal is None:
        return [{"$and": [{"labels_readable": True}, {"has_tenant": False}, {"label_set": "[]"}]}]
    tenant: dict[str, Any] = {"has_tenant": False}
    if principal.tenant is not None:
        tenant = {"$or": [{"has_tenant": False}, {"tenant": principal.tenant}]}
    allowed = sorted({"[]"} | {s for s in sets if set(json.loads(s)) <= principal.labels})
    return [
        {
            "$and": [
                {"labels_readable": True},
                tenant,
                {"label_set": {"$in": allowed[first : first + _SETS]}},
            ]
        }
        for first in range(0, len(allowed), _SETS)
    ]


def _metadata(row: StoreRow) -> dict[str, Any]:
    """STORE-3: the row's Chroma metadata; None where a key must be absent (an upsert of a
    held id removes the key: Chroma merges an upsert's metadata into the row's)."""
    data: dict[str, Any] = {"digest": row.digest, "vector_f32": packed(row.vector)}
    for name in FIELDS:
        if name == "text":
            continue
        value = row.fields[name]
        if name in _LISTS:
            value = list(value) or None
        data[name] = value
    data["has_tenant"] = row.fields["tenant"] is not None
    data["label_set"] = label_set(row.fields["labels"])
    return data


def _fields(metadata: Mapping[str, Any] | None, document: str | None) -> dict[str, Any]:
    """STORE-3: the fields of a row read back: a missing key is None, a missing list ``[]``."""
    data = metadata or {}
    fields: dict[str, Any] = {}
    for name in FIELDS:
        if name == "text":
            fields[name] = document
        elif name in _LISTS:
            fields[name] = list(data.get(name) or [])
        else:
            fields[name] = data.get(name)
    return fields


class ChromaStore:
    """The collection ``collection`` of the Chroma ``PersistentClient`` in folder ``path``."""

    #: Whether several processes may write the store at once: Chroma's PersistentClient is
    #: one process's (its SQLite and index files are not written safely by several), so
    #: ``chunkspec.stores._ray_apply`` writes it from the driver.
    concurrent_writes = False

    def __init__(self, path: str, collection: str) -> None:
        """STORE-1: open the client (telemetry off); the collection is made on first write."""
        if len(collection) < 3 or not collection[-1].isalnum():
            raise ArgumentValueError(
                "collection",
                "must have 3 characters or more and end in a letter or digit (Chroma's names)",
                collection,
            )
        self.address = f"chroma://{path}#{collection}"
        self._name = collection
        self._client: Any = _chromadb.PersistentClient(
            path=path, settings=_Settings(anonymized_telemetry=False, allow_reset=False)
        )
        self._collection: Any = None

    def _open(self) -> Any:
        """The collection, or None while it does not exist (another writer may make it)."""
        if self._collection is None:
            try:
                self._collection = self._client.get_collection(self._name)
            except _NotFoundError:
                return None
        return self._collection

    def _sets(self, metadata: Mapping[str, Any] | None = None) -> list[str]:
        """The label sets the collection's metadata records (read anew: writers add sets)."""
        if metadata is None:
            metadata = self._client.get_collection(self._name).metadata or {}
        recorded = metadata.get(SETS_KEY)
        if recorded is None:
            return []
        try:
            sets = json.loads(recorded)
        except (TypeError, ValueError) as error:
            raise StoreError(f"{self.address}: {SETS_KEY} is not JSON") from error
        if not isinstance(sets, list) or not all(
            isinstance(s, list) and all(isinstance(label, str) for label in s) for s in sets
        ):
            raise StoreError(f"{self.address}: {SETS_KEY} is not a list of label lists")
        return [label_set(s) for s in sets]

    def _record(self, wanted: set[str]) -> None:
        """STORE-9: add the label sets ``wanted`` to the collection's record (keeping its
        other metadata); Chroma replaces collection metadata whole, so read, add, write."""
        collection = self._client.get_collection(self._name)
        metadata = dict(collection.metadata or {})
        sets = set(self._sets(metadata))
        if wanted <= sets:
            return
        metadata[SETS_KEY] = json.dumps(
            [json.loads(s) for s in sorted(sets | wanted)], ensure_ascii=False
        )
        collection.modify(metadata=metadata)

    def held(self) -> dict[str, str]:
        """STORE-1: every id with its digest ("" for a row without one), page by page."""
        collection = self._open()
        if collection is None:
            return {}
        held: dict[str, str] = {}
        offset = 0
        while True:
            page = collection.get(include=["metadatas"], limit=_PAGE, offset=offset)
            ids = page["ids"]
            for key, metadata in zip(ids, page["metadatas"], strict=True):
                digest = (metadata or {}).get("digest")
                held[key] = digest if isinstance(digest, str) else ""
            if len(ids) < _PAGE:
                return held
            offset += len(ids)

    def upsert(self, rows: Sequence[StoreRow]) -> None:
        """STORE-1, STORE-3: write ``rows`` (a held id's row replaced key for key), after
        recording their label sets (STORE-9: a set is named before any row carries it)."""
        if not rows:
            return
        if self._open() is None:
            self._collection = self._client.get_or_create_collection(
                self._name, configuration={"hnsw": {"space": "cosine"}}, embedding_function=None
            )
        wanted = {label_set(r.fields["labels"]) for r in rows}
        self._record(wanted)
        batch = max(1, min(int(self._client.get_max_batch_size()), 1_000))
        for first in range(0, len(rows), batch):
            part = rows[first : first + batch]
            self._collection.upsert(
                ids=[r.key for r in part],
                embeddings=[list(r.vector) for r in part],
                documents=[r.fields["text"] for r in part],
                metadatas=[_metadata(r) for r in part],
            )
        self._record(wanted)  # again: a writer racing this one may have replaced the record

    def delete(self, keys: Sequence[str]) -> None:
        """STORE-1: remove the rows of ``keys``; an id not held is no error."""
        collection = self._open()
        if collection is None or not keys:
            return
        for first in range(0, len(keys), _IDS):
            collection.delete(ids=list(keys[first : first + _IDS]))

    def fetch(self, keys: Sequence[str]) -> dict[str, StoreRow]:
        """STORE-3: the held rows of ``keys``, vectors included (float32 values as written)."""
        collection = self._open()
        if collection is None or not keys:
            return {}
        found: dict[str, StoreRow] = {}
        for first in range(0, len(keys), _IDS):
            got = collection.get(
                ids=list(dict.fromkeys(keys[first : first + _IDS])),
                include=["embeddings", "documents", "metadatas"],
            )
            for key, vector, document, metadata in zip(
                got["ids"], got["embeddings"], got["documents"], got["metadatas"], strict=True
            ):
                found[key] = self._row(key, vector, document, metadata)
        return found

    def _row(self, key: str, vector: Any, document: str | None, metadata: Any) -> StoreRow:
        """A store row from Chroma's id, embedding, document and metadata."""
        data = metadata or {}
        digest = data.get("digest")
        values: tuple[float, ...] = () if vector is None else tuple(float(x) for x in vector)
        text = data.get("vector_f32")
        if isinstance(text, str):
            try:
                written = unpacked(text)
            except ValueError as error:
                raise StoreError(f"{self.address}: row {key}: vector_f32 is damaged") from error
            if not values or _agree(written, values):  # else the embedding was changed since
                values = written
        return StoreRow(
            key, values, digest if isinstance(digest, str) else "", _fields(metadata, document)
        )

    def _check(self, row: StoreRow, metadata: Mapping[str, Any], who: Principal | None) -> None:
        """STORE-9, defence in depth: a row the filter passed must say the same in its filter
        keys as in its fields (``label_set`` its labels, ``has_tenant`` its tenant) and be
        one CTX-13 lets ``who`` read; a row that is not (written by another tool) fails the
        search rather than be trusted. The filter itself is Chroma's ``where``."""
        labels = row.fields["labels"]
        if (
            not all(isinstance(label, str) for label in labels)
            or metadata.get("label_set") != label_set(labels)
            or metadata.get("has_tenant") is not (row.fields["tenant"] is not None)
            or not row_readable(row, who)
        ):
            raise StoreError(
                f"{self.address}: row {row.key}: its filter keys do not match its labels "
                "and tenant (written by another tool?); not returned"
            )

    def search(self, vector: Sequence[float], k: int, principal: Principal | None) -> list[Hit]:
        """STORE-9, STORE-10: the ``k`` nearest rows ``principal`` may read, filtered in
        Chroma's query (``where``), best first by cosine similarity."""
        check_search(k, principal)
        collection = self._open()
        if collection is None:
            return []
        query = [float(x) for x in vector]
        hits: list[Hit] = []
        for where in access_filter(principal, self._sets() if principal is not None else []):
            got = collection.query(
                query_embeddings=[query],
                n_results=k,
                where=where,
                include=["embeddings", "documents", "metadatas", "distances"],
            )
            for key, embedding, document, metadata, distance in zip(
                got["ids"][0],
                got["embeddings"][0],
                got["documents"][0],
                got["metadatas"][0],
                got["distances"][0],
                strict=True,
            ):
                row = self._row(key, embedding, document, metadata)
                self._check(row, metadata, principal)
                hits.append(Hit(row, 1.0 - float(distance)))
        hits.sort(key=lambda hit: -hit.score)
        return hits[:k]

    def close(self) -> None:
        """STORE-1: release the client's files (its SQLite database) and handles."""
        self._collection = None
        self._client.close()


def open_store(path: str, collection: str) -> ChromaStore:
    """STORE-1's opener: the collection ``collection`` of the Chroma folder ``path``."""
    return ChromaStore(path, collection)
