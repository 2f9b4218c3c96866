"""Properties of vector stores (docs/spec/stores.md, STORE-1 to STORE-11).

The apply is checked against ``model_apply`` and ``DictStore`` (properties/store_model.py, the
rules in words); LanceDB, a real store, against ``DictStore``'s search; the command line
in-process. Every property asserts.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkspec._cli import main
from chunkspec._evaluation._embed_cache import EmbeddingCache
from chunkspec._records._record import ChunkRecord
from chunkspec.stores import (
    SCHEMES,
    Embedder,
    StoreError,
    StoreRow,
    apply_records,
    digest_of,
    embedded_text,
    fields_of,
    held_digest,
    open_store,
    parse_address,
    record_of,
)
from chunkspec.stores._apply import _drift
from properties.store_model import DictStore, cosine, may_read, model_apply
from properties.strategies import store_access, store_principals, store_results

lancedb = pytest.importorskip("lancedb")

_SLOW = settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)


def _vector(text: str) -> list[float]:
    """A deterministic, non-zero vector of ``text`` (halves: float32-exact)."""
    value = sum(map(ord, text)) + len(text)
    return [((value * (i + 3)) % 17 - 8) / 2.0 or 0.5 for i in range(6)]


def _embedder(model: str = "m", batch_size: int = 3) -> Embedder:
    """A counting embedder of :func:`_vector`."""
    return Embedder(model, lambda texts: [_vector(t) for t in texts], batch_size=batch_size)


def _clean(row: dict[str, Any]) -> dict[str, Any]:
    """A result row without its ``error`` column (STORE-4)."""
    return {k: v for k, v in row.items() if k != "error"}


@st.composite
def _held_states(draw: st.DrawFn, rows: list[dict[str, Any]]) -> dict[str, str]:
    """What a store holds before an apply: some of the result's ids with their digests or
    stale ones, ids of chunks since removed, and now and then a foreign row (no digest)."""
    held: dict[str, str] = {}
    for r in rows:
        choice = draw(st.sampled_from(["absent", "same", "stale"]))
        if choice == "same":
            held[r["key"]] = digest_of(_clean(r), "m")
        elif choice == "stale":
            held[r["key"]] = "0" * 64
    for n in range(draw(st.integers(0, 3))):
        held[f"{n:x}" * 64 if n else "e" * 64] = "1" * 64
    if draw(st.integers(0, 4)) == 0:
        held["f" * 64] = ""
    return held


def _seed(store: DictStore, held: dict[str, str], rows: list[dict[str, Any]]) -> None:
    """Write ``held`` into the store: a row held with its own digest as an apply wrote it,
    the others with some row's fields (an apply replaces or deletes them)."""
    own = {r["key"]: r for r in rows}
    other = fields_of(_clean(rows[0]))
    for key, digest in held.items():
        r = own.get(key)
        if r is not None and digest == digest_of(_clean(r), "m"):
            vector = tuple(_vector(embedded_text(r)))
            store.rows[key] = StoreRow(key, vector, digest, fields_of(_clean(r)))
        else:
            store.rows[key] = StoreRow(key, (1.0,), digest, other)


@given(rows=store_results(), data=st.data(), adopt=st.booleans())
@_SLOW
def test_apply_is_the_model(rows: list[dict[str, Any]], data: st.DataObject, adopt: bool) -> None:
    """STORE-5, STORE-2: from any state a store holds, an apply ends with exactly the result's
    ids and digests and the model's counts (or refuses foreign rows, writing nothing), and a
    second apply writes nothing."""
    held = data.draw(_held_states(rows))
    store = DictStore()
    _seed(store, held, rows)
    target = {r["key"]: digest_of(_clean(r), "m") for r in rows}
    expected = model_apply(held, target, adopt)
    if expected is None:
        with pytest.raises(StoreError, match="chunkspec did not write"):
            apply_records(rows, store, _embedder(), cache=None, adopt=adopt)
        assert store.held() == held
        return
    report = apply_records(rows, store, _embedder(), cache=None, adopt=adopt)
    final, counts = expected
    assert store.held() == final
    got = {"added": report.added, "updated": report.updated, "removed": report.removed}
    assert {**got, "unchanged": report.unchanged} == counts
    for r in rows:  # every field written is the row's, the vector its embedded text's
        stored = store.rows[r["key"]]
        assert dict(stored.fields) == fields_of(_clean(r))
        assert list(stored.vector) == _vector(embedded_text(r))
    again = _embedder()
    second = apply_records(rows, store, again, cache=None, adopt=adopt)
    assert (second.added, second.updated, second.removed) == (0, 0, 0)
    assert again.calls == 0


