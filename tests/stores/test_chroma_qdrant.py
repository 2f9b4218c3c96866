"""What the Chroma and Qdrant writers do beyond the contract: exact vectors where the store
normalises them, access filters that fail closed against rows another tool wrote, ids that
Qdrant can take, and bad arguments named (STORE-1, STORE-3, STORE-9).

Real stores in a temporary folder; rows written "by another tool" use the store's own client.
"""

from __future__ import annotations

import json
import random
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from chunkspec._errors import StoreError
from chunkspec._packing._access import Principal
from chunkspec.stores import DEFAULT_COLLECTION, Store, StoreRow, open_store
from tests.stores.conftest import address, have
from tests.stores.store_rows import row, vector_of


def _open(scheme: str, folder: Path) -> Store:
    """The scheme's store in ``folder`` (skipped when its client is not installed)."""
    if not have(scheme):
        pytest.skip(f"{scheme}'s client is not installed")
    return open_store(address(scheme, folder))


@pytest.fixture(params=["lancedb", "chroma", "qdrant"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An empty collection of each store these tests cover."""
    opened = _open(request.param, tmp_path)
    yield opened
    opened.close()


def _float32(values: list[float]) -> tuple[float, ...]:
    """The values rounded to float32, as Python floats."""
    return struct.unpack(f"<{len(values)}f", struct.pack(f"<{len(values)}f", *values))


def _random_rows(count: int, dimension: int) -> list[StoreRow]:
    """Rows with random float32 vectors of ``dimension`` (values with every mantissa bit)."""
    rng = random.Random(7)
    rows = []
    for n in range(count):
        base = row(n)
        vector = _float32(
            [rng.gauss(0.0, 1.0) * 10.0 ** rng.randint(-3, 3) for _ in range(dimension)]
        )
        rows.append(StoreRow(base.key, vector, base.digest, base.fields))
    return rows


def test_random_vectors_read_back_exactly(store: Store) -> None:
    """STORE-3: 384-dimensional float32 vectors read back bit for bit, by fetch and in a
    search's hit, though Chroma and Qdrant normalise the vector their index keeps."""
    rows = _random_rows(20, 384)
    store.upsert(rows)
    got = store.fetch([r.key for r in rows])
    for r in rows:
        assert got[r.key].vector == r.vector
    hits = store.search(rows[3].vector, 1, None)
    assert hits[0].row.key == rows[3].key
    assert hits[0].row.vector == rows[3].vector
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)


def test_labels_must_all_be_held(store: Store) -> None:
    """STORE-9 on list-valued labels: a row labelled [a, c] is withheld from a principal
    holding only a; [a] and [] are not (Qdrant's MatchExcept, Chroma's label sets)."""
    rows = [row(1, labels=["a", "c"]), row(2, labels=["a"]), row(3), row(4, labels=["c"])]
    store.upsert(rows)
    ac, a, none, c = (r.key for r in rows)

    def found(principal: Principal | None) -> set[str]:
        return {hit.row.key for hit in store.search(vector_of("q"), 10, principal)}

    assert found(Principal(["a"])) == {a, none}
    assert found(Principal(["a", "c"])) == {ac, a, none, c}
    assert found(Principal(["c", "z"])) == {none, c}
    assert found(Principal()) == {none}
    assert found(None) == {none}


@pytest.mark.parametrize("scheme", ["chroma", "qdrant"])
def test_bad_search_arguments_are_named(scheme: str, tmp_path: Path) -> None:
    """STORE-1: a bad ``k`` or ``principal`` is a TypeError/ValueError naming it."""
    store = _open(scheme, tmp_path)
    store.upsert([row(1)])
    with pytest.raises(ValueError, match="k"):
        store.search(vector_of("q"), 0, None)
    with pytest.raises(TypeError, match="k"):
        store.search(vector_of("q"), True, None)
    with pytest.raises(TypeError, match="principal"):
        store.search(vector_of("q"), 3, "alice")  # type: ignore[arg-type]
    store.close()


# Chroma --------------------------------------------------------------------------------


@contextmanager
def _chroma_collection(folder: Path) -> Iterator[Any]:
    """Chroma's own client on the store folder's collection, closed afterwards."""
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(
        path=str(folder / "store"), settings=Settings(anonymized_telemetry=False)
    )
    try:
        yield client.get_collection(DEFAULT_COLLECTION)
    finally:
        client.close()


def _chroma_metadata(r: StoreRow) -> dict[str, Any]:
    """A row's metadata as Chroma's own client writes it here: the fields' keys."""
    from chunkspec.stores.chroma import label_set, packed

    data: dict[str, Any] = {
        name: value
        for name, value in r.fields.items()
        if name != "text" and value is not None and value != []
    }
    data.update(
        digest=r.digest,
        vector_f32=packed(r.vector),
        has_tenant=r.fields["tenant"] is not None,
        label_set=label_set(r.fields["labels"]),
    )
    return data


def test_chroma_unrecorded_label_set_is_returned_to_nobody(tmp_path: Path) -> None:
    """STORE-9, fail closed: a row whose label set the collection never recorded (written
    by Chroma's own client, or by a writer whose record was lost) is returned to no
    principal, not even one holding every label it names."""
    store = _open("chroma", tmp_path)
    try:
        store.upsert([row(1), row(2, labels=["a"])])
        secret = row(3, labels=["secret"])
        with _chroma_collection(tmp_path) as collection:
            collection.upsert(
                ids=[secret.key],
                embeddings=[list(secret.vector)],
                documents=[secret.fields["text"]],
                metadatas=[_chroma_metadata(secret)],
            )
        found = {h.row.key for h in store.search(vector_of("q"), 10, Principal(["a", "secret"]))}
        assert found == {row(1).key, row(2).key}
        assert secret.key in store.held()  # held all the same: apply sees it
        # The record lost (another writer replaced the collection's metadata): every
        # labelled row is withheld, unlabelled rows are still found.
        with _chroma_collection(tmp_path) as collection:
            collection.modify(metadata={"other": "value"})
        found = {h.row.key for h in store.search(vector_of("q"), 10, Principal(["a", "secret"]))}
        assert found == {row(1).key}
        # Writing again records the sets it writes, keeping the other metadata.
        store.upsert([row(2, labels=["a"])])
        found = {h.row.key for h in store.search(vector_of("q"), 10, Principal(["a", "secret"]))}
        assert found == {row(1).key, row(2).key}
        with _chroma_collection(tmp_path) as collection:
            assert collection.metadata["other"] == "value"
    finally:
        store.close()


def test_chroma_forged_filter_keys_fail_the_search(tmp_path: Path) -> None:
    """STORE-9: a row whose ``label_set`` says [] while its labels name one is not handed
    out on the filter key's word: the search fails, naming the store and the row."""
    store = _open("chroma", tmp_path)
    try:
        store.upsert([row(1)])
        forged = row(2, labels=["secret"])
        metadata = _chroma_metadata(forged) | {"label_set": "[]"}
        with _chroma_collection(tmp_path) as collection:
            collection.upsert(
                ids=[forged.key], embeddings=[list(forged.vector)], metadatas=[metadata]
            )
        with pytest.raises(StoreError, match=forged.key) as caught:
            store.search(vector_of("q"), 10, Principal())
        assert str(caught.value).startswith(store.address)
    finally:
        store.close()


def test_chroma_many_label_sets_search_in_slices(tmp_path: Path, monkeypatch: Any) -> None:
    """STORE-9: a principal allowed more label sets than one ``$in`` may name is served by
    one query a slice, merged best first (here slices of 2 sets)."""
    from chunkspec.stores import chroma

    store = _open("chroma", tmp_path)
    try:
        rows = [row(n, labels=[f"l{n % 7}"] if n % 7 else []) for n in range(40)]
        store.upsert(rows)
        principal = Principal([f"l{m}" for m in range(1, 6)])
        whole = [(h.row.key, h.score) for h in store.search(vector_of("q"), 12, principal)]
        monkeypatch.setattr(chroma, "_SETS", 2)
        sliced = [(h.row.key, h.score) for h in store.search(vector_of("q"), 12, principal)]
        assert sliced == whole
        assert len(whole) == 12
    finally:
        store.close()


def test_chroma_replaced_embedding_reads_as_the_embedding(tmp_path: Path) -> None:
    """STORE-3: when another client replaces a row's embedding (not its ``vector_f32``),
    fetch returns the embedding Chroma holds, and a comparison with what was written sees
    the change."""
    store = _open("chroma", tmp_path)
    try:
        written = row(1)
        store.upsert([written])
        other = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
        with _chroma_collection(tmp_path) as collection:
            collection.update(ids=[written.key], embeddings=[other])
        got = store.fetch([written.key])[written.key].vector
        assert got == pytest.approx(other, rel=1e-6)
    finally:
        store.close()


@pytest.mark.parametrize("name", ["ab", "ab_", "x"])
def test_chroma_collection_name_is_checked(tmp_path: Path, name: str) -> None:
    """STORE-1: a collection name Chroma refuses is a ValueError naming ``collection``."""
    if not have("chroma"):
        pytest.skip("chromadb is not installed")
    with pytest.raises(ValueError, match="collection"):
        open_store(address("chroma", tmp_path), collection=name)


# Qdrant --------------------------------------------------------------------------------


def test_qdrant_point_ids_and_foreign_points(tmp_path: Path) -> None:
    """STORE-1: a point's id is the UUID of its key's first half; a point whose payload
    names another key is not that key's row; a point with no key is held (digest "") under
    its id and deleted by it."""
    from qdrant_client import QdrantClient, models

    from chunkspec.stores.qdrant import point_id

    first = row(1)
    assert point_id(first.key) == (
        f"{first.key[:8]}-{first.key[8:12]}-{first.key[12:16]}-{first.key[16:20]}-"
        f"{first.key[20:32]}"
    )
    store = _open("qdrant", tmp_path)
    store.upsert([first])
    store.close()
    client = QdrantClient(path=str(tmp_path / "store"))
    impostor = "0" * 32 + first.key[32:]
    client.set_payload(DEFAULT_COLLECTION, payload={"key": impostor}, points=[point_id(first.key)])
    client.upsert(
        DEFAULT_COLLECTION,
        points=[models.PointStruct(id=7, vector=list(vector_of("x")), payload={"doc_id": "d"})],
    )
    client.close()
    store = _open("qdrant", tmp_path)
    try:
        assert store.fetch([first.key]) == {}
        assert store.held() == {impostor: first.digest, "7": ""}
        # The point without labels_readable is returned to nobody; the impostor is row 1.
        found = store.search(vector_of("x"), 5, Principal(["a"], tenant="t"))
        assert [hit.row.key for hit in found] == [impostor]
        store.delete(["7"])
        assert set(store.held()) == {impostor}
    finally:
        store.close()


def test_qdrant_bad_keys_are_named(tmp_path: Path) -> None:
    """STORE-1: a key that is not 64 lowercase hex digits is a ValueError naming it."""
    store = _open("qdrant", tmp_path)
    try:
        bad = row(1)
        with pytest.raises(ValueError, match=r"rows\[1\]\.key"):
            store.upsert([row(2), StoreRow(bad.key.upper(), bad.vector, bad.digest, bad.fields)])
        assert store.held() == {}
        store.upsert([row(2)])
        with pytest.raises(ValueError, match="keys"):
            store.delete(["not a key"])
    finally:
        store.close()


def test_qdrant_lock_is_released_by_close(tmp_path: Path) -> None:
    """STORE-1: local mode locks the folder: a second open while the first is open is a
    StoreError naming the address; after close the folder opens again."""
    first = _open("qdrant", tmp_path)
    first.upsert([row(1)])
    with pytest.raises(StoreError, match="qdrant://"):
        open_store(address("qdrant", tmp_path))
    first.close()
    again = open_store(address("qdrant", tmp_path))
    try:
        assert again.held() == {row(1).key: row(1).digest}
    finally:
        again.close()


def test_qdrant_payload_is_the_fields_as_json(tmp_path: Path) -> None:
    """STORE-3: the payload holds each field under its own name, None as null and lists as
    arrays, beside key, digest and the vector as written."""
    from qdrant_client import QdrantClient

    from chunkspec.stores.qdrant import point_id

    written = row(4, tenant=None, labels=["b", "a"])
    store = _open("qdrant", tmp_path)
    store.upsert([written])
    store.close()
    client = QdrantClient(path=str(tmp_path / "store"))
    try:
        (point,) = client.retrieve(DEFAULT_COLLECTION, ids=[point_id(written.key)])
    finally:
        client.close()
    payload = dict(point.payload or {})
    assert payload.pop("key") == written.key
    assert payload.pop("digest") == written.digest
    assert tuple(payload.pop("vector")) == written.vector
    assert payload == dict(written.fields)
    assert json.loads(json.dumps(payload)) == payload


def test_qdrant_point_the_filter_cannot_judge_fails_the_search(tmp_path: Path) -> None:
    """STORE-9, defence in depth: Qdrant's MatchExcept ignores a null inside an array, so a
    point another tool wrote with labels [null] passes the filter; its fields say it is
    unreadable (CTX-13: malformed labels), so the search fails instead of returning it."""
    from qdrant_client import QdrantClient

    from chunkspec.stores.qdrant import point_id

    written = row(1, labels=["a"])
    store = _open("qdrant", tmp_path)
    store.upsert([written, row(2)])
    store.close()
    client = QdrantClient(path=str(tmp_path / "store"))
    client.set_payload(
        DEFAULT_COLLECTION, payload={"labels": [None]}, points=[point_id(written.key)]
    )
    client.close()
    store = _open("qdrant", tmp_path)
    try:
        assert [h.row.key for h in store.search(vector_of("q"), 5, None)] == [row(2).key]
        with pytest.raises(StoreError, match=written.key):
            store.search(vector_of("q"), 5, Principal(["a"]))
    finally:
        store.close()
