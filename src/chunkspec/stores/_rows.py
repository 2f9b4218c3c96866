"""A result's row as a store row and back (STORE-3, STORE-4, STORE-6).

The row is what ``ingest`` wrote (SCALE-2, read back by INCR-9); the store row carries the
record's fields in flat, typed form, the access labels read out of its metadata, and the
digest that says what was written. :func:`record_of` rebuilds the :class:`ChunkRecord`
from a stored row, checking it as any record read from outside is checked (RECORD-8).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from .._chunkers._span import embedded
from .._core._access_keys import LABELS_KEY, TENANT_KEY
from .._core._metadata import metadata_from_json, metadata_json
from .._errors import ArgumentTypeError
from .._packing._access import readable
from .._records._record import RECORD_FIELDS, ChunkRecord
from ._store import FIELDS, StoreRow

__all__ = ["HEADINGS_MARK", "digest_of", "embedded_text", "fields_of", "record_of"]

#: RECORD-16: how a record's strategy says its ``tokens`` count the embedded text.
HEADINGS_MARK = ",budget_includes_headings=true"

#: The record fields stored under another name (the store's id is the key, STORE-3).
_RENAMED = {"id": "record_id"}


def digest_of(row: Mapping[str, Any], model: str) -> str:
    """STORE-4: ``sha256(model NUL canonical JSON of the row)`` in lowercase hex.

    Equal digests mean the same row embedded by the same model: nothing to write.
    """
    text = json.dumps(row, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    text = f"{model}\0{text}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def embedded_text(row: Mapping[str, Any]) -> str:
    """STORE-6: what the embedder sees for a row.

    The record's SIZE-8 embedded text (heading trail, blank line, text) when its strategy
    says its ``tokens`` count that text (RECORD-16's ``budget_includes_headings=true``: the
    budget bounded it), else its ``text`` (which begins with its ``prefix``, MD-11).
    """
    text: str = row["text"]
    if str(row["strategy"]).endswith(HEADINGS_MARK):
        return embedded(tuple(row["heading_path"]), text)
    return text


def _access(metadata: Mapping[str, Any]) -> tuple[str | None, list[str], bool]:
    """The tenant, labels and whether they could be read (CTX-13, TRUST-10)."""
    try:
        readable("metadata", metadata, None)
    except ArgumentTypeError:  # TRUST-10: a malformed label withholds, never reads as none
        return None, [], False
    tenant = metadata.get(TENANT_KEY)
    labels = metadata.get(LABELS_KEY) or []
    return tenant, sorted(set(labels)), True


def fields_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """STORE-3: the stored fields of a result's row (a chunk row: ``error`` null)."""
    metadata = row.get("metadata")
    if not isinstance(metadata, Mapping):  # TRUST-1: result_rows refused a null already
        raise ArgumentTypeError("row.metadata", "an object", metadata)
    tenant, labels, ok = _access(metadata)
    given = {
        **{name: row[name] for name in FIELDS if name in row},
        "record_id": row["id"],
        "heading_path": list(row["heading_path"]),
        "metadata": metadata_json(metadata),  # META-6's canonical text
        "tenant": tenant,
        "labels": labels,
        "labels_readable": ok,
    }
    return {name: given[name] for name in FIELDS}


def record_of(row: StoreRow) -> ChunkRecord:
    """The record a stored row holds, checked as RECORD-8 checks any record it reads."""
    fields = row.fields
    data: dict[str, Any] = {}
    for name in RECORD_FIELDS:
        if name == "key":
            data[name] = row.key
        elif name == "metadata":
            data[name] = metadata_from_json(fields["metadata"])
        else:
            data[name] = fields[_RENAMED.get(name, name)]
    return ChunkRecord.from_dict(data)
