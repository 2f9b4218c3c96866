"""One table of options through every entry point: the same records everywhere (OPT-1, OPT-6).

``chunk_document`` (with a ChunkOptions and with keywords), ``chunkspec.arrow.chunk_table``,
the LangChain, LlamaIndex and Haystack adapters, ``chunkspec chunk`` and ``chunkspec ingest``
(local engine, in-process and with worker processes) are given each row of :data:`TABLE`
and must write the records ``chunk_document`` writes. The Ray engine is held to the same
table in tests/test_ray_engine.py.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from chunkspec import ChunkOptions, ChunkRecord, chunk_document, document_from_text
from chunkspec._cli import main
from tests import tiny_tiktoken
from tests.frameworks import no_network

#: A Markdown document with headings, a table, code and prose of several sizes.
TEXT = """\
# Guide

Intro words that open the guide and say what it holds, in one short paragraph.

## Install

Run the installer. It asks two questions and then copies the files into place.

| step | what |
| --- | --- |
| 1 | download |
| 2 | unpack the archive |
| 3 | run setup |

```sh
./setup --prefix /opt/x
```

## Use

Open the program. Pick a file. The program reads it and writes a report beside it;
the report lists every section with its size. A second paragraph follows here.

Last words.
"""

#: Each row: an id and the options as ChunkOptions keywords; ``encoding_file`` True means
#: the tiny tiktoken encoding's rank file (COUNT-9), registered for the test.
TABLE: list[tuple[str, dict[str, Any]]] = [
    ("heading-default", {"strategy": "heading", "max_tokens": 24}),
    ("heading-overlap-chars4", {"strategy": "heading", "max_tokens": 40, "overlap_tokens": 5,
                                "counter": "chars4"}),
    ("structural-flags", {"strategy": "structural", "max_tokens": 16, "count_headings": True,
                          "split_tables": True}),
    ("recursive", {"strategy": "recursive", "max_tokens": 10}),
    ("window-chars1", {"strategy": "window", "max_tokens": 60, "overlap_tokens": 7,
                       "counter": "chars1"}),
    ("pages", {"strategy": "pages", "max_tokens": 20}),
    ("heading-tiktoken-file", {"strategy": "heading", "max_tokens": 30,
                               "counter": f"tiktoken:{tiny_tiktoken.NAME}",
                               "encoding_file": True}),
    ("window-tiktoken-file", {"strategy": "window", "max_tokens": 12, "overlap_tokens": 2,
                              "counter": f"tiktoken:{tiny_tiktoken.NAME}",
                              "encoding_file": True}),
]  # fmt: skip

SOURCE = "corpus/doc.md"


@pytest.fixture
def rank_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The tiny encoding registered, its rank file on disk, the network blocked, and the
    working directory a fresh folder holding ``corpus/doc.md``."""
    no_network(monkeypatch)
    path = tiny_tiktoken.register(monkeypatch, tmp_path)
    work = tmp_path / "work"
    (work / "corpus").mkdir(parents=True)
    (work / SOURCE).write_text(TEXT, "utf-8")
    monkeypatch.chdir(work)
    return path


def options_of(row: dict[str, Any], rank_file: Path) -> ChunkOptions:
    """The row's ChunkOptions, its encoding file made a path."""
    fields = dict(row)
    if fields.get("encoding_file"):
        fields["encoding_file"] = str(rank_file)
    return ChunkOptions(**fields)


def argv_of(options: ChunkOptions) -> list[str]:
    """The command-line flags that state ``options`` (docs/cli.md, OPT-6)."""
    argv = ["--strategy", options.strategy, "--max-tokens", str(options.max_tokens)]
    if options.overlap_tokens is not None:
        argv += ["--overlap-tokens", str(options.overlap_tokens)]
    assert isinstance(options.counter, str)
    argv += ["--counter", options.counter]
    if options.encoding_file is not None:
        argv += ["--encoding-file", options.encoding_file]
    argv += ["--count-headings"] if options.count_headings else []
    argv += ["--split-tables"] if options.split_tables else []
    return argv


def _library(options: ChunkOptions) -> list[ChunkRecord]:
    """chunk_document with the options object."""
    return chunk_document(document_from_text(TEXT, doc_id="doc", source=SOURCE), options)


def _keywords(options: ChunkOptions) -> list[ChunkRecord]:
    """chunk_document with the same options as keywords."""
    fields = options.to_dict()
    strategy = fields.pop("strategy")
    document = document_from_text(TEXT, doc_id="doc", source=SOURCE)
    return chunk_document(document, strategy, **fields)


def _arrow(options: ChunkOptions) -> list[ChunkRecord]:
    """chunkspec.arrow.chunk_table over a one-row table."""
    pa = pytest.importorskip("pyarrow")
    from chunkspec.arrow import chunk_table

    table = pa.table({"doc_id": ["doc"], "source": [SOURCE], "text": [TEXT]})
    rows = chunk_table(table, options=options).to_pylist()
    assert all(row.pop("error") is None for row in rows)
    for row in rows:
        row["metadata"] = json.loads(row["metadata"])  # META-6: a JSON text column
    return [ChunkRecord.from_dict(row) for row in rows]


_METADATA = {"doc_id": "doc", "source": SOURCE}


def _langchain(options: ChunkOptions) -> list[ChunkRecord]:
    """The LangChain splitter, split_documents."""
    adapter = pytest.importorskip("chunkspec.integrations.langchain")
    from langchain_core.documents import Document

    splitter = adapter.ChunkspecSplitter(options=options)
    chunks = splitter.split_documents([Document(page_content=TEXT, metadata=_METADATA)])
    return [adapter.to_record(c) for c in chunks]


