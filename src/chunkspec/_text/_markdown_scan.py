"""The hand-written top-level block scan: markdown-it-py's block rules for the common blocks.

Most of a real Markdown document is paragraphs, ATX and setext headings, fenced and
indented code, thematic breaks, HTML blocks, GFM tables and lists. For these this module
finds the top-level blocks' line ranges exactly as markdown-it-py's block rules do (MD-1),
reading each line once and skipping runs of plain paragraph lines with one regular
expression; it builds no token and parses nothing inside a block. Block quotes (MD-15)
and one-line link reference definitions (MD-16) are found by their rules' line loops. Where
a block may need a rule it does not model (a block quote's lazy line, other definitions,
definition lists, a list item's lazy continuation line, deep nesting), it stops and says
where: the caller parses
from that line with a full parser and resumes the scan at a block start (MD-14). A
property holds it to markdown-it-py on generated Markdown, the CommonMark examples and real
documents.

The comments quote the markdown-it-py rule each branch follows (``rules_block/*.py``).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING

from markdown_it.common.utils import mdTrim
from markdown_it.rules_block.html_block import HTML_SEQUENCES
from markdown_it.rules_block.table import headerLineRe

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Span", "definition_lines", "scan_spans", "scannable"]

#: ``(kind, first line, one past the last line, heading level, heading title)``.
Span = tuple[str, int, int, int, str]

#: Leading spaces and tabs (markdown-it's indentation: ``isStrSpace``).
_INDENT = re.compile(r"[ \t]*")
#: A thematic break after its indentation (rules_block/hr.py): three or more of one of
#: ``*``, ``-``, ``_``, with spaces and tabs between.
_HR = re.compile(r"([*\-_])(?:[ \t]*\1){2,}[ \t]*\Z")
#: A setext underline after its indentation (rules_block/lheading.py).
_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*\Z")
#: A fence opener's marker run (rules_block/fence.py).
_FENCE = re.compile(r"`{3,}|~{3,}")
#: Candidate closing fences, every line that is a marker run and spaces (checked further),
#: from the line break before it (a literal first character lets the engine skip in C).
_FENCE_CLOSE = re.compile(r"\n[ \t]*(?:`{3,}|~{3,})[ \t]*(?=\n|\Z)")
#: A run of paragraph lines that no rule can interrupt or underline (from a line break): up
#: to three spaces and a character that starts no block, or four columns of indentation
#: (a lazy line is never code). Lines this does not take are looked at one by one.
_PLAIN = re.compile(r"(?:\n(?:[ ]{0,3}[^\s=\-*_+0-9>#`~<|:]|(?:[ ]{4,}|[ ]*\t[ \t]*)\S)[^\n]*)*")
#: A run of table rows no terminator can end (from a line break): up to three spaces and
#: a character that starts no block (rules_block/table.py's body loop).
_ROWS = re.compile(r"(?:\n[ ]{0,3}[^\s>#`~<*+\-_0-9][^\n]*)*")
#: The characters that may start a line some rule other than the paragraph's takes (after
#: at most three spaces; a setext underline's ``=`` too).
_STARTS = frozenset("=-*_+0123456789>#`~<|:[")
#: What follows a whole paragraph or a whole table: an empty line or the end.
_BLOCK_END = re.compile(r"\n[ \t]*(?:\n|\Z)|\Z")
#: A definition list's marker line (mdit-py-plugins deflist): handed to the full parser.
#: Its marker is ``:`` or ``~``, spaces or tabs, then more on the line ("skipMarker").
_DEFINITION = re.compile(r"\n[ \t]*[:~][ \t]+[^ \t\n]")
_DEFINITION_START = re.compile(r"[ \t]*[:~][ \t]+[^ \t\n]")
#: A list item's marker after its indentation (rules_block/list.py): the bullet or the
#: number and its delimiter, then a space, a tab or the line's end.
_MARKER = re.compile(r"(?:[*+\-]|([0-9]{1,9})[.)])(?=[ \t]|\Z)")
#: A list is handed to the full parser if a line in it starts a container this deep
#: (markdown-it stops nesting at 20 levels; each list level takes two).
_DEEP = 16
#: How many lines a block start beginning with "[" is searched for a reference's "]:".
_REACH = 64
#: markdown-it-py's table rule stops adding empty cells past this many (rules_block/table.py).
_CELLS = 0x10000

#: A line of spaces and tabs only, from the line break before it (HTML blocks 6 and 7 end
#: before it).
_EMPTY_LINE = re.compile(r"\n[ \t]*(?=\n|\Z)")
#: The HTML blocks' closers that an empty line matches ("^$": blocks 6 and 7).
_BLANK_CLOSERS = frozenset(close for _, close, _ in HTML_SEQUENCES if close.match(""))

#: A block the scan does not decide: the caller parses from its first line.
UNSURE = -1


def scannable(text: str) -> bool:
    """Return True if the scan applies to ``text`` (normalised lines, ``\\n`` only).

    markdown-it-py turns NUL into U+FFFD before parsing; such text goes to the full parser.
    """
    return "\x00" not in text


def definition_lines(text: str, starts: Sequence[int]) -> list[int]:
    """The lines of ``text`` that may carry a definition list's marker (sorted)."""
    first = [0] if _DEFINITION_START.match(text) else []
    return first + [bisect_left(starts, match.start() + 1) for match in _DEFINITION.finditer(text)]


