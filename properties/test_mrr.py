"""Properties of mrr, rules EVAL-6 and EVAL-8."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from chunkspec.evaluation import LabelledQuery, compare, mrr, recall_at_k

from .models import mrr_model, recall_at_k_model
from .strategies import eval_cases

Case = tuple[dict[str, list[str]], list[tuple[str, frozenset[str]]], int]


def _mrr(case: Case, k: int | None = None) -> float:
    answers, queries, default_k = case
    labelled = [LabelledQuery(q, gold) for q, gold in queries]
    return mrr(lambda q, _k: answers[q], labelled, default_k if k is None else k)


@given(eval_cases())
def test_agrees_with_literal_model(case: Case) -> None:
    """EVAL-8, EVAL-6: mean 1/rank of the first gold id in the first k, as the exact model."""
    answers, queries, k = case
    expected = float(mrr_model(answers, queries, k))
    assert math.isclose(_mrr(case), expected, rel_tol=1e-12, abs_tol=0.0)


@given(eval_cases())
def test_bounds_and_at_most_recall(case: Case) -> None:
    """EVAL-8: 0 <= mrr <= recall_at_k <= 1, exactly in floating point."""
    answers, queries, k = case
    labelled = [LabelledQuery(q, gold) for q, gold in queries]
    value = _mrr(case)
    assert 0.0 <= value <= recall_at_k(lambda q, _k: answers[q], labelled, k) <= 1.0


@given(eval_cases(), st.integers(min_value=1, max_value=12))
def test_monotone_in_k(case: Case, extra: int) -> None:
    """EVAL-8: a larger k can only add reciprocal ranks."""
    assert _mrr(case, case[2]) <= _mrr(case, case[2] + extra)


@given(eval_cases())
def test_perfect_retriever_scores_one(case: Case) -> None:
    """EVAL-8: gold first for every question gives MRR 1."""
    _, queries, k = case
    labelled = [LabelledQuery(q, frozenset({"gold"})) for q, _ in queries]
    assert mrr(lambda q, _k: ["gold", "x"], labelled, k) == 1.0


@given(eval_cases())
def test_compare_reports_the_same_numbers(case: Case) -> None:
    """EVAL-9: compare's scores are recall_at_k and mrr of each retriever."""
    answers, queries, k = case
    labelled = [LabelledQuery(q, gold) for q, gold in queries]
    import io

    scores = compare({"r": lambda q, _k: answers[q]}, labelled, k, file=io.StringIO())
    assert scores["r"].recall == float(recall_at_k_model(answers, queries, k))
    assert scores["r"].mrr == _mrr(case)
