"""Span-level metrics: recall, precision and IoU of retrieved text against the gold text.

Rules EVAL-30 to EVAL-35 in docs/spec/eval.md. Text is measured in code points of the
source over the *union* of regions: a character covered by two retrieved chunks counts once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .._core._validate import require_int
from .._errors import ArgumentValueError
from ._gold import GoldSpan, SpanQuery

__all__ = [
    "Region",
    "SpanScore",
    "alternatives",
    "budget_pack",
    "covered",
    "precision_omega",
    "query_scores",
    "span_scores",
    "tokens_per_answer",
    "union",
]

#: ``(doc_id, start, end)``: the characters ``source[start:end]`` of one document.
Region = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class SpanScore:
    """Recall, precision and IoU of one retrieved set against one gold answer (EVAL-32)."""

    recall: float
    precision: float
    iou: float


def union(regions: Iterable[Region]) -> list[Region]:
    """Return the union of ``regions`` as disjoint, non-touching regions, sorted (EVAL-30).

    Empty regions (``end <= start``) are dropped; overlapping or adjacent regions of one
    document merge.
    """
    merged: list[Region] = []
    for doc, start, end in sorted(r for r in regions if r[2] > r[1]):
        if merged and merged[-1][0] == doc and start <= merged[-1][2]:
            last = merged[-1]
            merged[-1] = (doc, last[1], max(last[2], end))
        else:
            merged.append((doc, start, end))
    return merged


def covered(regions: Iterable[Region]) -> int:
    """Return the number of characters in the union of ``regions`` (EVAL-30)."""
    return sum(end - start for _, start, end in union(regions))


def _intersection(a: Sequence[Region], b: Sequence[Region]) -> int:
    """Return the characters two unions (sorted, disjoint) have in common."""
    total = 0
    i = j = 0
    while i < len(a) and j < len(b):
        (da, sa, ea), (db, sb, eb) = a[i], b[j]
        if da != db:
            if da < db:
                i += 1
            else:
                j += 1
            continue
        total += max(0, min(ea, eb) - max(sa, sb))
        if ea <= eb:
            i += 1
        else:
            j += 1
    return total


def span_scores(retrieved: Iterable[Region], gold: Iterable[Region]) -> SpanScore:
    """Score retrieved text against gold text over unions (EVAL-32).

    With ``R`` and ``G`` the unions and ``I = |R ∩ G|``: recall ``I / |G|``, precision
    ``I / |R|`` (0 when nothing is retrieved), IoU ``I / |R ∪ G|``. Raises ValueError
    when the gold text is empty.
    """
    r, g = union(retrieved), union(gold)
    size_r = sum(e - s for _, s, e in r)
    size_g = sum(e - s for _, s, e in g)
    if size_g == 0:
        raise ArgumentValueError("gold", "must cover at least one character", g)
    both = _intersection(r, g)
    return SpanScore(
        both / size_g,
        both / size_r if size_r else 0.0,
        both / (size_r + size_g - both),
    )


def alternatives(query: SpanQuery) -> list[tuple[GoldSpan, ...]]:
    """The query's complete answers: each span alone, or all spans together (EVAL-31)."""
    if query.together:
        return [query.gold]
    return [(span,) for span in query.gold]


def _regions(spans: Iterable[GoldSpan]) -> list[Region]:
    """Return ``spans`` as regions."""
    return [(s.doc_id, s.start, s.end) for s in spans]


def query_scores(retrieved: Iterable[Region], query: SpanQuery) -> SpanScore:
    """Score ``retrieved`` against the query's best answer (EVAL-31, EVAL-32).

    The best answer has the highest recall, then the highest IoU, then comes first.
    """
    chunks = union(retrieved)
    best: SpanScore | None = None
    for answer in alternatives(query):
        score = span_scores(chunks, _regions(answer))
        if best is None or (score.recall, score.iou) > (best.recall, best.iou):
            best = score
    assert best is not None  # a SpanQuery holds at least one span (EVAL-10)
    return best


def precision_omega(chunks: Iterable[Region], query: SpanQuery) -> float:
    """Precision at perfect recall: IoU of the chunks touching the best answer (EVAL-33).

    For each answer ``A`` the oracle retrieves every chunk overlapping ``A`` by at least one
    character; the score is ``|O ∩ A| / |O ∪ A|`` (Chroma's ``precision_omega``), and the
    query takes the best answer's.
    """
    every = list(chunks)
    best = 0.0
    for answer in alternatives(query):
        gold = _regions(answer)
        oracle = [
            c for c in every if any(c[0] == d and min(c[2], e) > max(c[1], s) for d, s, e in gold)
        ]
        best = max(best, span_scores(oracle, gold).iou)
    return best


def budget_pack(candidates: Sequence[tuple[int, str]], budget: int) -> list[int]:
    """Indices of the candidates ``(tokens, content_hash)`` packed into ``budget`` (EVAL-34).

    In rank order: a candidate whose hash is already packed is skipped (PACK-6), one that
    does not fit the room left is skipped and the walk goes on (PACK-7).
    """
    room = require_int("budget", budget, minimum=0)
    picked: list[int] = []
    hashes: set[str] = set()
    for index, (tokens, content_hash) in enumerate(candidates):
        if content_hash in hashes or tokens > room:
            continue
        picked.append(index)
        hashes.add(content_hash)
        room -= tokens
    return picked


def tokens_per_answer(tokens: Sequence[int], answered: Sequence[bool]) -> float | None:
    """Tokens retrieved over all questions per answered question; None if none (EVAL-35)."""
    hits = sum(1 for a in answered if a)
    return sum(tokens) / hits if hits else None
