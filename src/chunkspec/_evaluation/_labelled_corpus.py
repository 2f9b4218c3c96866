"""Loading a labelled corpus: Markdown pages plus questions with quoted gold (EVAL-20..23).

Layout: a directory holding ``pages/`` (one ``*.md`` or ``*.txt`` file per document, the
document id is the file stem) and ``queries.jsonl``, one question per line::

    {"id": "returns-1", "class": "prose", "question": "...",
     "gold": [{"doc": "returns", "quote": "exact text of the page"}]}

Each quote must occur exactly once in its document (EVAL-21); the loader turns it into a
:class:`GoldSpan` ``(doc, start, end)`` with ``source[start:end] == quote``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from .._core._validate import require_text
from .._errors import ArgumentValueError, CorpusError
from .._text._documents import SourceDocument
from ._gold import GoldSpan, SpanQuery

__all__ = ["Corpus", "CorpusDocument", "CorpusError", "bundled", "load_corpus", "quote_span"]

_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_SUFFIXES = (".md", ".txt")


@dataclass(frozen=True, slots=True)
class CorpusDocument:
    """One source page: ``id`` (file stem), ``title`` (first ATX heading, else id), ``text``.

    ``document`` is the page as a reader read it when it is not Markdown (an HTML page,
    EVAL-45): ``text == document.text``, and the strategies chunk ``document``.
    """

    id: str
    title: str
    text: str
    document: SourceDocument | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Corpus:
    """Documents in file-name order and labelled questions in file order."""

    name: str
    documents: tuple[CorpusDocument, ...]
    queries: tuple[SpanQuery, ...]

    def document(self, doc_id: str) -> CorpusDocument:
        """Return the document called ``doc_id`` (KeyError if there is none)."""
        for doc in self.documents:
            if doc.id == doc_id:
                return doc
        raise KeyError(doc_id)

    @property
    def classes(self) -> tuple[str, ...]:
        """The question classes in order of first appearance."""
        return tuple(dict.fromkeys(q.kind for q in self.queries))


def bundled() -> Traversable:
    """Return the directory of the corpus shipped in the wheel: MegaMart policy pages."""
    return files("chunkspec") / "_evaluation" / "megamart"


def load_corpus(
    directory: str | Path | Traversable | None = None,
    queries: str | Path | Traversable | None = None,
) -> Corpus:
    """Load a labelled corpus; ``None`` loads the bundled MegaMart corpus.

    ``queries`` overrides ``directory/queries.jsonl``. Raises :class:`CorpusError` (a
    ValueError) naming the file and line for every malformed record, unknown document, or
    quote that does not occur exactly once.
    """
    root: Traversable = bundled() if directory is None else _traversable(directory)
    if not root.is_dir():
        raise CorpusError(f"{root}: not a directory", "directory")
    pages = root / "pages"
    page_dir = pages if pages.is_dir() else root
    documents = tuple(
        _document(entry)
        for entry in sorted(page_dir.iterdir(), key=lambda e: e.name)
        if entry.is_file() and entry.name.endswith(_SUFFIXES)
    )
    if not documents:
        raise CorpusError(f"{page_dir}: no .md or .txt pages", "directory")
    by_id = {doc.id: doc for doc in documents}
    if len(by_id) != len(documents):
        raise CorpusError(f"{page_dir}: two pages share a file stem", "directory")
    qfile = root / "queries.jsonl" if queries is None else _traversable(queries)
    name = Path(str(root)).name
    return Corpus(name, documents, tuple(_queries(qfile, by_id)))


def _traversable(path: str | Path | Traversable) -> Traversable:
    """Return ``path`` as a Traversable (a ``Path`` for strings)."""
    return Path(path) if isinstance(path, str) else path


def _decode(entry: Traversable, argument: str) -> str:
    """Return the strict UTF-8 text of ``entry``, line endings untouched."""
    try:
        data = entry.read_bytes()
    except OSError as error:
        raise CorpusError(f"{entry}: cannot read: {error.strerror or error}", argument) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CorpusError(f"{entry}: not valid UTF-8 (byte {error.start})", argument) from None


def _document(entry: Traversable) -> CorpusDocument:
    """Read one page; its title is its first ATX heading (EVAL-20)."""
    text = _decode(entry, "directory")
    stem = entry.name.rsplit(".", 1)[0]
    heading = _HEADING.search(text)
    return CorpusDocument(stem, heading.group(1) if heading else stem, text)


def _queries(entry: Traversable, docs: dict[str, CorpusDocument]) -> list[SpanQuery]:
    """Parse and validate ``queries.jsonl`` (EVAL-21, EVAL-22)."""
    if not entry.is_file():
        raise CorpusError(f"{entry}: no such file")
    out: list[SpanQuery] = []
    seen: set[str] = set()
    for number, line in enumerate(_decode(entry, "queries").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{entry}:{number}"
        query = _query(where, line, docs)
        if query.id in seen:
            raise CorpusError(f"{where}: duplicate query id {query.id!r}")
        seen.add(query.id)
        out.append(query)
    if not out:
        raise CorpusError(f"{entry}: no queries")
    return out


def _query(where: str, line: str, docs: dict[str, CorpusDocument]) -> SpanQuery:
    """Parse one record into a SpanQuery, resolving each quote to its unique span."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as error:
        raise CorpusError(f"{where}: malformed JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise CorpusError(f"{where}: expected a JSON object")
    for key in ("id", "class", "question"):
        value = record.get(key)
        if not isinstance(value, str) or not value.strip():
            raise CorpusError(f"{where}: field {key!r} must be a non-blank string")
    if not _SLUG.match(record["id"]):
        raise CorpusError(f"{where}: id {record['id']!r} must be a slug")
    gold = record.get("gold")
    if not isinstance(gold, list) or not gold:
        raise CorpusError(f"{where}: field 'gold' must be a non-empty list")
    spans = tuple(_span(f"{where}: gold[{i}]", item, docs) for i, item in enumerate(gold))
    together = record.get("together", False)
    if not isinstance(together, bool):
        raise CorpusError(f"{where}: field 'together' must be true or false")
    return SpanQuery(record["id"], record["class"], record["question"], spans, together)


def _span(where: str, item: object, docs: dict[str, CorpusDocument]) -> GoldSpan:
    """Resolve ``{"doc": ..., "quote": ...}`` to the one span where the quote occurs."""
    if not isinstance(item, dict):
        raise CorpusError(f"{where}: expected an object with 'doc' and 'quote'")
    doc_id, quote = item.get("doc"), item.get("quote")
    if not isinstance(doc_id, str) or doc_id not in docs:
        raise CorpusError(f"{where}: unknown document {doc_id!r}")
    if "start" in item or "end" in item:
        return _offsets(where, item, doc_id, docs[doc_id].text)
    if not isinstance(quote, str):
        raise CorpusError(f"{where}: 'quote' must be a string")
    try:
        return quote_span(doc_id, docs[doc_id].text, quote)
    except ValueError as error:
        raise CorpusError(f"{where}: {error}") from None


def _offsets(where: str, item: dict[str, object], doc_id: str, text: str) -> GoldSpan:
    """Resolve ``{"doc", "start", "end"[, "quote"]}``: code-point offsets (EVAL-39)."""
    start, end, quote = item.get("start"), item.get("end"), item.get("quote")
    for key, value in (("start", start), ("end", end)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise CorpusError(f"{where}: {key!r} must be an integer offset")
    assert isinstance(start, int)
    assert isinstance(end, int)
    if not 0 <= start < end <= len(text):
        raise CorpusError(
            f"{where}: offsets [{start}, {end}) are not a non-empty range of {doc_id!r} "
            f"({len(text)} code points)"
        )
    if quote is not None and quote != text[start:end]:
        raise CorpusError(
            f"{where}: 'quote' does not match {doc_id!r}[{start}:{end}] "
            f"({text[start:end][:40]!r}...)"
        )
    if not text[start:end].strip():
        raise CorpusError(f"{where}: offsets [{start}, {end}) hold only whitespace")
    return GoldSpan(doc_id, start, end)


def quote_span(doc_id: str, text: str, quote: str) -> GoldSpan:
    """Return ``GoldSpan(doc_id, i, i + len(quote))`` for the one ``i`` where quote occurs.

    Raises ValueError (argument ``quote``) when the quote is blank, has leading or trailing
    whitespace (EVAL-22), or occurs zero or several times, overlaps included (EVAL-21).
    """
    require_text("quote", quote)
    if not quote.strip():
        raise ArgumentValueError("quote", "must not be blank", quote)
    if quote != quote.strip():
        # EVAL-22: chunk regions start and end on words, so a quote must too.
        raise ArgumentValueError("quote", "has leading or trailing whitespace", quote)
    start = text.find(quote)
    if start < 0:
        raise ArgumentValueError("quote", f"not found in {doc_id!r}", quote)
    if text.find(quote, start + 1) >= 0:
        raise ArgumentValueError("quote", f"occurs more than once in {doc_id!r}", quote)
    return GoldSpan(doc_id, start, start + len(quote))
