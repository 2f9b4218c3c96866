"""Properties of the adapters' ids and the frameworks' incremental flows (ADAPT-8, ADAPT-9)."""

from __future__ import annotations

from typing import Any

import tests.frameworks  # noqa: F401  # telemetry off before any framework import
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chunkspec import chunk_document, document_from_text

VOCABULARY = ["alpha", "beta", "gamma", "delta", "eps"]
paragraphs = st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=8).map(" ".join)
sections = st.lists(st.lists(paragraphs, min_size=1, max_size=3), min_size=1, max_size=4)


def _page(body: list[list[str]]) -> str:
    """A page with distinct section headings."""
    return "# Page\n\n" + "".join(
        f"## Part {n}\n\n" + "".join(p + "\n\n" for p in section) for n, section in enumerate(body)
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sections, st.data(), paragraphs, st.integers(2, 10))
def test_langchain_index_embeds_exactly_the_new_keys(
    body: list[list[str]], data: st.DataObject, new: str, max_tokens: int
) -> None:
    """ADAPT-8, ADAPT-9: Document.id is the key, and index(cleanup="incremental",
    key_encoder=doc.id) after an edit of one paragraph embeds exactly the keys the edit
    created and deletes exactly the keys it removed."""
    from langchain_core.documents import Document
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.indexing import InMemoryRecordManager, index
    from langchain_core.vectorstores import InMemoryVectorStore

    from chunkspec.integrations.langchain import ChunkspecSplitter

    section = data.draw(st.integers(0, len(body) - 1))
    paragraph = data.draw(st.integers(0, len(body[section]) - 1))
    edited = [list(s) for s in body]
    edited[section][paragraph] = new
    pages = [_page(body), _page(edited)]
    splitter = ChunkspecSplitter("structural", max_tokens=max_tokens)
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=4))
    manager = InMemoryRecordManager(namespace="p")
    manager.create_schema()
    keys: list[set[str]] = []
    result: Any = {}
    for page in pages:
        chunks = splitter.split_documents([Document(page_content=page, metadata={"doc_id": "p"})])
        document = document_from_text(page, doc_id="p", input_format="markdown")
        expected = [r.key for r in chunk_document(document, "structural", max_tokens=max_tokens)]
        assert [c.id for c in chunks] == expected
        keys.append(set(expected))
        result = index(
            chunks,
            manager,
            store,
            cleanup="incremental",
            source_id_key="doc_id",
            key_encoder=lambda doc: doc.id or "",
        )
    assert result["num_added"] == len(keys[1] - keys[0])
    assert result["num_deleted"] == len(keys[0] - keys[1])
    assert set(store.store) == keys[1]