@given(rows=store_results(), kill=st.integers(0, 12), batch=st.integers(1, 5))
@_SLOW
def test_an_interrupted_apply_converges(rows: list[dict[str, Any]], kill: int, batch: int) -> None:
    """STORE-5, STORE-7: an apply stopped after any number of writes, run again, ends equal
    to the result, and with the cache no text is embedded twice across the two runs."""
    with tempfile.TemporaryDirectory() as cache:
        store = DictStore(fail_after=kill)
        first = _embedder(batch_size=batch)
        with contextlib.suppress(KeyboardInterrupt):
            apply_records(rows, store, first, cache=cache, batch_size=batch)
        store.fail_after = None
        second = _embedder(batch_size=batch)
        apply_records(rows, store, second, cache=cache, batch_size=batch)
    assert store.held() == {r["key"]: digest_of(_clean(r), "m") for r in rows}
    distinct = {embedded_text(r) for r in rows}
    assert first.embedded + second.embedded == len(distinct)


@given(
    rows=store_results(),
    model=st.sampled_from(["m", "n"]),
    column=st.sampled_from(["index", "text", "metadata", "heading_path"]),
)
def test_digest_sees_model_and_every_column(
    rows: list[dict[str, Any]], model: str, column: str
) -> None:
    """STORE-4: the digest is sha256(model NUL canonical JSON): it changes with the model and
    with any one column, and not with the key order of the row."""
    row = _clean(rows[0])
    digest = digest_of(row, model)
    assert len(digest) == 64
    assert digest_of(dict(reversed(list(row.items()))), model) == digest
    assert digest_of(row, model + "x") != digest
    changed = dict(row)
    changed[column] = {
        "index": 10**6,
        "text": row["text"] + " ",
        "metadata": {"z": 1},
        "heading_path": ["Z"],
    }[column]
    assert digest_of(changed, model) != digest


@given(rows=store_results())
def test_fields_round_trip(rows: list[dict[str, Any]]) -> None:
    """STORE-3: a stored row rebuilds its record exactly; tenant and labels are read from the
    metadata (sorted, once), and malformed labels leave labels_readable false and no access
    fields."""
    for r in rows:
        fields = fields_of(_clean(r))
        assert record_of(StoreRow(r["key"], (1.0,), "d", fields)) == ChunkRecord.from_dict(
            _clean(r)
        )
        labels = r["metadata"].get("acl_labels")
        if isinstance(labels, list):
            assert fields["labels_readable"]
            assert fields["labels"] == sorted(set(labels))
            assert fields["tenant"] == r["metadata"].get("tenant_id")
        elif labels is not None:
            assert not fields["labels_readable"]
            assert (fields["tenant"], fields["labels"]) == (None, [])


@given(rows=store_results(), include=st.booleans())
def test_embedded_text_is_size_8s(rows: list[dict[str, Any]], include: bool) -> None:
    """STORE-6: the trail, a blank line and the text when the strategy says its tokens count
    them (budget_includes_headings=true), else the text."""
    for r in rows:
        if include:
            r = {**r, "strategy": r["strategy"] + ",budget_includes_headings=true"}
        trail = " > ".join(r["heading_path"])
        want = f"{trail}\n\n{r['text']}" if include and trail else r["text"]
        assert embedded_text(r) == want


@given(
    texts=st.lists(st.sampled_from(["a", "b", "c", "ü", "東", " ", "a b"]), max_size=20),
    batch=st.integers(1, 6),
)
def test_each_text_is_embedded_once(texts: list[str], batch: int) -> None:
    """STORE-7: each distinct text costs one embedding, in ceil(distinct / batch) calls; with
    the cache, the next run costs none and reads back the same float32 vectors."""
    distinct = list(dict.fromkeys(texts))
    with tempfile.TemporaryDirectory() as folder:
        cache = EmbeddingCache(folder, "m")
        first = _embedder(batch_size=batch)
        vectors = first.vectors(texts, cache)
        assert first.embedded == len(distinct)
        assert first.calls == math.ceil(len(distinct) / batch)
        second = _embedder(batch_size=batch)
        assert second.vectors(texts, cache) == vectors
        assert second.calls == 0
    assert vectors == [tuple(_vector(t)) for t in texts]


