"""Web pages through the framework adapters (HTML-17, ADAPT-1): a document whose text is a
page's markup, with ``input_format="html"``, gives the records ``chunk_document`` gives the
page read from its bytes, in LangChain, LlamaIndex and Haystack alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec import chunk_document, document_from_bytes
from tests import frameworks  # noqa: F401  (telemetry off before any framework)

PAGE = Path(__file__).parent.parent / "data" / "html" / "nodejs-single-executable-applications.html"
OPTIONS: dict[str, Any] = {"strategy": "structural", "max_tokens": 80}


def _expected(doc_id: str) -> list[tuple[str, int, int]]:
    document = document_from_bytes(PAGE.read_bytes(), doc_id=doc_id, name=PAGE.name)
    return [(r.text, r.start, r.end) for r in chunk_document(document, **OPTIONS)]


def test_langchain() -> None:
    """HTML-17: LangChain's splitter reads the page's markup as a page."""
    pytest.importorskip("langchain_text_splitters")
    from langchain_core.documents import Document

    from chunkspec.integrations.langchain import ChunkspecSplitter

    splitter = ChunkspecSplitter(input_format="html", **OPTIONS)
    markup = PAGE.read_text("utf-8")
    chunks = splitter.split_documents([Document(page_content=markup, metadata={"doc_id": "p"})])
    got = [(c.page_content, c.metadata["start"], c.metadata["end"]) for c in chunks]
    assert got == _expected("p")
    assert "<" not in chunks[0].page_content  # the page's text, not its markup


def test_llama_index() -> None:
    """HTML-17: LlamaIndex's node parser reads the page's markup as a page."""
    pytest.importorskip("llama_index.core")
    from llama_index.core import Document

    from chunkspec.integrations.llama_index import ChunkspecNodeParser

    parser = ChunkspecNodeParser(input_format="html", **OPTIONS)
    nodes = parser.get_nodes_from_documents(
        [Document(text=PAGE.read_text("utf-8"), metadata={"doc_id": "p"})]
    )
    got = [(n.text, n.metadata["start"], n.metadata["end"]) for n in nodes]
    assert got == _expected("p")


def test_haystack() -> None:
    """HTML-17: Haystack's splitter reads the page's markup as a page."""
    pytest.importorskip("haystack")
    from haystack import Document

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    splitter = ChunkspecDocumentSplitter(input_format="html", **OPTIONS)
    out = splitter.run([Document(content=PAGE.read_text("utf-8"), meta={"doc_id": "p"})])
    got = [(d.content, d.meta["start"], d.meta["end"]) for d in out["documents"]]
    assert got == _expected("p")
