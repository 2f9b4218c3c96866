"""Chroma's evaluation set (EVAL-40) and the corpus format's offsets (EVAL-39).

The goldens use small files; the real set is read from ``<repo>/../shared/data/`` when a copy
is there (CI puts one beside the clone) and the tests skip, saying so, when it is not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec._cli import main
from chunkspec._evaluation._chroma_corpus import load_chroma, write_corpus
from chunkspec._evaluation._labelled_corpus import CorpusError
from chunkspec.evaluation import load_corpus

from .. import goldens

ROOT = Path(__file__).resolve().parents[2]
CHROMA = ROOT.parent / "shared" / "data" / "chroma-chunking-evaluation"


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    root.mkdir(parents=True, exist_ok=True)
    return root


@pytest.mark.parametrize("case", goldens.cases("load_chroma"))
def test_load_chroma(case: dict[str, Any], tmp_path: Path) -> None:
    root = _write(tmp_path / "set", case["input"]["files"])
    if "error" in case:
        with pytest.raises(CorpusError) as info:
            load_chroma(root)
        assert info.value.argument == case["error"]["argument"]
        return
    corpus = load_chroma(root)
    assert [[d.id, d.title] for d in corpus.documents] == case["output"]["documents"]
    assert [
        [q.id, q.kind, q.question, [[s.doc_id, s.start, s.end] for s in q.gold], q.together]
        for q in corpus.queries
    ] == case["output"]["queries"]


def test_chroma_errors_name_file_and_line(tmp_path: Path) -> None:
    """EVAL-40: the message names the CSV file and the line the row ends on."""
    case = next(c for c in goldens.load_file("load_chroma")["cases"] if c["id"] == "two-rows")
    files = dict(case["input"]["files"])
    files["questions_df.csv"] = files["questions_df.csv"].replace("Line one.", "Line 1.")
    root = _write(tmp_path / "set", files)
    with pytest.raises(CorpusError) as info:
        load_chroma(root)
    table = root / "questions_df.csv"
    assert str(info.value) == (f"{table}:3: references[1] content does not match 'story'[0:9]")


def test_offset_mismatch_names_file_and_line(tmp_path: Path) -> None:
    """EVAL-39: a quote that does not match its offsets: one line naming FILE:LINE."""
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.md").write_text("alpha beta", "utf-8")
    queries = tmp_path / "queries.jsonl"
    queries.write_text(
        '\n{"id": "q", "class": "c", "question": "?", '
        '"gold": [{"doc": "a", "start": 0, "end": 5, "quote": "beta"}]}\n',
        "utf-8",
    )
    with pytest.raises(CorpusError) as info:
        load_corpus(tmp_path)
    assert str(info.value) == (
        f"{queries}:2: gold[0]: 'quote' does not match 'a'[0:5] ('alpha'...)"
    )


def test_cli_corpus_option_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-39: --corpus DIR is CORPUS; giving both, or --queries with --chroma, is an error."""
    pytest.importorskip("bm25s")
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "a.md").write_text("alpha beta gamma", "utf-8")
    (tmp_path / "queries.jsonl").write_text(
        '{"id": "q", "class": "c", "question": "beta?", '
        '"gold": [{"doc": "a", "start": 6, "end": 10}]}\n',
        "utf-8",
    )
    argv = ["eval", "--strategies", "fixed-2", "--bootstrap", "0"]
    assert main([*argv, "--corpus", str(tmp_path)]) == 0
    by_option = capsys.readouterr().out
    assert main([*argv, str(tmp_path)]) == 0
    assert capsys.readouterr().out == by_option
    assert main([*argv, str(tmp_path), "--corpus", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "chunkspec eval: error: give CORPUS or --corpus/--chroma, not both\n"
    )
    assert main([*argv, "--chroma", str(tmp_path), "--queries", "q.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "chunkspec eval: error: --queries does not apply to --chroma\n"
    )
    assert main([*argv, "--chroma", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("chunkspec eval: error: ")
    assert err.count("\n") == 1


def test_empty_corpus_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-39: an empty corpus directory: one line naming it, exit 2."""
    assert main(["eval", "--corpus", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"chunkspec eval: error: {tmp_path}: no .md or .txt pages\n"


@pytest.fixture
def chroma() -> Path:
    if not (CHROMA / "questions_df.csv").is_file():
        pytest.skip(f"Chroma's evaluation set is not at {CHROMA} (see docs/evaluation.md)")
    return CHROMA


def test_real_chroma_set(chroma: Path, tmp_path: Path) -> None:
    """EVAL-40: 5 corpora, 472 questions, 790 excerpts, all checked; the round trip holds."""
    corpus = load_chroma(chroma)
    assert [d.id for d in corpus.documents] == [
        "chatlogs",
        "finance",
        "pubmed",
        "state_of_the_union",
        "wikitexts",
    ]
    assert len(corpus.queries) == 472
    assert sum(len(q.gold) for q in corpus.queries) == 790
    assert all(q.together for q in corpus.queries)
    write_corpus(corpus, tmp_path / "c")
    again = load_corpus(tmp_path / "c")
    assert [(d.id, d.text) for d in again.documents] == [(d.id, d.text) for d in corpus.documents]
    assert [(q.id, q.kind, q.question, q.gold, q.together) for q in again.queries] == [
        (q.id, q.kind, q.question, q.gold, q.together) for q in corpus.queries
    ]


def test_write_corpus_command(
    chroma: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """EVAL-39: --write-corpus converts what was loaded and exits."""
    out = tmp_path / "c"
    assert main(["eval", "--chroma", str(chroma), "--write-corpus", str(out)]) == 0
    assert capsys.readouterr().out == "wrote 5 documents, 472 questions\n"
    assert len(load_corpus(out).queries) == 472
