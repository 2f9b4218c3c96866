"""The compiled block scan: markdown-it-pyrs's top-level nodes as today's blocks (rule MD-14).

markdown-it-pyrs (the Rust port of markdown-it) finds the same top-level blocks as
markdown-it-py, several times faster. We read only each top-level node's name and source
range, turn the range into MD-2 lines, and rebuild exactly the :class:`Block` list that
``_markdown.parse_markdown_blocks`` builds from markdown-it-py's tokens; markdown-it-py stays
the reference (MD-1) and a property holds this scan to it.

The document is parsed in windows of whole lines so that the parser's tree (tens of Python
objects per block) never holds more than one window at a time: a block is kept only once a
later block has started inside the window, since CommonMark decides where a top-level block
ends by the lines up to the next one; the scan resumes at that next block.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ._blocks import Block

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["available", "fast_blocks"]

#: Top-level node names of markdown-it-pyrs and the block kind each becomes (rule MD-3).
#: ``definition`` (a link reference definition) is absent: markdown-it-py consumes it
#: without a token, and both paths turn its lines into ``reference`` blocks (MD-6).
_KINDS = {
    "heading": "heading",
    "lheading": "heading",
    "paragraph": "paragraph",
    "bullet_list": "list",
    "ordered_list": "list",
    "table": "table",
    "fence": "code",
    "code_block": "code",
    "blockquote": "quote",
    "html_block": "html",
    "definition_list": "definition",
    "hr": "thematic_break",
}

#: The block rules of MD-1's configuration (CommonMark, GFM tables, definition lists).
_RULES = (
    "blockquote",
    "code",
    "fence",
    "heading",
    "hr",
    "lheading",
    "list",
    "paragraph",
    "reference",
    "html_block",
    "table",
    "deflist",
)

#: Lines where markdown-it-pyrs and the reference (MD-1) order their rules differently, so a
#: window holding one is parsed by the reference. Either alternative matches a superset of
#: the lines concerned, after any indentation and container markers (over-matching only
#: costs speed):
#: - a definition list's ``: text`` or ``~ text``: pyrs tries definition lists before setext
#:   headings, mdit-py-plugins after them (``Term\n: text\n===`` is a heading in the
#:   reference, a definition list in pyrs);
#: - a line of dashes under a line holding ``|``: the reference tries tables first, pyrs
#:   setext headings (``a |\n---`` is a one-column table in the reference, a heading in
#:   pyrs).
_CONFLICT = re.compile(
    r"^(?:[^\S\n]|[>*+\-]|[0-9]+[.)])*[:~][^\S\n]"
    r"|\|[^\n]*\n(?:[^\S\n]|[>*+\-]|[0-9]+[.)])*-[^\S\n]*$",
    re.M,
)

#: Characters of source parsed at once (the window grows when one block is longer).
WINDOW = 1 << 20


@lru_cache(maxsize=1)
def _tree() -> Callable[[str], Any] | None:
    """Return markdown-it-pyrs's ``tree`` for MD-1's block rules, or None if not installed."""
    try:
        from markdown_it_pyrs import MarkdownIt
    except ImportError:
        return None
    md: Any = MarkdownIt("zero")  # block rules only: no inline parsing, as the reference
    for rule in _RULES:
        md.enable(rule)
    tree: Callable[[str], Any] = md.tree
    return tree


def available() -> bool:
    """Return True if the compiled parser (the ``fast`` extra) is installed."""
    return _tree() is not None


def fast_blocks(
    source: str, starts: list[int], ends: list[int], window: int = WINDOW
) -> list[Block]:
    """Return ``parse_markdown_blocks(source)``'s blocks, found by markdown-it-pyrs (MD-14).

    ``starts``/``ends`` are ``line_table(source)``. Requires :func:`available`.
    """
    tree = _tree()
    assert tree is not None
    blocks: list[Block] = []
    append = blocks.append
    count = len(starts)
    cursor = 0  # first line not yet given to a block
    line = 0  # first line of the current window
    while line < count:
        stop = _window_end(starts, line, window)
        found = _spans(tree, source, starts, ends, line, stop)
        if found is None:
            # A line where the parsers differ: the reference parses the rest in one piece,
            # as markdown-it-py's setext rule may look past any window (MD-14).
            stop = count
            spans = _reference_spans(_lines(source[starts[line] :]), line)
        else:
            spans = found
        if stop < count:
            if len(spans) < 2:
                window *= 2  # one block fills the window: look further
                continue
            # The last block may go on past the window: parse again from its first line.
            resume = spans[-1][1]
            del spans[-1]
        else:
            resume = count
        for kind, first, last, level, title in spans:
            if first < cursor:
                first = cursor
            if first >= last:
                continue
            cursor = _gap(source, starts, ends, cursor, first, append)
            cursor = last
            if kind == "heading":
                append(_heading(source, starts, ends, first, last, level, title))
                continue
            while first < last and _blank(source, starts[first], ends[first]):
                first += 1
            while last > first and _blank(source, starts[last - 1], ends[last - 1]):
                last -= 1
            if first < last:
                s, e = starts[first], ends[last - 1]
                append(Block(kind, source[s:e], s, e))
        line = resume
    _gap(source, starts, ends, cursor, count, append)
    return blocks


def _window_end(starts: list[int], line: int, window: int) -> int:
    """Return one past the last line of the window of about ``window`` characters at ``line``."""
    from bisect import bisect_left

    return max(line + 1, bisect_left(starts, starts[line] + window, line))


def _spans(
    tree: Callable[[str], Any],
    source: str,
    starts: list[int],
    ends: list[int],
    line: int,
    stop: int,
) -> list[tuple[str, int, int, int, str]] | None:
    """Parse lines ``[line, stop)`` and return ``(kind, first, last, level, title)`` per block.

    Lines are absolute MD-2 line indexes; ``last`` is one past the block's last line. None
    if the lines hold one where the two parsers may differ (``_CONFLICT``).
    """
    text = _lines(source[starts[line] : ends[stop - 1]])
    if _CONFLICT.search(text):
        return None
    ascii_only = text.isascii()
    data: Any = text if ascii_only else text.encode("utf-8", "surrogatepass")
    newline: Any = "\n" if ascii_only else b"\n"
    spans: list[tuple[str, int, int, int, str]] = []
    at = 0  # offset in ``data`` whose line is ``row``
    row = line
    for node in tree(text).children:
        kind = _KINDS.get(node.name)
        if kind is None:
            continue
        begin, end = node.srcmap
        row += data.count(newline, at, begin)
        first = row
        row += data.count(newline, begin, end - 1)
        at = end - 1
        if kind == "heading":
            children = node.children
            # The reference strips the title with str.strip (Unicode whitespace, MD-4).
            title = children[0].meta["content"].strip() if children else ""
            spans.append((kind, first, row + 1, node.meta["level"], title))
        else:
            spans.append((kind, first, row + 1, 0, ""))
    return spans


def _lines(text: str) -> str:
    """``text`` with every MD-2 line end made ``\\n``: the same lines, one terminator kind."""
    if "\r" in text:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _reference_spans(text: str, line: int) -> list[tuple[str, int, int, int, str]]:
    """``_spans`` by markdown-it-py (MD-1): for windows where the two parsers may differ."""
    from ._markdown import _KINDS as TOKEN_KINDS
    from ._markdown import _parser

    tokens = _parser().parse(text)
    spans: list[tuple[str, int, int, int, str]] = []
    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting < 0 or token.map is None:
            continue
        kind = TOKEN_KINDS.get(token.type)
        if kind is None:
            continue
        first, last = token.map
        if kind == "heading":
            title = tokens[index + 1].content if index + 1 < len(tokens) else ""
            spans.append((kind, line + first, line + last, int(token.tag[1]), title))
        else:
            spans.append((kind, line + first, line + last, 0, ""))
    return spans


def _blank(text: str, start: int, end: int) -> bool:
    """Return True if ``text[start:end]`` is empty or whitespace only."""
    return start == end or text[start:end].isspace()


def _gap(
    source: str,
    starts: list[int],
    ends: list[int],
    cursor: int,
    upto: int,
    append: Callable[[Block], None],
) -> int:
    """Turn non-blank lines in ``[cursor, upto)`` into ``reference`` blocks (rule MD-6)."""
    first = -1
    for i in range(cursor, upto + 1):
        blank = i == upto or _blank(source, starts[i], ends[i])
        if blank and first >= 0:
            s, e = starts[first], ends[i - 1]
            append(Block("reference", source[s:e], s, e))
            first = -1
        elif not blank and first < 0:
            first = i
    return upto


def _heading(
    source: str,
    starts: list[int],
    ends: list[int],
    first: int,
    last: int,
    level: int,
    content: str,
) -> Block:
    """Return the heading block whose title is located inside lines [first, last) (MD-5)."""
    region_start = starts[first]
    # An ATX heading is one line; a setext heading's last line is its underline.
    region_end = ends[last - 1] if last - first == 1 else ends[last - 2]
    at = source.find(content, region_start, region_end)
    if at < 0:
        raw = source[region_start:region_end]
        at = region_start + len(raw) - len(raw.lstrip())
        content = raw.strip()
    return Block("heading", content, at, at + len(content), level)
