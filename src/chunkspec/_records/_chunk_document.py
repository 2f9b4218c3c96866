"""Chunk a document with a named strategy and return chunk records (rules RECORD-10..RECORD-14).

Every strategy of the registry (``_chunkers/_strategies.py``, OPT-5) hands back spans, and
this module's one loop turns spans into records, so the command line, the Arrow and Ray
paths and the framework adapters all write the same records for the same input.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .._chunkers._options import (
    OVERLAPPING,
    STRATEGY_NAMES,
    ChunkKeywords,
    ChunkOptions,
    default_overlap,
    options_of,
)
from .._chunkers._span import Span, embedded
from .._chunkers._strategies import STRATEGIES
from .._core._collector import collector_paused
from .._core._metadata import Metadata
from .._core._units import has_cluster_script
from .._counters._builtin import WhitespaceCounter
from .._errors import ArgumentTypeError
from .._text._blocks import Block
from .._text._documents import SourceDocument
from ._key import DocumentKeys, key_fingerprint
from ._record import ChunkRecord, trusted_record

if TYPE_CHECKING:  # annotations only: Python 3.10 has no typing.Unpack
    from typing_extensions import Unpack

    from ._job import ChunkJob

__all__ = [
    "OVERLAPPING",
    "STRATEGY_NAMES",
    "chunk_document",
    "default_overlap",
    "records_of",
    "script_options",
]


def chunk_document(
    document: SourceDocument,
    options: str | ChunkOptions | ChunkJob | None = None,
    **keywords: Unpack[ChunkKeywords],
) -> list[ChunkRecord]:
    """Return the chunk records of ``document`` under ``options`` (RECORD-10..RECORD-14).

    ``options`` is a :class:`ChunkOptions` (or a :class:`chunkspec.ChunkJob`, whose options
    are used: the document is read already), or the options are given as
    :class:`chunkspec.records.ChunkKeywords` keywords, each defaulting as
    :class:`ChunkOptions` does (OPT-1), with ``options`` the strategy name if given
    positionally (``heading`` by default; ``structural``, ``recursive``, ``window``,
    ``pages``): ``max_tokens`` 512;
    ``overlap_tokens`` :func:`default_overlap`, refused by the strategies that do not
    overlap; ``counter`` a counter name (RECORD-5: ``whitespace``, ``chars1`` for
    character windows, ``chars4``, ``tiktoken:cl100k_base``, ``huggingface:PATH``) or a
    counter object (the name ``whitespace`` counts ``unicode`` units on a document holding
    Chinese, Japanese, Korean, Thai, Lao, Khmer or Myanmar text, except for ``recursive``:
    SCRIPT-6); ``encoding_file`` a tiktoken rank file (COUNT-9); ``count_headings``
    and ``split_tables`` belong to ``structural``; ``min_tokens`` (SIZE-2's default) and
    ``budget_includes_headings`` to ``heading`` and ``structural`` (SIZE-1, SIZE-8). An
    options object together with any option keyword is a ValueError.

    For every record ``r``: ``r.id == f"{r.doc_id}:{r.index}"``, indexes are 0, 1, 2...,
    ``r.text == r.prefix + document.text[r.start:r.end]`` for every strategy but
    ``recursive``, where ``r.text.split() == document.text[r.start:r.end].split()``.
    """
    if not isinstance(document, SourceDocument):
        raise ArgumentTypeError("document", "a chunkspec.SourceDocument", document)
    # a ChunkJob gives its options (its reading options were used to read the document)
    chosen = options_of(getattr(options, "options", options), keywords)
    if not document.text or document.text.isspace():  # strip() would copy the text
        return []  # SOURCE-7: character windows would window the blanks
    chosen = script_options(document, chosen)
    with collector_paused():  # linear time on big documents (docs/performance.md)
        spans = STRATEGIES[chosen.strategy].spans(document, chosen)
        return records_of(document, chosen, spans)


def script_options(document: SourceDocument, options: ChunkOptions) -> ChunkOptions:
    """Return ``options`` with the counter ``unicode`` for ``whitespace`` when the document
    holds a script written without spaces and the strategy is not seed 000's (SCRIPT-6)."""
    if (
        options.counter == "whitespace"
        and options.strategy != "recursive"
        and has_cluster_script(document.text)
    ):
        return options.replace(counter="unicode")
    return options


class _Headings:
    """The heading path at any offset, by MD-7's stack (RECORD-12).

    A heading starts where its line starts (its ``#`` marker, or a setext title's first
    line), not where its title does: a window that begins with ``## Install`` is in the
    Install section. Only the line start of the heading just after an offset can matter
    (the next heading's line starts after this one's title), so it is found at lookup, not
    for every heading of the document.
    """

    def __init__(self, source: str, blocks: Sequence[Block]) -> None:
        self.source = source
        self.titles: list[int] = []  # where each heading's title starts
        self.ends: list[int] = []  # and ends
        self.paths: list[tuple[str, ...]] = []
        title, path = self.titles.append, self.paths.append
        stack: list[tuple[int, tuple[str, ...]]] = []  # (level, the path to that heading)
        for block in [block for block in blocks if block.kind == "heading"]:
            level = block.level
            while stack and stack[-1][0] >= level:
                stack.pop()
            here = (*stack[-1][1], block.text) if stack else (block.text,)
            stack.append((level, here))
            title(block.start)
            self.ends.append(block.end)
            path(here)
        self.lines = [-1] * len(self.titles)  # each heading's line start, once looked up

    def title_from(self, offset: int) -> str:
        """SIZE-7, MD-19: the title of the first heading with a title (HEAD-10) that ends
        after ``offset``: a heading record's own, also when it starts with the text before
        the document's first heading (SIZE-5) or inside a heading split by words (MD-19)."""
        i = bisect.bisect_right(self.ends, offset)
        while not self.paths[i][-1].strip():
            i += 1
        return self.paths[i][-1]

    def at(self, offset: int) -> tuple[str, ...]:
        """Return the path of the last heading whose line starts at or before ``offset``."""
        titles = self.titles
        i = bisect.bisect_right(titles, offset)
        if i < len(titles):  # the next heading: its marker may start at or before offset
            line = self.lines[i]
            if line < 0:  # each heading's line start is searched for once (linear overall)
                line = _line_start(self.source, titles[i], titles[i - 1] if i else 0)
                self.lines[i] = line
            if line <= offset:
                i += 1
        return self.paths[i - 1] if i else ()


#: CommonMark's ATX opening sequence: up to three spaces, 1 to 6 ``#``, then a space, a tab
#: or the line's end. A setext title's line never matches (it would be an ATX heading).
_ATX_OPENER = re.compile(r" {0,3}#{1,6}(?:[ \t]|\r|\n|\Z)")


def _line_start(source: str, offset: int, floor: int = 0) -> int:
    """Return the start of the MD-2 line where the heading whose title starts at
    ``source[offset]`` starts, given that it is not before ``floor`` (where the previous
    heading's title starts, or 0).

    That is the title's own line, except for a setext heading whose paragraph opens with
    lines of Unicode whitespace that are not blank to CommonMark (a line of only U+00A0 is
    not blank: only spaces and tabs make one): the title drops them as it is stripped, and
    the heading starts at the first of them (markdown-it's map). The search for a line break
    looks back no further than ``floor``, so finding every heading's line start is linear in
    the document's length: unbounded, the ``\r`` search of an LF file would scan back to
    the start once per heading.
    """
    if offset < floor:
        floor = 0
    start = _line_at(source, offset, floor)
    if _ATX_OPENER.match(source, start):  # an ATX heading is its one line (an empty title too)
        return start
    if source[start:offset].isspace() or start == offset:  # no ``#`` marker: a setext title
        # The lines just above that are whitespace but not blank; the paragraph opens at the
        # first of them indented less than four columns (more is indented code, MD-2).
        opening = start
        while start > floor:
            end = start - 2 if source.startswith("\r\n", start - 2) else start - 1
            before = _line_at(source, end, floor)
            line = source[before:end]
            if not (line.isspace() and line.strip(" \t")):  # CommonMark-blank, or text
                break
            start = before
            if _indent(line) < 4:
                opening = start
        return opening
    return start


def _indent(line: str) -> int:
    """The columns of a line's leading spaces and tabs (a tab to the next multiple of 4)."""
    column = 0
    for char in line:
        if char == " ":
            column += 1
        elif char == "\t":
            column += 4 - column % 4
        else:
            break
    return column


def _line_at(source: str, offset: int, floor: int) -> int:
    """The start of the line holding ``source[offset]``, not looking back before ``floor``."""
    found = max(source.rfind("\n", floor, offset), source.rfind("\r", floor, offset))
    return found + 1 if found >= 0 else floor


def _section(path: tuple[str, ...], kind: str, text: str) -> str | None:
    """RECORD-12: a heading chunk's own title, else the innermost heading of its path."""
    if kind == "heading":
        return text
    return path[-1] if path and path[-1].strip() else None


def records_of(
    document: SourceDocument, options: ChunkOptions, spans: Sequence[Span]
) -> list[ChunkRecord]:
    """The one loop from spans to records: tokens, hash, pages, headings, title, strategy,
    metadata."""
    source = document.text
    counter = options.token_counter()
    counter_label = options.counter_name
    headings: _Headings | None = None  # built on the first span without a path
    page_starts: list[int] | None = None
    if document.pages is not None or STRATEGIES[options.strategy].page_numbers:
        pages = document.pages if document.pages is not None else (source,)
        page_starts = []
        position = 0
        for page in pages:
            page_starts.append(position)
            position += len(page) + 1
    strategy = options.strategy_string
    max_tokens = options.max_tokens
    trail = options.budget_includes_headings  # SIZE-8: tokens count the embedded text
    merged = options.minimum > 0  # SIZE-7: a heading record may hold its section's body
    headed = options.strategy == "structural"  # MD-19: its heading records hold headings
    metadata = document.record_metadata  # META-4: one frozen object shared by every record
    doc_id, title, origin = document.doc_id, document.title, document.source
    count = _words if type(counter) is WhitespaceCounter else counter.count
    sha256 = hashlib.sha256
    key = DocumentKeys(key_fingerprint(strategy, counter_label), doc_id).key  # KEY-1, KEY-2
    seen: dict[tuple[tuple[str, ...], str], int] = {}  # KEY-3: occurrences so far
    out: list[ChunkRecord] = []
    append = out.append
    for index, (start, end, kind, path, parent, prefix, own, known, digest, extra) in enumerate(
        spans
    ):
        text = prefix + source[start:end] if own is None else own
        if path is None:
            if headings is None:
                headings = _Headings(source, document.blocks().blocks)
            path = headings.at(start)
        if trail:
            tokens = counter.count(embedded(path, text))
        else:
            tokens = count(text) if known is None else known
        if digest is None:
            digest = sha256(text.encode()).hexdigest()  # HASH-1: the text has no lone surrogate
        occurrence = seen.get((path, digest), 0)
        seen[(path, digest)] = occurrence + 1
        first = last = None
        if page_starts is not None:
            first = bisect.bisect_right(page_starts, start)
            last = bisect.bisect_right(page_starts, max(start, end - 1))
        if kind == "heading" and (merged or headed):  # SIZE-7, MD-19
            if headings is None:
                headings = _Headings(source, document.blocks().blocks)
            section = _section(path, kind, headings.title_from(start))
        else:
            section = _section(path, kind, text)
        # RECORD-20: every field below comes from the checked document and options or
        # from the chunker's span of the document's text; the record is not checked again.
        append(
            trusted_record(
                f"{doc_id}:{index}",
                doc_id,
                index,
                text,
                start,
                end,
                tokens,
                counter_label,
                digest,
                kind,
                path,
                parent,
                first,
                last,
                section,
                prefix,
                tokens > max_tokens,
                title,
                origin,
                strategy,
                metadata if extra is None else Metadata({**extra, **metadata}),
                key(path, digest, occurrence),
            )
        )
    return out


def _words(text: str) -> int:
    """WhitespaceCounter.count without its argument check: the record's text is a str."""
    return len(text.split())
