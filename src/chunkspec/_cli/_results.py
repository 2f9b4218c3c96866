"""Reading an ``ingest`` result back: its manifest and its rows per document (INCR-1, INCR-9).

Used by an incremental run (the previous result's rows of unchanged documents) and by
``chunkspec diff``. Part files are every ``*.parquet`` or ``*.jsonl`` file of the folder
whose name does not start with ``_`` or ``.`` (the names Parquet readers skip).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
    """The rows of one part file."""
    if path.suffix == ".jsonl":
        with path.open(encoding="utf-8") as lines:
            return [json.loads(line) for line in lines if line.strip()]
    import pyarrow.parquet as pq

    from .._core._metadata import metadata_from_json

    rows: list[dict[str, Any]] = pq.read_table(str(path)).to_pylist()
    decoded: dict[str, dict[str, Any]] = {}  # a document's rows share one metadata text
    for row in rows:  # META-6: the Arrow cell holds the object's JSON text
        text = row.get("metadata")
        if text is not None:
            if text not in decoded:
                decoded[text] = metadata_from_json(text)
            row["metadata"] = decoded[text]
    return rows


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
