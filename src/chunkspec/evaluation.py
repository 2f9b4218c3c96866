"""The retrieval evaluation harness and its metrics (docs/spec/eval.md, EVAL-*).

:func:`evaluate` scores chunking strategies on a labelled :class:`Corpus` (see
:func:`load_corpus`); :func:`recall_at_k`, :func:`mrr` and :func:`compare` score a
:class:`Retriever` on :class:`LabelledQuery` lists.
"""

from ._errors import CorpusError, RetrieverUnavailable, StrategyUnavailable
from ._evaluation._evaluate import EvalCell, EvalReport, evaluate
from ._evaluation._gold import GoldSpan, SpanQuery
from ._evaluation._labelled_corpus import Corpus, CorpusDocument, load_corpus
from ._evaluation._metrics import LabelledQuery, Retriever, Score, compare, mrr, recall_at_k

__all__ = [
    "Corpus",
    "CorpusDocument",
    "CorpusError",
    "EvalCell",
    "EvalReport",
    "GoldSpan",
    "LabelledQuery",
    "Retriever",
    "RetrieverUnavailable",
    "Score",
    "SpanQuery",
    "StrategyUnavailable",
    "compare",
    "evaluate",
    "load_corpus",
    "mrr",
    "recall_at_k",
]
