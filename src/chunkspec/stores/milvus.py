"""Milvus Lite (extra ``chunkspec[milvus]``): one ``.db`` file, no server (STORE-1).

A collection is a Milvus collection with an explicit schema whose fields are the row's
fields (STORE-3) under their own names and types: ``key`` (VARCHAR primary key, 64),
``digest`` (VARCHAR), ``vector`` (FLOAT_VECTOR, a FLAT index with metric COSINE), VARCHAR
for the strings, INT64 for the ints, BOOL, ARRAY of VARCHAR for ``heading_path`` and
``labels``; the fields NULLABLE names are nullable. Milvus's own filter expressions work on
them::

    client.query("chunkspec", filter='doc_id == "guide/install.md" and page_start >= 3')

A VARCHAR (and an ARRAY element) holds at most 65,535 bytes and an ARRAY at most 4,096
elements. A longer string (a text over 64 KiB, a long metadata, a heading trail too long)
is kept whole in the ARRAY field ``spilled``: the field's name, the number of pieces, then
the pieces (each at most 65,535 bytes of UTF-8, cut between characters; a list as its JSON
text), the field itself holding ``""`` or ``[]``. ``tenant`` and ``labels`` are filtered on
(STORE-9), so they are never spilled: a row whose tenant or a label is over the limits, or
with over 4,096 labels, is a StoreError naming its key.

:meth:`MilvusStore.search` applies CTX-13 in the search's own ``filter`` (STORE-9). Milvus
Lite's parser takes no templated ``filter_params`` and has no "array is a subset of"
operator, so the expression is built from escaped literals, and "every label of the row
is one the principal holds" is spelled out position by position (see
:func:`access_filter`): it needs no list of every label the store holds, and a row with a
label the principal lacks, known or not, fails it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

try:
    from pymilvus import DataType, MilvusClient, MilvusException
except ImportError as error:  # pragma: no cover - see tests/stores/test_stores_lazy.py
    raise ImportError("pymilvus is not installed: pip install 'chunkspec[milvus]'") from error

from .._errors import StoreError
from .._packing._access import Principal
from ._store import FIELDS, NULLABLE, Hit, StoreRow, check_search, row_readable

__all__ = ["MilvusStore", "access_filter", "open_store", "quoted"]

#: Bytes a VARCHAR (or an ARRAY's VARCHAR element) holds at most (Milvus's limit).
MAX_VARCHAR = 65_535

#: Elements an ARRAY holds at most (Milvus's limit).
MAX_CAPACITY = 4_096

#: Bytes of a key (the primary key's max_length).
MAX_KEY = 64

#: Rows a query returns at most per call, and the largest ``limit`` of a search (Milvus).
MAX_QUERY = 16_384

#: Keys per ``key in [...]`` expression.
_KEYS_PER_QUERY = 500

#: About how many bytes of rows one ``upsert`` call carries (a call is one gRPC message).
_UPSERT_BYTES = 16 * 1024 * 1024


class _LiteHasNoTimestamps(logging.Filter):
    """Drops pymilvus's warning, at every ``held()``, that Milvus Lite does not allocate
    timestamps: the query iterator then reads as of now, which is what held() wants."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False for that one warning."""
        return not record.getMessage().startswith("failed to get mvccTs")


logging.getLogger("pymilvus.client.iterator.query_iterator").addFilter(_LiteHasNoTimestamps())

#: The stores open in this process on each file: Milvus Lite serves a file from one server
#: per process, holding the file's lock until it is released (a client's close() does not).
_OPEN: dict[str, int] = {}

#: The fields filtered on (STORE-9): never spilled.
_FILTERED = frozenset({"tenant", "labels"})

#: The ARRAY of a row's spilled fields (see the module's docstring).
SPILLED = "spilled"

#: FIELDS' Python types as Milvus types.
_TYPES = {str: DataType.VARCHAR, int: DataType.INT64, bool: DataType.BOOL, list: DataType.ARRAY}

#: Every field a row is read back with.
_OUTPUT = ["key", "digest", "vector", SPILLED, *FIELDS]


def quoted(value: str) -> str:
    """A Milvus expression string literal: double quotes, ``\\``, ``"``, CR and LF escaped.

    Milvus's lexer takes any other character as is inside double quotes, and knows only
    the C escapes (no ``\\u``): this is the whole of its string literal's grammar.
    """
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n").replace("\r", "\\r") + '"'


