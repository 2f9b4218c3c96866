"""Retrieval metrics: ``LabelledQuery``, ``recall_at_k``, ``mrr`` and ``compare``.

Rules EVAL-1 to EVAL-9 in docs/spec/eval.md. Each retriever is called exactly once per
query per metric, with ``(question, k)``, and only the first ``k`` ids it returns count.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TextIO

from .._core._validate import require_int, require_text
from .._errors import ArgumentTypeError, ArgumentValueError

__all__ = ["LabelledQuery", "Retriever", "Score", "compare", "mrr", "recall_at_k"]

#: A retriever maps ``(question, k)`` to chunk ids, best first (EVAL-1).
Retriever = Callable[[str, int], Sequence[str]]


@dataclass(frozen=True, slots=True)
class LabelledQuery:
    """One real question, and the chunk ids that genuinely answer it (rule EVAL-1).

    ``gold_chunk_ids`` may be any iterable of ``str`` (not a ``str`` itself); it is stored as
    a ``frozenset``. An empty gold set is allowed and is always a miss (rule EVAL-1): the fair
    span mapping produces one when a chunking cut every answer in half.
    """

    question: str
    gold_chunk_ids: frozenset[str]

    def __post_init__(self) -> None:
        require_text("question", self.question)
        gold: object = self.gold_chunk_ids
        if isinstance(gold, (str, bytes)) or not isinstance(gold, Iterable):
            raise ArgumentTypeError("gold_chunk_ids", "an iterable of str", gold)
        ids = frozenset(gold)
        for chunk_id in ids:
            require_text("gold_chunk_ids[...]", chunk_id)
        object.__setattr__(self, "gold_chunk_ids", ids)


@dataclass(frozen=True, slots=True)
class Score:
    """The two figures for one retriever: ``recall`` at k and ``mrr`` at k (EVAL-9)."""

    recall: float
    mrr: float


def recall_at_k(retriever: Retriever, queries: Sequence[LabelledQuery], k: int) -> float:
    """Share of questions with a gold id among the retriever's first ``k`` ids.

    ``recall_at_k(r, qs, k) == sum(bool(set(top(r, q, k)) & q.gold_chunk_ids) for q in qs)
    / len(qs)`` where ``top(r, q, k) == list(r(q.question, k))[:k]`` (rules EVAL-2, EVAL-5).
    Raises ValueError for an empty ``queries`` (EVAL-3) or ``k < 1`` (EVAL-4).
    """
    items, k = _arguments(retriever, queries, k)
    hits = sum(1 for q in items if _first_rank(retriever, q, k) is not None)
    return hits / len(items)


def mrr(retriever: Retriever, queries: Sequence[LabelledQuery], k: int) -> float:
    """Mean over the questions of ``1 / rank`` of the first gold id in the top ``k``, else 0.

    ``rank`` is the 1-based position in ``top(r, q, k)`` as returned, duplicates included
    (rules EVAL-6, EVAL-7). The sum is taken with ``math.fsum``, so ``mrr <= recall_at_k``
    holds exactly in floating point (EVAL-8).
    """
    items, k = _arguments(retriever, queries, k)
    ranks = (_first_rank(retriever, q, k) for q in items)
    return math.fsum(1 / rank for rank in ranks if rank is not None) / len(items)


def compare(
    strategies: dict[str, Retriever],
    queries: Sequence[LabelledQuery],
    k: int = 10,
    *,
    file: TextIO | None = None,
) -> dict[str, Score]:
    """Score every retriever and print its line; return ``{name: Score}`` in order.

    Each line is ``f"{name:<{width}}  recall@{k} {recall:.2f}  mrr@{k} {mrr:.2f}"`` with
    ``width`` the longest name, written to ``file`` (default ``sys.stdout``; rule EVAL-9).
    Each retriever is called once per query and metric. Raises ValueError
    for an empty ``strategies``.
    """
    if not isinstance(strategies, dict):
        raise ArgumentTypeError("strategies", "a dict of name to retriever", strategies)
    if not strategies:
        raise ArgumentValueError("strategies", "must not be empty", strategies)
    for name in strategies:
        require_text("strategies key", name)
    items, k = _arguments(next(iter(strategies.values())), queries, k)
    out = sys.stdout if file is None else file
    width = max(len(name) for name in strategies)
    scores: dict[str, Score] = {}
    for name, retriever in strategies.items():
        if not callable(retriever):
            raise ArgumentTypeError(f"strategies[{name!r}]", "a callable retriever", retriever)
        ranks = [_first_rank(retriever, q, k) for q in items]
        score = Score(
            sum(1 for rank in ranks if rank is not None) / len(items),
            math.fsum(1 / rank for rank in ranks if rank is not None) / len(items),
        )
        scores[name] = score
        out.write(f"{name:<{width}}  recall@{k} {score.recall:.2f}  mrr@{k} {score.mrr:.2f}\n")
    return scores


def _arguments(retriever: object, queries: object, k: object) -> tuple[list[LabelledQuery], int]:
    """Validate the shared arguments; return the queries as a list and ``k``."""
    if not callable(retriever):
        raise ArgumentTypeError("retriever", "a callable (question, k) -> ids", retriever)
    if isinstance(queries, (str, bytes)) or not isinstance(queries, Iterable):
        raise ArgumentTypeError("queries", "a sequence of LabelledQuery", queries)
    items = list(queries)
    for index, query in enumerate(items):
        if not isinstance(query, LabelledQuery):
            raise ArgumentTypeError(f"queries[{index}]", "a LabelledQuery", query)
    if not items:
        # EVAL-3: a metric over no questions is undefined, so it is an error, not 0 or NaN.
        raise ArgumentValueError("queries", "must not be empty", queries)
    return items, require_int("k", k, minimum=1)


def _first_rank(retriever: Retriever, query: LabelledQuery, k: int) -> int | None:
    """Return the 1-based rank of the first gold id in the first ``k`` answers, or None."""
    answer = retriever(query.question, k)
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Iterable):
        # EVAL-7: a str is a Sequence[str] of characters; that is never what was meant.
        raise ArgumentTypeError("retriever result", "a sequence of chunk ids", answer)
    top = list(islice(answer, k))  # EVAL-5: only the first k ids count.
    for index, chunk_id in enumerate(top):
        if not isinstance(chunk_id, str):
            raise ArgumentTypeError(f"retriever result[{index}]", "a str id", chunk_id)
    gold = query.gold_chunk_ids
    # EVAL-6: positions as returned; a repeated id keeps its slot and its first rank counts.
    return next((rank for rank, cid in enumerate(top, start=1) if cid in gold), None)
