"""Page-aware chunking and PDF pages (docs/spec/pages.md, PAGE-*).

A document's ``full_text`` is its pages joined by :data:`PAGE_SEPARATOR` (PAGE-2);
:func:`chunk_pages` / :class:`PageChunker` cut it into :class:`PageChunk` with exact page
provenance. :func:`read_pdf_pages` (extra ``chunkspec[pdf]``) reads a PDF's pages.
"""

from ._chunkers._pages import (
    PAGE_SEPARATOR,
    Page,
    PageChunk,
    PageChunker,
    SectionSpan,
    chunk_pages,
    join_pages,
)
from ._errors import PdfError
from ._text._pdf import read_pdf_pages

__all__ = [
    "PAGE_SEPARATOR",
    "Page",
    "PageChunk",
    "PageChunker",
    "PdfError",
    "SectionSpan",
    "chunk_pages",
    "join_pages",
    "read_pdf_pages",
]
