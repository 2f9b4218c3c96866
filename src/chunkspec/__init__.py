"""chunkspec: the verified reference implementation of RAG chunking and context packing.

The top level holds what a user needs: the seed-000 core, the record path, the chunkers and
the errors. Everything else has a public home module: :mod:`chunkspec.core`,
:mod:`chunkspec.counters`, :mod:`chunkspec.markdown`, :mod:`chunkspec.windows`,
:mod:`chunkspec.pages`, :mod:`chunkspec.records`, :mod:`chunkspec.evaluation`.
"""

from __future__ import annotations

from ._chunkers._heading_aware import HeadingAwareChunker
from ._chunkers._options import ChunkOptions
from ._chunkers._pages import chunk_pages
from ._chunkers._split_markdown import split_markdown
from ._chunkers._window import chunk, token_windows
from ._core._assemble import assemble
from ._core._hashing import hash_text
from ._core._seed_chunk import Chunk
from ._core._split_section import split_section
from ._core._tokens import count_tokens
from ._counters._registry import resolve_counter
from ._errors import ArgumentTypeError, ArgumentValueError, ChunkspecError, InputError
from ._packing._pack_records import pack_records
from ._records._chunk_document import chunk_document
from ._records._record import ChunkRecord
from ._text._documents import (
    SourceDocument,
    document_from_bytes,
    document_from_text,
    read_document,
)
from ._text._markdown import parse_markdown
from ._text._sentences import split_sentences
from ._version import __version__ as __version__

__all__ = [
    "ArgumentTypeError",
    "ArgumentValueError",
    "Chunk",
    "ChunkOptions",
    "ChunkRecord",
    "ChunkspecError",
    "HeadingAwareChunker",
    "InputError",
    "SourceDocument",
    "assemble",
    "chunk",
    "chunk_document",
    "chunk_pages",
    "count_tokens",
    "document_from_bytes",
    "document_from_text",
    "hash_text",
    "pack_records",
    "parse_markdown",
    "read_document",
    "resolve_counter",
    "split_markdown",
    "split_section",
    "split_sentences",
    "token_windows",
]


def __dir__() -> list[str]:
    """List the exported names only, not the private subpackages imports bind here."""
    return sorted([*__all__, "__version__"])
