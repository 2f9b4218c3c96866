"""One chunk record as its JSON Lines line, written field by field (CLI-2, RECORD-1)."""

from __future__ import annotations

from json.encoder import encode_basestring

from .._core._metadata import thaw
from .._records._record import ChunkRecord
from ._io import json_line, line_breaks_escaped

__all__ = ["record_line"]


def record_line(record: ChunkRecord) -> str:
    """Return ``json_line(record.to_dict())``, built without the dict and the encoder's walk.

    The fields are RECORD-1's in order, with ``json.dumps``' separators; every string goes
    through the encoder's own string escaping (``encode_basestring``, the C function
    ``json.dumps(..., ensure_ascii=False)`` uses), ints are ``str(int)``, and the
    metadata, any JSON value, through :func:`json_line`'s encoder. ``kind`` (one of
    RECORD-4's) and ``key`` (64 hex digits, KEY-4) are checked by every record's
    constructor and need no escaping. A test checks the line against
    ``json_line(record.to_dict())`` on records of every field shape.
    """
    s = encode_basestring
    metadata = record.metadata
    parent, section = record.parent_id, record.section
    first, last = record.page_start, record.page_end
    line = (
        f'{{"id": {s(record.id)}, "doc_id": {s(record.doc_id)}, "index": {record.index}, '
        f'"text": {s(record.text)}, "start": {record.start}, "end": {record.end}, '
        f'"tokens": {record.tokens}, "counter": {s(record.counter)}, '
        f'"content_hash": {s(record.content_hash)}, "kind": "{record.kind}", '
        f'"heading_path": [{", ".join(map(s, record.heading_path))}], '
        f'"parent_id": {"null" if parent is None else s(parent)}, '
        f'"page_start": {"null" if first is None else first}, '
        f'"page_end": {"null" if last is None else last}, '
        f'"section": {"null" if section is None else s(section)}, '
        f'"prefix": {s(record.prefix)}, "oversized": {"true" if record.oversized else "false"}, '
        f'"title": {s(record.title)}, "source": {s(record.source)}, '
        f'"strategy": {s(record.strategy)}, '
        f'"metadata": {json_line(thaw(metadata))[:-1] if metadata else "{}"}, '
        f'"key": "{record.key}"}}'
    )
    return line_breaks_escaped(line) + "\n"
