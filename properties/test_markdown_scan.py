"""The compiled block scan gives the reference's blocks and chunks (rule MD-14).

markdown-it-py is the reference (MD-1); markdown-it-pyrs, when installed (the ``fast``
extra), must agree with it on generated Markdown, on the 655 CommonMark examples and on real
documents, for any window size.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import example as case
from hypothesis import strategies as st

from chunkspec import HeadingAwareChunker
from chunkspec._chunkers._split_markdown import split_blocks
from chunkspec._text._front_matter import mask_front_matter
from chunkspec._text._lines import line_table
from chunkspec._text._markdown import PARSERS, parse_markdown_blocks
from chunkspec._text._markdown_fast import _emit, available, fast_blocks
from chunkspec._text._markdown_it import markdown_it_parser, token_blocks
from chunkspec._text._markdown_scan import definition_lines, scan_spans, scannable
from chunkspec.counters import WhitespaceCounter
from chunkspec.markdown import Block, Document

from .strategies import quote_reference_documents, scan_documents, scan_line_documents

pytestmark = pytest.mark.skipif(not available(), reason="the fast extra is not installed")

_ROOT = Path(__file__).resolve().parent.parent
_EXAMPLES = _ROOT / "tests" / "data" / "commonmark-0.31.2-examples.json"


def _reference(source: str) -> list[Block]:
    """The blocks markdown-it-py gives (MD-1): one parse of the whole source, every token
    kept (the literal model; both scans read windows, TRUST-50)."""
    masked = mask_front_matter(source)
    return token_blocks(masked, *line_table(masked), markdown_it_parser())


def _fast(source: str, window: int | None = None) -> list[Block]:
    """The blocks the compiled scan gives, with the default window or ``window``, after
    front matter is masked as every scan's caller does (FM-2)."""
    source = mask_front_matter(source)
    starts, ends = line_table(source)
    if window is None:
        return list(fast_blocks(source, starts, ends))
    return list(fast_blocks(source, starts, ends, window))


