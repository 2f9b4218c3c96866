"""Incremental ``ingest``: reuse the previous rows of what is provably the same (INCR-1..INCR-5,
TRUST-40..TRUST-46).

The manifest of every run holds its fingerprint (the job's options, the key scheme, the
chunkspec version, the parser and PDF library versions, the contents of an encoding or
tokenizer file) and, per input, its content hash, its sidecar entry's hash, its rows'
count and digest and its metadata's digest. A later run into the same ``--out`` with the
same fingerprint reads the previous rows back as a stream, checks each document's rows
against that entry (TRUST-41) and re-chunks every input that is not provably the same,
saying why in the change set (TRUST-44). The change set is written as documents complete
(TRUST-45): ``_changes/changes.jsonl`` and ``_changes/changes.parquet`` (a folder whose
name Parquet readers skip).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata as distributions
from pathlib import Path
from typing import IO, Any

from .._core._collector import collector_paused
from .._core._metadata import metadata_json
from .._records._changes import (
    CHANGE_FIELDS,
    CHUNK_CHANGES,
    DOCUMENT_CHANGES,
    Entry,
    document_changes,
    entries_of,
)
from .._records._job import ChunkJob
from .._records._key import KEY_SCHEME
from .._records._record_files import json_line
from .._text._documents import fallback_encoding
from .._text._regular_files import NotRegularFile, OverCap, read_regular
from .._version import __version__
from ._file_io import IngestError
from ._part_files import ReadBack, part_files, read_manifest
from ._reuse_checks import DocumentRows, Summaries, canonical_digest
from ._walk import Input, shown

__all__ = [
    "CHANGES",
    "ChangeSet",
    "Previous",
    "content_hash",
    "fingerprint_data",
    "manifest_entry",
    "previous_result",
    "read_encoding",
    "refuse_dropped_sidecar",
    "run_fingerprint",
    "sidecar_hash",
    "summarise",
]

#: INCR-6: the change set's folder in the output folder (a name Parquet readers skip).
CHANGES = "_changes"

#: TRUST-42: the libraries whose versions decide what a document's rows are.
LIBRARIES = ("markdown-it-py", "mdit-py-plugins", "markdown-it-pyrs", "pypdf", "turbohtml")

#: TRUST-44: the reasons a document is chunked again that say its rows in --out were
#: not the rows its manifest lists (a damaged or edited output folder).
DAMAGE = ("rows-missing", "rows-changed", "text-changed", "key-changed", "rows-metadata-changed")


def _library(name: str) -> str | None:
    """The installed version of ``name``, or None."""
    try:
        return distributions.version(name)
    except distributions.PackageNotFoundError:
        return None


def _file_digest(path: str | None) -> str | None:
    """SHA-256 of a file's bytes (None: no file; ``unreadable``: its counter failed first)."""
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def run_fingerprint(job: ChunkJob, output_format: str) -> str | None:
    """INCR-2, TRUST-42: the SHA-256 of :func:`fingerprint_data`; None with a PDF password.

    A password is never written (CLI-18), not even hashed, so a run that has one cannot
    prove its rows were read with the same one: it is always a full run.
    """
    if job.pdf_password is not None:
        return None
    return canonical_digest(fingerprint_data(job, output_format))


def fingerprint_data(job: ChunkJob, output_format: str) -> dict[str, Any]:
    """INCR-2, TRUST-42: everything that decides a run's rows, as JSON values.

    Besides the options: the versions of the Markdown parser and the PDF library, and the
    contents (a digest) of the encoding file and of a ``huggingface:PATH`` tokenizer file,
    since a file edited under the same name counts other tokens.
    """
    counter = job.options.counter
    tokenizer = None
    if isinstance(counter, str) and counter.startswith("huggingface:"):
        tokenizer = counter.partition(":")[2]
    return {
        "chunkspec": __version__,
        "key_scheme": KEY_SCHEME,
        "job": {**job.to_dict(), "pdf_password": None},
        "format": output_format,
        "libraries": {name: _library(name) for name in LIBRARIES},
        "files": {
            "encoding_file": _file_digest(job.options.encoding_file),
            "tokenizer": _file_digest(tokenizer),
        },
    }


