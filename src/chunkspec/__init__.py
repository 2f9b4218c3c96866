"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._chunkers._heading_aware import Chunker, DocumentChunk, HeadingAwareChunker
from ._chunkers._options import ChunkOptions
from ._chunkers._pages import (
    PAGE_SEPARATOR,
    Page,
    PageChunk,
    PageChunker,
    SectionSpan,
    chunk_pages,
    join_pages,
)
from ._chunkers._split_markdown import MarkdownChunk, split_markdown
from ._chunkers._window import TokenWindow, chunk, token_windows
from ._core._assemble import assemble
from ._core._chunk import Chunk, render
from ._core._hashing import hash_text
from ._core._provenance import SourceChunk
from ._core._split import split_section
from ._core._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._core._words import words
from ._counters._builtin import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from ._counters._registry import counter_from_name, counter_name, resolve_counter
from ._errors import ArgumentTypeError, ArgumentValueError, ChunkspecError
from ._evaluation._evaluate import EvalCell, EvalReport, evaluate
from ._evaluation._gold import GoldSpan, SpanQuery
from ._evaluation._labelled_corpus import Corpus, CorpusDocument, CorpusError, load_corpus
from ._evaluation._metrics import LabelledQuery, Retriever, Score, compare, mrr, recall_at_k
from ._evaluation._strategies import StrategyUnavailable
from ._records._chunk_document import STRATEGY_NAMES, chunk_document, default_overlap
from ._records._record import KINDS as RECORD_KINDS
from ._records._record import RECORD_FIELDS, ChunkRecord, render_title
from ._records._schema import record_json_schema
from ._text._blocks import Block, ChunkContext, Document, document_from_blocks, parse_text
from ._text._documents import (
    INPUT_FORMATS,
    InputError,
    SourceDocument,
    document_from_bytes,
    document_from_text,
    read_document,
)
from ._text._markdown import parse_markdown
from ._text._pdf import PdfError, read_pdf_pages
from ._text._sentences import split_sentences
from ._version import __version__ as __version__

__all__ = [
    "INPUT_FORMATS",
    "PAGE_SEPARATOR",
    "RECORD_FIELDS",
    "RECORD_KINDS",
    "SEPARATORS",
    "STRATEGY_NAMES",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "Block",
    "CharEstimateCounter",
    "Chunk",
    "ChunkContext",
    "ChunkOptions",
    "ChunkRecord",
    "Chunker",
    "ChunkspecError",
    "Corpus",
    "CorpusDocument",
    "CorpusError",
    "Document",
    "DocumentChunk",
    "EvalCell",
    "EvalReport",
    "GoldSpan",
    "HeadingAwareChunker",
    "HuggingFaceCounter",
    "InputError",
    "LabelledQuery",
    "MarkdownChunk",
    "Page",
    "PageChunk",
    "PageChunker",
    "PdfError",
    "Retriever",
    "Score",
    "SectionSpan",
    "SourceChunk",
    "SourceDocument",
    "SpanQuery",
    "StrategyUnavailable",
    "TiktokenCounter",
    "TokenCounter",
    "TokenSpanCounter",
    "TokenWindow",
    "WhitespaceCounter",
    "assemble",
    "chunk",
    "chunk_document",
    "chunk_pages",
    "compare",
    "count_tokens",
    "counter_from_name",
    "counter_name",
    "default_overlap",
    "document_from_blocks",
    "document_from_bytes",
    "document_from_text",
    "evaluate",
    "hash_text",
    "join_pages",
    "load_corpus",
    "mrr",
    "parse_markdown",
    "parse_text",
    "read_document",
    "read_pdf_pages",
    "recall_at_k",
    "record_json_schema",
    "render",
    "render_title",
    "resolve_counter",
    "split_markdown",
    "split_section",
    "split_sentences",
    "token_windows",
    "words",
]
