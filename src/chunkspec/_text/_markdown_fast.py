"""The compiled block scan: markdown-it-pyrs's top-level nodes as today's blocks (rule MD-14).

markdown-it-pyrs (the Rust port of markdown-it) finds the same top-level blocks as
markdown-it-py, several times faster. We read only each top-level node's name and source
range, turn the range into MD-2 lines, and rebuild exactly the :class:`Block` list that
``_markdown_it.token_blocks`` builds from markdown-it-py's tokens; markdown-it-py stays
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

from ._blocks import Block, new_block
from ._lines import line_table
from ._markdown_it import TOKEN_KINDS, heading_block, markdown_it_parser, shell_tokens
from ._markdown_scan import definition_lines, scan_spans, scannable

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

__all__ = ["available", "fast_blocks", "iter_fast_blocks"]

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

#: Lines where markdown-it-pyrs and the reference (MD-1) order their rules differently; a
#: window holding one is parsed by the reference. Each pattern matches a superset of the
#: lines concerned, after any indentation and container markers (``>``, list markers), so
#: over-matching only costs speed:
#: - ``_DEFINITION``: a definition list's ``: text`` or ``~ text``. pyrs tries definition
#:   lists before setext headings, mdit-py-plugins after them (``Term\n: text\n===`` is a
#:   heading in the reference, a definition list in pyrs);
#: - ``_RULER``: a line of dashes, pipes and colons (a setext underline, a thematic break, a
#:   table's delimiter row). A conflict when it has no ``|`` or ``:`` (it may be a setext
#:   underline) and the line above holds ``|``: the reference tries
#:   tables first, pyrs setext headings (``a |\n---`` is a one-column table in the
#:   reference, a heading in pyrs); or when a line since the last blank line is quoted: a
#:   table does not interrupt a block quote's lazy paragraph in the reference, it does in
#:   pyrs (``> a\nb |\n|-|`` is one quote in the reference, a quote and a table in pyrs).
#: - ``_OPENER`` after a table's delimiter row, before the next blank line: an empty
#:   bullet item, an ordered item or a line of Unicode whitespace in a table's body ends the
#:   table in the reference (its terminator rules; ``mdTrim`` empties the line), not in pyrs
#:   (``| a |\n|---|\nx\n-`` ends with a list in the reference, a table row in pyrs);
#: - ``_CLAIMED``: the line above such a delimiter row is a heading, quote, list item,
#:   fence or HTML line, which the reference never takes for a table's header;
#: - a delimiter row holding ``|`` or ``:`` under a line without ``|``: the reference's table rule
#:   needs a ``|`` in the header line, pyrs may read the line as a one-cell header and let
#:   the table interrupt a paragraph (``a\n"t"\n|-|`` is one paragraph in the reference,
#:   a paragraph and a table in pyrs);
#: - ``_PYTHON_SPACE``: U+001C..U+001F and U+0085, which Python's ``str.strip`` and Rust's
#:   ``trim`` (and so pyrs's titles and table rows) take for whitespace and the reference's
#:   ``mdTrim`` does not (``## \x85`` is a heading titled ``"\x85"`` in the reference, an
#:   empty one in pyrs; ``\x1c y`` over ``===`` is titled ``"\x1c y"``, not ``"y"``; HAZ-1).
#: The line patterns begin with a line break so that the regex engine skips from one to the
#: next in C.
_PREFIX = r"[ \t>*+0-9.)-]*"
_DEFINITION = re.compile(r"\n" + _PREFIX + r"[:~][ \t]")
_RULER = re.compile(r"\n[ \t>*+0-9.)|:-]*-[ \t>*+0-9.)|:-]*(?=\n|\Z)")
_QUOTED = re.compile(r"\n[ \t>*+0-9.)-]*>")
_PYTHON_SPACE = re.compile("[\x1c-\x1f\x85]")
#: A line that another block claims before a table's header (heading, quote, list, fence,
#: HTML): above a delimiter row, pyrs may still read it as the header (``# a\n| -``).
_CLAIMED = re.compile(r"[ \t]*(?:#|>|[-*+][ \t]|[0-9]{1,9}[.)]|```|~~~|<)")
#: A header line holding a backslash or Unicode whitespace: the reference splits and trims
#: it (escapedSplit, mdTrim) otherwise than pyrs (``a|\\||a`` over ``-|-|-`` is a table in
#: the reference, a paragraph in pyrs; ``\xa0|`` over ``-|`` the other way round).
_HEADER_ODDITY = re.compile("[\\\\\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")
#: A table-body line that ends the table in the reference and not in pyrs: an empty bullet
#: item, an ordered item, or a line that starts with Unicode whitespace (mdTrim-empty).
_OPENER = re.compile(
    "\n[ \t]*(?:[-*+][ \t]*(?=\n|\\Z)|[0-9]{1,9}[.)]"
    "|[\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff])"
)

#: - ``_WEAK_ITEM``: an empty list item, or an ordered one not numbered 1, after a quoted
#:   line and before the next blank line: it ends a block quote's paragraph in the
#:   reference (markdown-it's list rule, tried as a blockquote terminator, is not bound by
#:   "isTerminatingParagraph"), pyrs takes it as a lazy line (``> q\n*`` is a quote and a
#:   list in the reference, one quote in pyrs).
_WEAK_ITEM = re.compile(r"\n[ \t>]*(?:([*+-])|([0-9]{1,9})[.)])([ \t][^\n]*|(?=\n|\Z))")

#: - ``_UNICODE_DESTINATION``: a link reference definition's ``]:`` followed, after spaces
#:   and tabs and at most one line break, by Unicode whitespace: the reference's destination
#:   parser takes it for the destination, pyrs skips it as whitespace (``[x]:\n\xa0`` is a
#:   definition in the reference, a paragraph in pyrs).
_UNICODE_DESTINATION = re.compile(
    "\\]:[ \t]*(?:\n[ \t]*)?[\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
)

#: How far back (characters) a ruler's paragraph is searched for a quoted line; a longer
#: paragraph counts as a conflict (keeps the check linear).
_REACH = 4096


def _conflict(text: str) -> bool:
    """Return True if ``text`` may hold a line the two parsers read differently."""
    if _PYTHON_SPACE.search(text) or _UNICODE_DESTINATION.search(text):
        return True
    for match in _WEAK_ITEM.finditer(text):
        bullet, number, rest = match.groups()
        if rest.strip() and (bullet or int(number) == 1):
            continue  # an item that may interrupt a paragraph: both parsers agree
        at = match.start()
        blank = text.rfind("\n\n", 0, at + 1)
        if at - blank > _REACH or _QUOTED.search("\n" + text[max(blank, 0) : at]):
            return True
    if _DEFINITION.search(text) or _DEFINITION.match("\n" + text.partition("\n")[0]):
        return True
    body_scanned = 0  # the text before this offset was searched for _OPENER
    for match in _RULER.finditer(text):
        at = match.start()
        ruler = match.group()
        above = text.rfind("\n", 0, at)
        if ("|" in ruler or ":" in ruler) and text.find("|", above + 1, at) < 0:
            return True  # pyrs may take a line without "|" for a one-cell table header
        if "|" in ruler or text.find("|", above + 1, at) >= 0:  # may be a table's delimiter row
            if _CLAIMED.match(text, above + 1, at) or _HEADER_ODDITY.search(text, above + 1, at):
                return True
            body_start = max(match.end(), body_scanned)
            body_end = text.find("\n\n", body_start)
            body_end = len(text) if body_end < 0 else body_end
            if _OPENER.search(text, body_start, body_end):
                return True
            body_scanned = body_end
        # may be a setext underline under a table-like line
        if "|" not in ruler and ":" not in ruler and text.find("|", above + 1, at) >= 0:
            return True
        blank = text.rfind("\n\n", 0, at + 1)
        if at - blank > _REACH:
            return True
        if _QUOTED.search("\n" + text[max(blank, 0) : at]):
            return True
    return False


#: Characters of source parsed at once (the window grows when one block is longer).
WINDOW = 1 << 17


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
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    window: int = WINDOW,
    *,
    compiled: bool = True,
) -> list[Block]:
    """Return ``parse_markdown_blocks(source)``'s blocks, found by the hand-written scan and
    markdown-it-pyrs (MD-14), or by the scan and markdown-it-py when ``compiled`` is False
    (TRUST-50).

    ``starts``/``ends`` are ``line_table(source)``. ``compiled`` requires :func:`available`.
    """
    parts = iter_fast_blocks(source, starts, ends, window, compiled=compiled)
    return [block for part in parts for block in part]


def iter_fast_blocks(
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    window: int = WINDOW,
    *,
    compiled: bool = True,
) -> Iterator[list[Block]]:
    """Yield :func:`fast_blocks`'s blocks a window at a time, so that a caller that streams
    them never holds every block of a large document.

    The hand-written scan (``_markdown_scan``) takes the blocks it models; from the first
    block it does not, markdown-it-pyrs parses a small window (the reference, where the two
    parsers may differ), and the hand-written scan resumes at the window's last block.
    Without ``compiled``, markdown-it-py (the reference) reads every such window: the
    reference scan's blocks, in memory linear in the source (TRUST-50).
    """
    tree = _tree() if compiled else None
    assert tree is not None or not compiled
    count = len(starts)
    text, text_starts, text_ends = _normalised(source, starts, ends)
    native = scannable(text)
    marks = definition_lines(text, text_starts) if native else []
    # Lines the scan leaves out are empty (spaces and tabs only); a line of other whitespace
    # is blank to MD-5's trimming, so spans are trimmed only if the text may hold one.
    odd = native and (
        _ODD_BLANK.search(text) is not None or _ODD_BLANK.match("\n" + text[: ends[0]]) is not None
    )
    blocks: list[Block] = []
    cursor = 0  # first line not yet given to a block
    line = 0  # first line of the current window
    while line < count:
        if native:
            spans, stop = scan_spans(
                text, text_starts, text_ends, line, marks, _window_end(starts, line, window)
            )
            if spans:
                if spans[0][1] > cursor:
                    _gap(source, starts, ends, cursor, spans[0][1], blocks.append)
                _emit(source, starts, ends, spans, odd, blocks)
                cursor = spans[-1][2]
            line = stop
            if line >= count:
                break
            if spans:
                yield blocks
                blocks = []
                continue
        part = min(window, _FALLBACK) if native else window
        # markdown-it-py reads the window: a line where the parsers differ, or no pyrs.
        reference = tree is None
        while True:
            stop = _window_end(starts, line, part)
            found = (
                None
                if reference or tree is None
                else _spans(tree, source, starts, ends, line, stop)
            )
            if found is None:
                reference = True
                end = ends[stop - 1] if stop < count else len(source)
                spans = _reference_spans(_lines(source[starts[line] : end]), line)
            else:
                spans = found
            keep = _settled(spans) if stop < count else len(spans)
            if stop < count and keep < 1:
                part *= 2  # one block fills the window: look further
                # Past WINDOW characters markdown-it-py reads it: pyrs's tree holds a node a
                # table cell, the reference's tokens hold a table's ends only (TRUST-50).
                reference = reference or part > window
                continue
            break
        # The blocks after ``keep`` may go on past the window: parse again from the first.
        resume = spans[keep][1] if keep < len(spans) else count
        del spans[keep:]
        cursor = _take(source, starts, ends, spans, cursor, blocks.append)
        line = resume
        yield blocks
        blocks = []
    _gap(source, starts, ends, cursor, count, blocks.append)
    yield blocks


#: A line of whitespace that is not all spaces and tabs (MD-5 trims it, markdown-it does
#: not take it for an empty line).
_ODD_BLANK = re.compile(r"\n[^\S\n]*[^\S\n \t][^\S\n]*(?=\n|\Z)")

#: Characters of source the full parser is given where the hand-written scan stops (a
#: window grows while it holds fewer than two blocks).
_FALLBACK = 1 << 10


def _normalised(
    source: str, starts: Sequence[int], ends: Sequence[int]
) -> tuple[str, Sequence[int], Sequence[int]]:
    """``source`` with every line end ``\n`` (MD-2's lines, as markdown-it reads them) and its
    line table: the source's own when it has no ``\r``."""
    if "\r" not in source:
        return source, starts, ends
    text = _lines(source)
    text_starts, text_ends = line_table(text)
    return text, text_starts, text_ends


def _emit(
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    spans: list[tuple[str, int, int, int, str]],
    odd: bool,
    blocks: list[Block],
) -> None:
    """Append the blocks of the hand-written scan's spans, which cover every non-empty line
    between them (MD-5: blank lines trimmed off each block's ends)."""
    append = blocks.append
    for kind, first, last, level, title in spans:
        if kind == "heading":
            append(heading_block(source, starts, ends, first, last, level, title))
            continue
        if odd:
            while first < last and _blank(source, starts[first], ends[first]):
                first += 1
        if odd or kind == "list" or kind == "code" or kind == "html":
            while last > first and _blank(source, starts[last - 1], ends[last - 1]):
                last -= 1
        if first < last:
            s, e = starts[first], ends[last - 1]
            append(new_block(kind, source[s:e], s, e))


def _take(
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    spans: list[tuple[str, int, int, int, str]],
    cursor: int,
    append: Callable[[Block], None],
) -> int:
    """Append the blocks of a full parser's spans, lines between them becoming ``reference``
    blocks (MD-6); return the first line not given to a block."""
    for kind, first, last, level, title in spans:
        if first < cursor:
            first = cursor
        if first >= last:
            continue
        if first > cursor:
            _gap(source, starts, ends, cursor, first, append)
        cursor = last
        if kind == "heading":
            append(heading_block(source, starts, ends, first, last, level, title))
            continue
        while first < last and _blank(source, starts[first], ends[first]):
            first += 1
        while last > first and _blank(source, starts[last - 1], ends[last - 1]):
            last -= 1
        if first < last:
            s, e = starts[first], ends[last - 1]
            append(new_block(kind, source[s:e], s, e))
    return cursor


def _window_end(starts: Sequence[int], line: int, window: int) -> int:
    """Return one past the last line of the window of about ``window`` characters at ``line``."""
    from bisect import bisect_left

    return max(line + 1, bisect_left(starts, starts[line] + window, line))


def _spans(
    tree: Callable[[str], Any],
    source: str,
    starts: Sequence[int],
    ends: Sequence[int],
    line: int,
    stop: int,
) -> list[tuple[str, int, int, int, str]] | None:
    """Parse lines ``[line, stop)`` and return ``(kind, first, last, level, title)`` per block.

    Lines are absolute MD-2 line indexes; ``last`` is one past the block's last line. None
    if the lines hold one where the two parsers may differ (``_conflict``).
    """
    text = _lines(source[starts[line] : ends[stop - 1]])
    if _conflict(text):
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
            # The reference trims the title with mdTrim; pyrs's title differs from it only
            # by characters that send the window to the reference (_PYTHON_SPACE), so
            # str.strip is the same here (MD-4).
            title = children[0].meta["content"].strip() if children else ""
            spans.append((kind, first, row + 1, node.meta["level"], title))
        else:
            spans.append((kind, first, row + 1, 0, ""))
    return spans


def _settled(spans: Sequence[tuple[str, int, int, int, str]]) -> int:
    """How many of a window's leading blocks the whole document gives too (MD-14).

    Every block but the last: markdown-it ends a block on the lines up to the next block's
    first line. A definition list reads two lines further (a later term, a blank line, a
    ``: `` definition: ``a\\n: b\\n\\nc\\n\\n: d`` is one list; cut after ``c``, a list and
    a paragraph), so one that ends the kept blocks is parsed again too.
    """
    keep = len(spans) - 1
    while keep > 0 and spans[keep - 1][0] == "definition":
        keep -= 1
    return keep


def _lines(text: str) -> str:
    """``text`` with every MD-2 line end made ``\\n``: the same lines, one terminator kind."""
    if "\r" in text:
        return text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def _reference_spans(text: str, line: int) -> list[tuple[str, int, int, int, str]]:
    """``_spans`` by markdown-it-py (MD-1): for windows where the two parsers may differ."""
    tokens = shell_tokens(markdown_it_parser(), text)
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
    starts: Sequence[int],
    ends: Sequence[int],
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
            append(new_block("reference", source[s:e], s, e))
            first = -1
        elif not blank and first < 0:
            first = i
    return upto
