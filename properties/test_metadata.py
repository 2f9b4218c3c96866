"""Properties of document metadata on records (docs/spec/metadata.md, META-1 to META-8).

The models are literal: a JSON value is drawn as Python's ``json`` module would give it,
the document's metadata is ``{**front matter fields, **caller}``, and every path (the
library, ``chunk_table``, the ``chunk`` command with a sidecar) must hand each record of a
document exactly that object.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chunkspec import ChunkRecord, chunk_document, document_from_text
from chunkspec._cli import main
from chunkspec.records import Metadata, metadata_json
from properties.adapter_models import as_json
from properties.strategies import front_matter_documents, markdown_documents

MAX_SAFE = 2**53 - 1

#: META-2's JSON values: what ``json.loads`` gives, within PORT-1's integers, no NaN.
keys = st.text(st.characters(blacklist_categories=("Cs",)), max_size=4)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE, MAX_SAFE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=12,
)
json_objects = st.dictionaries(keys, json_values, max_size=5)

#: Values META-2 refuses, each with the error it is.
bad_values = st.sampled_from(
    [
        (MAX_SAFE + 1, ValueError),
        (-MAX_SAFE - 1, ValueError),
        (math.nan, ValueError),
        (math.inf, ValueError),
        ("a\ud800", ValueError),
        ({1, 2}, TypeError),
        (b"x", TypeError),
        ({1: "x"}, TypeError),
    ]
)

#: Caller metadata the way seed 003 writes it, plus keys a front matter may also have.
caller_metadata = st.fixed_dictionaries(
    {},
    optional={
        "tenant_id": st.sampled_from(["t1", "t2"]),
        "corpus_id": st.sampled_from(["c1"]),
        "acl_labels": st.lists(st.sampled_from(["eng", "hr", "ops"]), max_size=3),
        "title": st.sampled_from(["caller title"]),
        "x": json_values,
    },
)

STRATEGIES = ["heading", "structural", "recursive", "window", "pages"]


@given(json_objects)
def test_metadata_is_its_json_object(data: dict[str, Any]) -> None:
    """META-1, META-2: every JSON object is metadata; it equals its input, holds no list or
    dict anyone could change, has sorted keys, and its JSON text reads back equal."""
    metadata = Metadata(data)
    assert metadata == data  # lists and tuples alike
    assert as_json(metadata) == data
    assert list(metadata) == sorted(data)
    assert json.loads(metadata_json(metadata)) == data
    assert Metadata(json.loads(metadata_json(metadata))) == metadata
    assert hash(Metadata(dict(reversed(list(data.items()))))) == hash(metadata)

    def frozen(value: Any) -> bool:
        if isinstance(value, (list, dict)):
            return False
        if isinstance(value, tuple):
            return all(frozen(v) for v in value)
        if isinstance(value, Metadata):
            return all(frozen(v) for v in value.values())
        return True

    assert frozen(metadata)


@given(json_objects, bad_values, st.integers(0, 2), keys)
def test_metadata_refuses_what_json_cannot_hold(
    data: dict[str, Any], bad: tuple[Any, type[Exception]], depth: int, key: str
) -> None:
    """META-2: a value JSON (or a JavaScript number) cannot hold, anywhere, is a
    TypeError/ValueError naming its place, for the record and for the document."""
    value, error = bad
    place = value
    for _ in range(depth):
        place = [place]
    data = {**data, key: place}
    with pytest.raises(error) as info:
        ChunkRecord.from_dict(_record(data))
    assert str(getattr(info.value, "argument", "")).startswith(f"record.metadata[{key!r}]")
    with pytest.raises(error):
        document_from_text("x", doc_id="d", metadata=data)


@settings(max_examples=200)
@given(
    st.one_of(front_matter_documents(), markdown_documents()),
    caller_metadata,
    st.sampled_from(STRATEGIES),
    st.integers(2, 12),
)
def test_every_record_carries_its_documents_metadata(
    text: str, caller: dict[str, Any], strategy: str, max_tokens: int
) -> None:
    """META-3, META-4: under every strategy every record's metadata is the front matter's
    fields with the caller's over them, unchanged, one shared object per document."""
    assume(text.strip())
    document = document_from_text(text, doc_id="d", metadata=caller)
    fields = dict(document.front_matter.fields) if document.front_matter is not None else {}
    expected = {**fields, **caller}
    records = chunk_document(document, strategy, max_tokens=max_tokens)
    for record in records:
        assert as_json(record.metadata) == expected
        assert record.to_dict()["metadata"] == expected
        assert record.metadata is records[0].metadata


@given(json_objects)
def test_old_records_read_with_empty_metadata(data: dict[str, Any]) -> None:
    """META-5: a record object without ``metadata`` reads as the record with ``{}``; with
    it, as written."""
    old = _record(data)
    del old["metadata"]
    assert ChunkRecord.from_dict(old) == ChunkRecord.from_dict({**old, "metadata": {}})
    assert ChunkRecord.from_dict(old).metadata == {}
    assert as_json(ChunkRecord.from_dict(_record(data)).metadata) == data


