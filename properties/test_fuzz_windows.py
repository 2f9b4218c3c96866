"""Fuzz targets for the windows, the counters, the page chunker and the PDF reader.

Seeds 002 and 004 (docs/spec/windows.md, docs/spec/pages.md). Marked ``fuzz`` like
``properties/test_fuzz_core.py``: each target allows only a result satisfying the chunker's
one equation (``text == source[start:end]``, ``c.text == full_text[c.char_start:c.char_end]``)
or the documented TypeError/ValueError naming the argument (``properties/fuzzing.py``).
"""

from __future__ import annotations

import os
import random
import tempfile
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from tests.counters import SMALL_MERGES, Backwards, CountOnly, byte_encoding, word_level
from tests.pdfs import text_pdf

from chunkspec import chunk, chunk_pages, token_windows
from chunkspec.counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from chunkspec.pages import PAGE_SEPARATOR, Page, PageChunker, PdfError, SectionSpan, read_pdf_pages

from .fuzzing import (
    EXAMPLES,
    MAX_SAFE,
    TYPE,
    VALUE,
    anything,
    either,
    fuzz_texts,
    int_problem,
    outcome,
    str_problem,
    text_problem,
)
from .models import model_chunk, model_page_of, model_token_ranges

pytestmark = pytest.mark.fuzz

#: Counters of every kind: the built-ins, and ones that break COUNT-1 / COUNT-3.
_COUNTERS: list[object] = [
    WhitespaceCounter(),
    CharEstimateCounter(),
    CharEstimateCounter(1),
    CharEstimateCounter(7),
    TiktokenCounter(byte_encoding(SMALL_MERGES)),
    HuggingFaceCounter(word_level()),
]
_BROKEN: list[object] = [CountOnly(), Backwards()]

counters = st.one_of(
    st.none(), st.sampled_from(_COUNTERS), st.sampled_from(_COUNTERS), st.sampled_from(_BROKEN)
)

#: Sizes: small, 0, negative, bool, float, huge (2**53 - 1 and beyond).
_size_values = st.one_of(
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(1, 12),
    st.integers(-2, 0),
    st.sampled_from([MAX_SAFE, MAX_SAFE - 1, MAX_SAFE + 1, 2**64, True, False, 3.0, float("nan")]),
)


@st.composite
def size_pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """``(size, overlap)``: valid, overlap == size or above, huge, or anything at all.

    Never a mid-sized size with a tiny step (hundreds of windows each hundreds long would
    only measure memory): small sizes, or sizes of 2**52 and more, where one window suffices.
    """
    size = draw(either(_size_values))
    kind = draw(st.sampled_from(["below", "below", "equal", "above", "any"]))
    if isinstance(size, int) and not isinstance(size, bool):
        if kind == "below":
            return size, draw(st.integers(0, max(0, size - 1)))
        if kind == "equal":
            return size, size
        if kind == "above":
            return size, size + draw(st.integers(1, 3))
    return size, draw(either(st.one_of(st.integers(-2, 12), _size_values)))


def _window_problems(text: Any, size: Any, overlap: Any) -> dict[str, str | None]:
    """WIN-1 .. WIN-3: ``text`` without lone surrogates, ``1 <= size``, ``0 <= overlap < size``."""
    overlap_problem = int_problem(overlap, 0)
    if overlap_problem is None and int_problem(size, 1) is None and overlap >= size:
        overlap_problem = VALUE
    return {
        "text": text_problem(text),
        "size": int_problem(size, 1),
        "overlap": overlap_problem,
    }


@given(text=either(fuzz_texts), sizes=size_pairs())
def test_fuzz_chunk(text: Any, sizes: tuple[Any, Any]) -> None:
    """WIN-1, WIN-2, WIN-3, WIN-5, WIN-8: seed 002's windows, or a named error."""
    size, overlap = sizes
    ok, result = outcome(
        "chunk",
        lambda: chunk(text, size, overlap),
        _window_problems(text, size, overlap),
        {"text": text, "size": size, "overlap": overlap},
    )
    if not ok:
        return
    assert result == model_chunk(text, size, overlap)
    if result:
        assert result[0] + "".join(c[overlap:] for c in result[1:]) == text


def _span_problem(counter: object) -> str | None:
    """COUNT-1: None, or an object with ``count`` and ``token_spans``."""
    if counter is None or isinstance(counter, TokenSpanCounter):
        return None
    return TYPE


