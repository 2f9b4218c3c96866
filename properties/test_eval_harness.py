"""Properties of the harness as a whole: hooks, loader, bundled corpus, BM25, evaluate and the
table (rules EVAL-19, EVAL-20, EVAL-23, EVAL-24, EVAL-26 to EVAL-29)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chunkspec
import chunkspec.evaluation
from chunkspec._cli._eval_command import format_table
from chunkspec._evaluation._evaluate import ALL, StrategyStats
from chunkspec._evaluation._strategy_names import indexed_text, resolve
from chunkspec.evaluation import EvalCell, EvalReport, evaluate, load_corpus

# --- EVAL-19: the headed families keep the chunkers' own provenance -----------------------------

markdown = st.lists(
    st.sampled_from(
        [
            "# T",
            "## S",
            "### U",
            "word word",
            "more text here",
            "| a | b |",
            "| - | - |",
            "| 1 | 2 |",
            "- item",
            "1. step",
            "```",
            "code line",
            "",
        ]
    ),
    max_size=16,
).map("\n".join)


@given(markdown, st.sampled_from([None, 4, 16]))
def test_structural_adapter_is_split_markdown(source: str, budget: int | None) -> None:
    """EVAL-19, EVAL-41: structural[-N] records are split_markdown's regions and texts, ids
    d:n, indexing split_markdown's embedding_text (unbudgeted: 2**53-1 tokens, the same)."""
    name = "structural" if budget is None else f"structural-{budget}"
    got = [(c.id, c.start, c.end, c.text, indexed_text(c)) for c in resolve(name)("d", "T", source)]
    want = [
        (f"d:{n}", c.start, c.end, c.text, c.embedding_text)
        for n, c in enumerate(chunkspec.split_markdown("d", source, budget))
    ]
    assert got == want


@given(markdown, st.integers(2, 24), st.data())
def test_heading_aware_adapter_is_the_chunker(source: str, size: int, data: st.DataObject) -> None:
    """EVAL-19, EVAL-41: heading-aware-N-O records are HeadingAwareChunker(N, O)'s chunks, in
    order, ids d:n, indexing the chunker's embedding_text; text == slice."""
    overlap = data.draw(st.integers(0, size - 1))
    got = resolve(f"heading-aware-{size}-{overlap}")("d", "T", source)
    chunker = chunkspec.HeadingAwareChunker(size, overlap)
    want = chunker.chunk(chunkspec.parse_markdown("d", source))
    assert [(c.id, c.start, c.end, indexed_text(c)) for c in got] == [
        (f"d:{n}", c.start, c.end, c.embedding_text) for n, c in enumerate(want)
    ]
    assert all(c.text == source[c.start : c.end] for c in got)


@given(markdown, st.integers(2, 24), st.booleans())
def test_merge_suffix_is_chunk_documents_default(source: str, size: int, heading: bool) -> None:
    """EVAL-44: a headed name with ``+merge`` gives chunk_document's default records (SIZE-2's
    min_tokens), and never a record made of a heading alone where the merge fits; without
    it, min_tokens=0."""
    family, strategy = ("heading-aware", "heading") if heading else ("structural", "structural")
    name = f"{family}-{size}"
    document = chunkspec.document_from_text(source, doc_id="d", title="T", input_format="markdown")
    merged = [r.to_dict() for r in resolve(name + "+merge")("d", "T", source)]
    words = "whitespace"  # EVAL-18: a name's budget is in words, not SCRIPT-35's default
    default = chunkspec.chunk_document(document, strategy, max_tokens=size, counter=words)
    assert merged == [r.to_dict() for r in default]
    seed = [r.to_dict() for r in resolve(name)("d", "T", source)]
    unmerged = chunkspec.chunk_document(
        document, strategy, max_tokens=size, min_tokens=0, counter=words
    )
    assert seed == [r.to_dict() for r in unmerged]
    # Merging never adds records, except MD-19: a document of headings only has none
    # without min_tokens and its headings' run with it.
    assert len(merged) <= len(seed) or (not seed and all(r["tokens"] > 0 for r in merged))


