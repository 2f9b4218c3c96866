"""Markdown to blocks: markdown-it-py tokens and their ``.map`` line ranges, as exact offsets.

Seed 001 finds structure with line-prefix checks (``line.startswith("#")``, ``"```"``,
``"|"``). That opens a heading on a ``#`` line inside a fenced block, misses ``~~~`` fences,
longer fences, indented code and setext headings. We depart from it: a CommonMark parser
(markdown-it-py, with GFM tables and definition lists) decides what every line is (rule MD-1),
and we only translate its line ranges back into character offsets of the caller's string.
"""

from __future__ import annotations

import logging
import os
import re
import types
from array import array
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import accumulate
from operator import add
from typing import TYPE_CHECKING, Any

from .._core._validate import require_str, require_text
from .._errors import ArgumentValueError
from ._blocks import Block, Document, new_block

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = [
    "PARSERS",
    "PARSER_VARIABLE",
    "LineTable",
    "iter_markdown_blocks",
    "line_table",
    "markdown_parser",
    "parse_markdown",
    "parse_markdown_blocks",
]

#: The block scans that give MD-3's blocks (rule MD-14): the compiled one (the ``fast``
#: extra) and the reference, markdown-it-py (MD-1), which is pure Python.
PARSERS = ("markdown-it-pyrs", "markdown-it-py")

#: The environment variable that names the block scan to use (one of :data:`PARSERS`).
PARSER_VARIABLE = "CHUNKSPEC_MARKDOWN_PARSER"

#: Line terminators exactly as CommonMark (and markdown-it's normalize step) counts them
#: (rule MD-2). ``str.splitlines`` would also break at \v, \f, \x1c..\x1e, \x85, \u2028...
_NEWLINE = re.compile(r"\r\n|\r|\n")

#: Opening token types of top-level blocks and the block kind each becomes (rule MD-3).
_KINDS = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "table_open": "table",
    "fence": "code",
    "code_block": "code",
    "blockquote_open": "quote",
    "html_block": "html",
    "dl_open": "definition",
    "hr": "thematic_break",
}


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    """Return the shared CommonMark + GFM table + definition list parser (block rules only)."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.deflist import deflist_plugin

    md = MarkdownIt("commonmark").enable("table").use(deflist_plugin)
    # Only block structure is needed: inline parsing is most of markdown-it's time.
    md.disable("inline")
    if not logging.getLogger("markdown_it").isEnabledFor(logging.DEBUG):
        _silence(md)
    return md


class _Silent:
    """A logger stand-in whose ``debug`` does nothing."""

    @staticmethod
    def debug(*args: object, **kwargs: object) -> None:
        """Do nothing."""


def _silence(md: MarkdownIt) -> None:
    """Give this parser's block rules copies of themselves that skip ``LOGGER.debug``.

    markdown-it-py logs at debug level on every block rule's entry (hundreds of thousands of
    calls a megabyte, about a tenth of the parse when the logger is off). Only this private
    parser's rules change; markdown-it-py's own functions and loggers are untouched, and
    nothing is changed when someone listens to markdown_it at debug level. Speed only: a
    rule copy runs the same code.
    """
    ruler: Any = md.block.ruler
    for rule in ruler.__rules__:
        function = rule.fn
        namespace = getattr(function, "__globals__", None)
        if isinstance(function, types.FunctionType) and namespace and "LOGGER" in namespace:
            rule.fn = types.FunctionType(
                function.__code__,
                {**namespace, "LOGGER": _Silent()},
                function.__name__,
                function.__defaults__,
                function.__closure__,
            )
    ruler.__compile__()


#: A line table: ``(starts, ends)``, line ``i`` is ``text[starts[i]:ends[i]]`` (MD-2).
LineTable = tuple[Sequence[int], Sequence[int]]

#: Characters split into lines at once when building a line table (bounds its scratch memory).
_PIECE = 1 << 16


def line_table(text: str) -> LineTable:
    """Return ``(starts, ends)``: line ``i`` is ``text[starts[i]:ends[i]]``, terminator excluded.

    A text ending in a terminator has a final empty line; ``""`` has one empty line. The two
    are arrays of machine integers (4 bytes a line below 4 GiB, not an ``int`` object each).
    """
    # Fast paths, in C: one kind of terminator throughout (MD-2's three kinds all count).
    if "\r" not in text:
        return _uniform(text, "\n")
    if text.count("\r\n") == text.count("\r") == text.count("\n"):
        return _uniform(text, "\r\n")
    starts = array(_typecode(text), [0])
    ends = array(_typecode(text))
    for match in _NEWLINE.finditer(text):
        ends.append(match.start())
        starts.append(match.end())
    ends.append(len(text))
    return starts, ends


def _uniform(text: str, terminator: str) -> LineTable:
    """The line table of ``text`` whose only line terminator is ``terminator``.

    Split a piece at a time so that the lines of the whole text are never held at once.
    """
    width = len(terminator)
    starts = array(_typecode(text))
    ends = array(_typecode(text))
    at = 0
    while True:
        cut = text.find(terminator, at + _PIECE) if len(text) - at > _PIECE else -1
        lengths = list(map(len, text[at : len(text) if cut < 0 else cut].split(terminator)))
        first = len(starts)
        starts.extend(
            map(add, accumulate(lengths[:-1], initial=at), range(0, width * len(lengths), width))
        )
        ends.extend(map(add, starts[first:], lengths))
        if cut < 0:
            return starts, ends
        at = cut + width


def _typecode(text: str) -> str:
    """The array type of ``text``'s offsets: 4 bytes each when they fit (they do below 4 GiB)."""
    return "I" if len(text) < 1 << 32 else "q"


