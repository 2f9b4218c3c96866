"""Properties of split_markdown (rules MD-1 to MD-11)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from tests.markdown_invariants import check_split_markdown

from chunkspec import split_markdown
from properties.models import model_lines
from properties.strategies import markdown_documents

budgets = st.one_of(st.none(), st.integers(1, 12))


@given(markdown_documents(), budgets)
def test_offsets_order_coverage_paths(source: str, max_tokens: int | None) -> None:
    """MD-1..MD-10 on random Markdown (fences with '#' lines, ~~~ and longer fences, indented
    code, setext headings, reference definitions, \r and \r\n endings, MD-1, MD-2, MD-5,
    MD-6): text == prefix + source[start:end]; chunks in order and
    disjoint; every non-blank non-heading line in exactly one chunk; heading paths equal the
    literal stack model; tables/code unsplit; the budget holds except for whole blocks."""
    check_split_markdown(source, split_markdown("d", source, max_tokens), max_tokens)


@given(markdown_documents(), st.integers(1, 12))
def test_count_headings_budget(source: str, max_tokens: int) -> None:
    """MD-10: with count_headings the budget bounds embedding_text (trail included)."""
    chunks = split_markdown("d", source, max_tokens, count_headings=True)
    check_split_markdown(source, chunks, max_tokens, count_headings=True)


@given(markdown_documents(), st.integers(1, 12))
def test_split_tables_repeat_header(source: str, max_tokens: int) -> None:
    """MD-11: split table pieces carry the header rows as prefix; every row still lies in
    exactly one chunk and each piece fits unless it is a single row."""
    chunks = split_markdown("d", source, max_tokens, split_tables=True)
    check_split_markdown(source, chunks, max_tokens, split_tables=True)
    for c in chunks:
        if c.prefix:
            assert c.kind == "table"
            # The header and delimiter rows, with their line breaks, exactly as in the source.
            assert len(model_lines(c.prefix)) == 3
            assert model_lines(c.prefix)[-1] == (len(c.prefix), len(c.prefix))
            assert source.find(c.prefix) >= 0


@given(markdown_documents())
def test_packing_only_merges(source: str) -> None:
    """MD-10: a budget only splits: every budgeted chunk lies inside one unbudgeted chunk of
    the same kind and heading path."""
    whole = split_markdown("d", source)
    for c in split_markdown("d", source, 3):
        holders = [w for w in whole if w.start <= c.start and c.end <= w.end]
        assert len(holders) == 1, c
        assert (holders[0].kind, holders[0].heading_path) == (c.kind, c.heading_path)


@given(markdown_documents())
def test_blocks_are_regions(source: str) -> None:
    """MD-3, MD-4: every block is a region of the source, in order, disjoint; a heading's
    text is a title without line breaks at its ends; kinds are the documented ones."""
    from chunkspec import parse_markdown
    from chunkspec._text._blocks import BLOCK_KINDS

    document = parse_markdown("d", source)
    previous = 0
    for block in document.blocks:
        assert block.kind in BLOCK_KINDS
        assert source[block.start : block.end] == block.text
        assert previous <= block.start
        previous = block.end
        assert (block.level > 0) == (block.kind == "heading")


_any_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("#=-*`~|>:[] \t\r\n\x00\x0b\x0c\x1c\x85\u2028\u00a0")),
        st.characters(exclude_categories=["Cs"]),
    ),
    max_size=80,
)


@given(_any_text, st.integers(1, 6), st.integers(0, 3))
def test_arbitrary_text(source: str, max_tokens: int, overlap: int) -> None:
    """MD-2, MD-8, HEAD-2, HEAD-7: arbitrary Unicode (NUL, \\v, \\f, U+2028, U+0085...)
    keeps every invariant of both chunkers."""
    from tests.markdown_invariants import all_invariants

    all_invariants(source, max_tokens, overlap)


@given(st.integers(0, 40), st.integers(0, 40), st.integers(-5, 90))
def test_longest_is_the_last_k_that_fits(low: int, span: int, limit: int) -> None:
    """MD-10, HEAD-7: the galloping search behind "the longest run that fits" returns the
    largest ``k`` in ``[low, high]`` with ``k <= limit`` (a monotone test), else ``low``,
    asking only about ``k`` in ``(low, high]``; literal model: scan every k."""
    from chunkspec._core._fit import longest as _longest

    high = low + span
    asked: list[int] = []

    def ok(k: int) -> bool:
        asked.append(k)
        return k <= limit

    model = max((k for k in range(low + 1, high + 1) if k <= limit), default=low)
    assert _longest(low, high, ok) == model
    assert all(low < k <= high for k in asked)
