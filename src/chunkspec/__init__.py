"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._assemble import assemble
from ._blocks import Block, ChunkContext, Document, document_from_blocks, parse_text
from ._chunk import Chunk, render
from ._counters import TokenCounter, WhitespaceCounter
from ._errors import ArgumentTypeError, ArgumentValueError
from ._evaluate import EvalCell, EvalReport, evaluate
from ._gold import GoldSpan, SpanQuery
from ._hashing import hash_text
from ._heading_aware import Chunker, DocumentChunk, HeadingAwareChunker
from ._labelled_corpus import Corpus, CorpusDocument, CorpusError, load_corpus
from ._markdown import parse_markdown
from ._metrics import LabelledQuery, Retriever, Score, compare, mrr, recall_at_k
from ._provenance import SourceChunk
from ._sentences import split_sentences
from ._split import split_section
from ._split_markdown import MarkdownChunk, split_markdown
from ._strategies import EvalChunk, StrategyUnavailable
from ._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._words import words

__all__ = [
    "SEPARATORS",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "Block",
    "Chunk",
    "ChunkContext",
    "Chunker",
    "Corpus",
    "CorpusDocument",
    "CorpusError",
    "Document",
    "DocumentChunk",
    "EvalCell",
    "EvalChunk",
    "EvalReport",
    "GoldSpan",
    "HeadingAwareChunker",
    "LabelledQuery",
    "MarkdownChunk",
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
    "document_from_blocks",
    "evaluate",
    "hash_text",
    "load_corpus",
    "mrr",
    "parse_markdown",
    "parse_text",
    "recall_at_k",
    "render",
    "split_markdown",
    "split_section",
    "split_sentences",
    "words",
]

__version__ = "0.1.0"
