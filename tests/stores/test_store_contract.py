"""STORE-1, STORE-3, STORE-9: every store keeps rows field for field and filters by access
in its own query. Each test runs on every store, started for real (tests/stores/conftest.py).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from chunkspec._packing._access import Principal, readable
from chunkspec.stores import Store, StoreRow, open_store
from tests.stores.conftest import address
from tests.stores.store_rows import HOSTILE, row, vector_of


def _same(got: StoreRow, want: StoreRow) -> None:
    """Field for field, the vector as float32 values exactly."""
    assert got.key == want.key
    assert got.digest == want.digest
    assert got.vector == pytest.approx(want.vector, rel=0, abs=0)
    assert dict(got.fields) == dict(want.fields)


def test_empty_store_holds_nothing(store: Store) -> None:
    """STORE-1: a collection never written holds no id, fetches none, finds none."""
    assert store.held() == {}
    assert store.fetch(["00" * 32]) == {}
    assert store.search(vector_of("x"), 5, None) == []
    store.delete(["00" * 32])  # deleting what is not held is no error
    assert store.held() == {}


def test_rows_read_back_field_for_field(store: Store) -> None:
    """STORE-3: every field, None included, reads back as written."""
    rows = [
        row(n, pages=(n, n + 1) if n % 2 else None, labels=["a"] if n % 3 else [])
        for n in range(12)
    ]
    store.upsert(rows)
    assert store.held() == {r.key: r.digest for r in rows}
    got = store.fetch([r.key for r in rows])
    assert sorted(got) == sorted(r.key for r in rows)
    for r in rows:
        _same(got[r.key], r)


def test_long_and_strange_text_reads_back(store: Store) -> None:
    """STORE-3: a long text (an oversized chunk), CRLF, tabs, astral letters, read back whole."""
    long = "ä𝔘 word\r\n\t" * 20_000  # 200,000 characters, over 300 KB of UTF-8
    rows = [row(1, text=long), row(2, text="x"), row(3, text="")]
    store.upsert(rows)
    got = store.fetch([r.key for r in rows])
    for r in rows:
        _same(got[r.key], r)


def test_upsert_replaces_a_held_id(store: Store) -> None:
    """STORE-1: writing a held id replaces its row (no second row of one id)."""
    first = row(1, text="old text")
    store.upsert([first, row(2)])
    second = row(1, text="new text", tenant="t", labels=["b"])
    assert second.key == first.key
    store.upsert([second])
    held = store.held()
    assert len(held) == 2
    assert held[first.key] == second.digest
    _same(store.fetch([first.key])[first.key], second)


def test_delete_removes_only_the_named_ids(store: Store) -> None:
    """STORE-1: delete removes exactly its ids; unknown ids are no error."""
    rows = [row(n) for n in range(6)]
    store.upsert(rows)
    store.delete([rows[0].key, rows[3].key, "ff" * 32])
    assert set(store.held()) == {r.key for n, r in enumerate(rows) if n not in (0, 3)}


def test_rows_survive_reopening(scheme: str, tmp_path: Path) -> None:
    """STORE-1: the store is on disk: closed and opened again, it holds the same rows."""
    rows = [row(n, tenant="t" if n % 2 else None) for n in range(5)]
    first = open_store(address(scheme, tmp_path))
    first.upsert(rows)
    first.close()
    again = open_store(address(scheme, tmp_path))
    try:
        assert again.held() == {r.key: r.digest for r in rows}
        for r in rows:
            _same(again.fetch([r.key])[r.key], r)
    finally:
        again.close()


def _metadata(r: StoreRow) -> dict[str, object]:
    """The access labels CTX-13 reads, as the row's fields say."""
    data: dict[str, object] = {}
    if r.fields["tenant"] is not None:
        data["tenant_id"] = r.fields["tenant"]
    if r.fields["labels"]:
        data["acl_labels"] = list(r.fields["labels"])
    return data


def _access_rows() -> list[StoreRow]:
    """Rows with every shape of tenant and labels: none, one, several, hostile, unreadable."""
    tenants = [None, "t1", "t2", HOSTILE[0]]
    label_sets: list[list[str]] = [
        [],
        ["a"],
        ["b"],
        ["a", "b"],
        ["a", "b", "c"],
        HOSTILE[:3],
        [HOSTILE[3]],
    ]
    rows = []
    for n, (tenant, labels) in enumerate(itertools.product(tenants, label_sets)):
        rows.append(row(n, tenant=tenant, labels=labels))
    rows.append(row(len(rows), readable=False))  # labels that could not be read
    return rows


PRINCIPALS = [
    None,
    Principal(),
    Principal(["a"]),
    Principal(["a", "b"]),
    Principal(["a", "b", "c"], tenant="t1"),
    Principal(["b"], tenant="t2"),
    Principal(HOSTILE[:3]),
    Principal([HOSTILE[3], "a"], tenant=HOSTILE[0]),
    Principal(["a", "b", "c", *HOSTILE], tenant="t1"),
]


@pytest.mark.parametrize(
    "principal", PRINCIPALS, ids=[f"principal{n}" for n in range(len(PRINCIPALS))]
)
def test_search_returns_exactly_the_readable_rows(
    store: Store, principal: Principal | None
) -> None:
    """STORE-9: with k above the row count, the search returns exactly the rows CTX-13 lets
    the principal read: a denied row is absent from the store's own answer, and a row whose
    labels could not be read is returned to nobody."""
    rows = _access_rows()
    store.upsert(rows)
    hits = store.search(vector_of("query"), len(rows) + 5, principal)
    returned = [hit.row.key for hit in hits]
    assert len(returned) == len(set(returned))
    allowed = {
        r.key
        for r in rows
        if r.fields["labels_readable"] and readable("m", _metadata(r), principal)
    }
    assert set(returned) == allowed
    scores = [hit.score for hit in hits]
    assert scores == sorted(scores, reverse=True)


def test_search_ranks_by_cosine_similarity(store: Store) -> None:
    """STORE-10: the best answer is the row whose vector is the query's; the score is the
    cosine similarity (1 for the same direction)."""
    rows = [row(n) for n in range(10)]
    store.upsert(rows)
    target = rows[7]
    hits = store.search(target.vector, 3, None)
    assert hits[0].row.key == target.key
    assert hits[0].score == pytest.approx(1.0, abs=1e-4)
    _same(hits[0].row if hits[0].row.vector else store.fetch([target.key])[target.key], target)
