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


def model_metadata(record: ChunkRecord, caller: dict[str, Any]) -> dict[str, Any]:
    """ADAPT-3 as written: the caller's keys, then each record field but text, record wins."""
    out = dict(caller)
    for name in RECORD_FIELDS:
        if name == "text":
            continue
        value = getattr(record, name)
        out[name] = list(value) if name == "heading_path" else value
    return out


def model_links(records: list[ChunkRecord]) -> dict[str, dict[str, Any]]:
    """ADAPT-5 as written: for each record id, its parent, children, previous and next."""
    links: dict[str, dict[str, Any]] = {}
    ids = {r.id for r in records}
    for k, record in enumerate(records):
        links[record.id] = {
            "parent": record.parent_id if record.parent_id in ids else None,
            "children": [r.id for r in records if r.parent_id == record.id],
            "previous": records[k - 1].id if k > 0 else None,
            "next": records[k + 1].id if k + 1 < len(records) else None,
        }
    return links
