"""Re-indexing only what changed, in each framework's own way (ADAPT-8, ADAPT-9).

An edit in one section of one page, then the frameworks' incremental flows over the
adapters' chunks: LangChain's ``index(..., cleanup="incremental")`` with its in-memory record
manager embeds only the chunks with new keys (a counting fake embedding); LlamaIndex's
docstore and Haystack's document store see the unchanged chunks' ids again.
"""

from __future__ import annotations

from typing import Any

import pytest

import tests.frameworks  # noqa: F401  # telemetry off before any framework import
from chunkspec import chunk_document, document_from_text

PAGE = (
    "# Returns\n\nReturn any item within thirty days of delivery.\n\n"
    "## Refunds\n\nRefunds go to the original payment method within five days.\n\n"
    "Store credit is offered on request.\n\n"
    "## Exchanges\n\nExchanges ship free of charge to the same address.\n\n"
    "## Contact\n\nWrite to the support team for any question.\n"
)
EDITED = PAGE.replace(
    "Store credit is offered on request.", "Store credit is offered on request, never in cash."
)


def _keys(text: str) -> list[str]:
    """The keys chunk_document gives the page (structural, 12 tokens)."""
    document = document_from_text(text, doc_id="returns", input_format="markdown")
    return [r.key for r in chunk_document(document, "structural", max_tokens=12)]


def test_langchain_index_embeds_only_changed_chunks() -> None:
    """ADAPT-8, ADAPT-9: Document.id is the key; index() with key_encoder=doc.id and
    cleanup="incremental" embeds exactly the new keys and deletes exactly the gone ones."""
    from langchain_core.documents import Document
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.indexing import InMemoryRecordManager, index
    from langchain_core.vectorstores import InMemoryVectorStore

    from chunkspec.integrations.langchain import ChunkspecSplitter

    class Counting(DeterministicFakeEmbedding):
        """A fake embedding that counts the texts it embeds."""

        embedded: list[str] = []  # noqa: RUF012  # one list for the test

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            self.embedded.extend(texts)
            return super().embed_documents(texts)

    embedding = Counting(size=8)
    store = InMemoryVectorStore(embedding)
    manager = InMemoryRecordManager(namespace="returns")
    manager.create_schema()
    splitter = ChunkspecSplitter("structural", max_tokens=12)

    def run(text: str) -> Any:
        chunks = splitter.split_documents(
            [Document(page_content=text, metadata={"doc_id": "returns"})]
        )
        assert [c.id for c in chunks] == _keys(text)
        return index(
            chunks,
            manager,
            store,
            cleanup="incremental",
            source_id_key="doc_id",
            key_encoder=lambda doc: doc.id or "",
        )

    first = run(PAGE)
    assert first["num_added"] == len(_keys(PAGE)) == len(embedding.embedded)
    embedding.embedded.clear()
    second = run(EDITED)
    new = set(_keys(EDITED)) - set(_keys(PAGE))
    gone = set(_keys(PAGE)) - set(_keys(EDITED))
    assert 0 < len(new) < len(_keys(EDITED))
    assert len(embedding.embedded) == len(new) == second["num_added"]
    assert second["num_deleted"] == len(gone)
    assert second["num_skipped"] == len(_keys(EDITED)) - len(new)
    assert set(store.store) == set(_keys(EDITED))


def test_llama_index_node_ids_are_keys_and_the_docstore_keeps_them() -> None:
    """ADAPT-8, ADAPT-9: TextNode ids are the keys (relationships name keys too); the nodes
    an edit leaves alone are the ones already in the docstore, unchanged."""
    from llama_index.core import Document
    from llama_index.core.schema import NodeRelationship
    from llama_index.core.storage.docstore import SimpleDocumentStore

    from chunkspec.integrations.llama_index import ChunkspecNodeParser

    parser = ChunkspecNodeParser(strategy="heading", max_tokens=12)
    docstore = SimpleDocumentStore()
    nodes = parser.get_nodes_from_documents([Document(text=PAGE, id_="returns")])
    ids = {node.node_id for node in nodes}
    for node in nodes:
        parent = node.relationships.get(NodeRelationship.PARENT)
        if parent is not None:
            assert parent.node_id in ids
    docstore.add_documents(nodes)
    edited = parser.get_nodes_from_documents([Document(text=EDITED, id_="returns")])
    fresh = [n for n in edited if not docstore.document_exists(n.node_id)]
    kept = [n for n in edited if docstore.document_exists(n.node_id)]
    assert 0 < len(fresh) < len(edited)
    for node in kept:
        assert docstore.get_document(node.node_id).get_content() == node.get_content()


def test_haystack_document_ids_are_keys_and_skip_writes_only_new() -> None:
    """ADAPT-8, ADAPT-9: Haystack Document ids are the keys; DuplicatePolicy.SKIP writes
    only the chunks whose keys are new."""
    from haystack import Document
    from haystack.document_stores.in_memory import InMemoryDocumentStore
    from haystack.document_stores.types import DuplicatePolicy

    from chunkspec.integrations.haystack import ChunkspecDocumentSplitter

    splitter = ChunkspecDocumentSplitter(strategy="structural", max_tokens=12)
    store = InMemoryDocumentStore()
    first = splitter.run([Document(content=PAGE, meta={"doc_id": "returns"})])["documents"]
    assert [d.id for d in first] == _keys(PAGE)
    assert store.write_documents(first, policy=DuplicatePolicy.SKIP) == len(first)
    second = splitter.run([Document(content=EDITED, meta={"doc_id": "returns"})])["documents"]
    written = store.write_documents(second, policy=DuplicatePolicy.SKIP)
    assert written == len(set(_keys(EDITED)) - set(_keys(PAGE))) > 0


@pytest.mark.parametrize("strategy", ["structural", "heading"])
def test_the_edit_changes_only_its_section(strategy: str) -> None:
    """KEY-6 on the page the flows use: only Refunds' chunks from the edit on are new."""
    document = document_from_text(PAGE, doc_id="returns", input_format="markdown")
    edited = document_from_text(EDITED, doc_id="returns", input_format="markdown")
    old = {r.key for r in chunk_document(document, strategy, max_tokens=12)}
    for record in chunk_document(edited, strategy, max_tokens=12):
        if record.key not in old:
            assert record.heading_path[-1] == "Refunds"