def content_hash(item: Input, max_bytes: int | None) -> str | None:
    """INCR-1: SHA-256 of the input's bytes; None when it is not a regular file (a pipe is
    read once, by its worker), cannot be read or is over the cap."""
    if item.problem is not None:
        return None
    try:
        if not stat.S_ISREG(os.stat(item.path).st_mode):
            return None  # never opened here: opening a FIFO is seen by its writer
        # TRUST-31, TRUST-32: opened without blocking, checked on the open file, read to the cap
        data = read_regular(item.path, cap=max_bytes)
    except (OSError, NotRegularFile, OverCap):
        return None
    return hashlib.sha256(data).hexdigest()


def read_encoding(item: Input, job: ChunkJob) -> str | None:
    """SOURCE-9: the job's fallback encoding when the input's reader decodes it with that
    (its bytes are not UTF-8 text), else None; read as :func:`content_hash` reads."""
    if job.encoding is None or item.problem is not None:
        return None
    try:
        if not stat.S_ISREG(os.stat(item.path).st_mode):
            return None  # a FIFO is read once, by its worker
        data = read_regular(item.path, cap=job.max_bytes)
    except (OSError, NotRegularFile, OverCap):
        return None
    return fallback_encoding(data, item.source, job.encoding, job.input_format, job.language)


def sidecar_hash(metadata: Mapping[str, Any] | None) -> str | None:
    """INCR-1: SHA-256 of the input's ``--metadata`` entry's canonical JSON (META-6), None
    without one (META-7: the entry is part of its rows)."""
    if metadata is None:
        return None
    return hashlib.sha256(metadata_json(metadata).encode("utf-8")).hexdigest()


def refuse_dropped_sidecar(out: str, given: bool, dropped: bool) -> None:
    """TRUST-43: a run without ``--metadata`` into a result made with one is refused,
    unless ``--no-metadata`` says the sidecar is dropped on purpose."""
    if dropped and given:
        raise IngestError("--no-metadata and --metadata contradict each other; give one")
    manifest = read_manifest(Path(out)) if Path(out).is_dir() else None
    used = manifest is not None and manifest.get("metadata_sidecar") is True
    if used and not given and not dropped:
        raise IngestError(
            f"--out {shown(out)}: the previous run used --metadata; give it again, "
            "or --no-metadata to drop its metadata on purpose"
        )


#: What the checks of a manifest entry need (TRUST-41); an entry without them is an older
#: chunkspec's: not provable.
_PROOF = ("rows", "records", "rows_hash", "metadata_hash")


