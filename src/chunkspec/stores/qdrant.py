"""Qdrant (extra ``chunkspec[qdrant]``): the client's local mode, one folder (STORE-1).

A collection is a Qdrant collection of one unnamed vector, cosine distance. A row is a point:

* its id is a UUID made from the key (Qdrant takes only unsigned ints and UUIDs): the key's
  first 32 hex digits, ``uuid.UUID(key[:32])``; the key itself is the payload's ``key`` and
  is checked on every read (a point whose ``key`` is another key is not that key's row);
* its vector is the row's vector (Qdrant normalises it for cosine distance, so the point's
  vector is the unit vector; the vector as written is the payload's ``vector``, a list of
  floats, which :meth:`QdrantStore.fetch` returns: STORE-3 reads back what was written);
* its payload holds ``key``, ``digest`` (STORE-4), ``vector`` and every field (STORE-3)
  under its own name and JSON type: None as null, ``heading_path`` and ``labels`` as arrays.

So Qdrant's own filters work on the fields::

    models.Filter(must=[
        models.FieldCondition(key="doc_id", match=models.MatchValue(value="guide.md")),
        models.FieldCondition(key="page_start", range=models.Range(gte=3)),
    ])

STORE-9 in Qdrant's filter: ``labels_readable`` true, the tenant null or the principal's, and
no label outside the principal's: ``must_not`` a ``labels`` value ``MatchExcept`` the labels
held (Qdrant matches an array when one of its values is none of those given). A point
lacking ``labels_readable``, or whose ``tenant`` key is missing, matches nothing.
"""

from __future__ import annotations

import math
import os
import re
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

try:
    from qdrant_client import QdrantClient as _QdrantClient
    from qdrant_client import models as _models
except ImportError as error:  # pragma: no cover - see tests/stores/test_stores_lazy.py
    raise ImportError("qdrant-client is not installed: pip install 'chunkspec[qdrant]'") from error

from .._errors import ArgumentTypeError, ArgumentValueError, StoreError
from .._packing._access import Principal
from ._store import FIELDS, Hit, StoreRow, check_search, row_readable

__all__ = ["QdrantStore", "access_filter", "open_store", "point_id"]

#: A key chunkspec writes (KEY-1): 64 lowercase hex digits.
_KEY = re.compile(r"[0-9a-f]{64}")

#: Points per upsert, retrieve or delete call, and per page of :meth:`QdrantStore.held`.
_BATCH = 500
_PAGE = 1_000


def point_id(key: str) -> str | int:
    """The point id of ``key``: the UUID of its first 32 hex digits for a key chunkspec
    writes; a key :meth:`QdrantStore.held` reported for a point without one (a UUID or an
    unsigned int, as text) is that point's id. A ValueError naming ``keys`` else."""
    if not isinstance(key, str):
        raise ArgumentTypeError("keys[...]", "a str", key)
    if _KEY.fullmatch(key):
        return str(uuid.UUID(key[:32]))
    if key.isascii() and key.isdigit():
        return int(key)
    try:
        if str(uuid.UUID(key)) == key:
            return key
    except ValueError:
        pass
    raise ArgumentValueError("keys[...]", "must be 64 lowercase hex digits (KEY-1)", key)


def access_filter(principal: Principal | None) -> Any:
    """STORE-9: CTX-13 as a Qdrant filter of structured conditions (nothing pasted):
    ``labels_readable`` true, ``tenant`` null or the principal's, and no ``labels`` value
    outside the principal's labels."""
    readable = _models.FieldCondition(key="labels_readable", match=_models.MatchValue(value=True))
    untenanted = _models.IsNullCondition(is_null=_models.PayloadField(key="tenant"))
    unlabelled = _models.IsEmptyCondition(is_empty=_models.PayloadField(key="labels"))
    if principal is None:
        return _models.Filter(must=[readable, untenanted, unlabelled])
    tenant: Any = untenanted
    if principal.tenant is not None:
        own = _models.FieldCondition(key="tenant", match=_models.MatchValue(value=principal.tenant))
        tenant = _models.Filter(should=[untenanted, own])
    if not principal.labels:
        return _models.Filter(must=[readable, tenant, unlabelled])
    other = _models.FieldCondition(
        key="labels", match=_models.MatchExcept(**{"except": sorted(principal.labels)})
    )
    return _models.Filter(must=[readable, tenant], must_not=[other])


