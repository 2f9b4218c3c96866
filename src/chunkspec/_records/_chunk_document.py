"""Chunk a document with a named strategy and return chunk records (rules RECORD-10..RECORD-14).

Every chunker of the package is reached through one table, so the command line, the Arrow
and Ray paths and the framework adapters all write the same records for the same input.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .._chunkers._heading_aware import HeadingAwareChunker
from .._chunkers._pages import chunk_pages
from .._chunkers._split_markdown import split_blocks
from .._chunkers._window import chunk as char_windows
from .._chunkers._window import token_windows
from .._core._hashing import hash_text
from .._core._split import split_section
from .._core._validate import require_int
from .._counters._builtin import CharEstimateCounter, TokenSpanCounter, WhitespaceCounter
from .._counters._registry import counter_from_name, counter_name
from .._errors import ArgumentTypeError, ArgumentValueError
from .._text._blocks import Block
from .._text._documents import SourceDocument
from ._record import ChunkRecord

__all__ = [
    "CHUNK_STRATEGIES",
    "OVERLAPPING",
    "STRATEGY_NAMES",
    "chunk_document",
    "default_overlap",
]


@dataclass(frozen=True, slots=True)
class _Plan:
    """One call's resolved options."""

    document: SourceDocument
    name: str
    max_tokens: int
    overlap: int
    counter: TokenSpanCounter
    counter_label: str
    count_headings: bool
    split_tables: bool

    @property
    def strategy(self) -> str:
        """RECORD-6: ``name:max_tokens=N[,overlap_tokens=M][,flag=true...]``."""
        parts = [f"max_tokens={self.max_tokens}"]
        if self.name in OVERLAPPING:
            parts.append(f"overlap_tokens={self.overlap}")
        if self.count_headings:
            parts.append("count_headings=true")
        if self.split_tables:
            parts.append("split_tables=true")
        return f"{self.name}:{','.join(parts)}"


#: A span of the source: (start, end, kind, heading path or None, parent id, prefix), and
#: the chunk's text when it is not ``prefix + source[start:end]`` (recursive only).
_Span = tuple[int, int, str, "tuple[str, ...] | None", "str | None", str, "str | None"]


def _heading(plan: _Plan) -> list[_Span]:
    """HeadingAwareChunker over the document's blocks (HEAD rules)."""
    chunker = HeadingAwareChunker(plan.max_tokens, plan.overlap, counter=plan.counter)
    return [
        (c.start, c.end, c.kind, c.heading_path, c.parent_id, "", None)
        for c in chunker.chunk(plan.document.blocks())
    ]


def _structural(plan: _Plan) -> list[_Span]:
    """split_markdown's packing over the document's blocks (MD rules, RECORD-12)."""
    chunks = split_blocks(
        plan.document.blocks(),
        plan.max_tokens,
        plan.counter,
        count_headings=plan.count_headings,
        split_tables=plan.split_tables,
    )
    return [(c.start, c.end, c.kind, c.heading_path, None, c.prefix, None) for c in chunks]


def _recursive(plan: _Plan) -> list[_Span]:
    """Seed 000's split_section over the whole text; span = first to last word (RECORD-11)."""
    if not isinstance(plan.counter, WhitespaceCounter):
        raise ArgumentValueError(
            "counter",
            "must be whitespace for recursive (seed 000 counts words)",
            plan.counter_label,
        )
    document = plan.document
    chunks = split_section(document.doc_id, document.title, document.text, plan.max_tokens)
    words = WhitespaceCounter().token_spans(document.text)
    spans: list[_Span] = []
    word = 0
    for c in chunks:
        n = len(c.text.split())
        if n == 0:
            continue  # RECORD-11: seed 000 gives one empty chunk for a blank text
        last = words[word + n - 1][1]
        spans.append((words[word][0], last, "prose", None, None, "", c.text))
        word += n
    return spans


def _window(plan: _Plan) -> list[_Span]:
    """token_windows (chars1: seed 002's chunk) over the text; text == source[start:end]."""
    text = plan.document.text
    if isinstance(plan.counter, CharEstimateCounter) and plan.counter.chars_per_token == 1:
        step = plan.max_tokens - plan.overlap
        pieces = char_windows(text, plan.max_tokens, plan.overlap)
        return [
            (k * step, k * step + len(piece), "window", None, None, "", None)
            for k, piece in enumerate(pieces)
        ]
    return [
        (w.start, w.end, "window", None, None, "", None)
        for w in token_windows(text, plan.max_tokens, plan.overlap, plan.counter)
    ]


def _pages(plan: _Plan) -> list[_Span]:
    """chunk_pages over the document's pages (one page when it has none), PAGE rules."""
    document = plan.document
    pages = list(document.pages) if document.pages is not None else [document.text]
    return [
        (c.char_start, c.char_end, "window", None, None, "", None)
        for c in chunk_pages(pages, plan.max_tokens, plan.overlap, plan.counter)
    ]


#: RECORD-10: strategy name -> the function that chunks a document with it.
CHUNK_STRATEGIES: dict[str, Callable[[_Plan], list[_Span]]] = {
    "heading": _heading,
    "structural": _structural,
    "recursive": _recursive,
    "window": _window,
    "pages": _pages,
}

#: The strategy names, in the order ``--help`` lists them.
STRATEGY_NAMES = tuple(CHUNK_STRATEGIES)

#: The strategies that overlap consecutive chunks (CHUNK-6).
OVERLAPPING = frozenset({"heading", "window", "pages"})


