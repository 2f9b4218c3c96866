"""Records for pack_records tests and goldens: a span of a source, the other fields filled in.

The golden file ``tests/golden/pack_records.json`` writes each record as the keyword
arguments of :func:`pack_record` (``doc``, ``index`` and any field to override), so a port
builds the same record by the same defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from chunkspec import ChunkRecord
from chunkspec._conformance.packing._packing_ops import golden_record
from chunkspec.records import Principal
from tests.goldens import number


def labelled(record: ChunkRecord, metadata: Mapping[str, Any]) -> ChunkRecord:
    """``record`` carrying ``metadata`` (CTX-13's ``tenant_id`` and ``acl_labels``)."""
    return dataclasses.replace(record, metadata=metadata)


def pack_record(doc_id: str, index: int, source: str, /, **fields: object) -> ChunkRecord:
    """A record of ``source[start:end]`` with the fields a test does not care about filled in
    (the defaults of the kit's ``golden_record``, which ports read)."""
    values = golden_record(doc_id, index, source, fields)
    values["heading_path"] = tuple(values["heading_path"])
    if "metadata" not in fields:
        del values["metadata"]
    return ChunkRecord(**values)


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
