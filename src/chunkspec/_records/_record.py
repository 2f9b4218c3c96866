"""The chunk record: the one export form of a chunk, whatever chunker made it (RECORD rules)."""

from __future__ import annotations

import operator
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._core._hashing import hash_text
from .._core._metadata import EMPTY_METADATA, Metadata, thaw
from .._core._seed_chunk import Chunk
from .._core._validate import MAX_SAFE_INTEGER, require_text
from .._errors import ArgumentTypeError, ArgumentValueError
from ._key import chunk_key, key_fingerprint

__all__ = ["KINDS", "READ_FIELDS", "RECORD_FIELDS", "ChunkRecord", "render_title", "trusted_record"]

#: Every field of a record, in order: the key order of its JSON object and Arrow row (RECORD-1).
RECORD_FIELDS = (
    "id",
    "doc_id",
    "index",
    "text",
    "start",
    "end",
    "tokens",
    "counter",
    "content_hash",
    "kind",
    "heading_path",
    "parent_id",
    "page_start",
    "page_end",
    "section",
    "prefix",
    "oversized",
    "title",
    "source",
    "strategy",
    "metadata",
    "key",
)

#: The fields a reader requires (META-5, KEY-4): all but ``metadata`` and ``key``, which a
#: record written before them lacks (``key`` then reads as KEY-1's key for occurrence 0);
#: for ``metadata``: which a record written
#: before the field existed lacks; it then reads as ``{}``.
READ_FIELDS = tuple(name for name in RECORD_FIELDS if name not in ("metadata", "key"))

#: Every ``kind`` a chunkspec chunker writes (RECORD-4): Markdown prose and the block kinds
#: kept whole, heading-aware heading and body chunks, windows of every window chunker.
KINDS = frozenset({"prose", "table", "code", "definition", "heading", "body", "window"})


@dataclass(frozen=True, slots=True)
class ChunkRecord:
    """One chunk as every chunker exports it and every consumer reads it (RECORD-1..RECORD-9).

    The equations, for the document's source text ``source`` (RECORD-2, RECORD-3)::

        record.id == f"{record.doc_id}:{record.index}"
        record.content_hash == hash_text(record.text)
        record.text.split() == (record.prefix + source[record.start:record.end]).split()
        record.text == record.prefix + source[record.start:record.end]  # verbatim chunkers

    ``heading_path`` is a tuple in Python and a list in JSON and Arrow. Construction checks
    every field's type and range (TypeError/ValueError naming the field), so no record can
    exist that a reader would refuse.
    """

    id: str
    doc_id: str
    index: int
    text: str
    start: int
    end: int
    tokens: int
    counter: str
    content_hash: str
    kind: str
    heading_path: tuple[str, ...]
    parent_id: str | None
    page_start: int | None
    page_end: int | None
    section: str | None
    prefix: str
    oversized: bool
    title: str
    source: str
    strategy: str
    #: META-1: the document's metadata, one read-only :class:`Metadata` shared by its records.
    metadata: Mapping[str, Any] = EMPTY_METADATA
    #: KEY-1: the chunk's stable key; left out, the key of occurrence 0 (KEY-3, KEY-4).
    key: str = ""

    def __post_init__(self) -> None:
        _check(self)
        if self.key == "":  # KEY-4: built without its key (by hand, or read from old JSON)
            object.__setattr__(self, "key", _default_key(self))
        elif not _is_key(self.key):
            raise ArgumentValueError("record.key", "must be 64 lowercase hex digits", self.key)
        if not isinstance(self.metadata, Metadata):  # META-2: checked and frozen once
            object.__setattr__(
                self, "metadata", Metadata(self.metadata, argument="record.metadata")
            )

    def to_dict(self) -> dict[str, Any]:
        """Return the record as its JSON object: every field, ``heading_path`` as a list,
        ``metadata`` as a plain ``dict`` (META-1)."""
        data = dict(zip(RECORD_FIELDS, _FIELD_VALUES(self), strict=True))
        data["heading_path"] = list(self.heading_path)
        data["metadata"] = thaw(self.metadata)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, check_hash: bool = True) -> ChunkRecord:
        """Read a record from its JSON object (RECORD-8): every field present, no other key;
        a missing ``metadata`` reads as ``{}`` (META-5), a null one is a TypeError naming
        ``record.metadata`` (TRUST-1: null never reads as "no labels").

        ``content_hash`` is checked against ``hash_text(text)`` unless ``check_hash`` is
        false (a reader that trusts its writer may skip the SHA-256).
        """
        if not isinstance(data, Mapping):
            raise ArgumentTypeError("record", "a mapping of the record's fields", data)
        missing = [name for name in READ_FIELDS if name not in data]
        if missing:
            raise ArgumentValueError("record", f"is missing field {missing[0]!r}", _keys(data))
        extra = sorted(str(key) for key in data if key not in _FIELD_SET)
        if extra:
            raise ArgumentValueError("record", f"has unknown field {extra[0]!r}", _keys(data))
        path = data["heading_path"]
        if not isinstance(path, (list, tuple)):
            raise ArgumentTypeError("record.heading_path", "a list of str", path)
        fields = dict(data)
        fields["heading_path"] = tuple(path)
        record = cls(**fields)
        if check_hash and record.content_hash != hash_text(record.text):
            raise ArgumentValueError(
                "record.content_hash", "must be hash_text(text)", record.content_hash
            )
        return record

    def to_chunk(self, score: float = 0.0) -> Chunk:
        """Return the seed-000 :class:`Chunk` that ``assemble`` packs (RECORD-9).

        Its title is :func:`render_title` of this record, so ``render`` shows the heading
        trail; ``tokens`` and ``content_hash`` are the record's own.
        """
        return Chunk(
            self.id,
            self.doc_id,
            render_title(self),
            self.text,
            self.tokens,
            self.content_hash,
            score,
        )


