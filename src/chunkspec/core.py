"""The seed-000 core: splitting a section, packing a context, and their helpers (docs/spec.md).

``split_section`` (SPLIT-*), ``assemble`` (PACK-*), ``render`` (RENDER-1), ``count_tokens``
and the whitespace set (WS-1, TOK-*), ``hash_text`` (HASH-*), ``words`` (WORDS-*) and the
``SourceChunk`` view every provenance-carrying chunk offers.
"""

from ._core._assemble import assemble
from ._core._hashing import hash_text
from ._core._provenance import SourceChunk
from ._core._seed_chunk import Chunk, render
from ._core._split_section import split_section
from ._core._tokens import SEPARATORS, WHITESPACE, count_tokens
from ._core._words import words

__all__ = [
    "SEPARATORS",
    "WHITESPACE",
    "Chunk",
    "SourceChunk",
    "assemble",
    "count_tokens",
    "hash_text",
    "render",
    "split_section",
    "words",
]