@dataclass
class Previous:
    """The result already in ``--out``, as summaries of its documents (TRUST-45).

    ``documents`` is the change set's old side; ``listed`` the previous manifest's inputs
    by doc_id when its rows may be reused; ``why`` the reason no row is reused, if one.
    """

    out: str = ""
    parts: list[Path] = field(default_factory=list)
    documents: dict[str, DocumentRows] = field(default_factory=dict)
    listed: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    why: str | None = "new"
    reader: ReadBack = field(default_factory=ReadBack)
    identities: list[tuple[int, ...] | None] = field(default_factory=list)

    def reason(self, item: Input, digest: str | None, given: str | None) -> str | None:
        """TRUST-41, TRUST-44: why ``item`` must be chunked again; None: its rows are reused."""
        if self.why is not None:
            return self.why
        entry = self.listed.get(item.doc_id)
        if entry is None:
            return "new"
        if entry.get("source") != item.source:
            return "source-changed"
        if digest is None:
            return "not-provable"
        if entry.get("content_hash") != digest:
            return "content-changed"
        if entry.get("sidecar_hash") != given:
            return "metadata-changed"
        if any(entry.get(name) is None for name in _PROOF):
            return "not-provable"
        found = self.documents.get(item.doc_id)
        if found is None or len(found.entries) < entry["rows"]:
            return "rows-missing"
        if found.problem is not None:
            return found.problem
        if len(found.entries) != entry["rows"] or found.chunks != entry["records"]:
            return "rows-changed"
        if found.metadata != entry["metadata_hash"]:
            return "rows-metadata-changed"
        if found.digest != entry["rows_hash"]:
            return "rows-changed"
        return None

    def load(self, doc_id: str) -> list[dict[str, Any]]:
        """The previous rows of a reused document, read back (TRUST-41): when their part file
        is not the one the checks read (another inode, size, mtime or ctime, taken after
        reading), the rows must give the checked digests again."""
        found = self.documents[doc_id]
        path = self.parts[found.part]
        try:
            rows = self.reader.rows(path, found.offset, len(found.entries))
            now = _identity(path)
            same = now is not None and now == self.identities[found.part]
            same = same or entries_of(rows) == found.entries
        except Exception:  # changed under us: any error means the same
            same = False
        if not same:
            raise IngestError(
                f"--out {shown(self.out)}: changed while this run read it ({doc_id}); run again"
            )
        return rows


def _identity(path: Path) -> tuple[int, ...] | None:
    """A file's inode, size, mtime and ctime: a write changes the ctime (None: gone)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)


def previous_result(out: str, fingerprint: str | None, say: Callable[[str], None]) -> Previous:
    """INCR-2, TRUST-41, TRUST-46: read the previous result in ``out`` as summaries; ``say``
    why nothing of it is reused, when nothing is."""
    folder = Path(out)
    manifest = read_manifest(folder) if folder.is_dir() else None
    if manifest is None:
        return Previous(out)
    previous = Previous(out, part_files(folder))
    summaries = Summaries(check=True)
    damaged: list[str] = []
    with collector_paused():  # many small objects, none cyclic
        for number, path in enumerate(previous.parts):
            previous.identities.append(_identity(path))  # before the checks read it
            try:
                summaries.read_part(path, number, damaged)  # TRUST-46: damaged rows skipped
            except Exception as error:  # OSError, pyarrow's own errors: the rest unread
                damaged.append(f"{path.name}: cannot read: {error}")
        summaries.close()
    damage = damaged[0] if damaged else None
    previous.documents = summaries.documents
    listed = manifest.get("inputs")
    if damage is not None:
        say(f"full run: the previous result is damaged ({damage}); no row of it is reused")
        previous.why = "previous-damaged"
    elif fingerprint is None:
        say("full run: --pdf-password is never recorded, so no row is reused")
        previous.why = "not-provable"
    elif manifest.get("fingerprint") != fingerprint or not isinstance(listed, list):
        say("full run: the options differ from the previous result's (fingerprint changed)")
        previous.why = "options-changed"
    else:
        previous.listed = {
            entry["doc_id"]: entry
            for entry in listed
            if isinstance(entry, dict) and isinstance(entry.get("doc_id"), str)
        }
        previous.why = None
        if previous.listed and all(
            any(entry.get(name) is None for name in _PROOF) for entry in previous.listed.values()
        ):
            say(
                "full run: the previous manifest records no row digests (an older "
                "chunkspec), so no row is provably the same"
            )
            previous.why = "not-provable"
    return previous


def say_damage(reasons: Sequence[str | None], say: Callable[[str], None]) -> None:
    """TRUST-44: one line when rows in --out are not the rows their manifest lists."""
    damaged = sum(1 for reason in reasons if reason in DAMAGE)
    if damaged:
        documents = "1 document" if damaged == 1 else f"{damaged} documents"
        say(
            f"chunked again: {documents} whose rows in --out are not those its manifest "
            f"lists (reason in {CHANGES}/changes.jsonl)"
        )


def summarise(rows: Iterable[Mapping[str, Any]]) -> DocumentRows:
    """The summary of one document's rows that this run made (TRUST-45)."""
    return Summaries(check=False).add_rows(rows)


