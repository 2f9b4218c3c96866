"""Chunk records as Apache Arrow tables (extra ``chunkspec[arrow]``), rule RECORD-8.

``import chunkspec`` never imports this module or pyarrow. The schema's columns are the
record's fields in order; ``heading_path`` is a list of strings, the nullable fields are
nullable columns and every other column is not null; ``metadata`` is a string column holding
the metadata's canonical JSON text (META-6)::

    table = records_to_table(records)
    assert table_to_records(table) == records

:func:`chunk_table` chunks a table of documents into a table of records plus an ``error``
column (docs/spec/scale.md, SCALE-1..SCALE-7); Ray Data and Spark run it per batch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._chunkers._options import ChunkOptions
from ._core._collector import collector_paused
from ._core._metadata import metadata_from_json, metadata_json
from ._errors import ArgumentTypeError, ArgumentValueError
from ._records._job import ChunkJob, JobKeywords, job_of
from ._records._record import READ_FIELDS, RECORD_FIELDS, ChunkRecord
from ._records._rows import ERROR_FIELD, OUTPUT_FIELDS, chunk_rows, raw_documents

if TYPE_CHECKING:
    import pyarrow as pa
    from typing_extensions import Unpack

__all__ = [
    "chunk_table",
    "chunk_table_schema",
    "record_schema",
    "records_to_table",
    "table_to_records",
]

#: The columns that may hold null (RECORD-1).
_NULLABLE = frozenset({"parent_id", "page_start", "page_end", "section"})


def _pyarrow() -> Any:
    """Import pyarrow, or say which extra installs it."""
    try:
        import pyarrow
    except ImportError:
        raise ImportError("pyarrow is not installed: pip install 'chunkspec[arrow]'") from None
    return pyarrow


def record_schema() -> pa.Schema:
    """Return the Arrow schema of a record table: one column per field, in order."""
    pa = _pyarrow()
    types = {
        "index": pa.int64(),
        "start": pa.int64(),
        "end": pa.int64(),
        "tokens": pa.int64(),
        "page_start": pa.int64(),
        "page_end": pa.int64(),
        "heading_path": pa.list_(pa.string()),
        "oversized": pa.bool_(),
        "metadata": pa.string(),  # META-6: canonical JSON text, not a map column
    }
    return pa.schema(
        [
            pa.field(name, types.get(name, pa.string()), nullable=name in _NULLABLE)
            for name in RECORD_FIELDS
        ]
    )


def chunk_table_schema() -> pa.Schema:
    """Return the schema of :func:`chunk_table`'s output (SCALE-2).

    The record's columns, in order, then ``error`` (string). ``doc_id`` and ``source`` are
    not null; every other column is nullable, because an error row (SCALE-3) holds only
    ``doc_id``, ``source`` and ``error``. On a chunk row every column holds what
    :func:`record_schema` says and ``error`` is null.
    """
    pa = _pyarrow()
    fields = [
        field.with_nullable(field.name not in ("doc_id", "source")) for field in record_schema()
    ]
    schema = pa.schema([*fields, pa.field(ERROR_FIELD, pa.string(), nullable=True)])
    return schema.with_metadata({b"pandas": _pandas_metadata(schema)})


#: SCALE-9: the pandas dtype that keeps each nullable non-string column's type.
_PANDAS_DTYPES = {"int64": ("int64", "Int64"), "bool": ("bool", "boolean")}


def _pandas_metadata(schema: pa.Schema) -> bytes:
    """SCALE-9: the ``pandas`` schema metadata that makes pandas read ints as ``Int64``."""
    columns = []
    for field in schema:
        pandas_type, numpy_type = _PANDAS_DTYPES.get(str(field.type), ("unicode", "object"))
        if str(field.type).startswith("list"):
            pandas_type = "list[unicode]"
        columns.append(
            {
                "name": field.name,
                "field_name": field.name,
                "pandas_type": pandas_type,
                "numpy_type": numpy_type,
                "metadata": None,
            }
        )
    metadata = {"index_columns": [], "column_indexes": [], "columns": columns}
    return json.dumps(metadata, separators=(",", ":")).encode("utf-8")


@collector_paused()  # linear time on big tables (docs/performance.md)
def chunk_table(
    table: pa.Table,
    options: ChunkOptions | ChunkJob | None = None,
    **keywords: Unpack[JobKeywords],
) -> pa.Table:
    """Chunk every document of ``table``; return one row per record, or one error row.

    ``table`` (a ``pyarrow.Table`` or ``RecordBatch``) has a ``doc_id`` column, a ``bytes`` (binary)
    or ``text`` (string) column, and optionally ``source``, ``input_format`` (null: the
    ``input_format`` option, else the suffix of ``source``, else of ``doc_id``; SOURCE-1) and
    ``metadata`` (a JSON object's text, the caller's metadata of the document, or null: META-8);
    other columns are ignored (SCALE-1). The options are ``options`` (a
    :class:`chunkspec.ChunkJob`, or a :class:`chunkspec.ChunkOptions`) or, without it, the
    job's keywords (:class:`chunkspec.records.JobKeywords`: the chunking keywords of
    :func:`chunkspec.chunk_document` and the reading keywords ``input_format``,
    ``max_bytes``, ``encoding``, ``pdf_password``; OPT-1); a counter name is built once per
    process (SCALE-6). A document over ``max_bytes``
    bytes, one that cannot be read, one that raises while it is chunked and one with no chunk are
    each one error row (SCALE-3..5). ``encoding`` and ``pdf_password`` read every document's bytes
    as :func:`chunkspec.document_from_bytes` does (SCALE-8).

    The rows are each document's records in input order (SCALE-1), so the result never
    depends on how a table is split into batches (SCALE-7).
    """
    pa = _pyarrow()
    if isinstance(table, pa.RecordBatch):
        table = pa.Table.from_batches([table])
    if not isinstance(table, pa.Table):
        raise ArgumentTypeError("table", "a pyarrow.Table or RecordBatch", table)
    job = job_of(options, keywords)
    names = table.column_names
    if "doc_id" not in names:
        raise ArgumentTypeError("table", "a table with a 'doc_id' column", table)
    payloads = [name for name in ("bytes", "text") if name in names]
    if len(payloads) != 1:
        raise ArgumentValueError(
            "table", "must have exactly one of the columns 'bytes' and 'text'", names
        )

    def column(name: str) -> list[Any] | None:
        return table.column(name).to_pylist() if name in names else None

    documents = raw_documents(
        table.column("doc_id").to_pylist(),
        column("source"),
        table.column(payloads[0]).to_pylist(),
        column("input_format"),
        payloads[0],
        column("metadata"),
    )
    return rows_to_table(chunk_rows(documents, job))


def rows_to_table(rows: Iterable[dict[str, Any]]) -> pa.Table:
    """Return output rows (SCALE-2) as a table of :func:`chunk_table_schema`, each row's
    ``metadata`` object written as its canonical JSON text (META-6)."""
    pa = _pyarrow()
    columns: dict[str, list[Any]] = {name: [] for name in OUTPUT_FIELDS}
    for row in rows:
        for name in OUTPUT_FIELDS:
            columns[name].append(row[name])
    columns["metadata"] = [
        None if value is None else metadata_json(value) for value in columns["metadata"]
    ]
    return pa.Table.from_pydict(columns, schema=chunk_table_schema())


def records_to_table(records: Iterable[ChunkRecord]) -> pa.Table:
    """Return the records as a table of :func:`record_schema` (no row for no record)."""
    pa = _pyarrow()
    given: object = records
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise ArgumentTypeError("records", "an iterable of ChunkRecord", given)
    columns: dict[str, list[Any]] = {name: [] for name in RECORD_FIELDS}
    for number, record in enumerate(records):
        if not isinstance(record, ChunkRecord):
            raise ArgumentTypeError(f"records[{number}]", "a ChunkRecord", record)
        for name in RECORD_FIELDS:
            value = getattr(record, name)
            if name == "heading_path":
                value = list(value)
            elif name == "metadata":
                value = metadata_json(value)
            columns[name].append(value)
    return pa.Table.from_pydict(columns, schema=record_schema())


def table_to_records(table: pa.Table, *, check_hash: bool = True) -> list[ChunkRecord]:
    """Return the records of a table with the record's columns (extra columns are ignored).

    Each row is read as :meth:`ChunkRecord.from_dict` reads a JSON object, so a row that
    breaks a RECORD rule raises ValueError naming ``record.FIELD``; a ``metadata`` cell
    that is null, not a JSON object's text or names a key twice raises naming
    ``table.metadata[ROW]`` (META-6, TRUST-1, TRUST-2). A table without the column reads
    as ``{}`` (META-5).
    """
    pa = _pyarrow()
    if not isinstance(table, pa.Table):
        raise ArgumentTypeError("table", "a pyarrow.Table", table)
    missing = [name for name in READ_FIELDS if name not in table.column_names]
    if missing:
        raise ArgumentTypeError("table", f"a table with a {missing[0]!r} column", table)
    names = [name for name in RECORD_FIELDS if name in table.column_names]
    rows = table.select(names).to_pylist()
    if "metadata" in names:  # META-5: a table written before the column reads as {}
        for index, row in enumerate(rows):  # TRUST-1, TRUST-2: a null cell is an error
            row["metadata"] = metadata_from_json(row["metadata"], f"table.metadata[{index}]")
    return [ChunkRecord.from_dict(row, check_hash=check_hash) for row in rows]
