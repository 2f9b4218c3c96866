"""``--metadata FILE.jsonl``: caller metadata for the documents of a run (rule META-7).

One JSON object a line, ``{"doc_id": ID, "metadata": {...}}``: every record of document ID
carries that metadata, over the document's front-matter fields (META-3). Every problem is
one :class:`IngestError` line naming ``FILE:LINE``, before any document is read.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._core._metadata import Metadata
from .._core._strict_json import JsonTextError, strict_json_object
from ._file_io import IngestError, read_text

__all__ = ["read_sidecar"]

#: META-7: the keys of a sidecar line, exactly.
_KEYS = ("doc_id", "metadata")


def read_sidecar(path: str, doc_ids: Iterable[str]) -> dict[str, Metadata]:
    """Return each document's caller metadata from the sidecar at ``path`` (META-7).

    ``doc_ids`` are the run's documents; a line naming another id is an error, as are a
    repeated id, a line that is not ``{"doc_id": str, "metadata": object}`` and metadata
    that breaks META-2. Blank lines are skipped.
    """
    known = set(doc_ids)
    text = read_text(path)
    found: dict[str, Metadata] = {}
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:  # META-7, TRUST-2: a key named twice in any object is refused, never last-wins
            data = strict_json_object(line, where)
        except JsonTextError as error:
            raise IngestError(str(error)) from None
        for key in _KEYS:
            if key not in data:
                raise IngestError(f"{where}: missing key {key!r}")
        extra = sorted(key for key in data if key not in _KEYS)
        if extra:
            raise IngestError(f"{where}: unknown key {extra[0]!r} (a line is doc_id and metadata)")
        doc_id = data["doc_id"]
        if not isinstance(doc_id, str) or not doc_id:
            raise IngestError(f"{where}: doc_id must be a non-empty string")
        if doc_id in lines:
            raise IngestError(f"{where}: doc_id {doc_id!r} is also on line {lines[doc_id]}")
        if doc_id not in known:
            raise IngestError(f"{where}: doc_id {doc_id!r} names no input document")
        if data["metadata"] is None:  # TRUST-1: null is an error, never "no metadata"
            raise IngestError(f"{where}: metadata is null (give {{}} for none)")
        try:
            found[doc_id] = Metadata(data["metadata"])
        except (TypeError, ValueError) as error:
            raise IngestError(f"{where}: {error}") from None
        lines[doc_id] = number
    return found
