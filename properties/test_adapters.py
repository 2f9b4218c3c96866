"""Properties of the framework adapters: their chunks are the core's records (ADAPT rules).

Each property runs against the real framework and skips when its extra is not installed.
Models: properties/adapter_models.py.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests import frameworks  # noqa: F401  (no telemetry: set before any framework import)

from chunkspec import chunk_document, document_from_text
from chunkspec.integrations import Chunking
from properties.adapter_models import (
    as_json,
    model_doc_id,
    model_document_metadata,
    model_links,
    model_metadata,
)
from properties.strategies import fm_values, markdown_documents

#: Options the adapters take, as (strategy, keyword arguments) drawn together.
options = st.one_of(
    st.builds(
        lambda n, o: {"strategy": "heading", "max_tokens": n, "overlap_tokens": o},
        st.integers(1, 12),
        st.none() | st.integers(0, 14),
    ),
    st.builds(
        lambda n, h: {"strategy": "structural", "max_tokens": n, "count_headings": h},
        st.integers(1, 12),
        st.booleans(),
    ),
    st.builds(
        lambda n: {"strategy": "recursive", "max_tokens": n, "input_format": "text"},
        st.integers(1, 12),
    ),
    st.builds(
        lambda n, c: {"strategy": "window", "max_tokens": n, "counter": c},
        st.integers(2, 12),
        st.sampled_from(["whitespace", "chars4", "chars1"]),
    ),
    st.builds(
        lambda n: {"strategy": "pages", "max_tokens": n, "input_format": "text"},
        st.integers(4, 12),
    ),
)

#: Caller metadata: sometimes the document's own facts, sometimes keys a record also has.
caller_metadata = st.fixed_dictionaries(
    {},
    optional={
        "doc_id": st.sampled_from(["d", "doc one", "é"]),
        "source": st.sampled_from(["a.md", "https://x.example/p"]),
        "title": st.sampled_from(["T", ""]),
        "lang": st.sampled_from(["en", "fr"]),
        "kind": st.just("caller's"),
        "tags": st.lists(st.sampled_from(["a", "b"]), max_size=2),
        # META-4: seed 003's access keys, carried unchanged (ADAPT-6)
        "tenant_id": st.sampled_from(["t1", "t2"]),
        "acl_labels": st.lists(st.sampled_from(["eng", "hr"]), max_size=2),
        "author": st.sampled_from(["caller"]),
    },
)

#: The framework properties build framework objects (pydantic models, node hashes) for every
#: chunk: about 15 ms an example, so 250 examples each instead of the CI profile's 1,000. The
#: shared layer's property below, which all three adapters call, keeps the profile's count.
FRAMEWORK_EXAMPLES = settings(max_examples=250)

#: Texts: Markdown documents, sometimes with form feeds (pages, SOURCE-4), sometimes with
#: front matter whose fields are document metadata (META-3, ADAPT-6).
texts = st.one_of(
    markdown_documents(),
    markdown_documents().map(lambda t: t.replace("\n\n", "\f")),
    st.builds(
        lambda fields, body: "---\n" + "".join(f"{k}: {v}\n" for k, v in fields) + "---\n" + body,
        st.lists(
            st.tuples(st.sampled_from(["author", "kind", "x"]), fm_values)
            # TRUST-3: a tenant_id FM-3 reads as every YAML parser does (others refuse)
            | st.tuples(st.just("tenant_id"), st.sampled_from(["acme", "t1", "'t 2'"]))
        ).filter(lambda fields: [key for key, _ in fields].count("tenant_id") <= 1),
        markdown_documents(),
    ),
)


def _adapter(name: str) -> ModuleType:
    """Import chunkspec.integrations.NAME, skipping the test when its framework is missing."""
    module: ModuleType = pytest.importorskip(f"chunkspec.integrations.{name}")
    return module


def _expected(text: str, option: dict[str, Any], metadata: dict[str, Any], doc_id: str) -> Any:
    """The core's records for the same input, built without the adapters' shared layer."""
    rest = dict(option)
    input_format = rest.pop("input_format", "markdown")
    document = document_from_text(
        text,
        doc_id=doc_id,
        input_format=input_format,
        source=metadata.get("source", ""),
        title=metadata.get("title"),
        metadata=model_document_metadata(metadata),
    )
    records = chunk_document(document, rest.pop("strategy"), **rest)
    # META-4: every record carries its document's metadata, the caller's over the front matter's
    front = document.front_matter.fields if document.front_matter is not None else {}
    expected = {**front, **model_document_metadata(metadata)}
    assert all(as_json(r.metadata) == expected for r in records)
    return records


def _usable(text: str, option: dict[str, Any]) -> None:
    """Skip inputs the core itself refuses (reported: recursive on blank text fails)."""
    if option["strategy"] == "recursive":
        assume(text.strip())  # chunk_document(recursive) raises IndexError on blank text


@FRAMEWORK_EXAMPLES
@given(texts, options, caller_metadata, st.sampled_from([None, "lc-id"]))
def test_langchain_chunks_are_core_records(
    text: str, option: dict[str, Any], metadata: dict[str, Any], framework_id: str | None
) -> None:
    """ADAPT-1, ADAPT-2, ADAPT-3, ADAPT-6, META-4: LangChain split_documents gives the
    core's records, with the caller's metadata carried under the record's fields, the front
    matter's under the caller's, and start_index = start."""
    _usable(text, option)
    langchain = _adapter("langchain")
    from langchain_core.documents import Document

    chunks = langchain.ChunkspecSplitter(**option).split_documents(
        [Document(page_content=text, metadata=metadata, id=framework_id)]
    )
    doc_id = model_doc_id(text, metadata, framework_id)
    expected = _expected(text, option, metadata, doc_id)
    assert [langchain.to_record(c) for c in chunks] == expected
    for chunk, record in zip(chunks, expected, strict=True):
        assert chunk.metadata == {**model_metadata(record, metadata), "start_index": record.start}
        assert chunk.id == record.key  # ADAPT-8: the framework id is the stable key
        assert chunk.page_content == record.text


@FRAMEWORK_EXAMPLES
@given(texts, options, caller_metadata)
def test_llama_index_nodes_are_core_records(
    text: str, option: dict[str, Any], metadata: dict[str, Any]
) -> None:
    """ADAPT-1, ADAPT-3, ADAPT-5, ADAPT-6, META-4: LlamaIndex nodes are the core's records,
    with exact start_char_idx/end_char_idx and the PARENT/CHILD/PREVIOUS/NEXT links of the model."""
    _usable(text, option)
    llama = _adapter("llama_index")
    from llama_index.core import Document
    from llama_index.core.schema import NodeRelationship

    nodes = llama.ChunkspecNodeParser(**option)([Document(text=text, metadata=metadata, id_="n")])
    expected = _expected(text, option, metadata, model_doc_id(text, metadata, "n"))
    assert [llama.to_record(n) for n in nodes] == expected
    links = model_links(expected)
    for node, record in zip(nodes, expected, strict=True):
        assert node.metadata == model_metadata(record, metadata)
        assert (node.node_id, node.start_char_idx, node.end_char_idx) == (
            record.key,
            record.start,
            record.end,
        )
        got = node.relationships
        one = {
            "parent": NodeRelationship.PARENT,
            "previous": NodeRelationship.PREVIOUS,
            "next": NodeRelationship.NEXT,
        }
        for key, relation in one.items():
            assert (got[relation].node_id if relation in got else None) == links[record.key][key]
        children = [c.node_id for c in got.get(NodeRelationship.CHILD, [])]
        assert children == links[record.key]["children"]
        assert got[NodeRelationship.SOURCE].node_id == "n"


@FRAMEWORK_EXAMPLES
@given(texts, options, caller_metadata)
def test_haystack_documents_are_core_records(
    text: str, option: dict[str, Any], metadata: dict[str, Any]
) -> None:
    """ADAPT-1, ADAPT-3, ADAPT-6, META-4: the Haystack component's Documents are the core's
    records, with Haystack's source_id, split_id, split_idx_start and page_number."""
    _usable(text, option)
    hay = _adapter("haystack")
    from haystack import Document

    source = Document(content=text, meta=metadata, id="h")
    chunks = hay.ChunkspecDocumentSplitter(**option).run(documents=[source])["documents"]
    expected = _expected(text, option, metadata, model_doc_id(text, metadata, "h"))
    assert [hay.to_record(c) for c in chunks] == expected
    for chunk, record in zip(chunks, expected, strict=True):
        assert chunk.meta == {
            **model_metadata(record, metadata),
            "source_id": "h",
            "split_id": record.index,
            "split_idx_start": record.start,
            "page_number": record.page_start or 1,
        }


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["x", "y z"]),
            st.sampled_from([None, "a", "b"]),
            st.sampled_from([None, "", "a/LICENSE.md", "b/LICENSE.md"]),
        )
    )
)
def test_clashing_doc_ids_are_refused(items: list[tuple[str, str | None, str | None]]) -> None:
    """ADAPT-4, ADAPT-2: a call is refused exactly when two inputs resolve to one doc_id
    (the metadata doc_id, else the hash of source and text); otherwise every chunk id is
    distinct, so one text from two sources is two documents."""
    langchain = _adapter("langchain")
    from langchain_core.documents import Document

    metadatas = [
        {key: value for key, value in (("doc_id", doc_id), ("source", source)) if value is not None}
        for _, doc_id, source in items
    ]
    inputs = [
        Document(page_content=text, metadata=metadata)
        for (text, _, _), metadata in zip(items, metadatas, strict=True)
    ]
    resolved = [
        model_doc_id(text, metadata, None)
        for (text, _, _), metadata in zip(items, metadatas, strict=True)
    ]
    splitter = langchain.ChunkspecSplitter("structural", max_tokens=1)
    if len(set(resolved)) < len(resolved):
        with pytest.raises(ValueError, match="documents hold two documents"):
            splitter.split_documents(inputs)
    else:
        ids = [c.id for c in splitter.split_documents(inputs)]
        assert len(ids) == len(set(ids))


