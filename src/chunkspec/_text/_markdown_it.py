"""markdown-it-py's side of the block scan: its parser, its token kinds, and the blocks its
tokens give (rules MD-1, MD-3 to MD-6). Both block scans and the conformance kit use it."""

from __future__ import annotations

import logging
import types
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ._blocks import Block, new_block

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["TOKEN_KINDS", "heading_block", "markdown_it_parser", "shell_tokens", "token_blocks"]

#: Opening token types of top-level blocks and the block kind each becomes (rule MD-3).
TOKEN_KINDS = {
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
def markdown_it_parser() -> MarkdownIt:
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


class _TableShells(list[Any]):
    """A token list that keeps each table's ``table_open`` and ``table_close`` and drops the
    tokens between them (TRUST-50).

    markdown-it's table rule pushes about ten tokens a cell (row, cell, inline), each a
    Python object of several hundred bytes: a table of short cells cost hundreds of times
    its size. The block scans read only top-level tokens and their ``.map``; the table rule
    only pushes its tokens (it never reads them back) and no other rule reads a table's
    inner tokens, so dropping them as they come changes no block.
    """

    __slots__ = ("inside",)

    def __init__(self) -> None:
        super().__init__()
        self.inside = False

    def append(self, token: Any) -> None:
        """Keep ``token`` unless it lies inside a table."""
        kind = token.type
        if self.inside:
            if kind != "table_close":
                return
            self.inside = False
        elif kind == "table_open":
            self.inside = True
        super().append(token)


def shell_tokens(md: MarkdownIt, text: str) -> list[Any]:
    """``md.parse(text)`` less the tokens inside tables (:class:`_TableShells`): the same
    top-level tokens with the same ``.map``, in memory linear in the text (TRUST-50)."""
    from markdown_it.rules_core import StateCore

    state = StateCore(text, md, {})
    state.tokens = _TableShells()  # after __init__, which reads an empty list as no list
    md.core.process(state)
    return state.tokens


def _blank(text: str, start: int, end: int) -> bool:
    """Return True if ``text[start:end]`` is empty or whitespace only."""
    return start == end or text[start:end].isspace()


def token_blocks(
    source: str, starts: Sequence[int], ends: Sequence[int], md: MarkdownIt
) -> list[Block]:
    """Return the top-level blocks ``md``'s tokens give for ``source`` (MD-3 to MD-6).

    ``starts``/``ends`` are ``line_table(source)``; ``md`` is :func:`markdown_it_parser`
    for the reference scan (the conformance kit passes its model of a port that trims as
    JavaScript does, HAZ-17).
    """
    tokens = md.parse(source)
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
        kind = TOKEN_KINDS.get(token.type)
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
