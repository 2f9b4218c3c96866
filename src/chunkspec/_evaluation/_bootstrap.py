"""Uncertainty of a table cell: bootstrap intervals and a paired test, resampled by cluster.

Rules EVAL-37 and EVAL-38 in docs/spec/eval.md. A cluster is the document a question is
asked about; questions of one document share its wording and are not independent, so the
document is what is resampled.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._core._validate import require_int
from .._errors import ArgumentValueError

__all__ = ["ALPHA", "Resamples", "interval", "paired_p", "resamples"]

#: Two-sided level of the intervals (95%) and of the paired test.
ALPHA = 0.05

#: Below this many clusters the question itself is the resampling unit (EVAL-37).
MIN_CLUSTERS = 20


@dataclass(frozen=True, slots=True)
class Resamples:
    """Cluster index of every question and the drawn clusters of every resample."""

    unit: str
    of_question: tuple[int, ...]
    draws: tuple[tuple[int, ...], ...]
    size: int
    #: ``counts[r][c]``: how often resample r drew cluster c (a numpy matrix, or None).
    counts: Any = field(default=None, compare=False, repr=False)


def resamples(clusters: Sequence[Hashable], iterations: int = 1000, seed: int = 0) -> Resamples:
    """Draw ``iterations`` resamples of the clusters, with replacement (EVAL-37).

    ``clusters[i]`` is question i's document. With fewer than 20 distinct documents each
    question is its own cluster (``unit == "question"``). Resample r draws ``n`` cluster
    indices with ``random.Random(seed).choices(range(n), k=n)``, one call per resample in
    order, so the same seed gives the same resamples and every strategy of a table is
    scored on the same resamples (a paired design, EVAL-38).
    """
    require_int("iterations", iterations, minimum=1)
    require_int("seed", seed, minimum=0)
    if not clusters:
        raise ArgumentValueError("clusters", "must not be empty", clusters)
    index = {c: n for n, c in enumerate(dict.fromkeys(clusters))}
    unit = "document"
    of_question = tuple(index[c] for c in clusters)
    if len(index) < MIN_CLUSTERS:
        unit, of_question = "question", tuple(range(len(clusters)))
    n = max(of_question) + 1
    rng = random.Random(seed)
    draws = tuple(tuple(rng.choices(range(n), k=n)) for _ in range(iterations))
    return Resamples(unit, of_question, draws, n, _count_matrix(draws, n))


def _count_matrix(draws: tuple[tuple[int, ...], ...], n: int) -> Any:
    """The resamples as a count matrix when numpy is installed (the retrievers' extras bring
    it), so a mean over a resample is one dot product; else None (pure Python)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - the bm25 and embed extras install numpy
        return None
    index = np.asarray(draws, dtype=np.int64) + n * np.arange(len(draws))[:, None]
    return np.bincount(index.ravel(), minlength=len(draws) * n).reshape(len(draws), n)


def _means(values: Sequence[float], plan: Resamples) -> list[float]:
    """The mean of ``values`` over the questions of each resample (empty resamples skipped:
    a class's questions may lie in documents a resample did not draw)."""
    n = plan.size
    sums = [0.0] * n
    counts = [0] * n
    for value, cluster in zip(values, plan.of_question, strict=True):
        sums[cluster] += value
        counts[cluster] += 1
    if plan.counts is not None:
        import numpy as np

        totals = plan.counts @ np.asarray(counts, dtype=np.int64)
        weighted = plan.counts @ np.asarray(sums, dtype=np.float64)
        keep = totals > 0
        return [float(x) for x in weighted[keep] / totals[keep]]
    out = []
    for draw in plan.draws:
        total = sum(counts[c] for c in draw)
        if total:
            out.append(sum(sums[c] for c in draw) / total)
    return out


def interval(values: Sequence[float], plan: Resamples) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values`` at level 1 - ALPHA (EVAL-37).

    With the resample means sorted as ``q`` (``R`` of them), the interval is ``(q[t],
    q[R - 1 - t])`` with ``t = floor(R * ALPHA / 2) == R // 40``, in integers.
    """
    means = sorted(_means(values, plan))
    if not means:  # no resample drew a document of these questions
        mean = sum(values) / len(values)
        return mean, mean
    tail = len(means) // 40  # floor(R * 0.05 / 2), exactly
    return means[tail], means[len(means) - 1 - tail]


def paired_p(a: Sequence[float], b: Sequence[float], plan: Resamples) -> float:
    """Two-sided paired bootstrap p-value for ``mean(a) == mean(b)`` (EVAL-38).

    ``d`` is the mean of ``a[i] - b[i]`` in each resample; ``p = min(1, 2 * min(#(d <= 0),
    #(d >= 0)) / R)``. Identical inputs give 1; ``a`` above ``b`` in every resample gives 0.
    """
    diffs = _means([x - y for x, y in zip(a, b, strict=True)], plan)
    below = sum(1 for d in diffs if d <= 0)
    above = sum(1 for d in diffs if d >= 0)
    if not diffs:
        return 1.0
    return min(1.0, 2 * min(below, above) / len(diffs))