@given(texts, options)
def test_shared_layer_round_trips(text: str, option: dict[str, Any]) -> None:
    """ADAPT-1, ADAPT-3: record_from_metadata inverts chunk_metadata for every record."""
    from chunkspec.integrations import chunk_metadata, record_from_metadata

    _usable(text, option)
    for record in Chunking(**option).records(text, {"doc_id": "s"}):
        assert record_from_metadata(record.text, chunk_metadata(record, {"x": 1})) == record


@settings(max_examples=200)
@given(st.binary(min_size=1, max_size=12), markdown_documents())
def test_file_name_sources_read_as_cli_16(name: bytes, text: str) -> None:
    """ADAPT-2: a ``source`` made by ``os.fsdecode`` of any file-name bytes (as loaders write
    ``str(path)``) is the name as CLI-16 writes it: valid UTF-8 kept, other bytes ``\\xNN``;
    the doc id hashes that."""
    import os

    assume(b"\x00" not in name)
    source = os.fsdecode(name)
    shown = name.decode("utf-8", "backslashreplace")
    chunking = Chunking(strategy="structural", max_tokens=50)
    document = chunking.document(text, {"source": source})
    assert document.source == shown
    assert document.doc_id == model_doc_id(text, {"source": shown}, None)
    shown.encode("utf-8")  # valid text: JSON Lines and Parquet can hold it