def _blank(text: str, start: int, end: int) -> bool:
    """Return True if ``text[start:end]`` is empty or whitespace only."""
    return start == end or text[start:end].isspace()


def markdown_parser() -> str:
    """Return the block scan in use: the compiled one when installed (rule MD-14).

    ``CHUNKSPEC_MARKDOWN_PARSER=markdown-it-py`` selects the reference scan explicitly;
    ``markdown-it-pyrs`` requires the ``fast`` extra.
    """
    from ._markdown_fast import available

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
    """Yield :func:`parse_markdown_blocks`'s blocks; the fast scan yields them a window at a
    time, so a caller that streams them keeps only a window's blocks (MD-14)."""
    if markdown_parser() == PARSERS[0]:
        from ._markdown_fast import iter_fast_blocks

        for part in iter_fast_blocks(source, *table):
            yield from part
    else:
        yield from parse_markdown_blocks(source, table, PARSERS[1])


def parse_markdown_blocks(
    source: str,
    table: LineTable | None = None,
    parser: str | None = None,
    *,
    md: MarkdownIt | None = None,
) -> list[Block]:
    """Return the top-level blocks of ``source`` in order, each a region of ``source``.

    Block lines are trimmed of leading and trailing blank lines; a heading's ``text`` is its
    title (markdown-it's inline content) located in ``source`` (rule MD-5). ``table`` is
    ``line_table(source)`` when the caller has it already; ``parser`` is one of
    :data:`PARSERS` (default: :func:`markdown_parser`), all giving the same blocks (MD-14).
    ``md`` parses instead of the reference's own markdown-it-py instance (the conformance
    kit's model of a port that trims as JavaScript does, HAZ-17).
    """
    starts, ends = line_table(source) if table is None else table
    if md is None and (markdown_parser() if parser is None else parser) == PARSERS[0]:
        from ._markdown_fast import fast_blocks

        return fast_blocks(source, starts, ends)
    tokens = (_parser() if md is None else md).parse(source)
    blocks: list[Block] = []
    cursor = 0  # first line not yet given to a block

    def gap(upto: int) -> None:
        """Turn non-blank lines in [cursor, upto) into ``reference`` blocks (rule MD-6)."""
        first = -1
        for i in range(cursor, upto + 1):
            blank = i == upto or _blank(source, starts[i], ends[i])
            if blank and first >= 0:
                s, e = starts[first], ends[i - 1]
                blocks.append(Block("reference", source[s:e], s, e))
                first = -1
            elif not blank and first < 0:
                first = i

    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting < 0 or token.map is None:
            continue
        kind = _KINDS.get(token.type)
        if kind is None:
            continue
        first, last = max(token.map[0], cursor), min(token.map[1], len(starts))
        if first >= last:
            continue
        gap(first)
        cursor = last
        if kind == "heading":
            blocks.append(_heading(source, starts, ends, first, last, token.tag, tokens, index))
            continue
        while first < last and _blank(source, starts[first], ends[first]):
            first += 1
        while last > first and _blank(source, starts[last - 1], ends[last - 1]):
            last -= 1
        if first < last:
            s, e = starts[first], ends[last - 1]
            blocks.append(Block(kind, source[s:e], s, e))
    gap(len(starts))
    return blocks


def _heading(
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    first: int,
    last: int,
    tag: str,
    tokens: list,  # type: ignore[type-arg]
    index: int,
) -> Block:
    """Return the heading block whose title is located inside lines [first, last)."""
    content = tokens[index + 1].content if index + 1 < len(tokens) else ""
    return heading_block(source, starts, ends, first, last, int(tag[1]), content)


def heading_block(
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    first: int,
    last: int,
    level: int,
    content: str,
) -> Block:
    """The heading titled ``content`` located inside lines [first, last) of ``source`` (MD-5);
    both block scans locate titles with it."""
    region_start = starts[first]
    # An ATX heading is one line; a setext heading's last line is its underline.
    region_end = ends[last - 1] if last - first == 1 else ends[last - 2]
    at = source.find(content, region_start, region_end)
    if at < 0:
        # The title differs from the source only by markdown-it's normalisation (\r\n to
        # \n, NUL to U+FFFD): use the trimmed raw region of the title lines instead.
        raw = source[region_start:region_end]
        at = region_start + len(raw) - len(raw.lstrip())
        content = raw.strip()
    return new_block("heading", content, at, at + len(content), level)


def parse_markdown(document_id: str, source: str) -> Document:
    """Parse ``source`` as CommonMark with GFM tables and definition lists (rule MD-1)."""
    require_str("document_id", document_id)
    require_text("source", source)
    return Document(document_id, source, tuple(parse_markdown_blocks(source)))