def _payload(row: StoreRow) -> dict[str, Any]:
    """STORE-3: the point's payload: key, digest, the vector as written, every field."""
    payload: dict[str, Any] = {"key": row.key, "digest": row.digest, "vector": list(row.vector)}
    for name, kind in FIELDS.items():
        value = row.fields[name]
        payload[name] = list(value) if kind is list and value is not None else value
    return payload


def _unit(vector: Sequence[float]) -> list[float]:
    """``vector`` scaled to length 1 (as Qdrant keeps it); all zeros stay zeros."""
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector] if norm else list(vector)


def _agree(written: Sequence[float], kept: Sequence[float]) -> bool:
    """Whether ``written`` is the vector Qdrant keeps as ``kept`` (its unit vector, up to
    float32 rounding): a point whose vector another client replaced reads as that vector."""
    if len(written) != len(kept):
        return False
    return all(abs(a - b) <= 1e-5 for a, b in zip(_unit(written), kept, strict=True))


def _check_unlocked(path: str, address: str) -> None:
    """A StoreError naming ``address`` when another client holds the folder's lock (local
    mode takes it only after loading every point, and a client refused it leaves its lock
    file open: this asks first, the same way, and lets go at once)."""
    lock = os.path.join(path, ".lock")
    if not os.path.isfile(lock):
        return
    import portalocker  # as qdrant_client does: its import fails in a read-only folder

    with open(lock, "r+") as file:
        try:
            portalocker.lock(
                file, portalocker.LockFlags.EXCLUSIVE | portalocker.LockFlags.NON_BLOCKING
            )
        except portalocker.exceptions.LockException:
            raise StoreError(
                f"{address}: the folder is open in another Qdrant client (local mode allows "
                "one at a time; close it, or use a Qdrant server)"
            ) from None
        portalocker.unlock(file)


