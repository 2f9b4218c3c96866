"""Properties of the corpus format's offsets and Chroma's set, rules EVAL-39 and EVAL-40."""

from __future__ import annotations

import csv
import io
import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec._evaluation._chroma_corpus import load_chroma, write_corpus
from chunkspec._evaluation._labelled_corpus import Corpus, CorpusDocument
from chunkspec.evaluation import GoldSpan, SpanQuery, load_corpus

words = st.lists(
    st.sampled_from(["ab", "ab", "cd", "\u00e9t\u00e9", "\U0001f600", "x\ty"]),
    min_size=1,
    max_size=8,
)


@st.composite
def corpora(draw: st.DrawFn) -> Corpus:
    """One or two documents of repeated words, and questions with non-blank spans."""
    docs = []
    for n in range(draw(st.integers(1, 2))):
        text = draw(st.sampled_from([" ", "\n", "\r\n"])).join(draw(words))
        docs.append(CorpusDocument(f"d{n}", f"d{n}", text))
    queries = []
    for n in range(draw(st.integers(1, 3))):
        spans = []
        for _ in range(draw(st.integers(1, 2))):
            doc = draw(st.sampled_from(docs))
            start = draw(st.integers(0, len(doc.text) - 1))
            end = draw(st.integers(start + 1, len(doc.text)))
            if not doc.text[start:end].strip():
                start, end = 0, len(doc.text)
            spans.append(GoldSpan(doc.id, start, end))
        together = draw(st.booleans())
        queries.append(
            SpanQuery(f"q{n}", draw(st.sampled_from(["a", "b"])), "?", tuple(spans), together)
        )
    return Corpus("c", tuple(docs), tuple(queries))


# Each example writes and reads files: 200 keep this under a few seconds.
@settings(max_examples=200)
@given(corpora())
def test_write_then_load_is_the_same_corpus(corpus: Corpus) -> None:
    """EVAL-39: offsets with their quote round-trip exactly, repeated quotes and all."""
    with tempfile.TemporaryDirectory() as folder:
        write_corpus(corpus, folder)
        again = load_corpus(folder)
    assert [(d.id, d.text) for d in again.documents] == [(d.id, d.text) for d in corpus.documents]
    assert [(q.id, q.kind, q.question, q.gold, q.together) for q in again.queries] == [
        (q.id, q.kind, q.question, q.gold, q.together) for q in corpus.queries
    ]


@settings(max_examples=200)  # files again
@given(corpora())
def test_chroma_rows_become_together_spans(corpus: Corpus) -> None:
    """EVAL-40: a row's excerpts are its spans, in order, answering together; ids per corpus."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["question", "references", "corpus_id"])
    rows = [q for q in corpus.queries if len({s.doc_id for s in q.gold}) == 1]
    for q in rows:
        text = corpus.document(q.gold[0].doc_id).text
        refs = [
            {"content": text[s.start : s.end], "start_index": s.start, "end_index": s.end}
            for s in q.gold
        ]
        writer.writerow([q.question, json.dumps(refs), q.gold[0].doc_id])
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "corpora").mkdir()
        for doc in corpus.documents:
            (root / "corpora" / f"{doc.id}.md").write_bytes(doc.text.encode("utf-8"))
        (root / "questions_df.csv").write_bytes(out.getvalue().encode("utf-8"))
        if not rows:
            return
        loaded = load_chroma(root)
    assert [q.gold for q in loaded.queries] == [q.gold for q in rows]
    assert all(q.together and q.kind == q.gold[0].doc_id for q in loaded.queries)
    seen: dict[str, int] = {}
    for q in loaded.queries:
        seen[q.kind] = seen.get(q.kind, 0) + 1
        assert q.id == f"{q.kind}-{seen[q.kind]}"