@given(st.lists(json_objects, min_size=1, max_size=4))
def test_arrow_holds_the_canonical_json_text(objects: list[dict[str, Any]]) -> None:
    """META-6: the Arrow column holds each record's canonical JSON text (sorted keys, no
    spaces), equal metadata gives equal bytes, and the table reads back to the records."""
    arrow = pytest.importorskip("chunkspec.arrow")
    records = [ChunkRecord.from_dict(_record(data)) for data in objects]
    table = arrow.records_to_table(records)
    cells = table.column("metadata").to_pylist()
    assert cells == [
        json.dumps(d, sort_keys=True, separators=(",", ":"), ensure_ascii=False) for d in objects
    ]
    assert arrow.table_to_records(table) == records


@settings(max_examples=100)
@given(
    st.lists(st.one_of(front_matter_documents(), markdown_documents()), min_size=1, max_size=3),
    st.lists(st.none() | json_objects, min_size=3, max_size=3),
)
def test_chunk_table_metadata_column(texts: list[str], callers: list[Any]) -> None:
    """META-8: chunk_table's rows carry each row's metadata cell over its front matter, as
    chunk_document does for the document with that caller metadata."""
    arrow = pytest.importorskip("chunkspec.arrow")
    import pyarrow as pa

    cells = [None if c is None else json.dumps(c) for c in callers[: len(texts)]]
    table = pa.table(
        {
            "doc_id": [f"d{n}" for n in range(len(texts))],
            "text": texts,
            "metadata": pa.array(cells, pa.string()),
        }
    )
    rows = arrow.chunk_table(
        table, strategy="window", max_tokens=6, input_format="markdown"
    ).to_pylist()
    for n, text in enumerate(texts):
        mine = [r for r in rows if r["doc_id"] == f"d{n}" and r["error"] is None]
        document = document_from_text(text, doc_id=f"d{n}", metadata=callers[n])
        expected = chunk_document(document, "window", max_tokens=6)
        assert [r["metadata"] for r in mine] == [metadata_json(r.metadata) for r in expected]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(front_matter_documents(), markdown_documents()), min_size=1, max_size=3),
    st.lists(st.none() | caller_metadata, min_size=3, max_size=3),
    st.sampled_from(STRATEGIES),
)
def test_chunk_sidecar_reaches_every_line(
    texts: list[str], sidecar: list[Any], strategy: str
) -> None:
    """META-7, META-4: ``chunk --metadata FILE.jsonl``: every output line's metadata is its
    document's line over its front matter; a document without a line keeps its own."""
    texts = [t for t in texts if t.strip()]
    assume(texts)
    with _cwd() as folder:
        lines = []
        expected: dict[str, dict[str, Any]] = {}
        for n, text in enumerate(texts):
            Path(folder, f"d{n}.md").write_text(text, "utf-8", newline="")
            caller = sidecar[n]
            if caller is not None:
                lines.append(json.dumps({"doc_id": f"d{n}", "metadata": caller}) + "\n")
            document = document_from_text(text, doc_id=f"d{n}", metadata=caller)
            expected[f"d{n}"] = as_json(document.record_metadata)
        Path(folder, "m.jsonl").write_text("".join(lines), "utf-8")
        names = [f"d{n}.md" for n in range(len(texts))]
        status, out, err = _run(["chunk", *names, "--metadata", "m.jsonl", "--strategy", strategy])
        assert status == 0, err
        for line in out.splitlines():
            record = json.loads(line)
            assert record["metadata"] == expected[record["doc_id"]]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30).filter(lambda t: "\n" not in t and "\r" not in t))
def test_a_bad_sidecar_line_is_one_error(line: str) -> None:
    """META-7: a sidecar line that is not ``{"doc_id": ID, "metadata": {...}}`` for a
    document of the run is one stderr line naming FILE:1, exit 2, nothing on stdout."""
    assume(line.strip())
    with _cwd() as folder:
        Path(folder, "a.md").write_text("alpha", "utf-8")
        Path(folder, "m.jsonl").write_text(line + "\n", "utf-8", errors="surrogatepass")
        status, out, err = _run(["chunk", "a.md", "--metadata", "m.jsonl"])
    try:
        data = json.loads(line)
        good = (
            isinstance(data, dict)
            and set(data) == {"doc_id", "metadata"}
            and data["doc_id"] == "a"
            and isinstance(data["metadata"], dict)
        )
    except ValueError:
        good = False
    if good:
        return
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("chunkspec chunk: error: m.jsonl")


def _record(metadata: dict[str, Any]) -> dict[str, Any]:
    """A valid record object (RECORD-2) with ``metadata``."""
    record = chunk_document(document_from_text("alpha beta", doc_id="d"), "window")[0]
    return {**record.to_dict(), "metadata": metadata}


@contextlib.contextmanager
def _cwd() -> Any:
    """Run in a fresh temporary folder."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)
        try:
            yield folder
        finally:
            os.chdir(here)


def _run(argv: list[str]) -> tuple[int, str, str]:
    """Run ``main(argv)`` in process; return (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()
