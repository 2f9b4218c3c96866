"""What a result's rows prove about themselves, one document at a time (TRUST-41, TRUST-45).

A result is read as a stream (one Parquet batch or one JSON Lines row at a time); for each
document only a small summary is kept: where its rows are, each row's key, id and digest,
the digest of all its rows, the digest of its metadata, and the first check it failed
(TRUST-41: each ``content_hash`` against its text, HASH-1; each ``key`` recomputed, KEY-1;
rows in index order, in one run of one part file; one metadata). So incremental ingest
holds no rows but those of the document it is writing (TRUST-45).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from .._records._changes import Entry, row_digest
from .._records._key import DocumentKeys, key_fingerprint
from ._part_files import iter_part

__all__ = ["DocumentRows", "Summaries", "canonical_digest", "rows_digest"]

#: TRUST-44: why a document's previous rows are not reused, when its rows say so.
TEXT_CHANGED = "text-changed"
KEY_CHANGED = "key-changed"
ROWS_CHANGED = "rows-changed"
METADATA_CHANGED = "rows-metadata-changed"


def canonical_digest(value: object) -> str:
    """SHA-256 (hex) of ``value``'s canonical JSON (sorted keys, no spaces, UTF-8 as is)."""
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _hash(text: str) -> str:
    """HASH-1's ``hash_text`` of a checked text (lone surrogates: no UTF-8, so no match)."""
    try:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    except UnicodeEncodeError:
        return ""


def rows_digest(entries: Iterable[Entry]) -> str:
    """TRUST-41: the digest of a document's rows, from their digests in index order."""
    return hashlib.sha256(b"".join(entry[2] for entry in entries)).hexdigest()


@dataclass(slots=True)
class DocumentRows:
    """One document's rows as a result holds them, without the rows (TRUST-45)."""

    part: int = -1  # the part file holding them (its number in the result's sorted list)
    offset: int = 0  # where the first one is (iter_part's offset)
    ordinal: int = -1  # the ordinal of the last one seen (a contiguity check)
    entries: list[Entry] = field(default_factory=list)
    chunks: int = 0
    metadata: str | None = None  # canonical_digest of the rows' metadata
    problem: str | None = None  # the first TRUST-41 check the rows fail
    occurrences: dict[tuple[tuple[str, ...], str], int] | None = None  # KEY-3, while read
    keys: dict[str, DocumentKeys] | None = None  # KEY-1 by fingerprint, while read
    indexes: list[int] | None = None  # this run's rows (an engine may write them unordered)

    def flag(self, problem: str) -> None:
        """Keep the first problem found."""
        if self.problem is None:
            self.problem = problem

    @property
    def digest(self) -> str:
        """The digest of the document's rows (TRUST-41)."""
        return rows_digest(self.entries)


