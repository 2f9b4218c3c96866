"""The ``code`` strategy: a source file chunked by its syntax tree (docs/spec/code.md).

CODE-2 parses the document's text with its language's tree-sitter grammar; CODE-3 falls
back to whole lines (CODE-4) for a text without a language or nested past CODE-3's depth,
and for what the parser could not read (an error node); CODE-5..CODE-10 split the tree;
CODE-7 names each chunk's scopes; CODE-8 is the ``scope_prefix`` option; CODE-11 the
``code`` metadata of every record.
"""

from __future__ import annotations

import bisect
import functools
import importlib
import re
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._code._grammar import parser_for
from .._code._languages import LANGUAGES, Language
from .._code._offsets import ByteOffsets
from .._code._scopes import definition_of, symbol
from .._code._split import MAX_DEPTH, Piece, split_lines, split_tree
from .._counters._builtin import WhitespaceCounter
from ._span import Span

if TYPE_CHECKING:
    from .._text._documents import SourceDocument
    from ._options import ChunkOptions

__all__ = ["code_pieces", "code_spans"]

_WORD = re.compile(r"\S+")


def _measure(text: str, counter: Any) -> Callable[[int, int, str], int]:
    """``(start, end, prefix) -> counter.count(prefix + text[start:end])``.

    For the whitespace counter the words of ``text`` are found once and a span's count is two
    bisects: a prefix ends with a line break, so its words and the span's add up (TOK-1).
    """
    if type(counter) is WhitespaceCounter:
        starts = array("q")
        ends = array("q")
        for match in _WORD.finditer(text):
            starts.append(match.start())
            ends.append(match.end())

        def words(start: int, end: int, prefix: str) -> int:
            # words ending after start and starting before end
            first = bisect.bisect_right(ends, start)
            last = bisect.bisect_left(starts, end)
            n = max(0, last - first)
            return n + len(prefix.split()) if prefix else n

        return words
    count = counter.count

    def tokens(start: int, end: int, prefix: str) -> int:
        return int(count(prefix + text[start:end] if prefix else text[start:end]))

    return tokens


def _parse(text: str, language: str) -> tuple[Any, str]:
    """CODE-2, CODE-3: the tree of ``text`` and CODE-11's ``parser`` value."""
    tree = parser_for(language).parse(text.encode("utf-16-le"), encoding="utf16le")
    return tree, "tree-sitter with errors" if tree.root_node.has_error else "tree-sitter"


def code_spans(document: SourceDocument, options: ChunkOptions) -> list[Span]:
    """The spans of ``document`` under ``options`` (CODE-3..CODE-11).

    ``chunks[i] == prefix + text[start:end]``: a span's text is its prefix (empty unless
    ``scope_prefix``, CODE-8) and the document's text between its offsets.
    """
    text = document.text
    language = document.language
    measure = _measure(text, options.token_counter())
    max_tokens = options.max_tokens
    pieces: list[Piece] | None = None
    tree = None
    offsets = ByteOffsets(text)  # CODE-2: once a file, for the split and the symbols
    if language is None:
        parser = "lines: no language"
    else:
        tree, parser = _parse(text, language)
        pieces = split_tree(
            text,
            tree.root_node,
            LANGUAGES[language],
            measure,
            max_tokens,
            options.scope_prefix,
            offsets,
        )
        if pieces is None:
            parser = f"lines: nested deeper than {MAX_DEPTH}"
    symbols: list[tuple[int, str]] = []
    if pieces is None:
        pieces = split_lines(text, measure, max_tokens)
    elif language is not None:
        symbols = _symbols(text, tree, LANGUAGES[language], offsets)
    title = document.title
    line_starts = _line_starts(text)
    symbol_starts = [s for s, _ in symbols]
    spans: list[Span] = []
    for piece in pieces:
        path = (title, *(s.label for s in piece.scopes))
        if piece.own is not None:
            path = (*path, piece.own.label)
        prefix = piece.prefix
        a = bisect.bisect_left(symbol_starts, piece.start)
        b = bisect.bisect_left(symbol_starts, piece.end)
        info = {
            "language": language,
            "lines": [
                bisect.bisect_right(line_starts, piece.start),
                bisect.bisect_right(line_starts, piece.end - 1),
            ],
            "parser": parser,
            "symbols": [name for _, name in symbols[a:b]],
        }
        spans.append(
            Span(piece.start, piece.end, "code", path, prefix=prefix, metadata={"code": info})
        )
    return spans


def _line_starts(text: str) -> list[int]:
    """Where each line starts (CODE-11: lines end at ``\\n``, ``\\r\\n`` or ``\\r``)."""
    return [0, *(m.end() for m in _BREAK.finditer(text))]


_BREAK = re.compile(r"\r\n|\r|\n")


@functools.cache
def _query(language: str) -> Any:
    """A query capturing every definition node type of ``language`` (CODE-11)."""
    tree_sitter = importlib.import_module("tree_sitter")
    source = " ".join(f"({kind}) @d" for kind in sorted(LANGUAGES[language].definitions))
    return tree_sitter.Query(parser_for(language).language, source)


def _symbols(
    text: str, tree: Any, language: Language, offsets: ByteOffsets
) -> list[tuple[int, str]]:
    """CODE-11: ``(start, name)`` of every definition, by start (code points)."""
    tree_sitter = importlib.import_module("tree_sitter")
    found = tree_sitter.QueryCursor(_query(language.name)).captures(tree.root_node)
    cp = offsets.code_point
    out: list[tuple[int, str]] = []
    for node in found.get("d", []):
        if definition_of(node, language) is None:
            continue
        if node.type.endswith("_specifier") and node.child_by_field_name("body") is None:
            continue
        name = symbol(node)
        if name is None:
            continue
        words = text[cp(name.start_byte) : cp(name.end_byte)].split()
        out.append((cp(node.start_byte), " ".join(words)))
    out.sort()
    return out


def code_pieces(
    text: str, language: str, measure: Callable[[int, int, str], int], max_tokens: int
) -> list[tuple[int, int, tuple[str, ...]]]:
    """MD-18: the pieces of ``text`` in ``language`` as ``(start, end, scope labels)``, split
    by CODE-5..CODE-10 under ``measure`` (by lines past CODE-3's depth)."""
    tree, _ = _parse(text, language)
    offsets = ByteOffsets(text)
    pieces = split_tree(
        text, tree.root_node, LANGUAGES[language], measure, max_tokens, False, offsets
    )
    if pieces is None:
        pieces = split_lines(text, measure, max_tokens)
    out = []
    for piece in pieces:
        labels = tuple(s.label for s in piece.scopes)
        if piece.own is not None:
            labels = (*labels, piece.own.label)
        out.append((piece.start, piece.end, labels))
    return out
