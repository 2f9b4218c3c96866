"""STORE-3: each store holds the fields in its own idiom, so its own client filters them
(no chunkspec in the query), and STORE-1's held() pages through a collection of any size.

Each test writes rows through chunkspec, closes the store, then reads the folder with the
store's own client, as a user of that store would.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from chunkspec.stores import DEFAULT_COLLECTION, StoreRow, open_store
from tests.stores.conftest import address, have
from tests.stores.store_rows import row

NATIVE = ["lancedb", "chroma", "qdrant", "milvus"]


def _lancedb(path: Path, doc_id: str, first_page: int, label: str | None) -> set[str]:
    """LanceDB's SQL ``where`` on the table's columns."""
    import lancedb

    table = lancedb.connect(str(path)).open_table(DEFAULT_COLLECTION)
    where = f"doc_id = '{doc_id}' AND page_start >= {first_page}"
    if label is not None:
        where += f" AND array_has(labels, '{label}')"
    got = table.search().where(where).select(["key"]).limit(None).to_list()
    return {r["key"] for r in got}


def _chroma(path: Path, doc_id: str, first_page: int, label: str | None) -> set[str]:
    """Chroma's ``where`` on the metadata keys (``$contains`` on a list key)."""
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(
        path=str(path), settings=Settings(anonymized_telemetry=False)
    )
    try:
        clauses: list[dict[str, Any]] = [{"doc_id": doc_id}, {"page_start": {"$gte": first_page}}]
        if label is not None:
            clauses.append({"labels": {"$contains": label}})
        got = client.get_collection(DEFAULT_COLLECTION).get(where={"$and": clauses})
        return set(got["ids"])
    finally:
        client.close()


def _qdrant(path: Path, doc_id: str, first_page: int, label: str | None) -> set[str]:
    """Qdrant's payload filter: FieldCondition with MatchValue and Range (MatchAny on a
    list), the key read from the payload."""
    from qdrant_client import QdrantClient, models

    client = QdrantClient(path=str(path))
    try:
        must: list[Any] = [
            models.FieldCondition(key="doc_id", match=models.MatchValue(value=doc_id)),
            models.FieldCondition(key="page_start", range=models.Range(gte=first_page)),
        ]
        if label is not None:
            must.append(models.FieldCondition(key="labels", match=models.MatchAny(any=[label])))
        points, _ = client.scroll(
            DEFAULT_COLLECTION, scroll_filter=models.Filter(must=must), limit=1_000
        )
        return {str(p.payload["key"]) for p in points if p.payload}
    finally:
        client.close()


def _milvus(path: Path, doc_id: str, first_page: int, label: str | None) -> set[str]:
    """Milvus's filter expression on the collection's typed fields (ARRAY_CONTAINS on the
    ARRAY of labels)."""
    from pymilvus import MilvusClient

    client = MilvusClient(str(path))
    try:
        client.load_collection(DEFAULT_COLLECTION)
        where = f'doc_id == "{doc_id}" and page_start >= {first_page}'
        if label is not None:
            where += f' and ARRAY_CONTAINS(labels, "{label}")'
        got = client.query(DEFAULT_COLLECTION, filter=where, output_fields=["key"])
        return {str(r["key"]) for r in got}
    finally:
        client.close()


QUERIES: dict[str, Callable[[Path, str, int, str | None], set[str]]] = {
    "lancedb": _lancedb,
    "chroma": _chroma,
    "qdrant": _qdrant,
    "milvus": _milvus,
}


@pytest.fixture(params=NATIVE)
def native(request: pytest.FixtureRequest) -> str:
    """Each store whose own client the tests query; skipped where it is not installed."""
    name: str = request.param
    if not have(name):
        pytest.skip(f"{name}'s client is not installed")
    return name


def _rows() -> list[StoreRow]:
    """Rows over three documents, pages ``n .. n+1`` (none for every fourth), every third
    labelled ``a``."""
    return [
        row(n, pages=None if n % 4 == 0 else (n, n + 1), labels=["a"] if n % 3 == 0 else [])
        for n in range(30)
    ]


def _write(scheme: str, folder: Path, rows: list[StoreRow]) -> Path:
    """Write ``rows`` through chunkspec, close the store, return the store's folder."""
    store = open_store(address(scheme, folder))
    try:
        store.upsert(rows)
    finally:
        store.close()
    return folder / ("store.db" if scheme == "milvus" else "store")


@pytest.mark.parametrize(("doc_id", "first_page"), [("doc1", 0), ("doc1", 10), ("doc2", 25)])
def test_own_client_filters_by_document_and_page(
    native: str, tmp_path: Path, doc_id: str, first_page: int
) -> None:
    """STORE-3: the store's own client selects rows by ``doc_id`` and a page range; a row
    without pages (None) is never in a page range."""
    rows = _rows()
    path = _write(native, tmp_path, rows)
    want = {
        r.key
        for r in rows
        if r.fields["doc_id"] == doc_id
        and r.fields["page_start"] is not None
        and r.fields["page_start"] >= first_page
    }
    assert want  # the case selects something
    assert QUERIES[native](path, doc_id, first_page, None) == want


def test_own_client_filters_by_label(native: str, tmp_path: Path) -> None:
    """STORE-3: ``labels`` is a list in the store's idiom: its own "contains" finds a label."""
    rows = _rows()
    path = _write(native, tmp_path, rows)
    want = {
        r.key
        for r in rows
        if r.fields["doc_id"] == "doc0"
        and r.fields["page_start"] is not None
        and "a" in r.fields["labels"]
    }
    assert want
    assert QUERIES[native](path, "doc0", 0, "a") == want


@pytest.fixture
def memory_folder(tmp_path: Path) -> Iterator[Path]:
    """A temporary folder in memory (``/dev/shm``) where there is one, else ``tmp_path``:
    Qdrant's local mode commits each point to SQLite on its own, which on a disk is a few
    milliseconds a point (5,000 rows: 20 to 45 seconds), in memory well under one."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="chunkspec-stores-", dir=shm))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_held_pages_through_5000_rows(native: str, memory_folder: Path) -> None:
    """STORE-1: held() returns every one of 5,000 rows (more than one page of Chroma's get
    and Qdrant's scroll), each with its digest; fetch reads rows from anywhere in it."""
    rows = [row(n, text=f"chunk {n}") for n in range(5_000)]
    store = open_store(address(native, memory_folder))
    try:
        store.upsert(rows)
        held = store.held()
        assert len(held) == 5_000
        assert held == {r.key: r.digest for r in rows}
        sample = [rows[0], rows[2_500], rows[4_999]]
        got = store.fetch([r.key for r in sample])
        assert {key: r.fields for key, r in got.items()} == {r.key: r.fields for r in sample}
    finally:
        store.close()
