"""Seed 003 ``HeadingAwareChunker``: heading chunks with parent links, budgeted body chunks.

Seed 003 describes an async ``chunk(ctx, parsed)`` over ``ParsedDocument.blocks``. We keep
the algorithm and make it a plain function of a :class:`Document` and a
:class:`ChunkContext`; every chunk is a region of ``document.source`` (rule HEAD-2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .._core._fit import fit_word
from .._core._fit import longest as _longest
from .._core._validate import require_int
from .._core._word_count import word_count
from .._counters._builtin import TokenCounter, WhitespaceCounter
from .._errors import ArgumentTypeError
from .._text._blocks import Block, ChunkContext, Document
from .._text._sentences import sentence_spans
from ._small_chunks import merge_document
from ._span import Span
from ._split_markdown import require_counter
from ._word_units import units_of

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = ["Chunker", "DocumentChunk", "HeadingAwareChunker", "heading_spans"]

_WORD = re.compile(r"\S+")

#: SIZE-11: the blocks the retrieval strategies never cut (MD-9).
_WHOLE = frozenset({"code", "table"})

#: A sentence splitter: the ``(start, end)`` sentences of ``source[start:end]`` (HEAD-7).
Sentences = Callable[[str, int, int], Iterable[tuple[int, int]]]


@dataclass(frozen=True, slots=True)
class DocumentChunk:
    """One chunk of a :class:`Chunker`: ``text == document.source[start:end]`` (HEAD-2).

    ``metadata`` is ``{"kind": "heading", "level": N}`` or ``{"kind": "body"}`` (HEAD-8);
    ``parent_id`` is the id of the closest enclosing heading chunk, or None (HEAD-4);
    ``heading_path`` the titles of the enclosing headings; ``block_attributes`` the
    ``attributes`` of each block that contributed new text, in order (HEAD-11).
    """

    id: str
    document_id: str
    position: int
    parent_id: str | None
    text: str
    start: int
    end: int
    heading_path: tuple[str, ...]
    metadata: Mapping[str, Any] = field(hash=False)
    tenant_id: str = ""
    corpus_id: str = ""
    acl_labels: tuple[str, ...] = ()
    block_attributes: tuple[Mapping[str, Any], ...] = field(default=(), hash=False)

    @property
    def kind(self) -> str:
        """``metadata["kind"]``: ``"heading"`` or ``"body"``."""
        return str(self.metadata["kind"])

    @property
    def embedding_text(self) -> str:
        """``f"{trail}\\n\\n{text}"`` with ``trail = " > ".join(heading_path)``, or ``text``."""
        trail = " > ".join(self.heading_path)
        return f"{trail}\n\n{self.text}" if trail else self.text


@runtime_checkable
class Chunker(Protocol):
    """Anything that chunks a parsed document for a context (the seed-003 SPI)."""

    def chunk(
        self, document: Document, context: ChunkContext | None = None
    ) -> Sequence[DocumentChunk]:
        """Return the chunks of ``document``, numbered by ``position`` from 0."""
        ...


class HeadingAwareChunker:
    """Seed 003's default chunker (rules HEAD-1 to HEAD-12).

    Contract: positions are ``0, 1, 2...``; a heading chunk's ``parent_id`` is the id of the
    nearest earlier heading of a lower level that is still open, a body chunk's is its
    section's heading; ``counter.count(c.text) <= max_tokens`` for every body chunk, overlap
    included (a single character that alone exceeds the budget is the only exception);
    overlap never crosses a heading; whitespace-only blocks are dropped; every chunk carries
    the context's tenant, corpus and ACL labels and the document's id.
    """

    def __init__(
        self,
        max_tokens: int = 512,
        overlap_tokens: int = 64,
        *,
        counter: TokenCounter | None = None,
    ) -> None:
        self.max_tokens = require_int("max_tokens", max_tokens, minimum=1)
        self.overlap_tokens = require_int("overlap_tokens", overlap_tokens, minimum=0)
        self.counter = (
            WhitespaceCounter() if counter is None else require_counter("counter", counter)
        )

    def __repr__(self) -> str:
        return (
            f"HeadingAwareChunker(max_tokens={self.max_tokens}, "
            f"overlap_tokens={self.overlap_tokens}, counter={self.counter!r})"
        )

    def chunk(self, document: Document, context: ChunkContext | None = None) -> list[DocumentChunk]:
        """Return the heading and body chunks of ``document`` in order (HEAD-1..HEAD-12)."""
        if not isinstance(document, Document):
            raise ArgumentTypeError("document", "a chunkspec.markdown.Document", document)
        if context is None:
            context = ChunkContext()
        elif not isinstance(context, ChunkContext):
            raise ArgumentTypeError("context", "a chunkspec.markdown.ChunkContext", context)
        return _Run(self, document, context).run()


_new = object.__new__
_slots: Any = DocumentChunk  # the dataclass's slot descriptors
_set_id = _slots.id.__set__
_set_document_id = _slots.document_id.__set__
_set_position = _slots.position.__set__
_set_parent_id = _slots.parent_id.__set__
_set_text = _slots.text.__set__
_set_start = _slots.start.__set__
_set_end = _slots.end.__set__
_set_heading_path = _slots.heading_path.__set__
_set_metadata = _slots.metadata.__set__
_set_tenant_id = _slots.tenant_id.__set__
_set_corpus_id = _slots.corpus_id.__set__
_set_acl_labels = _slots.acl_labels.__set__
_set_block_attributes = _slots.block_attributes.__set__


def _words(text: str) -> int:
    """``WhitespaceCounter().count(text)`` for a ``str`` known to be one (TOK-1)."""
    return word_count(text)


class _Words:
    """The whitespace words of ``source[start:end]`` as ``(start, end)``, indexed from 0,
    found as they are first read and forgotten once :meth:`forget` passes them (TRUST-51):
    a hard split of a block of a million words holds a chunk's words, not the block's."""

    __slots__ = ("base", "found", "matches")

    def __init__(self, source: str, start: int, end: int) -> None:
        self.matches = _WORD.finditer(source, start, end)
        self.found: list[tuple[int, int]] = []  # words base, base + 1, ...
        self.base = 0

    def __getitem__(self, k: int) -> tuple[int, int]:
        found = self.found
        while k - self.base >= len(found):
            match = next(self.matches)
            found.append((match.start(), match.end()))
        return found[k - self.base]

    def forget(self, k: int) -> None:
        """Let go of the words before word ``k``."""
        if k > self.base:
            del self.found[: k - self.base]
            self.base = k


class _Run:
    """The state of one :meth:`HeadingAwareChunker.chunk` call."""

    __slots__ = (
        "additive",
        "attributes",
        "base",
        "carry",
        "chain",
        "chain_start",
        "context",
        "counter",
        "document",
        "end",
        "fences",
        "full",
        "glue",
        "id_prefix",
        "last_block",
        "lead",
        "lead_parent",
        "lead_start",
        "leading",
        "least",
        "max",
        "measure",
        "out",
        "overlap",
        "path",
        "plain",
        "preamble",
        "sentences",
        "source",
        "stack",
        "start",
        "tokens",
        "trail",
    )

    def __init__(
        self,
        chunker: HeadingAwareChunker,
        document: Document,
        context: ChunkContext,
        trail: bool = False,
        glue: bool = False,
        sentences: Sentences = sentence_spans,
        least: int = 0,
    ) -> None:
        self.max = self.full = self.base = chunker.max_tokens
        self.sentences = sentences  # HEAD-7's first split (the kit's blame varies it)
        self.trail = trail  # SIZE-9: the budget covers the heading trail too
        self.glue = glue  # SIZE-3: a section's first body chunk leaves room for its headings
        self.lead = 0  # the tokens of the headings waiting for their first body chunk
        # SIZE-3: where those headings start (-1: none wait), the parent of the first and
        # the ids of all: a heading whose parent is one of these joins their run (SIZE-5).
        self.lead_start = -1
        self.chain_start = -1  # the first of those headings (lead_start: or the preamble)
        self.lead_parent: str | None = None
        self.chain: set[str] = set()
        self.leading = False  # the first body chunk is being packed beside the headings
        self.least = least  # SIZE-3: min_tokens, for the text before the first heading
        # SIZE-3: (start, tokens) of the one chunk before the first heading; None when
        # there are none, more than one, or a heading came.
        self.preamble: tuple[int, int] | None = None
        # SIZE-11: the code blocks and tables seen, (start, end): an overlap never starts
        # inside one.
        self.fences: list[tuple[int, int]] = []
        self.overlap = chunker.overlap_tokens
        self.counter = chunker.counter
        self.additive = type(self.counter) is WhitespaceCounter
        self.document = document
        self.source = document.source
        self.context = context
        self.out: list[DocumentChunk] = []
        self.stack: list[tuple[int, str, str]] = []  # (level, chunk id, title)
        self.start = -1  # buffer region [start, end); -1 when empty
        self.end = -1
        self.tokens = 0
        self.attributes: list[Mapping[str, Any]] = []
        self.last_block: Block | None = None
        self.carry: tuple[int, int] | None = None  # last flushed body region in the section
        self.path: tuple[str, ...] = ()  # the titles on the stack (HEAD-4)
        # The whitespace counter's count without its argument check: the text is ours.
        self.measure: Callable[[str], int] = _words if self.additive else self.counter.count
        self.plain = self.measure  # the text alone: overlap is measured on it (HEAD-6)
        self.id_prefix = f"{document.document_id}:"  # HEAD-1: ids are "{document_id}:{position}"

    def count(self, start: int, end: int) -> int:
        """Return the tokens of ``source[start:end]``."""
        return self.measure(self.source[start:end])

    def run(self) -> list[DocumentChunk]:
        """Walk the blocks."""
        additive = self.additive
        for block in self.document.blocks:
            if block.kind == "heading":
                self.flush()
                self.carry = None  # HEAD-6: no overlap across a heading
                # HEAD-4: pop every open heading of equal or deeper level.
                while self.stack and self.stack[-1][0] >= block.level:
                    self.stack.pop()
                self.path = tuple(title for _, _, title in self.stack)
                if self.trail:
                    self.budget()
                if not block.text.strip():
                    # HEAD-10: an empty heading ("#") gives no chunk, but still closes the
                    # sections of its level and deeper and still stops overlap.
                    continue
                parent = self.stack[-1][1] if self.stack else None
                chunk = self.emit(
                    block.start,
                    block.end,
                    parent,
                    {
                        "kind": "heading",
                        "level": block.level,
                    },
                    (block.attributes,),
                )
                if self.glue:
                    if self.lead_start < 0 or (
                        parent != self.lead_parent and parent not in self.chain
                    ):
                        # SIZE-3: a heading that would not join the waiting ones (SIZE-5)
                        # starts its own run of headings.
                        self.lead_start, self.lead_parent, self.chain = block.start, parent, set()
                        self.chain_start = block.start
                        if self.preamble is not None and self.preamble[1] < self.least:
                            # SIZE-3: a short text before the first heading waits with it.
                            self.lead_start = self.preamble[0]
                    self.preamble = None
                    self.chain.add(chunk.id)
                self.stack.append((block.level, chunk.id, block.text))
                self.path = (*self.path, block.text)
                if self.trail:
                    self.budget()
                continue
            if self.glue and block.kind in _WHOLE:
                self.fences.append((block.start, block.end))  # SIZE-11
            if self.leading and self.start >= 0:
                # SIZE-3: a block after the first chunk's start is cut to the section's
                # budget; only the first chunk leaves room for the headings.
                lead, measure = self.lead, self.measure
                self.lead_out()
                units = self.units(block) if block.text.strip() else []  # HEAD-10
                self.lead, self.measure, self.leading = lead, measure, True
                self.limit()
                for start, end, tokens in units:
                    self.add(block, start, end, tokens)
                continue
            if self.lead_start >= 0 and self.start < 0:
                self.lead_in(block.start)
            if additive:
                # One count both drops a whitespace-only block (no words) and counts it.
                tokens = word_count(block.text)
                if not tokens:
                    continue  # HEAD-10: whitespace-only blocks are dropped
                if tokens <= self.max:
                    self.add(block, block.start, block.end, tokens)  # HEAD-7: one unit
                    continue
            elif not block.text.strip():
                continue  # HEAD-10: whitespace-only blocks are dropped
            for start, end, tokens in self.units(block):
                self.add(block, start, end, tokens)
        self.flush()
        return self.out

    def budget(self) -> None:
        """SIZE-9: budget the section's body with its trail, unless the trail takes more
        than half of ``max_tokens`` (then the text alone is budgeted)."""
        self.base, self.measure = self.full, self.plain
        self.limit()
        trail = " > ".join(self.path)
        if not trail:
            return
        head = f"{trail}\n\n"
        cost = self.counter.count(head)
        if cost > self.full // 2:
            return
        if self.additive:
            self.base = self.full - cost  # whitespace counts are sums (TOK-1)
            self.limit()
        else:
            count = self.counter.count
            self.measure = lambda text: count(head + text)

    def lead_in(self, at: int) -> None:
        """SIZE-3: pack the first body chunk, which starts at ``at``, so that the headings
        waiting for it fit beside it: their text and markup, ``source[lead_start:at]``.

        Whitespace tokens add (TOK-1): the budget is cut by the headings' count. Another
        counter counts the headings and the chunk together, as the merged record is counted
        (with a trail counted, SIZE-9, the headings' count is taken off instead).
        """
        self.lead_out()
        head = self.source[self.lead_start : at]
        cost = self.plain(head)
        if cost >= self.base and self.chain_start != self.lead_start:
            head = self.source[self.chain_start : at]  # no room for the preamble too
            cost = self.plain(head)
        if self.additive or self.trail:
            self.lead = cost
            self.limit()
        elif cost < self.base:
            count = self.counter.count
            self.measure = lambda text: count(head + text)
        self.leading = True

    def lead_out(self) -> None:
        """SIZE-3: back to the section's own budget."""
        self.lead = 0
        self.limit()
        if not self.trail:
            self.measure = self.plain
        self.leading = False

    def limit(self) -> None:
        """SIZE-3: the budget of the next body chunk: the section's, less the tokens of the
        headings still waiting for their first body chunk when that leaves any."""
        lead = self.lead
        self.max = self.base - lead if lead < self.base else self.base

    def emit(
        self,
        start: int,
        end: int,
        parent: str | None,
        metadata: dict[str, Any],
        attributes: tuple[Mapping[str, Any], ...],
    ) -> DocumentChunk:
        """Append and return the chunk for ``source[start:end]``.

        Built through the dataclass's slots (the fields of HEAD-2, HEAD-8, HEAD-9, nothing
        else): a frozen dataclass's ``__init__`` sets each through ``object.__setattr__``, at
        twice the cost, and a chunk is often a few dozen characters.
        """
        position = len(self.out)
        document_id = self.document.document_id
        context = self.context
        chunk: DocumentChunk = _new(DocumentChunk)
        _set_id(chunk, self.id_prefix + str(position))
        _set_document_id(chunk, document_id)
        _set_position(chunk, position)
        _set_parent_id(chunk, parent)
        _set_text(chunk, self.source[start:end])
        _set_start(chunk, start)
        _set_end(chunk, end)
        _set_heading_path(chunk, self.path)
        _set_metadata(chunk, metadata)
        _set_tenant_id(chunk, context.tenant_id)
        _set_corpus_id(chunk, context.corpus_id)
        _set_acl_labels(chunk, context.acl_labels)
        _set_block_attributes(chunk, attributes)
        self.out.append(chunk)
        return chunk

    def flush(self) -> None:
        """Emit the buffer as a body chunk and remember it for overlap."""
        if self.start < 0:
            return
        parent = self.stack[-1][1] if self.stack else None
        chunk = self.emit(self.start, self.end, parent, {"kind": "body"}, tuple(self.attributes))
        if self.least and not self.chain and not self.stack:
            # SIZE-3: the text before the first heading (chain and stack stay empty until
            # then), if it is one chunk.
            first = chunk.id == self.id_prefix + "0"
            self.preamble = (
                (self.start, self.plain(self.source[self.start : self.end])) if first else None
            )
        if self.lead_start >= 0:
            self.lead_start = -1  # SIZE-3: the waiting headings have their body chunk
            self.chain = set()
            self.lead_out()
        self.carry = (self.start, self.end)
        self.start = self.end = -1
        self.tokens = 0
        self.attributes = []
        self.last_block = None

    def add(self, block: Block, start: int, end: int, tokens: int) -> None:
        """Add the unit ``source[start:end]`` (``tokens`` long, within budget) (HEAD-5).

        Seed 003: "Accumulates body blocks under each heading up to max_tokens (default 512),
        flushes when adding the next block would exceed the budget."
        """
        if self.start >= 0:
            # The whitespace count of a join is the sum of its parts; any other counter's
            # need not be (either way), so the buffer is recounted as HEAD-5 says.
            total = self.tokens + tokens if self.additive else self.count(self.start, end)
            if total <= self.max:
                self.end = end
                self.tokens = total
                self.note(block)
                return
            self.flush()
        self.start, self.end, self.tokens = start, end, tokens
        if self.carry is not None and self.overlap:
            self.seed(start, end, tokens)
        self.note(block)

    def note(self, block: Block) -> None:
        """Record ``block``'s attributes once per chunk."""
        if block is not self.last_block:
            self.attributes.append(block.attributes)
            self.last_block = block

    def seed(self, start: int, end: int, tokens: int) -> None:
        """Prefix the buffer with the tail of the previous chunk (HEAD-6).

        Seed 003: "Within-section overlap (default 64 tokens) seeds the next buffer with the
        trailing text of the just-flushed chunk; overlap is suppressed across heading
        boundaries." We depart where the seed would break its own budget promise: the tail
        shrinks until overlap plus the next unit fit ``max_tokens``.
        """
        assert self.carry is not None
        words = [m.start() for m in _WORD.finditer(self.source, *self.carry)]
        tail_end = self.carry[1]
        if self.additive:
            k = min(self.overlap, self.max - tokens, len(words))
        else:

            def ok(k: int) -> bool:
                at = words[len(words) - k]
                tail = self.plain(self.source[at:tail_end])
                return tail <= self.overlap and self.count(at, end) <= self.max

            k = _longest(0, len(words), lambda k: k == 0 or ok(k))
        if self.glue:
            # SIZE-11: a shorter tail rather than one that starts inside a code block or a
            # table (one that starts at its start holds it whole).
            while k > 0 and self.inside(words[len(words) - k]):
                k -= 1
        if k > 0:
            self.start = words[len(words) - k]
            self.tokens = tokens + k if self.additive else self.count(self.start, end)

    def inside(self, at: int) -> bool:
        """SIZE-11: ``at`` is inside a code block or table seen, after its start."""
        for start, end in reversed(self.fences):
            if start < at < end:
                return True
            if end <= at:
                return False
        return False

    def units(self, block: Block) -> list[tuple[int, int, int]]:
        """Split ``block`` into regions within the budget (HEAD-7).

        Seed 003: "Oversized blocks split on sentence boundaries first; sentences still too
        large hard-split by token count so no body chunk ever exceeds the budget." We add a
        last step the seed leaves out: a single word over the budget (possible with a BPE
        counter) is split by characters.
        """
        tokens = self.measure(block.text)
        if tokens <= self.max or (self.glue and block.kind in _WHOLE):
            return [(block.start, block.end, tokens)]  # SIZE-11: a table or code block whole
        units: list[tuple[int, int, int]] = []
        for start, end in self.sentences(self.source, block.start, block.end):
            tokens = self.count(start, end)
            if tokens <= self.max:
                units.append((start, end, tokens))
            else:
                units.extend(self.hard(start, end))
        return units

    def hard(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """Hard-split an oversized sentence by words, and an oversized word by characters."""
        words = _Words(self.source, start, end)
        units: list[tuple[int, int, int]] = []
        i, n = 0, word_count(self.source[start:end])
        while i < n:
            words.forget(i)
            first = words[i][0]
            k = _longest(i, n, lambda k: k > i and self.count(first, words[k - 1][1]) <= self.max)  # noqa: B023
            if k == i:
                units.extend(self.characters(*words[i]))
                i += 1
            else:
                units.append((first, words[k - 1][1], self.count(first, words[k - 1][1])))
                i = k
        return units

    def characters(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """Split one oversized word into the longest runs of units, then of grapheme
        clusters, that fit (SCRIPT-8): never inside a cluster."""
        fits = lambda a, b: self.count(a, b) <= self.max  # noqa: E731
        pieces = fit_word(self.source, start, end, fits, units_of(self.counter))
        return [(a, b, self.count(a, b)) for a, b in pieces]


class _Id:
    """What :meth:`_Run.run` reads of an emitted chunk: its id (HEAD-4's parent links)."""

    __slots__ = ("id",)

    def __init__(self, chunk_id: str) -> None:
        self.id = chunk_id


class _SpanRun(_Run):
    """One :meth:`HeadingAwareChunker.chunk` run that hands the record loop spans.

    The same walk and the same chunks, without a :class:`DocumentChunk` (and the copy of
    its text) per chunk, which a record does not need (RECORD-10, RECORD-15).
    """

    __slots__ = ("spans",)

    def __init__(
        self,
        chunker: HeadingAwareChunker,
        document: Document,
        trail: bool,
        glue: bool,
        sentences: Sentences = sentence_spans,
        least: int = 0,
    ) -> None:
        super().__init__(chunker, document, ChunkContext(), trail, glue, sentences, least)
        self.spans: list[Span] = []

    def emit(
        self,
        start: int,
        end: int,
        parent: str | None,
        metadata: dict[str, Any],
        attributes: tuple[Mapping[str, Any], ...],
    ) -> Any:
        """Append the span of ``source[start:end]``; return what ``run`` reads of a chunk."""
        position = len(self.spans)
        self.spans.append(Span(start, end, metadata["kind"], self.path, parent))
        return _Id(self.id_prefix + str(position))


def heading_spans(
    document: SourceDocument, options: ChunkOptions, sentences: Sentences = sentence_spans
) -> list[Span]:
    """The ``heading`` strategy: HeadingAwareChunker over the document's blocks (HEAD rules),
    small chunks merged (SIZE-3..SIZE-7) and the trail budgeted when asked (SIZE-9).
    ``sentences`` splits an oversized block first (HEAD-7)."""
    counter = options.token_counter()
    chunker = HeadingAwareChunker(options.max_tokens, options.overlap, counter=counter)
    parsed = document.blocks()
    glue = options.minimum > 0
    walk = _SpanRun(
        chunker, parsed, options.budget_includes_headings, glue, sentences, options.minimum
    )
    walk.run()
    spans = walk.spans
    if not options.minimum:
        return spans
    position = {f"{walk.id_prefix}{i}": i for i in range(len(spans))}
    parents = [None if s.parent_id is None else position[s.parent_id] for s in spans]

    # SIZE-11: the tables and code blocks, kept whole
    blocks = {(b.start, b.end) for b in parsed.blocks if b.kind in _WHOLE}
    # SIZE-5: the chunks before the first heading (the preamble) may take it.
    first = next((i for i, s in enumerate(spans) if s.kind == "heading"), len(spans))

    def joins(run: list[int], k: int) -> bool:
        """SIZE-5: span ``k``'s parent is a heading of the run or a parent of one of its
        spans; a run that starts with a body chunk takes no heading (parents are headings),
        unless that chunk is before the document's first heading."""
        if spans[k].kind == "heading" and spans[run[0]].kind != "heading" and run[0] >= first:
            return False
        parent = parents[k]
        return any(
            parents[i] == parent or (i == parent and spans[i].kind == "heading") for i in run
        )

    runs = merge_document(
        spans,
        document.text,
        counter,
        options,
        joins,
        lambda run, tokens: "heading" if run[0] < first <= run[-1] else spans[run[0]].kind,
        lambda k: spans[k].kind == "heading" and k + 1 < len(spans) and parents[k + 1] == k,
        lambda k: (spans[k].start, spans[k].end) in blocks,
    )
    index = {i: at for at, (run, _) in enumerate(runs) for i in run}
    prefix = f"{document.doc_id}:"
    out: list[Span] = []
    for run, span in runs:
        parent = parents[run[0]]
        out.append(span._replace(parent_id=None if parent is None else f"{prefix}{index[parent]}"))
    return out