_FIELD_SET = frozenset(RECORD_FIELDS)
#: Every field's value of a record, in RECORD_FIELDS' order, read in C.
_FIELD_VALUES = operator.attrgetter(*RECORD_FIELDS)

_HEX = frozenset("0123456789abcdef")


def _is_key(value: object) -> bool:
    """KEY-4: a str of 64 lowercase hex digits."""
    return isinstance(value, str) and len(value) == 64 and _HEX.issuperset(value)


def _default_key(record: ChunkRecord) -> str:
    """KEY-1's key of ``record`` as the first of its (heading_path, content_hash) (KEY-3)."""
    fingerprint = key_fingerprint(record.strategy, record.counter)
    return chunk_key(fingerprint, record.doc_id, record.heading_path, record.content_hash, 0)


def render_title(record: ChunkRecord) -> str:
    """Return the title ``render`` shows for ``record`` (RECORD-9).

    ``" > ".join([title, *heading_path])``, leaving out the first heading when it repeats
    the title (a Markdown page's title is its first level-1 heading, RECORD-7); just
    ``title`` when the heading path is empty, so seed 000's render is unchanged.
    """
    path = record.heading_path
    if path and path[0] == record.title:
        path = path[1:]
    return " > ".join((record.title, *path)) if path else record.title


def _keys(data: Mapping[Any, Any]) -> str:
    """Return the record's keys, for an error message."""
    return ", ".join(sorted(map(str, data)))


