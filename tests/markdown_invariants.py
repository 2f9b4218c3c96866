"""Invariants of split_markdown and HeadingAwareChunker, checked on any source.

Shared by tests/text/test_commonmark.py (all 655 CommonMark examples) and the property suites.
Structure comes from the models in properties/models.py, which ask markdown-it directly.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from properties.models import (
    model_front_matter,
    model_heading_path_at,
    model_lines,
    model_top_level,
)

from chunkspec import HeadingAwareChunker, parse_markdown, split_markdown
from chunkspec.contract import CHECKS, Subject, run_check, sample_context
from chunkspec.counters import WhitespaceCounter
from chunkspec.markdown import Document, DocumentChunk, MarkdownChunk


def _norm(title: str) -> str:
    """Compare titles modulo markdown-it's normalisation (\\r\\n, NUL) and spacing."""
    return " ".join(title.replace("\ufffd", "\x00").split())


def heading_lines(source: str) -> set[int]:
    """0-based lines that belong to top-level headings (per markdown-it)."""
    lines: set[int] = set()
    for kind, first, end, _, _ in model_top_level(source):
        if kind == "heading_open":
            lines.update(range(first, end))
    return lines


def front_matter_end(source: str) -> int:
    """FM-1: the offset where the model's front matter ends (its closing line's end), or 0."""
    found = model_front_matter(source)
    return 0 if found is None else model_lines(source)[found[1] - 1][1]


def check_split_markdown(
    source: str,
    chunks: list[MarkdownChunk],
    max_tokens: int | None,
    *,
    count_headings: bool = False,
    split_tables: bool = False,
) -> None:
    """Assert every split_markdown property (MD-7 to MD-11) of ``chunks`` for ``source``."""
    lines = model_lines(source)
    line_of = _line_index(lines)
    previous_end = 0
    for c in chunks:
        # MD-8: the one equation, and the line numbers.
        assert c.text == c.prefix + source[c.start : c.end], c
        assert c.text.strip(), c
        assert c.line_start == line_of(c.start) + 1, c
        assert c.line_end == line_of(c.end - 1) + 1, c
        trail = " > ".join(c.heading_path)
        assert c.embedding_text == (f"{trail}\n\n{c.text}" if trail else c.text)
        assert c.kind in ("prose", "table", "code", "definition"), c
        assert c.prefix == "" or (split_tables and c.kind == "table"), c
        # MD-8: order and disjointness.
        assert previous_end <= c.start < c.end, (previous_end, c)
        previous_end = c.end
        # MD-7: the heading path equals a literal stack over the headings above.
        model = model_heading_path_at(source, line_of(c.start))
        assert [_norm(t) for t in c.heading_path] == [_norm(t) for t in model], (c, model)
    # FM-2: no chunk holds any of the front matter.
    fence = front_matter_end(source)
    assert all(c.start >= fence for c in chunks), (fence, chunks)
    # MD-8: every non-blank line outside heading lines and front matter lies in one chunk.
    headings = heading_lines(source)
    for n, (start, end) in enumerate(lines):
        if n in headings or not source[start:end].strip() or start < fence:
            continue
        first_char = start + len(source[start:end]) - len(source[start:end].lstrip())
        holders = [c for c in chunks if c.start <= first_char < c.end]
        assert len(holders) == 1, (n, source[start:end], holders)
    # MD-9: top-level code blocks and tables lie within one chunk (tables unless split).
    for kind, first, end, _, _ in model_top_level(source):
        if kind not in ("fence", "code_block", "table_open") or (
            kind == "table_open" and split_tables
        ):
            continue
        inside = [
            c for c in chunks if lines[first][0] <= c.start < lines[min(end, len(lines)) - 1][1]
        ]
        assert len(inside) <= 1, (kind, inside)
    # MD-10: budget, except whole tables/code, single table rows and single words.
    if max_tokens is not None:
        counter = WhitespaceCounter()
        for c in chunks:
            measured = c.embedding_text if count_headings else c.text
            if counter.count(measured) <= max_tokens:
                continue
            body = source[c.start : c.end]
            assert (
                c.kind in ("table", "code")
                and (not split_tables or c.kind == "code" or _rows(c) <= 1)
            ) or len(body.split()) == 1, (max_tokens, c)


def _rows(c: MarkdownChunk) -> int:
    """Body rows in a table chunk's text: its lines less the header and delimiter rows."""
    return len(model_lines(c.text)) - 2


def _line_index(lines: list[tuple[int, int]]) -> Callable[[int], int]:
    """Return a function from offset to 0-based line index."""
    starts = [s for s, _ in lines]

    def line_of(offset: int) -> int:
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo

    return line_of


def check_heading_aware(
    document: Document, chunks: list[DocumentChunk], max_tokens: int, overlap: int
) -> None:
    """Assert the HeadingAwareChunker properties (HEAD-2 to HEAD-10) of ``chunks``."""
    source = document.source
    counter = WhitespaceCounter()
    by_id = {c.id: c for c in chunks}
    heading_blocks = [b for b in document.blocks if b.kind == "heading"]
    fence = front_matter_end(source)
    for n, c in enumerate(chunks):
        assert c.start >= fence, (fence, c)  # FM-2
        assert c.position == n
        assert c.id == f"{document.document_id}:{n}"
        assert c.text == source[c.start : c.end]  # HEAD-2
        assert c.text.strip()  # HEAD-10
        if c.kind == "body":
            assert counter.count(c.text) <= max_tokens, c  # HEAD-7
            for h in heading_blocks:  # HEAD-6: no body chunk spans a heading, even an empty one
                assert c.end <= h.start or h.end <= c.start, (c, h)
            if c.parent_id is not None:
                assert by_id[c.parent_id].end <= c.start
        else:
            assert set(c.metadata) == {"kind", "level"}
    # HEAD-6: overlap between consecutive body chunks is within the overlap budget.
    for a, b in itertools.pairwise(chunks):
        if a.kind == "body" and b.kind == "body" and b.start < a.end:
            assert counter.count(source[b.start : a.end]) <= overlap, (a, b)
            assert a.parent_id == b.parent_id


def run_contract(document: Document, max_tokens: int, overlap: int) -> None:
    """Run every contract check for HeadingAwareChunker and split_markdown on ``document``."""
    subjects = [
        Subject.of_chunker(
            "heading-aware", HeadingAwareChunker(max_tokens, overlap), max_tokens=max_tokens
        ),
    ]
    for subject in subjects:
        for check in CHECKS:
            run_check(subject, check, document, sample_context())


def all_invariants(source: str, max_tokens: int, overlap: int) -> None:
    """Check both chunkers on ``source`` with and without a budget."""
    for budget in (None, max_tokens):
        check_split_markdown(source, split_markdown("d", source, budget), budget)
    check_split_markdown(
        source,
        split_markdown("d", source, max_tokens, count_headings=True),
        max_tokens,
        count_headings=True,
    )
    check_split_markdown(
        source,
        split_markdown("d", source, max_tokens, split_tables=True),
        max_tokens,
        split_tables=True,
    )
    document = parse_markdown("d", source)
    check_heading_aware(
        document, HeadingAwareChunker(max_tokens, overlap).chunk(document), max_tokens, overlap
    )
    run_contract(document, max_tokens, overlap)