def _chunks(source: str, blocks: list[Block], budget: int) -> tuple[list[object], list[object]]:
    """split_markdown's and HeadingAwareChunker's chunks over ``blocks`` of ``source``."""
    document = Document("d", source, tuple(blocks))
    counter = WhitespaceCounter()
    return (
        list(split_blocks(document, budget, counter)),
        list(HeadingAwareChunker(budget, budget // 4, counter=counter).chunk(document)),
    )


# Two parses an example (one of them markdown-it-py's): 300 keep this to seconds in the gate.
@settings(max_examples=300)
@given(scan_documents(), st.integers(1, 80))
@case("## \x85\r\na b\n", 80)  # pyrs trims U+0085 off a title, the reference does not
@case("\x1c y\r\n===\r", 80)  # pyrs trims U+001C off a setext title
@case("a\n: b\n\nc\n\n: d\n", 3)  # a definition list goes on past a window's cut
@case("p\n\na\n: b\n\nc\n\n: d\n\nq\n\nr\n", 1)  # markdown-it-py's window cut after "c"
@case("> q\nlazy\n*\n===\n", 80)  # pyrs reads an empty item after a quote as lazy
@case('[x]: /u \'open\n"t"\n|-|\n', 80)  # pyrs: a one-cell header without "|"
@case("[x]: /u trailing\n:-:\n", 80)  # the same with a delimiter row without "|"
@case("[x]:\n\xa0\n", 80)  # a no-break space is the reference's destination
def test_fast_scan_gives_the_reference_blocks(source: str, window: int) -> None:
    """MD-14: on generated Markdown, the fast scan's blocks equal markdown-it-py's, with the
    default window and with windows of a few characters (a block per window or fewer);
    the reference scan, which reads windows too (TRUST-50), gives them as well."""
    reference = _reference(source)
    assert _fast(source) == reference
    assert _fast(source, window) == reference
    assert parse_markdown_blocks(source, parser=PARSERS[1]) == reference


@settings(max_examples=100)
@given(scan_documents(), st.integers(1, 12))
def test_fast_scan_gives_the_reference_chunks(source: str, budget: int) -> None:
    """MD-14: split_markdown's and HeadingAwareChunker's chunks are the same from both scans."""
    assert _chunks(source, _fast(source), budget) == _chunks(source, _reference(source), budget)


def test_fast_scan_on_the_commonmark_examples() -> None:
    """MD-14: on all 655 CommonMark 0.31.2 examples, as written and with CRLF line ends,
    the fast scan's blocks equal markdown-it-py's, whole and in one-line windows."""
    examples = json.loads(_EXAMPLES.read_text(encoding="utf-8"))["examples"]
    assert len(examples) == 655
    for example in examples:
        for source in (example["markdown"], example["markdown"].replace("\n", "\r\n")):
            reference = _reference(source)
            assert _fast(source) == reference, example["example"]
            assert _fast(source, 1) == reference, example["example"]


def _real_documents() -> list[tuple[str, str]]:
    """Real Markdown in the repository: the docs, README, CHANGELOG and MegaMart pages."""
    paths = [*sorted(_ROOT.glob("docs/**/*.md")), _ROOT / "README.md", _ROOT / "CHANGELOG.md"]
    documents = [(str(path.name), path.read_text(encoding="utf-8")) for path in paths]
    pages = resources.files("chunkspec") / "_evaluation" / "megamart" / "pages"
    documents += [(page.name, page.read_text(encoding="utf-8")) for page in pages.iterdir()]
    return documents


def test_fast_scan_on_real_documents() -> None:
    """MD-14: on real documents (this repository's Markdown and the MegaMart pages), blocks
    and chunks from both scans are the same, with the default window and with
    2,000-character windows."""
    documents = _real_documents()
    assert len(documents) > 30
    for name, source in documents:
        reference = _reference(source)
        fast = _fast(source)
        assert fast == reference, name
        assert _fast(source, 2000) == reference, name
        assert _chunks(source, fast, 64) == _chunks(source, reference, 64), name


def _scanned(source: str) -> tuple[list[Block], int]:
    """The blocks the hand-written scan decides from the first line, and the line it
    stopped at (where the caller would hand over to a full parser); front matter masked
    first (FM-2)."""
    source = mask_front_matter(source)
    starts, ends = line_table(source)
    marks = definition_lines(source, starts)
    spans, stop = scan_spans(source, starts, ends, 0, marks, len(starts))
    blocks: list[Block] = []
    _emit(source, starts, ends, spans, True, blocks)
    return blocks, stop


# One scan and one reference parse an example: cheap enough for many.
@settings(max_examples=1000)
@given(scan_line_documents())
@case("- a\n  c\n\n- b\nc")  # a lazy line after an item's paragraph: handed over
@case("a\n|---|\n| h |\n|-|")  # a delimiter row under a plain line: no table (1 vs 0 cells)
@case("a\n| h | i |\n|---|---|")  # a table's header ends the paragraph above it
def test_hand_written_scan_gives_the_reference_blocks(source: str) -> None:
    """MD-14: the blocks the hand-written scan decides are markdown-it-py's first blocks,
    and every line before its stop is covered (a later block starts at the stop)."""
    assume(scannable(source))
    reference = _reference(source)
    blocks, stop = _scanned(source)
    assert blocks == reference[: len(blocks)]
    starts, _ = line_table(source)
    if stop < len(starts):
        # The stop is a block start: markdown-it-py's next block begins there or later
        # (lines of no block, such as link reference definitions, may come first).
        rest = reference[len(blocks) :]
        assert not rest or rest[0].start >= starts[stop]
    else:
        assert blocks == reference


def test_hand_written_scan_decides_most_real_blocks() -> None:
    """MD-14: the hand-written scan is what runs: on this repository's Markdown and the
    MegaMart pages it decides most blocks itself (the full parser takes the rest)."""
    decided = total = 0
    for _, source in _real_documents():
        starts, ends = line_table(source)
        marks = definition_lines(source, starts)
        line = 0
        while line < len(starts):
            spans, stop = scan_spans(source, starts, ends, line, marks, len(starts))
            decided += len(spans)
            line = stop + (stop == line)
        total += len(_reference(source))
    assert decided > 0.8 * total, (decided, total)


@pytest.mark.parametrize("indent", ["", " "])  # the whole-table match, and the general path
def test_hand_written_scan_stops_a_table_where_markdown_it_py_does(indent: str) -> None:
    """MD-14: markdown-it-py stops a table's body once it would fill more than 65,536 empty
    cells (MAX_AUTOCOMPLETED_CELLS); the scan stops it on the same row."""
    header = indent + "|" + " h |" * 600 + "\n" + "|" + "---|" * 600 + "\n"
    source = header + "| x |\n" * 120 + "\ntail\n"
    reference = _reference(source)
    assert [block.kind for block in reference][:2] == ["table", "paragraph"]
    assert _scanned(source)[0] == reference


# One scan and one reference parse an example: cheap enough for many.
@settings(max_examples=1000)
@given(quote_reference_documents())
@case("> Stability: 2 - Stable\n\ntext")  # Case 1: an empty line ends the quote
@case("> a\n>\nb")  # Case 2: after a bare marker line a plain line is not lazy
@case("> a\n2. b")  # Case 3: any list item ends a quote
@case("[a]: /u\n[b]: /v 't'\nx")  # one reference block, then a paragraph
@case("[a]: /u\n'title'")  # a title on the next line: left to the parser
@case("> a\nlazy\n> b\nlazy")  # MD-17: lazy lines of a plain quoted paragraph
@case("> a\n>     code\nlazy")  # MD-17: not plain: left to the parser
@case("> a\nb\n> ===\nc")  # MD-17: an underline under the quote's paragraph
@case("> a\nlazy\n> # h\nc")  # MD-17: the heading ends the paragraph; "c" is no quote's
def test_scan_decides_quotes_and_definitions_as_markdown_it_py(source: str) -> None:
    """MD-15, MD-16, MD-17: on documents dense in block quote and link reference definition lines,
    every block the hand-written scan decides (quotes ended by an empty line, a bare marker
    line or a terminator; runs of one-line definitions) is markdown-it-py's, and markdown-it-py's
    next block starts at the scan's stop."""
    assume(scannable(source))
    reference = _reference(source)
    blocks, stop = _scanned(source)
    assert blocks == reference[: len(blocks)]
    starts, _ = line_table(source)
    if stop < len(starts):
        rest = reference[len(blocks) :]
        assert not rest or rest[0].start >= starts[stop]
    else:
        assert blocks == reference
