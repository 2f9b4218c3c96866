"""The change set between two results: per document and per chunk key (INCR-6..INCR-8).

Pure Python over output rows (SCALE-2): ``chunkspec ingest`` writes the change set of each
run beside its part files, and ``chunkspec diff OLD NEW`` computes it between any two
results. A vector store applies it: delete ``removed`` keys, embed and add ``added`` ones,
update the payload of ``updated`` ones (same key, so same text: no new embedding), keep
``unchanged`` ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = [
    "CHANGE_FIELDS",
    "CHUNK_CHANGES",
    "DOCUMENT_CHANGES",
    "apply_changes",
    "change_rows",
    "change_summary",
]

#: The columns of a change-set row, in order (INCR-6).
CHANGE_FIELDS = ("scope", "change", "doc_id", "key", "id")

#: INCR-6: what can happen to a document between two results.
DOCUMENT_CHANGES = ("added", "changed", "removed", "unchanged")

#: INCR-7: what can happen to a chunk key between two results.
CHUNK_CHANGES = ("added", "removed", "updated", "unchanged")

Rows = Sequence[Mapping[str, Any]]


def _row(
    scope: str, change: str, doc_id: str, key: str | None, chunk_id: str | None
) -> dict[str, Any]:
    """One change-set row."""
    return {"scope": scope, "change": change, "doc_id": doc_id, "key": key, "id": chunk_id}


def _keyed(rows: Rows) -> dict[str, Mapping[str, Any]]:
    """The chunk rows of one document by key; error rows have none (SCALE-3)."""
    return {row["key"]: row for row in rows if row.get("error") is None and row.get("key")}


def _document(doc_id: str, old: Rows, new: Rows) -> Iterator[dict[str, Any]]:
    """INCR-6, INCR-7: the rows of one document present in both results."""
    same = list(old) == list(new)  # reused rows are the same objects: quick
    yield _row("document", "unchanged" if same else "changed", doc_id, None, None)
    if same:  # every key unchanged, in order
        for row in new:
            if row.get("error") is None and row.get("key"):
                yield _row("chunk", "unchanged", doc_id, row["key"], row["id"])
        return
    before, after = _keyed(old), _keyed(new)
    for key, row in after.items():
        if key not in before:
            yield _row("chunk", "added", doc_id, key, row["id"])
        elif dict(before[key]) == dict(row):
            yield _row("chunk", "unchanged", doc_id, key, row["id"])
        else:
            yield _row("chunk", "updated", doc_id, key, row["id"])
    for key, row in before.items():
        if key not in after:
            yield _row("chunk", "removed", doc_id, key, row["id"])


def change_rows(old: Mapping[str, Rows], new: Mapping[str, Rows]) -> Iterator[dict[str, Any]]:
    """INCR-6..INCR-8: the change set from ``old`` to ``new`` (doc_id -> its rows).

    Documents of ``new`` in its order, then the documents only ``old`` holds, in its order;
    each document's row comes before its chunks' rows: added, unchanged and updated keys in
    the new order, then removed keys in the old order.
    """
    for doc_id, rows in new.items():
        if doc_id in old:
            yield from _document(doc_id, old[doc_id], rows)
            continue
        yield _row("document", "added", doc_id, None, None)
        for key, row in _keyed(rows).items():
            yield _row("chunk", "added", doc_id, key, row["id"])
    for doc_id, rows in old.items():
        if doc_id not in new:
            yield _row("document", "removed", doc_id, None, None)
            for key, row in _keyed(rows).items():
                yield _row("chunk", "removed", doc_id, key, row["id"])


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
    store = {key: dict(row) for rows in old.values() for key, row in _keyed(rows).items()}
    for change in changes:
        if change["scope"] != "chunk":
            continue
        key = change["key"]
        if change["change"] == "removed":
            del store[key]
        elif change["change"] in ("added", "updated"):
            store[key] = dict(new_rows[key])
    return store
