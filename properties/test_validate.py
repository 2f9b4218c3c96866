"""Properties of the shared text check (rule PORT-2): a cheap path, the same verdicts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import ArgumentValueError
from chunkspec._core._validate import require_text

#: ASCII, Latin-1, BMP, astral letters and every lone surrogate.
_texts = st.text(
    st.one_of(
        st.sampled_from(["a", " ", "\n", "é", "\xa0", "\u2028", "\U0001f600"]),
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
        st.characters(),
    ),
    max_size=30,
)


@given(_texts)
def test_require_text_names_the_first_lone_surrogate(text: str) -> None:
    """PORT-2: a text is refused iff it holds a lone surrogate; the message names the first."""
    first = next((i for i, c in enumerate(text) if 0xD800 <= ord(c) <= 0xDFFF), None)
    if first is None:
        assert require_text("text", text) is text
        return
    with pytest.raises(ArgumentValueError) as caught:
        require_text("text", text)
    shown = repr(text)  # an error shows at most 80 characters of the value
    shown = shown if len(shown) <= 80 else shown[:77] + "..."
    assert str(caught.value) == (
        f"text must not contain a lone surrogate (U+{ord(text[first]):04X} at index {first}), "
        f"got {shown}"
    )
