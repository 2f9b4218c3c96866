"""The page chunker's exact errors, defaults and accepted edges (PAGE-1, PAGE-2, PAGE-12).

The goldens (tests/golden/chunk_pages.json) name the argument and the error type; these tests
pin the whole message and the carried value, which a user reads and a port may copy.
"""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk_pages
from chunkspec.counters import WhitespaceCounter
from chunkspec.pages import Page, PageChunker, SectionSpan, join_pages
from tests.counters import CountOnly

_T = ArgumentTypeError
_V = ArgumentValueError


@pytest.mark.parametrize(
    ("kwargs", "kind", "argument", "value", "message"),
    [
        (
            {"pages": "abc"},
            _T,
            "pages",
            "abc",
            "pages must be a sequence of str or of Page, got str 'abc'",
        ),
        ({"pages": [1]}, _T, "pages[0]", 1, "pages[0] must be a str or a Page, got int 1"),
        (
            {"pages": ["a", Page(2, "b")]},
            _T,
            "pages[1]",
            Page(2, "b"),
            "pages[1] must be of the same kind as pages[0], got Page Page(number=2, text='b')",
        ),
        (
            {"pages": [Page(1, "a"), "b"]},
            _T,
            "pages[1]",
            "b",
            "pages[1] must be of the same kind as pages[0], got str 'b'",
        ),
        (
            {"pages": [Page(0, "a")]},
            _V,
            "pages[0].number",
            0,
            "pages[0].number must be >= 1, got 0",
        ),
        (
            {"pages": [Page(1, 3)]},  # type: ignore[arg-type]
            _T,
            "pages[0].text",
            3,
            "pages[0].text must be a str, got int 3",
        ),
        (
            {"pages": [Page(2, "a"), Page(2, "b")]},
            _V,
            "pages[1].number",
            2,
            "pages[1].number must be greater than the previous page's (2): pages must be in "
            "increasing order, got 2",
        ),
        (
            {"pages": [Page(1, "a"), Page(3, "b"), Page(2, "c")]},
            _V,
            "pages[2].number",
            2,
            "pages[2].number must be greater than the previous page's (3): pages must be in "
            "increasing order, got 2",
        ),
        (
            {"pages": ["a", "b\fc"]},
            _V,
            "pages[1]",
            "b\fc",
            "pages[1] must not contain a form feed (U+000C), the page separator, got 'b\\x0cc'",
        ),
        (
            {"pages": [Page(1, "a\fb")]},
            _V,
            "pages[0].text",
            "a\fb",
            "pages[0].text must not contain a form feed (U+000C), the page separator, "
            "got 'a\\x0cb'",
        ),
        (
            {"pages": ["a\ud800"]},
            _V,
            "pages[0]",
            "a\ud800",
            "pages[0] must not contain a lone surrogate (U+D800 at index 1), got 'a\\ud800'",
        ),
        (
            {"pages": [Page(1, "\ud800")]},
            _V,
            "pages[0].text",
            "\ud800",
            "pages[0].text must not contain a lone surrogate (U+D800 at index 0), got '\\ud800'",
        ),
        (
            {"pages": ["abc"], "sections": "x"},
            _T,
            "sections",
            "x",
            "sections must be a sequence of SectionSpan, got str 'x'",
        ),
        (
            {"pages": ["abc"], "sections": [(0, 1, "a")]},
            _T,
            "sections[0]",
            (0, 1, "a"),
            "sections[0] must be a SectionSpan, got tuple (0, 1, 'a')",
        ),
        (
            {"pages": ["abc"], "sections": [SectionSpan(-1, 1, "a")]},
            _V,
            "sections[0].start",
            -1,
            "sections[0].start must be >= 0, got -1",
        ),
        (
            {"pages": ["abc"], "sections": [SectionSpan(0, -1, "a")]},
            _V,
            "sections[0].end",
            -1,
            "sections[0].end must be >= 0, got -1",
        ),
        (
            {"pages": ["abc"], "sections": [SectionSpan(0, 1, 3)]},  # type: ignore[arg-type]
            _T,
            "sections[0].label",
            3,
            "sections[0].label must be a str, got int 3",
        ),
        (
            {"pages": ["abc"], "sections": [SectionSpan(2, 1, "a")]},
            _V,
            "sections[0].end",
            1,
            "sections[0].end must be >= start (2), got 1",
        ),
        (
            {"pages": ["abc"], "sections": [SectionSpan(0, 4, "a")]},
            _V,
            "sections[0].end",
            4,
            "sections[0].end lies outside the text (length 3), got 4",
        ),
        (
            {
                "pages": ["abc"],
                "sections": [
                    SectionSpan(0, 1, "a"),
                    SectionSpan(2, 3, "b"),
                    SectionSpan(1, 3, "c"),
                ],
            },
            _V,
            "sections[2].start",
            1,
            "sections[2].start must be >= the previous section's end (3): sections must be "
            "sorted and must not overlap, got 1",
        ),
        ({"pages": ["a"], "max_tokens": 0}, _V, "max_tokens", 0, "max_tokens must be >= 1, got 0"),
        (
            {"pages": ["a"], "max_tokens": "2"},
            _T,
            "max_tokens",
            "2",
            "max_tokens must be an int, got str '2'",
        ),
        (
            {"pages": ["a"], "overlap_tokens": -1},
            _V,
            "overlap_tokens",
            -1,
            "overlap_tokens must be >= 0, got -1",
        ),
        (
            {"pages": ["a"], "overlap_tokens": 1.0},
            _T,
            "overlap_tokens",
            1.0,
            "overlap_tokens must be an int, got float 1.0",
        ),
        (
            {"pages": ["a"], "max_tokens": 2, "overlap_tokens": 3},
            _V,
            "overlap_tokens",
            3,
            "overlap_tokens must be < max_tokens (2), got 3",
        ),
    ],
)
def test_exact_errors(
    kwargs: dict[str, Any], kind: type[Exception], argument: str, value: object, message: str
) -> None:
    """PAGE-1, PAGE-2, PAGE-12: the error names the item, carries its value, says why."""
    with pytest.raises(kind) as info:
        chunk_pages(**kwargs)
    error = info.value
    assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
    assert (error.argument, error.value, str(error)) == (argument, value, message)


