"""Markdown and plain text as blocks, and the chunkers that read them (docs/spec/markdown.md).

:func:`parse_markdown` / :func:`parse_text` make a :class:`Document` of :class:`Block`
(MD-*); :func:`split_markdown` cuts it structurally, :class:`HeadingAwareChunker` with a
heading trail (HEAD-*); :class:`Chunker` is the protocol ``chunkspec.contract`` checks.
:class:`FrontMatter` is a document's YAML or TOML front matter (FM-*), never chunked.
"""

from ._chunkers._heading_aware import Chunker, DocumentChunk, HeadingAwareChunker
from ._chunkers._split_markdown import MarkdownChunk, split_markdown
from ._text._blocks import Block, ChunkContext, Document, document_from_blocks, parse_text
from ._text._front_matter import FrontMatter
from ._text._markdown import parse_markdown

__all__ = [
    "Block",
    "ChunkContext",
    "Chunker",
    "Document",
    "DocumentChunk",
    "FrontMatter",
    "HeadingAwareChunker",
    "MarkdownChunk",
    "document_from_blocks",
    "parse_markdown",
    "parse_text",
    "split_markdown",
]
