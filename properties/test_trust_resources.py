"""Bounded resources: the memory-bounded paths give what the literal ones gave (TRUST-50,
TRUST-51), and a PDF's content cap counts every page (TRUST-52).

The literal model of the block scans is ``token_blocks``: one markdown-it-py parse of the
whole document, every token kept (MD-1). Both scans read windows, hand a window's tables to
markdown-it-py with their inner tokens dropped and match line runs in batches; over random
tables (rows, cells, pipes, escapes, non-ASCII, ragged rows, indentation, text around them)
they must give the model's blocks, and so the same records. The piecewise word counts must
equal ``str.split``'s.
"""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.pdfs import shared_stream_pdf

from chunkspec import HeadingAwareChunker, InputError, document_from_bytes
from chunkspec._core._units import unit_count, unit_spans
from chunkspec._core._word_count import whitespace_pieces, word_count
from chunkspec._text._front_matter import mask_front_matter
from chunkspec._text._lines import line_table
from chunkspec._text._markdown import PARSERS, parse_markdown_blocks
from chunkspec._text._markdown_fast import available, fast_blocks
from chunkspec._text._markdown_it import markdown_it_parser, shell_tokens, token_blocks
from chunkspec.counters import WhitespaceCounter
from chunkspec.markdown import Block, Document

_CELLS = st.sampled_from(
    ["a", "é", "日本", " x ", "", "  ", "\\|", "`|`", "\\", "-", ":--", "1.", "#", ">", "\xa0", "ж"]
)


@st.composite
def table_documents(draw: st.DrawFn) -> str:
    """Markdown made of tables written many ways, with lines around them."""
    parts: list[str] = []
    for _ in range(draw(st.integers(1, 4))):
        columns = draw(st.integers(1, 4))
        lead, trail = draw(st.booleans()), draw(st.booleans())

        def row(cells: list[str], lead: bool = lead, trail: bool = trail) -> str:
            return ("|" if lead else "") + "|".join(cells) + ("|" if trail else "")

        header = row(draw(st.lists(_CELLS, min_size=columns, max_size=columns)))
        aligns = st.sampled_from(["-", "---", ":-", "-:", ":-:", " - "])
        delimiter = row(draw(st.lists(aligns, min_size=columns, max_size=columns)))
        body = [
            draw(st.sampled_from(["", " ", "    "]))
            + row(draw(st.lists(_CELLS, max_size=columns + 2)))
            for _ in range(draw(st.integers(0, 12)))
        ]
        around = st.sampled_from(["", "text", "# h", "> q", "- item", "1. one", "    code", "\x00"])
        parts.append("\n".join([draw(around), header, delimiter, *body, draw(around)]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return newline.join(part.replace("\n", newline) for part in parts)


def _model(source: str) -> list[Block]:
    """The literal model: one markdown-it-py parse of the whole source (MD-1)."""
    masked = mask_front_matter(source)
    return token_blocks(masked, *line_table(masked), markdown_it_parser())


@settings(max_examples=200)
@given(table_documents(), st.integers(1, 200))
def test_tables_give_the_literal_blocks(source: str, window: int) -> None:
    """TRUST-50: over random tables, the reference scan and the fast scan (default windows
    and windows of a few characters) give the literal model's blocks, hence its records; a
    window's tokens with tables emptied keep every top-level token and its line range."""
    model = _model(source)
    assert parse_markdown_blocks(source, parser=PARSERS[1]) == model
    masked = mask_front_matter(source)
    starts, ends = line_table(masked)
    assert fast_blocks(masked, starts, ends, window, compiled=False) == model
    if available():
        assert parse_markdown_blocks(source, parser=PARSERS[0]) == model
        assert fast_blocks(masked, starts, ends, window) == model
    full = markdown_it_parser().parse(masked)
    shells = shell_tokens(markdown_it_parser(), masked)
    top = [(t.type, t.map) for t in full if t.level == 0]
    assert [(t.type, t.map) for t in shells if t.level == 0] == top
    counter = WhitespaceCounter()
    chunker = HeadingAwareChunker(6, 2, counter=counter)
    assert chunker.chunk(Document("d", source, tuple(model))) == chunker.chunk(
        Document("d", source, tuple(parse_markdown_blocks(source, parser=PARSERS[1])))
    )


_TEXT = st.text(st.sampled_from("ab日\u00e9 \t\n\xa0\u3000\u2028|"), max_size=300)


@given(_TEXT, st.integers(1, 16))
def test_piecewise_counts_equal_split(text: str, piece: int) -> None:
    """TRUST-51: pieces join to the text and cut no word; the piecewise word count equals
    ``len(text.split())`` for any piece size, and the unit count of a text longer than a
    piece equals its units counted whole."""
    pieces = list(whitespace_pieces(text, piece))
    assert "".join(pieces) == text
    assert sum(len(part.split()) for part in pieces) == len(text.split())
    assert word_count(text, piece) == len(text.split())
    long = text * (70_000 // (len(text) + 1) + 1) if text.strip() else "x"
    assert word_count(long) == len(long.split())
    assert unit_count(long) == len(unit_spans(long))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(1, 20_000), st.integers(1, 100_000))
def test_pdf_cap_counts_every_page(pages: int, content: int, cap: int) -> None:
    """TRUST-52: a PDF whose ``pages`` pages share one content stream is refused, naming the
    first page whose running total of content bytes passes ``cap``, exactly when that total
    passes it; otherwise every page reads. The default cap reads it."""
    pytest.importorskip("pypdf")
    data = shared_stream_pdf(pages, content)
    stream = len(zlib.decompress(data.split(b"stream\n", 1)[1].split(b"\nendstream", 1)[0]))
    assert len(document_from_bytes(data, doc_id="d", name="d.pdf").pages or ()) == pages
    over = next((k for k in range(1, pages + 1) if k * stream > cap), None)
    if over is None:
        document = document_from_bytes(data, doc_id="d", pdf_max_decompressed=cap)
        assert len(document.pages or ()) == pages
        return
    with pytest.raises(InputError) as info:
        document_from_bytes(data, doc_id="d", name="d.pdf", pdf_max_decompressed=cap)
    assert str(info.value).startswith(f"d.pdf: page {over}: the pages' content streams")
    assert f"more than {cap} bytes" in str(info.value)