def scan_spans(
    text: str,
    starts: Sequence[int],
    ends: Sequence[int],
    line: int,
    marks: Sequence[int],
    limit: int,
) -> tuple[list[Span], int]:
    """Return the spans of the top-level blocks from ``line`` on, and the line where it stopped.

    ``text`` has ``\\n`` line ends only and its line table ``starts``/``ends``; ``line`` is
    the first line of a top-level block (or a blank line); ``marks`` is
    :func:`definition_lines`. The scan stops at the first block it does not decide, at the
    end of the text, or at the first block start past line ``limit``; the stop line is the
    first line of no span.
    """
    count = len(starts)
    spans: list[Span] = []
    append = spans.append
    indentation = _INDENT.match
    find = text.find
    i = line
    while i < count and i <= limit:
        s = starts[i]
        e = ends[i]
        if s == e:  # an empty line
            i += 1
            continue
        char = text[s]
        if char == " " or char == "\t":
            p = indentation(text, s, e).end()  # type: ignore[union-attr]
            if p == e:  # an empty line (only spaces and tabs)
                i += 1
                continue
            column = p - s if find("\t", s, p) < 0 else _columns(text, s, p)
            char = text[p]
        else:
            p = s
            column = 0
        span: Span | None
        if column >= 4 or find("|", p, e) >= 0:
            span = _block(text, starts, ends, i, p, e, column)
        elif char not in _STARTS:
            # A line no rule but the paragraph's takes (a table's header holds a "|"): the
            # paragraph is whole when plain lines run to an empty line or the end (lheading
            # finds no underline among plain lines, no terminator matches one).
            run = _run_end(_PLAIN, text, e)
            if _BLOCK_END.match(text, run) is not None:
                span = ("paragraph", i, i + 1 + text.count("\n", e, run), 0, "")
            else:
                span = _paragraph(text, starts, ends, i)
        elif char == "#":  # no table, code, fence, quote, hr, list, reference or html
            heading = _atx(text, p, e)
            if heading is None:
                span = _paragraph(text, starts, ends, i)
            else:
                span = ("heading", i, i + 1, heading[0], heading[1])
        else:
            span = _block(text, starts, ends, i, p, e, column)
        if span is None:
            return spans, i
        last = span[2]
        if marks:  # a definition list may take this block's lines (deflist)
            k = bisect_left(marks, i)
            if k < len(marks) and marks[k] <= last + 1:
                return spans, i
        append(span)
        i = last
    return spans, i


def _columns(text: str, start: int, end: int) -> int:
    """The column after the indentation ``text[start:end]`` (a tab to the next multiple of 4)."""
    column = 0
    for char in text[start:end]:
        column = column + 4 - column % 4 if char == "\t" else column + 1
    return column


def _indent(text: str, starts: Sequence[int], ends: Sequence[int], j: int) -> tuple[int, int]:
    """``(position of the first non-indentation character, its column)`` of line ``j``."""
    s = starts[j]
    if s == ends[j] or (text[s] != " " and text[s] != "\t"):
        return s, 0
    p = _INDENT.match(text, s, ends[j]).end()  # type: ignore[union-attr]
    return p, (p - s if text.find("\t", s, p) < 0 else _columns(text, s, p))


