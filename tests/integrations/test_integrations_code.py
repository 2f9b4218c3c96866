"""Source files through the framework adapters (CODE-1, ADAPT-1): with
``input_format="code"`` and ``strategy="code"``, a loader's document whose ``source`` is a
``.py`` path gives the records ``chunk_document`` gives the file read from disk, in
LangChain, LlamaIndex and Haystack alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec import chunk_document, read_document
from tests import frameworks  # noqa: F401  (telemetry off before any framework)

pytest.importorskip("tree_sitter")

FILE = Path(__file__).resolve().parents[2] / "src" / "chunkspec" / "_code" / "_offsets.py"
OPTIONS: dict[str, Any] = {"strategy": "code", "max_tokens": 60}


def _expected() -> list[tuple[str, int, int, tuple[str, ...]]]:
    document = read_document(FILE, doc_id="p")
    return [(r.text, r.start, r.end, r.heading_path) for r in chunk_document(document, **OPTIONS)]


def test_langchain() -> None:
    """CODE-1: the language comes from the loader's ``source``; the records are the file's."""
    pytest.importorskip("langchain_text_splitters")
    from langchain_core.documents import Document

    from chunkspec.integrations.langchain import ChunkspecSplitter

    splitter = ChunkspecSplitter(input_format="code", **OPTIONS)
    document = Document(
        page_content=FILE.read_text("utf-8"), metadata={"doc_id": "p", "source": str(FILE)}
    )
    chunks = splitter.split_documents([document])
    got = [
        (c.page_content, c.metadata["start"], c.metadata["end"], tuple(c.metadata["heading_path"]))
        for c in chunks
    ]
    assert [g[:3] for g in got] == [e[:3] for e in _expected()]
    assert any(len(g[3]) > 1 for g in got)  # scopes: the class and its methods


def test_llama_index() -> None:
    """CODE-1: LlamaIndex's node parser reads a source file by its syntax tree."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document

    from chunkspec.integrations.llama_index import ChunkspecNodeParser

    parser = ChunkspecNodeParser(input_format="code", **OPTIONS)
    nodes = parser.get_nodes_from_documents(
        [Document(text=FILE.read_text("utf-8"), metadata={"doc_id": "p", "source": str(FILE)})]
    )
    got = [(n.text, n.metadata["start"], n.metadata["end"]) for n in nodes]
    assert got == [e[:3] for e in _expected()]


def test_haystack() -> None:
    """CODE-1: Haystack's splitter reads a source file by its syntax tree."""
    pytest.importorskip("haystack")
    from haystack import Document

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    splitter = ChunkspecDocumentSplitter(input_format="code", **OPTIONS)
    meta = {"doc_id": "p", "source": str(FILE)}
    out = splitter.run([Document(content=FILE.read_text("utf-8"), meta=meta)])
    got = [(d.content, d.meta["start"], d.meta["end"]) for d in out["documents"]]
    assert got == [e[:3] for e in _expected()]