def _bad_spans(counter: object) -> bool:
    """COUNT-3 broken by design: the test counter whose starts go backwards."""
    return isinstance(counter, Backwards)


@given(text=either(fuzz_texts), sizes=size_pairs(), counter=counters)
def test_fuzz_token_windows(text: Any, sizes: tuple[Any, Any], counter: object) -> None:
    """TOKWIN-1, TOKWIN-3, TOKWIN-4, TOKWIN-5, COUNT-1: ``text == source[start:end]``."""
    size, overlap = sizes
    problems = _window_problems(text, size, overlap)
    problems["counter"] = _span_problem(counter) or (VALUE if _bad_spans(counter) else None)
    ok, result = outcome(
        "token_windows",
        lambda: token_windows(text, size, overlap, counter),  # type: ignore[arg-type]
        problems,
        {"text": text, "size": size, "overlap": overlap, "counter": counter},
    )
    if not ok:
        return
    measure: Any = WhitespaceCounter() if counter is None else counter
    starts = [a for a, _ in measure.token_spans(text)]
    ranges = model_token_ranges(len(starts), size, overlap)
    assert [(w.token_start, w.token_end) for w in result] == ranges
    for k, w in enumerate(result):
        assert w.index == k
        assert w.text == text[w.start : w.end]  # the equation, TOKWIN-4
        assert w.start == (0 if k == 0 else starts[w.token_start])
        assert w.end == (len(text) if w.token_end == len(starts) else starts[w.token_end])