def _block(
    text: str,
    starts: Sequence[int],
    ends: Sequence[int],
    i: int,
    p: int,
    e: int,
    column: int,
) -> Span | None:
    """The span of the top-level block starting at line ``i``, or None if not decided here.

    markdown-it tries its rules in this order at a block start: table, code, fence,
    blockquote, hr, list, reference, html_block, heading, lheading, deflist, paragraph.
    """
    count = len(starts)
    if i + 1 < count and text.find("|", p, e) >= 0:
        head = _TABLE_HEAD.match(text, p) if p == starts[i] else None
        body = -1 if head is None else _run_end(_PIPE_ROWS, text, head.end())
        if head is not None and _BLOCK_END.match(text, body) is not None:
            # A table written the usual way: the rows and the end found in C.
            header, row = head.groups()
            columns = _header_columns(mdTrim(header))
            rows = 2 + text.count("\n", head.end(), body)
            if columns == row.count("|") - 1:
                if columns * rows > _CELLS:
                    rows = _cells_end(text, starts, ends, i, i + rows, columns) - i
                return ("table", i, i + rows, 0, "")
        columns = _table_columns(text, starts, ends, i)
        if columns:
            return _table(text, starts, ends, i, columns)
    if column >= 4:  # code: "sCount - blkIndent >= 4"
        j = last = i + 1
        while j < count:
            q, c = _indent(text, starts, ends, j)
            if q == ends[j]:
                j += 1
            elif c >= 4:
                j += 1
                last = j
            else:
                break
        return ("code", i, last, 0, "")
    char = text[p]
    if char == "`" or char == "~":
        fence = _fence(text, starts, ends, i, p, e)
        if fence:
            return ("code", i, fence, 0, "")
    elif char == ">":
        return _quote(text, starts, ends, i, p, e)
    if (char == "*" or char == "-" or char == "_") and _HR.match(text, p, e):
        return ("thematic_break", i, i + 1, 0, "")
    if char in "*+-0123456789":
        marker = _MARKER.match(text, p, e)
        if marker is not None:
            end = _bullets(text, starts, ends, i, p, e) if column == 0 else UNSURE
            if end == UNSURE:
                end = _list(text, starts, ends, i, p, column, marker)
            return None if end == UNSURE else ("list", i, end, 0, "")
    if char == "[":
        definitions = _definitions(text, starts, ends, i)
        if definitions is not None:
            return definitions
        # reference: a definition needs "]:" before the next empty line; not modelled. The
        # lines are looked at only up to _REACH ahead (linear on any input): a "]:" further
        # on with no empty line between counts as one.
        stop = min(count, i + _REACH)
        for j in range(i, stop):
            if _is_empty(text, starts, ends, j):
                break
            if text.find("]:", starts[j], ends[j]) >= 0:
                return None
        else:
            if stop < count:
                return None
    elif char == "<":
        end = _html(text, starts, ends, i, p, e)
        if end:
            return ("html", i, end, 0, "")
    elif char == "#":
        heading = _atx(text, p, e)
        if heading is not None:
            level, title = heading
            return ("heading", i, i + 1, level, title)
    return _paragraph(text, starts, ends, i)


def _quote(
    text: str, starts: Sequence[int], ends: Sequence[int], i: int, p: int, e: int
) -> Span | None:
    """The block quote opened at line ``i`` (MD-15, rules_block/blockquote.py), or None.

    The rule's line loop, before it parses the quote's content: a line whose first
    character after spaces and tabs is ``>`` continues the quote ("evaluatesTrue", at any
    indentation); an empty line ends it ("Case 1"), and so does any other line after a
    quote line with nothing after its marker ("Case 2: lastLineEmpty") or a line a
    terminator rule of the quote takes ("Case 3": fence, blockquote, hr, list, html_block,
    heading; a definition list is the caller's concern). Any other line is a lazy
    continuation ("A negative indentation means that this is a paragraph continuation":
    ``sCount = -1``), which stays in the quote only if the quote's content ends in an open
    paragraph. With no lazy line the content is parsed over the quote's own lines only, so
    the quote ends where the loop stopped. With lazy lines (MD-17) it is decided only when
    every quote line's content is empty or a plain paragraph line (``_PLAIN_CONTENT``):
    the content is then paragraphs, the last one open at each lazy line, and paragraph.py
    takes every lazy line ("quirk for blockquotes, this line should already be checked by
    that rule: if state.sCount[nextLine] < 0: continue") and every plain quote line (no
    terminator starts one), so the quote again ends where the loop stopped.
    """
    count = len(starts)
    empty = _INDENT.match(text, p + 1, e).end() == e  # type: ignore[union-attr]
    lazy = False  # a lazy line was taken: every quote line must be plain
    j = i + 1
    while j < count:
        s, end = starts[j], ends[j]
        q = _INDENT.match(text, s, end).end()  # type: ignore[union-attr]
        if q == end:
            break  # Case 1: an empty line
        if text[q] == ">":
            if lazy and _PLAIN_CONTENT.match(text, s, end) is None:
                return None  # the paragraph may end inside the quote: not decided here
            empty = _INDENT.match(text, q + 1, end).end() == end  # type: ignore[union-attr]
            j += 1
            continue
        if empty:
            break  # Case 2
        q, column = _indent(text, starts, ends, j)
        if column < 4 and _terminates(text, starts, ends, j, q, end, text[q], paragraph=False):
            break  # Case 3
        if not lazy:
            # A lazy continuation line: decided when the content so far is plain lines.
            for k in range(i, j):
                if _PLAIN_CONTENT.match(text, starts[k], ends[k]) is None:
                    return None
            lazy = True
        j += 1
    return ("quote", i, j, 0, "")