def _int(name: str, value: object, minimum: int) -> int:
    """Return ``value`` if it is an int (not bool) in ``[minimum, 2**53-1]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        # JSON readers may hand over 3.0 for 3; that is not an int in the record.
        raise ArgumentTypeError(f"record.{name}", "an int", value)
    if not minimum <= value <= MAX_SAFE_INTEGER:
        raise ArgumentValueError(f"record.{name}", f"must be in [{minimum}, 2**53 - 1]", value)
    return value


def _text(name: str, value: object) -> str:
    """Return ``value`` if it is a str with no lone surrogate."""
    return require_text(f"record.{name}", value)


def _check(record: ChunkRecord) -> None:
    """Raise TypeError/ValueError naming the first field that breaks RECORD-1..RECORD-6."""
    for name in ("id", "doc_id", "text", "counter", "content_hash", "kind", "prefix"):
        _text(name, getattr(record, name))
    for name in ("title", "source", "strategy"):
        _text(name, getattr(record, name))
    index = _int("index", record.index, 0)
    start = _int("start", record.start, 0)
    end = _int("end", record.end, 0)
    _int("tokens", record.tokens, 0)
    if end < start:
        raise ArgumentValueError("record.end", f"must be >= start ({start})", end)
    if record.id != f"{record.doc_id}:{index}":
        raise ArgumentValueError(
            "record.id", f"must be doc_id:index ({record.doc_id}:{index})", record.id
        )
    if not record.text.startswith(record.prefix):
        raise ArgumentValueError("record.prefix", "must begin text", record.prefix)
    if record.kind not in KINDS:
        raise ArgumentValueError(
            "record.kind", f"must be one of {', '.join(sorted(KINDS))}", record.kind
        )
    if not record.counter:
        raise ArgumentValueError("record.counter", "must name a counter", record.counter)
    path = record.heading_path
    if not isinstance(path, tuple):
        raise ArgumentTypeError("record.heading_path", "a tuple of str", path)
    for position, heading in enumerate(path):
        _text(f"heading_path[{position}]", heading)
    for name in ("parent_id", "section"):
        value = getattr(record, name)
        if value is not None:
            _text(name, value)
    first, last = record.page_start, record.page_end
    if (first is None) != (last is None):
        raise ArgumentValueError("record.page_end", "must be null exactly when page_start is", last)
    if first is not None and last is not None:
        _int("page_start", first, 1)
        if _int("page_end", last, 1) < first:
            raise ArgumentValueError("record.page_end", f"must be >= page_start ({first})", last)
    if not isinstance(record.oversized, bool):
        raise ArgumentTypeError("record.oversized", "a bool", record.oversized)


_new = object.__new__
_slots: Any = ChunkRecord  # the dataclass's slot descriptors
# Each setter bound by its field's name: reordering RECORD_FIELDS cannot swap two fields.
_set_id = _slots.id.__set__
_set_doc_id = _slots.doc_id.__set__
_set_index = _slots.index.__set__
_set_text = _slots.text.__set__
_set_start = _slots.start.__set__
_set_end = _slots.end.__set__
_set_tokens = _slots.tokens.__set__
_set_counter = _slots.counter.__set__
_set_content_hash = _slots.content_hash.__set__
_set_kind = _slots.kind.__set__
_set_heading_path = _slots.heading_path.__set__
_set_parent_id = _slots.parent_id.__set__
_set_page_start = _slots.page_start.__set__
_set_page_end = _slots.page_end.__set__
_set_section = _slots.section.__set__
_set_prefix = _slots.prefix.__set__
_set_oversized = _slots.oversized.__set__
_set_title = _slots.title.__set__
_set_source = _slots.source.__set__
_set_strategy = _slots.strategy.__set__
_set_metadata = _slots.metadata.__set__
_set_key = _slots.key.__set__


def trusted_record(
    id: str,
    doc_id: str,
    index: int,
    text: str,
    start: int,
    end: int,
    tokens: int,
    counter: str,
    content_hash: str,
    kind: str,
    heading_path: tuple[str, ...],
    parent_id: str | None,
    page_start: int | None,
    page_end: int | None,
    section: str | None,
    prefix: str,
    oversized: bool,
    title: str,
    source: str,
    strategy: str,
    metadata: Mapping[str, Any],
    key: str,
) -> ChunkRecord:
    """Return the record of these fields (RECORD_FIELDS' order) without checking it (RECORD-20).

    For ``records_of`` only, whose every field comes from a checked document, checked
    options and a chunker's span: the frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__`` and ``_check`` re-reads every string for lone
    surrogates, which cost three times the chunking; the slot descriptors set the same
    fields, one call each (half the time of a loop over them). The public constructor
    keeps checking.
    """
    record: ChunkRecord = _new(ChunkRecord)
    _set_id(record, id)
    _set_doc_id(record, doc_id)
    _set_index(record, index)
    _set_text(record, text)
    _set_start(record, start)
    _set_end(record, end)
    _set_tokens(record, tokens)
    _set_counter(record, counter)
    _set_content_hash(record, content_hash)
    _set_kind(record, kind)
    _set_heading_path(record, heading_path)
    _set_parent_id(record, parent_id)
    _set_page_start(record, page_start)
    _set_page_end(record, page_end)
    _set_section(record, section)
    _set_prefix(record, prefix)
    _set_oversized(record, oversized)
    _set_title(record, title)
    _set_source(record, source)
    _set_strategy(record, strategy)
    _set_metadata(record, metadata)
    _set_key(record, key)
    return record
