"""The hostile corpus (tests/hostile_corpus.py) through every path a user takes (CLI-17).

Each path -- ``chunk``, ``ingest`` with 1 and 2 workers, and the three framework
adapters -- must give every input its expected outcome: records, or one line (an error row
in ``ingest``) naming it with the expected reason; and the inputs chunked plus the inputs
reported must be exactly the inputs present, nothing lost, nothing doubled.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli import run_cli
from tests.hostile_corpus import IGNORED, LOCKED, refuse_listing, write_hostile_corpus

_ROOT = "corpus"


def _check(expected: dict[str, str | None], got: dict[str, list[str | None]]) -> None:
    """Every input has exactly one outcome, the expected one; no other path appears."""
    assert sorted(got) == sorted(expected), "inputs lost or invented"
    for path, outcomes in got.items():
        wanted = expected[path]
        if wanted is None:
            assert outcomes, path
            assert all(o is None for o in outcomes), (path, outcomes)
        else:
            assert len(outcomes) == 1, (path, outcomes)
            message = outcomes[0]
            assert message is not None, (path, "gave records, expected", wanted)
            assert re.fullmatch(wanted, message), (path, message, wanted)
    for ignored in IGNORED:
        assert ignored not in got


def _relative(source: str) -> str:
    """``corpus/x`` -> ``x``."""
    assert source.startswith(_ROOT + "/"), source
    return source[len(_ROOT) + 1 :]


Corpus = tuple[Path, dict[str, str | None], dict[str, Path]]


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Corpus:
    """The corpus in ``tmp_path/corpus``, the working directory ``tmp_path``, one folder
    unreadable."""
    expected, files = write_hostile_corpus(tmp_path / _ROOT)
    refuse_listing(monkeypatch, tmp_path / _ROOT / LOCKED)
    monkeypatch.chdir(tmp_path)
    return tmp_path, expected, files


def test_chunk_names_every_input(
    corpus: Corpus,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CLI-10, CLI-17, SOURCE-7: ``chunk --keep-going`` writes the records of every good input
    and one line for every other; the count line counts the inputs present."""
    _, expected, _ = corpus
    status, out, err = run_cli(["chunk", _ROOT, "--keep-going"], b"", monkeypatch, capsys)
    assert status == 2
    got: dict[str, list[str | None]] = {}
    for line in out.splitlines():
        record = json.loads(line)
        assert record["text"]
        got.setdefault(_relative(record["source"]), []).append(None)
    lines = err.splitlines()
    skipped = 0
    for line in lines[:-1]:
        body = line.removeprefix("chunkspec chunk: ")
        if body.startswith("skipped: "):
            body = body.removeprefix("skipped: ")
            skipped += 1
        name, _, reason = body.partition(": ")
        got.setdefault(_relative(name), []).append(reason)
    reported = sum(1 for outcome in expected.values() if outcome is not None)
    assert lines[-1] == (
        f"chunkspec chunk: error: {skipped} of {len(expected)} documents could not be read"
    )
    assert skipped == reported - sum(
        1 for outcome in expected.values() if outcome == "no text to chunk"
    )
    _check(expected, got)


@pytest.mark.parametrize(("workers", "output_format"), [("1", "jsonl"), ("2", "parquet")])
def test_ingest_names_every_input(
    workers: str,
    output_format: str,
    corpus: Corpus,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """SCALE-3, SCALE-7, CLI-17: ``ingest`` gives every input its records or one error row;
    the summary counts every input; any number of workers gives the same rows."""
    where, expected, _ = corpus
    argv = ["ingest", _ROOT, "--out", "out", "--workers", workers, "--format", output_format]
    status, out, err = run_cli(argv, b"", monkeypatch, capsys)
    assert status == 0, err
    errors = sum(1 for outcome in expected.values() if outcome is not None)
    assert out.startswith(f"{len(expected)} documents, ")
    assert f" chunks, {errors} errors, " in out
    if output_format == "jsonl":
        rows = [
            json.loads(line)
            for part in sorted((where / "out").glob("part-*.jsonl"))
            for line in part.read_text("utf-8").splitlines()
        ]
    else:
        import pyarrow.parquet as pq

        rows = pq.read_table(where / "out").to_pylist()
    got: dict[str, list[str | None]] = {}
    for row in rows:
        path = _relative(row["source"])
        if row["error"] is None:
            got.setdefault(path, []).append(None)
        else:
            prefix = f"{row['source']}: "
            assert row["error"].startswith(prefix), row["error"]
            got.setdefault(path, []).append(row["error"][len(prefix) :])
    _check(expected, got)
    stderr_errors = [line for line in err.splitlines() if line.startswith("chunkspec ingest: ")]
    assert len(stderr_errors) == errors


def _loaded(files: dict[str, Path]) -> list[tuple[str, str]]:
    """The text files a framework loader would give: (``str(path)``, text) for every input
    that decodes as UTF-8 (loaders read text, not PDFs), as ``TextLoader`` reads it."""
    loaded = []
    for _, path in sorted(files.items()):
        if path.suffix.lower() not in (".md", ".txt"):
            continue
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        loaded.append((str(path), text))
    return loaded


def _adapter_chunks(framework: str, loaded: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Run ``framework``'s adapter over the loaded files; return (source, text) per chunk."""
    options: dict[str, Any] = {"strategy": "heading", "max_tokens": 64}
    if framework == "langchain":
        pytest.importorskip("langchain_text_splitters")
        from langchain_core.documents import Document

        from chunkspec.integrations.langchain import ChunkspecSplitter

        splitter = ChunkspecSplitter(**options)
        docs = [Document(page_content=t, metadata={"source": s}) for s, t in loaded]
        return [(d.metadata["source"], d.page_content) for d in splitter.split_documents(docs)]
    if framework == "llama_index":
        pytest.importorskip("llama_index.core")
        from llama_index.core import Document as LlamaDocument

        from chunkspec.integrations.llama_index import ChunkspecNodeParser

        parser = ChunkspecNodeParser(**options)
        llama = [LlamaDocument(text=t, id_=s, metadata={"source": s}) for s, t in loaded]
        nodes = parser.get_nodes_from_documents(llama)
        return [(n.metadata["source"], n.get_content()) for n in nodes]
    pytest.importorskip("haystack")
    from haystack import Document as HaystackDocument

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    component = ChunkspecDocumentSplitter(**options)
    hay = [HaystackDocument(content=t, meta={"source": s}) for s, t in loaded]
    split = component.run(documents=hay)["documents"]
    return [(d.meta["source"], d.content) for d in split]


@pytest.mark.parametrize("framework", ["langchain", "llama_index", "haystack"])
def test_adapters_take_every_loaded_file(framework: str, corpus: Corpus) -> None:
    """ADAPT-1, ADAPT-2, SOURCE-7: every file a loader gives is chunked in one batch (two
    files with one text, a non-UTF-8 name among them); each non-blank one has chunks, each
    blank one none, and every chunk's text is in its file."""
    _, _, files = corpus
    loaded = _loaded(files)
    assert len(loaded) >= 15
    chunks = _adapter_chunks(framework, loaded)
    shown = {
        os.fsencode(source).decode("utf-8", "backslashreplace"): text for source, text in loaded
    }
    by_source: dict[str, list[str]] = {}
    for source, text in chunks:
        by_source.setdefault(source, []).append(text)
    for source, text in shown.items():
        if not text.strip():  # SOURCE-7 (WS-1: str.isspace)
            assert source not in by_source, source
        else:
            assert by_source.get(source), f"{source} gave no chunk"
            assert all(piece in text for piece in by_source[source])
    assert set(by_source) <= set(shown)
