"""Properties of the page-aware chunker (docs/spec/pages.md)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.counters import SMALL_MERGES, byte_encoding, word_level

from chunkspec import ArgumentValueError, chunk_pages
from chunkspec._core._graphemes import grapheme_bounds
from chunkspec.counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from chunkspec.pages import Page, PageChunk, SectionSpan, join_pages
from properties.models import model_best_section, model_page_of, model_page_ranges
from properties.strategies import page_lists, page_texts, section_spans, sizes

counters = st.sampled_from(
    [
        WhitespaceCounter(),
        CharEstimateCounter(),
        TiktokenCounter(byte_encoding(SMALL_MERGES)),
        TiktokenCounter(byte_encoding()),
        HuggingFaceCounter(word_level()),
    ]
)


def _run(
    pages: list[str], so: tuple[int, int], counter: TokenSpanCounter
) -> tuple[str, list[PageChunk]]:
    """Return full_text and the chunks."""
    return join_pages(pages), chunk_pages(pages, so[0], so[1], counter)


@given(page_lists, sizes(), counters)
def test_equation_on_every_chunk(
    pages: list[str], so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """PAGE-2, PAGE-6, PAGE-15: text == full_text[char_start:char_end] == text.strip()."""
    full, chunks = _run(pages, so, counter)
    assert full == "\f".join(pages)
    assert full.split("\f") == (pages or [""])
    for k, c in enumerate(chunks):
        assert c.index == k
        assert c.text == full[c.char_start : c.char_end]
        assert c.text == c.text.strip() != ""
        assert (c.start, c.end, c.embedding_text) == (c.char_start, c.char_end, c.text)
        assert c.token_count == counter.count(c.text)


@given(page_lists, sizes(), counters)
def test_offsets_increase(pages: list[str], so: tuple[int, int], counter: TokenSpanCounter) -> None:
    """PAGE-13: starts never decrease and ends strictly increase (overlap never backwards)."""
    _, chunks = _run(pages, so, counter)
    for left, right in itertools.pairwise(chunks):
        assert left.char_start <= right.char_start
        assert left.char_end < right.char_end


@given(page_lists, sizes(), counters)
def test_pages_match_independent_map(
    pages: list[str], so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """PAGE-11: page_start/page_end are the first/last page of any character in the range."""
    _, chunks = _run(pages, so, counter)
    owner = model_page_of(pages)
    for c in chunks:
        touched = [p for p in owner[c.char_start : c.char_end] if p is not None]
        assert (c.page_start, c.page_end) == (min(touched), max(touched))
        assert owner[c.char_start] == c.page_start
        assert owner[c.char_end - 1] == c.page_end


@given(page_lists, sizes(), counters)
def test_every_non_whitespace_character_is_chunked(
    pages: list[str], so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """PAGE-14: each non-whitespace character of full_text lies in some chunk."""
    full, chunks = _run(pages, so, counter)
    covered = [False] * len(full)
    for c in chunks:
        for i in range(c.char_start, c.char_end):
            covered[i] = True
    assert all(covered[i] for i, ch in enumerate(full) if not ch.isspace())


@given(page_lists, sizes(), counters)
def test_budget_or_flagged_single_token(
    pages: list[str], so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """PAGE-7, PAGE-8: count(text) <= max_tokens, unless the chunk is one flagged grapheme
    cluster (SCRIPT-10)."""
    _, chunks = _run(pages, so, counter)
    for c in chunks:
        if c.oversized:
            assert c.token_count > so[0]
            assert grapheme_bounds(c.text) == [0, len(c.text)], c.text
        else:
            assert counter.count(c.text) <= so[0]


@given(page_lists, sizes(), counters)
def test_matches_model_and_terminates(
    pages: list[str], so: tuple[int, int], counter: TokenSpanCounter
) -> None:
    """PAGE-3, PAGE-4, PAGE-5, PAGE-9, PAGE-10, SCRIPT-10: the plain model's chunks."""
    full, chunks = _run(pages, so, counter)
    starts = [a for a, _ in counter.token_spans(full)]
    expected = model_page_ranges(full, starts, counter.count, so[0], so[1])
    assert [(c.char_start, c.char_end, c.oversized) for c in chunks] == expected
    # PAGE-10: at most one window a token; SCRIPT-10 may split one into clusters.
    assert len(chunks) <= max(1, len(starts) + len(grapheme_bounds(full)) - 1)


@given(st.data(), page_lists, sizes())
def test_sections_match_brute_force(
    data: st.DataObject, pages: list[str], so: tuple[int, int]
) -> None:
    """PAGE-12: the section with the most characters of the chunk, and its share."""
    full = join_pages(pages)
    spans = data.draw(section_spans(len(full)))
    sections = [SectionSpan(a, b, label) for a, b, label in spans]
    for c in chunk_pages(pages, so[0], so[1], sections=sections):
        label, share = model_best_section(spans, c.char_start, c.char_end)
        assert (c.section, c.section_confidence) == (label, share)
        assert 0.0 <= c.section_confidence <= 1.0


@given(st.lists(st.tuples(st.integers(-1, 6), page_texts), max_size=5))
def test_page_numbers_validated(numbered: list[tuple[int, str]]) -> None:
    """PAGE-1: Page numbers must be >= 1 and strictly increasing; the error names the page."""
    pages = [Page(number, text) for number, text in numbered]
    bad = next(
        (
            i
            for i, (number, _) in enumerate(numbered)
            if number < 1 or (i and number <= numbered[i - 1][0])
        ),
        None,
    )
    if bad is None:
        chunks = chunk_pages(pages, 3, 1)
        numbers = {p.number for p in pages}
        assert all(c.page_start in numbers and c.page_end in numbers for c in chunks)
    else:
        with pytest.raises(ArgumentValueError) as info:
            chunk_pages(pages, 3, 1)
        assert info.value.argument == f"pages[{bad}].number"
