"""Properties of chunkspec.arrow.chunk_table (docs/spec/scale.md)."""

from __future__ import annotations

import itertools
from typing import Any
from unittest import mock

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import ArgumentTypeError, ArgumentValueError
from chunkspec.arrow import chunk_table, chunk_table_schema
from properties.models import model_chunk_table
from properties.strategies import chunk_table_options, table_documents

_document_lists = st.lists(table_documents(), max_size=6)

#: Each example parses up to six generated Markdown documents and runs chunk_document on
#: them, about 50 ms with generation; 300 examples keep this file near a minute in the gate.
_EXAMPLES = settings(max_examples=300)
_FEWER = settings(max_examples=150)


def _table(documents: list[dict[str, Any]]) -> pa.Table:
    """The input table of ``documents`` (SCALE-1's columns, bytes payload)."""
    return pa.table(
        {
            "doc_id": pa.array([d["doc_id"] for d in documents], pa.string()),
            "source": pa.array([d["source"] for d in documents], pa.string()),
            "bytes": pa.array([d["bytes"] for d in documents], pa.binary()),
            "input_format": pa.array([d["input_format"] for d in documents], pa.string()),
        }
    )


@_EXAMPLES
@given(_document_lists, chunk_table_options())
def test_rows_equal_the_model(documents: list[dict[str, Any]], options: dict[str, Any]) -> None:
    """SCALE-1, SCALE-2, SCALE-3, SCALE-5: the rows are chunk_document's records, in input
    order, or one error row per document that cannot be chunked, as a plain loop gives them."""
    got = chunk_table(_table(documents), **options)
    assert got.schema == chunk_table_schema()
    assert got.to_pylist() == model_chunk_table(documents, options)


@_FEWER
@given(_document_lists, chunk_table_options())
def test_text_column_reads_as_utf8_bytes(
    documents: list[dict[str, Any]], options: dict[str, Any]
) -> None:
    """SCALE-1: a ``text`` column gives the rows its UTF-8 in a ``bytes`` column gives."""
    readable = [d for d in documents if _utf8(d["bytes"])]
    table = _table(readable)
    as_text = table.drop_columns(["bytes"]).append_column(
        "text", pa.array([d["bytes"].decode() for d in readable], pa.string())
    )
    assert chunk_table(as_text, **options) == chunk_table(table, **options)


def _utf8(data: bytes) -> bool:
    """True if ``data`` is valid UTF-8."""
    try:
        data.decode()
    except UnicodeDecodeError:
        return False
    return True


@settings(max_examples=100)  # up to six chunk_table calls per example
@given(_document_lists, chunk_table_options(), st.data())
def test_any_batching_gives_the_same_rows(
    documents: list[dict[str, Any]], options: dict[str, Any], data: st.DataObject
) -> None:
    """SCALE-6: cutting the input into consecutive batches anywhere never changes the rows."""
    table = _table(documents)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(documents)), max_size=4)))
    bounds = [0, *cuts, len(documents)]
    parts = [
        chunk_table(table.slice(lo, hi - lo), **options) for lo, hi in itertools.pairwise(bounds)
    ]
    assert pa.concat_tables(parts) == chunk_table(table, **options)


@_FEWER
@given(_document_lists, chunk_table_options())
def test_nothing_lost_nothing_doubled(
    documents: list[dict[str, Any]], options: dict[str, Any]
) -> None:
    """SCALE-7, SCALE-3: each input row is rows indexed 0..n-1 without error, or exactly one
    error row on one line starting with the document's name, and nothing else."""
    rows = chunk_table(_table(documents), **options).to_pylist()
    position = 0
    for document in documents:
        source = document["source"] or ""
        first = rows[position]
        assert first["doc_id"] == document["doc_id"]
        assert first["source"] == source
        if first["error"] is not None:
            assert first["error"].startswith(f"{source or document['doc_id']}: ")
            assert "\n" not in first["error"]
            assert first["error"] == " ".join(first["error"].split())
            assert all(first[k] is None for k in first if k not in ("doc_id", "source", "error"))
            position += 1
            continue
        index = 0
        while (
            position < len(rows)
            and rows[position]["error"] is None
            and rows[position]["index"] == index
            and rows[position]["doc_id"] == document["doc_id"]
            and (index > 0 or rows[position] is first)
        ):
            assert rows[position]["id"] == f"{document['doc_id']}:{index}"
            position += 1
            index += 1
        assert index >= 1
    assert position == len(rows)
    count = sum(1 for row in rows if row["index"] == 0 or row["error"] is not None)
    assert count == len(documents)


