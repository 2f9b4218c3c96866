"""The block model and its three front ends: Markdown, plain text, JSON blocks."""

from __future__ import annotations

import pytest

import chunkspec
import chunkspec.markdown
from chunkspec import ArgumentTypeError, HeadingAwareChunker, parse_markdown
from chunkspec.core import SourceChunk
from chunkspec.markdown import (
    ChunkContext,
    DocumentChunk,
    MarkdownChunk,
    document_from_blocks,
    parse_text,
)


def test_parse_text_paragraphs() -> None:
    """MD-12: runs of non-blank lines are paragraphs; \\r\\n and \\r end lines."""
    doc = parse_text("t", "a\r\nb\r\n \r\nc\rd\n\n\ne")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("paragraph", "a\r\nb"),
        ("paragraph", "c\rd"),
        ("paragraph", "e"),
    ]
    for b in doc.blocks:
        assert doc.source[b.start : b.end] == b.text


def test_markdown_blocks_are_regions() -> None:
    """MD-3, MD-4, MD-5: kinds in order; every block is a region of the source."""
    source = "Intro\n\n---\n\n> q\n\n<div>\nx\n</div>\n\n1. a\n2. b\n\nT\n: d\n\nS\n=\n"
    doc = parse_markdown("m", source)
    assert [b.kind for b in doc.blocks] == [
        "paragraph",
        "thematic_break",
        "quote",
        "html",
        "list",
        "definition",
        "heading",
    ]
    assert doc.blocks[-1].level == 1
    assert doc.blocks[-1].text == "S"
    for b in doc.blocks:
        assert source[b.start : b.end] == b.text


def test_nul_and_crlf_heading_titles() -> None:
    """MD-5: a title markdown-it normalised (NUL, \\r\\n) is still located in the source."""
    source = "a\x00b\r\nc\r\n===\r\n"
    doc = parse_markdown("m", source)
    (heading,) = doc.blocks
    assert heading.kind == "heading"
    assert heading.text == "a\x00b\r\nc"
    assert source[heading.start : heading.end] == heading.text


def test_context_validation() -> None:
    """HEAD-9: the context rejects non-str ids and non-tuple labels, naming the field."""
    with pytest.raises(ArgumentTypeError) as info:
        ChunkContext(acl_labels=["a"])  # type: ignore[arg-type]
    assert info.value.argument == "acl_labels"
    with pytest.raises(ArgumentTypeError) as info:
        ChunkContext(tenant_id=1)  # type: ignore[arg-type]
    assert info.value.argument == "tenant_id"


def test_chunker_rejects_wrong_types() -> None:
    """HEAD-12: wrong argument types are named."""
    with pytest.raises(ArgumentTypeError) as info:
        HeadingAwareChunker().chunk("text")  # type: ignore[arg-type]
    assert info.value.argument == "document"
    with pytest.raises(ArgumentTypeError) as info:
        HeadingAwareChunker().chunk(parse_text("d", "x"), {"tenant_id": "t"})  # type: ignore[arg-type]
    assert info.value.argument == "context"
    with pytest.raises(ArgumentTypeError) as info:
        HeadingAwareChunker(counter=len)  # type: ignore[arg-type]
    assert info.value.argument == "counter"
    with pytest.raises(ArgumentTypeError) as info:
        document_from_blocks("d", "not a list")  # type: ignore[arg-type]
    assert info.value.argument == "blocks"


def test_defaults_and_repr() -> None:
    """HEAD-12: seed 003's defaults are 512 and 64."""
    chunker = HeadingAwareChunker()
    assert (chunker.max_tokens, chunker.overlap_tokens) == (512, 64)
    assert repr(chunker) == (
        "HeadingAwareChunker(max_tokens=512, overlap_tokens=64, counter=WhitespaceCounter())"
    )


def test_chunk_types_are_source_chunks() -> None:
    """Both chunk types satisfy SourceChunk (checked statically by mypy here)."""
    m: SourceChunk = MarkdownChunk("d", "x", (), "prose", 0, 1, 1, 1)
    d: SourceChunk = DocumentChunk("d:0", "d", 0, None, "x", 0, 1, ("A",), {"kind": "body"})
    assert (m.embedding_text, d.embedding_text) == ("x", "A\n\nx")


def test_exports() -> None:
    """The Markdown names live in chunkspec.markdown; the chunkers and parser also at the top."""
    for name in (
        "split_markdown",
        "MarkdownChunk",
        "Chunker",
        "HeadingAwareChunker",
        "Block",
        "Document",
        "DocumentChunk",
        "ChunkContext",
        "parse_markdown",
        "parse_text",
        "document_from_blocks",
    ):
        assert name in chunkspec.markdown.__all__
        assert hasattr(chunkspec.markdown, name)
    for name in ("split_markdown", "HeadingAwareChunker", "parse_markdown", "split_sentences"):
        assert name in chunkspec.__all__


