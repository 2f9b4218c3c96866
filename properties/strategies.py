"""Hypothesis strategies shared by every property suite, one headed section per topic."""

from __future__ import annotations

from hypothesis import strategies as st

# --- seed 000: split_section / assemble ----------------------------------------------------


# --- seeds 002 and 004: sliding windows, token windows, the page chunker --------------------

#: Characters that exercise windows: ASCII, a two-byte and an astral character, sentence
#: marks, and whitespace of several kinds (no form feed: it separates pages).
WINDOW_ALPHABET = "ab .?!\n\t\u00a0\u00e9\U0001f600x"

window_texts = st.text(alphabet=WINDOW_ALPHABET, max_size=60)

#: Page texts never contain the page separator (rule PAGE-2).
page_texts = st.text(alphabet=WINDOW_ALPHABET + "cdefg ", max_size=40)

page_lists = st.lists(page_texts, max_size=5)


@st.composite
def sizes(draw: st.DrawFn, max_size: int = 12) -> tuple[int, int]:
    """Return a valid ``(size, overlap)``: ``size >= 1`` and ``0 <= overlap < size``."""
    size = draw(st.integers(min_value=1, max_value=max_size))
    return size, draw(st.integers(min_value=0, max_value=size - 1))


@st.composite
def section_spans(draw: st.DrawFn, length: int) -> list[tuple[int, int, str]]:
    """Return sorted, non-overlapping ``(start, end, label)`` spans inside ``[0, length]``."""
    cuts = sorted(draw(st.lists(st.integers(0, length), max_size=6)))
    spans = []
    for k in range(0, len(cuts) - 1, 2):
        spans.append((cuts[k], cuts[k + 1], draw(st.sampled_from(["intro", "body", "end"]))))
    return spans
