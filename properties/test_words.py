"""Properties of words (docs/spec.md WORDS-1, WORDS-2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import count_tokens
from chunkspec.core import words


@given(st.integers(0, 300), st.integers(0, 10**6), st.text(alphabet="abcxyz", max_size=3))
def test_names_in_order(n: int, start: int, word: str) -> None:
    """WORDS-1: words(n, start, word) is n tokens word{start} .. word{start+n-1}."""
    text = words(n, start, word)
    assert text.split(" ") == ([f"{word}{i}" for i in range(start, start + n)] if n else [""])
    assert count_tokens(text) == n


@given(
    st.sampled_from(["n", "start"]),
    st.one_of(st.integers(max_value=-1), st.integers(min_value=2**53), st.booleans(), st.floats()),
)
def test_bad_counts_rejected(argument: str, value: object) -> None:
    """WORDS-2, PORT-1: n or start outside int [0, 2**53-1] raises naming it."""
    args: dict[str, object] = {"n": 1, "start": 0}
    args[argument] = value
    with pytest.raises((TypeError, ValueError), match=argument):
        words(**args)  # type: ignore[arg-type]
