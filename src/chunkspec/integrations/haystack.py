"""A Haystack 2 component built on :func:`chunkspec.chunk_document` (extra
``chunkspec[haystack]``), rules ADAPT-1..ADAPT-4.

:class:`ChunkspecDocumentSplitter` is a ``@component``: ``run(documents)`` returns
``{"documents": [...]}``, one ``Document`` per chunk record, so it drops into a
``Pipeline`` where Haystack's ``DocumentSplitter`` would go. Each chunk's ``meta`` is the
input's meta, then the record's fields but ``text`` (``heading_path`` a list), then
Haystack's own names for three of them: ``source_id`` (the input document's ``id``),
``split_id`` (``index``), ``split_idx_start`` (``start``), and ``page_number``
(``page_start``, 1 for a document without pages, as Haystack counts). Its ``id`` is the
record's ``id``::

    splitter = ChunkspecDocumentSplitter(strategy="heading", max_tokens=128)
    chunks = splitter.run(documents=[Document(content=text, meta={"doc_id": "a"})])["documents"]
    record = to_record(chunks[0])  # the core's ChunkRecord, exactly
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    from haystack import Document, component, default_from_dict, default_to_dict
except ImportError as error:  # pragma: no cover - see tests/integrations/test_integrations_lazy.py
    raise ImportError("haystack-ai is not installed: pip install 'chunkspec[haystack]'") from error

from .._chunkers._options import ChunkKeywords, ChunkOptions
from .._core._collector import collector_paused
from .._errors import ArgumentTypeError, ArgumentValueError
from .._records._record import ChunkRecord
from ._framework_documents import Chunking, chunk_metadata, claim, record_from_metadata

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ChunkspecDocumentSplitter", "to_document", "to_record"]


@component
class ChunkspecDocumentSplitter:
    """Split Haystack ``Document``s into chunk records with any chunkspec strategy.

    The options are ``options`` (a :class:`chunkspec.ChunkOptions` or a strategy name,
    OPT-1) or the core's option keywords (:class:`chunkspec.records.ChunkKeywords`,
    ``strategy`` ``heading`` by default) and ``input_format`` (``markdown``, ``text`` or ``html``);
    they are checked here, each error naming its argument. The component serialises with
    ``to_dict``/``from_dict``.
    """

    def __init__(
        self,
        options: str | ChunkOptions | None = None,
        *,
        input_format: str = "markdown",
        **keywords: Unpack[ChunkKeywords],
    ) -> None:
        self.chunking = Chunking(options, input_format=input_format, **keywords)

    @component.output_types(documents=list[Document])  # type: ignore[untyped-decorator]
    def run(self, documents: list[Document]) -> dict[str, list[Document]]:
        """Return ``{"documents": chunks}``: every chunk of every document, in order.

        A document's doc_id is ``meta["doc_id"]`` if present, else its ``id`` (ADAPT-2);
        two documents with one doc_id are refused (their chunk ids would clash, ADAPT-4).
        """
        if not isinstance(documents, list):
            raise ArgumentTypeError("documents", "a list of haystack.Document", documents)
        with collector_paused():  # linear time on big batches (docs/performance.md)
            return {"documents": self._split(documents)}

    def _split(self, documents: list[Document]) -> list[Document]:
        """Every chunk of every document, in order (``run``'s work)."""
        out: list[Document] = []
        owners: dict[str, str] = {}
        for position, document in enumerate(documents):
            if not isinstance(document, Document):
                raise ArgumentTypeError(f"documents[{position}]", "a haystack.Document", document)
            if document.content is None:
                raise ArgumentValueError(
                    f"documents[{position}].content", "must be text, not None", document.id
                )
            source = self.chunking.document(document.content, document.meta, document.id)
            claim(owners, source.doc_id, f"documents[{position}] (id {document.id!r})")
            for record in self.chunking.chunk(source):
                out.append(to_document(record, document.meta, document.id))
        return out

    def to_dict(self) -> dict[str, Any]:
        """Return the component's init parameters, as Haystack serialises components."""
        fields = self.chunking.options.to_dict()
        if fields["encoding_file"] is None:
            del fields["encoding_file"]  # the parameters of a call that gave none
        fields["input_format"] = self.chunking.input_format
        return dict(default_to_dict(self, **fields))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkspecDocumentSplitter:
        """Rebuild the component from :meth:`to_dict`'s output."""
        made = default_from_dict(cls, data)
        assert isinstance(made, cls)
        return made


def to_document(
    record: ChunkRecord, meta: dict[str, Any] | None = None, source_id: str | None = None
) -> Document:
    """Return ``record`` as a Haystack ``Document`` with Haystack's split names (ADAPT-3)."""
    data = chunk_metadata(record, meta or {})
    data["source_id"] = record.doc_id if source_id is None else source_id
    data["split_id"] = record.index
    data["split_idx_start"] = record.start
    data["page_number"] = 1 if record.page_start is None else record.page_start
    return Document(id=record.key, content=record.text, meta=data)  # ADAPT-8


def to_record(document: Document) -> ChunkRecord:
    """Return the :class:`chunkspec.ChunkRecord` a chunk ``Document`` was made from."""
    if document.content is None:
        raise ArgumentValueError("document.content", "must be text, not None", document.id)
    return record_from_metadata(document.content, document.meta)
