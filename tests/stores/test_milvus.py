"""Milvus Lite's own limits (STORE-3, STORE-9): long values spilled and read back whole,
filtered fields over the limits refused by key, ``held()`` past one query's 16,384 rows,
and string literals in filters that match exactly their own text (real Milvus Lite files
in temporary folders, no mocks)."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("pymilvus")

from chunkspec._errors import StoreError
from chunkspec._packing._access import Principal
from chunkspec.stores import StoreRow, open_store
from chunkspec.stores.milvus import MAX_CAPACITY, MAX_QUERY, MAX_VARCHAR, MilvusStore, quoted
from tests.stores.store_rows import row, vector_of


@pytest.fixture
def milvus(tmp_path: Path) -> Iterator[MilvusStore]:
    """An empty Milvus Lite collection in a temporary file."""
    store = open_store(f"milvus://{tmp_path / 'm.db'}")
    assert isinstance(store, MilvusStore)
    yield store
    store.close()


def _with(base: StoreRow, **fields: object) -> StoreRow:
    """``base`` with some fields replaced."""
    return dataclasses.replace(base, fields={**base.fields, **fields})


def test_every_long_field_reads_back_whole(milvus: MilvusStore) -> None:
    """STORE-3: strings over 65,535 bytes and lists over an ARRAY's limits are spilled and
    read back exactly, by fetch and by search; the field itself holds "" or []."""
    astral = "𝔘" * (MAX_VARCHAR // 4 + 7)  # 4 bytes a letter: the cut falls inside one
    rows = [
        _with(
            row(1), metadata=json.dumps({"note": "é" * 70_000}, ensure_ascii=False), section=astral
        ),
        _with(row(2), heading_path=["h" * (MAX_VARCHAR + 1), "short"], prefix="p" * 200_000),
        _with(row(3), heading_path=[f"level {n}" for n in range(MAX_CAPACITY + 1)]),
        _with(row(4), title="t" * MAX_VARCHAR),  # exactly the limit: kept in its field
    ]
    milvus.upsert(rows)
    got = milvus.fetch([r.key for r in rows])
    for r in rows:
        assert got[r.key] == r
    found = {hit.row.key: hit.row for hit in milvus.search(vector_of("q"), 10, None)}
    assert {key: found[key] for key in got} == got
    raw = milvus._client.query(
        milvus._name, filter=f"key == {quoted(rows[0].key)}", output_fields=["section", "spilled"]
    )[0]
    assert raw["section"] == ""
    spilled = raw["spilled"]  # the 65,563 bytes of section: two pieces, then metadata's
    assert spilled[:2] == ["section", "2"]
    assert spilled[4:6] == ["metadata", "3"]  # 140,000 bytes and more: three pieces


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"labels": [f"l{n:05d}" for n in range(MAX_CAPACITY + 1)]}, "4096 labels"),
        ({"labels": ["x" * (MAX_VARCHAR + 1)]}, "65535 bytes"),
        ({"tenant": "t" * (MAX_VARCHAR + 1)}, "65535 bytes"),
        ({"labels": ["b", "a"]}, "sorted and distinct"),
        ({"labels": ["a", "a"]}, "sorted and distinct"),
        ({"text": "lone \ud800 surrogate"}, "text holds a lone surrogate"),
    ],
)
def test_rows_milvus_cannot_hold_are_refused(
    milvus: MilvusStore, fields: dict[str, object], says: str
) -> None:
    """STORE-9: the tenant and labels are never spilled (the filter reads them): a row whose
    tenant or labels Milvus cannot hold, or with a text that is not UTF-8, is a StoreError
    starting with the address and naming the row's key and the limit, and nothing of its
    batch is written."""
    bad = _with(row(1), **fields)
    with pytest.raises(StoreError, match=rf"^milvus://.*#chunkspec: row {bad.key}: .*{says}"):
        milvus.upsert([row(2), bad])
    assert milvus.held() == {}


def test_held_reads_past_one_querys_limit(milvus: MilvusStore) -> None:
    """STORE-1: held() pages through the collection (a query returns at most 16,384 rows)."""
    base = row(1)
    count = MAX_QUERY + 700
    milvus.upsert([dataclasses.replace(base, key=f"{n:064x}") for n in range(count)])
    held = milvus.held()
    assert len(held) == count
    assert set(held.values()) == {base.digest}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MilvusStore]:
    """One Milvus Lite collection for the property test's examples."""
    store = open_store(f"milvus://{tmp_path_factory.mktemp('literals') / 'm.db'}")
    assert isinstance(store, MilvusStore)
    yield store
    store.close()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=st.text(min_size=1, max_size=12))
def test_a_literal_matches_exactly_its_text(shared: MilvusStore, text: str) -> None:
    """STORE-9: a tenant and a label of any text (quotes, backslashes, NUL, CR, LF...) are
    matched by the filter exactly: the row is found by its own tenant and label, and not
    by a principal whose text differs by one character."""
    shared.delete(list(shared.held()))
    shared.upsert([row(1, tenant=text, labels=[text])])
    hits = shared.search(vector_of("q"), 5, Principal([text], tenant=text))
    assert [hit.row.fields["tenant"] for hit in hits] == [text]
    assert shared.search(vector_of("q"), 5, Principal([text + "\\"], tenant=text)) == []
    assert shared.search(vector_of("q"), 5, Principal([text], tenant=text + '"')) == []


def test_close_frees_the_file_for_another_process(tmp_path: Path) -> None:
    """STORE-1: Milvus Lite locks its file for the process serving it; close() stops that
    server once no other store of the process has the file open, so another process (a
    re-run after an apply) can open it."""
    where = f"milvus://{tmp_path / 'm.db'}"
    first, second = open_store(where), open_store(where, collection="other")
    first.upsert([row(1)])
    first.close()
    second.upsert([row(2)])  # the file's other store still works
    assert second.held() == {row(2).key: row(2).digest}
    second.close()
    second.close()  # closing twice is no error
    code = (
        "from chunkspec.stores import open_store\n"
        f"store = open_store({where!r})\n"
        "print(len(store.held()))\n"
        "store.close()\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONPATH": f"{root / 'src'}{os.pathsep}{root}"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    assert done.stdout.split()[-1] == b"1"


def test_many_labels_are_checked_at_every_position(milvus: MilvusStore) -> None:
    """STORE-9: rows and principals with more labels than the filter nests (its first 32
    positions; the rest are flat terms): a row is returned exactly when the principal
    holds every one of its labels, whatever the position of the one it lacks."""
    names = [f"l{n:02d}" for n in range(45)]
    rows = {
        "all 40": row(1, labels=names[:40]),
        "40 and a stranger": row(2, labels=sorted([*names[:39], "zz"])),
        "the last 3": row(3, labels=names[42:]),
        "none": row(4),
    }
    milvus.upsert(list(rows.values()))

    def found(principal: Principal) -> set[str]:
        keys = {hit.row.key for hit in milvus.search(vector_of("q"), 10, principal)}
        return {name for name, r in rows.items() if r.key in keys}

    assert found(Principal(names)) == {"all 40", "the last 3", "none"}
    assert found(Principal([*names[:35], *names[36:]])) == {"the last 3", "none"}
    assert found(Principal(names[:40])) == {"all 40", "none"}
    assert found(Principal([*names[:39], "zz"])) == {"40 and a stranger", "none"}
    assert found(Principal(names[:5])) == {"none"}
