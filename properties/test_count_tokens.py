"""Properties of count_tokens and the whitespace set (docs/spec.md section 1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import count_tokens
from chunkspec.core import WHITESPACE

from .models import model_count
from .strategies import SPLIT_ALPHABET


@given(st.text(alphabet=st.sampled_from(SPLIT_ALPHABET)) | st.text())
def test_counts_maximal_non_whitespace_runs(text: str) -> None:
    """TOK-1: count_tokens equals a character walk counting runs of non-whitespace."""
    assert count_tokens(text) == model_count(text)


@given(st.characters() | st.sampled_from([*sorted(WHITESPACE), "\ufeff", "\u200b", "\u180e"]))
def test_whitespace_set_is_the_separator_set(char: str) -> None:
    """WS-1: a character separates two tokens, and is stripped, iff it is in WHITESPACE."""
    assert count_tokens("a" + char + "b") == (2 if char in WHITESPACE else 1)
    assert (char.strip() == "") == (char in WHITESPACE)


@given(st.text(), st.text())
def test_additive_over_whitespace_join(left: str, right: str) -> None:
    """TOK-1, SPLIT-6: joining with a whitespace character adds the counts."""
    for sep in sorted(WHITESPACE):
        assert count_tokens(left + sep + right) == count_tokens(left) + count_tokens(right)


@given(st.one_of(st.none(), st.integers(), st.binary(max_size=3), st.lists(st.text(), max_size=2)))
def test_non_str_rejected(value: object) -> None:
    """TOK-1: a non-str argument raises TypeError naming text."""
    with pytest.raises(TypeError, match="text"):
        count_tokens(value)  # type: ignore[arg-type]
