"""Properties of chunk, seed 002's sliding character window (docs/spec/windows.md)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk
from properties.models import model_chunk
from properties.strategies import sizes, window_texts


@given(window_texts, sizes())
def test_matches_seed_loop(text: str, so: tuple[int, int]) -> None:
    """WIN-5, WIN-6: the windows are exactly those of seed 002's loop."""
    size, overlap = so
    assert chunk(text, size, overlap) == model_chunk(text, size, overlap)


@given(window_texts, sizes())
def test_stitching_reproduces_text(text: str, so: tuple[int, int]) -> None:
    """WIN-8, WIN-9: chunks[0] + "".join(c[overlap:] for c in chunks[1:]) == text."""
    size, overlap = so
    chunks = chunk(text, size, overlap)
    stitched = chunks[0] + "".join(c[overlap:] for c in chunks[1:]) if chunks else ""
    assert stitched == text


@given(window_texts, sizes())
def test_overlap_equals_next_prefix(text: str, so: tuple[int, int]) -> None:
    """WIN-7: the last ``overlap`` characters of a chunk are the first of the next."""
    size, overlap = so
    chunks = chunk(text, size, overlap)
    for left, right in itertools.pairwise(chunks):
        assert len(left) == size
        assert left[size - overlap :] == right[:overlap]


@given(window_texts, sizes())
def test_no_trailing_scrap(text: str, so: tuple[int, int]) -> None:
    """WIN-6: only the last window reaches the end, and every later window adds text."""
    size, overlap = so
    chunks = chunk(text, size, overlap)
    step = size - overlap
    for k, c in enumerate(chunks):
        reaches_end = k * step + size >= len(text)
        assert reaches_end == (k == len(chunks) - 1)
        assert c == text[k * step : k * step + size]
        if k:
            assert len(c) > overlap


@given(sizes())
def test_empty_text(so: tuple[int, int]) -> None:
    """WIN-4: empty text gives []."""
    assert chunk("", *so) == []


@given(window_texts, st.integers(-3, 12), st.integers(-3, 12))
def test_invalid_sizes_raise(text: str, size: int, overlap: int) -> None:
    """WIN-2, WIN-3: ValueError exactly when size <= 0, overlap < 0 or overlap >= size."""
    if size <= 0 or overlap < 0 or overlap >= size:
        with pytest.raises(ArgumentValueError) as info:
            chunk(text, size, overlap)
        assert info.value.argument == ("size" if size <= 0 else "overlap")
    else:
        assert chunk(text, size, overlap) == model_chunk(text, size, overlap)


@given(st.one_of(st.booleans(), st.floats(), st.text(max_size=2), st.none()))
def test_non_int_sizes_raise_type_error(value: object) -> None:
    """WIN-1: a non-int (or bool) size or overlap is a TypeError naming it."""
    with pytest.raises(ArgumentTypeError) as info:
        chunk("abc", value, 0)  # type: ignore[arg-type]
    assert info.value.argument == "size"
    with pytest.raises(ArgumentTypeError) as info:
        chunk("abc", 3, value)  # type: ignore[arg-type]
    assert info.value.argument == "overlap"
