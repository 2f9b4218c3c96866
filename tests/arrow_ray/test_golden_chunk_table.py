"""Golden cases for chunkspec.arrow.chunk_table (tests/golden/chunk_table.json, SCALE rules)."""

from __future__ import annotations

import json
from typing import Any

import pyarrow as pa
import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk_document, document_from_bytes
from chunkspec.arrow import chunk_table
from chunkspec.records import metadata_json
from tests import goldens

_ERRORS: dict[str, type[Exception]] = {"TypeError": TypeError, "ValueError": ValueError}


def golden_table(documents: list[dict[str, Any]]) -> pa.Table:
    """Build the input table of a golden case: a column for every key any document has."""
    types = {
        "doc_id": pa.string(),
        "source": pa.string(),
        "input_format": pa.string(),
        "text": pa.string(),
        "bytes": pa.binary(),
    }
    columns: dict[str, list[Any]] = {}
    for key in types:
        wanted = "bytes_hex" if key == "bytes" else key
        if any(wanted in document for document in documents) or (key == "doc_id" and not documents):
            values = [document.get(wanted) for document in documents]
            if key == "bytes":
                values = [None if v is None else bytes.fromhex(v) for v in values]
            columns[key] = values
    if not documents:
        columns["text"] = []
    return pa.table({key: pa.array(values, types[key]) for key, values in columns.items()})


@pytest.mark.parametrize("case", goldens.cases("chunk_table"))
def test_chunk_table(case: dict[str, Any]) -> None:
    """chunk_table gives the hand-written rows (chunk rows equal chunk_document's records)."""
    documents = case["input"]["documents"]
    table = golden_table(documents)
    options = case["input"]["options"]
    if "error" in case:
        with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
            chunk_table(table, **options)
        error = info.value
        assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
        assert error.argument == case["error"]["argument"]
        assert isinstance(error, _ERRORS[case["error"]["type"]])
        return
    result = chunk_table(table, **options)
    got = result.to_pylist()
    if "pandas_dtypes" in case:  # SCALE-9
        metadata = json.loads(result.schema.metadata[b"pandas"])
        named = {column["name"]: column["numpy_type"] for column in metadata["columns"]}
        assert {name: named[name] for name in case["pandas_dtypes"]} == case["pandas_dtypes"]
    assert len(got) == len(case["output"])
    for row, pinned in zip(got, case["output"], strict=True):
        assert {key: row[key] for key in pinned} == pinned
        if row["error"] is not None:  # SCALE-3: every column not pinned is null
            assert all(row[k] is None for k in row if k not in ("doc_id", "source", "error"))
    reading = ("max_bytes", "input_format", "encoding", "pdf_password")
    chunk_options = {k: v for k, v in options.items() if k not in reading}
    for document in documents:  # SCALE-2: chunk rows are chunk_document's records
        rows = [r for r in got if r["doc_id"] == document["doc_id"] and r["error"] is None]
        if not rows:
            continue
        data = bytes.fromhex(document["bytes_hex"]) if "bytes_hex" in document else None
        source = document.get("source") or ""
        built = document_from_bytes(
            data if data is not None else document["text"].encode(),
            doc_id=document["doc_id"],
            source=source,
            input_format=document.get("input_format") or options.get("input_format"),
            name=source or document["doc_id"],
            encoding=options.get("encoding"),
            pdf_password=options.get("pdf_password"),
        )
        records = chunk_document(built, **chunk_options)
        assert rows == [  # META-6: metadata is its canonical JSON text
            {**r.to_dict(), "metadata": metadata_json(r.metadata), "error": None} for r in records
        ]
    for sizes in case["input"].get("batches", []):  # SCALE-6
        assert sum(sizes) == table.num_rows
        parts, offset = [], 0
        for size in sizes:
            parts.append(chunk_table(table.slice(offset, size), **options))
            offset += size
        assert pa.concat_tables(parts).to_pylist() == got
