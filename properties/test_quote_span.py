"""Properties of quote_span, the loader's quote-to-span rule (EVAL-10, EVAL-21, EVAL-22)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec._evaluation._labelled_corpus import quote_span
from chunkspec.evaluation import GoldSpan

texts = st.text(alphabet="ab \n|", max_size=40)


@given(texts, st.data())
def test_span_is_the_quote_when_unique(text: str, data: st.DataObject) -> None:
    """EVAL-21, EVAL-22: a trimmed quote found exactly once gives source[start:end] == quote."""
    i = data.draw(st.integers(0, len(text)))
    j = data.draw(st.integers(i, len(text)))
    quote = text[i:j]
    occurrences = sum(text.startswith(quote, n) for n in range(len(text)))
    if quote and quote == quote.strip() and occurrences == 1:
        span = quote_span("d", text, quote)
        assert text[span.start : span.end] == quote
        assert span.end - span.start == len(quote)
    else:
        with pytest.raises(ValueError, match="quote") as info:
            quote_span("d", text, quote)
        assert getattr(info.value, "argument", None) == "quote"


@given(st.integers(0, 50), st.integers(0, 50))
def test_gold_span_needs_a_character(start: int, end: int) -> None:
    """EVAL-10: GoldSpan requires 0 <= start < end."""
    if start < end:
        assert GoldSpan("d", start, end).end == end
    else:
        with pytest.raises(ValueError, match="end"):
            GoldSpan("d", start, end)