# --- EVAL-20: the loader ----------------------------------------------------------------------

page_lines = st.sampled_from(
    ["# Title", "## Sub ##", "#NoSpace", "plain text", "####### seven", "#\tTab", "  # indented"]
)


def _title_model(stem: str, text: str) -> str:
    """The first line opening with 1-6 '#' then a space or tab; its text without closing #s."""
    for line in text.split("\n"):
        hashes = len(line) - len(line.lstrip("#"))
        if 1 <= hashes <= 6 and line[hashes : hashes + 1] in (" ", "\t"):
            return line[hashes:].strip(" \t").rstrip("#").rstrip(" \t")
    return stem


@settings(max_examples=50)
@given(
    st.dictionaries(
        st.sampled_from(["b", "a", "c2", "z"]), st.lists(page_lines, max_size=5), min_size=1
    )
)
def test_loader_ids_and_titles(pages: dict[str, list[str]]) -> None:
    """EVAL-20: documents in file-name order; id is the stem; title as the literal model."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pages").mkdir()
        texts = {stem: "\n".join(lines) + "\nanchor-" + stem for stem, lines in pages.items()}
        for stem, text in texts.items():
            (root / "pages" / f"{stem}.md").write_text(text, "utf-8", newline="")
        stem0 = sorted(texts)[0]
        record = {
            "id": "q",
            "class": "c",
            "question": "?",
            "gold": [{"doc": stem0, "quote": f"anchor-{stem0}"}],
        }
        (root / "queries.jsonl").write_text(json.dumps(record) + "\n", "utf-8")
        corpus = load_corpus(root)
    assert [d.id for d in corpus.documents] == sorted(texts)
    assert [d.title for d in corpus.documents] == [_title_model(s, texts[s]) for s in sorted(texts)]


# --- EVAL-23: the bundled corpus --------------------------------------------------------------

_BUNDLED = load_corpus()


@given(st.sampled_from(_BUNDLED.queries))
def test_bundled_gold_is_trimmed_and_unique(query: chunkspec.evaluation.SpanQuery) -> None:
    """EVAL-23: every bundled gold span is a trimmed text found exactly once in its page."""
    for span in query.gold:
        text = _BUNDLED.document(span.doc_id).text
        quote = text[span.start : span.end]
        assert quote == quote.strip()
        assert text.count(quote) == 1
    assert query.kind in ("prose", "identifier")


# --- EVAL-24: BM25 retrieves exactly the chunks that share a term -----------------------------

vocabulary = ["kettle", "refund", "warranty", "delivery", "zone", "sku", "40217", "locker"]


@given(
    st.lists(st.lists(st.sampled_from(vocabulary), min_size=1, max_size=6), min_size=1, max_size=8),
    st.lists(st.sampled_from(vocabulary), min_size=1, max_size=3),
)
def test_bm25_scores_shared_terms_only(texts: list[list[str]], question: list[str]) -> None:
    """EVAL-24: a chunk scores > 0 iff it shares a (non-stop-word) term with the question."""
    pytest.importorskip("bm25s")
    from chunkspec._evaluation._retrievers import make_scorer

    (row,) = make_scorer("bm25", [" ".join(t) for t in texts]).scores([" ".join(question)])
    for words, score in zip(texts, row, strict=True):
        assert (score > 0) is bool(set(words) & set(question))


# --- EVAL-26 to EVAL-28: evaluate's report ----------------------------------------------------


@st.composite
def tiny_corpora(draw: st.DrawFn) -> tuple[dict[str, str], list[dict[str, object]]]:
    """Pages of distinct words (so every run of words is unique) and questions on them."""
    words = [f"w{i}x" for i in range(60)]  # no word is a substring of another
    order = draw(st.permutations(words))
    cut = draw(st.integers(5, 55))
    pages = {"p": order[:cut], "q": order[cut:]}
    queries: list[dict[str, object]] = []
    for n in range(draw(st.integers(1, 6))):
        doc = draw(st.sampled_from(sorted(pages)))
        seq = pages[doc]
        i = draw(st.integers(0, len(seq) - 1))
        j = draw(st.integers(i + 1, min(len(seq), i + 4)))
        asked = draw(st.lists(st.sampled_from(words), min_size=1, max_size=3))
        queries.append(
            {
                "id": f"q{n}",
                "class": draw(st.sampled_from(["prose", "identifier"])),
                "question": " ".join(asked),
                "gold": [{"doc": doc, "quote": " ".join(seq[i:j])}],
            }
        )
    return {k: " ".join(v) for k, v in pages.items()}, queries


@settings(max_examples=40)
@given(
    tiny_corpora(),
    st.lists(st.sampled_from(["fixed-3", "recursive-4", "window-5-2"]), min_size=1, max_size=3),
    st.integers(1, 6),
)
def test_report_shape_and_bounds(
    data: tuple[dict[str, str], list[dict[str, object]]], names: list[str], k: int
) -> None:
    """EVAL-26, EVAL-27, EVAL-28: cells per class in order then all; all is the weighted
    mean; context <= recall; mrr <= recall <= answerable."""
    pytest.importorskip("bm25s")
    pages, queries = data
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "pages").mkdir()
        for stem, text in pages.items():
            (root / "pages" / f"{stem}.md").write_text(text, "utf-8")
        lines = "".join(json.dumps(q) + "\n" for q in queries)
        (root / "queries.jsonl").write_text(lines, "utf-8")
        corpus = load_corpus(root)
    report = evaluate(corpus, names, "bm25", k)
    unique = list(dict.fromkeys(names))
    classes = [*corpus.classes, ALL]
    assert [(c.question_class, c.strategy) for c in report.cells] == [
        (kind, name) for name in unique for kind in classes
    ]
    for name in unique:
        cells = {c.question_class: c for c in report.cells if c.strategy == name}
        total = cells[ALL]
        assert total.queries == len(queries)
        for field in ("recall", "mrr", "context_recall", "answerable"):
            weighted = sum(getattr(cells[k], field) * cells[k].queries for k in corpus.classes)
            assert abs(getattr(total, field) - weighted / total.queries) < 1e-12
        for c in cells.values():
            assert 0 <= c.mrr <= c.recall <= c.answerable <= 1
            assert c.context_recall <= c.recall


# --- EVAL-29: the printed table ---------------------------------------------------------------

unit = st.floats(min_value=0, max_value=1)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["prose", "identifier", "all"]),
            st.sampled_from(["fixed-512", "structural", "w"]),
            st.integers(1, 300),
            unit,
            unit,
            unit,
            unit,
        ),
        min_size=1,
        max_size=9,
    ),
    st.integers(1, 50),
)
def test_table_rows_are_the_cells(
    rows: list[tuple[str, str, int, float, float, float, float]], k: int
) -> None:
    """EVAL-29: a header, a column line, then one line per cell grouped by class in order of
    first appearance, each value with two decimals."""
    cells = tuple(EvalCell(c, s, n, r, m, x, a) for c, s, n, r, m, x, a in rows)
    report = EvalReport("x", "bm25", k, 3200, 0.35, 1.0, (StrategyStats("s", 1, 1.0),), cells)
    lines = format_table(report).splitlines()
    assert lines[0].startswith(f"# corpus x, retriever bm25, k {k}, budget 3200")
    assert lines[1].split()[3:5] == [f"recall@{k}", f"mrr@{k}"]
    order = list(dict.fromkeys(c.question_class for c in cells))
    expected = sorted(cells, key=lambda c: order.index(c.question_class))
    assert len(lines) == 2 + len(cells)
    for line, c in zip(lines[2:], expected, strict=True):
        assert line.split() == [
            c.question_class,
            c.strategy,
            f"{c.recall:.2f}",
            f"{c.mrr:.2f}",
            f"{c.context_recall:.2f}",
            f"{c.answerable:.2f}",
            str(c.queries),
        ]
