"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._assemble import assemble
from ._chunk import Chunk, render
from ._counters import TokenCounter, WhitespaceCounter
from ._errors import ArgumentTypeError, ArgumentValueError
from ._evaluate import EvalCell, EvalReport, evaluate
from ._gold import GoldSpan, SpanQuery
from ._hashing import hash_text
from ._labelled_corpus import Corpus, CorpusDocument, CorpusError, load_corpus
from ._metrics import LabelledQuery, Retriever, Score, compare, mrr, recall_at_k
from ._provenance import SourceChunk
from ._split import split_section
from ._strategies import EvalChunk, StrategyUnavailable
from ._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._words import words

__all__ = [
    "SEPARATORS",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "Chunk",
    "Corpus",
    "CorpusDocument",
    "CorpusError",
    "EvalCell",
    "EvalChunk",
    "EvalReport",
    "GoldSpan",
    "LabelledQuery",
    "Retriever",
    "Score",
    "SourceChunk",
    "SpanQuery",
    "StrategyUnavailable",
    "TokenCounter",
    "WhitespaceCounter",
    "assemble",
    "compare",
    "count_tokens",
    "evaluate",
    "hash_text",
    "load_corpus",
    "mrr",
    "recall_at_k",
    "render",
    "split_section",
    "words",
]

__version__ = "0.1.0"