#: Positions of the label check nested (each row's check stops at its own length); the
#: rest are flat terms (Milvus Lite's parser recurses once per nesting level).
_NESTED = 32


def _subset(held: Sequence[str]) -> str:
    """STORE-9: ``labels`` (a row's labels, sorted and distinct: the store refuses others)
    is a subset of ``held``.

    Position by position: the row ends at ``i`` (``ARRAY_LENGTH(labels) <= i``), or its
    label at ``i`` is ``held``'s ``i``-th or a later one (both lists sorted and distinct);
    a row still going after ``held``'s last label has one ``held`` lacks. The first
    positions are nested, so that a row's check stops at its own length.
    """
    literals = [quoted(label) for label in sorted(set(held))]

    def position(at: int) -> str:
        """The row's label at ``at`` is a held one from the ``at``-th on."""
        return " or ".join(f"labels[{at}] == {literal}" for literal in literals[at:])

    tail = [f"ARRAY_LENGTH(labels) <= {len(literals)}"]
    for at in range(_NESTED, len(literals)):
        tail.append(f"(ARRAY_LENGTH(labels) <= {at} or {position(at)})")
    expression = "(" + " and ".join(tail) + ")"
    for at in reversed(range(min(_NESTED, len(literals)))):
        expression = f"(ARRAY_LENGTH(labels) <= {at} or (({position(at)}) and {expression}))"
    return expression


def access_filter(principal: Principal | None) -> str:
    """STORE-9: CTX-13 as a Milvus filter expression: labels readable, the tenant unset or
    the principal's, and every label of the row one the principal holds."""
    if principal is None:
        return "labels_readable == true and tenant is null and ARRAY_LENGTH(labels) == 0"
    tenant = "tenant is null"
    if principal.tenant is not None:
        tenant = f"(tenant is null or tenant == {quoted(principal.tenant)})"
    return f"labels_readable == true and {tenant} and {_subset(sorted(principal.labels))}"


def _utf8(where: str, name: str, value: str) -> bytes:
    """``value``'s UTF-8 bytes; a StoreError starting with ``where`` (the store's address
    and the row's key) when it has none (a lone surrogate)."""
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(
            f"{where}: {name} holds a lone surrogate, which Milvus cannot store"
        ) from None


def _pieces(data: bytes) -> list[str]:
    """``data`` (UTF-8) in pieces of at most MAX_VARCHAR bytes, cut between characters."""
    pieces: list[str] = []
    first = 0
    while first < len(data):
        end = min(first + MAX_VARCHAR, len(data))
        while end < len(data) and data[end] & 0xC0 == 0x80:  # inside a character: back off
            end -= 1
        pieces.append(data[first:end].decode("utf-8"))
        first = end
    return pieces


def _fits_list(where: str, name: str, values: Sequence[str]) -> bool:
    """Whether a list fits an ARRAY of VARCHAR."""
    sizes = [len(_utf8(where, name, value)) for value in values]
    return len(values) <= MAX_CAPACITY and all(size <= MAX_VARCHAR for size in sizes)


