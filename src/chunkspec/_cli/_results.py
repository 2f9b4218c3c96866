"""Reading an ``ingest`` result back: its manifest and its rows per document (INCR-1, INCR-9).

Used by an incremental run (the previous result's rows of unchanged documents) and by
``chunkspec diff``. Part files are every ``*.parquet`` or ``*.jsonl`` file of the folder
whose name does not start with ``_`` or ``.`` (the names Parquet readers skip).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .._core._strict_json import JsonTextError, strict_json_object
from ._ingest_output import MANIFEST
from ._io import CliError

__all__ = ["part_files", "read_manifest", "result_rows"]


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """Return the folder's ``_chunkspec.json``, or None when it has none or it is unreadable."""
    try:
        data = json.loads((folder / MANIFEST).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def part_files(folder: Path) -> list[Path]:
    """The result's part files, sorted by name."""
    return sorted(
        path
        for path in folder.iterdir()
        if path.suffix in (".parquet", ".jsonl")
        and not path.name.startswith(("_", "."))
        and path.is_file()
    )


def _rows_of(path: Path) -> list[dict[str, Any]]:
    """The rows of one part file; JsonTextError naming ``FILE:LINE`` (``FILE:ROW``) for a line
    that is not a JSON object, names a key twice (TRUST-2), or a chunk row (``error``
    null) whose ``metadata`` is null (TRUST-1): only an error row may lack it (META-6)."""
    rows: list[dict[str, Any]]
    if path.suffix == ".jsonl":
        rows = []
        with path.open(encoding="utf-8") as lines:
            for number, line in enumerate(lines, start=1):
                if line.strip():
                    row = strict_json_object(line, f"{path.name}:{number}")
                    if _null_metadata(row):
                        raise JsonTextError(f"{path.name}:{number}: {_NULL}")
                    rows.append(row)
        return rows
    import pyarrow.parquet as pq

    from .._core._metadata import metadata_from_json

    rows = pq.read_table(str(path)).to_pylist()
    decoded: dict[str, dict[str, Any]] = {}  # a document's rows share one metadata text
    for number, row in enumerate(rows, start=1):  # META-6: the cell holds the JSON text
        text = row.get("metadata")
        if text is not None:
            if text not in decoded:
                decoded[text] = metadata_from_json(text, f"{path.name}:{number}: record.metadata")
            row["metadata"] = decoded[text]
        elif _null_metadata(row):
            raise JsonTextError(f"{path.name}:{number}: {_NULL}")
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
    folder), or a part that cannot be read, is a CliError.
    """
    if not folder.is_dir():
        raise CliError(f"{name}: no such folder")
    if manifest and read_manifest(folder) is None:
        raise CliError(f"{name}: holds no readable {MANIFEST} (not ingest output)")
    documents: dict[str, list[dict[str, Any]]] = {}
    for path in part_files(folder):
        try:
            rows = _rows_of(path)
        except JsonTextError as error:  # TRUST-1, TRUST-2: it names FILE:LINE itself
            raise CliError(f"{name}: {error}") from None
        except (OSError, ValueError) as error:
            raise CliError(f"{name}: {path.name}: cannot read: {error}") from None
        except Exception as error:  # pyarrow's own errors (ArrowInvalid is a ValueError)
            raise CliError(f"{name}: {path.name}: cannot read: {error}") from None
        for row in rows:
            documents.setdefault(row["doc_id"], []).append(row)
    for rows in documents.values():
        if len(rows) > 1:
            rows.sort(key=lambda row: row["index"] if row["index"] is not None else -1)
    return documents
