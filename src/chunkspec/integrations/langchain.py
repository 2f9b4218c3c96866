"""LangChain text splitters built on :func:`chunkspec.chunk_document` (extra
``chunkspec[langchain]``), rules ADAPT-1..ADAPT-4.

Each splitter is a real ``langchain_text_splitters.TextSplitter``: ``split_text``,
``create_documents``, ``split_documents`` and ``transform_documents`` work as LangChain users
expect. Every chunk's ``Document.metadata`` holds the caller's metadata, then the chunk
record's fields but ``text`` (``heading_path`` a list), then ``start_index`` (LangChain's name
for the record's ``start``); ``Document.id`` is the record's stable ``key`` (ADAPT-8)::

    splitter = ChunkspecSplitter("structural", max_tokens=128)
    chunks = splitter.split_documents([Document(page_content=text, metadata={"doc_id": "a"})])
    record = to_record(chunks[0])  # the core's ChunkRecord, exactly
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

try:
    from langchain_core.documents import Document
    from langchain_text_splitters import TextSplitter
except ImportError as error:  # pragma: no cover - see tests/integrations/test_integrations_lazy.py
    raise ImportError(
        "langchain-text-splitters is not installed: pip install 'chunkspec[langchain]'"
    ) from error

from .._chunkers._options import ChunkKeywords, ChunkOptions
from .._core._collector import collector_paused
from .._errors import ArgumentTypeError
from .._records._record import ChunkRecord
from ._framework_documents import Chunking, chunk_metadata, claim, record_from_metadata

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "ChunkspecSplitter",
    "to_document",
    "to_record",
]


class ChunkspecSplitter(TextSplitter):  # type: ignore[misc]  # LangChain is typed as Any
    """A LangChain ``TextSplitter`` for any :func:`chunkspec.chunk_document` strategy.

    ``options`` (a :class:`chunkspec.ChunkOptions` or a strategy name, OPT-1) or the core's
    option keywords (:class:`chunkspec.records.ChunkKeywords`); ``input_format`` is
    ``markdown`` or ``text``. Sizes are
    in tokens of ``counter`` (``whitespace`` words by default), never LangChain's
    ``length_function``; ``chunk_size``/``chunk_overlap`` are set from them for code that
    reads them.
    """

    def __init__(
        self,
        options: str | ChunkOptions | None = None,
        *,
        input_format: str = "markdown",
        **keywords: Unpack[ChunkKeywords],
    ) -> None:
        chunking = Chunking(options, input_format=input_format, **keywords)
        chosen = chunking.options
        overlap = chosen.overlap_tokens or 0
        super().__init__(
            chunk_size=chosen.max_tokens,
            chunk_overlap=min(overlap, chosen.max_tokens),
            add_start_index=True,
            strip_whitespace=False,
        )
        self.chunking = chunking

    def split_text(self, text: str) -> list[str]:
        """Return the chunk texts of ``text`` (doc_id: :func:`default_doc_id`)."""
        return [record.text for record in self.chunking.records(text, {})]

    def create_documents(
        self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
    ) -> list[Document]:
        """Return one ``Document`` per chunk of each text, carrying ``metadatas[i]`` (ADAPT-3)."""
        if metadatas is not None and len(metadatas) != len(texts):
            raise ArgumentTypeError("metadatas", f"a list of {len(texts)} dicts", metadatas)
        chosen: list[Mapping[str, Any]] = list(metadatas) if metadatas else [{}] * len(texts)
        return self._split(zip(texts, chosen, [None] * len(texts), strict=True))

    def split_documents(self, documents: Iterable[Document]) -> list[Document]:
        """Split each ``Document``; its ``id`` is the doc_id when metadata has none (ADAPT-2)."""
        return self._split(
            (doc.page_content, doc.metadata, getattr(doc, "id", None)) for doc in documents
        )

    @collector_paused()  # linear time on big batches (docs/performance.md)
    def _split(self, items: Iterable[tuple[str, Mapping[str, Any], str | None]]) -> list[Document]:
        """Chunk each (text, metadata, document id) and wrap every record as a Document;
        two inputs with one doc_id are refused (ADAPT-4)."""
        out: list[Document] = []
        owners: dict[str, str] = {}
        for position, (text, metadata, fallback) in enumerate(items):
            document = self.chunking.document(text, metadata, fallback)
            claim(owners, document.doc_id, f"documents[{position}]")
            for record in self.chunking.chunk(document):
                out.append(to_document(record, metadata))
        return out


def to_document(record: ChunkRecord, metadata: Mapping[str, Any] | None = None) -> Document:
    """Return ``record`` as a LangChain ``Document`` (ADAPT-3): text, metadata, id."""
    data = chunk_metadata(record, metadata or {})
    data["start_index"] = record.start
    return Document(page_content=record.text, metadata=data, id=record.key)  # ADAPT-8


def to_record(document: Document) -> ChunkRecord:
    """Return the :class:`chunkspec.ChunkRecord` a chunk ``Document`` was made from."""
    return record_from_metadata(document.page_content, document.metadata)
