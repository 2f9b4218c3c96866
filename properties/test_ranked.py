"""Properties of ranked and normalise, the retriever plumbing (EVAL-25, EVAL-27), and of
the strategy names (EVAL-18)."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from chunkspec._evaluation._retrievers import normalise, ranked
from chunkspec._evaluation._strategy_names import resolve

from .strategies import eval_text

scores = st.lists(st.sampled_from([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 2.0, 7.5]), max_size=20)


@given(scores, st.integers(1, 25), st.booleans())
def test_ranked_is_a_stable_sort(row: list[float], k: int, positive: bool) -> None:
    """EVAL-25: a literal selection: repeatedly take the best remaining, earliest on ties."""
    remaining = [(i, s) for i, s in enumerate(row) if not positive or s > 0]
    expected: list[tuple[int, float]] = []
    while remaining and len(expected) < k:
        best = remaining[0]
        for item in remaining:
            if item[1] > best[1]:
                best = item
        expected.append(best)
        remaining.remove(best)
    assert ranked(row, k, positive_only=positive) == expected


@given(scores, st.sampled_from(["bm25", "dense"]))
def test_normalise_bounds_and_order(row: list[float], name: str) -> None:
    """EVAL-27: normalised scores lie in [0, 1] and never reverse the ranking order."""
    if name == "bm25":
        row = [abs(s) for s in row]
    ordered = sorted(row, reverse=True)
    out = normalise(name, ordered)
    assert len(out) == len(ordered)
    assert all(0.0 <= s <= 1.0 for s in out)
    assert all(a >= b for a, b in pairwise(out))
    if name == "bm25" and ordered and ordered[0] > 0:
        assert out[0] == 1.0


@given(eval_text, st.integers(1, 12))
def test_fixed_is_window_without_overlap(text: str, size: int) -> None:
    """EVAL-18: fixed-N names the same chunking as window-N-0."""
    assert resolve(f"fixed-{size}")("d", "T", text) == resolve(f"window-{size}-0")("d", "T", text)
