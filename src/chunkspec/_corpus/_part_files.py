"""Reading an ``ingest`` result back: its manifest and its rows per document (INCR-1, INCR-9).

Used by an incremental run (the previous result's rows of unchanged documents) and by
``chunkspec diff``. Part files are every ``*.parquet`` or ``*.jsonl`` file of the folder
whose name does not start with ``_`` or ``.`` (the names Parquet readers skip).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._errors import ChunkspecError
from .._records._record_files import RecordFileError, json_object
from ._file_io import IngestError
from ._out_folder import MANIFEST, read_manifest

__all__ = ["DamagedRow", "ReadBack", "iter_part", "part_files", "read_manifest", "result_rows"]


def part_files(folder: Path) -> list[Path]:
    """The result's part files, sorted by name."""
    return sorted(
        path
        for path in folder.iterdir()
        if path.suffix in (".parquet", ".jsonl")
        and not path.name.startswith(("_", "."))
        and path.is_file()
    )


#: Rows per batch when a Parquet part is read as a stream (TRUST-45).
BATCH_ROWS = 1024


class DamagedRow(ChunkspecError, ValueError):
    """A part file's row that is not a row of ingest output (TRUST-46)."""


def _strict_row(line: bytes, where: str) -> dict[str, Any]:
    """One JSON Lines row read strictly: a DamagedRow for text that is not one JSON object,
    names a key twice (TRUST-2), or a chunk row whose ``metadata`` is null (TRUST-1)."""
    try:
        row = json_object(where, line.decode("utf-8"))
    except UnicodeDecodeError:
        raise DamagedRow(f"{where}: not UTF-8") from None
    except RecordFileError as error:
        raise DamagedRow(str(error)) from None
    if _null_metadata(row):
        raise DamagedRow(f"{where}: {_NULL}")
    return row


def _decoded(row: object, where: str) -> dict[str, Any]:
    """``row`` checked to be an object with a text ``doc_id``; else a DamagedRow."""
    if not isinstance(row, dict):
        raise DamagedRow(f"{where}: not a JSON object")
    doc_id = row.get("doc_id")
    if not isinstance(doc_id, str) or not doc_id:
        raise DamagedRow(f"{where}: no doc_id")
    index = row.get("index")
    if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
        raise DamagedRow(f"{where}: index is not a number")
    return row


def iter_part(
    path: Path, damaged: list[str] | None = None
) -> Iterator[tuple[int, int, dict[str, Any]]]:
    """Yield ``(ordinal, offset, row)`` for each row of one part file, one batch in memory.

    ``ordinal`` counts the file's rows from 0; ``offset`` is the byte offset of a JSON Lines
    row's line (the row number for Parquet). ``metadata`` is its object (META-6). A row that
    is not an object with a text ``doc_id`` is a DamagedRow naming the file and the row, or,
    with a ``damaged`` list, is skipped and named there (TRUST-46).
    """
    from .._core._metadata import metadata_from_json

    if path.suffix == ".jsonl":
        with path.open("rb") as lines:
            ordinal, offset = 0, 0
            for number, line in enumerate(lines, start=1):
                at, offset = offset, offset + len(line)
                if not line.strip():
                    continue
                where = f"{path.name}:{number}"  # CLI-1's FILE:LINE
                ordinal += 1
                try:
                    checked = _decoded(_strict_row(line, where), where)
                except DamagedRow as error:
                    if damaged is None:
                        raise
                    damaged.append(str(error))
                    continue
                yield ordinal - 1, at, checked
        return
    import pyarrow.parquet as pq

    ordinal = 0
    decoded: dict[str, dict[str, Any]] = {}  # a document's rows share one metadata text
    for batch in pq.ParquetFile(str(path)).iter_batches(batch_size=BATCH_ROWS):
        for row in batch.to_pylist():
            where = f"{path.name}:{ordinal + 1}"  # FILE:ROW
            ordinal += 1
            try:
                text = row.get("metadata")
                if text is not None:  # META-6: the Arrow cell holds the object's JSON text
                    if text not in decoded:
                        if len(decoded) > BATCH_ROWS:
                            decoded.clear()
                        try:
                            decoded[text] = metadata_from_json(text, f"{where}: record.metadata")
                        except (TypeError, ValueError) as error:  # TRUST-2: names the key
                            raise DamagedRow(str(error)) from None
                    row["metadata"] = decoded[text]
                elif _null_metadata(row):
                    raise DamagedRow(f"{where}: {_NULL}")
                checked = _decoded(row, where)
            except DamagedRow as error:
                if damaged is None:
                    raise
                damaged.append(str(error))
                continue
            yield ordinal - 1, ordinal - 1, checked


