"""Golden cases for the framework adapters (tests/golden/adapters.json), rules ADAPT-*.

Each case runs through the adapters' shared layer and through every installed framework
adapter; all must give the written chunk ids, texts and metadata (a subset of the keys).
A case whose inputs carry no framework id runs where the adapter can leave it unset: the
shared layer and LangChain (LlamaIndex and Haystack always give a document an id).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

from chunkspec.integrations import Chunking, chunk_metadata
from chunkspec.integrations._framework_documents import claim
from tests import goldens
from tests.frameworks import no_network

#: One chunk as a golden compares it: (id, text, metadata, links or None).
Out = list[tuple[str, str, dict[str, Any], dict[str, Any] | None]]


def _core(options: dict[str, Any], documents: list[dict[str, Any]]) -> Out:
    """The shared layer alone: Chunking.records and chunk_metadata, ADAPT-4's check."""
    chunking = Chunking(**options)
    out: Out = []
    owners: dict[str, str] = {}
    for position, item in enumerate(documents):
        document = chunking.document(item["text"], item["metadata"], item.get("id"))
        claim(owners, document.doc_id, str(position))
        for record in chunking.chunk(document):
            out.append((record.id, record.text, chunk_metadata(record, item["metadata"]), None))
    return out


def _langchain(options: dict[str, Any], documents: list[dict[str, Any]]) -> Out:
    """LangChain split_documents."""
    adapter = importlib.import_module("chunkspec.integrations.langchain")
    from langchain_core.documents import Document

    splitter = adapter.ChunkspecSplitter(**options)
    inputs = [
        Document(page_content=d["text"], metadata=d["metadata"], id=d.get("id")) for d in documents
    ]
    return [(c.id, c.page_content, c.metadata, None) for c in splitter.split_documents(inputs)]


def _llama_index(options: dict[str, Any], documents: list[dict[str, Any]]) -> Out:
    """LlamaIndex get_nodes_from_documents."""
    adapter = importlib.import_module("chunkspec.integrations.llama_index")
    from llama_index.core import Document

    parser = adapter.ChunkspecNodeParser(**options)
    inputs = [Document(text=d["text"], metadata=d["metadata"], id_=d["id"]) for d in documents]
    return [(n.node_id, n.get_content(), n.metadata, _links(n)) for n in parser(inputs)]


def _links(node: Any) -> dict[str, Any]:
    """A node's PARENT, CHILD, PREVIOUS and NEXT relationships as ids (ADAPT-5)."""
    from llama_index.core.schema import NodeRelationship as R

    got = node.relationships
    return {
        "parent": got[R.PARENT].node_id if R.PARENT in got else None,
        "children": [c.node_id for c in got.get(R.CHILD, [])],
        "previous": got[R.PREVIOUS].node_id if R.PREVIOUS in got else None,
        "next": got[R.NEXT].node_id if R.NEXT in got else None,
    }


def _haystack(options: dict[str, Any], documents: list[dict[str, Any]]) -> Out:
    """Haystack component run."""
    adapter = importlib.import_module("chunkspec.integrations.haystack")
    from haystack import Document

    splitter = adapter.ChunkspecDocumentSplitter(**options)
    inputs = [Document(content=d["text"], meta=d["metadata"], id=d["id"]) for d in documents]
    return [(c.id, c.content, c.meta, None) for c in splitter.run(documents=inputs)["documents"]]


def _as_record_ids(got: Out, adapter: str) -> Out:
    """ADAPT-8: a framework's chunk id is the record's key; the goldens name chunks by the
    record's id, so each key (and each id a link names) is read back as that id."""
    if adapter == "core":
        return got
    ids = {metadata["key"]: metadata["id"] for _, _, metadata, _ in got}
    assert [i for i, _, _, _ in got] == [m["key"] for _, _, m, _ in got]

    def named(links: dict[str, Any] | None) -> dict[str, Any] | None:
        if links is None:
            return None
        return {
            name: [ids[v] for v in value] if isinstance(value, list) else ids.get(value, value)
            for name, value in links.items()
        }

    return [(ids[i], text, metadata, named(links)) for i, text, metadata, links in got]


ADAPTERS: dict[str, Callable[[dict[str, Any], list[dict[str, Any]]], Out]] = {
    "core": _core,
    "langchain": _langchain,
    "llama_index": _llama_index,
    "haystack": _haystack,
}

#: The framework package each adapter needs.
NEEDS = {
    "langchain": "langchain_text_splitters",
    "llama_index": "llama_index",
    "haystack": "haystack",
}


@pytest.mark.parametrize("adapter", list(ADAPTERS))
@pytest.mark.parametrize("case", goldens.cases("adapters"))
def test_adapters(monkeypatch: pytest.MonkeyPatch, case: dict[str, Any], adapter: str) -> None:
    """Every adapter gives the hand-written chunks, or the hand-written error."""
    if adapter in NEEDS:
        pytest.importorskip(NEEDS[adapter])
    documents = case["input"]["documents"]
    if adapter in ("llama_index", "haystack") and any(d.get("id") is None for d in documents):
        pytest.skip(f"{adapter} always gives a document an id")
    no_network(monkeypatch)
    run = ADAPTERS[adapter]
    options = case["input"].get("options", {})
    if "error" in case:
        kind = {"TypeError": TypeError, "ValueError": ValueError}[case["error"]["type"]]
        with pytest.raises(kind) as raised:
            run(options, documents)
        assert getattr(raised.value, "argument", None) == case["error"]["argument"]
        return
    got = _as_record_ids(run(options, documents), adapter)
    expected = case["output"]["chunks"]
    assert [(i, t) for i, t, _, _ in got] == [(c["id"], c["text"]) for c in expected]
    for (_, _, metadata, links), chunk in zip(got, expected, strict=True):
        assert {key: metadata.get(key, "<absent>") for key in chunk["metadata"]} == chunk[
            "metadata"
        ]
        if links is not None and "links" in chunk:
            assert links == chunk["links"]
