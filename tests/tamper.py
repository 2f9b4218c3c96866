"""Edits of an ``ingest`` output folder, as a careless or hostile writer of it would make them.

Used by tests/golden/trust_reuse.json's runner and properties/test_trust_reuse.py
(TRUST-40..TRUST-46): each edit changes the rows in the part files (JSON Lines or Parquet)
without touching the manifest, so the next run must notice and chunk those documents again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["EDITS", "tamper"]

#: The edits :func:`tamper` knows.
EDITS = (
    "strip_metadata",
    "remove_row",
    "set_text",
    "set_key",
    "delete_part",
    "drop_doc_id",
)


def _parts(folder: Path) -> list[Path]:
    """The part files of a result, sorted by name."""
    return sorted(
        p
        for p in folder.iterdir()
        if p.suffix in (".jsonl", ".parquet") and not p.name.startswith(("_", "."))
    )


def _read(path: Path) -> list[dict[str, Any]]:
    """The rows of one part file, ``metadata`` as the file holds it (object or JSON text)."""
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = pq.read_table(str(path)).to_pylist()
    return rows


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``rows`` back in the file's own format and schema."""
    if path.suffix == ".jsonl":
        path.write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), "utf-8"
        )
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([field.with_nullable(True) for field in pq.read_schema(str(path))])
    pq.write_table(pa.Table.from_pylist(rows, schema=schema), str(path))


def tamper(folder: Path, edit: str, doc_id: str | None = None, index: int = 0) -> bool:
    """Apply ``edit`` to the first row of ``doc_id`` with ``index`` (any document when
    ``doc_id`` is None); return whether a row (or a part file) was there to edit."""
    for path in _parts(folder):
        if edit == "delete_part":
            rows = _read(path)
            if doc_id is None or any(row.get("doc_id") == doc_id for row in rows):
                path.unlink()
                return True
            continue
        rows = _read(path)
        for position, row in enumerate(rows):
            if doc_id is not None and row.get("doc_id") != doc_id:
                continue
            if row.get("index") not in (index, None):
                continue
            if edit == "strip_metadata":
                if row.get("metadata") in ({}, "{}"):
                    continue
                row["metadata"] = {} if path.suffix == ".jsonl" else "{}"
            elif edit == "remove_row":
                del rows[position]
            elif edit == "set_text":  # content_hash left stale
                if row.get("text") is None:
                    continue
                row["text"] = row["text"] + " (edited)"
            elif edit == "set_key":
                if row.get("key") is None:
                    continue
                row["key"] = "0" * 64
            elif edit == "drop_doc_id":
                if path.suffix != ".jsonl":
                    row["doc_id"] = None
                else:
                    del row["doc_id"]
            else:
                raise ValueError(f"edit: unknown: {edit!r}")
            _write(path, rows)
            return True
    return False