def _llama_index(options: ChunkOptions) -> list[ChunkRecord]:
    """The LlamaIndex node parser."""
    adapter = pytest.importorskip("chunkspec.integrations.llama_index")
    from llama_index.core import Document

    parser = adapter.ChunkspecNodeParser(options=options)
    nodes = parser.get_nodes_from_documents([Document(text=TEXT, metadata=_METADATA)])
    return [adapter.to_record(n) for n in nodes]


def _haystack(options: ChunkOptions) -> list[ChunkRecord]:
    """The Haystack component."""
    adapter = pytest.importorskip("chunkspec.integrations.haystack")
    from haystack import Document

    splitter = adapter.ChunkspecDocumentSplitter(options=options)
    out = splitter.run([Document(content=TEXT, meta=_METADATA)])["documents"]
    return [adapter.to_record(d) for d in out]


def _read_jsonl(path: Path) -> list[ChunkRecord]:
    """Records from a JSON Lines file."""
    lines = path.read_text("utf-8").splitlines()
    return [ChunkRecord.from_dict(json.loads(line)) for line in lines]


def _cli_chunk(options: ChunkOptions) -> list[ChunkRecord]:
    """``chunkspec chunk`` with the options' flags."""
    assert main(["chunk", SOURCE, *argv_of(options), "-o", "chunk.jsonl"]) == 0
    return _read_jsonl(Path("chunk.jsonl"))


def _cli_ingest(options: ChunkOptions) -> list[ChunkRecord]:
    """``chunkspec ingest`` (local engine, JSON Lines) with the options' flags."""
    argv = ["ingest", "corpus", "--out", "out", "--format", "jsonl", "--workers", "1"]
    argv += ["--progress", "never"]
    assert main([*argv, *argv_of(options)]) == 0
    rows = [
        json.loads(line)
        for part in sorted(Path("out").glob("part-*.jsonl"))
        for line in part.read_text("utf-8").splitlines()
    ]
    assert all(row.pop("error") is None for row in rows)
    return [ChunkRecord.from_dict(row) for row in rows]


ENTRY_POINTS: dict[str, Callable[[ChunkOptions], list[ChunkRecord]]] = {
    "chunk_document keywords": _keywords,
    "chunk_table": _arrow,
    "langchain": _langchain,
    "llama_index": _llama_index,
    "haystack": _haystack,
    "chunkspec chunk": _cli_chunk,
    "chunkspec ingest": _cli_ingest,
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize(("name", "row"), TABLE, ids=[name for name, _ in TABLE])
def test_every_entry_point_writes_the_same_records(
    rank_file: Path,
    capsys: pytest.CaptureFixture[str],
    entry: str,
    name: str,
    row: dict[str, Any],
) -> None:
    """OPT-1, OPT-6: one options row gives chunk_document's records at every entry point."""
    options = options_of(row, rank_file)
    expected = _library(options)
    assert expected, name
    got = ENTRY_POINTS[entry](options)
    assert got == expected
    assert capsys.readouterr().err == ""  # nothing on stderr


PLUGIN = """\
from tests.tiny_tiktoken import NAME, constructor

ENCODING_CONSTRUCTORS = {NAME: constructor}
"""


def test_ingest_workers_register_the_encoding_file(
    rank_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """OPT-3, COUNT-9: the job reaches worker processes as one value and each worker builds
    the counter from the encoding file inside it (the parent's registration is not shared
    with a spawned worker). The tiny encoding is a tiktoken plugin for the workers too."""
    from chunkspec._cli._ingest_local import Item, run_local
    from chunkspec._records._rows import ChunkJob

    plugin = tmp_path / "plugin"
    (plugin / "tiktoken_ext").mkdir(parents=True)
    (plugin / "tiktoken_ext" / "chunkspec_tiny_test.py").write_text(PLUGIN, "utf-8")
    root = str(Path(__file__).resolve().parents[2])
    paths = [str(plugin), root, os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    monkeypatch.syspath_prepend(str(plugin))
    Path("corpus/two.md").write_text(TEXT.replace("Guide", "Second"), "utf-8")
    options = options_of(dict(TABLE[-2][1]), rank_file)
    job = ChunkJob(options)
    groups: list[list[Item]] = [
        [(SOURCE, "doc", SOURCE, None, None)],
        [("corpus/two.md", "two", "corpus/two.md", None, None)],
    ]
    rows: list[dict[str, Any]] = []
    run_local(groups, job, 2, rows.extend)
    assert all(row["error"] is None for row in rows), rows[:1]
    got = [ChunkRecord.from_dict({k: v for k, v in r.items() if k != "error"}) for r in rows]
    want = _library(options) + chunk_document(
        document_from_text(TEXT.replace("Guide", "Second"), doc_id="two", source="corpus/two.md"),
        options,
    )
    assert got == want


def test_counter_object_or_name() -> None:
    """OPT-2, OPT-3: a counter object gives the records its name gives, and to_dict
    carries it by that name."""
    from chunkspec.counters import CharEstimateCounter

    document = document_from_text(TEXT, doc_id="doc")
    by_name = chunk_document(document, "window", max_tokens=30, counter="chars4")
    by_object = chunk_document(document, "window", max_tokens=30, counter=CharEstimateCounter(4))
    assert by_object == by_name
    options = ChunkOptions("window", 30, counter=CharEstimateCounter(4))
    assert options.to_dict()["counter"] == "chars4"
    assert ChunkOptions.from_dict(options.to_dict()) == options.replace(counter="chars4")
