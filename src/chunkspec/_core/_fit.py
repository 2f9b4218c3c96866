"""The last split levels of over-budget prose: units, then grapheme clusters (SCRIPT-8).

Every strategy that splits a piece of prose over the budget cuts first where it always did
(blocks, sentences, whitespace words); a whitespace word still over the budget is cut at
the unit boundaries of SCRIPT-3 (each ideograph, kana, Hangul or Thai cluster a unit), and
a unit still over the budget at grapheme-cluster boundaries (SCRIPT-4), never inside one.
With the ``dict`` counter the units are its dictionary words (SCRIPT-24: the chunkers pass
``chunkspec._chunkers._word_units.units_of(counter)``). Below the chunkers, so that the
``code`` strategy's split (``chunkspec._code``) cuts a word as every strategy does.
"""

from __future__ import annotations

from collections.abc import Callable

from ._graphemes import grapheme_bounds
from ._units import unit_spans

__all__ = ["Units", "fit_word", "longest"]

#: The units of ``source[start:end]`` as offsets into ``source``.
Units = Callable[[str, int, int], list[tuple[int, int]]]


def longest(low: int, high: int, ok: Callable[[int], bool]) -> int:
    """Return the largest ``k`` in ``[low, high]`` with ``ok(k)``, or ``low`` if none.

    Assumes ``ok`` is monotone (true up to some ``k``). Galloping from ``low`` keeps the cost
    proportional to the answer, not to ``high``: linear overall when called chunk by chunk.
    """
    good, step = low, 1
    bad = high + 1
    while good + step <= high:
        if ok(good + step):
            good += step
            step *= 2
        else:
            bad = good + step
            break
    while bad - good > 1:
        mid = (good + bad) // 2
        if ok(mid):
            good = mid
        else:
            bad = mid
    return good


def _runs(bounds: list[int], fits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """The longest runs ``(i, k)`` of steps between ``bounds`` that fit; ``k == i`` where one
    step alone does not (the caller goes finer)."""
    out: list[tuple[int, int]] = []
    i, n = 0, len(bounds) - 1
    while i < n:
        first = bounds[i]
        k = longest(i, n, lambda k: k > i and fits(first, bounds[k]))  # noqa: B023
        out.append((i, k))
        i = max(k, i + 1)
    return out


def fit_word(
    source: str,
    start: int,
    end: int,
    fits: Callable[[int, int], bool],
    units_in: Units = unit_spans,
) -> list[tuple[int, int]]:
    """Split ``source[start:end]`` (no whitespace) into regions that fit (SCRIPT-8).

    The longest runs of units that fit; a unit over the budget by the longest runs of
    grapheme clusters; a cluster over the budget alone (the one case a piece may exceed).
    """
    units = units_in(source, start, end)
    bounds = [start, *(a for a, _ in units[1:]), end]
    out: list[tuple[int, int]] = []
    for i, k in _runs(bounds, fits):
        if k > i:
            out.append((bounds[i], bounds[k]))
            continue
        clusters = grapheme_bounds(source, bounds[i], bounds[i + 1])
        for c, d in _runs(clusters, fits):
            out.append((clusters[c], clusters[max(d, c + 1)]))
    return out
