"""Properties of the strategy adapters' provenance, rules EVAL-15 to EVAL-17."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from chunkspec._evaluation._strategy_names import resolve, word_spans

from .models import token_windows_model
from .strategies import eval_text


@given(eval_text)
def test_word_spans_are_str_split(text: str) -> None:
    """EVAL-15: re \\S+ runs are exactly str.split()'s words."""
    assert [text[s:e] for s, e in word_spans(text)] == text.split()


def test_regex_space_is_isspace_everywhere() -> None:
    """EVAL-15: for every code point, re's \\s agrees with str.isspace()."""
    import re

    space = re.compile(r"\s")
    for code in range(0x110000):
        char = chr(code)
        assert (space.match(char) is not None) == char.isspace(), hex(code)


@given(eval_text, st.integers(min_value=1, max_value=12))
def test_recursive_regions_hold_the_chunk_words(text: str, size: int) -> None:
    """EVAL-14, EVAL-16: source[start:end].split() == text.split(), in order, every word."""
    chunks = resolve(f"recursive-{size}")("d", "T", text)
    for c in chunks:
        assert text[c.start : c.end].split() == c.text.split()
        assert c.text.split()
        assert not text[c.start].isspace()
        assert not text[c.end - 1].isspace()
    assert [w for c in chunks for w in c.text.split()] == text.split()
    assert all(a.end <= b.start for a, b in pairwise(chunks))


@given(eval_text, st.integers(min_value=1, max_value=12), st.data())
def test_windows_match_the_model(text: str, size: int, data: st.DataObject) -> None:
    """EVAL-14, EVAL-17: text == source[start:end]; words are the literal model's windows."""
    overlap = data.draw(st.integers(min_value=0, max_value=size - 1))
    chunks = resolve(f"window-{size}-{overlap}")("d", "T", text)
    assert all(c.text == text[c.start : c.end] for c in chunks)
    assert [c.text.split() for c in chunks] == token_windows_model(text, size, overlap)
    assert [c.id for c in chunks] == [f"d:{n}" for n in range(len(chunks))]
