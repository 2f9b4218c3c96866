"""Chroma's general evaluation set as a labelled corpus, and writing any corpus to disk.

Rules EVAL-39 and EVAL-40 in docs/spec/eval.md. The set (Smith and Troynikov, 2024; MIT
licence for the repository, the corpora's own sources vary) is not shipped in the wheel:
``load_chroma(DIR)`` reads a copy with ``corpora/*.md`` and ``questions_df.csv``.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ._gold import GoldSpan, SpanQuery
from ._labelled_corpus import Corpus, CorpusDocument, CorpusError

__all__ = ["load_chroma", "write_corpus"]


def load_chroma(directory: str | Path) -> Corpus:
    """Return Chroma's set: one document per corpus, one question class per corpus (EVAL-40).

    Each CSV row ``question, references, corpus_id`` becomes a query ``{corpus}-{n}`` (``n``
    counting that corpus's rows from 1) whose excerpts answer it together; an excerpt's
    ``content`` must equal ``corpus[start_index:end_index]``. Errors name the file and line.
    """
    root = Path(directory)
    folder = root / "corpora"
    if not folder.is_dir():
        raise CorpusError(f"{folder}: not a directory (expected Chroma's corpora/)", "directory")
    documents = tuple(
        CorpusDocument(path.stem, path.stem, _read(path, "directory"))
        for path in sorted(folder.glob("*.md"))
    )
    if not documents:
        raise CorpusError(f"{folder}: no .md corpora", "directory")
    texts = {doc.id: doc.text for doc in documents}
    table = root / "questions_df.csv"
    reader = csv.reader(io.StringIO(_read(table, "queries"), newline=""))
    header = next(reader, None)
    if header != ["question", "references", "corpus_id"]:
        raise CorpusError(f"{table}:1: expected the header question,references,corpus_id")
    queries: list[SpanQuery] = []
    counts: dict[str, int] = {}
    for row in reader:
        where = f"{table}:{reader.line_num}"
        if len(row) != 3:
            raise CorpusError(f"{where}: expected 3 fields, got {len(row)}")
        question, references, corpus_id = row
        if corpus_id not in texts:
            raise CorpusError(f"{where}: unknown corpus {corpus_id!r}")
        counts[corpus_id] = counts.get(corpus_id, 0) + 1
        spans = _references(where, references, corpus_id, texts[corpus_id])
        query_id = f"{corpus_id}-{counts[corpus_id]}"
        queries.append(SpanQuery(query_id, corpus_id, question, spans, together=True))
    if not queries:
        raise CorpusError(f"{table}: no questions")
    return Corpus("chroma", documents, tuple(queries))


def _read(path: Path, argument: str) -> str:
    """Return the strict UTF-8 text of ``path``, line endings untouched."""
    try:
        return path.read_bytes().decode("utf-8")
    except OSError as error:
        raise CorpusError(f"{path}: cannot read: {error.strerror or error}", argument) from None
    except UnicodeDecodeError as error:
        raise CorpusError(f"{path}: not valid UTF-8 (byte {error.start})", argument) from None


def _references(where: str, data: str, doc_id: str, text: str) -> tuple[GoldSpan, ...]:
    """Parse one ``references`` cell into spans, checking each excerpt against its text."""
    try:
        items = json.loads(data)
    except json.JSONDecodeError as error:
        raise CorpusError(f"{where}: references are not JSON ({error.msg})") from None
    if not isinstance(items, list) or not items:
        raise CorpusError(f"{where}: references must be a non-empty list")
    spans = []
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            raise CorpusError(f"{where}: references[{n}] must be an object")
        start, end, content = item.get("start_index"), item.get("end_index"), item.get("content")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
            raise CorpusError(f"{where}: references[{n}] offsets are not a range of {doc_id!r}")
        if content != text[start:end]:
            raise CorpusError(
                f"{where}: references[{n}] content does not match {doc_id!r}[{start}:{end}]"
            )
        spans.append(GoldSpan(doc_id, start, end))
    return tuple(spans)


def write_corpus(corpus: Corpus, directory: str | Path) -> None:
    """Write ``corpus`` in the documented layout: ``pages/*.md`` and ``queries.jsonl`` (EVAL-39).

    Gold spans are written as offsets with their quote, ``together`` only when true; the
    result loads back with ``load_corpus`` to the same document ids and texts, questions,
    classes and spans (titles are re-read from the first heading, EVAL-20).
    """
    root = Path(directory)
    pages = root / "pages"
    pages.mkdir(parents=True, exist_ok=True)
    for doc in corpus.documents:
        (pages / f"{doc.id}.md").write_bytes(doc.text.encode("utf-8"))
    lines = []
    for query in corpus.queries:
        record: dict[str, object] = {"id": query.id, "class": query.kind}
        record["question"] = query.question
        record["gold"] = [
            {
                "doc": s.doc_id,
                "start": s.start,
                "end": s.end,
                "quote": corpus.document(s.doc_id).text[s.start : s.end],
            }
            for s in query.gold
        ]
        if query.together:
            record["together"] = True
        lines.append(json.dumps(record, ensure_ascii=False))
    (root / "queries.jsonl").write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
