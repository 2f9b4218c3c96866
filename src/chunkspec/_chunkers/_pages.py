"""The page-aware chunker (seed 004, done right): token windows with exact provenance.

The document is ``full_text = "\\f".join(page texts)`` (rule PAGE-2). Windows are cut at
token starts of the chosen counter, so ``c.text == full_text[c.char_start:c.char_end]``
holds by construction (rule PAGE-6); nothing is searched for afterwards.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .._core._validate import require_int, require_str
from .._counters._builtin import TokenSpanCounter, WhitespaceCounter, checked_starts
from .._errors import ArgumentTypeError, ArgumentValueError
from .._text._paged import PAGE_SEPARATOR, Page, checked_pages, join_pages
from .._text._sentences import TERMINATORS, sentence_ends
from ._cuts import Cuts, split_clusters
from ._span import Span

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = [
    "PAGE_SEPARATOR",
    "SENTENCE_ENDS",
    "Page",
    "PageChunk",
    "PageChunker",
    "SectionSpan",
    "chunk_pages",
    "join_pages",
    "page_spans",
]

#: Seed 004: ``['. ', '.\n', '? ', '?\n', '! ', '!\n']``; we take every script's
#: terminators (SENT-1, SENT-5), with closers after them, rule PAGE-9.
SENTENCE_ENDS = TERMINATORS


@dataclass(frozen=True, slots=True)
class SectionSpan:
    """A labelled region ``full_text[start:end]`` of the document (rule PAGE-12)."""

    start: int
    end: int
    label: str


@dataclass(frozen=True, slots=True)
class PageChunk:
    """One chunk: ``text == full_text[char_start:char_end]`` and ``text == text.strip()``.

    ``page_start .. page_end`` are the numbers of the first and last page that the range
    touches (rule PAGE-11); ``section`` is the label of the section holding the largest
    share of the range, ``section_confidence`` that share (rule PAGE-12); ``oversized`` is
    true only for a single token whose text alone counts over the budget (rule PAGE-8).
    """

    text: str
    index: int
    char_start: int
    char_end: int
    page_start: int
    page_end: int
    section: str | None
    section_confidence: float
    token_count: int
    oversized: bool = False

    @property
    def start(self) -> int:
        """``char_start``: the SourceChunk view."""
        return self.char_start

    @property
    def end(self) -> int:
        """``char_end``: the SourceChunk view."""
        return self.char_end

    @property
    def embedding_text(self) -> str:
        """What an embedder should see: the chunk's text."""
        return self.text


def _sections(sections: object, n: int) -> list[SectionSpan]:
    """Validate sections: ``SectionSpan`` in ``[0, n]``, sorted, non-overlapping (PAGE-12)."""
    if isinstance(sections, (str, bytes)) or not isinstance(sections, Sequence):
        raise ArgumentTypeError("sections", "a sequence of SectionSpan", sections)
    result: list[SectionSpan] = []
    for i, span in enumerate(sections):
        if not isinstance(span, SectionSpan):
            raise ArgumentTypeError(f"sections[{i}]", "a SectionSpan", span)
        start = require_int(f"sections[{i}].start", span.start, minimum=0)
        end = require_int(f"sections[{i}].end", span.end, minimum=0)
        require_str(f"sections[{i}].label", span.label)
        if end < start:
            raise ArgumentValueError(f"sections[{i}].end", f"must be >= start ({start})", end)
        if end > n:
            raise ArgumentValueError(
                f"sections[{i}].end", f"lies outside the text (length {n})", end
            )
        if result and start < result[-1].end:
            raise ArgumentValueError(
                f"sections[{i}].start",
                f"must be >= the previous section's end ({result[-1].end}): sections must be "
                "sorted and must not overlap",
                start,
            )
        result.append(span)
    return result


class _SentenceEnds:
    """Finds the last token boundary that ends a sentence, by bisection (rule PAGE-9).

    Boundary ``j`` is the cut before token ``j``, at character ``starts[j]``. It ends a
    sentence when only whitespace lies between a sentence end of SENT-1, SENT-5 and SENT-6
    (terminators and closers) and ``starts[j]``: that is, when ``end <= starts[j] <=
    after`` for one sentence end ``end`` and the end ``after`` of the whitespace run there.
    """

    def __init__(self, text: str, starts: Sequence[int]) -> None:
        self.starts = starts
        # Each end and the end of its whitespace run, as machine integers: a split of the
        # text into its parts would copy the whole text, and Python ints take 28 bytes each.
        self.ends: array[int] = array("q")
        self.afters: array[int] = array("q")
        mark, after = self.ends.append, self.afters.append
        n = len(text)
        for end in sentence_ends(text):
            mark(end)
            k = end
            while k < n and text[k].isspace():
                k += 1
            after(k)

    def last(self, lowest: int, highest: int, cuts: Cuts) -> int | None:
        """Return the largest cut ``j`` in ``[lowest, highest]`` ending a sentence."""
        starts = self.starts
        i = bisect.bisect_right(self.ends, starts[highest]) - 1  # last end at or before
        while i >= 0:
            j = min(highest, bisect.bisect_right(starts, self.afters[i]) - 1)
            j_cut = cuts.at_or_before(j, lowest)
            if j_cut is None:
                return None  # earlier ends only give earlier boundaries
            if starts[j_cut] >= self.ends[i]:
                return j_cut
            i -= 1  # no cut starts inside this end's whitespace run
        return None