def manifest_entry(
    item: Input,
    digest: str | None,
    given: str | None,
    rows: DocumentRows | None,
    encoding: str | None = None,
) -> dict[str, Any]:
    """INCR-1, TRUST-41: one input of the manifest, with what TRUST-41's checks need;
    SOURCE-9: ``encoding``, the fallback its bytes were read with (None: UTF-8)."""
    return {
        "doc_id": item.doc_id,
        "source": item.source,
        "content_hash": digest,
        "sidecar_hash": given,
        "records": 0 if rows is None else rows.chunks,
        "rows": 0 if rows is None else len(rows.entries),
        "rows_hash": None if rows is None else rows.digest,
        "metadata_hash": None if rows is None else rows.metadata,
        "encoding": encoding,
    }


#: Change-set rows per Parquet row group (TRUST-45: the set is written as it is made).
_CHANGE_GROUP = 10_000


class ChangeSet:
    """INCR-6, TRUST-45: the change set, written into ``_changes/`` document by document."""

    def __init__(self, folder: Path, previous: Previous) -> None:
        self.previous = previous
        self.seen: set[str] = set()
        self.counts = {
            "documents": dict.fromkeys(DOCUMENT_CHANGES, 0),
            "chunks": dict.fromkeys(CHUNK_CHANGES, 0),
        }
        (folder / CHANGES).mkdir()
        self._jsonl: IO[str] = (folder / CHANGES / "changes.jsonl").open(
            "w", encoding="utf-8", newline="\n"
        )
        self._parquet: Any = None
        self._buffer: list[dict[str, Any]] = []
        try:
            import pyarrow.parquet as pq
        except ImportError:  # a JSON Lines run without the arrow extra
            return
        self._parquet = pq.ParquetWriter(str(folder / CHANGES / "changes.parquet"), change_schema())

    def document(self, doc_id: str, new: Sequence[Entry] | None, reason: str | None) -> None:
        """Write one document's change rows, its old side from the previous result."""
        old = self.previous.documents.get(doc_id)
        self.seen.add(doc_id)
        self._write(document_changes(doc_id, None if old is None else old.entries, new, reason))

    def _write(self, changes: Iterable[dict[str, Any]]) -> None:
        for change in changes:
            scope = "documents" if change["scope"] == "document" else "chunks"
            self.counts[scope][change["change"]] += 1
            self._jsonl.write(json_line(change))
            if self._parquet is not None:
                self._buffer.append(change)
                if len(self._buffer) >= _CHANGE_GROUP:
                    self._flush()

    def _flush(self) -> None:
        import pyarrow as pa

        if self._buffer:
            self._parquet.write_table(pa.Table.from_pylist(self._buffer, schema=change_schema()))
            self._buffer = []

    def finish(self) -> dict[str, dict[str, int]]:
        """Write the removed documents (in the old order), close the files; the counts."""
        for doc_id, old in self.previous.documents.items():
            if doc_id not in self.seen:
                self._write(document_changes(doc_id, old.entries, None))
        if self._parquet is not None:
            self._flush()
        self.close()
        return self.counts

    def close(self) -> None:
        """Close the files (a failed run's staging folder is deleted with them)."""
        self._jsonl.close()
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None


def change_schema() -> Any:
    """The Arrow schema of a change set: every column a string; ``key``, ``id`` and ``reason``
    nullable (INCR-6, TRUST-44)."""
    import pyarrow as pa

    return pa.schema(
        [
            pa.field(name, pa.string(), nullable=name in ("key", "id", "reason"))
            for name in CHANGE_FIELDS
        ]
    )
