"""Record files: chunk records read from and written as JSON Lines and Parquet, one home.

Reading: a file is Parquet when its name ends in ``.parquet`` or its bytes start with
``PAR1`` (CLI-14), else JSON Lines (CLI-4): strict UTF-8, one JSON object a non-blank line,
no key named twice (TRUST-2). A row whose ``error`` is set is an ingest error row (CLI-15,
SCALE-3). A Parquet ``metadata`` cell holds its object's JSON text (META-6). Every problem
is a :class:`RecordFileError` of one line naming ``FILE:LINE`` (``FILE:ROW`` for Parquet).
Writing: :func:`json_line` and :func:`record_line` (CLI-2, RECORD-1). ``chunkspec pack``,
``view``, ``chunk``, ``diff`` and ``ingest`` read and write records here.

Imports ``chunkspec._core`` and the record beside it; pyarrow only to read Parquet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from .._core._metadata import metadata_from_json, thaw
from .._core._strict_json import JsonTextError, strict_json_object
from .._errors import RecordFileError
from ._record import READ_FIELDS, RECORD_FIELDS, ChunkRecord
from ._rows import ERROR_FIELD

__all__ = [
    "PARQUET_MAGIC",
    "RecordFileError",
    "chunk_record",
    "decode_text",
    "file_rows",
    "is_error_row",
    "json_line",
    "json_object",
    "line_breaks_escaped",
    "parquet_rows",
    "record_line",
]

#: The first bytes of every Parquet file (CLI-14).
PARQUET_MAGIC = b"PAR1"


def decode_text(path: str, data: bytes) -> str:
    """Return ``data`` read from ``path`` as text by rule CLI-3 (strict UTF-8, BOM removed)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordFileError(f"{path}: not valid UTF-8 (byte {error.start})") from None
    return text[1:] if text.startswith("\ufeff") else text


def json_object(where: str, line: str) -> dict[str, Any]:
    """Parse one JSON Lines line; anything but a JSON object, or a key named twice in one
    object (TRUST-2), is a one-line error naming ``where`` (CLI-4)."""
    try:
        return strict_json_object(line, where)
    except JsonTextError as error:
        raise RecordFileError(str(error)) from None


def file_rows(path: str, data: bytes) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(number, row)`` of the file ``path`` holding ``data`` (``-``: standard input):
    JSON Lines by line number (CLI-4), Parquet by row (CLI-14)."""
    if data.startswith(PARQUET_MAGIC) or (path != "-" and Path(path).suffix.lower() == ".parquet"):
        yield from enumerate(parquet_rows(path, data), start=1)
        return
    for number, line in enumerate(decode_text(path, data).split("\n"), start=1):
        if line.strip():
            yield number, json_object(f"{path}:{number}", line)


def parquet_rows(path: str, data: bytes) -> list[dict[str, Any]]:
    """CLI-14: the rows of a Parquet file as dicts (column name to value, null as None)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise RecordFileError(
            f"{path}: reading Parquet needs pyarrow: pip install 'chunkspec[arrow]'"
        ) from None
    try:
        rows: list[dict[str, Any]] = pq.read_table(pa.BufferReader(data)).to_pylist()
    except (pa.ArrowException, OSError, ValueError, OverflowError) as error:
        # A damaged file, or a value Python cannot hold (a timestamp past year 9999).
        reason = str(error).strip().splitlines()[0] if str(error).strip() else "unreadable"
        raise RecordFileError(f"{path}: not a readable Parquet file ({reason})") from None
    for number, row in enumerate(rows, start=1):
        if isinstance(row.get("metadata"), str):  # META-6: Parquet holds the JSON text
            try:
                row["metadata"] = metadata_from_json(row["metadata"])
            except ValueError as error:  # TRUST-2: a repeated key too
                raise RecordFileError(f"{path}:{number}: {error}") from None
        # TRUST-1: a null cell stays None, which ChunkRecord.from_dict refuses (an error
        # row, CLI-15, is skipped before it is read as a record).
    return rows


