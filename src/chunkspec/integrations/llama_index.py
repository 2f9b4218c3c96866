"""A LlamaIndex node parser built on :func:`chunkspec.chunk_document` (extra
``chunkspec[llama-index]``), rules ADAPT-1..ADAPT-5.

:class:`ChunkspecNodeParser` is a real ``llama_index.core.node_parser.NodeParser``: use it
in ``IngestionPipeline(transformations=[...])``, ``get_nodes_from_documents`` or as
``Settings.node_parser``. Each ``TextNode`` is one chunk record: ``id_`` is the record's
stable ``key`` (ADAPT-8), ``metadata`` the input's metadata then the record's fields but ``text``,
``start_char_idx``/``end_char_idx`` its ``start``/``end``, and the relationships SOURCE
(the input), PARENT/CHILD (``parent_id``) and PREVIOUS/NEXT (``index`` order)::

    parser = ChunkspecNodeParser(strategy="heading", max_tokens=128)
    nodes = parser.get_nodes_from_documents([Document(text=text, id_="returns")])
    record = to_record(nodes[0])  # the core's ChunkRecord, exactly
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

try:
    from llama_index.core.bridge.pydantic import Field, PrivateAttr
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.schema import BaseNode, NodeRelationship, TextNode
except ImportError as error:  # pragma: no cover - see tests/integrations/test_integrations_lazy.py
    raise ImportError(
        "llama-index-core is not installed: pip install 'chunkspec[llama-index]'"
    ) from error

from .._chunkers._options import OPTION_KEYWORDS, ChunkOptions
from .._core._collector import collector_paused
from .._errors import ArgumentTypeError
from .._records._record import RECORD_FIELDS, ChunkRecord
from ._framework_documents import Chunking, chunk_metadata, claim, record_from_metadata

__all__ = ["ChunkspecNodeParser", "to_record"]

#: The record fields kept out of the text LlamaIndex embeds and shows the LLM (ADAPT-5).
_HIDDEN = [name for name in RECORD_FIELDS if name != "text"]


class ChunkspecNodeParser(NodeParser):  # type: ignore[misc]  # LlamaIndex is typed as Any
    """A LlamaIndex ``NodeParser`` for any :func:`chunkspec.chunk_document` strategy.

    The options are one ``options`` (a :class:`chunkspec.ChunkOptions` or a strategy name,
    OPT-1) or the core's option keywords (:class:`chunkspec.records.ChunkKeywords`), and
    ``input_format`` (``markdown``, ``text`` or ``html``); NodeParser's ``include_metadata`` (carry
    the input's metadata) and ``include_prev_next_rel`` keep their meaning. Options are
    checked when the parser is made; the field ``options`` holds them as JSON values
    (:meth:`chunkspec.ChunkOptions.to_dict`), which is what LlamaIndex serialises.
    """

    options: dict[str, Any] = Field(default_factory=dict)
    input_format: str = "markdown"
    _chunking: Chunking = PrivateAttr()

    @classmethod
    def class_name(cls) -> str:
        """Return the name LlamaIndex serialises this component under."""
        return "ChunkspecNodeParser"

    def __init__(
        self,
        options: str | ChunkOptions | Mapping[str, Any] | None = None,
        *,
        input_format: str = "markdown",
        **kwargs: Any,
    ) -> None:
        # Checked here, before pydantic, so a bad option raises the core's error naming it.
        # The keywords of ChunkKeywords are the options; the rest are NodeParser's fields.
        # A mapping is this parser's own serialised ``options`` (LlamaIndex's from_dict).
        keywords = {key: kwargs.pop(key) for key in OPTION_KEYWORDS if key in kwargs}
        strange = sorted(key for key in kwargs if key not in type(self).model_fields)
        if strange:  # pydantic would drop it: a misspelt option must not pass unseen
            raise ArgumentTypeError(
                strange[0], f"an option keyword ({', '.join(OPTION_KEYWORDS)})", kwargs[strange[0]]
            )
        if isinstance(options, Mapping):
            options = ChunkOptions.from_dict(options)
        chunking = Chunking(options, input_format=input_format, **keywords)
        # The options as JSON values: what LlamaIndex serialises and its ingestion cache
        # hashes, so two parsers with other options never share cached nodes.
        super().__init__(options=chunking.options.to_dict(), input_format=input_format, **kwargs)
        self._chunking = chunking

    def chunking(self) -> Chunking:
        """Return these options as the adapters' shared :class:`Chunking`."""
        return self._chunking

    @collector_paused()  # linear time on big batches (docs/performance.md)
    def _parse_nodes(
        self, nodes: Sequence[BaseNode], show_progress: bool = False, **kwargs: Any
    ) -> list[BaseNode]:
        """Chunk every input node; refuse two inputs with one doc_id (ADAPT-4)."""
        chunking = self.chunking()
        out: list[BaseNode] = []
        owners: dict[str, str] = {}
        for node in nodes:
            if not isinstance(node, BaseNode):
                raise ArgumentTypeError("nodes", "LlamaIndex nodes or documents", node)
            metadata: Mapping[str, Any] = node.metadata
            document = chunking.document(
                node.get_content(), metadata, node.node_id, carry=self.include_metadata
            )
            claim(owners, document.doc_id, f"node {node.node_id!r}")
            out.extend(self._nodes(chunking.chunk(document), node))
        return out

    def _nodes(self, records: list[ChunkRecord], source: BaseNode) -> list[TextNode]:
        """Return one TextNode per record with its SOURCE, PARENT/CHILD, PREVIOUS/NEXT."""
        carried = source.metadata if self.include_metadata else {}
        made = [
            TextNode(
                id_=record.key,  # ADAPT-8: the stable key; the record's id is in metadata
                text=record.text,
                metadata=chunk_metadata(record, carried),
                start_char_idx=record.start,
                end_char_idx=record.end,
                excluded_embed_metadata_keys=[*source.excluded_embed_metadata_keys, *_HIDDEN],
                excluded_llm_metadata_keys=[*source.excluded_llm_metadata_keys, *_HIDDEN],
                metadata_separator=source.metadata_separator,
                metadata_template=source.metadata_template,
                text_template=getattr(source, "text_template", "{metadata_str}\n\n{content}"),
            )
            for record in records
        ]
        by_id = {record.id: node for record, node in zip(records, made, strict=True)}
        origin = source.as_related_node_info()
        children: dict[str, list[Any]] = {}
        for record, node in zip(records, made, strict=True):
            node.relationships[NodeRelationship.SOURCE] = origin
            if record.parent_id is not None and record.parent_id in by_id:
                node.relationships[NodeRelationship.PARENT] = by_id[
                    record.parent_id
                ].as_related_node_info()
                children.setdefault(record.parent_id, []).append(node.as_related_node_info())
            if self.include_prev_next_rel and record.index > 0:
                node.relationships[NodeRelationship.PREVIOUS] = made[
                    record.index - 1
                ].as_related_node_info()
            if self.include_prev_next_rel and record.index + 1 < len(made):
                node.relationships[NodeRelationship.NEXT] = made[
                    record.index + 1
                ].as_related_node_info()
        for parent, infos in children.items():
            by_id[parent].relationships[NodeRelationship.CHILD] = infos
        return made

    def _postprocess_parsed_nodes(
        self, nodes: list[BaseNode], parent_doc_map: dict[str, Any]
    ) -> list[BaseNode]:
        """Keep the nodes as made: LlamaIndex's own pass would re-find each chunk's offset by
        text search (wrong for repeated text and prefixed chunks) and redo relationships."""
        return nodes


def to_record(node: BaseNode) -> ChunkRecord:
    """Return the :class:`chunkspec.ChunkRecord` a chunk node was made from."""
    return record_from_metadata(node.get_content(), node.metadata)
