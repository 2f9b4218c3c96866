"""chunkspec: the verified reference implementation of RAG chunking and context packing."""

from ._assemble import assemble
from ._chunk import Chunk, render
from ._counters import TokenCounter, WhitespaceCounter
from ._errors import ArgumentTypeError, ArgumentValueError
from ._hashing import hash_text
from ._provenance import SourceChunk
from ._split import split_section
from ._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._words import words

__all__ = [
    "SEPARATORS",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "Chunk",
    "SourceChunk",
    "TokenCounter",
    "WhitespaceCounter",
    "assemble",
    "count_tokens",
    "hash_text",
    "render",
    "split_section",
    "words",
]

__version__ = "0.1.0"
