"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._assemble import assemble
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
from ._split import split_section
from ._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._window import TokenWindow, chunk, token_windows
from ._words import words

__all__ = [
    "PAGE_SEPARATOR",
    "SEPARATORS",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "CharEstimateCounter",
    "Chunk",
    "HuggingFaceCounter",
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
    "hash_text",
    "join_pages",
    "read_pdf_pages",
    "render",
    "split_section",
    "token_windows",
    "words",
]

__version__ = "0.1.0"