def is_error_row(row: dict[str, Any]) -> bool:
    """CLI-15: a row whose ``error`` is set (not null) is an ingest error row (SCALE-3)."""
    return row.get(ERROR_FIELD) is not None


def chunk_record(where: str, row: dict[str, Any]) -> ChunkRecord:
    """The chunk record of one row (RECORD-8): every field ``ChunkRecord.from_dict`` checks,
    content hash included; other keys (a score, a reranker's notes) are ignored."""
    missing = [name for name in READ_FIELDS if name not in row]  # META-5: metadata optional
    if missing:
        raise RecordFileError(f"{where}: not a chunk record (no field {missing[0]!r})")
    try:
        return ChunkRecord.from_dict({name: row[name] for name in RECORD_FIELDS if name in row})
    except (TypeError, ValueError) as error:
        raise RecordFileError(f"{where}: {error}") from None


def record_line(record: ChunkRecord) -> str:
    """Return ``json_line(record.to_dict())``, built without the dict and the encoder's walk.

    The fields are RECORD-1's in order, with ``json.dumps``' separators; every string goes
    through the encoder's own string escaping (``encode_basestring``, the C function
    ``json.dumps(..., ensure_ascii=False)`` uses), ints are ``str(int)``, and the
    metadata, any JSON value, through :func:`json_line`'s encoder. ``kind`` (one of
    RECORD-4's) and ``key`` (64 hex digits, KEY-4) are checked by every record's
    constructor and need no escaping. A test checks the line against
    ``json_line(record.to_dict())`` on records of every field shape.
    """
    s = encode_basestring
    metadata = record.metadata
    parent, section = record.parent_id, record.section
    first, last = record.page_start, record.page_end
    line = (
        f'{{"id": {s(record.id)}, "doc_id": {s(record.doc_id)}, "index": {record.index}, '
        f'"text": {s(record.text)}, "start": {record.start}, "end": {record.end}, '
        f'"tokens": {record.tokens}, "counter": {s(record.counter)}, '
        f'"content_hash": {s(record.content_hash)}, "kind": "{record.kind}", '
        f'"heading_path": [{", ".join(map(s, record.heading_path))}], '
        f'"parent_id": {"null" if parent is None else s(parent)}, '
        f'"page_start": {"null" if first is None else first}, '
        f'"page_end": {"null" if last is None else last}, '
        f'"section": {"null" if section is None else s(section)}, '
        f'"prefix": {s(record.prefix)}, "oversized": {"true" if record.oversized else "false"}, '
        f'"title": {s(record.title)}, "source": {s(record.source)}, '
        f'"strategy": {s(record.strategy)}, '
        f'"metadata": {json_line(thaw(metadata))[:-1] if metadata else "{}"}, '
        f'"key": "{record.key}"}}'
    )
    return line_breaks_escaped(line) + "\n"


#: Characters JSON leaves raw that ``str.splitlines()`` and some editors treat as line breaks.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(record: dict[str, object]) -> str:
    """Return ``record`` as one JSON Lines line (rule CLI-2): UTF-8, one ``\\n`` at the end.

    Non-ASCII stays readable; U+0085, U+2028 and U+2029 are escaped so that a reader that
    splits on any Unicode line break still sees one record per line.
    """
    return line_breaks_escaped(_ENCODER.encode(record)) + "\n"


def line_breaks_escaped(line: str) -> str:
    """Return a JSON text with U+0085, U+2028 and U+2029 written as escapes (CLI-2)."""
    # Only a non-ASCII line can hold one; translate() maps every character through a dict.
    if not line.isascii() and _BREAKS.search(line) is not None:
        return line.translate(_LINE_BREAKS)
    return line


#: ``json.dumps(record, ensure_ascii=False)``'s encoder, made once (dumps makes one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_BREAKS = re.compile("[\x85\u2028\u2029]")
