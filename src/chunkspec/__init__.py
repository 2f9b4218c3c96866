"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._assemble import assemble
from ._blocks import Block, ChunkContext, Document, document_from_blocks, parse_text
from ._chunk import Chunk, render
from ._counters import (
    CharEstimateCounter,
    HuggingFaceCounter,
    TiktokenCounter,
    TokenCounter,
    TokenSpanCounter,
    WhitespaceCounter,
)
from ._errors import ArgumentTypeError, ArgumentValueError
from ._hashing import hash_text
from ._heading_aware import Chunker, DocumentChunk, HeadingAwareChunker
from ._markdown import parse_markdown
from ._pages import (
    PAGE_SEPARATOR,
    Page,
    PageChunk,
    PageChunker,
    SectionSpan,
    chunk_pages,
    join_pages,
)
from ._pdf import PdfError, read_pdf_pages
from ._provenance import SourceChunk
from ._sentences import split_sentences
from ._split import split_section
from ._split_markdown import MarkdownChunk, split_markdown
from ._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._window import TokenWindow, chunk, token_windows
from ._words import words

__all__ = [
    "PAGE_SEPARATOR",
    "SEPARATORS",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "Block",
    "CharEstimateCounter",
    "Chunk",
    "ChunkContext",
    "Chunker",
    "Document",
    "DocumentChunk",
    "HeadingAwareChunker",
    "HuggingFaceCounter",
    "MarkdownChunk",
    "Page",
    "PageChunk",
    "PageChunker",
    "PdfError",
    "SectionSpan",
    "SourceChunk",
    "TiktokenCounter",
    "TokenCounter",
    "TokenSpanCounter",
    "TokenWindow",
    "WhitespaceCounter",
    "assemble",
    "chunk",
    "chunk_pages",
    "count_tokens",
    "document_from_blocks",
    "hash_text",
    "join_pages",
    "parse_markdown",
    "parse_text",
    "read_pdf_pages",
    "render",
    "split_markdown",
    "split_section",
    "split_sentences",
    "token_windows",
    "words",
]

__version__ = "0.1.0"
