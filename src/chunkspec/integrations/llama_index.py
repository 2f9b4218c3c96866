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
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.schema import BaseNode, NodeRelationship, TextNode
except ImportError as error:  # pragma: no cover - see tests/integrations/test_integrations_lazy.py
    raise ImportError(
        "llama-index-core is not installed: pip install 'chunkspec[llama-index]'"
    ) from error

from .._chunkers._options import UNSET, ChunkOptions, Unset
from .._core._collector import collector_paused
from .._counters._builtin import TokenSpanCounter
from .._errors import ArgumentTypeError
from .._records._record import RECORD_FIELDS, ChunkRecord
from ._documents import Chunking, chunk_metadata, claim, record_from_metadata

__all__ = ["ChunkspecNodeParser", "to_record"]

#: The record fields kept out of the text LlamaIndex embeds and shows the LLM (ADAPT-5).
_HIDDEN = [name for name in RECORD_FIELDS if name != "text"]


class ChunkspecNodeParser(NodeParser):  # type: ignore[misc]  # LlamaIndex is typed as Any
    """A LlamaIndex ``NodeParser`` for any :func:`chunkspec.chunk_document` strategy.

    The fields are the core's options (``strategy`` ``heading`` by default, ``max_tokens``,
    ``overlap_tokens``, ``counter``, ``encoding_file``, ``count_headings``,
    ``split_tables``, ``min_tokens``, ``budget_includes_headings``), given as keywords or
    as one ``options`` (OPT-1), and
    ``input_format`` (``markdown`` or ``text``); NodeParser's ``include_metadata`` (carry
    the input's metadata) and ``include_prev_next_rel`` keep their meaning. Options are
    checked when the parser is made.
    """

    strategy: str = "heading"
    max_tokens: int = 512
    overlap_tokens: int | None = None
    counter: Any = "whitespace"
    encoding_file: str | None = None
    input_format: str = "markdown"
    count_headings: bool = False
    split_tables: bool = False
    min_tokens: int | None = None
    budget_includes_headings: bool = False

    @classmethod
    def class_name(cls) -> str:
        """Return the name LlamaIndex serialises this component under."""
        return "ChunkspecNodeParser"

    def __init__(
        self,
        *,
        options: ChunkOptions | None = None,
        strategy: str | Unset = UNSET,
        max_tokens: int | Unset = UNSET,
        overlap_tokens: int | Unset | None = UNSET,
        counter: str | TokenSpanCounter | Unset = UNSET,
        encoding_file: str | Unset | None = UNSET,
        input_format: str = "markdown",
        count_headings: bool | Unset = UNSET,
        split_tables: bool | Unset = UNSET,
        min_tokens: int | Unset | None = UNSET,
        budget_includes_headings: bool | Unset = UNSET,
        **kwargs: Any,
    ) -> None:
        # Checked here, before pydantic, so a bad option raises the core's error naming it.
        chosen = Chunking(
            options,
            input_format=input_format,
            strategy=strategy,
            max_tokens=max_tokens,
            overlap_tokens=overlap_tokens,
            counter=counter,
            encoding_file=encoding_file,
            count_headings=count_headings,
            split_tables=split_tables,
            min_tokens=min_tokens,
            budget_includes_headings=budget_includes_headings,
        ).options
        super().__init__(
            strategy=chosen.strategy,
            max_tokens=chosen.max_tokens,
            overlap_tokens=chosen.overlap_tokens,
            counter=chosen.counter,
            encoding_file=chosen.encoding_file,
            input_format=input_format,
            count_headings=chosen.count_headings,
            split_tables=chosen.split_tables,
            min_tokens=chosen.min_tokens,
            budget_includes_headings=chosen.budget_includes_headings,
            **kwargs,
        )

    def chunking(self) -> Chunking:
        """Return these options as the adapters' shared :class:`Chunking`."""
        return Chunking(
            ChunkOptions(
                self.strategy,
                self.max_tokens,
                self.overlap_tokens,
                self.counter,
                self.encoding_file,
                self.count_headings,
                self.split_tables,
                self.min_tokens,
                self.budget_includes_headings,
            ),
            input_format=self.input_format,
        )

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
