"""The LangChain splitters: real TextSplitters whose chunks are the core's records."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk_document, document_from_text
from chunkspec.integrations import default_doc_id
from tests.frameworks import EXAMPLE, no_network

langchain = pytest.importorskip("chunkspec.integrations.langchain")
from langchain_core.documents import Document  # noqa: E402
from langchain_text_splitters import TextSplitter  # noqa: E402

TEXT = Path(EXAMPLE).read_text("utf-8")


@pytest.mark.parametrize(
    ("splitter", "strategy"),
    [
        (langchain.ChunkspecSplitter("recursive", max_tokens=40, input_format="text"), "recursive"),
        (langchain.ChunkspecSplitter("structural", max_tokens=40), "structural"),
        (langchain.ChunkspecSplitter("heading", max_tokens=40), "heading"),
        (langchain.ChunkspecSplitter("pages", max_tokens=40, input_format="text"), "pages"),
        (langchain.ChunkspecSplitter("window", max_tokens=40, counter="chars4"), "window"),
    ],
)
def test_split_documents_gives_the_core_records(
    monkeypatch: pytest.MonkeyPatch, splitter: object, strategy: str
) -> None:
    """split_documents (LangChain's usage) returns one Document per core record, offline."""
    no_network(monkeypatch)
    assert isinstance(splitter, TextSplitter)
    source = Document(
        page_content=TEXT, metadata={"doc_id": "returns", "source": EXAMPLE, "lang": "en"}
    )
    chunks = splitter.split_documents([source])
    document = document_from_text(
        TEXT,
        doc_id="returns",
        source=EXAMPLE,
        input_format="text" if strategy in ("recursive", "pages") else "markdown",
        metadata={"lang": "en"},  # ADAPT-6: the caller's other entries, on every record
    )
    expected = chunk_document(
        document,
        strategy,
        max_tokens=40,
        counter="chars4" if strategy == "window" else None,  # SCRIPT-35: the default
    )
    assert [langchain.to_record(c) for c in chunks] == expected
    for chunk, record in zip(chunks, expected, strict=True):
        assert chunk.page_content == record.text
        assert chunk.id == record.key  # ADAPT-8
        assert chunk.metadata["lang"] == "en"  # the caller's metadata, carried
        assert chunk.metadata["start_index"] == record.start
        assert chunk.metadata["heading_path"] == list(record.heading_path)
        assert "text" not in chunk.metadata
    assert source.metadata == {"doc_id": "returns", "source": EXAMPLE, "lang": "en"}


def test_split_text_and_create_documents() -> None:
    """split_text returns the chunk texts; create_documents pairs texts with metadatas."""
    splitter = langchain.ChunkspecSplitter("heading", max_tokens=30)
    texts = splitter.split_text(TEXT)
    records = chunk_document(document_from_text(TEXT, doc_id=default_doc_id(TEXT)), max_tokens=30)
    assert texts == [r.text for r in records]
    made = splitter.create_documents(["# A\n\none two", "three"], [{"k": 1}, {"k": 2}])
    # SIZE-3: the heading A and the body it introduces are one chunk by default.
    assert [(d.page_content, d.metadata["k"]) for d in made] == [
        ("A\n\none two", 1),
        ("three", 2),
    ]
    assert made[0].metadata["doc_id"] == default_doc_id("# A\n\none two")
    assert made[0].metadata["kind"] == "heading"
    parted = langchain.ChunkspecSplitter("heading", max_tokens=30, min_tokens=0)
    made = parted.create_documents(["# A\n\none two"])
    assert [d.page_content for d in made] == ["A", "one two"]
    assert made[1].metadata["parent_id"] == made[0].metadata["id"]


def test_metadata_is_deep_copied() -> None:
    """Each chunk owns its metadata: changing one chunk's leaves the others and the input."""
    shared = {"tags": ["a"]}
    first, second = langchain.ChunkspecSplitter(
        "recursive", max_tokens=1, input_format="text"
    ).create_documents(["x y"], [shared])
    first.metadata["tags"].append("b")
    assert second.metadata["tags"] == ["a"]
    assert shared == {"tags": ["a"]}


def test_document_id_is_the_fallback_doc_id() -> None:
    """ADAPT-2: a Document's own id names it when its metadata has no doc_id."""
    chunks = langchain.ChunkspecSplitter("structural").split_documents(
        [Document(page_content="hi", id="d7")]
    )
    assert [c.metadata["id"] for c in chunks] == ["d7:0"]


def test_transform_documents() -> None:
    """The BaseDocumentTransformer interface splits too."""
    splitter = langchain.ChunkspecSplitter("structural", max_tokens=8)
    chunks = splitter.transform_documents([Document(page_content=TEXT)])
    assert [c.page_content for c in chunks] == splitter.split_text(TEXT)


def test_bad_options_fail_at_construction() -> None:
    """Options are the core's, checked when the splitter is made, each error naming it."""
    with pytest.raises(ArgumentValueError, match="strategy"):
        langchain.ChunkspecSplitter("sentences")
    with pytest.raises(ArgumentValueError, match="max_tokens"):
        langchain.ChunkspecSplitter("structural", max_tokens=0)
    with pytest.raises(ArgumentValueError, match="input_format"):
        langchain.ChunkspecSplitter(input_format="pdf")
    with pytest.raises(ArgumentTypeError, match=r"metadata\['doc_id'\]"):
        langchain.ChunkspecSplitter("structural").create_documents(["x"], [{"doc_id": 7}])
    with pytest.raises(ArgumentTypeError, match="metadatas"):
        langchain.ChunkspecSplitter("structural").create_documents(["x", "y"], [{}])
