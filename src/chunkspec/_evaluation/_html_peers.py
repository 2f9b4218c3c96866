"""LangChain's HTML splitters as evaluation strategies, their chunks placed by words (EVAL-46).

``langchain-html-header`` is ``HTMLHeaderTextSplitter`` on ``h1`` to ``h3``, sections
aggregated (its default); ``langchain-html-semantic`` is ``HTMLSemanticPreservingSplitter``
on ``h1`` to ``h3`` with its default ``max_chunk_size=1000`` characters and tables kept
whole (``elements_to_preserve=["table"]``). Both read the page's markup
(``SourceDocument.markup``) as a LangChain user passes it, furniture and all. Their chunks
carry no offsets, so each is placed in the document's text by its words
(:func:`place_chunks`); what a retriever indexes is the chunk's own text, or with ``+trail``
its header metadata as a heading trail and then its text (EVAL-41).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from .._core._hashing import hash_text
from .._errors import ArgumentValueError, StrategyUnavailable
from .._records._record import ChunkRecord
from .._text._documents import SourceDocument

__all__ = ["MIN_RUN", "PEERS", "TRAIL", "Placement", "peer", "place_chunks"]

#: The fewest words a run of a chunk must match in order to place it (EVAL-46): a run of one
#: or two common words ("the", "of the") is found anywhere.
MIN_RUN = 3

_HEADERS = [("h1", "Header 1"), ("h2", "Header 2"), ("h3", "Header 3")]
_WORD = re.compile(r"\S+")  # EVAL-15's words
_INSTALL = "pip install langchain-text-splitters beautifulsoup4"


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a chunk's words are in the text: ``[start, end)`` (``start == end == 0`` when
    no run is found), and how many of its words the runs matched."""

    start: int
    end: int
    matched: int
    words: int


def place_chunks(text: str, chunks: Sequence[str]) -> list[Placement]:
    """Place each chunk in ``text`` by its words (EVAL-46).

    The chunk's words (``str.split``) are matched in order against the text's words by
    ``difflib.SequenceMatcher`` (no junk heuristic); matching runs of at least
    :data:`MIN_RUN` words count, or the whole chunk when it is shorter. The region runs from
    the first counted run's first word to the last counted run's last word.
    """
    spans = [m.span() for m in _WORD.finditer(text)]
    tokens = [text[s:e] for s, e in spans]
    matcher: SequenceMatcher[str] = SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(tokens)
    out: list[Placement] = []
    for chunk in chunks:
        words = chunk.split()
        matcher.set_seq1(words)
        need = min(MIN_RUN, len(words))
        runs = [b for b in matcher.get_matching_blocks() if b.size and b.size >= need]
        if not runs:
            out.append(Placement(0, 0, 0, len(words)))
            continue
        first, last = runs[0], runs[-1]
        out.append(
            Placement(
                spans[first.b][0],
                spans[last.b + last.size - 1][1],
                sum(b.size for b in runs),
                len(words),
            )
        )
    return out


def _markup(name: str, source: object) -> tuple[SourceDocument, str]:
    """The HTML document and its markup, or a ValueError naming the strategy."""
    markup = getattr(source, "markup", None)
    if not isinstance(source, SourceDocument) or not isinstance(markup, str):
        raise ArgumentValueError(
            "strategy", f"reads HTML pages: name it html:{name} (EVAL-45)", name
        )
    return source, markup


def _records(
    name: str, document: SourceDocument, chunks: list[tuple[str, tuple[str, ...]]]
) -> list[ChunkRecord]:
    """The chunks ``(text, headers)`` as records of ``document``: regions from
    :func:`place_chunks`, heading paths from the splitter's header metadata."""
    out: list[ChunkRecord] = []
    texts = [text for text, _ in chunks]
    places = place_chunks(document.text, texts)
    for index, ((text, path), place) in enumerate(zip(chunks, places, strict=True)):
        out.append(
            ChunkRecord(
                id=f"{document.doc_id}:{index}",
                doc_id=document.doc_id,
                index=index,
                text=text,
                start=place.start,
                end=place.end,
                tokens=len(text.split()),
                counter="whitespace",
                content_hash=hash_text(text),
                kind="prose",
                heading_path=path,
                parent_id=None,
                page_start=None,
                page_end=None,
                section=None,
                prefix="",
                oversized=False,
                title=document.title,
                source=document.source,
                strategy=name,
            )
        )
    return out


def _splitter(name: str) -> Any:
    """A LangChain HTML splitter, or StrategyUnavailable naming what to install."""
    name = name.removesuffix(TRAIL)
    try:
        import bs4  # noqa: F401  (both splitters need it at split time)
        from langchain_text_splitters import (
            HTMLHeaderTextSplitter,
            HTMLSemanticPreservingSplitter,
        )
    except ImportError:
        raise StrategyUnavailable(name, f"LangChain's HTML splitters: {_INSTALL}") from None
    if name == "langchain-html-header":
        return HTMLHeaderTextSplitter(_HEADERS)
    with warnings.catch_warnings():  # it says it is in beta each time one is made
        warnings.simplefilter("ignore")
        return HTMLSemanticPreservingSplitter(
            _HEADERS, max_chunk_size=1000, elements_to_preserve=["table"]
        )


def peer(name: str) -> Callable[[str, str, object], list[ChunkRecord]]:
    """The adapter of LangChain splitter ``name`` (EVAL-46)."""
    splitter = _splitter(name)

    def adapt(doc_id: str, title: str, source: object) -> list[ChunkRecord]:
        document, markup = _markup(name, source)
        chunks = [
            (d.page_content, tuple(d.metadata[h] for _, h in _HEADERS if d.metadata.get(h)))
            for d in splitter.split_text(markup)
        ]
        return _records(name, document, [c for c in chunks if c[0].split()])

    return adapt


#: The suffix of a peer whose header metadata is indexed as a heading trail (EVAL-41).
TRAIL = "+trail"

#: The peer strategies by name (EVAL-46).
PEERS = (
    "langchain-html-header",
    "langchain-html-semantic",
    f"langchain-html-header{TRAIL}",
    f"langchain-html-semantic{TRAIL}",
)