#: A quote line whose content (MD-17) is empty or a paragraph's plain line: after the ``>``
#: and at most four spaces (the optional one and three more: not indented code), a
#: character that starts no block and underlines no paragraph (``_STARTS``, whitespace);
#: no tab after the marker (its column depends on the line's indentation).
_PLAIN_CONTENT = re.compile(r"[ \t]*>(?:[ ]{0,4}[^\s=\-*_+0-9>#`~<|:\[]|[ \t]*\Z)")


#: A link reference definition on one line, after at most three spaces (MD-16): a label of
#: no bracket, backslash or line break with a character other than whitespace, ``]:``, a
#: destination of no space, angle bracket, parenthesis, backslash or control character,
#: and maybe a title in quotes or parentheses with no backslash or line break.
_DEFINITION_LINE = re.compile(
    r"[ ]{0,3}\[[^\[\]\\\n]*[^\s\[\]\\][^\[\]\\\n]*\]:[ \t]*"
    r"([^\s<>()\\\x00-\x1f\x7f]+)"
    r"([ \t]+(?:\"[^\"\\\n]*\"|'[^'\\\n]*'|\([^()\\\n]*\)))?[ \t]*\Z"
)
#: A destination markdown-it's ``validateLink`` refuses: the definition is then no definition.
_BAD_PROTOCOL = re.compile(r"(?i)[ \t]*(?:vbscript|javascript|file|data):")


def _definitions(text: str, starts: Sequence[int], ends: Sequence[int], i: int) -> Span | None:
    """The run of link reference definitions from line ``i``, one a line (MD-16), or None.

    rules_block/reference.py takes a definition's label, ``:``, destination and title
    across lines; one whose every part is on its line, in the plain forms of
    ``_DEFINITION_LINE``, ends on that line unless the title may start on the next: with
    the destination last on the line, the rule appends the next line when it is not empty
    and tries a title there, which begins with a quote or a parenthesis; any other first
    character fails the title and the definition keeps its one line. Definitions leave no
    token, so a run of them up to the next block is one ``reference`` block (MD-6); the
    run's next line must be empty or start no definition (else not decided here).
    """
    count = len(starts)
    j = i
    while j < count:
        s, e = starts[j], ends[j]
        if j > i and text.find("|", s, e) >= 0:
            break  # the table rule comes first: a header row here is not decided
        line = _DEFINITION_LINE.match(text, s, e)
        if line is None:
            break
        if _BAD_PROTOCOL.match(line.group(1)):
            return None  # validateLink: an unsafe destination makes no definition
        j += 1
        if line.group(2) is None and j < count:
            q = _INDENT.match(text, starts[j], ends[j]).end()  # type: ignore[union-attr]
            if q < ends[j] and text[q] in "\"'(":
                return None  # a title may start on the next line
    if j == i:
        return None
    if j < count:
        q = _INDENT.match(text, starts[j], ends[j]).end()  # type: ignore[union-attr]
        if q < ends[j] and text[q] == "[":
            return None  # the next line may be a definition of a form not modelled here
    return ("reference", i, j, 0, "")


