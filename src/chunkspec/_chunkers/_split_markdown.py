"""Seed 001 ``split_markdown``: structure first, size second, with exact source offsets.

Seed 001 reads lines and guesses structure from their first characters; we take structure
from a CommonMark parser (``_markdown.py``, rules MD-1 to MD-6) and keep its promises:
headings open a new chunk, a table or code block is one chunk however long (MD-9), prose is
packed by paragraphs up to an optional budget and split further by the seed-000 rules, which
is seed 001's ``enforceBoundaries`` done with ``split_section``'s own splitter (MD-10).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .._core._fit import fit_word
from .._core._fit import longest as _longest
from .._core._split_section import _split
from .._core._units import unit_count
from .._core._validate import require_int, require_str, require_text
from .._counters._builtin import TokenCounter, UnicodeCounter, WhitespaceCounter
from .._errors import ArgumentTypeError
from .._text._blocks import Block, Document
from .._text._lines import LineTable, line_table
from .._text._markdown import iter_markdown_blocks
from .._text._sentences import sentence_spans
from ._code import code_pieces
from ._small_chunks import merge_document
from ._span import Span
from ._word_units import units_of

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = ["MarkdownChunk", "split_blocks", "split_markdown", "structural_spans"]

#: Block kinds packed together as prose (rule MD-7); the others map to themselves.
_PROSE = frozenset({"paragraph", "list", "quote", "html", "reference", "thematic_break"})

_WORD = re.compile(r"\S+")


@dataclass(frozen=True, slots=True)
class MarkdownChunk:
    """One chunk of :func:`split_markdown`: ``text == prefix + source[start:end]`` (MD-8).

    ``prefix`` is ``""`` except on the second and later pieces of a table split by rows,
    where it is the table's header and delimiter rows, repeated (MD-11).
    ``line_start``/``line_end`` are the 1-based first and last lines of ``source[start:end]``.
    """

    doc_id: str
    text: str
    heading_path: tuple[str, ...]
    kind: str
    start: int
    end: int
    line_start: int
    line_end: int
    prefix: str = ""

    @property
    def embedding_text(self) -> str:
        """Seed 001: ``f"{trail}\\n\\n{text}"`` with ``trail = " > ".join(heading_path)``."""
        trail = " > ".join(self.heading_path)
        return f"{trail}\n\n{self.text}" if trail else self.text


_new = object.__new__
_slots: Any = MarkdownChunk  # the dataclass's slot descriptors
_set_doc_id = _slots.doc_id.__set__
_set_text = _slots.text.__set__
_set_heading_path = _slots.heading_path.__set__
_set_kind = _slots.kind.__set__
_set_start = _slots.start.__set__
_set_end = _slots.end.__set__
_set_line_start = _slots.line_start.__set__
_set_line_end = _slots.line_end.__set__
_set_prefix = _slots.prefix.__set__


def _require_bool(argument: str, value: object) -> bool:
    """Return ``value`` if it is a ``bool``, else raise TypeError."""
    if not isinstance(value, bool):
        raise ArgumentTypeError(argument, "a bool", value)
    return value


def require_counter(argument: str, value: object) -> TokenCounter:
    """Return ``value`` if it has a ``count`` method (the TokenCounter protocol).

    A sequence (str, bytes, list, tuple) has a ``count`` method too, but it counts items,
    not tokens: accepted, ``[].count(text)`` would silently count 0 tokens everywhere.
    """
    if isinstance(value, Sequence) or not isinstance(value, TokenCounter):  # str, bytes too
        raise ArgumentTypeError(argument, "a TokenCounter (an object with count(text))", value)
    return value


def split_markdown(
    doc_id: str,
    source: str,
    max_tokens: int | None = None,
    *,
    counter: TokenCounter | None = None,
    count_headings: bool = False,
    split_tables: bool = False,
) -> list[MarkdownChunk]:
    """Split Markdown ``source`` into chunks under their heading paths (rules MD-1 to MD-11).

    Contract: for every chunk ``c``, ``c.text == c.prefix + source[c.start:c.end]`` and
    ``c.text.strip() != ""``; chunks are in source order and their regions are disjoint;
    every non-blank line that is not part of a top-level heading lies in exactly one region;
    ``c.heading_path`` is the titles of the heading stack above ``c``. With ``max_tokens``,
    ``counter.count(t) <= max_tokens`` where ``t`` is ``c.embedding_text`` if
    ``count_headings`` else ``c.text``, unless ``c`` is a whole table or code block, a single
    table row, or a single word (MD-10).

    Raises TypeError for a non-``str`` ``doc_id``/``source``, a non-``int`` ``max_tokens``, a
    ``counter`` without ``count`` or a non-``bool`` flag; ValueError for ``max_tokens < 1``
    and for a lone surrogate in ``source``.
    """
    require_str("doc_id", doc_id)
    require_text("source", source)
    if max_tokens is not None:
        require_int("max_tokens", max_tokens, minimum=1)
    measure = WhitespaceCounter() if counter is None else require_counter("counter", counter)
    _require_bool("count_headings", count_headings)
    _require_bool("split_tables", split_tables)
    return _Splitter(doc_id, source, max_tokens, measure, count_headings, split_tables).run()


def split_blocks(
    document: Document,
    max_tokens: int,
    counter: TokenCounter,
    *,
    count_headings: bool = False,
    split_tables: bool = False,
) -> list[MarkdownChunk]:
    """:func:`split_markdown`'s packing over a parsed document's own blocks (RECORD-12).

    For Markdown it equals ``split_markdown(document.document_id, document.source, ...)``;
    plain text (MD-12) and JSON blocks (MD-13) keep the blocks they were read as, so a
    ``# line`` in a ``.txt`` file stays text.
    """
    return _Splitter(
        document.document_id, document.source, max_tokens, counter, count_headings, split_tables
    ).run(document.blocks)


class _Splitter:
    """The state of one :func:`split_markdown` call."""

    def __init__(
        self,
        doc_id: str,
        source: str,
        budget: int | None,
        counter: TokenCounter,
        count_headings: bool,
        split_tables: bool,
        *,
        half: bool = False,
        lines: bool = True,
    ) -> None:
        self.half = half  # SIZE-9: a trail over half the budget is not counted
        self.doc_id = doc_id
        self.source = source
        self.budget = budget
        self.counter = counter
        self.additive = type(counter) is WhitespaceCounter
        # Counters whose count of blocks joined by whitespace is the sum of the blocks'
        # counts (their tokens never hold or cross whitespace: TOK-1, SCRIPT-3): a run of
        # blocks is then packed by adding counts, never by counting the run again.
        self.summable = self.additive or type(counter) is UnicodeCounter
        self.count_headings = count_headings
        self.split_tables = split_tables
        # MD-2's line table: for a chunk's line numbers, and to split a table by rows.
        self.starts: Sequence[int] | None = None
        self.ends: Sequence[int] | None = None
        if lines:
            self.starts, self.ends = line_table(source)
        self.path: tuple[str, ...] = ()
        self.trail = ""
        self.trail_tokens = 0
        self.counted = count_headings
        self.out: list[MarkdownChunk] = []

    def lines(self) -> LineTable:
        """The MD-2 line table of ``source`` (built on first use when not built up front)."""
        if self.starts is None or self.ends is None:
            self.starts, self.ends = line_table(self.source)
        return self.starts, self.ends

    def run(self, blocks: Iterable[Block] | None = None) -> list[MarkdownChunk]:
        """Walk the blocks (``source``'s Markdown blocks unless given), emit chunks."""
        stack: list[tuple[int, str]] = []
        prose: list[Block] = []
        if blocks is None:
            # Streamed: only a window of the fast scan's blocks is alive at once (MD-14).
            blocks = iter_markdown_blocks(self.source, self.lines())
        for block in blocks:
            if block.kind == "heading":
                self.prose(prose)
                prose = []
                # MD-7: "a heading stack must pop every entry of equal or deeper level";
                # the seed cut the path by list position (heading_path[: level - 1]).
                while stack and stack[-1][0] >= block.level:
                    stack.pop()
                stack.append((block.level, block.text))
                self.set_path(tuple(title for _, title in stack))
                continue
            if block.text.isspace():
                continue  # whitespace-only blocks carry nothing (MD-8)
            if block.kind in _PROSE:
                prose.append(block)
                continue
            self.prose(prose)
            prose = []
            if block.kind == "table":
                self.table(block)
            elif block.kind == "code":
                self.code(block)
            else:
                self.pack([block], "definition")
        self.prose(prose)
        return self.out

    def set_path(self, path: tuple[str, ...]) -> None:
        """Enter a new section under ``path``."""
        self.path = path
        self.trail = " > ".join(path)
        self.trail_tokens = self.counter.count(self.trail) if self.count_headings else 0
        self.counted = self.count_headings
        half = (self.budget or 0) // 2
        if self.half and self.trail and self.counter.count(f"{self.trail}\n\n") > half:
            self.trail_tokens = 0
            self.counted = False

    def emit(
        self, kind: str, start: int, end: int, prefix: str = "", tokens: int | None = None
    ) -> None:
        """Append the chunk for ``source[start:end]`` (``tokens``, its count when known, is
        for the record loop: a chunk has no field for it).

        Built through the dataclass's slots (the fields of MD-8, nothing else): a frozen
        dataclass's ``__init__`` sets each through ``object.__setattr__``, at twice the cost,
        and a chunk is often a few dozen characters.
        """
        chunk: MarkdownChunk = _new(MarkdownChunk)
        _set_doc_id(chunk, self.doc_id)
        _set_text(chunk, prefix + self.source[start:end] if prefix else self.source[start:end])
        _set_heading_path(chunk, self.path)
        _set_kind(chunk, kind)
        _set_start(chunk, start)
        _set_end(chunk, end)
        starts = self.starts
        assert starts is not None  # built up front for MarkdownChunks
        _set_line_start(chunk, bisect_right(starts, start))
        _set_line_end(chunk, bisect_right(starts, end - 1))
        _set_prefix(chunk, prefix)
        self.out.append(chunk)

    def measured(self, text: str) -> int:
        """Return the tokens the budget sees for a chunk whose text is ``text``."""
        if self.counted and self.trail:
            return self.counter.count(f"{self.trail}\n\n{text}")
        return self.counter.count(text)

    def fits(self, start: int, end: int, prefix: str = "") -> bool:
        """Return True if a chunk ``prefix + source[start:end]`` is within the budget."""
        assert self.budget is not None
        return self.measured(prefix + self.source[start:end]) <= self.budget

    def prose(self, blocks: list[Block]) -> None:
        """Pack a run of prose blocks."""
        if blocks:
            self.pack(blocks, "prose")

    def pack(self, blocks: list[Block], kind: str) -> None:
        """Pack ``blocks`` greedily into chunks of ``kind`` (MD-10)."""
        if self.budget is None:
            self.emit(kind, blocks[0].start, blocks[-1].end)
            return
        units: list[tuple[int, int, int]] = []
        count = unit_count if type(self.counter) is UnicodeCounter else self.counter.count
        for block in blocks:
            # The whitespace counter's count without its argument check: the text is ours.
            tokens = len(block.text.split()) if self.additive else count(block.text)
            if tokens + self.trail_tokens <= self.budget and (
                self.summable or self.fits(block.start, block.end)
            ):
                units.append((block.start, block.end, tokens))
                continue
            # An oversized paragraph: seed 000's rules split it; its pieces stand alone.
            self.greedy(units, kind)
            units = []
            for start, end in self.oversized(block.start, block.end):
                self.emit(kind, start, end)
        self.greedy(units, kind)

    def greedy(self, units: list[tuple[int, int, int]], kind: str) -> None:
        """Emit maximal runs of ``units`` that fit the budget, in order."""
        assert self.budget is not None
        i, n = 0, len(units)
        while i < n:
            total = self.trail_tokens + units[i][2]
            j = i + 1
            while j < n and total + units[j][2] <= self.budget:
                total += units[j][2]
                j += 1
            if not self.summable and not self.fits(units[i][0], units[j - 1][1]):
                # The counter is not additive over blank lines: find the longest run that
                # really fits (one unit alone always does).
                first = units[i][0]
                j = _longest(i + 1, j - 1, lambda k: self.fits(first, units[k - 1][1]))  # noqa: B023
            # A summable counter's run count is the sum of its blocks' counts (the blanks
            # between them hold no token): the chunk's own count, for RECORD-14.
            tokens = total - self.trail_tokens if self.summable else None
            self.emit(kind, units[i][0], units[j - 1][1], tokens=tokens)
            i = j

    def oversized(self, start: int, end: int) -> list[tuple[int, int]]:
        """Split ``source[start:end]`` by seed 000's rules into regions that fit (MD-10)."""
        assert self.budget is not None
        words = [(m.start(), m.end()) for m in _WORD.finditer(self.source, start, end)]
        parts: list[tuple[str, int]] = []
        _split(
            self.source[start:end], max(1, self.budget - self.trail_tokens), parts, oversized=True
        )
        regions: list[tuple[int, int]] = []
        w = 0
        for _, tokens in parts:
            first, last = words[w], words[w + tokens - 1]
            w += tokens
            fits = (
                tokens + self.trail_tokens <= self.budget
                if self.additive
                else self.fits(first[0], last[1])
            )
            if fits:
                regions.append((first[0], last[1]))
            else:
                # Seed 000 keeps a piece with no separator whole (SPLIT-5), e.g. "a\rb"
                # split at spaces; we depart: its words are packed by the budget as well.
                regions.extend(self.hard(words[w - tokens : w]))
        return regions

    def hard(self, words: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Split a run of words into the longest prefixes that fit; a lone word stays whole
        unless it alone counts over the budget: then its sentences (SENT-6), units and
        grapheme clusters are packed by the budget (SCRIPT-8)."""
        regions: list[tuple[int, int]] = []
        i, n = 0, len(words)
        while i < n:
            first = words[i][0]
            k = _longest(i + 1, n, lambda k: self.fits(first, words[k - 1][1]))  # noqa: B023
            if k == i + 1 and not self.additive and self.over(*words[i]):
                regions.extend(self.split_word(*words[i]))
            else:
                regions.append((first, words[k - 1][1]))
            i = k
        return regions

    def over(self, start: int, end: int) -> bool:
        """True when ``source[start:end]`` alone, without a heading trail, is over budget."""
        assert self.budget is not None
        return self.counter.count(self.source[start:end]) > self.budget

    def split_word(self, start: int, end: int) -> list[tuple[int, int]]:
        """SCRIPT-8: a word over the budget by its sentences, then units, then clusters."""
        regions: list[tuple[int, int]] = []
        units_in = units_of(self.counter)
        for a, b in sentence_spans(self.source, start, end):
            regions.extend(fit_word(self.source, a, b, lambda s, e: not self.over(s, e), units_in))
        # Pack the pieces again so that short sentences share a chunk.
        packed: list[tuple[int, int]] = []
        for a, b in regions:
            if packed and not self.over(packed[-1][0], b):
                packed[-1] = (packed[-1][0], b)
            else:
                packed.append((a, b))
        return packed

    def code(self, block: Block) -> None:
        """Emit a code block whole (MD-9)."""
        self.emit("code", block.start, block.end)

    def table(self, block: Block) -> None:
        """Emit a table whole, or by rows with the header repeated if asked (MD-9, MD-11)."""
        if not self.split_tables or self.budget is None:
            self.emit("table", block.start, block.end)
            return
        starts, ends = self.lines()
        first = bisect_right(starts, block.start) - 1
        last = bisect_right(starts, block.end - 1)  # one past the table's last line
        heads = _header_lines(block)
        if last - first < heads + 2 or self.fits(block.start, block.end):
            self.emit("table", block.start, block.end)
            return
        body = starts[first + heads]
        header = self.source[block.start : body]
        rows = [(starts[k], ends[k]) for k in range(first + heads, last)]
        i, n = 0, len(rows)
        while i < n:
            start = block.start if i == 0 else rows[i][0]
            prefix = "" if i == 0 else header
            k = _longest(i + 1, n, lambda k: self.fits(start, rows[k - 1][1], prefix))  # noqa: B023
            self.emit("table", start, rows[k - 1][1], prefix)
            i = k


#: MD-18: an opening fence (up to three spaces, three or more backticks or tildes) and its
#: info string's first word, through the end of its line.
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*([^\s`]+)[^\r\n]*(?:\r\n|\r|\n)")
#: The closing fence: the last line of the block, fence characters only.
_CLOSING = re.compile(r"(?<=[\r\n]) {0,3}(`{3,}|~{3,})[ \t]*\Z")

#: MD-18: info-string words naming a language of CODE-1 (any case).
_FENCE_LANGUAGES = {
    **{name: name for name in ("python", "javascript", "typescript", "tsx", "go", "rust")},
    **{name: name for name in ("java", "c", "cpp")},
    "py": "python",
    "python3": "python",
    "js": "javascript",
    "jsx": "javascript",
    "mjs": "javascript",
    "node": "javascript",
    "ts": "typescript",
    "golang": "go",
    "rs": "rust",
    "h": "c",
    "c++": "cpp",
    "cc": "cpp",
    "cxx": "cpp",
    "hpp": "cpp",
}


def _header_lines(block: Block) -> int:
    """MD-11: a Markdown table's header is its first two lines (header and delimiter rows);
    an HTML table's (HTML-10) and a JSON table block's is its ``header_rows`` attribute."""
    rows = block.attributes.get("header_rows")
    if isinstance(rows, int) and not isinstance(rows, bool) and rows >= 0:
        return rows
    return 2


class _SpanSplitter(_Splitter):
    """:func:`split_blocks`' packing that hands the record loop spans, not chunks.

    The same chunks (one ``pack``, one ``greedy``), without a :class:`MarkdownChunk` and its
    line numbers, which a record does not hold (RECORD-15 derives them): the MD-2 line
    table is then built only to split a table by rows.
    """

    def __init__(self, document: Document, options: ChunkOptions) -> None:
        super().__init__(
            document.document_id,
            document.source,
            options.max_tokens,
            options.token_counter(),
            options.count_headings or options.budget_includes_headings,
            options.split_tables,
            half=options.budget_includes_headings,
            lines=False,
        )
        self.spans: list[Span] = []
        self.split_code = options.split_code

    def code(self, block: Block) -> None:
        """MD-18: a fenced block of a known language over the budget, split by its tree."""
        fence = _FENCE.match(self.source, block.start, block.end)
        language = None if fence is None else _FENCE_LANGUAGES.get(fence.group(2).lower())
        if (
            not self.split_code
            or self.budget is None
            or language is None
            or fence is None
            or self.fits(block.start, block.end)
        ):
            super().code(block)
            return
        body = fence.end()
        closing = _CLOSING.search(self.source, body, block.end)
        close_at = block.end if closing is None else closing.start()
        if closing is not None:  # CommonMark: the opening fence's character, as long or more
            marks, opened = closing.group(1), fence.group(1)
            if marks[0] != opened[0] or len(marks) < len(opened):
                close_at = block.end
        content = self.source[body:close_at]
        if not content.strip():
            super().code(block)
            return
        opening = self.source[block.start : fence.end()]
        closing_text = self.source[close_at : block.end]
        budget = self.budget
        measured = self.measured

        def measure(a: int, b: int, prefix: str) -> int:
            # MD-18: each piece is counted with both fence lines (the first and the last
            # piece hold them; the budget holds for every piece whichever it is)
            return measured(opening + prefix + content[a:b] + closing_text)

        pieces = code_pieces(content, language, measure, budget)
        last = len(pieces) - 1
        for i, (a, b, labels) in enumerate(pieces):
            start = block.start if i == 0 else body + a
            end = block.end if i == last else body + b
            self.spans.append(Span(start, end, "code", (*self.path, *labels)))

    def emit(
        self, kind: str, start: int, end: int, prefix: str = "", tokens: int | None = None
    ) -> None:
        """Append the span of the chunk ``prefix + source[start:end]``, with its count when
        the packing summed it (RECORD-14)."""
        self.spans.append(Span(start, end, kind, self.path, None, prefix, None, tokens))


def structural_spans(document: SourceDocument, options: ChunkOptions) -> list[Span]:
    """The ``structural`` strategy: split_markdown's packing of the blocks (MD rules), small
    chunks merged (SIZE-3..SIZE-6) and the trail budgeted when asked (SIZE-9)."""
    parsed = document.blocks()
    counter = options.token_counter()
    splitter = _SpanSplitter(parsed, options)
    splitter.run(parsed.blocks)
    spans = splitter.spans
    titled = [block for block in parsed.blocks if block.kind == "heading" and block.text.strip()]
    if not spans and titled and options.minimum:
        # MD-19: a document of headings only is chunked as one prose run of its headings'
        # lines (from the first title to the last), packed and split by MD-10.
        start, end = titled[0].start, titled[-1].end
        splitter.set_path(())
        splitter.pack([Block("paragraph", document.text[start:end], start, end)], "heading")
    if not options.minimum:
        return spans
    heads = [block.start for block in parsed.blocks if block.kind == "heading"]

    def joins(run: list[int], k: int) -> bool:
        """SIZE-5: no heading starts between the run's end and span ``k``."""
        at = bisect_left(heads, spans[run[-1]].end)
        return at == len(heads) or heads[at] >= spans[k].start

    def kind_of(run: list[int], tokens: list[int]) -> str:
        """SIZE-5: the kind of the run's largest span (the first of equals)."""
        return spans[max(run, key=lambda i: (tokens[i], -i))].kind

    runs = merge_document(spans, document.text, counter, options, joins, kind_of)
    return [span for _, span in runs]
