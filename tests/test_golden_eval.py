"""Golden cases for the seed-001 metrics and the fair-gold rule (tests/golden/*.json)."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from chunkspec import GoldSpan, LabelledQuery, SpanQuery, compare, mrr, recall_at_k
from chunkspec._gold import answers, labelled
from chunkspec._labelled_corpus import quote_span
from chunkspec._retrievers import normalise, ranked
from chunkspec._strategies import resolve, word_spans

from . import goldens


def _retriever(answers_by_question: dict[str, Any]) -> Callable[[str, int], Sequence[str]]:
    """A retriever that returns the case's whole answer list, whatever k is."""

    def retrieve(question: str, k: int) -> Sequence[str]:
        result: Sequence[str] = answers_by_question[question]
        return result

    return retrieve


def _queries(data: list[dict[str, Any]]) -> list[LabelledQuery]:
    return [LabelledQuery(q["question"], frozenset(q["gold"])) for q in data]


def _check_error(case: dict[str, Any], call: Callable[[], object]) -> None:
    expected = {"TypeError": TypeError, "ValueError": ValueError}[case["error"]["type"]]
    with pytest.raises(expected) as info:
        call()
    assert getattr(info.value, "argument", None) == case["error"]["argument"]


@pytest.mark.parametrize("case", goldens.cases("recall_at_k"))
def test_recall_at_k(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> float:
        return recall_at_k(_retriever(data["answers"]), _queries(data["queries"]), data["k"])

    if "error" in case:
        _check_error(case, call)
    else:
        assert call() == case["output"]


@pytest.mark.parametrize("case", goldens.cases("mrr"))
def test_mrr(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> float:
        return mrr(_retriever(data["answers"]), _queries(data["queries"]), data["k"])

    if "error" in case:
        _check_error(case, call)
    else:
        assert call() == case["output"]


@pytest.mark.parametrize("case", goldens.cases("compare"))
def test_compare(case: dict[str, Any]) -> None:
    data = case["input"]
    out = io.StringIO()

    def call() -> object:
        strategies = {name: _retriever(a) for name, a in data["strategies"].items()}
        return compare(strategies, _queries(data["queries"]), data["k"], file=out)

    if "error" in case:
        _check_error(case, call)
        return
    scores = call()
    assert isinstance(scores, dict)
    assert out.getvalue().splitlines() == case["output"]["lines"]
    got = {name: {"recall": s.recall, "mrr": s.mrr} for name, s in scores.items()}
    assert got == case["output"]["scores"]


@pytest.mark.parametrize("case", goldens.cases("answers"))
def test_answers(case: dict[str, Any]) -> None:
    data = case["input"]
    share = goldens.number(data["share"])

    def call() -> bool:
        span = GoldSpan(data["span"]["doc_id"], data["span"]["start"], data["span"]["end"])
        return answers(data["doc_id"], data["start"], data["end"], span, share)

    if "error" in case:
        _check_error(case, call)
    else:
        assert call() is case["output"]


@pytest.mark.parametrize("case", goldens.cases("word_spans"))
def test_word_spans(case: dict[str, Any]) -> None:
    assert [list(s) for s in word_spans(case["input"]["text"])] == case["output"]


@pytest.mark.parametrize("case", goldens.cases("strategy"))
def test_strategy(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> list[dict[str, object]]:
        chunks = resolve(data["name"])(data["doc_id"], data["title"], data["source"])
        for c in chunks:
            assert c.doc_id == data["doc_id"]
            assert c.title == data["title"]
            assert c.embedding_text == c.text
        return [{"id": c.id, "text": c.text, "start": c.start, "end": c.end} for c in chunks]

    if "error" in case:
        _check_error(case, call)
    else:
        assert call() == case["output"]


@pytest.mark.parametrize("case", goldens.cases("quote_span"))
def test_quote_span(case: dict[str, Any]) -> None:
    data = case["input"]

    def call() -> GoldSpan:
        return quote_span(data["doc_id"], data["text"], data["quote"])

    if "error" in case:
        _check_error(case, call)
    else:
        assert call() == GoldSpan(**case["output"])


@pytest.mark.parametrize("case", goldens.cases("ranked"))
def test_ranked(case: dict[str, Any]) -> None:
    data = case["input"]
    got = ranked(data["row"], data["k"], positive_only=data["positive_only"])
    assert [list(pair) for pair in got] == case["output"]


@pytest.mark.parametrize("case", goldens.cases("normalise"))
def test_normalise(case: dict[str, Any]) -> None:
    data = case["input"]
    assert normalise(data["retriever"], data["scores"]) == case["output"]


@pytest.mark.parametrize("case", goldens.cases("labelled"))
def test_labelled(case: dict[str, Any]) -> None:
    data = case["input"]
    query = SpanQuery("q", "prose", "question?", tuple(GoldSpan(*g) for g in data["gold"]))
    regions = {doc: [tuple(r) for r in items] for doc, items in data["regions"].items()}
    result = labelled(query, regions, data["share"])
    assert result.question == "question?"
    assert sorted(result.gold_chunk_ids) == case["output"]
