"""chunkspec: the verified reference implementation of RAG chunking and context packing.

The top level holds what a user needs: the seed-000 core, the record path, the chunkers and
the errors. Everything else has a public home module: :mod:`chunkspec.core`,
:mod:`chunkspec.counters`, :mod:`chunkspec.markdown`, :mod:`chunkspec.windows`,
:mod:`chunkspec.pages`, :mod:`chunkspec.records`, :mod:`chunkspec.evaluation`.
"""

from __future__ import annotations

import importlib
import warnings

from ._chunkers._heading_aware import HeadingAwareChunker
from ._chunkers._options import ChunkOptions
from ._chunkers._pages import chunk_pages
from ._chunkers._split_markdown import split_markdown
from ._chunkers._window import chunk, token_windows
from ._core._assemble import assemble
from ._core._chunk import Chunk
from ._core._hashing import hash_text
from ._core._split import split_section
from ._core._tokens import count_tokens
from ._corpus._engine import IngestResult, ingest
from ._counters._registry import resolve_counter
from ._errors import ArgumentTypeError, ArgumentValueError, ChunkspecError
from ._packing._pack_records import pack_records
from ._records._chunk_document import chunk_document
from ._records._job import ChunkJob
from ._records._record import ChunkRecord
from ._text._documents import (
    InputError,
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
    "ChunkJob",
    "ChunkOptions",
    "ChunkRecord",
    "ChunkspecError",
    "HeadingAwareChunker",
    "IngestResult",
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
    "ingest",
    "pack_records",
    "parse_markdown",
    "read_document",
    "resolve_counter",
    "split_markdown",
    "split_section",
    "split_sentences",
    "token_windows",
]

#: The names that left the top level, and the public module each lives in now. They still
#: resolve here, with a DeprecationWarning, until the next release removes them.
_MOVED = {
    **dict.fromkeys(("SEPARATORS", "WHITESPACE", "SourceChunk", "render", "words"), "core"),
    **dict.fromkeys(
        (
            "CharEstimateCounter",
            "HuggingFaceCounter",
            "TiktokenCounter",
            "TokenCounter",
            "TokenSpanCounter",
            "WhitespaceCounter",
            "counter_from_name",
            "counter_name",
        ),
        "counters",
    ),
    **dict.fromkeys(
        (
            "Block",
            "ChunkContext",
            "Chunker",
            "Document",
            "DocumentChunk",
            "MarkdownChunk",
            "document_from_blocks",
            "parse_text",
        ),
        "markdown",
    ),
    **dict.fromkeys(
        (
            "PAGE_SEPARATOR",
            "Page",
            "PageChunk",
            "PageChunker",
            "PdfError",
            "SectionSpan",
            "join_pages",
            "read_pdf_pages",
        ),
        "pages",
    ),
    **dict.fromkeys(
        (
            "INPUT_FORMATS",
            "RECORD_FIELDS",
            "RECORD_KINDS",
            "STRATEGY_NAMES",
            "default_overlap",
            "record_json_schema",
            "render_title",
        ),
        "records",
    ),
    "TokenWindow": "windows",
    **dict.fromkeys(
        (
            "Corpus",
            "CorpusDocument",
            "CorpusError",
            "EvalCell",
            "EvalReport",
            "GoldSpan",
            "LabelledQuery",
            "Retriever",
            "Score",
            "SpanQuery",
            "StrategyUnavailable",
            "compare",
            "evaluate",
            "load_corpus",
            "mrr",
            "recall_at_k",
        ),
        "evaluation",
    ),
}


def __getattr__(name: str) -> object:
    """Resolve a name that moved to a public module, warning where it lives now."""
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module 'chunkspec' has no attribute {name!r}")
    warnings.warn(
        f"chunkspec.{name} is deprecated: import it from chunkspec.{home} "
        "(the top-level name goes in the next release)",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(f"chunkspec.{home}"), name)


def __dir__() -> list[str]:
    """List the kept top-level names only."""
    return sorted([*__all__, "__version__"])