class QdrantStore:
    """The collection ``collection`` of the Qdrant local-mode folder ``path``."""

    #: Whether several processes may write the store at once: local mode locks its folder
    #: for one client, so ``chunkspec.stores._ray_apply`` writes it from the driver.
    concurrent_writes = False

    def __init__(self, path: str, collection: str) -> None:
        """STORE-1: open the folder (local mode locks it until :meth:`close`)."""
        self.address = f"qdrant://{path}#{collection}"
        self._name = collection
        _check_unlocked(path, self.address)
        try:
            self._client: Any = _QdrantClient(path=path)
        except RuntimeError as error:  # the folder is locked by another client
            raise StoreError(f"{self.address}: {error}") from error
        self._exists = False

    def _ready(self) -> bool:
        """Whether the collection exists (it is made on the first write)."""
        if not self._exists:
            self._exists = bool(self._client.collection_exists(self._name))
        return self._exists

    def _row(self, point: Any) -> StoreRow:
        """A store row from a point with its payload (and vector, when read with it)."""
        payload: Mapping[str, Any] = point.payload or {}
        key = payload.get("key")
        digest = payload.get("digest")
        kept = point.vector if isinstance(point.vector, list) else None
        written = payload.get("vector")
        vector: tuple[float, ...] = ()
        if isinstance(written, list) and (kept is None or _agree(written, kept)):
            vector = tuple(float(x) for x in written)
        elif kept is not None:
            vector = tuple(float(x) for x in kept)
        fields: dict[str, Any] = {}
        for name, kind in FIELDS.items():
            value = payload.get(name)
            fields[name] = list(value or []) if kind is list else value
        return StoreRow(
            key if isinstance(key, str) else str(point.id),
            vector,
            digest if isinstance(digest, str) else "",
            fields,
        )

    def held(self) -> dict[str, str]:
        """STORE-1: every id with its digest ("" for a point without one; a point without a
        ``key`` is held under its point id), scrolled page by page without vectors."""
        if not self._ready():
            return {}
        held: dict[str, str] = {}
        offset: Any = None
        while True:
            points, offset = self._client.scroll(
                self._name,
                limit=_PAGE,
                offset=offset,
                with_payload=["key", "digest"],
                with_vectors=False,
            )
            for point in points:
                row = self._row(point)
                held[row.key] = row.digest
            if offset is None:
                return held

    def upsert(self, rows: Sequence[StoreRow]) -> None:
        """STORE-1, STORE-3: write ``rows`` as points (a held id's point replaced whole);
        makes the collection (cosine, the rows' dimension) on the first write."""
        if not rows:
            return
        for n, row in enumerate(rows):
            if not _KEY.fullmatch(row.key):
                raise ArgumentValueError(
                    f"rows[{n}].key", "must be 64 lowercase hex digits (KEY-1)", row.key
                )
        if not self._ready():
            params = _models.VectorParams(
                size=len(rows[0].vector), distance=_models.Distance.COSINE
            )
            self._client.create_collection(self._name, vectors_config=params)
            self._exists = True
        for first in range(0, len(rows), _BATCH):
            points = [
                _models.PointStruct(id=point_id(r.key), vector=list(r.vector), payload=_payload(r))
                for r in rows[first : first + _BATCH]
            ]
            self._client.upsert(self._name, points=points, wait=True)

    def delete(self, keys: Sequence[str]) -> None:
        """STORE-1: remove the points of ``keys``; an id not held is no error."""
        if not keys or not self._ready():
            return
        ids = [point_id(key) for key in keys]
        for first in range(0, len(ids), _BATCH):
            selector = _models.PointIdsList(points=ids[first : first + _BATCH])
            self._client.delete(self._name, points_selector=selector, wait=True)

    def fetch(self, keys: Sequence[str]) -> dict[str, StoreRow]:
        """STORE-3: the held rows of ``keys``, the vector as written; a point whose payload
        names another key is not the row of this one."""
        if not keys or not self._ready():
            return {}
        wanted = {point_id(key): key for key in keys}
        ids = list(wanted)
        found: dict[str, StoreRow] = {}
        for first in range(0, len(ids), _BATCH):
            points = self._client.retrieve(
                self._name, ids=ids[first : first + _BATCH], with_payload=True, with_vectors=True
            )
            for point in points:
                row = self._row(point)
                if row.key == wanted.get(point.id):
                    found[row.key] = row
        return found

    def search(self, vector: Sequence[float], k: int, principal: Principal | None) -> list[Hit]:
        """STORE-9, STORE-10: the ``k`` nearest points ``principal`` may read, filtered in
        Qdrant's query, best first by cosine similarity (Qdrant's score)."""
        check_search(k, principal)
        if not self._ready():
            return []
        answer = self._client.query_points(
            self._name,
            query=[float(x) for x in vector],
            limit=k,
            query_filter=access_filter(principal),
            with_payload=True,
            with_vectors=True,
        )
        hits = [Hit(self._row(point), float(point.score)) for point in answer.points]
        for hit in hits:  # defence in depth: the filter above is what withholds
            if not row_readable(hit.row, principal):
                raise StoreError(
                    f"{self.address}: point {hit.row.key} passed the access filter but its "
                    "fields say it is withheld (written by another tool?); not returned"
                )
        return hits

    def close(self) -> None:
        """STORE-1: release the folder's lock (local mode holds it while open)."""
        self._exists = False
        self._client.close()


def open_store(path: str, collection: str) -> QdrantStore:
    """STORE-1's opener: the collection ``collection`` of the Qdrant folder ``path``."""
    return QdrantStore(path, collection)
