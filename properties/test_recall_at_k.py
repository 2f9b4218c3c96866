"""Properties of recall_at_k, rules EVAL-1 to EVAL-7."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec.evaluation import LabelledQuery, recall_at_k

from .models import recall_at_k_model
from .strategies import eval_cases

Case = tuple[dict[str, list[str]], list[tuple[str, frozenset[str]]], int]


def _run(case: Case, k: int | None = None) -> float:
    answers, queries, default_k = case
    labelled = [LabelledQuery(q, gold) for q, gold in queries]
    return recall_at_k(lambda q, _k: answers[q], labelled, default_k if k is None else k)


@given(eval_cases())
def test_agrees_with_literal_model(case: Case) -> None:
    """EVAL-2, EVAL-5, EVAL-6: hits/questions over the first k ids, as the literal model."""
    answers, queries, k = case
    assert _run(case) == float(recall_at_k_model(answers, queries, k))


@given(eval_cases())
def test_bounds(case: Case) -> None:
    """EVAL-2: 0 <= recall <= 1."""
    assert 0.0 <= _run(case) <= 1.0


@given(eval_cases(), st.integers(min_value=1, max_value=12))
def test_monotone_in_k(case: Case, extra: int) -> None:
    """EVAL-5: a larger k never lowers recall."""
    k = case[2]
    assert _run(case, k) <= _run(case, k + extra)


@given(eval_cases())
def test_perfect_retriever_scores_one(case: Case) -> None:
    """EVAL-2: a retriever that puts a gold id first finds every answerable question."""
    _, queries, k = case
    labelled = [LabelledQuery(q, gold | {"gold"}) for q, gold in queries]
    first = {q: ["gold", *sorted(gold)] for q, gold in queries}
    assert recall_at_k(lambda q, _k: first[q], labelled, k) == 1.0


@given(eval_cases())
def test_empty_gold_is_always_a_miss(case: Case) -> None:
    """EVAL-1: a question with empty gold never counts as a hit, whatever is returned."""
    answers, queries, k = case
    labelled = [LabelledQuery(q, frozenset()) for q, _ in queries]
    assert recall_at_k(lambda q, _k: answers[q], labelled, k) == 0.0


@given(eval_cases())
def test_retriever_called_once_per_question_with_k(case: Case) -> None:
    """EVAL-7: each question is asked once, with (question, k)."""
    answers, queries, k = case
    calls: list[tuple[str, int]] = []

    def retrieve(question: str, top: int) -> Sequence[str]:
        calls.append((question, top))
        return answers[question]

    recall_at_k(retrieve, [LabelledQuery(q, g) for q, g in queries], k)
    assert calls == [(q, k) for q, _ in queries]


@given(eval_cases(), st.integers(max_value=0) | st.booleans() | st.floats(allow_nan=False))
def test_bad_k_rejected(case: Case, k: object) -> None:
    """EVAL-4: k must be an int >= 1 (bool and float are rejected, naming k)."""
    answers, queries, _ = case
    labelled = [LabelledQuery(q, gold) for q, gold in queries]
    with pytest.raises((TypeError, ValueError)) as info:
        recall_at_k(lambda q, _k: answers[q], labelled, k)  # type: ignore[arg-type]
    assert getattr(info.value, "argument", None) == "k"


@given(st.integers(min_value=1, max_value=50), st.sampled_from(["recall", "mrr"]))
def test_empty_queries_rejected(k: int, metric: str) -> None:
    """EVAL-3: no questions is a ValueError naming queries, for any k and either metric."""
    from chunkspec.evaluation import mrr

    function = recall_at_k if metric == "recall" else mrr
    with pytest.raises(ValueError, match="queries must not be empty") as info:
        function(lambda q, _k: [], [], k)
    assert getattr(info.value, "argument", None) == "queries"
