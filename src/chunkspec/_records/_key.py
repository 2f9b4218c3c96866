"""Stable chunk keys: a chunk named by what it is, not where it is (KEY-1..KEY-4).

``id`` (``doc_id:index``) moves when a paragraph is inserted above a chunk; ``key`` does
not: it is the SHA-256 of the chunking fingerprint, the document, the chunk's section and
content, and how many equal chunks of that section came before it (docs/spec/incremental.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from .._core._validate import require_text

__all__ = [
    "KEY_SCHEME",
    "DocumentKeys",
    "chunk_key",
    "key_fingerprint",
    "keyed_rows",
    "occurrences",
]

#: KEY-2: the key scheme's version; changed whenever chunk output or the key formula
#: changes, so keys of two chunkspec versions that chunk differently never meet.
KEY_SCHEME = "chunkspec-key/1"


def _digest(text: str) -> str:
    """SHA-256 of ``text``'s UTF-8 bytes, 64 lowercase hex digits (HASH-1)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def key_fingerprint(strategy: str, counter: str) -> str:
    """KEY-2: the digests of the scheme, the strategy string (RECORD-6) and the counter name."""
    require_text("strategy", strategy)
    require_text("counter", counter)
    return _digest(KEY_SCHEME) + _digest(strategy) + _digest(counter)


def chunk_key(
    fingerprint: str,
    doc_id: str,
    heading_path: Sequence[str],
    content_hash: str,
    occurrence: int,
) -> str:
    """KEY-1: ``hash_text`` of the concatenated digests of the key's parts.

    ``fingerprint`` is :func:`key_fingerprint`; ``occurrence`` counts the earlier chunks of
    the document with the same ``heading_path`` and ``content_hash`` (KEY-3).
    """
    path = "".join(_digest(require_text("heading_path", heading)) for heading in heading_path)
    parts = (
        fingerprint,
        _digest(require_text("doc_id", doc_id)),
        _digest(path),
        content_hash,
        _digest(str(occurrence)),
    )
    return _digest("".join(parts))


class DocumentKeys:
    """:func:`chunk_key` for the records of one document, its parts' digests computed once.

    The record loop's keyer (RECORD-20): the fingerprint's and the document's digests are
    the same for every record, a heading path's for every record of its section, and most
    occurrences are 0; only the last digest is per record. Its parts come from a checked
    document, so they are not checked again. ``DocumentKeys(f, d).key(p, h, n) ==
    chunk_key(f, d, p, h, n)``.
    """

    __slots__ = ("head", "headings", "occurrences", "paths")

    def __init__(self, fingerprint: str, doc_id: str) -> None:
        self.head = fingerprint + _digest(doc_id)
        self.paths: dict[tuple[str, ...], str] = {}
        self.headings: dict[str, str] = {}  # a title's digest, shared by the paths under it
        self.occurrences: dict[int, str] = {}

    def key(self, heading_path: tuple[str, ...], content_hash: str, occurrence: int) -> str:
        """KEY-1's key of one record of the document."""
        path = self.paths.get(heading_path)
        if path is None:
            path = self.paths[heading_path] = _digest("".join(map(self.heading, heading_path)))
        tail = self.occurrences.get(occurrence)
        if tail is None:
            tail = self.occurrences[occurrence] = _digest(str(occurrence))
        return _digest(self.head + path + content_hash + tail)

    def heading(self, title: str) -> str:
        """The digest of one heading of a path."""
        digest = self.headings.get(title)
        if digest is None:
            digest = self.headings[title] = _digest(title)
        return digest


def occurrences(sections: Sequence[tuple[tuple[str, ...], str]]) -> list[int]:
    """KEY-3: for each (heading_path, content_hash) in order, how many equal ones came before."""
    seen: dict[tuple[tuple[str, ...], str], int] = {}
    counts = []
    for item in sections:
        count = seen.get(item, 0)
        counts.append(count)
        seen[item] = count + 1
    return counts


def keyed_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Set KEY-1's ``key`` on one document's records given as JSON objects, in order (KEY-3).

    The conformance kit's record models use it, so their records carry the key a port must
    answer with (KEY-8). Returns ``rows``.
    """
    seen: dict[tuple[tuple[str, ...], str], int] = {}
    for row in rows:
        path = tuple(row["heading_path"])
        digest = row["content_hash"]
        occurrence = seen.get((path, digest), 0)
        seen[(path, digest)] = occurrence + 1
        fingerprint = key_fingerprint(row["strategy"], row["counter"])
        row["key"] = chunk_key(fingerprint, row["doc_id"], path, digest, occurrence)
    return rows
