"""Markdown to blocks: markdown-it-py tokens and their ``.map`` line ranges, as exact offsets.

Seed 001 finds structure with line-prefix checks (``line.startswith("#")``, ``"```"``,
``"|"``). That opens a heading on a ``#`` line inside a fenced block, misses ``~~~`` fences,
longer fences, indented code and setext headings. We depart from it: a CommonMark parser
(markdown-it-py, with GFM tables and definition lists) decides what every line is (rule MD-1),
and we only translate its line ranges back into character offsets of the caller's string.

The block scans (``_markdown_fast``, ``_markdown_it``) load markdown-it on first use, not
when ``import chunkspec`` runs; neither imports this module (layers in docs/design.md).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from itertools import chain

from .._core._validate import require_str, require_text
from .._errors import ArgumentValueError
from ._blocks import Block, Document
from ._front_matter import mask_front_matter
from ._lines import LineTable, line_table

__all__ = [
    "PARSERS",
    "PARSER_VARIABLE",
    "iter_markdown_blocks",
    "markdown_parser",
    "parse_markdown",
    "parse_markdown_blocks",
]

#: The block scans that give MD-3's blocks (rule MD-14): the compiled one (the ``fast``
#: extra) and the reference, markdown-it-py (MD-1), which is pure Python.
PARSERS = ("markdown-it-pyrs", "markdown-it-py")

#: The environment variable that names the block scan to use (one of :data:`PARSERS`).
PARSER_VARIABLE = "CHUNKSPEC_MARKDOWN_PARSER"


def markdown_parser() -> str:
    """Return the block scan in use: the compiled one when installed (rule MD-14).

    ``CHUNKSPEC_MARKDOWN_PARSER=markdown-it-py`` selects the reference scan explicitly;
    ``markdown-it-pyrs`` requires the ``fast`` extra.
    """
    from ._markdown_fast import available  # on first use: see the module docstring

    chosen = os.environ.get(PARSER_VARIABLE, "")
    if not chosen:
        return PARSERS[0] if available() else PARSERS[1]
    if chosen not in PARSERS:
        raise ArgumentValueError(PARSER_VARIABLE, f"must be one of {', '.join(PARSERS)}", chosen)
    if chosen == PARSERS[0] and not available():
        raise ArgumentValueError(
            PARSER_VARIABLE, "needs markdown-it-pyrs: pip install 'chunkspec[fast]'", chosen
        )
    return chosen


def iter_markdown_blocks(source: str, table: LineTable) -> Iterator[Block]:
    """Return an iterator over :func:`parse_markdown_blocks`'s blocks; the fast scan makes
    them a window at a time, so a caller that streams them keeps only a window's blocks
    (MD-14). The windows' lists are chained in C (no generator frame per block)."""
    from ._markdown_fast import iter_fast_blocks

    source = mask_front_matter(source)  # FM-2
    compiled = markdown_parser() == PARSERS[0]
    return chain.from_iterable(iter_fast_blocks(source, *table, compiled=compiled))


def parse_markdown_blocks(
    source: str, table: LineTable | None = None, parser: str | None = None
) -> list[Block]:
    """Return the top-level blocks of ``source`` in order, each a region of ``source``.

    Block lines are trimmed of leading and trailing blank lines; a heading's ``text`` is its
    title (markdown-it's inline content) located in ``source`` (rule MD-5). ``table`` is
    ``line_table(source)`` when the caller has it already; ``parser`` is one of
    :data:`PARSERS` (default: :func:`markdown_parser`), all giving the same blocks (MD-14).
    Both run the hand-written scan and hand the windows it does not decide to their parser,
    so memory stays linear in the source (TRUST-50); ``_markdown_it.token_blocks``, one
    markdown-it-py parse of the whole source, is the literal model both are held to.
    Front matter gives no block (FM-2).
    """
    from ._markdown_fast import fast_blocks

    starts, ends = line_table(source) if table is None else table
    source = mask_front_matter(source)
    compiled = (markdown_parser() if parser is None else parser) == PARSERS[0]
    return fast_blocks(source, starts, ends, compiled=compiled)


def parse_markdown(document_id: str, source: str) -> Document:
    """Parse ``source`` as CommonMark with GFM tables and definition lists (rule MD-1)."""
    require_str("document_id", document_id)
    require_text("source", source)
    return Document(document_id, source, tuple(parse_markdown_blocks(source)))
