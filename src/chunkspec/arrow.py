"""Chunk records as Apache Arrow tables (extra ``chunkspec[arrow]``), rule RECORD-8.

``import chunkspec`` never imports this module or pyarrow. The schema's columns are the
record's fields in order; ``heading_path`` is a list of strings, the nullable fields are
nullable columns and every other column is not null::

    table = records_to_table(records)
    assert table_to_records(table) == records
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ._errors import ArgumentTypeError
from ._records._record import RECORD_FIELDS, ChunkRecord

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["record_schema", "records_to_table", "table_to_records"]

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
    }
    return pa.schema(
        [
            pa.field(name, types.get(name, pa.string()), nullable=name in _NULLABLE)
            for name in RECORD_FIELDS
        ]
    )


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
            columns[name].append(list(value) if name == "heading_path" else value)
    return pa.Table.from_pydict(columns, schema=record_schema())


def table_to_records(table: pa.Table, *, check_hash: bool = True) -> list[ChunkRecord]:
    """Return the records of a table with the record's columns (extra columns are ignored).

    Each row is read as :meth:`ChunkRecord.from_dict` reads a JSON object, so a row that
    breaks a RECORD rule raises ValueError naming ``record.FIELD``.
    """
    pa = _pyarrow()
    if not isinstance(table, pa.Table):
        raise ArgumentTypeError("table", "a pyarrow.Table", table)
    missing = [name for name in RECORD_FIELDS if name not in table.column_names]
    if missing:
        raise ArgumentTypeError("table", f"a table with a {missing[0]!r} column", table)
    rows = table.select(list(RECORD_FIELDS)).to_pylist()
    return [ChunkRecord.from_dict(row, check_hash=check_hash) for row in rows]
