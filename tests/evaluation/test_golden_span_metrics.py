"""Golden cases for the span-level metrics, rules EVAL-30 to EVAL-38 (tests/golden/*.json)."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec._evaluation._bootstrap import interval, paired_p, resamples
from chunkspec._evaluation._span_metrics import (
    Region,
    budget_pack,
    covered,
    precision_omega,
    query_scores,
    span_scores,
    tokens_per_answer,
    union,
)
from chunkspec.evaluation import GoldSpan, SpanQuery

from .. import goldens


def _regions(data: list[list[Any]]) -> list[Region]:
    return [(d, s, e) for d, s, e in data]


def _query(data: dict[str, Any]) -> SpanQuery:
    spans = tuple(GoldSpan(d, s, e) for d, s, e in data["gold"])
    return SpanQuery("q", "c", "question?", spans, data["together"])


def _check_error(case: dict[str, Any], call: Any) -> None:
    expected = {"TypeError": TypeError, "ValueError": ValueError}[case["error"]["type"]]
    with pytest.raises(expected) as info:
        call()
    assert getattr(info.value, "argument", None) == case["error"]["argument"]


@pytest.mark.parametrize("case", goldens.cases("union"))
def test_union(case: dict[str, Any]) -> None:
    regions = _regions(case["input"]["regions"])
    assert [list(r) for r in union(regions)] == case["output"]["union"]
    assert covered(regions) == case["output"]["covered"]


@pytest.mark.parametrize("case", goldens.cases("span_scores"))
def test_span_scores(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> Any:
        return span_scores(_regions(data["retrieved"]), _regions(data["gold"]))

    if "error" in case:
        _check_error(case, call)
        return
    score = call()
    assert {"recall": score.recall, "precision": score.precision, "iou": score.iou} == case[
        "output"
    ]


@pytest.mark.parametrize("case", goldens.cases("query_scores"))
def test_query_scores(case: dict[str, Any]) -> None:
    data = case["input"]
    score = query_scores(_regions(data["retrieved"]), _query(data["query"]))
    assert {"recall": score.recall, "precision": score.precision, "iou": score.iou} == case[
        "output"
    ]


@pytest.mark.parametrize("case", goldens.cases("precision_omega"))
def test_precision_omega(case: dict[str, Any]) -> None:
    data = case["input"]
    assert precision_omega(_regions(data["chunks"]), _query(data["query"])) == case["output"]


@pytest.mark.parametrize("case", goldens.cases("budget_pack"))
def test_budget_pack(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> list[int]:
        return budget_pack([(t, h) for t, h in data["candidates"]], data["budget"])

    if "error" in case:
        _check_error(case, call)
    else:
        assert call() == case["output"]


@pytest.mark.parametrize("case", goldens.cases("tokens_per_answer"))
def test_tokens_per_answer(case: dict[str, Any]) -> None:
    data = case["input"]
    assert tokens_per_answer(data["tokens"], data["answered"]) == case["output"]


@pytest.mark.parametrize("case", goldens.cases("bootstrap"))
def test_bootstrap(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> dict[str, Any]:
        plan = resamples(data["clusters"], data["iterations"], data["seed"])
        lo, hi = interval(data["values"], plan)
        return {
            "unit": plan.unit,
            "interval": [lo, hi],
            "p": paired_p(data["values"], data["other"], plan),
        }

    if "error" in case:
        _check_error(case, call)
        return
    got = call()
    assert {key: got[key] for key in case["output"]} == case["output"]