def _windows(
    text: str, counter: TokenSpanCounter, max_tokens: int, overlap: int
) -> list[tuple[int, int, int, bool]]:
    """Return the chunks' trimmed ranges as ``(start, end, token count, oversized)``."""
    starts = checked_starts(counter, text)
    n_tokens = len(starts)
    n = len(text)
    out: list[tuple[int, int, int, bool]] = []
    if n_tokens == 0:
        # No tokens (e.g. a tokenizer that drops every character): one window, all text.
        trimmed = _trim(text, 0, n)
        if trimmed is not None:
            count = counter.count(text[trimmed[0] : trimmed[1]])
            out.append((*trimmed, count, count > max_tokens))
        return out
    cuts = Cuts(text, starts, counter)  # SCRIPT-10: never inside a grapheme cluster
    starts = cuts.positions
    sentences = _SentenceEnds(text, starts)
    s = 0
    while True:
        e = min(s + max_tokens, n_tokens)
        # SCRIPT-10: the last cut at or before e; a cluster longer than the window: the next.
        e = cuts.at_or_before(e, s + 1) or cuts.after(e)
        if e < n_tokens:
            # Seed: "Try to break at sentence boundary in last 20% of chunk"; we also keep
            # the break past the overlap, so the next window still moves forward (PAGE-9).
            floor = max(s + (4 * max_tokens) // 5, s + overlap + 1)
            if floor <= e:
                best = sentences.last(floor, e, cuts)
                if best is not None:
                    e = best
        pieces: list[tuple[int, int, int]] = []
        while True:
            lo = 0 if s == 0 else starts[s]
            hi = n if e == n_tokens else starts[e]
            trimmed = _trim(text, lo, hi)
            if trimmed is None:
                break
            count = counter.count(text[trimmed[0] : trimmed[1]])
            if count <= max_tokens:
                pieces.append((*trimmed, count))
                break
            smaller = cuts.at_or_before(e - 1, s + 1)
            if smaller is None:
                # No cut inside: split at clusters; a piece over is one cluster (PAGE-8).
                for a, b, c in split_clusters(text, *trimmed, counter, max_tokens):
                    piece = _trim(text, a, b)
                    if piece is not None:
                        pieces.append(
                            (
                                *piece,
                                c if piece == (a, b) else counter.count(text[piece[0] : piece[1]]),
                            )
                        )
                break
            e = smaller  # re-counting the text disagreed with the document's tokens (PAGE-7)
        for a, b, count in pieces:
            if not out or b > out[-1][1]:
                out.append((a, b, count, count > max_tokens))
        if e == n_tokens:
            return out
        # PAGE-10 under SCRIPT-10: the last cut at or before e - overlap, past s.
        target = max(e - overlap, s + 1)
        s = cuts.at_or_before(target, s + 1) or cuts.after(target)


def _trim(text: str, lo: int, hi: int) -> tuple[int, int] | None:
    """Return ``(a, b)`` with ``text[a:b] == text[lo:hi].strip()``, or None if that is empty."""
    piece = text[lo:hi]
    left = len(piece) - len(piece.lstrip())
    if left == len(piece):
        return None
    right = len(piece.rstrip())
    return lo + left, lo + right


class PageChunker:
    """Chunk a paged document into overlapping token windows with exact page provenance.

    ``chunk(pages)`` returns ``PageChunk`` objects with ``c.text ==
    join_pages(pages)[c.char_start:c.char_end]`` (rule PAGE-6); budget and overlap are in
    tokens of ``counter`` (default ``WhitespaceCounter``; the seed's chars/4 estimate is
    ``CharEstimateCounter()``).
    """

    def __init__(
        self,
        max_tokens: int = 400,
        overlap_tokens: int = 100,
        counter: TokenSpanCounter | None = None,
    ) -> None:
        self.max_tokens = require_int("max_tokens", max_tokens, minimum=1)
        self.overlap_tokens = require_int("overlap_tokens", overlap_tokens, minimum=0)
        if self.overlap_tokens >= self.max_tokens:
            raise ArgumentValueError(
                "overlap_tokens", f"must be < max_tokens ({self.max_tokens})", overlap_tokens
            )
        self.counter: TokenSpanCounter = WhitespaceCounter() if counter is None else counter
        if not isinstance(self.counter, TokenSpanCounter):
            raise ArgumentTypeError(
                "counter", "a TokenSpanCounter (count and token_spans)", counter
            )

    def chunk(
        self,
        pages: Sequence[str] | Sequence[Page],
        sections: Sequence[SectionSpan] = (),
    ) -> list[PageChunk]:
        """Return the chunks of ``pages``; see the class docstring and docs/spec/pages.md."""
        page_list = checked_pages(pages)
        full_text = PAGE_SEPARATOR.join(p.text for p in page_list)
        section_list = _sections(sections, len(full_text))
        # Page k occupies full_text[offsets[k] : offsets[k] + len(page k)].
        offsets: list[int] = []
        position = 0
        for page in page_list:
            offsets.append(position)
            position += len(page.text) + 1
        chunks: list[PageChunk] = []
        page_i = 0  # the page holding the current chunk's start
        section_i = 0  # the first section that may overlap the current chunk
        windows = _windows(full_text, self.counter, self.max_tokens, self.overlap_tokens)
        for index, (a, b, count, oversized) in enumerate(windows):
            # Trimmed ranges start and end on non-whitespace, so on page characters.
            while offsets[page_i] + len(page_list[page_i].text) <= a:
                page_i += 1
            last_i = page_i
            while offsets[last_i] + len(page_list[last_i].text) < b:
                last_i += 1
            while section_i < len(section_list) and section_list[section_i].end <= a:
                section_i += 1
            label, share = _best_section(section_list, section_i, a, b)
            text = full_text[a:b]
            chunks.append(
                PageChunk(
                    text=text,
                    index=index,
                    char_start=a,
                    char_end=b,
                    page_start=page_list[page_i].number,
                    page_end=page_list[last_i].number,
                    section=label,
                    section_confidence=share,
                    token_count=count,
                    oversized=oversized,
                )
            )
        return chunks

    def __repr__(self) -> str:
        return (
            f"PageChunker(max_tokens={self.max_tokens}, overlap_tokens={self.overlap_tokens}, "
            f"counter={self.counter!r})"
        )


def _best_section(
    sections: list[SectionSpan], first: int, a: int, b: int
) -> tuple[str | None, float]:
    """Return the label with the largest overlap with ``[a, b)`` and its share of it.

    Ties go to the earlier section; no overlap gives ``(None, 0.0)`` (rule PAGE-12).
    """
    best_label: str | None = None
    best = 0
    i = first
    while i < len(sections) and sections[i].start < b:
        inside = min(b, sections[i].end) - max(a, sections[i].start)
        if inside > best:
            best, best_label = inside, sections[i].label
        i += 1
    return best_label, (best / (b - a) if best else 0.0)


def chunk_pages(
    pages: Sequence[str] | Sequence[Page],
    max_tokens: int = 400,
    overlap_tokens: int = 100,
    counter: TokenSpanCounter | None = None,
    sections: Sequence[SectionSpan] = (),
) -> list[PageChunk]:
    """Return ``PageChunker(max_tokens, overlap_tokens, counter).chunk(pages, sections)``."""
    return PageChunker(max_tokens, overlap_tokens, counter).chunk(pages, sections)


def page_spans(document: SourceDocument, options: ChunkOptions) -> list[Span]:
    """The ``pages`` strategy: chunk_pages over the pages (one page when it has none).

    A Markdown document's front matter is not windowed (FM-2): its characters are left out
    of the pages but its page breaks, so page numbers stay those of the text.
    """
    body = document.body_start
    if body:
        breaks = document.text.count(PAGE_SEPARATOR, 0, body)
        text = PAGE_SEPARATOR * breaks + document.text[body:]
        pages = text.split(PAGE_SEPARATOR) if document.pages is not None else [text]
        shift = body - breaks
    else:
        pages = list(document.pages) if document.pages is not None else [document.text]
        shift = 0
    chunks = chunk_pages(pages, options.max_tokens, options.overlap, options.token_counter())
    # A chunk's token_count is the count _windows took of its text, the record's text.
    return [
        Span(shift + c.char_start, shift + c.char_end, "window", tokens=c.token_count)
        for c in chunks
    ]