class Summaries:
    """Summaries of a stream of rows, by doc_id in first-seen order (TRUST-41, TRUST-45).

    ``check`` runs TRUST-41's per-row checks (a previous result's rows); rows this run
    made are only summarised.
    """

    def __init__(self, *, check: bool) -> None:
        self.check = check
        self.documents: dict[str, DocumentRows] = {}
        self._current: DocumentRows | None = None
        self._fingerprints: dict[tuple[str, str], str] = {}
        self._metadata: tuple[object, str] = (object(), "")

    def add(
        self, row: Mapping[str, Any], part: int = -1, ordinal: int = 0, offset: int = 0
    ) -> None:
        """Summarise one row (its document's rows must come together and in index order,
        else the document is not provable: ``rows-changed``)."""
        doc_id = row["doc_id"]
        found = self.documents.get(doc_id)
        if found is None:
            if self._current is not None:  # done: its rows came together
                self._current.occurrences = self._current.keys = None
            found = DocumentRows(part, offset, ordinal - 1, occurrences={}, keys={})
            self.documents[doc_id] = found
            self._current = found
        elif found is not self._current or part != found.part or ordinal != found.ordinal + 1:
            found.flag(ROWS_CHANGED)  # not one run of one part file: cannot be read back
        found.ordinal = ordinal
        entry = self._entry(found, doc_id, row)
        found.entries.append(entry)
        if not self.check:
            index = row.get("index")
            found.indexes = found.indexes if found.indexes is not None else []
            found.indexes.append(index if isinstance(index, int) else -1)
        given = row.get("metadata")
        if given is self._metadata[0] or given == self._metadata[0]:
            metadata = self._metadata[1]  # a document's rows share one metadata
        else:
            metadata = canonical_digest(given)
            self._metadata = (given, metadata)
        if found.metadata is None:
            found.metadata = metadata
        elif found.metadata != metadata:
            found.flag(METADATA_CHANGED)

    def _entry(self, found: DocumentRows, doc_id: str, row: Mapping[str, Any]) -> Entry:
        """The row's change-set entry, after its TRUST-41 checks."""
        digest = row_digest(row)
        if row.get("error") is not None:
            if self.check and (found.entries or not isinstance(row["error"], str)):
                found.flag(ROWS_CHANGED)  # an error row is its document's only row (SCALE-3)
            return (None, row.get("id"), digest)
        if self.check:
            self._check(found, doc_id, row)
        found.chunks += 1
        key = row.get("key")
        return (key if isinstance(key, str) and key else None, row.get("id"), digest)

    def _check(self, found: DocumentRows, doc_id: str, row: Mapping[str, Any]) -> None:
        """TRUST-41: index in order, content_hash of its text (HASH-1), key (KEY-1)."""
        if found.entries and found.entries[0][0] is None:
            found.flag(ROWS_CHANGED)  # a chunk row beside an error row
        if (
            row.get("index") != len(found.entries)
            or row.get("id") != f"{doc_id}:{row.get('index')}"
        ):
            found.flag(ROWS_CHANGED)
        text, stated = row.get("text"), row.get("content_hash")
        if not isinstance(text, str) or not isinstance(stated, str) or _hash(text) != stated:
            found.flag(TEXT_CHANGED)
            return
        strategy, counter, path = row.get("strategy"), row.get("counter"), row.get("heading_path")
        if (
            not isinstance(strategy, str)
            or not isinstance(counter, str)
            or not isinstance(path, list)
            or not all(isinstance(title, str) for title in path)
            or found.occurrences is None
            or found.keys is None
        ):
            found.flag(KEY_CHANGED if found.occurrences is not None else ROWS_CHANGED)
            return
        group = (tuple(path), stated)
        occurrence = found.occurrences.get(group, 0)
        found.occurrences[group] = occurrence + 1
        fingerprint = self._fingerprints.get((strategy, counter))
        try:
            if fingerprint is None:
                fingerprint = key_fingerprint(strategy, counter)
                self._fingerprints[(strategy, counter)] = fingerprint
        except ValueError:
            found.flag(KEY_CHANGED)
            return
        keyer = found.keys.get(fingerprint)
        if keyer is None:
            keyer = found.keys[fingerprint] = DocumentKeys(fingerprint, doc_id)
        if row.get("key") != keyer.key(tuple(path), stated, occurrence):
            found.flag(KEY_CHANGED)

    def add_rows(self, rows: Iterable[Mapping[str, Any]]) -> DocumentRows:
        """Summarise one document's rows (this run's own, held in memory); return its summary."""
        found: DocumentRows | None = None
        for ordinal, row in enumerate(rows):
            self.add(row, -1, ordinal)
            found = self.documents[row["doc_id"]]
        assert found is not None
        found.occurrences = found.keys = None
        return found

    def read_part(self, path: Path, number: int, damaged: list[str] | None = None) -> None:
        """Summarise every row of one part file; a damaged row is skipped and named in
        ``damaged`` when given (TRUST-46), else a DamagedRow. OSError and pyarrow's errors
        escape, the rows before them summarised."""
        for ordinal, offset, row in iter_part(path, damaged):
            self.add(row, number, ordinal, offset)

    def close(self) -> None:
        """The last document's rows are all read; this run's rows in index order (INCR-9)."""
        if self._current is not None:
            self._current.occurrences = self._current.keys = None
        for found in self.documents.values():
            order = found.indexes
            if order is not None and any(a > b for a, b in pairwise(order)):
                pairs = sorted(zip(order, found.entries, strict=True), key=lambda pair: pair[0])
                found.entries = [entry for _, entry in pairs]
            found.indexes = None