def _paragraph(text: str, starts: Sequence[int], ends: Sequence[int], i: int) -> Span:
    """The paragraph, or setext heading, starting at line ``i`` (lheading, paragraph).

    Both rules take lines until an empty one or one where a terminator rule matches (table,
    fence, blockquote, hr, list, html_block, heading, deflist); lines indented four columns
    or more are taken without a look; lheading's underline is looked for before the
    terminators.
    """
    count = len(starts)
    j = i + 1
    while j < count:
        # Plain lines, in C: the run ends before a line this has to look at.
        j = _skip(_PLAIN, text, ends, j)
        if j >= count:
            break
        e = ends[j]
        p, column = _indent(text, starts, ends, j)
        if p == e:
            break  # an empty line ends the paragraph
        if column >= 4:
            j += 1
            continue
        char = text[p]
        if (
            j - 1 > i
            and (char == "|" or char == ":" or char == "-")
            and _table_columns(text, starts, ends, j - 1)
        ):
            # The line above, taken as plain, is a table's header: the table rule ends the
            # paragraph there (it is tried on that line before this one is looked at).
            return ("paragraph", i, j - 1, 0, "")
        if (char == "=" or char == "-") and _UNDERLINE.match(text, p, e):
            level = 1 if char == "=" else 2
            return ("heading", i, j + 1, level, mdTrim(text[starts[i] : ends[j - 1]]))
        if _terminates(text, starts, ends, j, p, e, char, paragraph=True):
            break
        if j + 1 < count and _table_columns(text, starts, ends, j):
            break
        j += 1
    return ("paragraph", i, j, 0, "")


def _terminates(
    text: str,
    starts: Sequence[int],
    ends: Sequence[int],
    j: int,
    p: int,
    e: int,
    char: str,
    *,
    paragraph: bool,
) -> bool:
    """Whether line ``j`` (indented less than four columns) starts a block that ends a
    paragraph (``paragraph``) or a table body: fence, blockquote, hr, list, html_block (types
    1 to 6), heading. Definition lists are the caller's concern; tables too."""
    if char == "`" or char == "~":
        return _fence_opener(text, p, e) > 0
    if char == ">":
        return True
    if (char == "*" or char == "-" or char == "_") and _HR.match(text, p, e):
        return True
    if char in "*+-0123456789":
        marker = _MARKER.match(text, p, e)
        if marker is not None:
            if not paragraph:
                return True
            # list, interrupting a paragraph: "isTerminatingParagraph": the item must not
            # be empty and an ordered list must start at 1.
            number = marker.group(1)
            if number is not None and int(number) != 1:
                return False
            return _INDENT.match(text, marker.end(), e).end() < e  # type: ignore[union-attr]
        return False
    if char == "<":
        line = text[p:e]
        for opener, _, interrupts in HTML_SEQUENCES:
            if opener.search(line):
                return interrupts
        return False
    if char == "#":
        return _atx(text, p, e) is not None
    return False


def _atx(text: str, p: int, e: int) -> tuple[int, str] | None:
    """``(level, title)`` of the ATX heading at ``p`` (rules_block/heading.py), or None."""
    line = text[p:e]
    body = line.lstrip("#")
    level = len(line) - len(body)
    if level > 6 or (body and body[0] != " " and body[0] != "\t"):
        return None
    # "maximum = state.skipSpacesBack(maximum, pos)"; then a closing run of "#" preceded by
    # a space or tab is dropped ("skipCharsStrBack").
    body = body.rstrip(" \t")
    bare = body.rstrip("#")
    if bare and (bare[-1] == " " or bare[-1] == "\t"):
        body = bare
    return level, mdTrim(body)


def _fence_opener(text: str, p: int, e: int) -> int:
    """The length of the fence opener's marker run at ``p``, or 0 (rules_block/fence.py)."""
    run = _FENCE.match(text, p, e)
    if run is None:
        return 0
    width = run.end() - p
    if text[p] == "`" and "`" in text[run.end() : e]:
        return 0  # "a backtick fence's info string holds no backtick"
    return width


def _fence(text: str, starts: Sequence[int], ends: Sequence[int], i: int, p: int, e: int) -> int:
    """One past the last line of the fenced code opened at line ``i``, or 0 if not a fence.

    It ends after a line indented less than four columns holding a run of at least as many
    of the same marker and then only spaces and tabs, or at the end of the text.
    """
    width = _fence_opener(text, p, e)
    if not width:
        return 0
    opener = text[p : p + width]
    count = len(starts)
    at = e
    while True:
        close = _FENCE_CLOSE.search(text, at)
        if close is None:
            return count
        s, end = close.span()
        j = bisect_left(starts, s + 1)
        q, column = _indent(text, starts, ends, j)
        # The candidate is one marker run: the same marker, at least as long, closes.
        if column < 4 and text.startswith(opener, q):
            return j + 1
        at = end if end > at else at + 1


