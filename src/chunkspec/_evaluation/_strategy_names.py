"""Chunking strategies by name, each an adapter to chunk records (EVAL-15 to EVAL-19, EVAL-41).

Every strategy is a call of ``chunk_document`` (RECORD-10), so the evaluation measures the
records that ``chunkspec chunk`` writes. Names:

* ``recursive-N``: strategy ``recursive`` (``split_section``), EVAL-16;
* ``fixed-N``: ``window-N-0``; ``window-N-O``: strategy ``window`` over whitespace tokens,
  each record trimmed to its words (EVAL-17);
* ``structural[-N]``: strategy ``structural`` (``split_markdown``), unbudgeted or at most N
  tokens; ``heading-aware[-N[-O]]``: strategy ``heading`` (``HeadingAwareChunker(N, O)``),
  N = 512, O = N // 8 (EVAL-18, EVAL-19);
* ``document``: one trimmed window of every word (EVAL-36);
* ``langchain-html-header[+trail]``, ``langchain-html-semantic[+trail]``: LangChain's HTML
  splitters, on HTML pages only (EVAL-46).

:func:`resolve` builds each family's adapter through one table, ``_FAMILIES``;
:func:`indexed_text` is what a retriever indexes (EVAL-41).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from .._core._hashing import hash_text
from .._core._validate import MAX_SAFE_INTEGER, require_str
from .._errors import ArgumentValueError, StrategyUnavailable
from .._records._chunk_document import chunk_document
from .._records._record import ChunkRecord
from .._text._documents import SourceDocument
from ._html_peers import PEERS, TRAIL, peer

__all__ = [
    "DEFAULT_STRATEGIES",
    "DOCUMENT",
    "Strategy",
    "StrategyUnavailable",
    "indexed_text",
    "resolve",
    "word_spans",
]

#: The no-chunking baseline: every document is one chunk (rule EVAL-36).
DOCUMENT = "document"

#: What ``chunkspec eval`` runs without ``--strategies`` (EVAL-29): fixed-512 and recursive-512
#: first.
DEFAULT_STRATEGIES = (
    "fixed-512",
    "recursive-512",
    "structural",
    "heading-aware",
    "fixed-128",
    "recursive-128",
    "window-128-32",
    "structural-128",
    "heading-aware-128-32",
)


#: What an adapter chunks: a Markdown text, or a document a reader read (an HTML page, EVAL-45).
Source = str | SourceDocument

#: An adapter: ``(doc_id, title, source) -> records`` in source order (rule EVAL-41).
Strategy = Callable[[str, str, Source], list[ChunkRecord]]

#: The record strategies whose records carry a heading trail into the index (EVAL-41).
_TRAILED = ("structural:", "heading:")


def indexed_text(record: ChunkRecord) -> str:
    """The text a retriever indexes for ``record`` (rule EVAL-41).

    ``f"{trail}\n\n{record.text}"`` with ``trail = " > ".join(record.heading_path)`` for the
    ``structural`` and ``heading`` strategies and LangChain's ``+trail`` peers (EVAL-46) when
    the trail is not empty; ``record.text`` otherwise: the recursive and window families
    know no headings (EVAL-18).
    """
    trail = " > ".join(record.heading_path)
    if trail and (record.strategy.startswith(_TRAILED) or record.strategy.endswith(TRAIL)):
        return f"{trail}\n\n{record.text}"
    return record.text


_WORD = re.compile(r"\S+")
_HEADED = re.compile(r"^(structural|heading-aware)(?:-([0-9]+)(?:-([0-9]+))?)?(\+merge)?$")
_NAME = re.compile(r"^(recursive|fixed)-([0-9]+)$|^window-([0-9]+)-([0-9]+)$")


def word_spans(text: str) -> list[tuple[int, int]]:
    """Return ``[(m.start(), m.end()) for m in re.finditer(r"\\S+", text)]``.

    ``[text[s:e] for s, e in word_spans(text)] == text.split()`` (rule EVAL-15): for ``str``
    patterns ``\\s`` is exactly the ``str.isspace()`` set that ``str.split()`` uses.
    """
    return [match.span() for match in _WORD.finditer(text)]


def resolve(name: str) -> Strategy:
    """Return the adapter for strategy ``name``; ValueError for an unknown or bad name."""
    require_str("strategy", name)
    if name == DOCUMENT:
        return _FAMILIES[DOCUMENT]()
    if name in PEERS:  # EVAL-46: LangChain's HTML splitters, on HTML pages only
        return peer(name)
    headed = _HEADED.match(name)
    if headed is not None:
        family, size, overlap, merge = headed.groups()
        if family == "structural":
            if overlap is not None:
                raise ArgumentValueError("strategy", "structural takes no overlap", name)
            budget = None if size is None else _size("strategy", name, int(size))
            return _FAMILIES[family](budget, merge is not None)
        width = 512 if size is None else _size("strategy", name, int(size))
        lap = width // 8 if overlap is None else int(overlap)
        if lap >= width:
            raise ArgumentValueError("strategy", "heading-aware overlap must be < its size", name)
        return _FAMILIES[family](width, lap, merge is not None)
    match = _NAME.match(name)
    if match is None:
        raise ArgumentValueError(
            "strategy",
            "must be document, recursive-N, fixed-N, window-N-O, structural[-N], "
            "heading-aware[-N[-O]] or langchain-html-header|semantic[+trail]",
            name,
        )
    family, size, wsize, overlap = match.groups()
    if family == "recursive":
        return _FAMILIES[family](_size("strategy", name, int(size)))
    if family == "fixed":
        return _FAMILIES["window"](_size("strategy", name, int(size)), 0)
    width = _size("strategy", name, int(wsize))
    if int(overlap) >= width:
        raise ArgumentValueError("strategy", "window overlap must be < its size", name)
    return _FAMILIES["window"](width, int(overlap))


def _size(argument: str, name: str, size: int) -> int:
    """Return ``size`` if it is in ``[1, 2**53-1]``."""
    if not 1 <= size <= MAX_SAFE_INTEGER:
        raise ArgumentValueError(argument, "size must be in [1, 2**53-1]", name)
    return size


def _source(doc_id: str, title: str, source: Source) -> SourceDocument:
    """The corpus document as ``chunk_document`` reads it: Markdown with the corpus's title,
    or the document a reader made of the page (EVAL-45), as it is."""
    if isinstance(source, SourceDocument):
        return source
    return SourceDocument(doc_id, source, "markdown", title)


def _trimmed(record: ChunkRecord) -> ChunkRecord:
    """``record`` with its region cut to its words (EVAL-17): ``text`` stays verbatim.

    A window of ``chunk_document`` runs from its first token's start to the next window's
    first token (or the end of the source); only ``start``, ``end``, ``text`` and
    ``content_hash`` change here.
    """
    spans = word_spans(record.text)
    first, last = spans[0][0], spans[-1][1]
    text = record.text[first:last]
    return replace(
        record,
        start=record.start + first,
        end=record.start + last,
        text=text,
        content_hash=hash_text(text),
    )


def _document() -> Strategy:
    """The no-chunking baseline (EVAL-36): one window holding every word of the document."""
    return _windows(MAX_SAFE_INTEGER, 0)


#: EVAL-18: a name's budget is in whitespace words (SCRIPT-6 applied), the seeds' measure,
#: not the records' default counter (SCRIPT-35): the published figures were measured so.
_WORDS = "whitespace"


def _recursive(max_tokens: int) -> Strategy:
    """``chunk_document(..., "recursive", max_tokens=N)``: ``split_section`` (SPLIT rules).

    Its records' regions run from their first word to their last (RECORD-11), which is
    EVAL-16's region; ``text`` is ``split_section``'s own.
    """

    def adapt(doc_id: str, title: str, source: Source) -> list[ChunkRecord]:
        return chunk_document(_source(doc_id, title, source), "recursive", max_tokens=max_tokens)

    return adapt


def _windows(size: int, overlap: int) -> Strategy:
    """``chunk_document(..., "window", max_tokens=N, overlap_tokens=O)``, trimmed (EVAL-17).

    Window n holds words ``[n * step, n * step + size)`` with ``step = size - overlap``
    (TOKWIN rules); its region here is trimmed to its words, so ``text == source[start:end]``
    and a window never claims the whitespace around it.
    """

    def adapt(doc_id: str, title: str, source: Source) -> list[ChunkRecord]:
        document = _source(doc_id, title, source)
        records = chunk_document(
            document, "window", max_tokens=size, overlap_tokens=overlap, counter=_WORDS
        )
        return [_trimmed(r) for r in records]

    return adapt


def _structural(max_tokens: int | None, merge: bool = False) -> Strategy:
    """``chunk_document(..., "structural", max_tokens=N)``: ``split_markdown`` (MD rules).

    Unbudgeted ``structural`` is ``max_tokens = 2**53 - 1`` (EVAL-19). ``text == prefix +
    source[start:end]`` (MD-8); the heading trail is indexed (EVAL-41). ``merge``: SIZE-2's
    default ``min_tokens`` (EVAL-44), else 0.
    """
    budget = MAX_SAFE_INTEGER if max_tokens is None else max_tokens
    small: int | None = None if merge else 0

    def adapt(doc_id: str, title: str, source: Source) -> list[ChunkRecord]:
        document = _source(doc_id, title, source)
        # EVAL-19: the seed chunker's own chunks, unmerged, unless ``+merge`` (EVAL-44).
        return chunk_document(
            document, "structural", max_tokens=budget, min_tokens=small, counter=_WORDS
        )

    return adapt


def _heading_aware(max_tokens: int, overlap: int, merge: bool = False) -> Strategy:
    """``chunk_document(..., "heading", max_tokens=N, overlap_tokens=O)`` (HEAD rules).

    Heading chunks and body chunks alike, ``text == source[start:end]`` (HEAD-2); the
    heading trail is indexed (EVAL-41).
    """

    small: int | None = None if merge else 0

    def adapt(doc_id: str, title: str, source: Source) -> list[ChunkRecord]:
        document = _source(doc_id, title, source)
        # EVAL-19: HeadingAwareChunker(N, O)'s own chunks, unmerged, unless ``+merge``
        # (EVAL-44: SIZE-2's default applied).
        return chunk_document(
            document,
            "heading",
            max_tokens=max_tokens,
            overlap_tokens=overlap,
            min_tokens=small,
            counter=_WORDS,
        )

    return adapt


#: Every family's adapter builder, by family name (EVAL-18, EVAL-19): the one place
#: :func:`resolve` turns a parsed name into an adapter.
_FAMILIES: dict[str, Callable[..., Strategy]] = {
    DOCUMENT: _document,
    "recursive": _recursive,
    "window": _windows,
    "structural": _structural,
    "heading-aware": _heading_aware,
}