@_FEWER
@given(_document_lists, chunk_table_options(), st.integers(0, 5))
def test_an_exception_inside_chunking_is_one_error_row(
    documents: list[dict[str, Any]], options: dict[str, Any], victim: int
) -> None:
    """SCALE-4: whatever one document raises while it is chunked becomes its error row; the
    other documents give the rows they give without it."""
    if not documents:
        return
    victim %= len(documents)
    bad = {**documents[victim], "bytes": b"boom " + documents[victim]["bytes"]}
    with_bad = [*documents[:victim], bad, *documents[victim + 1 :]]
    from chunkspec._records import _job

    real = _job.ChunkJob.chunk

    def exploding(self: Any, document: Any) -> list[Any]:
        if document.text.startswith("boom "):
            raise RecursionError("maximum recursion depth exceeded\nwhile chunking")
        return real(self, document)

    with mock.patch.object(_job.ChunkJob, "chunk", exploding):
        rows = chunk_table(_table(with_bad), **options).to_pylist()
    before = model_chunk_table(with_bad[:victim], options)
    after = model_chunk_table(with_bad[victim + 1 :], options)
    assert rows[: len(before)] == before
    assert rows[len(rows) - len(after) :] == after
    middle = rows[len(before) : len(rows) - len(after)]
    alone = model_chunk_table([bad], options)
    if alone[0]["error"] is None:  # read and chunked: the exception is its one row
        name = bad["source"] or bad["doc_id"]
        message = f"{name}: RecursionError: maximum recursion depth exceeded while chunking"
        assert [(r["doc_id"], r["error"]) for r in middle] == [(bad["doc_id"], message)]
    else:  # refused before chunking (unreadable, blank, over the cap): unchanged
        assert middle == alone


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"strategy": "nope", "max_tokens": 8}, "strategy"),
        ({"strategy": "heading", "max_tokens": 0}, "max_tokens"),
        ({"strategy": "structural", "max_tokens": 8, "overlap_tokens": 1}, "overlap_tokens"),
        ({"strategy": "window", "max_tokens": 8, "counter": "nope"}, "counter"),
        ({"strategy": "heading", "max_tokens": 8, "max_bytes": -1}, "max_bytes"),
        ({"strategy": "heading", "max_tokens": 8, "input_format": "rst"}, "input_format"),
        ({"strategy": "window", "max_tokens": 8, "split_tables": True}, "split_tables"),
    ],
)
@given(documents=_document_lists)
@settings(max_examples=20)  # the option decides; the documents only must not matter
def test_bad_options_fail_the_call(
    options: dict[str, Any], argument: str, documents: list[dict[str, Any]]
) -> None:
    """SCALE-4: a bad option raises naming it, whatever the documents, before any row."""
    with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
        chunk_table(_table(documents), **options)
    assert getattr(info.value, "argument", None) == argument


@_FEWER
@given(_document_lists, chunk_table_options(), st.integers(0, 300))
def test_max_bytes_refuses_by_size_alone(
    documents: list[dict[str, Any]], options: dict[str, Any], cap: int
) -> None:
    """SCALE-5: with max_bytes, a document is the size error row exactly when its bytes are
    more than the cap; under the cap its rows are those without a cap."""
    options = {**options, "max_bytes": cap}
    unlimited = {k: v for k, v in options.items() if k != "max_bytes"}
    for document in documents:
        rows = chunk_table(_table([document]), **options).to_pylist()
        size = len(document["bytes"])
        if size > cap:
            name = document["source"] or document["doc_id"]
            assert [r["error"] for r in rows] == [f"{name}: {size} bytes is over max_bytes ({cap})"]
        else:
            assert rows == chunk_table(_table([document]), **unlimited).to_pylist()


_ENCODINGS = st.sampled_from(["latin-1", "utf-16", "cp1252", "utf-8"])


@_FEWER
@given(_document_lists, chunk_table_options(), _ENCODINGS)
def test_encoding_reads_as_the_decoded_text(
    documents: list[dict[str, Any]], options: dict[str, Any], encoding: str
) -> None:
    """SCALE-8: with ``encoding``, a document's bytes in that encoding give the rows its
    text gives in a ``text`` column; text the encoding cannot hold is left out (and
    ``max_bytes``, which counts bytes, is not used)."""
    options = {key: value for key, value in options.items() if key != "max_bytes"}
    kept = []
    for document in documents:
        try:
            text = document["bytes"].decode("utf-8")
            data = text.encode(encoding)
        except UnicodeError:
            continue
        if document["input_format"] == "pdf" or (document["source"] or "").endswith(".pdf"):
            continue
        explicit = document["input_format"] or options.get("input_format")
        if not explicit and b"%PDF-" in document["bytes"][:1024]:
            continue  # SOURCE-1's magic reads the raw bytes: encoded, `%PDF-` is not there
        kept.append({**document, "bytes": data, "text": text.removeprefix("\ufeff")})
    encoded = _table(kept)
    as_text = encoded.drop_columns(["bytes"]).append_column(
        "text", pa.array([d["text"] for d in kept], pa.string())
    )
    got = chunk_table(encoded, **options, encoding=encoding).to_pylist()
    assert got == chunk_table(as_text, **options).to_pylist()


@_FEWER
@given(_document_lists, chunk_table_options())
def test_pandas_keeps_the_integer_types(
    documents: list[dict[str, Any]], options: dict[str, Any]
) -> None:
    """SCALE-9: pandas reads every int column as ``Int64`` and ``oversized`` as ``boolean``,
    error rows or not, with the same values as the rows."""
    pandas = pytest.importorskip("pandas")
    table = chunk_table(_table(documents), **options)
    frame = table.to_pandas()
    for field in table.schema:
        kind = str(frame[field.name].dtype)
        if pa.types.is_integer(field.type):
            assert kind == "Int64", field.name
        elif pa.types.is_boolean(field.type):
            assert kind == "boolean", field.name
    rows = table.to_pylist()
    for name in ("index", "start", "end", "tokens", "page_start", "page_end", "oversized"):
        values = [None if pandas.isna(v) else v for v in frame[name].tolist()]
        assert values == [row[name] for row in rows], name