def test_chunks_hash_and_pickle() -> None:
    """Chunks and documents can go in sets and through multiprocessing (pickle)."""
    import pickle

    document = document_from_blocks("d", [{"text": "a b", "page": 1}])
    chunks = HeadingAwareChunker(1, 0).chunk(document, ChunkContext("t", "c", ("x",)))
    assert len(set(chunks)) == len(chunks) == 2
    assert pickle.loads(pickle.dumps(chunks)) == chunks
    assert pickle.loads(pickle.dumps(document)) == document
    assert chunks[0].block_attributes == ({"page": 1},)


def test_reference_blocks_are_their_lines() -> None:
    """MD-6: each run of link reference definitions is one ``reference`` block, exactly its
    lines (the blank line after it and the next block's lines excluded)."""
    source = "text\n\n[a]: /u\n[b]: /v\n\n[c]: /w\n\n# H\n\n[d]: /x\n"
    doc = parse_markdown("r", source)
    assert [(b.kind, b.text, b.start, b.end) for b in doc.blocks] == [
        ("paragraph", "text", 0, 4),
        ("reference", "[a]: /u\n[b]: /v", 6, 21),
        ("reference", "[c]: /w", 23, 30),
        ("heading", "H", 34, 35),
        ("reference", "[d]: /x", 37, 44),
    ]


def test_block_of_unicode_whitespace_is_dropped() -> None:
    """MD-4, MD-8: a paragraph of NO-BREAK SPACE is a paragraph to CommonMark but blank
    (``str.isspace``) to us: trimming its blank lines leaves nothing, so no block, even as
    the very last line of the text."""
    for source, want in [
        ("a\n\n\u00a0", [("paragraph", "a", 0, 1)]),
        ("\u00a0\n\nb", [("paragraph", "b", 3, 4)]),
        ("\u3000", []),
    ]:
        doc = parse_markdown("w", source)
        assert [(b.kind, b.text, b.start, b.end) for b in doc.blocks] == want, source


def test_blank_lines_trimmed_from_both_ends_of_a_block() -> None:
    """MD-4: a paragraph whose first or last lines are Unicode whitespace (lines CommonMark
    keeps in the paragraph) is only its other lines."""
    source = "x\n\n\u00a0\n\u3000\nfoo\nbar\n\u00a0\n\ny"
    doc = parse_markdown("w", source)
    assert [(b.kind, b.text, b.start, b.end) for b in doc.blocks] == [
        ("paragraph", "x", 0, 1),
        ("paragraph", "foo\nbar", 7, 14),
        ("paragraph", "y", 18, 19),
    ]
    doc = parse_markdown("w", "\u00a0\nfoo\n")
    assert [(b.kind, b.text, b.start, b.end) for b in doc.blocks] == [("paragraph", "foo", 2, 5)]


def test_heading_title_located_in_its_own_line() -> None:
    """MD-4, MD-5: the title is found inside the heading's lines, never earlier or later in
    the text; an empty title sits at the start of its line; a normalised setext title
    (\\r\\n inside) is its raw lines, even when the normalised text appears later."""
    cases = [
        ("A\n\n# A\n", [("paragraph", "A", 0, 1, 0), ("heading", "A", 5, 6, 1)]),
        ("a\r\nb\n===\n\na\nb\n",
         [("heading", "a\r\nb", 0, 4, 1), ("paragraph", "a\nb", 10, 13, 0)]),
        ("#\n", [("heading", "", 0, 0, 1)]),
        ("# #\n", [("heading", "", 0, 0, 1)]),
        ("x\n\n## \n", [("paragraph", "x", 0, 1, 0), ("heading", "", 3, 3, 2)]),
    ]  # fmt: skip
    for source, want in cases:
        doc = parse_markdown("h", source)
        assert [(b.kind, b.text, b.start, b.end, b.level) for b in doc.blocks] == want, source


def test_block_heading_level_defaults_to_1_and_allows_6() -> None:
    """MD-13: a heading record without ``level`` is level 1; 6 is the deepest level."""
    doc = document_from_blocks(
        "b", [{"kind": "heading", "text": "A"}, {"kind": "heading", "level": 6, "text": "F"}]
    )
    assert [(b.kind, b.level, b.text) for b in doc.blocks] == [
        ("heading", 1, "A"),
        ("heading", 6, "F"),
    ]
