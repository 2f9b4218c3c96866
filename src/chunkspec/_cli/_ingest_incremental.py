"""Incremental ``ingest``: reuse the previous result's rows of unchanged documents (INCR-1..INCR-5).

The manifest of every run holds its fingerprint (the job's options, the key scheme and the
chunkspec version) and, per input, its content hash and record count. A later run into the
same ``--out`` with the same fingerprint re-chunks only the inputs whose (doc_id, source,
content hash) is not in that list, copies the previous rows of the others, and drops the
documents no longer given; the result equals a full run's (INCR-3). Each run writes its
change set beside the part files (INCR-6): ``_changes/changes.jsonl`` and
``_changes/changes.parquet`` (a folder whose name Parquet readers skip).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._core._collector import collector_paused
from .._core._metadata import metadata_json
from .._records._changes import CHANGE_FIELDS, change_rows, change_summary
from .._records._key import KEY_SCHEME
from .._records._rows import ChunkJob
from .._version import __version__
from ._inputs import Input, shown
from ._io import CliError, json_line
from ._results import read_manifest, result_rows

__all__ = [
    "CHANGES",
    "Previous",
    "content_hash",
    "manifest_inputs",
    "previous_result",
    "run_fingerprint",
    "write_changes",
]

#: INCR-6: the change set's folder in the output folder (a name Parquet readers skip).
CHANGES = "_changes"


def run_fingerprint(job: ChunkJob, output_format: str) -> str | None:
    """INCR-2: the SHA-256 of everything that decides a run's rows; None with a PDF password.

    A password is never written (CLI-18), not even hashed, so a run that has one cannot
    prove its rows were read with the same one: it is always a full run.
    """
    if job.pdf_password is not None:
        return None
    data = {
        "chunkspec": __version__,
        "key_scheme": KEY_SCHEME,
        "job": {**job.to_dict(), "pdf_password": None},
        "format": output_format,
    }
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_hash(
    item: Input, max_bytes: int | None, metadata: Mapping[str, Any] | None = None
) -> str | None:
    """INCR-1: SHA-256 of the input's bytes, and of its ``--metadata`` entry when it has
    one (META-7: the entry is part of its rows); None when it is not a regular file (a
    pipe is read once, by its worker), cannot be read or is over the cap."""
    if item.problem is not None:
        return None
    try:
        status = os.stat(item.path)
        if not stat.S_ISREG(status.st_mode):
            return None
        if max_bytes is not None and status.st_size > max_bytes:
            return None
        digest = hashlib.sha256(Path(item.path).read_bytes()).hexdigest()
    except OSError:
        return None
    if metadata is None:
        return digest
    return hashlib.sha256((digest + metadata_json(metadata)).encode("utf-8")).hexdigest()


@dataclass
class Previous:
    """The result already in ``--out``: its rows, and the inputs whose rows can be reused."""

    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    reusable: dict[str, tuple[str, str]] = field(default_factory=dict)


def previous_result(out: str, fingerprint: str | None) -> Previous:
    """INCR-2: read the previous result in ``out``; say on stderr why it is a full run."""
    folder = Path(out)
    manifest = read_manifest(folder) if folder.is_dir() else None
    if manifest is None:
        return Previous()
    try:
        with collector_paused():  # many small objects, none cyclic
            rows = result_rows(folder, f"--out {shown(out)}")
    except CliError as error:
        _say(f"full run: the previous result cannot be read ({error})")
        return Previous()
    listed = manifest.get("inputs")
    if fingerprint is None:
        _say("full run: --pdf-password is never recorded, so no row is reused")
    elif manifest.get("fingerprint") != fingerprint or not isinstance(listed, list):
        _say("full run: the options differ from the previous result's (fingerprint changed)")
    else:
        reusable = {
            entry["doc_id"]: (entry["source"], entry["content_hash"])
            for entry in listed
            if isinstance(entry, dict) and entry.get("content_hash") and entry["doc_id"] in rows
        }
        return Previous(rows, reusable)
    return Previous(rows)


def _say(message: str) -> None:
    """One line on standard error."""
    print(f"chunkspec ingest: {message}", file=sys.stderr)


def reused(previous: Previous, item: Input, digest: str | None) -> bool:
    """INCR-1: whether the previous rows of ``item`` are kept: same doc_id, source and hash."""
    return digest is not None and previous.reusable.get(item.doc_id) == (item.source, digest)


def manifest_inputs(
    inputs: Sequence[Input], hashes: Sequence[str | None], rows: Mapping[str, Sequence[Any]]
) -> list[dict[str, Any]]:
    """INCR-1: per input, its doc_id, source, content hash and number of records."""
    listed = []
    for item, digest in zip(inputs, hashes, strict=True):
        found = rows.get(item.doc_id, [])
        records = sum(1 for row in found if row.get("error") is None)
        listed.append(
            {
                "doc_id": item.doc_id,
                "source": item.source,
                "content_hash": digest,
                "records": records,
            }
        )
    return listed


def write_changes(
    folder: Path, old: Mapping[str, Sequence[Any]], new: Mapping[str, Sequence[Any]]
) -> dict[str, dict[str, int]]:
    """INCR-6: write the change set into ``_changes/`` as JSON Lines and Parquet; count it."""
    changes = list(change_rows(old, new))
    (folder / CHANGES).mkdir()
    write_change_set(changes, folder / CHANGES / "changes.jsonl")
    write_change_set(changes, folder / CHANGES / "changes.parquet")
    return change_summary(changes)


def change_schema() -> Any:
    """The Arrow schema of a change set: every column a string, only ``key``/``id`` nullable."""
    import pyarrow as pa

    return pa.schema(
        [pa.field(name, pa.string(), nullable=name in ("key", "id")) for name in CHANGE_FIELDS]
    )


def write_change_set(changes: Sequence[Mapping[str, Any]], path: Path) -> None:
    """Write ``changes`` to ``path``: Parquet for ``.parquet``, else JSON Lines (INCR-6)."""
    if path.suffix == ".parquet":
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError:  # a JSON Lines run without the arrow extra
            return
        pq.write_table(pa.Table.from_pylist(list(changes), schema=change_schema()), str(path))
        return
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.writelines(json_line(dict(change)) for change in changes)
