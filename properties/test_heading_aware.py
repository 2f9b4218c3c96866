"""Properties of HeadingAwareChunker (rules HEAD-1 to HEAD-12) and the contract suite."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from tests.markdown_invariants import check_heading_aware

from chunkspec import HeadingAwareChunker, parse_markdown
from chunkspec.contract import CHECKS, Subject, run_check
from chunkspec.markdown import ChunkContext, document_from_blocks
from properties.models import model_parents
from properties.strategies import markdown_documents


class CharCounter:
    """A non-additive counter: one token per 3 characters, rounded up (like a BPE)."""

    def count(self, text: str) -> int:
        return (len(text) + 2) // 3


@given(markdown_documents(), st.integers(1, 10), st.integers(0, 6))
def test_invariants(source: str, max_tokens: int, overlap: int) -> None:
    """HEAD-1, HEAD-2, HEAD-3, HEAD-6, HEAD-7, HEAD-8, HEAD-10: positions from 0, exact
    regions, one heading chunk per titled heading (with its level), the budget (overlap
    included), overlap within its budget and never across a heading, no blank chunk."""
    document = parse_markdown("d", source)
    chunks = HeadingAwareChunker(max_tokens, overlap).chunk(document)
    check_heading_aware(document, chunks, max_tokens, overlap)
    titled = [b for b in document.blocks if b.kind == "heading" and b.text.strip()]
    headings = [c for c in chunks if c.kind == "heading"]
    assert [(c.text, c.metadata["level"]) for c in headings] == [(b.text, b.level) for b in titled]
    assert all(dict(c.metadata) == {"kind": "body"} for c in chunks if c.kind == "body")


@given(markdown_documents(), st.integers(1, 10))
def test_greedy_flush(source: str, max_tokens: int) -> None:
    """HEAD-5: without overlap, a body chunk is flushed only when the next block would not
    fit: if the next body chunk of the same section starts with a whole block that fits
    alone, the two together exceed the budget."""
    document = parse_markdown("d", source)
    chunks = HeadingAwareChunker(max_tokens, 0).chunk(document)
    starts = {b.start: b for b in document.blocks if b.kind != "heading"}
    headings = [b.start for b in document.blocks if b.kind == "heading"]
    for a, b in pairwise(chunks):
        # Same section: same parent and no heading (not even an empty one) between them.
        same_section = a.parent_id == b.parent_id and not any(
            a.end <= h < b.start for h in headings
        )
        if a.kind == b.kind == "body" and same_section and b.start in starts:
            block = starts[b.start]
            n = len(block.text.split())
            if 0 < n <= max_tokens:
                assert len(a.text.split()) + n > max_tokens, (a, b)


@given(markdown_documents(), st.integers(1, 10), st.integers(0, 6))
def test_parents_match_model(source: str, max_tokens: int, overlap: int) -> None:
    """HEAD-4: heading parents equal the literal model; a body chunk's parent is the last
    heading before it (an empty heading, which gives no chunk, passes to its parent)."""
    document = parse_markdown("d", source)
    chunks = HeadingAwareChunker(max_tokens, overlap).chunk(document)
    headings = [c for c in chunks if c.kind == "heading"]
    blocks = [b for b in document.blocks if b.kind == "heading"]
    parents = model_parents([b.level for b in blocks])
    # An empty heading gives no chunk: its children's parent is its nearest titled ancestor.
    chunk_of: dict[int, str] = {}
    for n, b in enumerate(blocks):
        if b.text.strip():
            chunk_of[n] = headings[len(chunk_of)].id
    expected = []
    for n, b in enumerate(blocks):
        if not b.text.strip():
            continue
        p = parents[n]
        while p is not None and p not in chunk_of:
            p = parents[p]
        expected.append(None if p is None else chunk_of[p])
    assert [c.parent_id for c in headings] == expected
    for c in chunks:
        if c.kind == "body":
            before = [n for n, b in enumerate(blocks) if b.start <= c.start]
            p = before[-1] if before else None
            while p is not None and p not in chunk_of:
                p = parents[p]
            assert c.parent_id == (None if p is None else chunk_of[p])


@given(markdown_documents(), st.integers(1, 10), st.integers(0, 6))
def test_any_counter_budget(source: str, max_tokens: int, overlap: int) -> None:
    """HEAD-12, HEAD-7: with a non-additive counter every body chunk still fits, except a
    single character (which no split can shrink)."""
    counter = CharCounter()
    document = parse_markdown("d", source)
    for c in HeadingAwareChunker(max_tokens, overlap, counter=counter).chunk(document):
        assert c.text == source[c.start : c.end]
        if c.kind == "body":
            assert counter.count(c.text) <= max_tokens or len(c.text) == 1, c


_block = st.fixed_dictionaries(
    {
        "kind": st.sampled_from(["heading", "paragraph", "table", "code"]),
        "text": st.text(alphabet="ab. \n", max_size=30),
        "level": st.integers(1, 6),
        "page": st.integers(1, 9),
    }
)


@given(st.lists(_block, max_size=10), st.integers(1, 8), st.integers(0, 4))
def test_blocks_contract(blocks: list[dict[str, Any]], max_tokens: int, overlap: int) -> None:
    """CONTRACT-1..7, HEAD-9, HEAD-11, MD-13: block input passes every contract check
    (context propagated), the source is the texts joined by a blank line, and each chunk's
    attributes are those of blocks whose text it holds."""
    document = document_from_blocks("b", blocks)
    assert document.source == "\n\n".join(b["text"] for b in blocks)
    assert all(document.source[b.start : b.end] == b.text for b in document.blocks)
    subject = Subject.of_chunker(
        "heading-aware", HeadingAwareChunker(max_tokens, overlap), max_tokens=max_tokens
    )
    context = ChunkContext("t", "c", ("x",))
    for check in CHECKS:
        run_check(subject, check, document, context)
    for c in HeadingAwareChunker(max_tokens, overlap).chunk(document, context):
        pages = {
            b.attributes["page"] for b in document.blocks if b.start < c.end and c.start < b.end
        }
        assert {a["page"] for a in c.block_attributes} <= pages


@given(st.text(alphabet="ab \t\r\n\x0c\u00a0", max_size=40))
def test_parse_text_paragraphs(text: str) -> None:
    """MD-12: paragraphs are regions of whole non-blank lines, separated by blank lines,
    and together they hold every word."""
    from chunkspec.markdown import parse_text

    document = parse_text("t", text)
    for block in document.blocks:
        assert text[block.start : block.end] == block.text
        assert block.kind == "paragraph"
        assert all(
            line.strip()
            for line in block.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        )
    assert [w for b in document.blocks for w in b.text.split()] == text.split()
