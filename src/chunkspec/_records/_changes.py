"""The change set between two results: per document and per chunk key (INCR-6..INCR-8).

Pure Python over output rows (SCALE-2): ``chunkspec ingest`` writes the change set of each
run beside its part files, and ``chunkspec diff OLD NEW`` computes it between any two
results. A vector store applies it: delete ``removed`` keys, embed and add ``added`` ones,
update the payload of ``updated`` ones (same key, so same text: no new embedding), keep
``unchanged`` ones.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

__all__ = [
    "CHANGE_FIELDS",
    "CHUNK_CHANGES",
    "DOCUMENT_CHANGES",
    "Entry",
    "apply_changes",
    "change_rows",
    "change_summary",
    "document_changes",
    "entries_of",
    "row_digest",
]

#: The columns of a change-set row, in order (INCR-6); ``reason`` is TRUST-44's.
CHANGE_FIELDS = ("scope", "change", "doc_id", "key", "id", "reason")

#: INCR-6: what can happen to a document between two results.
DOCUMENT_CHANGES = ("added", "changed", "removed", "unchanged")

#: INCR-7: what can happen to a chunk key between two results.
CHUNK_CHANGES = ("added", "removed", "updated", "unchanged")

Rows = Sequence[Mapping[str, Any]]

#: One row of a document as the change set needs it: its key (None on an error row), its
#: id, and the SHA-256 of its canonical JSON (every column), in index order (TRUST-45).
Entry = tuple[str | None, str | None, bytes]


def row_digest(row: Mapping[str, Any]) -> bytes:
    """The SHA-256 of ``row``'s canonical JSON: sorted keys, no spaces, UTF-8 as is.

    Two rows have equal digests exactly when every column is equal (INCR-7), so the change
    set and TRUST-41's proof compare digests instead of holding rows.
    """
    text = json.dumps(row, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


def entries_of(rows: Rows) -> list[Entry]:
    """The change-set entries of one document's rows (error rows have no key, SCALE-3)."""
    return [
        (
            row.get("key") or None if row.get("error") is None else None,
            row.get("id"),
            row_digest(row),
        )
        for row in rows
    ]


def _row(
    scope: str,
    change: str,
    doc_id: str,
    key: str | None,
    chunk_id: str | None,
    reason: str | None = None,
) -> dict[str, Any]:
    """One change-set row."""
    return {
        "scope": scope,
        "change": change,
        "doc_id": doc_id,
        "key": key,
        "id": chunk_id,
        "reason": reason,
    }


def _keyed(entries: Iterable[Entry]) -> dict[str, Entry]:
    """The chunk entries of one document by key; error rows have none (SCALE-3)."""
    return {entry[0]: entry for entry in entries if entry[0]}


def document_changes(
    doc_id: str,
    old: Sequence[Entry] | None,
    new: Sequence[Entry] | None,
    reason: str | None = None,
) -> Iterator[dict[str, Any]]:
    """INCR-6, INCR-7: the change-set rows of one document, from its entries in the old and
    the new result (None: not there); ``reason`` goes on the document's row (TRUST-44)."""
    if new is None:
        if old is None:
            return
        yield _row("document", "removed", doc_id, None, None, reason)
        for key, (_, chunk_id, _) in _keyed(old).items():
            yield _row("chunk", "removed", doc_id, key, chunk_id)
        return
    if old is None:
        yield _row("document", "added", doc_id, None, None, reason)
        for key, (_, chunk_id, _) in _keyed(new).items():
            yield _row("chunk", "added", doc_id, key, chunk_id)
        return
    same = list(old) == list(new)
    yield _row("document", "unchanged" if same else "changed", doc_id, None, None, reason)
    before, after = _keyed(old), _keyed(new)
    for key, (_, chunk_id, digest) in after.items():
        if key not in before:
            yield _row("chunk", "added", doc_id, key, chunk_id)
        elif before[key][2] == digest:
            yield _row("chunk", "unchanged", doc_id, key, chunk_id)
        else:
            yield _row("chunk", "updated", doc_id, key, chunk_id)
    for key, (_, chunk_id, _) in before.items():
        if key not in after:
            yield _row("chunk", "removed", doc_id, key, chunk_id)


def change_rows(old: Mapping[str, Rows], new: Mapping[str, Rows]) -> Iterator[dict[str, Any]]:
    """INCR-6..INCR-8: the change set from ``old`` to ``new`` (doc_id -> its rows).

    Documents of ``new`` in its order, then the documents only ``old`` holds, in its order;
    each document's row comes before its chunks' rows: added, unchanged and updated keys in
    the new order, then removed keys in the old order. ``reason`` is null on every row:
    only ``ingest`` knows why it chunked a document again (TRUST-44).
    """
    for doc_id, rows in new.items():
        before = old.get(doc_id)
        yield from document_changes(
            doc_id, None if before is None else entries_of(before), entries_of(rows)
        )
    for doc_id, rows in old.items():
        if doc_id not in new:
            yield from document_changes(doc_id, entries_of(rows), None)


def change_summary(changes: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Count the change set's rows: ``{"documents": {...}, "chunks": {...}}``, every state."""
    counts = {
        "documents": dict.fromkeys(DOCUMENT_CHANGES, 0),
        "chunks": dict.fromkeys(CHUNK_CHANGES, 0),
    }
    for change in changes:
        scope = "documents" if change["scope"] == "document" else "chunks"
        counts[scope][change["change"]] += 1
    return counts


def apply_changes(
    old: Mapping[str, Rows],
    changes: Sequence[Mapping[str, Any]],
    new_rows: Mapping[str, Mapping[str, Any]],
) -> dict[str, dict[str, Any]]:
    """INCR-8's model: the chunks by key after applying ``changes`` to ``old``.

    ``new_rows`` gives the row of each ``added`` or ``updated`` key (what a vector store
    reads from the new result); the rows of ``unchanged`` keys are the old ones.
    """
    store = {
        row["key"]: dict(row)
        for rows in old.values()
        for row in rows
        if row.get("error") is None and row.get("key")
    }
    for change in changes:
        if change["scope"] != "chunk":
            continue
        key = change["key"]
        if change["change"] == "removed":
            del store[key]
        elif change["change"] in ("added", "updated"):
            store[key] = dict(new_rows[key])
    return store
