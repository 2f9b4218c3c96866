"""The dense retriever's own code, with a tiny stand-in for the all-MiniLM-L6-v2 model.

The real model needs the ``embed`` extra (sentence-transformers, PyTorch and 90 MB of
weights), which CI does not install; ``tests/evaluation/test_eval.py::test_dense_ranks_by_meaning``
runs it where it is. Here ``_model`` (the one place the model is loaded) is replaced by an
encoder with sentence-transformers' ``encode`` keyword semantics: ``normalize_embeddings``
defaults to False, ``show_progress_bar`` to None (a bar only when the library's logger is at
INFO or DEBUG), and texts go through in batches of ``batch_size``. Its vectors are written
by hand, so every cosine below can be checked with pencil and paper.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from chunkspec._evaluation import _retrievers
from chunkspec._evaluation._labelled_corpus import Corpus, CorpusDocument
from chunkspec._evaluation._retrievers import make_scorer
from chunkspec.evaluation import GoldSpan, SpanQuery, evaluate

np = pytest.importorskip("numpy")

#: Hand-made embeddings (before normalisation) of every text the tests encode.
_VECTORS: dict[str, list[float]] = {
    "refund": [3.0, 4.0],  # |v| = 5 -> (0.6, 0.8)
    "hours": [2.0, 0.0],  # -> (1, 0)
    "away": [-1.0, 0.0],  # -> (-1, 0)
    "return?": [0.0, 2.0],  # -> (0, 1)
    "open?": [5.0, 0.0],  # -> (1, 0)
}

_LOGGER = "sentence_transformers.SentenceTransformer"


class _FakeModel:
    """``encode`` as sentence-transformers defines it, over the table above."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def encode(
        self,
        sentences: list[str],
        *,
        normalize_embeddings: bool = False,
        show_progress_bar: bool | None = None,
        batch_size: int = 32,
    ) -> Any:
        if show_progress_bar is None:
            level = logging.getLogger(_LOGGER).getEffectiveLevel()
            show_progress_bar = level in (logging.INFO, logging.DEBUG)
        rows: list[list[float]] = []
        for first in range(0, len(sentences), batch_size):
            batch = sentences[first : first + batch_size]
            self.batches.append(len(batch))
            rows += [_VECTORS[text] for text in batch]
            if show_progress_bar:
                sys.stderr.write(f"Batches: {len(self.batches)}\n")
        matrix = np.array(rows, dtype=np.float32).reshape(len(rows), 2)
        if normalize_embeddings:
            matrix = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix


@pytest.fixture
def model(monkeypatch: pytest.MonkeyPatch) -> _FakeModel:
    fake = _FakeModel()
    monkeypatch.setattr(_retrievers, "_model", lambda: fake)
    # EVAL-42: the stand-in's vectors must never reach a user's cache under the real key
    monkeypatch.delenv("CHUNKSPEC_EMBED_CACHE", raising=False)
    # a user who turned the library's logging up to INFO still gets no progress bar
    monkeypatch.setattr(logging.getLogger(_LOGGER), "level", logging.INFO)
    return fake


def _close(row: Sequence[float], want: Sequence[float]) -> bool:
    return len(row) == len(want) and all(abs(a - b) < 1e-6 for a, b in zip(row, want, strict=True))


def test_dense_scores_are_cosines(model: _FakeModel, capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-24: cosine similarity of L2-normalised embeddings, every chunk for every question."""
    scorer = make_scorer("dense", ("refund", "hours", "away"))
    rows = scorer.scores(("return?", "open?"))
    assert len(rows) == 2
    assert _close(rows[0], [0.8, 0.0, 0.0])
    assert _close(rows[1], [0.6, 1.0, -1.0])
    assert all(type(s) is float for row in rows for s in row)
    assert capsys.readouterr().err == ""  # no progress bar from the model
    assert model.batches == [3, 2]  # the chunks once, then the questions


def test_dense_in_evaluate(model: _FakeModel) -> None:
    """EVAL-25, EVAL-27: dense retrieves any chunk, negative cosines included, clipped to 0."""
    docs = (
        CorpusDocument("a", "A", "refund"),
        CorpusDocument("b", "B", "hours"),
        CorpusDocument("c", "C", "away"),
    )
    queries = (
        SpanQuery("q1", "prose", "open?", (GoldSpan("c", 0, 4),)),
        SpanQuery("q2", "prose", "return?", (GoldSpan("a", 0, 6),)),
    )
    report = evaluate(Corpus("toy", docs, queries), ["fixed-1"], "dense", 3, min_score=0.0)
    (stats,) = report.strategies
    assert (stats.name, stats.chunks, stats.mean_tokens) == ("fixed-1", 3, 1.0)
    prose, every = report.cells
    # q1 ranks b (1.0), a (0.6), c (-1.0): its gold c is third; q2 ranks a (0.8) first.
    assert (every.recall, every.mrr) == (1.0, (1 / 3 + 1) / 2)
    # c's cosine -1.0 clips to 0.0; with min_score 0 assemble still takes it (EVAL-27).
    assert every.context_recall == 1.0
    assert prose.question_class == "prose"
    assert (prose.queries, prose.recall, prose.mrr) == (2, every.recall, every.mrr)
