"""A Markdown corpus read back as HTML pages, its gold moved into the pages' text (EVAL-45).

Each page is rendered with site furniture (:mod:`._megamart_html`) and read with
``document_from_bytes(..., input_format="html")``: the HTML document's ``text`` is what its
records index. A gold span indexes the Markdown text, so it is moved: its *rendered words*
(:func:`rendered_words`: the words of ``markdown[start:end]``, a table's cell delimiters
``|`` counting as spaces) must occur exactly once in the HTML text as whole words separated
by whitespace only (:func:`locate_words`); the span there runs from the first character of
the first word to the last character of the last. A span found nowhere or more than once
is a :class:`CorpusError`, never a guess (as EVAL-21).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .._errors import CorpusError
from .._text._documents import SourceDocument, document_from_bytes
from ._gold import GoldSpan, SpanQuery
from ._labelled_corpus import Corpus, CorpusDocument
from ._megamart_html import SITE, render_corpus

__all__ = [
    "FURNISHED",
    "HTML",
    "HtmlCorpus",
    "html_corpus",
    "locate_words",
    "map_gold",
    "rendered_words",
]

#: The prefix of a row run on the HTML rendering (``html:structural``), EVAL-45.
HTML = "html"

#: The prefix of a row run on the same pages read with their furniture kept (HTML-11).
FURNISHED = "html+furniture"

_CELL_WORD = re.compile(r"[^\s|]+")


@dataclass(frozen=True, slots=True)
class HtmlCorpus:
    """The HTML rendering of a corpus: its pages (by id), the corpus over their text, and
    how many gold spans were moved (all of them, or :func:`html_corpus` raised)."""

    corpus: Corpus
    pages: dict[str, str]
    spans: int


def rendered_words(markdown: str) -> list[str]:
    """The words of a Markdown excerpt as a page shows them: runs of characters other than
    whitespace and ``|`` (a table row's cell delimiters separate words like spaces)."""
    return _CELL_WORD.findall(markdown)


def locate_words(text: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Every place ``words`` occur in ``text`` as whole words separated by whitespace only.

    Returns ``(start, end)`` from the first word's first character to the last word's last,
    overlapping places included, in order. A whole word has no non-whitespace character
    right before or after it.
    """
    if not words:
        return []
    pattern = re.compile(
        r"(?<!\S)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\S)",
    )
    found: list[tuple[int, int]] = []
    at = 0
    while True:
        match = pattern.search(text, at)
        if match is None:
            return found
        found.append(match.span())
        at = match.start() + 1


def map_gold(
    query: SpanQuery, markdown: dict[str, CorpusDocument], html: dict[str, str]
) -> SpanQuery:
    """``query`` with each gold span moved from the Markdown text into the HTML text.

    Raises :class:`CorpusError` naming the question and span when a span's rendered words
    occur in the HTML text zero or several times.
    """
    spans: list[GoldSpan] = []
    for n, span in enumerate(query.gold):
        excerpt = markdown[span.doc_id].text[span.start : span.end]
        places = locate_words(html[span.doc_id], rendered_words(excerpt))
        if len(places) != 1:
            what = "not found" if not places else f"found {len(places)} times"
            raise CorpusError(
                f"{query.id}: gold[{n}] {excerpt[:60]!r} is {what} in the HTML text of "
                f"{span.doc_id!r} (EVAL-45)"
            )
        spans.append(GoldSpan(span.doc_id, *places[0]))
    return replace(query, gold=tuple(spans))


def read_page(doc_id: str, page: str, *, keep_furniture: bool = False) -> SourceDocument:
    """One rendered page read as chunkspec reads any HTML file (``keep_furniture``: HTML-11)."""
    return document_from_bytes(
        page.encode("utf-8"),
        doc_id=doc_id,
        source=f"{doc_id}.html",
        input_format="html",
        keep_furniture=keep_furniture,
    )


def html_corpus(corpus: Corpus, *, site: str = SITE, keep_furniture: bool = False) -> HtmlCorpus:
    """Render ``corpus`` as HTML pages, read them, and move every gold span (EVAL-45).

    ``keep_furniture`` reads the pages with their furniture as text (HTML-11), and names the
    corpus ``NAME-html+furniture``.

    The documents keep their ids and order; each one's ``text`` is the HTML document's text
    and its ``document`` the HTML document, so every strategy chunks the page as
    ``chunk_document`` would; the questions keep their ids, classes, order and ``together``.
    """
    pages = render_corpus(corpus, site=site)
    documents: list[CorpusDocument] = []
    for doc in corpus.documents:
        read = read_page(doc.id, pages[doc.id], keep_furniture=keep_furniture)
        documents.append(CorpusDocument(doc.id, read.title or doc.title, read.text, read))
    by_id = {d.id: d for d in corpus.documents}
    texts = {d.id: d.text for d in documents}
    queries = tuple(map_gold(q, by_id, texts) for q in corpus.queries)
    spans = sum(len(q.gold) for q in queries)
    name = f"{corpus.name}-{FURNISHED if keep_furniture else HTML}"
    return HtmlCorpus(Corpus(name, tuple(documents), queries), pages, spans)