def test_counter_without_spans_at_construction() -> None:
    """COUNT-1, PAGE-1: PageChunker refuses a count-only counter when it is built."""
    counter = CountOnly()
    with pytest.raises(ArgumentTypeError) as info:
        PageChunker(counter=counter)  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("counter", counter)
    assert str(info.value).startswith(
        "counter must be a TokenSpanCounter (count and token_spans), got CountOnly <"
    )


def test_accepted_edges() -> None:
    """PAGE-1, PAGE-12: the smallest budget, no overlap, page 1, numbers with gaps, a
    zero-length section at 0, touching sections and one ending at len(full_text) are valid."""
    pages = [Page(1, "a b"), Page(5, "c")]
    full = join_pages(pages)
    assert full == "a b\fc"
    sections = [SectionSpan(0, 0, "empty"), SectionSpan(0, 2, "x"), SectionSpan(2, 5, "y")]
    chunks = chunk_pages(pages, max_tokens=1, overlap_tokens=0, sections=sections)
    assert [(c.text, c.page_start, c.page_end, c.section) for c in chunks] == [
        ("a", 1, 1, "x"),
        ("b", 1, 1, "y"),
        ("c", 5, 5, "y"),
    ]


def test_defaults() -> None:
    """PAGE-1: max_tokens=400, overlap_tokens=100 and the whitespace counter by default."""
    chunker = PageChunker()
    assert (chunker.max_tokens, chunker.overlap_tokens) == (400, 100)
    assert isinstance(chunker.counter, WhitespaceCounter)
    assert repr(chunker) == (
        "PageChunker(max_tokens=400, overlap_tokens=100, counter=WhitespaceCounter())"
    )
    # 401 one-letter words: tokens [0, 400), then [300, 401); word k starts at 2k.
    pages = [" ".join(["w"] * 401)]
    for chunks in (chunk_pages(pages), chunker.chunk(pages)):
        assert [(c.char_start, c.char_end, c.token_count) for c in chunks] == [
            (0, 799, 400),
            (600, 801, 101),
        ]


def test_source_chunk_view() -> None:
    """PAGE-6: start, end and embedding_text are char_start, char_end and text."""
    (chunk,) = chunk_pages(["  Hello there.  "], 5, 0)
    assert (chunk.start, chunk.end, chunk.embedding_text) == (2, 14, "Hello there.")
