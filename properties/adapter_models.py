"""Literal models of the framework adapters' rules (ADAPT-2..ADAPT-5), for the properties."""

from __future__ import annotations

import hashlib
from typing import Any

from chunkspec import ChunkRecord
from chunkspec.records import RECORD_FIELDS


def model_doc_id(text: str, metadata: dict[str, Any], framework_id: str | None) -> str:
    """ADAPT-2 as written: metadata's doc_id, else the framework's id, else doc-<16 hex>
    of the text, or of the source and the text when there is a source."""
    if metadata.get("doc_id") is not None:
        return str(metadata["doc_id"])
    if framework_id is not None:
        return framework_id
    digest = _sha256(text)
    if metadata.get("source"):  # with a source: sha256(sha256(source) + sha256(text))
        digest = _sha256(_sha256(metadata["source"]) + digest)
    return "doc-" + digest[:16]


def _sha256(text: str) -> str:
    """The SHA-256 of ``text``'s UTF-8 bytes, as hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: ADAPT-6: the framework keys that are not document metadata (ADAPT-2's and ADAPT-3's).
_NOT_METADATA = {"doc_id", "source", "title", *RECORD_FIELDS}
_NOT_METADATA |= {"start_index", "source_id", "split_id", "split_idx_start", "page_number"}


def as_json(value: Any) -> Any:
    """``value`` with tuples as lists and read-only mappings as dicts (JSON's forms)."""
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    if hasattr(value, "items"):
        return {k: as_json(v) for k, v in value.items()}
    return value


def model_document_metadata(caller: dict[str, Any]) -> dict[str, Any]:
    """ADAPT-6 as written: the caller's entries but ADAPT-2's facts and record-field names
    (the model draws JSON values only)."""
    return {k: v for k, v in caller.items() if k not in _NOT_METADATA}


def model_metadata(record: ChunkRecord, caller: dict[str, Any]) -> dict[str, Any]:
    """ADAPT-3 and ADAPT-6 as written: the caller's keys, then the record's metadata keys
    the caller lacks, then each record field but text (record wins; metadata a dict)."""
    out = dict(caller)
    for key, value in record.metadata.items():
        if key not in out:
            out[key] = as_json(value)
    for name in RECORD_FIELDS:
        if name == "text":
            continue
        out[name] = as_json(getattr(record, name))
    return out


def model_links(records: list[ChunkRecord]) -> dict[str, dict[str, Any]]:
    """ADAPT-5 as written: for each record's key (the node id, ADAPT-8), the keys of its
    parent, children, previous and next."""
    links: dict[str, dict[str, Any]] = {}
    key_of = {r.id: r.key for r in records}
    for k, record in enumerate(records):
        links[record.key] = {
            "parent": key_of.get(record.parent_id) if record.parent_id is not None else None,
            "children": [r.key for r in records if r.parent_id == record.id],
            "previous": records[k - 1].key if k > 0 else None,
            "next": records[k + 1].key if k + 1 < len(records) else None,
        }
    return links
