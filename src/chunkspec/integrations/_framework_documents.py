"""A framework's document (text and metadata) to chunk records and back (ADAPT-1..ADAPT-3).

Every adapter goes through :class:`Chunking`, so LangChain, LlamaIndex and Haystack chunks
are the core's records with the same fields under the same names.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .._chunkers._options import ChunkKeywords, ChunkOptions, options_of
from .._core._hashing import hash_text
from .._core._metadata import Metadata, thaw
from .._core._validate import require_text
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._chunk_document import chunk_document
from .._records._record import RECORD_FIELDS, ChunkRecord
from .._text._documents import SourceDocument, document_from_text
from .._text._file_names import name_as_text

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DOCUMENT_KEYS",
    "Chunking",
    "chunk_metadata",
    "claim",
    "default_doc_id",
    "document_metadata",
    "record_from_metadata",
]

#: The metadata keys an adapter reads the document's own facts from (ADAPT-2).
DOCUMENT_KEYS = ("doc_id", "source", "title")

#: The record fields an adapter writes into a chunk's metadata: all but ``text`` (ADAPT-3).
_METADATA_FIELDS = tuple(name for name in RECORD_FIELDS if name != "text")


def default_doc_id(text: str, source: str = "") -> str:
    """ADAPT-2: ``"doc-"`` and 16 hex digits of the text's hash, with ``source`` if given.

    Without a source, ``hash_text(text)``; with one, ``hash_text(hash_text(source) +
    hash_text(text))``, so one text from two sources is two documents.
    """
    digest = hash_text(require_text("text", text))
    if require_text("source", source):
        digest = hash_text(hash_text(source) + digest)
    return "doc-" + digest[:16]


def _as_file_name(value: Any) -> Any:
    """ADAPT-2: a str whose lone surrogates are all escaped bytes (U+DC80..U+DCFF, as
    ``os.fsdecode`` writes a name that is not UTF-8), written as CLI-16 writes it; any other
    value as it is (a lone surrogate that is not an escaped byte is refused later)."""
    if isinstance(value, str):
        with contextlib.suppress(UnicodeEncodeError):
            return name_as_text(value)
    return value


def _document_fact(metadata: Mapping[str, Any], key: str, *, file_name: bool = False) -> str | None:
    """Return ``metadata[key]`` if present (it must be text), else None (ADAPT-2); with
    ``file_name``, read as :func:`_as_file_name` says."""
    if key not in metadata or metadata[key] is None:
        return None
    value = _as_file_name(metadata[key]) if file_name else metadata[key]
    return require_text(f"metadata[{key!r}]", value)


class Chunking:
    """One adapter's options: a :class:`chunkspec.ChunkOptions` and the input format.

    ``options`` (OPT-1; a strategy name, as :func:`chunkspec.chunk_document` takes it), or
    without it the option keywords (:class:`chunkspec.records.ChunkKeywords`);
    ``input_format`` is ``markdown``, ``text``, ``html`` (a page's markup, HTML-17) or
    ``code`` (a source file, its language from the ``source``'s suffix or its shebang,
    CODE-1). The options are checked when the object
    is made, so a bad option fails at construction with the core's error naming it.
    """

    __slots__ = ("input_format", "options")

    def __init__(
        self,
        options: str | ChunkOptions | None = None,
        *,
        input_format: str = "markdown",
        **keywords: Unpack[ChunkKeywords],
    ) -> None:
        if input_format not in ("markdown", "text", "html", "code"):
            raise ArgumentValueError(
                "input_format", "must be markdown, text, html or code", input_format
            )
        self.input_format = input_format
        self.options = options_of(options, keywords)  # checked whole (OPT-1, OPT-5)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Chunking):
            return NotImplemented
        return (self.options, self.input_format) == (other.options, other.input_format)

    def __hash__(self) -> int:
        return hash((self.options, self.input_format))

    def __repr__(self) -> str:
        return f"Chunking({self.options!r}, input_format={self.input_format!r})"

    def chunk(self, document: SourceDocument) -> list[ChunkRecord]:
        """Return ``chunk_document(document, options)``."""
        return chunk_document(document, self.options)

    def document(
        self,
        text: str,
        metadata: Mapping[str, Any],
        fallback_id: str | None = None,
        *,
        carry: bool = True,
    ) -> SourceDocument:
        """Return the document of ``text``: doc_id, source and title from ``metadata``;
        with ``carry``, its other JSON entries are the document's metadata (ADAPT-6).

        ADAPT-2: ``metadata["doc_id"]`` if present, else ``fallback_id`` (the framework's
        own document id) if given, else :func:`default_doc_id` of the text and source;
        ``source`` and ``title``
        likewise from ``metadata``, else ``""`` and SOURCE-5's rule.
        """
        if not isinstance(metadata, Mapping):
            raise ArgumentTypeError("metadata", "a mapping", metadata)
        text = require_text("text", text)
        source = _document_fact(metadata, "source", file_name=True) or ""
        doc_id = _document_fact(metadata, "doc_id")
        if doc_id is None:
            # LlamaIndex's readers make the file name the id (filename_as_id): read as source
            doc_id = (
                default_doc_id(text, source) if fallback_id is None else _as_file_name(fallback_id)
            )
        return document_from_text(
            text,
            doc_id=doc_id,
            input_format=self.input_format,
            source=source,
            title=_document_fact(metadata, "title"),
            metadata=document_metadata(metadata) if carry else None,
        )

    def records(
        self, text: str, metadata: Mapping[str, Any], fallback_id: str | None = None
    ) -> list[ChunkRecord]:
        """Return the core's records for ``text`` read with ``metadata`` (ADAPT-1)."""
        return self.chunk(self.document(text, metadata, fallback_id))


#: ADAPT-6: keys of a framework's metadata that are not the document's metadata: ADAPT-2's
#: document facts, the record's fields and the framework names ADAPT-3 writes for them.
_NOT_METADATA = frozenset(
    {
        *DOCUMENT_KEYS,
        *RECORD_FIELDS,
        "start_index",
        "source_id",
        "split_id",
        "split_idx_start",
        "page_number",
    }
)


def document_metadata(metadata: Mapping[Any, Any]) -> Metadata:
    """ADAPT-6: the caller's document metadata in a framework's metadata: every entry with a
    str key outside :data:`_NOT_METADATA` whose value is a JSON value (META-2). Others
    still reach every chunk by ADAPT-3's copy; only a record cannot hold them."""
    kept: dict[str, Any] = {}
    for key, value in metadata.items():
        if not isinstance(key, str) or key in _NOT_METADATA:
            continue
        try:
            kept[key] = Metadata({key: value})[key]
        except (TypeError, ValueError):
            continue
    return Metadata(kept)


def claim(owners: dict[str, str], doc_id: str, label: str) -> None:
    """ADAPT-4: record that input ``label`` owns ``doc_id``; a second owner is refused."""
    if doc_id in owners:
        raise ArgumentValueError(
            "documents",
            f"hold two documents with doc_id {doc_id!r} ({owners[doc_id]} and {label}); "
            "their chunk ids would clash: give each a distinct metadata doc_id",
            doc_id,
        )
    owners[doc_id] = label


def chunk_metadata(record: ChunkRecord, metadata: Mapping[str, Any]) -> dict[str, Any]:
    """ADAPT-3: a deep copy of the caller's ``metadata``; ADAPT-6: the record's own
    ``metadata`` keys (the front matter's) that the caller's lacks; then every record field
    but ``text`` (``heading_path`` a list); on a shared key the record's value wins."""
    out = copy.deepcopy(dict(metadata))
    for key, value in thaw(record.metadata).items():
        out.setdefault(key, value)  # META-3: the caller's value wins over the front matter's
    data = record.to_dict()
    out.update((name, data[name]) for name in _METADATA_FIELDS)
    return out


def record_from_metadata(text: str, metadata: Mapping[str, Any]) -> ChunkRecord:
    """Return the record a chunk was made from: ``text`` and the record fields of
    ``metadata`` (other keys ignored); the inverse of :func:`chunk_metadata` (ADAPT-3)."""
    if not isinstance(metadata, Mapping):
        raise ArgumentTypeError("metadata", "a mapping", metadata)
    missing = [name for name in _METADATA_FIELDS if name not in metadata]
    if missing:
        raise ArgumentValueError(
            "metadata", f"is missing record field {missing[0]!r}", sorted(map(str, metadata))
        )
    data = {name: metadata[name] for name in _METADATA_FIELDS}
    data["text"] = text
    return ChunkRecord.from_dict(data)