def _html(text: str, starts: Sequence[int], ends: Sequence[int], i: int, p: int, e: int) -> int:
    """One past the last line of the HTML block at line ``i``, or 0 (rules_block/html_block.py)."""
    line = text[p:e]
    closer = next((close for opener, close, _ in HTML_SEQUENCES if opener.search(line)), None)
    if closer is None:
        return 0
    if closer.search(line):
        return i + 1
    # "for nextLine ...: lineText = state.src[pos:max]; if closer.search(lineText): ...
    # break": each later line from its indentation on. The closers of blocks 1-5 never
    # match a line break or spaces and tabs, so the first match in the text after line
    # ``i`` is on the closing line; "^$" (blocks 6 and 7) matches a line of spaces and
    # tabs, which the block leaves out.
    if closer in _BLANK_CLOSERS:
        empty = _EMPTY_LINE.search(text, e)
        return len(starts) if empty is None else bisect_left(starts, empty.start() + 1)
    found = closer.search(text, e)
    return len(starts) if found is None else bisect_right(starts, found.start())


def _table_columns(text: str, starts: Sequence[int], ends: Sequence[int], i: int) -> int:
    """The column count of the table whose header is line ``i``, or 0 (rules_block/table.py)."""
    if i + 1 >= len(starts) or text.find("|", starts[i], ends[i]) < 0:
        return 0  # "if '|' not in lineText: return False"
    p, column = _indent(text, starts, ends, i + 1)
    e = ends[i + 1]
    if column >= 4 or e - p < 2:
        return 0
    first, second = text[p], text[p + 1]
    if first not in "|-:" or (second not in "|-: \t") or (first == "-" and second in " \t"):
        return 0
    row = text[p:e]
    if _DELIMITER_ROW.match(row):
        # Every cell is ":?-+:?" (the first and last may be empty): one per run of dashes.
        aligns = row.count("|") + 1 - (row[0] == "|") - (row.rstrip(" \t")[-1] == "|")
    else:
        aligns = _aligns(row)
    if not aligns:
        return 0
    q, column = _indent(text, starts, ends, i)
    header = mdTrim(text[q : ends[i]])
    if "|" not in header or column >= 4:
        return 0
    return aligns if _header_columns(header) == aligns else 0


@lru_cache(maxsize=64)
def _full_rows(columns: int) -> re.Pattern[str]:
    """Body rows (from the line break before each) that start with ``|`` and hold at least
    ``columns`` more with no backslash before them: at least ``columns`` cells each."""
    return re.compile(r"(?:\n\|(?:[^|\n\\]*\|){" + str(columns) + r"}[^\n]*)*")


def _header_columns(header: str) -> int:
    """``len(escapedSplit(header))`` less an empty first and last cell (table.py).

    escapedSplit splits at each ``|`` not right after a backslash: counted here without
    building the cells. ``header`` is a non-empty ``mdTrim``-ed row.
    """
    columns = 1 + header.count("|") - header.count("\\|")
    if header[0] == "|":
        columns -= 1
    if header[-1] == "|" and header[-2:] != "\\|":
        columns -= 1
    return columns


#: A table as most are written, from its header's line start to an empty line or the end:
#: every line starts with ``|`` (so no rule can end the body, and no line is indented), the
#: delimiter row is pipes around well-formed cells. ``_TABLE_HEAD`` takes the header and the
#: delimiter row (its groups), ``_PIPE_ROWS`` the body, which ``_BLOCK_END`` must follow.
_TABLE_HEAD = re.compile(r"(\|[^\n]*)\n(\|(?:[ \t]*:?-+:?[ \t]*\|)+)[ \t]*")
_PIPE_ROWS = re.compile(r"(?:\n\|[^\n]*)*")


#: A well-formed delimiter row (after its indentation): cells of ``:?-+:?`` between pipes,
#: spaces and tabs around them, two characters at least, not a list item's ``- ``. Rows it
#: does not match are checked cell by cell.
_DELIMITER_ROW = re.compile(
    r"(?=..)(?!-[ \t])\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*\Z", re.DOTALL
)


def _aligns(row: str) -> int:
    """The cell count of the delimiter row ``row``, or 0 if it is not one (table.py)."""
    if row.strip("|-: \t"):
        return 0
    aligns = 0
    cells = row.split("|")
    for n, cell in enumerate(cells):
        cell = mdTrim(cell)
        if not cell:
            if n == 0 or n == len(cells) - 1:
                continue
            return 0
        if not headerLineRe.search(cell):
            return 0
        aligns += 1
    return aligns


