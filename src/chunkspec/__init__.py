"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._assemble import assemble
from ._blocks import Block, ChunkContext, Document, document_from_blocks, parse_text
from ._chunk import Chunk, render
from ._counters import TokenCounter, WhitespaceCounter
from ._errors import ArgumentTypeError, ArgumentValueError
from ._hashing import hash_text
from ._heading_aware import Chunker, DocumentChunk, HeadingAwareChunker
from ._markdown import parse_markdown
from ._provenance import SourceChunk
from ._sentences import split_sentences
from ._split import split_section
from ._split_markdown import MarkdownChunk, split_markdown
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
    "Document",
    "DocumentChunk",
    "HeadingAwareChunker",
    "MarkdownChunk",
    "SourceChunk",
    "TokenCounter",
    "WhitespaceCounter",
    "assemble",
    "count_tokens",
    "document_from_blocks",
    "hash_text",
    "parse_markdown",
    "parse_text",
    "render",
    "split_markdown",
    "split_section",
    "split_sentences",
    "words",
]

__version__ = "0.1.0"
