"""Where a token window may be cut: token starts moved out of grapheme clusters (SCRIPT-10).

A byte-level BPE token (tiktoken, Hugging Face) or a ``chars{N}`` block can start inside a
grapheme cluster: at a combining mark, a Thai vowel, inside an emoji sequence; two byte-level
tokens can start at one character. ``window`` and ``pages`` cut before token ``j`` at
``positions[j]``: ``starts[j]`` moved forward to the next cluster boundary (SCRIPT-4) unless
it follows whitespace (SCRIPT-3's one exception); of several boundaries at one position only
the first is a cut. So no chunk begins or ends inside a character as a reader sees it.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Sequence

from .._core._graphemes import grapheme_bounds, is_simple
from .._counters._builtin import (
    SubwordCounter,
    TokenSpanCounter,
    UnicodeCounter,
    WhitespaceCounter,
)

__all__ = ["Cuts", "split_clusters"]


class Cuts:
    """The token boundaries ``0 .. N`` a window may end at or start from (SCRIPT-10).

    ``positions[j]`` is where the cut before token ``j`` falls. Boundary ``j`` is a cut
    when ``j`` is 0 or ``N``, or ``positions[j - 1] < positions[j] < len(text)``.
    """

    def __init__(self, text: str, starts: Sequence[int], counter: TokenSpanCounter) -> None:
        n_tokens = len(starts)
        self.positions: Sequence[int] = starts
        self.cuts: Sequence[int] | None = None  # None: every boundary is a cut
        # Word and unit starts are distinct and follow whitespace or a cluster boundary
        # (COUNT-4, SCRIPT-3): every one is a cut.
        if type(counter) in (WhitespaceCounter, UnicodeCounter):
            return
        n = len(text)
        # SCRIPT-30: subword units never start inside a cluster, so no start moves.
        if type(counter) is not SubwordCounter and not is_simple(text):
            bounds = grapheme_bounds(text)
            self.positions = [
                p
                if p >= n or (p > 0 and text[p - 1].isspace())
                else bounds[bisect.bisect_left(bounds, p)]
                for p in starts
            ]
        positions = self.positions
        cuts = array("q", [0])  # machine integers: a cut per token on most text
        cuts.extend(j for j in range(1, n_tokens) if positions[j - 1] < positions[j] < n)
        cuts.append(n_tokens)
        self.cuts = cuts
        if len(self.cuts) == n_tokens + 1:
            self.cuts = None

    def at_or_before(self, j: int, low: int) -> int | None:
        """Return the largest cut in ``[low, j]``, or None."""
        if self.cuts is None:
            return j if j >= low else None
        k = bisect.bisect_right(self.cuts, j) - 1
        return self.cuts[k] if k >= 0 and self.cuts[k] >= low else None

    def after(self, j: int) -> int:
        """Return the smallest cut greater than ``j`` (``N`` at most; ``j < N``)."""
        if self.cuts is None:
            return j + 1
        return self.cuts[bisect.bisect_right(self.cuts, j)]


def split_clusters(
    text: str, lo: int, hi: int, counter: TokenSpanCounter, max_tokens: int
) -> list[tuple[int, int, int]]:
    """Split ``text[lo:hi]``, over ``max_tokens`` and with no cut inside, at clusters.

    SCRIPT-10's last level (SCRIPT-8's): from the first cluster on, each piece is the run of
    clusters that grows while its text counts at most ``max_tokens`` (at least one
    cluster), as ``(start, end, count)``; a piece over the budget is one cluster. The text
    has no cut inside, so it is short: the scan is plain.
    """
    bounds = grapheme_bounds(text, lo, hi)
    out: list[tuple[int, int, int]] = []
    i, last = 0, len(bounds) - 1
    while i < last:
        k = i + 1
        count = counter.count(text[bounds[i] : bounds[k]])
        while k < last:
            wider = counter.count(text[bounds[i] : bounds[k + 1]])
            if wider > max_tokens:
                break
            k, count = k + 1, wider
        out.append((bounds[i], bounds[k], count))
        i = k
    return out
