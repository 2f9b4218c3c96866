"""Hostile records: how a records, sidecar or corpus author can try to lose or forge access
labels before the packer's check (TRUST-1 to TRUST-4), made in process.

``hostile_lines()`` gives record lines and what every reader must make of each: a regular
expression the one-line message (after ``FILE:LINE: ``) must match, or None for a line read
with exactly the labels it states. ``hostile_front_matter()`` gives Markdown documents and
the access key each must be refused for (None: read, its labels kept).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from chunkspec import chunk_document, document_from_text

__all__ = ["LABELS", "SOURCE", "hostile_front_matter", "hostile_lines", "labelled_record"]

#: The text every hostile line's record was chunked from.
SOURCE = "# Pay\n\nSalaries are paid monthly.\n"

#: The labels a hostile line tries to lose.
LABELS: dict[str, Any] = {"acl_labels": ["hr"], "tenant_id": "t1"}

_NULL = r"record\.metadata must be a mapping of str keys to JSON values, got NoneType None"


@cache
def _record() -> dict[str, Any]:
    document = document_from_text(SOURCE, doc_id="pay", metadata=LABELS)
    return chunk_document(document, "heading")[0].to_dict()


def labelled_record() -> dict[str, Any]:
    """The record every hostile line starts from: labelled hr, tenant t1."""
    return dict(_record())


def _line(metadata: str | None, extra: str = "") -> str:
    """The record's line with ``metadata`` as raw JSON text (None: no key), then ``extra``."""
    fields = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in _record().items() if k != "metadata"]
    if metadata is not None:
        fields.insert(len(fields) - 1, f'"metadata": {metadata}')
    return "{" + ", ".join(fields) + extra + "}"


def hostile_lines() -> dict[str, tuple[str, str | None]]:
    """Every hostile record line: ``name -> (line, message pattern or None)``."""
    labels = json.dumps(LABELS)
    error_row = {**dict.fromkeys(_record()), "doc_id": "pay", "source": "pay.md"}
    return {
        # TRUST-1: null is never "no labels".
        "null-metadata": (_line("null"), _NULL),
        # TRUST-2: a repeated key never reads last-wins, at any depth, escapes read.
        "metadata-appended-empty": (_line(labels, ', "metadata": {}'), r"repeated key 'metadata'"),
        "metadata-appended-null": (_line(labels, ', "metadata": null'), r"repeated key 'metadata'"),
        "labels-repeated-inside": (
            _line('{"acl_labels": ["hr"], "acl_labels": [], "tenant_id": "t1"}'),
            r"repeated key 'acl_labels'",
        ),
        "tenant-repeated-inside": (
            _line('{"acl_labels": ["hr"], "tenant_id": "t1", "tenant_id": null}'),
            r"repeated key 'tenant_id'",
        ),
        "labels-repeated-escaped": (
            _line('{"acl_labels": ["hr"], "acl\\u005flabels": [], "tenant_id": "t1"}'),
            r"repeated key 'acl_labels'",
        ),
        "repeated-deep": (
            _line('{"acl_labels": ["hr"], "x": [[{"y": {"z": 1, "z": 2}}]]}'),
            r"repeated key 'z'",
        ),
        "doc-id-repeated": (_line(labels, ', "doc_id": "other"'), r"repeated key 'doc_id'"),
        # Readable as stated: the labels stay; an error row (SCALE-3) is skipped (CLI-15).
        "labelled": (_line(labels), None),
        "error-row-null-metadata": (
            json.dumps({**error_row, "metadata": None, "error": "pay.md: no text to chunk"}),
            None,
        ),
    }


def hostile_front_matter() -> dict[str, tuple[str, str | None]]:
    """Every hostile front matter: ``file name -> (text, the key it is refused for or None)``."""
    body = "# Pay\n\nSalaries are paid monthly.\n"
    return {
        "block-list.md": ("---\nacl_labels:\n  - hr\n---\n" + body, "acl_labels"),
        "flow-list.md": ("---\nacl_labels: [hr]\n---\n" + body, "acl_labels"),
        "quoted-key.md": ('---\n"acl_labels": ["hr"]\n---\n' + body, "acl_labels"),
        "escaped-key.md": ('---\n"acl\\u005flabels": [hr]\n---\n' + body, "acl_labels"),
        "anchored-key.md": ("---\n&a acl_labels: [hr]\n---\n" + body, "acl_labels"),
        "flow-mapping.md": ("---\n{acl_labels: [hr]}\n---\n" + body, "acl_labels"),
        "toml-array.md": ('+++\nacl_labels = ["hr"]\n+++\n' + body, "acl_labels"),
        "toml-table.md": ('+++\n[acl_labels]\nread = ["hr"]\n+++\n' + body, "acl_labels"),
        "crlf-block-list.md": ("---\r\nacl_labels:\r\n  - hr\r\n---\r\n" + body, "acl_labels"),
        "tenant-nested.md": ("---\ntenant_id:\n  id: acme\n---\n" + body, "tenant_id"),
        "tenant-yaml-bool.md": ("---\ntenant_id: off\n---\n" + body, "tenant_id"),
        "tenant-date.md": ("---\ntenant_id: 2024-01-01\n---\n" + body, "tenant_id"),
        "tenant-plain.md": ("---\ntenant_id: acme\n---\n" + body, None),
        "no-front-matter.md": (body, None),
    }