@given(text=either(fuzz_texts), counter=st.sampled_from(_COUNTERS))
def test_fuzz_counters(text: Any, counter: Any) -> None:
    """COUNT-2, COUNT-3, COUNT-4, COUNT-5, TOK-1: count and token_spans agree, or TypeError."""
    strict = isinstance(counter, (TiktokenCounter, HuggingFaceCounter))  # they encode UTF-8
    problem = text_problem(text) if strict else str_problem(text)
    ok, count = outcome("counters", lambda: counter.count(text), {"text": problem}, {"text": text})
    ok_spans, spans = outcome(
        "counters", lambda: counter.token_spans(text), {"text": problem}, {"text": text}
    )
    assert ok == ok_spans
    if not ok:
        return
    assert len(spans) == count  # COUNT-2
    previous = 0
    for a, b in spans:  # COUNT-3
        assert previous <= a <= b <= len(text), (a, b, len(text))
        previous = a
    if isinstance(counter, WhitespaceCounter):
        assert [text[a:b] for a, b in spans] == text.split()  # COUNT-4
    if isinstance(counter, CharEstimateCounter):
        c = counter.chars_per_token
        assert count == -(-len(text) // c)  # COUNT-5
        assert "".join(text[a:b] for a, b in spans) == text


@given(chars=either(_size_values))
def test_fuzz_char_estimate_counter(chars: Any) -> None:
    """COUNT-5: ``chars_per_token`` is an int in [1, 2**53 - 1], else a named error."""
    ok, result = outcome(
        "char_estimate_counter",
        lambda: CharEstimateCounter(chars),
        {"chars_per_token": int_problem(chars, 1)},
        {"chars_per_token": chars},
    )
    if ok:
        assert result.count("abcdefgh") == -(-8 // chars)


# --- the page chunker ---------------------------------------------------------------------

_page_text = st.one_of(fuzz_texts, st.text(st.sampled_from("ab .?!\n\f\u00e9"), max_size=30))


@st.composite
def page_arguments(draw: st.DrawFn) -> Any:
    """``pages``: str pages, Page pages (numbers in or out of order), mixed, or anything."""
    kind = draw(st.sampled_from(["str", "str", "page", "mixed", "any"]))
    texts = draw(st.lists(_page_text, max_size=3))
    if kind == "str":
        return texts if draw(st.booleans()) else tuple(texts)
    if kind == "any":
        return draw(st.one_of(anything, st.lists(anything, max_size=3)))
    numbers = sorted(draw(st.lists(st.integers(1, 9), min_size=len(texts), max_size=len(texts))))
    if draw(st.integers(0, 4)) == 0:
        numbers = [draw(either(st.just(n), odds=3)) for n in numbers]
    pages: list[object] = [Page(n, t) for n, t in zip(numbers, texts, strict=True)]
    if draw(st.integers(0, 4)) == 0 and pages:
        pages[draw(st.integers(0, len(pages) - 1))] = Page(1, draw(anything))
    if kind == "mixed" and pages:
        pages[draw(st.integers(0, len(pages) - 1))] = draw(_page_text)
    return pages


def _page_problems(pages: Any) -> tuple[dict[str, str | None], dict[str, object]]:
    """PAGE-1, PAGE-2: the problems of ``pages`` and the value behind each argument name."""
    problems: dict[str, str | None] = {}
    values: dict[str, object] = {"pages": pages}
    if isinstance(pages, (str, bytes)) or not isinstance(pages, Sequence):
        return {"pages": TYPE}, values
    first_kind: type | None = None
    previous = 0
    for i, item in enumerate(pages):
        values[f"pages[{i}]"] = item
        number: Any
        text: Any
        if isinstance(item, str):
            kind: type = str
            number, name, text = i + 1, f"pages[{i}]", item
        elif isinstance(item, Page):
            kind = Page
            number, name, text = item.number, f"pages[{i}].text", item.text
            values[f"pages[{i}].number"] = number
            values[name] = text
            number_problem = int_problem(number, 1)
            if number_problem is None and i > 0 and number <= previous:
                number_problem = VALUE
            problems[f"pages[{i}].number"] = number_problem
        else:
            problems[f"pages[{i}]"] = TYPE
            continue
        problems[name] = text_problem(text) or (VALUE if PAGE_SEPARATOR in text else None)
        if first_kind is not None and kind is not first_kind:
            problems[f"pages[{i}]"] = TYPE  # checked before the text (PAGE-1)
        first_kind = first_kind or kind
        previous = number if int_problem(number, 1) is None else previous
    return problems, values


@st.composite
def section_arguments(draw: st.DrawFn) -> Any:
    """``sections``: none, small spans (in or out of order, maybe past the end), or anything."""
    kind = draw(st.sampled_from(["none", "none", "spans", "spans", "any"]))
    if kind == "none":
        return ()
    if kind == "any":
        return draw(anything)
    spans = draw(
        st.lists(
            st.builds(
                SectionSpan,
                either(st.integers(0, 40), odds=8),
                either(st.integers(0, 40), odds=8),
                either(st.sampled_from(["intro", "body"]), odds=8),
            ),
            max_size=3,
        )
    )
    return (
        sorted(spans, key=lambda s: (repr(s.start), repr(s.end))) if draw(st.booleans()) else spans
    )


def _section_problems(sections: Any, n: int) -> tuple[dict[str, str | None], dict[str, object]]:
    """PAGE-12: SectionSpans in ``[0, n]``, sorted, non-overlapping."""
    values: dict[str, object] = {"sections": sections}
    if isinstance(sections, (str, bytes)) or not isinstance(sections, Sequence):
        return {"sections": TYPE}, values
    problems: dict[str, str | None] = {}
    previous_end = 0
    for i, span in enumerate(sections):
        where = f"sections[{i}]"
        values[where] = span
        if not isinstance(span, SectionSpan):
            problems[where] = TYPE
            continue
        for field in ("start", "end", "label"):
            values[f"{where}.{field}"] = getattr(span, field)
        start, end = int_problem(span.start, 0), int_problem(span.end, 0)
        problems[f"{where}.start"] = start
        problems[f"{where}.end"] = end
        problems[f"{where}.label"] = str_problem(span.label)
        if start is None and end is None:
            if span.end < span.start or span.end > n:
                problems[f"{where}.end"] = VALUE
            if i and span.start < previous_end:
                problems[f"{where}.start"] = VALUE
            previous_end = span.end
    return problems, values


@given(
    pages=page_arguments(),
    sizes=size_pairs(),
    counter=counters,
    sections=section_arguments(),
    via_class=st.booleans(),
)
def test_fuzz_chunk_pages(
    pages: Any, sizes: tuple[Any, Any], counter: object, sections: Any, via_class: bool
) -> None:
    """PAGE-1, PAGE-2, PAGE-6, PAGE-7, PAGE-12, PAGE-13, PAGE-14, PAGE-15, COUNT-1:
    ``c.text == full_text[c.char_start:c.char_end]`` for every chunk, or a named error."""
    max_tokens, overlap = sizes
    problems: dict[str, str | None] = {
        "max_tokens": int_problem(max_tokens, 1),
        "overlap_tokens": _window_problems("", max_tokens, overlap)["overlap"],
        "counter": _span_problem(counter) or (VALUE if _bad_spans(counter) else None),
    }
    page_problems, values = _page_problems(pages)
    problems.update(page_problems)
    texts: list[str] = []
    if not any(page_problems.values()):
        texts = [p if isinstance(p, str) else p.text for p in pages]
    full_text = PAGE_SEPARATOR.join(texts)
    section_problems, section_values = _section_problems(sections, len(full_text))
    problems.update(section_problems)
    values.update(section_values)
    values.update({"max_tokens": max_tokens, "overlap_tokens": overlap, "counter": counter})

    def call() -> Any:
        if via_class:
            return PageChunker(max_tokens, overlap, counter).chunk(pages, sections)  # type: ignore[arg-type]
        return chunk_pages(pages, max_tokens, overlap, counter, sections)  # type: ignore[arg-type]

    ok, result = outcome("chunk_pages", call, problems, values)
    if not ok:
        return
    measure: Any = WhitespaceCounter() if counter is None else counter
    owner = model_page_of(texts)
    covered = [False] * len(full_text)
    numbers = [i + 1 if isinstance(p, str) else p.number for i, p in enumerate(pages)]
    for k, c in enumerate(result):
        assert c.index == k
        assert c.text == full_text[c.char_start : c.char_end]  # the equation, PAGE-6
        assert c.text == c.text.strip() != ""
        assert c.token_count == measure.count(c.text)  # PAGE-15
        assert c.token_count <= max_tokens or c.oversized  # PAGE-7
        first, last = owner[c.char_start], owner[c.char_end - 1]
        assert first is not None  # PAGE-11
        assert last is not None
        assert (c.page_start, c.page_end) == (numbers[first - 1], numbers[last - 1])
        if k:
            assert c.char_start >= result[k - 1].char_start  # PAGE-13
            assert c.char_end > result[k - 1].char_end
        covered[c.char_start : c.char_end] = [True] * (c.char_end - c.char_start)
    assert all(seen or ch.isspace() for seen, ch in zip(covered, full_text, strict=True))


# --- the PDF reader -----------------------------------------------------------------------


@st.composite
def pdf_bytes(draw: st.DrawFn) -> bytes:
    """Arbitrary bytes, a ``%PDF-`` header over junk, a valid PDF, or a damaged valid PDF."""
    kind = draw(st.sampled_from(["bytes", "header", "valid", "damaged", "damaged"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "header":
        return b"%PDF-1.4\n" + draw(st.binary(max_size=300))
    lines = st.lists(st.text(st.characters(max_codepoint=0xFF), max_size=12), max_size=3)
    data = text_pdf(draw(st.lists(lines, min_size=1, max_size=3)))
    if kind == "valid":
        return data
    rng = random.Random(draw(st.integers(0, 2**32)))
    damaged = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        action = rng.choice(["flip", "cut", "insert"])
        at = rng.randrange(len(damaged))
        if action == "flip":
            damaged[at] = rng.randrange(256)
        elif action == "cut":
            del damaged[at : at + rng.randrange(1, 40)]
        else:
            damaged[at:at] = rng.randbytes(rng.randrange(1, 8))
        if not damaged:
            break
    return bytes(damaged)


@given(data=pdf_bytes(), junk_path=st.one_of(st.none(), st.none(), st.none(), anything))
def test_fuzz_read_pdf_pages(data: bytes, junk_path: Any) -> None:
    """PAGE-2: any bytes give one str a page without a form feed, or PdfError (a ValueError)."""
    if junk_path is not None and not isinstance(junk_path, (str, os.PathLike)):
        outcome(
            "read_pdf_pages",
            lambda: read_pdf_pages(junk_path),
            {"path": TYPE},
            {"path": junk_path},
        )
        return
    EXAMPLES["read_pdf_pages"] += 1
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in.pdf")
        with open(path, "wb") as handle:
            handle.write(data)
        error: PdfError | None = None
        try:
            pages = read_pdf_pages(path)
        except PdfError as caught:
            error = caught
    if error is not None:
        assert str(error).startswith(path + ": "), error
        event("outcome", "PdfError")
        return
    assert [type(p) for p in pages] == [str] * len(pages)
    assert all(PAGE_SEPARATOR not in p for p in pages)
    event("outcome", "result")
