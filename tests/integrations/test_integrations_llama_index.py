"""The LlamaIndex node parser: TextNodes that are the core's records, with relationships."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk_document, document_from_text
from tests.frameworks import EXAMPLE, no_network

llama = pytest.importorskip("chunkspec.integrations.llama_index")
from llama_index.core import Document  # noqa: E402
from llama_index.core.ingestion import IngestionPipeline  # noqa: E402
from llama_index.core.node_parser import NodeParser  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeRelationship, TextNode  # noqa: E402

TEXT = Path(EXAMPLE).read_text("utf-8")


def test_ingestion_pipeline_gives_the_core_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """An IngestionPipeline run returns one TextNode per core record, offline."""
    no_network(monkeypatch)
    parser = llama.ChunkspecNodeParser(strategy="heading", max_tokens=40)
    assert isinstance(parser, NodeParser)
    document = Document(text=TEXT, id_="returns", metadata={"lang": "en"})
    nodes = IngestionPipeline(transformations=[parser]).run(documents=[document])
    document = document_from_text(TEXT, doc_id="returns", metadata={"lang": "en"})  # ADAPT-6
    expected = chunk_document(document, max_tokens=40)
    assert [llama.to_record(n) for n in nodes] == expected
    by_id = {n.node_id: n for n in nodes}
    assert list(by_id) == [r.key for r in expected]  # ids are the keys (ADAPT-8), unique
    for node, record in zip(nodes, expected, strict=True):
        assert isinstance(node, TextNode)
        assert (node.start_char_idx, node.end_char_idx) == (record.start, record.end)
        assert node.metadata["lang"] == "en"
        assert node.relationships[NodeRelationship.SOURCE].node_id == "returns"
        assert node.get_content(MetadataMode.EMBED) == "lang: en\n\n" + record.text
        previous = node.relationships.get(NodeRelationship.PREVIOUS)
        following = node.relationships.get(NodeRelationship.NEXT)
        assert (previous.node_id if previous else None) == (
            expected[record.index - 1].key if record.index else None
        )
        assert (following.node_id if following else None) == (
            expected[record.index + 1].key if record.index + 1 < len(expected) else None
        )
        keys = {r.id: r.key for r in expected}  # ADAPT-8: links name keys
        parent = node.relationships.get(NodeRelationship.PARENT)
        assert (parent.node_id if parent else None) == keys.get(record.parent_id or "")
        children = node.relationships.get(NodeRelationship.CHILD, [])
        assert [c.node_id for c in children] == [
            r.key for r in expected if r.parent_id == record.id
        ]
    assert any(record.parent_id for record in expected)


def test_offsets_are_exact_for_repeated_text() -> None:
    """start_char_idx is the record's start, not the next match of the text after the
    previous chunk's start (LlamaIndex's own pass would say 2 for the second "a")."""
    parser = llama.ChunkspecNodeParser(strategy="structural", max_tokens=2)
    nodes = parser.get_nodes_from_documents([Document(text="b a\n\na", id_="d")])
    assert [(n.get_content(), n.start_char_idx, n.end_char_idx) for n in nodes] == [
        ("b a", 0, 3),
        ("a", 5, 6),
    ]


def test_options_and_flags() -> None:
    """include_metadata and include_prev_next_rel keep their LlamaIndex meaning."""
    parser = llama.ChunkspecNodeParser(
        strategy="recursive",
        max_tokens=1,
        input_format="text",
        include_metadata=False,
        include_prev_next_rel=False,
    )
    nodes = parser([Document(text="a b", id_="d", metadata={"lang": "en"})])
    assert [n.metadata["id"] for n in nodes] == ["d:0", "d:1"]
    assert "lang" not in nodes[0].metadata
    assert NodeRelationship.NEXT not in nodes[0].relationships


def test_metadata_doc_id_wins_and_clashes_are_refused() -> None:
    """ADAPT-2 and ADAPT-4: metadata's doc_id names the chunks; two alike are refused."""
    parser = llama.ChunkspecNodeParser(max_tokens=8)
    nodes = parser([Document(text="x", id_="uuid", metadata={"doc_id": "mine"})])
    assert [n.metadata["id"] for n in nodes] == ["mine:0"]
    with pytest.raises(ArgumentValueError, match="doc_id 'same'"):
        parser(
            [
                Document(text="x", metadata={"doc_id": "same"}),
                Document(text="y", metadata={"doc_id": "same"}),
            ]
        )


def test_bad_options_fail_at_construction() -> None:
    """The core's own errors, before pydantic wraps anything."""
    with pytest.raises(ArgumentValueError, match="overlap_tokens"):
        llama.ChunkspecNodeParser(strategy="structural", overlap_tokens=2)


def test_a_misspelt_option_is_refused_not_dropped() -> None:
    """OPT-1: pydantic would drop an unknown keyword; the parser names it, as LangChain's and
    Haystack's adapters do, and NodeParser's own fields still pass."""
    with pytest.raises(ArgumentTypeError) as raised:
        llama.ChunkspecNodeParser(strategy="heading", maxtokens=5)
    assert raised.value.argument == "maxtokens"
    assert llama.ChunkspecNodeParser(max_tokens=5, include_metadata=False).include_metadata is False
