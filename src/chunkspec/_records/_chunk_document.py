"""Chunk a document with a named strategy and return chunk records (rules RECORD-10..RECORD-14).

Every strategy of the registry (``_chunkers/_strategies.py``, OPT-5) hands back spans, and
this module's one loop turns spans into records, so the command line, the Arrow and Ray
paths and the framework adapters all write the same records for the same input.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from .._chunkers._options import (
    OVERLAPPING,
    STRATEGY_NAMES,
    UNSET,
    ChunkOptions,
    Unset,
    default_overlap,
    options_from,
)
from .._chunkers._span import Span
from .._chunkers._strategies import STRATEGIES
from .._core._collector import collector_paused
from .._core._hashing import hash_text
from .._counters._builtin import TokenSpanCounter
from .._errors import ArgumentTypeError
from .._text._blocks import Block
from .._text._documents import SourceDocument, document_from_text
from ._record import ChunkRecord

__all__ = [
    "OVERLAPPING",
    "STRATEGY_NAMES",
    "check_options",
    "chunk_document",
    "default_overlap",
    "records_of",
]


def chunk_document(
    document: SourceDocument,
    strategy: str | ChunkOptions = "heading",
    *,
    max_tokens: int | Unset = UNSET,
    overlap_tokens: int | Unset | None = UNSET,
    counter: str | TokenSpanCounter | Unset = UNSET,
    encoding_file: str | Unset | None = UNSET,
    count_headings: bool | Unset = UNSET,
    split_tables: bool | Unset = UNSET,
) -> list[ChunkRecord]:
    """Return the chunk records of ``document`` under ``strategy`` (RECORD-10..RECORD-14).

    ``strategy`` is a :class:`ChunkOptions`, or a strategy name (``heading``,
    ``structural``, ``recursive``, ``window``, ``pages``) with the other options as
    keywords, each defaulting as :class:`ChunkOptions` does (OPT-1): ``max_tokens`` 512;
    ``overlap_tokens`` :func:`default_overlap`, refused by the strategies that do not
    overlap; ``counter`` a counter name (RECORD-5: ``whitespace``, ``chars1`` for
    character windows, ``chars4``, ``tiktoken:cl100k_base``, ``huggingface:PATH``) or a
    counter object; ``encoding_file`` a tiktoken rank file (COUNT-9); ``count_headings``
    and ``split_tables`` belong to ``structural``. An options object together with any
    option keyword is a ValueError.

    For every record ``r``: ``r.id == f"{r.doc_id}:{r.index}"``, indexes are 0, 1, 2...,
    ``r.text == r.prefix + document.text[r.start:r.end]`` for every strategy but
    ``recursive``, where ``r.text.split() == document.text[r.start:r.end].split()``.
    """
    if not isinstance(document, SourceDocument):
        raise ArgumentTypeError("document", "a chunkspec.SourceDocument", document)
    given = {
        "max_tokens": max_tokens,
        "overlap_tokens": overlap_tokens,
        "counter": counter,
        "encoding_file": encoding_file,
        "count_headings": count_headings,
        "split_tables": split_tables,
    }
    if isinstance(strategy, ChunkOptions):
        options = options_from(strategy, given)
    else:
        options = options_from(None, {"strategy": strategy, **given})
    if not document.text.strip():
        return []  # SOURCE-7: character windows would window the blanks
    with collector_paused():  # linear time on big documents (docs/performance.md)
        spans = STRATEGIES[options.strategy].spans(document, options)
        return records_of(document, options, spans)


def check_options(options: ChunkOptions) -> ChunkOptions:
    """Raise the error ``options`` would raise on a document with text; return them.

    ChunkOptions checks each option (OPT-1); a strategy may refuse more on use (recursive
    counts words, RECORD-11), so a job or an adapter chunks a one-word document up front
    and a bad option fails the call, never a document.
    """
    chunk_document(document_from_text("options", doc_id="options"), options)
    return options


class _Headings:
    """The heading path at any offset, by MD-7's stack (RECORD-12).

    A heading starts where its line starts (its ``#`` marker, or a setext title's first
    line), not where its title does: a window that begins with ``## Install`` is in the
    Install section.
    """

    def __init__(self, source: str, blocks: Sequence[Block]) -> None:
        self.starts: list[int] = []
        self.paths: list[tuple[str, ...]] = []
        stack: list[tuple[int, str]] = []
        floor = 0
        for block in blocks:
            if block.kind != "heading":
                continue
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.text))
            floor = _line_start(source, block.start, floor)
            self.starts.append(floor)
            self.paths.append(tuple(title for _, title in stack))

    def at(self, offset: int) -> tuple[str, ...]:
        """Return the path of the last heading that starts at or before ``offset``."""
        i = bisect.bisect_right(self.starts, offset)
        return self.paths[i - 1] if i else ()


def _line_start(source: str, offset: int, floor: int = 0) -> int:
    """Return the start of the MD-2 line holding ``source[offset]``, given that it is not
    before ``floor`` (the previous heading's line start, or 0).

    The search for a line break looks back no further than ``floor``, so reading every
    heading of a document is linear in its length: unbounded, the ``\r`` search of an
    LF file would scan back to the start once per heading.
    """
    if offset < floor:
        floor = 0
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
    headings = _Headings(source, document.blocks().blocks)
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
    metadata = document.record_metadata  # META-4: one frozen object shared by every record
    out: list[ChunkRecord] = []
    for index, (start, end, kind, path, parent, prefix, own) in enumerate(spans):
        text = prefix + source[start:end] if own is None else own
        tokens = counter.count(text)
        if path is None:
            path = headings.at(start)
        first = last = None
        if page_starts is not None:
            first = bisect.bisect_right(page_starts, start)
            last = bisect.bisect_right(page_starts, max(start, end - 1))
        out.append(
            ChunkRecord(
                id=f"{document.doc_id}:{index}",
                doc_id=document.doc_id,
                index=index,
                text=text,
                start=start,
                end=end,
                tokens=tokens,
                counter=counter_label,
                content_hash=hash_text(text),
                kind=kind,
                heading_path=path,
                parent_id=parent,
                page_start=first,
                page_end=last,
                section=_section(path, kind, text),
                prefix=prefix,
                oversized=tokens > max_tokens,
                title=document.title,
                source=document.source,
                strategy=strategy,
                metadata=metadata,
            )
        )
    return out
