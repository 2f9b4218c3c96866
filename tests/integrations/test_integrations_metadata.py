"""ADAPT-6, META-4: a document's metadata reaches every LangChain, LlamaIndex and Haystack chunk.

Seed 003's ``tenant_id``, ``corpus_id`` and ``acl_labels`` come in the framework document's
metadata; the front matter adds its fields under them. Every chunk carries them flat and in
its record's ``metadata``, unchanged, for every strategy.
"""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec import chunk_document, document_from_text

TEXT = (
    "---\ntitle: Access guide\ntenant_id: from-front-matter\nowner: docs-team\n---\n"
    "# Access guide\n\nWho may read what.\n\n## Labels\n\nEvery chunk keeps its labels.\n"
)
CALLER = {"doc_id": "guide", "tenant_id": "t-42", "corpus_id": "c-7", "acl_labels": ["eng", "hr"]}
#: META-3: the caller's keys win over the front matter's; ADAPT-2's doc_id is no metadata.
DOCUMENT = {
    "tenant_id": "t-42",
    "corpus_id": "c-7",
    "acl_labels": ["eng", "hr"],
    "owner": "docs-team",
    "title": "Access guide",
}
STRATEGIES = ["heading", "structural", "window", "pages"]


def _check(metadata: dict[str, Any], record_metadata: Any) -> None:
    """The chunk's flat keys and its record's metadata both hold the document's metadata."""
    assert {key: metadata[key] for key in DOCUMENT} == {**DOCUMENT, "title": "Access guide"}
    assert metadata["metadata"] == DOCUMENT
    assert record_metadata == {**DOCUMENT, "acl_labels": ("eng", "hr")}


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_core_records_carry_the_document_metadata(strategy: str) -> None:
    """META-4: chunk_document's records all hold the document's metadata, every strategy."""
    caller = {k: v for k, v in CALLER.items() if k != "doc_id"}
    records = chunk_document(
        document_from_text(TEXT, doc_id="guide", metadata=caller), strategy, max_tokens=6
    )
    assert len(records) > 1
    assert all(r.to_dict()["metadata"] == DOCUMENT for r in records)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_langchain_documents(strategy: str) -> None:
    """LangChain: every Document's metadata holds the document's metadata (ADAPT-6)."""
    langchain = pytest.importorskip("chunkspec.integrations.langchain")
    from langchain_core.documents import Document

    splitter = langchain.ChunkspecSplitter(strategy=strategy, max_tokens=6)
    chunks = splitter.split_documents([Document(page_content=TEXT, metadata=dict(CALLER))])
    assert len(chunks) > 1
    for chunk in chunks:
        _check(chunk.metadata, langchain.to_record(chunk).metadata)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_llama_index_nodes(strategy: str) -> None:
    """LlamaIndex: every TextNode's metadata holds the document's metadata (ADAPT-6)."""
    llama = pytest.importorskip("chunkspec.integrations.llama_index")
    from llama_index.core import Document

    parser = llama.ChunkspecNodeParser(strategy=strategy, max_tokens=6)
    nodes = parser([Document(text=TEXT, metadata=dict(CALLER))])
    assert len(nodes) > 1
    for node in nodes:
        _check(node.metadata, llama.to_record(node).metadata)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_haystack_documents(strategy: str) -> None:
    """Haystack: every Document's meta holds the document's metadata (ADAPT-6)."""
    hay = pytest.importorskip("chunkspec.integrations.haystack")
    from haystack import Document

    splitter = hay.ChunkspecDocumentSplitter(strategy=strategy, max_tokens=6)
    chunks = splitter.run(documents=[Document(content=TEXT, meta=dict(CALLER))])["documents"]
    assert len(chunks) > 1
    for chunk in chunks:
        _check(chunk.meta, hay.to_record(chunk).metadata)