def _table(
    text: str, starts: Sequence[int], ends: Sequence[int], i: int, columns: int
) -> Span | None:
    """The table of ``columns`` columns whose header is line ``i``: its body ends before a
    line indented four columns or more, a terminator (blockquote's: fence, blockquote, hr,
    list, html_block, heading) or an empty line after ``mdTrim``."""
    count = len(starts)
    j = i + 2
    while j < count:
        j = _skip(_ROWS, text, ends, j)
        if j >= count:
            break
        if starts[j] == ends[j]:
            break  # an empty line
        p, column = _indent(text, starts, ends, j)
        e = ends[j]
        if column >= 4:
            break
        if p < e and _terminates(text, starts, ends, j, p, e, text[p], paragraph=False):
            break
        if not mdTrim(text[p:e]):
            break
        j += 1
    if columns * (j - i) > _CELLS:
        j = _cells_end(text, starts, ends, i, j, columns)
    return ("table", i, j, 0, "")


def _cells_end(
    text: str, starts: Sequence[int], ends: Sequence[int], i: int, j: int, columns: int
) -> int:
    """Where the body rows of the table at line ``i`` (ending at ``j`` otherwise) stop because
    markdown-it-py will not fill more empty cells: "autocompleted_cells += columnCount -
    len(columns); if autocompleted_cells > MAX_AUTOCOMPLETED_CELLS: break" (table.py)."""
    if _full_rows(columns).fullmatch(text, ends[i + 1], ends[j - 1]):
        return j  # no row has fewer cells than the header: none is filled
    filled = 0
    for row in range(i + 2, j):
        q, _ = _indent(text, starts, ends, row)
        filled += columns - _header_columns(mdTrim(text[q : ends[row]]))
        if filled > _CELLS:
            return row
    return j


def _bullets(text: str, starts: Sequence[int], ends: Sequence[int], i: int, p: int, e: int) -> int:
    """``_list`` for a bullet list as most are written, or UNSURE: items ``- text`` (one space,
    not empty) at the line start, their lines indented two spaces, empty lines between; it
    ends at an empty line followed by a line indented less than two columns that is no item
    of the list (or at the end of the text)."""
    char = text[p]
    if char not in "*+-" or e - p < 3 or text[p + 1] != " " or text[p + 2] in " \t":
        return UNSURE
    j = _skip(_inside(2, 0, 0, char, 1), text, ends, i + 1)
    count = len(starts)
    if j >= count:
        return count
    if not _is_empty(text, starts, ends, j - 1):
        return UNSURE  # the item may go on lazily, or the next line may end it: look
    q, column = _indent(text, starts, ends, j)
    if column >= 2 or (q < ends[j] and text[q] == char):
        return UNSURE
    return j


def _list(
    text: str,
    starts: Sequence[int],
    ends: Sequence[int],
    i: int,
    p: int,
    column: int,
    marker: re.Match[str] | None,
) -> int:
    """One past the last line of the list starting at line ``i``, or UNSURE.

    Each item takes the lines indented at least to its content and the empty lines between
    them; a line indented less ends it after an empty line, or when it starts a block that
    ends any paragraph (a lazy continuation line is not modelled: UNSURE). The list goes on
    while the line ending an item is an item of the same kind (rules_block/list.py).
    """
    count = len(starts)
    assert marker is not None
    ordered = marker.group(1) is not None
    delimiter = text[marker.end() - 1]
    start = i
    while True:
        s, e = starts[start], ends[start]
        if text.find("\t", s, p) >= 0:
            return UNSURE
        after = marker.end()
        content = after
        while content < e and text[content] == " ":
            content += 1
        if content < e and text[content] == "\t":
            return UNSURE
        initial = column + after - p
        spaces = 1 if content >= e else content - after
        indent = initial + (spaces if spaces <= 4 else 1)
        empty = content >= e
        if empty and start + 1 < count and _is_empty(text, starts, ends, start + 1):
            j = min(start + 2, count)
        else:
            j = start + 1
            previous_empty = empty
            # The next item of the same marker, indentation and spacing (a non-empty one)
            # has the same content column: the run of lines taken without a look takes it.
            if empty or spaces > 4:
                inside = _inside(indent, -1, 0, delimiter, 0)
            else:
                inside = _inside(indent, column, after - p - 1, delimiter, spaces)
            while j < count:
                skipped = _skip(inside, text, ends, j)
                if skipped > j:
                    j = skipped
                    previous_empty = _is_empty(text, starts, ends, j - 1)
                    if j >= count:
                        break
                q, c = _indent(text, starts, ends, j)
                e = ends[j]
                if q == e:
                    previous_empty = True
                    j += 1
                    continue
                if c >= indent:
                    if c >= _DEEP and text[q] in "*+-0123456789>":
                        return UNSURE
                    previous_empty = False
                    j += 1
                    continue
                if previous_empty:
                    break
                # Right after a line of the item: a lazy continuation of a paragraph in it
                # unless it starts a block that ends any paragraph (a list marker does, empty
                # or not: it is indented less than the paragraph, "isTerminatingParagraph"
                # is False).
                if c >= 4 or not _terminates(text, starts, ends, j, q, e, text[q], paragraph=False):
                    return UNSURE
                break
        # The item ended at line j: is j the next item of this list?
        if j >= count:
            return count
        p, column = _indent(text, starts, ends, j)
        e = ends[j]
        if p == e or column >= 4:
            return j
        char = text[p]
        if char == ">" or ((char == "`" or char == "~") and _fence_opener(text, p, e)):
            return j
        if (char == "*" or char == "-" or char == "_") and _HR.match(text, p, e):
            return j
        marker = _MARKER.match(text, p, e)
        if marker is None or (marker.group(1) is not None) != ordered:
            return j
        if text[marker.end() - 1] != delimiter:
            return j
        start = j