class ReadBack:
    """Read runs of rows back from part files (TRUST-45): one JSON Lines seek per run; for
    Parquet the file stays open and the last row group read stays in memory, so reading
    the documents of a result in its order reads each row group once."""

    def __init__(self) -> None:
        self._files: dict[Path, Any] = {}
        self._group: tuple[Path, int, Any] | None = None

    def rows(self, path: Path, offset: int, count: int) -> list[dict[str, Any]]:
        """The ``count`` rows of one part file from ``offset`` (as :func:`iter_part` gives it)."""
        if path.suffix == ".jsonl":
            return self._jsonl(path, offset, count)
        from .._core._metadata import metadata_from_json

        rows: list[dict[str, Any]] = []
        parts = self._parquet(path)
        first = 0
        for group in range(parts.num_row_groups):
            size = parts.metadata.row_group(group).num_rows
            if first + size > offset and first < offset + count:
                table = self._row_group(path, parts, group)
                low = max(offset - first, 0)
                rows.extend(table.slice(low, offset + count - first - low).to_pylist())
            first += size
            if first >= offset + count:
                break
        for row in rows:
            if row.get("metadata") is not None:
                row["metadata"] = metadata_from_json(row["metadata"], f"{path.name}: metadata")
            elif _null_metadata(row):
                raise DamagedRow(f"{path.name}: {_NULL}")
        return rows

    def _parquet(self, path: Path) -> Any:
        found = self._files.get(path)
        if found is None:
            import pyarrow.parquet as pq

            found = self._files[path] = pq.ParquetFile(str(path))
        return found

    def _row_group(self, path: Path, parts: Any, group: int) -> Any:
        if self._group is None or self._group[:2] != (path, group):
            self._group = (path, group, parts.read_row_group(group))
        return self._group[2]

    @staticmethod
    def _jsonl(path: Path, offset: int, count: int) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = []
        with path.open("rb") as lines:
            lines.seek(offset)
            for line in lines:
                if len(rows) == count:
                    break
                if line.strip():
                    rows.append(_decoded(_strict_row(line, path.name), path.name))
        return rows


#: TRUST-1: a chunk row's null ``metadata`` is an error, never "no labels"; the message is
#: the one ``ChunkRecord.from_dict`` gives, so every reader says the same.
_NULL = "record.metadata must be a mapping of str keys to JSON values, got NoneType None"


def _null_metadata(row: dict[str, Any]) -> bool:
    """TRUST-1: ``row`` is a chunk row (``error`` null) whose ``metadata`` is null."""
    return "metadata" in row and row["metadata"] is None and row.get("error") is None


def result_rows(
    folder: Path, name: str, *, manifest: bool = True
) -> dict[str, list[dict[str, Any]]]:
    """Return the result's rows by doc_id (INCR-9): documents in first-seen order, each
    document's rows by ``index`` (an engine may write them in any order, docs/scale.md);
    ``metadata`` as its object, as the engine's rows hold it, whatever the format.

    ``name`` is how an error names the folder (a flag or an argument). A folder that is
    not an ingest result (no manifest, unless ``manifest`` is false: a run's own staging
    folder), or a part that cannot be read, or a row that is not an object with a text
    ``doc_id`` (TRUST-46), is an IngestError.
    """
    if not folder.is_dir():
        raise IngestError(f"{name}: no such folder")
    if manifest and read_manifest(folder) is None:
        raise IngestError(f"{name}: holds no readable {MANIFEST} (not ingest output)")
    documents: dict[str, list[dict[str, Any]]] = {}
    for path in part_files(folder):
        try:
            for _, _, row in iter_part(path):
                documents.setdefault(row["doc_id"], []).append(row)
        except DamagedRow as error:  # TRUST-1, TRUST-2, TRUST-46: it names FILE and row
            raise IngestError(f"{name}: {error}") from None
        except (OSError, ValueError) as error:
            raise IngestError(f"{name}: {path.name}: cannot read: {error}") from None
        except Exception as error:  # pyarrow's own errors (ArrowInvalid is a ValueError)
            raise IngestError(f"{name}: {path.name}: cannot read: {error}") from None
    for rows in documents.values():
        if len(rows) > 1:
            rows.sort(key=_index_of)
    return documents


def _index_of(row: dict[str, Any]) -> int:
    """A row's ``index`` for sorting (-1 for an error row's null)."""
    index = row.get("index")
    return index if isinstance(index, int) else -1
