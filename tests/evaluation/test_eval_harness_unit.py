"""``evaluate``'s plumbing on corpora small enough to work out by hand (needs bm25s).

The goldens (tests/golden/evaluate.json) pin the cells; here: the defaults recorded in the
report, the progress callback, and skipped strategies.
"""

from __future__ import annotations

import pytest

from chunkspec._evaluation._labelled_corpus import Corpus, CorpusDocument
from chunkspec.evaluation import GoldSpan, SpanQuery, evaluate
from tests.eval_unavailable import make_unavailable

pytest.importorskip("bm25s")


def _corpus(questions: int = 1) -> Corpus:
    doc = CorpusDocument("a", "A", "alpha beta")
    queries = tuple(
        SpanQuery(f"q{n}", "prose", "alpha?", (GoldSpan("a", 0, 5),)) for n in range(questions)
    )
    return Corpus("tiny", (doc,), queries)


def test_defaults_are_recorded() -> None:
    """EVAL-27, EVAL-11, EVAL-28: bm25, k 10, budget 3200, min_score 0.35, share 1."""
    report = evaluate(_corpus(), ["fixed-8"])
    assert (report.corpus, report.retriever, report.k, report.budget) == ("tiny", "bm25", 10, 3200)
    assert (report.min_score, report.share, report.skipped) == (0.35, 1.0, {})
    assert [(s.name, s.chunks, s.mean_tokens) for s in report.strategies] == [("fixed-8", 1, 2.0)]
    (prose, every) = report.cells
    assert (every.question_class, every.queries, every.recall, every.context_recall) == (
        "all",
        1,
        1.0,
        1.0,
    )
    assert prose.question_class == "prose"


def test_numbers_are_recorded_as_floats() -> None:
    """EVAL-28: min_score and share are floats in the report (and in its JSON)."""
    report = evaluate(_corpus(), ["fixed-8"], "bm25", 3, budget=50, min_score=0, share=1)
    assert (report.k, report.budget) == (3, 50)
    assert (type(report.min_score), report.min_score) == (float, 0.0)
    assert (type(report.share), report.share) == (float, 1.0)
    assert report.to_json()["share"] == 1.0


def test_progress_after_each_batch_of_sixteen() -> None:
    """The callback gets (done, total) after every 16 questions of every strategy."""
    calls: list[tuple[int, int]] = []
    report = evaluate(
        _corpus(20), ["fixed-8", "recursive-8"], progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(16, 40), (20, 40), (36, 40), (40, 40)]
    assert [c.queries for c in report.cells] == [20, 20, 20, 20]


def test_skipped_strategy_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-19, EVAL-28: skip_unavailable records an unavailable strategy and why."""
    make_unavailable(monkeypatch, "structural")
    report = evaluate(_corpus(), ["structural", "fixed-8"], skip_unavailable=True)
    assert report.skipped == {
        "structural": "strategy needs a chunker that is not installed, got 'structural'"
    }
    assert [s.name for s in report.strategies] == ["fixed-8"]
    assert {c.strategy for c in report.cells} == {"fixed-8"}


def test_bm25_draws_no_progress_bars(capsys: pytest.CaptureFixture[str]) -> None:
    """bm25s shows tqdm bars on stderr by default; the harness keeps stderr for its own bar."""
    from chunkspec._evaluation._retrievers import make_scorer

    scorer = make_scorer("bm25", ["alpha beta", "gamma delta"])
    (row,) = scorer.scores(["alpha?"])
    assert row[0] > 0.0
    assert row[1] == 0.0
    assert capsys.readouterr().err == ""


def test_bm25_does_not_retrieve_a_chunk_sharing_no_term() -> None:
    """EVAL-25: with bm25, the gold chunk sharing no term with the question ("gamma?" against
    "alpha beta") scores 0 and is not retrieved, so recall and MRR are 0, not 1."""
    doc = CorpusDocument("a", "A", "alpha beta")
    query = SpanQuery("q", "prose", "gamma?", (GoldSpan("a", 0, 5),))
    report = evaluate(Corpus("tiny", (doc,), (query,)), ["fixed-8"])
    every = report.cells[-1]
    assert (every.question_class, every.recall, every.mrr) == ("all", 0.0, 0.0)
