"""Records for pack_records tests and goldens: a span of a source, the other fields filled in.

The golden file ``tests/golden/pack_records.json`` writes each record as the keyword
arguments of :func:`pack_record` (``doc``, ``index`` and any field to override), so a port
builds the same record by the same defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from chunkspec import ChunkRecord, hash_text
from chunkspec.records import Principal
from tests.goldens import number


def labelled(record: ChunkRecord, metadata: Mapping[str, Any]) -> ChunkRecord:
    """``record`` carrying ``metadata`` (CTX-13's ``tenant_id`` and ``acl_labels``)."""
    return dataclasses.replace(record, metadata=metadata)


def pack_record(doc_id: str, index: int, source: str, **fields: object) -> ChunkRecord:
    """A record of ``source[start:end]`` with the fields a test does not care about filled in."""
    start = int(fields.pop("start", 0))  # type: ignore[call-overload]
    end = int(fields.pop("end", len(source)))  # type: ignore[call-overload]
    prefix = str(fields.pop("prefix", ""))
    strategy = str(fields.pop("strategy", "window:max_tokens=8,overlap_tokens=2"))
    text = fields.pop("text", None)
    body = prefix + source[start:end] if text is None else str(text)
    values: dict[str, object] = {
        "id": f"{doc_id}:{index}",
        "doc_id": doc_id,
        "index": index,
        "text": body,
        "start": start,
        "end": end,
        "tokens": len(body.split()),
        "counter": "whitespace",
        "content_hash": hash_text(body),
        "kind": "window",
        "heading_path": (),
        "parent_id": None,
        "page_start": None,
        "page_end": None,
        "section": None,
        "prefix": prefix,
        "oversized": False,
        "title": doc_id.upper(),
        "source": f"{doc_id}.md",
        "strategy": strategy,
    }
    values.update(fields)
    return ChunkRecord(**values)  # type: ignore[arg-type]


def pack_call(data: dict[str, Any]) -> tuple[list[ChunkRecord], list[Any], Any, dict[str, Any]]:
    """The ``records, scores, budget`` and keyword arguments a golden case's input names."""
    records = []
    for spec in data["records"]:
        fields = dict(spec)
        doc, index = fields.pop("doc"), fields.pop("index")
        if "heading_path" in fields:
            fields["heading_path"] = tuple(fields["heading_path"])
        metadata = fields.pop("metadata", None)
        record = pack_record(doc, index, data["documents"].get(doc, ""), **fields)
        records.append(record if metadata is None else labelled(record, metadata))
    options: dict[str, Any] = {}
    if "min_score" in data:
        options["min_score"] = number(data["min_score"])
    for key in ("counter", "order", "titles", "expand", "trim"):
        if key in data:
            options[key] = data[key]
    if "principal" in data:
        given = data["principal"]
        options["principal"] = (
            None if given is None else Principal(given.get("labels", []), given.get("tenant"))
        )
    if "principal_raw" in data:  # not a Principal at all (CTX-15)
        options["principal"] = data["principal_raw"]
    return records, [number(s) for s in data["scores"]], data["budget"], options
