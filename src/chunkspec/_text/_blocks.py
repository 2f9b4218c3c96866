"""The parsed-document block model shared by the heading-aware chunker (seed 003)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core._validate import require_int, require_str, require_text
from .._errors import ArgumentTypeError, ArgumentValueError
from ._lines import line_table

__all__ = [
    "BLOCK_KINDS",
    "Block",
    "ChunkContext",
    "Document",
    "document_from_blocks",
    "parse_text",
]

#: Every block kind (rule MD-3). ``reference`` holds link reference definitions, which
#: markdown-it consumes without a token; ``definition`` is a definition list.
BLOCK_KINDS = frozenset(
    {
        "heading",
        "paragraph",
        "list",
        "table",
        "code",
        "quote",
        "html",
        "definition",
        "thematic_break",
        "reference",
    }
)


@dataclass(frozen=True, slots=True)
class Block:
    """One top-level block: ``text == document.source[start:end]`` (rule MD-4).

    ``level`` is 1 to 6 for a heading and 0 otherwise; for a heading ``text`` is its title
    (the inline content), for every other kind the block's whole lines. ``attributes`` holds
    what an upstream parser knew (an OCR engine's ``page``, ``bbox``, ``confidence``...).
    """

    kind: str
    text: str
    start: int
    end: int
    level: int = 0
    attributes: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


_new = object.__new__
_slots: Any = Block  # the dataclass's slot descriptors
_set_kind = _slots.kind.__set__
_set_text = _slots.text.__set__
_set_start = _slots.start.__set__
_set_end = _slots.end.__set__
_set_level = _slots.level.__set__
_set_attributes = _slots.attributes.__set__


def new_block(kind: str, text: str, start: int, end: int, level: int = 0) -> Block:
    """Return ``Block(kind, text, start, end, level)``, built through its slots.

    Speed only, for the block scans (a block a few dozen characters long): a frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``; the slot
    descriptors set the same fields in half the time.
    """
    block: Block = _new(Block)
    _set_kind(block, kind)
    _set_text(block, text)
    _set_start(block, start)
    _set_end(block, end)
    _set_level(block, level)
    _set_attributes(block, {})
    return block


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed document: blocks in source order, each a region of ``source``."""

    document_id: str
    source: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True, slots=True)
class ChunkContext:
    """Who the chunks are for; copied onto every chunk (rule HEAD-9).

    The seed's ``ctx`` (tenant, corpus) and ``ctx.principal`` (ACL labels) in one record.
    """

    tenant_id: str = ""
    corpus_id: str = ""
    acl_labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_str("tenant_id", self.tenant_id)
        require_str("corpus_id", self.corpus_id)
        if not isinstance(self.acl_labels, tuple):
            raise ArgumentTypeError("acl_labels", "a tuple of str", self.acl_labels)
        for n, label in enumerate(self.acl_labels):
            require_str(f"acl_labels[{n}]", label)


def _is_blank(line: str) -> bool:
    """Return True if ``line`` holds only whitespace (``str.isspace``) or nothing."""
    return not line or line.isspace()


def parse_text(document_id: str, text: str) -> Document:
    """Parse plain text: each run of non-blank lines is one ``paragraph`` block (rule MD-12).

    Lines end at ``\\r\\n``, ``\\r`` or ``\\n``; a line is blank if ``line.strip() == ""``.
    """
    require_str("document_id", document_id)
    require_text("text", text)
    starts, ends = line_table(text)
    blocks: list[Block] = []
    first = -1
    for i in range(len(starts) + 1):
        blank = i == len(starts) or _is_blank(text[starts[i] : ends[i]])
        if blank and first >= 0:
            start, end = starts[first], ends[i - 1]
            blocks.append(Block("paragraph", text[start:end], start, end))
            first = -1
        elif not blank and first < 0:
            first = i
    return Document(document_id, text, tuple(blocks))


#: Keys of a JSON block that are not attributes.
_BLOCK_KEYS = frozenset({"kind", "type", "text", "level"})

#: The separator placed between block texts when a source is built from blocks (rule MD-13).
BLOCK_JOINER = "\n\n"


def document_from_blocks(document_id: str, blocks: Sequence[Mapping[str, Any]]) -> Document:
    """Build a document from block records such as an OCR engine's regions (rule MD-13).

    Each record has ``text`` (str), ``kind`` (or ``type``; default ``paragraph``), ``level``
    for a heading (1 to 6), and any other keys, kept as ``attributes``. The source is
    ``"\\n\\n".join(texts)``, so ``block.text == source[block.start:block.end]`` still holds.
    """
    require_str("document_id", document_id)
    raw: object = blocks
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise ArgumentTypeError("blocks", "a list of block objects", blocks)
    out: list[Block] = []
    offset = 0
    for n, record in enumerate(blocks):
        name = f"blocks[{n}]"
        if not isinstance(record, Mapping):
            raise ArgumentTypeError(name, "an object", record)
        text = require_text(f"{name}.text", record.get("text"))
        kind = record.get("kind", record.get("type", "paragraph"))
        require_str(f"{name}.kind", kind)
        if kind not in BLOCK_KINDS:
            raise ArgumentValueError(
                f"{name}.kind", f"must be one of {', '.join(sorted(BLOCK_KINDS))}", kind
            )
        level = 0
        if kind == "heading":
            level = require_int(f"{name}.level", record.get("level", 1), minimum=1)
            if level > 6:
                raise ArgumentValueError(f"{name}.level", "must be <= 6", level)
        attributes = {key: value for key, value in record.items() if key not in _BLOCK_KEYS}
        if n:
            offset += len(BLOCK_JOINER)
        out.append(Block(kind, text, offset, offset + len(text), level, attributes))
        offset += len(text)
    source = BLOCK_JOINER.join(block.text for block in out)
    return Document(document_id, source, tuple(out))
