"""LanceDB, the default store (extra ``chunkspec[lancedb]``): one folder, no server (STORE-1).

A collection is a LanceDB table whose columns are the row's fields (STORE-3) under their
own names and types: ``key`` (the id), ``digest``, ``vector`` (fixed-size float32, cosine
distance), lists of strings for ``heading_path`` and ``labels``, nullable ints for the
pages, so LanceDB's own SQL filters work on them::

    table.search(v).where("doc_id = 'guide/install.md' AND page_start >= 3")

:meth:`LanceDBStore.search` applies CTX-13 in the table's query (STORE-9), prefiltered.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

try:
    import lancedb as _lancedb
    import pyarrow as pa
except ImportError as error:  # pragma: no cover - see tests/stores/test_stores_lazy.py
    raise ImportError("lancedb is not installed: pip install 'chunkspec[lancedb]'") from error

from .._errors import StoreError
from .._packing._access import Principal
from ._store import FIELDS, Hit, StoreRow, check_search, row_readable

__all__ = ["LanceDBStore", "open_store"]

#: FIELDS' Python types as Arrow types (the field columns are nullable: NULLABLE's hold nulls).
_ARROW = {str: pa.string(), int: pa.int64(), bool: pa.bool_(), list: pa.list_(pa.string())}


def quoted(value: str) -> str:
    """A SQL string literal (DataFusion: ``'`` doubled, nothing else is special)."""
    return "'" + value.replace("'", "''") + "'"


def access_filter(principal: Principal | None) -> str:
    """STORE-9: CTX-13 as a LanceDB ``where``: labels readable, the tenant unset or the
    principal's, and every label one the principal holds (``array_has_all(held, labels)``)."""
    if principal is None:
        return "labels_readable AND tenant IS NULL AND cardinality(labels) = 0"
    tenant = "tenant IS NULL"
    if principal.tenant is not None:
        tenant = f"(tenant IS NULL OR tenant = {quoted(principal.tenant)})"
    if principal.labels:
        held = ", ".join(quoted(label) for label in sorted(principal.labels))
        labels = f"(cardinality(labels) = 0 OR array_has_all(make_array({held}), labels))"
    else:
        labels = "cardinality(labels) = 0"
    return f"labels_readable AND {tenant} AND {labels}"


class LanceDBStore:
    """The table ``collection`` of the LanceDB database in folder ``path``."""

    #: Whether several processes may write the store at once: LanceDB's commits are
    #: optimistic, each process its own writer (``chunkspec.stores._ray_apply``).
    concurrent_writes = True

    def __init__(self, path: str, collection: str) -> None:
        self.address = f"lancedb://{path}#{collection}"
        # STORE-5 plans from what the store holds now: every read checks for the versions
        # other processes committed (by default a table object never sees them).
        self._db = _lancedb.connect(path, read_consistency_interval=timedelta(0))
        self._name = collection
        self._table: Any = None
        self._open()

    def _open(self) -> Any:
        """The table, opened if it exists now (another process may have created it)."""
        if self._table is None:
            try:
                self._table = self._db.open_table(self._name)
            except ValueError:  # no such table yet: created on the first write
                self._table = None
        return self._table

    def _schema(self, dimension: int) -> Any:
        """The table's Arrow schema."""
        columns = [
            pa.field("key", pa.string(), nullable=False),
            pa.field("digest", pa.string(), nullable=False),
            pa.field("vector", pa.list_(pa.float32(), dimension), nullable=False),
        ]
        for name, kind in FIELDS.items():
            columns.append(pa.field(name, _ARROW[kind]))
        return pa.schema(columns)

    def held(self) -> dict[str, str]:
        """Every key with its digest."""
        if self._open() is None:
            return {}
        table = self._table.search().select(["key", "digest"]).limit(None).to_arrow()
        digests = table.column("digest").to_pylist()
        return {k: d or "" for k, d in zip(table.column("key").to_pylist(), digests, strict=True)}

    def upsert(self, rows: Sequence[StoreRow]) -> None:
        """Merge ``rows`` on ``key``: matched rows are replaced, the others inserted."""
        if not rows:
            return
        if self._open() is None:
            schema = self._schema(len(rows[0].vector))
            self._table = self._db.create_table(self._name, schema=schema, exist_ok=True)
        data = pa.Table.from_pylist(
            [
                {"key": r.key, "digest": r.digest, "vector": list(r.vector), **r.fields}
                for r in rows
            ],
            schema=self._table.schema,
        )
        merge = self._table.merge_insert("key")
        merge.when_matched_update_all().when_not_matched_insert_all().execute(data)

    def delete(self, keys: Sequence[str]) -> None:
        """Delete the rows of ``keys``."""
        if keys and self._open() is not None:
            self._table.delete(f"key IN ({', '.join(quoted(k) for k in keys)})")

    def _rows(self, records: list[dict[str, Any]]) -> list[StoreRow]:
        """Store rows from the table's dicts."""
        return [
            StoreRow(
                r["key"],
                tuple(r["vector"]) if r.get("vector") is not None else (),
                r["digest"] or "",
                {name: r[name] for name in FIELDS},
            )
            for r in records
        ]

    def fetch(self, keys: Sequence[str]) -> dict[str, StoreRow]:
        """The rows of ``keys`` the table holds."""
        if self._open() is None or not keys:
            return {}
        found: dict[str, StoreRow] = {}
        for first in range(0, len(keys), 500):
            where = f"key IN ({', '.join(quoted(k) for k in keys[first : first + 500])})"
            got = self._table.search().where(where).limit(None).to_list()
            found.update((row.key, row) for row in self._rows(got))
        return found

    def search(self, vector: Sequence[float], k: int, principal: Principal | None) -> list[Hit]:
        """STORE-9, STORE-10: the ``k`` nearest rows ``principal`` may read, prefiltered in
        LanceDB's query, each answer checked again (a row the filter let through is a
        StoreError)."""
        check_search(k, principal)
        if self._open() is None:
            return []
        query = (
            self._table.search(list(vector))
            .distance_type("cosine")
            .where(access_filter(principal), prefilter=True)
            .limit(k)
        )
        got = query.to_list()
        hits = [
            Hit(row, 1.0 - float(r["_distance"]))
            for row, r in zip(self._rows(got), got, strict=True)
        ]
        for hit in hits:
            if not row_readable(hit.row, principal):
                raise StoreError(f"{self.address}: the filter let through {hit.row.key}, withheld")
        return hits

    def close(self) -> None:
        """Nothing to release: LanceDB holds no lock between calls."""
        self._table = None


def open_store(path: str, collection: str) -> LanceDBStore:
    """STORE-1's opener: the table ``collection`` in folder ``path``."""
    return LanceDBStore(path, collection)