def default_overlap(strategy: str, max_tokens: int) -> int:
    """RECORD-13: ``max_tokens // 4`` for pages (seed 004's 100 of 400), else
    ``min(64, max_tokens // 8)`` (CHUNK-6); 0 for the strategies that do not overlap."""
    if strategy == "pages":
        return max_tokens // 4
    if strategy in OVERLAPPING:
        return min(64, max_tokens // 8)
    return 0


def chunk_document(
    document: SourceDocument,
    strategy: str = "heading",
    *,
    max_tokens: int = 512,
    overlap_tokens: int | None = None,
    counter: str = "whitespace",
    count_headings: bool = False,
    split_tables: bool = False,
) -> list[ChunkRecord]:
    """Return the chunk records of ``document`` under ``strategy`` (RECORD-10..RECORD-14).

    ``strategy`` is ``heading``, ``structural``, ``recursive``, ``window`` or ``pages``;
    ``counter`` a counter name (RECORD-5: ``whitespace``, ``chars1`` for character windows,
    ``chars4``, ``tiktoken:cl100k_base``, ``huggingface:PATH``). ``overlap_tokens``
    defaults to :func:`default_overlap` and is refused by the strategies that do not
    overlap; ``count_headings`` and ``split_tables`` belong to ``structural``.

    For every record ``r``: ``r.id == f"{r.doc_id}:{r.index}"``, indexes are 0, 1, 2...,
    ``r.text == r.prefix + document.text[r.start:r.end]`` for every strategy but
    ``recursive``, where ``r.text.split() == document.text[r.start:r.end].split()``.
    """
    plan = _plan(
        document, strategy, max_tokens, overlap_tokens, counter, count_headings, split_tables
    )
    if not document.text.strip():
        return []  # SOURCE-7: seed 002's character windows would window the blanks
    return _records(plan, CHUNK_STRATEGIES[plan.name](plan))


def _plan(
    document: object,
    strategy: object,
    max_tokens: object,
    overlap_tokens: object,
    counter: object,
    count_headings: object,
    split_tables: object,
) -> _Plan:
    """Validate the arguments (each error names its argument) and resolve the defaults."""
    if not isinstance(document, SourceDocument):
        raise ArgumentTypeError("document", "a chunkspec.SourceDocument", document)
    if not isinstance(strategy, str):
        raise ArgumentTypeError("strategy", "a str", strategy)
    if strategy not in CHUNK_STRATEGIES:
        raise ArgumentValueError(
            "strategy", f"must be one of {', '.join(sorted(CHUNK_STRATEGIES))}", strategy
        )
    size = require_int("max_tokens", max_tokens, minimum=1)
    if overlap_tokens is None:
        overlap = default_overlap(strategy, size)
    elif strategy not in OVERLAPPING:
        raise ArgumentValueError(
            "overlap_tokens",
            f"applies to heading, window and pages, not {strategy} (CHUNK-6)",
            overlap_tokens,
        )
    else:
        overlap = require_int("overlap_tokens", overlap_tokens, minimum=0)
        if strategy != "heading" and overlap >= size:
            raise ArgumentValueError("overlap_tokens", f"must be < max_tokens ({size})", overlap)
    if not isinstance(counter, str):
        raise ArgumentTypeError("counter", "a counter name (str)", counter)
    built = counter_from_name(counter)
    for flag, value in (("count_headings", count_headings), ("split_tables", split_tables)):
        if not isinstance(value, bool):
            raise ArgumentTypeError(flag, "a bool", value)
        if value and strategy != "structural":
            raise ArgumentValueError(flag, f"applies to structural, not {strategy}", value)
    assert isinstance(count_headings, bool)  # checked above; for mypy
    assert isinstance(split_tables, bool)
    return _Plan(
        document,
        strategy,
        size,
        overlap,
        built,
        counter_name(built),
        count_headings,
        split_tables,
    )


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
        for block in blocks:
            if block.kind != "heading":
                continue
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            stack.append((block.level, block.text))
            self.starts.append(_line_start(source, block.start))
            self.paths.append(tuple(title for _, title in stack))

    def at(self, offset: int) -> tuple[str, ...]:
        """Return the path of the last heading that starts at or before ``offset``."""
        i = bisect.bisect_right(self.starts, offset)
        return self.paths[i - 1] if i else ()


def _line_start(source: str, offset: int) -> int:
    """Return the start of the MD-2 line holding ``source[offset]``."""
    return max(source.rfind("\n", 0, offset), source.rfind("\r", 0, offset)) + 1


def _section(path: tuple[str, ...], kind: str, text: str) -> str | None:
    """RECORD-12: a heading chunk's own title, else the innermost heading of its path."""
    if kind == "heading":
        return text
    return path[-1] if path and path[-1].strip() else None


def _records(plan: _Plan, spans: list[_Span]) -> list[ChunkRecord]:
    """Turn spans into records: tokens, hash, pages, headings, title, strategy."""
    document = plan.document
    source = document.text
    headings = _Headings(source, document.blocks().blocks)
    page_starts: list[int] | None = None
    if document.pages is not None or plan.name == "pages":
        pages = document.pages if document.pages is not None else (source,)
        page_starts = []
        position = 0
        for page in pages:
            page_starts.append(position)
            position += len(page) + 1
    strategy = plan.strategy
    out: list[ChunkRecord] = []
    for index, (start, end, kind, path, parent, prefix, own) in enumerate(spans):
        text = prefix + source[start:end] if own is None else own
        tokens = plan.counter.count(text)
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
                counter=plan.counter_label,
                content_hash=hash_text(text),
                kind=kind,
                heading_path=path,
                parent_id=parent,
                page_start=first,
                page_end=last,
                section=_section(path, kind, text),
                prefix=prefix,
                oversized=tokens > plan.max_tokens,
                title=document.title,
                source=document.source,
                strategy=strategy,
            )
        )
    return out