@lru_cache(maxsize=256)
def _inside(indent: int, column: int, digits: int, delimiter: str, spaces: int) -> re.Pattern[str]:
    """Lines a list whose items' content is at column ``indent`` takes without a look (from
    a line break): lines indented by at least ``indent`` spaces (but a container nested too
    deep, ``_DEEP``), lines of only spaces and tabs, and, unless ``column`` is -1, further
    items of the same list that start the same way (``column`` spaces, ``digits`` digits or
    none, ``delimiter``, ``spaces`` spaces) and are not empty: their content column is
    ``indent`` too."""
    deep = max(_DEEP - indent, 0)
    if column < 0:
        items = ""
    elif digits:
        items = _repeat(" ", column) + _repeat("[0-9]", digits) + "\\" + delimiter
        items = "|" + items + _repeat(" ", spaces) + r"(?=[^ \t\n])[^\n]*"
    else:  # not a thematic break ("- - -"): its marker must not come back
        items = _repeat(" ", column) + "\\" + delimiter + r"(?![ \t]*[*\-_])"
        items = "|" + items + _repeat(" ", spaces) + r"(?=[^ \t\n])[^\n]*"
    inside = _repeat(" ", indent) + r"(?!" + _repeat(" ", deep, more=True) + r"[*+\-0-9>])"
    return re.compile(r"(?:\n(?:" + inside + r"[^\n]*|[ \t]*(?=\n|\Z)" + items + "))*")


def _repeat(pattern: str, times: int, *, more: bool = False) -> str:
    """``pattern{times}`` (or ``{times,}`` with ``more``), for a regular expression."""
    return pattern + "{" + str(times) + ("," if more else "") + "}"


def _skip(lines: re.Pattern[str], text: str, ends: Sequence[int], j: int) -> int:
    """The first line from ``j`` on that ``lines`` (a run of lines, each from the line break
    before it) does not take: the run is matched in C from the end of line ``j - 1``."""
    return j + text.count("\n", ends[j - 1], _run_end(lines, text, ends[j - 1]))


#: Lines a run pattern takes in one match (see :func:`_run_end`).
_BATCH = 256


@lru_cache(maxsize=512)
def _batch(lines: re.Pattern[str]) -> re.Pattern[str]:
    """``lines`` (``(?:...)*``, one line an iteration) taking at most :data:`_BATCH` lines."""
    assert lines.pattern.endswith(")*"), lines.pattern
    return re.compile(lines.pattern[:-1] + "{0," + str(_BATCH) + "}", lines.flags)


def _run_end(lines: re.Pattern[str], text: str, at: int) -> int:
    """Where the run of lines ``lines`` takes from ``at`` ends (``lines.match(text, at).end()``).

    ``re`` keeps a backtracking record for every iteration of a group repeat, about 60 bytes
    a line held until the match ends: thirty times a table of short rows (TRUST-50). The
    run is taken :data:`_BATCH` lines a match instead; each iteration takes one whole line
    and nothing follows the repeat, so the runs join to the same end.
    """
    batch = _batch(lines)
    while True:
        end = batch.match(text, at).end()  # type: ignore[union-attr]
        if text.count("\n", at, end) < _BATCH:
            return end
        at = end


def _is_empty(text: str, starts: Sequence[int], ends: Sequence[int], j: int) -> bool:
    """Whether line ``j`` holds only spaces and tabs (markdown-it's ``isEmpty``)."""
    s, e = starts[j], ends[j]
    if s == e:
        return True
    return (text[s] == " " or text[s] == "\t") and _INDENT.match(text, s, e).end() == e  # type: ignore[union-attr]