@given(
    held=st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.sampled_from(["", "1", "2"])),
    data=st.data(),
)
def test_drift_is_any_difference(held: dict[str, str], data: st.DataObject) -> None:
    """STORE-8: the held digest ignores order; a recorded digest that differs from the
    store's gives the drift line, an equal one none, and so do an interrupted apply and
    another store."""
    assert held_digest(dict(reversed(list(held.items())))) == held_digest(held)
    recorded = data.draw(st.sampled_from([held, {**held, "z": "9"}]))
    store = DictStore()
    state = {
        "address": store.address,
        "model": "m",
        "state": "applied",
        "rows": len(recorded),
        "digest": held_digest(recorded),
    }
    line = _drift(state, store, "m")(held)
    assert (line is None) == (recorded == held)
    assert _drift({**state, "state": "applying"}, store, "m")(held) is None
    assert _drift({**state, "address": "other"}, store, "m")(held) is None


@contextlib.contextmanager
def _lance_store() -> Iterator[Any]:
    """A LanceDB collection in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"lancedb://{folder}/s")
        try:
            yield store
        finally:
            store.close()


@given(
    accesses=st.lists(store_access(), min_size=1, max_size=12),
    principal=store_principals(),
    k=st.integers(1, 15),
)
@_SLOW
def test_lancedb_search_is_the_model(
    accesses: list[dict[str, Any]], principal: Any, k: int
) -> None:
    """STORE-9, STORE-10: a real LanceDB search returns what the dict model returns: the
    k rows the principal may read nearest the query, best first, scored by cosine."""
    from tests.stores.store_rows import row

    rows = []
    for n, access in enumerate(accesses):
        base = row(n)
        rows.append(StoreRow(base.key, base.vector, base.digest, {**base.fields, **access}))
    model = DictStore()
    model.upsert(rows)
    query = [*_vector("query"), 1.0, -1.0]
    with _lance_store() as store:
        store.upsert(rows)
        hits = store.search(query, k, principal)
    want = model.search(query, k, principal)
    assert all(may_read(hit.row.fields, principal) for hit in hits)
    assert len(hits) == len(want)
    assert [round(h.score, 4) for h in hits] == [round(w.score, 4) for w in want]
    for hit in hits:
        assert hit.score == pytest.approx(cosine(query, hit.row.vector), abs=1e-5)


@given(text=st.text(max_size=30), scheme=st.sampled_from([*SCHEMES, "pinecone", ""]))
def test_addresses_parse_or_name_into(text: str, scheme: str) -> None:
    """STORE-1: ``SCHEME://PATH`` with a known scheme and a path gives the scheme and the
    absolute path; anything else is a ValueError naming ``into``."""
    address = f"{scheme}://{text}"
    if scheme in SCHEMES and text and "\0" not in text:
        got_scheme, path = parse_address(address)
        assert got_scheme == scheme
        assert os.path.isabs(path)
        assert path == os.path.abspath(text)
    else:
        with pytest.raises(ValueError, match=r"^into "):
            parse_address(address)


_STORE_FLAGS = [
    ["--adopt"],
    ["--no-embed-cache"],
    ["--embed-cache", "c"],
    ["--collection", "c2"],
    ["--embed", "x"],
]


@given(flags=st.lists(st.sampled_from(_STORE_FLAGS), min_size=1, max_size=3, unique_by=tuple))
@settings(deadline=None)
def test_store_flags_need_into(flags: list[list[str]]) -> None:
    """STORE-11: any of --into's flags without --into is one line naming a flag given,
    exit status 2, and nothing is written."""
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "c"
        corpus.mkdir()
        (corpus / "a.md").write_text("# A\n\ntext\n", "utf-8")
        out = Path(folder) / "out"
        argv = [
            "ingest",
            str(corpus),
            "--out",
            str(out),
            *[part for flag in flags for part in flag],
        ]
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                status = main(argv)
            except SystemExit as exit_:
                status = exit_.code  # type: ignore[assignment]
        assert status == 2
        line = err.getvalue()
        assert line.count("\n") == 1
        assert any(f"{flag[0]} needs --into" in line for flag in flags)
        assert not out.exists()