class MilvusStore:
    """The collection ``collection`` of the Milvus Lite database in file ``path``."""

    #: Whether several processes may write the store at once: Milvus Lite locks its file
    #: for the process that opened it (``chunkspec.stores._ray_apply``).
    concurrent_writes = False

    def __init__(self, path: str, collection: str) -> None:
        self.address = f"milvus://{path}#{collection}"
        self._name = collection
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)  # as LanceDB makes its folder
        self._path = os.path.abspath(path)
        self._closed = False
        _OPEN[self._path] = _OPEN.get(self._path, 0) + 1
        try:
            with self._calling("open"):
                self._client: Any = MilvusClient(path)
                self._exists = bool(self._client.has_collection(collection))
                if self._exists:
                    self._client.load_collection(collection)
        except BaseException:
            self._release()
            raise

    @contextlib.contextmanager
    def _calling(self, what: str) -> Iterator[None]:
        """Milvus's errors as a StoreError starting with the store's address."""
        try:
            yield
        except MilvusException as error:
            message = str(getattr(error, "message", "") or error).splitlines()[0]
            raise StoreError(f"{self.address}: {what}: {message}") from None

    def _create(self, dimension: int) -> None:
        """STORE-3: the collection's explicit schema, its COSINE index, Strong consistency
        (a write is seen by the next query), loaded."""
        client = self._client
        schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
        schema.add_field("key", DataType.VARCHAR, is_primary=True, max_length=MAX_KEY)
        schema.add_field("digest", DataType.VARCHAR, max_length=MAX_VARCHAR)
        schema.add_field("vector", DataType.FLOAT_VECTOR, dim=dimension)
        array = {
            "element_type": DataType.VARCHAR,
            "max_capacity": MAX_CAPACITY,
            "max_length": MAX_VARCHAR,
        }
        schema.add_field(SPILLED, DataType.ARRAY, **array)
        for name, kind in FIELDS.items():
            options: dict[str, Any] = {"nullable": name in NULLABLE}
            if kind is str:
                options["max_length"] = MAX_VARCHAR
            elif kind is list:
                options.update(array)
            schema.add_field(name, _TYPES[kind], **options)
        index = client.prepare_index_params()
        index.add_index("vector", index_type="FLAT", metric_type="COSINE")
        client.create_collection(
            self._name, schema=schema, index_params=index, consistency_level="Strong"
        )
        client.load_collection(self._name)
        self._exists = True

    def _entity(self, row: StoreRow) -> dict[str, Any]:
        """STORE-3: ``row`` as a Milvus entity, long values spilled (module docstring)."""
        key = row.key
        where = f"{self.address}: row {key}"
        if len(_utf8(where, "key", key)) > MAX_KEY:
            raise StoreError(f"{where}: a key holds at most {MAX_KEY} bytes")
        if len(_utf8(where, "digest", row.digest)) > MAX_VARCHAR:
            raise StoreError(f"{where}: its digest is over {MAX_VARCHAR} bytes")
        entity: dict[str, Any] = {"key": key, "digest": row.digest, "vector": list(row.vector)}
        spilled: list[str] = []
        for name, kind in FIELDS.items():
            value = row.fields[name]
            if kind is list:
                value = list(value)
            if name in _FILTERED:
                pass  # never spilled: checked below
            elif kind is str and value is not None:
                data = _utf8(where, name, value)
                if len(data) > MAX_VARCHAR:
                    pieces = _pieces(data)
                    spilled.extend([name, str(len(pieces)), *pieces])
                    value = ""
            elif kind is list and not _fits_list(where, name, value):
                pieces = _pieces(_utf8(where, name, json.dumps(value, ensure_ascii=False)))
                spilled.extend([name, str(len(pieces)), *pieces])
                value = []
            entity[name] = value
        self._check_filtered(where, entity)
        if len(spilled) > MAX_CAPACITY:
            raise StoreError(
                f"{where}: its long fields need {len(spilled)} pieces of "
                f"{MAX_VARCHAR} bytes, over Milvus's {MAX_CAPACITY}"
            )
        entity[SPILLED] = spilled
        return entity

    @staticmethod
    def _check_filtered(where: str, entity: Mapping[str, Any]) -> None:
        """STORE-9: the tenant and labels fit their fields (they are never spilled), the
        labels sorted and distinct (as :func:`access_filter` reads them); ``where`` starts
        the StoreError (the address and the row's key)."""
        tenant = entity["tenant"]
        if tenant is not None and len(_utf8(where, "tenant", tenant)) > MAX_VARCHAR:
            raise StoreError(f"{where}: its tenant is over Milvus's {MAX_VARCHAR} bytes")
        labels = entity["labels"]
        if labels != sorted(set(labels)):
            raise StoreError(
                f"{where}: its labels must be sorted and distinct (as fields_of gives them)"
            )
        if not _fits_list(where, "labels", labels):
            raise StoreError(
                f"{where}: Milvus holds at most {MAX_CAPACITY} labels of "
                f"at most {MAX_VARCHAR} bytes each"
            )

    @staticmethod
    def _row(entity: Mapping[str, Any]) -> StoreRow:
        """STORE-3: the store row of a Milvus entity, spilled values joined back."""
        fields = {name: entity[name] for name in FIELDS}
        for name in ("heading_path", "labels"):
            fields[name] = list(fields[name])
        spilled = list(entity.get(SPILLED) or [])
        at = 0
        while at < len(spilled):
            name, count = spilled[at], int(spilled[at + 1])
            text = "".join(spilled[at + 2 : at + 2 + count])
            fields[name] = json.loads(text) if FIELDS[name] is list else text
            at += 2 + count
        vector = entity.get("vector")
        return StoreRow(
            entity["key"],
            tuple(float(x) for x in vector) if vector is not None else (),
            entity["digest"] or "",
            fields,
        )

    def held(self) -> dict[str, str]:
        """STORE-1: every key with its digest, read in pages (a query returns at most
        16,384 rows)."""
        if not self._exists:
            return {}
        held: dict[str, str] = {}
        with self._calling("held"):
            pages = self._client.query_iterator(
                self._name, batch_size=MAX_QUERY, output_fields=["key", "digest"]
            )
            try:
                while page := pages.next():
                    held.update((entity["key"], entity["digest"] or "") for entity in page)
            finally:
                pages.close()
        return held

    def upsert(self, rows: Sequence[StoreRow]) -> None:
        """STORE-1: write ``rows`` (a held key's row replaced whole), in calls of about
        16 MiB; creates the collection on the first write."""
        if not rows:
            return
        entities = [self._entity(row) for row in rows]
        with self._calling("upsert"):
            if not self._exists:
                self._create(len(rows[0].vector))
            batch: list[dict[str, Any]] = []
            size = 0
            for entity, row in zip(entities, rows, strict=True):
                batch.append(entity)
                size += 4 * len(row.vector) + sum(
                    len(value) for value in entity.values() if isinstance(value, str)
                )
                size += sum(len(piece) for piece in entity[SPILLED])
                if size >= _UPSERT_BYTES:
                    self._client.upsert(self._name, batch)
                    batch, size = [], 0
            if batch:
                self._client.upsert(self._name, batch)

    def _in(self, keys: Sequence[str]) -> str:
        """``key in [...]`` of escaped literals (pymilvus's ``ids=`` pastes them unescaped)."""
        return f"key in [{', '.join(quoted(key) for key in keys)}]"

    def delete(self, keys: Sequence[str]) -> None:
        """STORE-1: delete the rows of ``keys`` (an unknown key is no error)."""
        if not self._exists or not keys:
            return
        with self._calling("delete"):
            for first in range(0, len(keys), _KEYS_PER_QUERY):
                self._client.delete(
                    self._name, filter=self._in(keys[first : first + _KEYS_PER_QUERY])
                )

    def fetch(self, keys: Sequence[str]) -> dict[str, StoreRow]:
        """STORE-1: the rows of ``keys`` the collection holds, vectors included."""
        if not self._exists or not keys:
            return {}
        found: dict[str, StoreRow] = {}
        with self._calling("fetch"):
            for first in range(0, len(keys), _KEYS_PER_QUERY):
                got = self._client.query(
                    self._name,
                    filter=self._in(keys[first : first + _KEYS_PER_QUERY]),
                    output_fields=_OUTPUT,
                )
                found.update((entity["key"], self._row(entity)) for entity in got)
        return found

    def search(self, vector: Sequence[float], k: int, principal: Principal | None) -> list[Hit]:
        """STORE-10: the ``k`` nearest rows (at most 16,384, Milvus's limit) ``principal``
        may read, by cosine similarity, the access rule in the search's filter (STORE-9),
        each answer checked again (a row the filter let through is a StoreError)."""
        check_search(k, principal)
        if not self._exists:
            return []
        with self._calling("search"):
            got = self._client.search(
                self._name,
                data=[[float(x) for x in vector]],
                filter=access_filter(principal),
                limit=min(k, MAX_QUERY),
                output_fields=_OUTPUT,
                search_params={"metric_type": "COSINE"},
            )
        hits = [Hit(self._row(hit["entity"]), float(hit["distance"])) for hit in got[0]]
        for hit in hits:
            if not row_readable(hit.row, principal):
                raise StoreError(f"{self.address}: the filter let through {hit.row.key}, withheld")
        return hits

    def close(self) -> None:
        """Close the client and, when no other store of this process has the file open,
        stop Milvus Lite's server for it: the file's lock is released, another process
        may open it (closing twice is no error)."""
        if self._closed:
            return
        try:
            with self._calling("close"):
                self._client.close()
        finally:
            self._release()

    def _release(self) -> None:
        """This store's hold on the file let go; the last one stops the file's server."""
        self._closed = True
        _OPEN[self._path] -= 1
        if not _OPEN[self._path]:
            del _OPEN[self._path]
            from milvus_lite.server_manager import server_manager_instance

            server_manager_instance.release_server(self._path)


def open_store(path: str, collection: str) -> MilvusStore:
    """STORE-1's opener: the collection ``collection`` in Milvus Lite file ``path``."""
    return MilvusStore(path, collection)
