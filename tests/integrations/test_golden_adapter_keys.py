"""Golden cases of the frameworks' incremental flows, tests/golden/adapter_keys.json (ADAPT-8/9)."""

from __future__ import annotations

from typing import Any

import pytest

import tests.frameworks  # noqa: F401  # telemetry off before any framework import
from chunkspec import chunk_document, document_from_text
from tests import goldens


def _keys(text: str, options: dict[str, Any]) -> list[str]:
    """The records' keys for the page (doc_id ``returns``)."""
    document = document_from_text(text, doc_id="returns", input_format="markdown")
    return [r.key for r in chunk_document(document, **options)]


def _langchain(options: dict[str, Any], pages: list[str]) -> tuple[list[list[str]], int, int]:
    """Chunk ids per page, then index() both pages: (ids, added after the edit, deleted)."""
    from langchain_core.documents import Document
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.indexing import InMemoryRecordManager, index
    from langchain_core.vectorstores import InMemoryVectorStore

    from chunkspec.integrations.langchain import ChunkspecSplitter

    splitter = ChunkspecSplitter(**options)
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=8))
    manager = InMemoryRecordManager(namespace="golden")
    manager.create_schema()
    ids: list[list[str]] = []
    result: Any = {}
    for page in pages:
        chunks = splitter.split_documents(
            [Document(page_content=page, metadata={"doc_id": "returns"})]
        )
        ids.append([c.id or "" for c in chunks])
        result = index(
            chunks,
            manager,
            store,
            cleanup="incremental",
            source_id_key="doc_id",
            key_encoder=lambda doc: doc.id or "",
        )
    return ids, result["num_added"], result["num_deleted"]


def _llama_index(options: dict[str, Any], pages: list[str]) -> tuple[list[list[str]], int, None]:
    """Node ids per page; the nodes of the edited page a docstore does not hold yet."""
    from llama_index.core import Document
    from llama_index.core.storage.docstore import SimpleDocumentStore

    from chunkspec.integrations.llama_index import ChunkspecNodeParser

    parser = ChunkspecNodeParser(**options)
    docstore = SimpleDocumentStore()
    ids, new = [], 0
    for page in pages:
        nodes = parser.get_nodes_from_documents([Document(text=page, id_="returns")])
        ids.append([n.node_id for n in nodes])
        fresh = [n for n in nodes if not docstore.document_exists(n.node_id)]
        new = len(fresh)
        docstore.add_documents(fresh)
    return ids, new, None


def _haystack(options: dict[str, Any], pages: list[str]) -> tuple[list[list[str]], int, None]:
    """Document ids per page; what DuplicatePolicy.SKIP writes for the edited page."""
    from haystack import Document
    from haystack.document_stores.in_memory import InMemoryDocumentStore
    from haystack.document_stores.types import DuplicatePolicy

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    splitter = ChunkspecDocumentSplitter(**options)
    store = InMemoryDocumentStore()
    ids, written = [], 0
    for page in pages:
        chunks = splitter.run([Document(content=page, meta={"doc_id": "returns"})])["documents"]
        ids.append([c.id for c in chunks])
        written = store.write_documents(chunks, policy=DuplicatePolicy.SKIP)
    return ids, written, None


FLOWS = {"langchain": _langchain, "llama_index": _llama_index, "haystack": _haystack}


@pytest.mark.parametrize("case", goldens.cases("adapter_keys"))
def test_adapter_keys(case: dict[str, Any]) -> None:
    """Each case's ids are the keys; the flow renews the written number of chunks."""
    data, expected = case["input"], case["output"]
    pages = [data["text"], data["edited"]]
    ids, new, removed = FLOWS[data["adapter"]](data["options"], pages)
    assert ids == [_keys(page, data["options"]) for page in pages]
    assert new == expected["new_chunks"]
    assert removed == expected["removed_chunks"]
    assert new == len(set(ids[1]) - set(ids[0]))
