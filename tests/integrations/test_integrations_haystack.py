"""The Haystack component: a Pipeline step whose Documents are the core's records."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk_document, document_from_text
from tests.frameworks import EXAMPLE, no_network

hay = pytest.importorskip("chunkspec.integrations.haystack")
from haystack import Document, Pipeline  # noqa: E402
from haystack.components.writers import DocumentWriter  # noqa: E402
from haystack.document_stores.in_memory import InMemoryDocumentStore  # noqa: E402

TEXT = Path(EXAMPLE).read_text("utf-8")


def test_pipeline_run_gives_the_core_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pipeline run (splitter -> writer) stores one Document per core record, offline."""
    no_network(monkeypatch)
    store = InMemoryDocumentStore()
    pipeline = Pipeline()
    pipeline.add_component("split", hay.ChunkspecDocumentSplitter(strategy="pages", max_tokens=40))
    pipeline.add_component("write", DocumentWriter(document_store=store))
    pipeline.connect("split.documents", "write.documents")
    paged = TEXT.replace("## Refunds", "\f## Refunds")
    source = Document(content=paged, meta={"doc_id": "returns", "lang": "en"})
    result = pipeline.run({"split": {"documents": [source]}})
    stored = sorted(store.filter_documents(), key=lambda d: d.meta["index"])
    # ADAPT-6: the meta's other JSON entries are the document's metadata, on every record
    document = document_from_text(paged, doc_id="returns", metadata={"lang": "en"})
    expected = chunk_document(document, "pages", max_tokens=40)
    assert result["write"]["documents_written"] == len(expected)
    assert [hay.to_record(d) for d in stored] == expected
    for document, record in zip(stored, expected, strict=True):
        assert document.id == record.key  # ADAPT-8
        assert document.meta["lang"] == "en"
        assert document.meta["source_id"] == source.id
        assert document.meta["split_id"] == record.index
        assert document.meta["split_idx_start"] == record.start
        assert document.meta["page_number"] == record.page_start
    assert {r.page_end for r in expected} == {1, 2}


def test_run_defaults_and_errors() -> None:
    """doc_id is the Document's id without meta; bad input names the argument."""
    splitter = hay.ChunkspecDocumentSplitter(max_tokens=8)
    source = Document(content="hello there")
    [chunk] = splitter.run(documents=[source])["documents"]
    assert chunk.meta["id"] == f"{source.id}:0"
    assert chunk.meta["page_number"] == 1
    with pytest.raises(ArgumentValueError, match=r"documents\[0\]\.content"):
        splitter.run(documents=[Document(content=None)])
    with pytest.raises(ArgumentTypeError, match="documents"):
        splitter.run(documents="text")
    with pytest.raises(ArgumentValueError, match="doc_id 'x'"):
        splitter.run(
            documents=[
                Document(content="a", meta={"doc_id": "x"}),
                Document(content="b", meta={"doc_id": "x"}),
            ]
        )
    with pytest.raises(ArgumentValueError, match="max_tokens"):
        hay.ChunkspecDocumentSplitter(max_tokens=0)


def test_serialises_with_the_pipeline() -> None:
    """Pipeline.dumps/loads keeps the component's options."""
    pipeline = Pipeline()
    pipeline.add_component(
        "split", hay.ChunkspecDocumentSplitter(strategy="structural", max_tokens=9)
    )
    loaded = Pipeline.loads(pipeline.dumps(), allowed_modules=["chunkspec.integrations.haystack"])
    component = loaded.get_component("split")
    assert isinstance(component, hay.ChunkspecDocumentSplitter)
    assert component.chunking == pipeline.get_component("split").chunking
