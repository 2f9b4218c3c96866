"""Documents in, output rows out: chunks or one error row per document (SCALE-1..SCALE-7).

Pure Python, no pyarrow: ``chunkspec.arrow.chunk_table`` turns these rows into an Arrow
table, and ``chunkspec ingest`` writes them as Parquet or JSON Lines. A row is a dict with
every field of the record (RECORD_FIELDS, in order) and then ``error``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .._core._metadata import Metadata, metadata_from_json
from .._errors import ArgumentTypeError, ArgumentValueError
from .._text._documents import InputError, document_from_bytes
from .._text._regular_files import NotRegularFile, OverCap
from ._job import ChunkJob
from ._record import RECORD_FIELDS

__all__ = [
    "ERROR_FIELD",
    "OUTPUT_FIELDS",
    "RawDocument",
    "chunk_rows",
    "document_rows",
    "error_row",
    "input_error_row",
]

#: The column that holds a document's one-line error, null on chunk rows (SCALE-3).
ERROR_FIELD = "error"

#: Every column of an output row, in order (SCALE-2).
OUTPUT_FIELDS = (*RECORD_FIELDS, ERROR_FIELD)


@dataclass(frozen=True, slots=True)
class RawDocument:
    """One input row: the document's id, where it came from, its bytes, its format and the
    caller's metadata (META-3; None: none)."""

    doc_id: str
    source: str
    data: bytes
    input_format: str | None = None
    metadata: Mapping[str, Any] | None = None


def _one_line(message: str) -> str:
    """Fold a message onto one line (SCALE-3)."""
    return " ".join(message.split())


def error_row(doc_id: str, source: str, message: str) -> dict[str, Any]:
    """SCALE-3: ``doc_id``, ``source`` and ``error`` set, every other column null."""
    row: dict[str, Any] = dict.fromkeys(OUTPUT_FIELDS)
    row["doc_id"] = doc_id
    row["source"] = source
    row[ERROR_FIELD] = _one_line(message) or "error"
    return row


def input_error_row(
    doc_id: str, source: str, name: str, problem: str | OSError | OverCap
) -> dict[str, Any]:
    """SCALE-3, SCALE-5, CLI-17: the error row of an input that is not read, ``name: why``.

    ``problem`` is why: a walk's words (CLI-17), :class:`OverCap` (SCALE-5),
    :class:`NotRegularFile` (TRUST-31), or another ``OSError`` (``cannot read: ...``). Both
    corpus engines and :func:`document_rows` build every such row here.
    """
    if isinstance(problem, OSError) and not isinstance(problem, NotRegularFile):
        problem = f"cannot read: {problem.strerror}"
    return error_row(doc_id, source, f"{name}: {problem}")


def document_rows(raw: RawDocument, job: ChunkJob) -> list[dict[str, Any]]:
    """Return one document's rows: its records (error null), else one error row (SCALE-3)."""
    name = raw.source or raw.doc_id
    cap = job.max_bytes
    if cap is not None and len(raw.data) > cap:  # SCALE-5: checked before any parsing
        return [input_error_row(raw.doc_id, raw.source, name, OverCap(cap, len(raw.data)))]
    try:
        document = document_from_bytes(
            raw.data,
            doc_id=raw.doc_id,
            source=raw.source,
            input_format=raw.input_format or job.input_format,
            name=name,
            encoding=job.encoding,
            pdf_password=job.pdf_password,
            metadata=raw.metadata,
            keep_furniture=job.keep_furniture,
            language=job.language,
        )
        if not document.text.strip():  # SCALE-3: blank text is not chunked at all
            return [error_row(raw.doc_id, raw.source, f"{name}: no text to chunk")]
        records = job.chunk(document)
    except InputError as error:
        return [error_row(raw.doc_id, raw.source, str(error))]
    except Exception as error:  # SCALE-4: an exception inside chunking is a row, not a crash
        return [error_row(raw.doc_id, raw.source, f"{name}: {type(error).__name__}: {error}")]
    if not records:  # SCALE-3: a document with no text to chunk is not silently lost
        return [error_row(raw.doc_id, raw.source, f"{name}: no text to chunk")]
    rows = []
    for record in records:
        row = record.to_dict()
        row[ERROR_FIELD] = None
        rows.append(row)
    return rows


def chunk_rows(documents: Iterable[RawDocument], job: ChunkJob) -> Iterator[dict[str, Any]]:
    """Yield the rows of every document in order, each document's on its own (SCALE-1)."""
    for raw in documents:
        yield from document_rows(raw, job)


def raw_documents(
    doc_ids: list[Any],
    sources: list[Any] | None,
    payloads: list[Any],
    formats: list[Any] | None,
    payload_column: str,
    metadatas: list[Any] | None = None,
) -> Iterator[RawDocument]:
    """Yield the documents of an input table's columns (SCALE-1), checking each cell; a
    ``metadata`` cell is a JSON object's text or null (META-8)."""
    for row, doc_id in enumerate(doc_ids):
        if not isinstance(doc_id, str) or not doc_id:
            raise ArgumentValueError(f"table.doc_id[{row}]", "must be a non-empty str", doc_id)
        source = sources[row] if sources is not None else None
        if source is None:
            source = ""
        if not isinstance(source, str):
            raise ArgumentTypeError(f"table.source[{row}]", "a str or null", source)
        payload = payloads[row]
        if payload is None:
            raise ArgumentValueError(f"table.{payload_column}[{row}]", "must not be null", None)
        if isinstance(payload, str):
            data = payload.encode("utf-8")  # SCALE-1: text is read as its UTF-8 bytes
        elif isinstance(payload, (bytes, bytearray, memoryview)):
            data = bytes(payload)
        else:
            raise ArgumentTypeError(f"table.{payload_column}[{row}]", "bytes or str", payload)
        chosen = formats[row] if formats is not None else None
        if chosen is not None and not isinstance(chosen, str):
            raise ArgumentTypeError(f"table.input_format[{row}]", "a str or null", chosen)
        given = metadatas[row] if metadatas is not None else None
        metadata = None
        if given is not None:  # META-8: checked here, so a bad cell fails the call
            name = f"table.metadata[{row}]"
            metadata = Metadata(metadata_from_json(given, name), argument=name)
        yield RawDocument(doc_id, source, data, chosen, metadata)
