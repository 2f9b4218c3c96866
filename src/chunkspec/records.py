"""The chunk record and the documents it is cut from (docs/spec/records.md, RECORD-*, SOURCE-*).

:func:`chunk_document` turns a :class:`SourceDocument` into :class:`ChunkRecord` under one
:class:`ChunkOptions` (or its keywords, :class:`ChunkKeywords`); a :class:`ChunkJob` adds
the reading options of a corpus (:class:`JobKeywords`); the constants name the record's
fields, kinds, strategies and input formats, and :func:`record_json_schema` is the record's
JSON Schema. :class:`Metadata` is a record's read-only ``metadata`` and :func:`metadata_json`
its canonical JSON text (META rules).
:func:`pack_records` packs scored records into a cited context (:class:`PackedContext` of
:class:`Passage`), keeping out what a :class:`Principal` may not read (docs/spec/context.md).
"""

from ._chunkers._options import ChunkKeywords, ChunkOptions
from ._core._metadata import Metadata, metadata_json
from ._errors import InputError
from ._packing._access import Principal
from ._packing._context import PackedContext, Passage
from ._packing._pack_records import pack_records
from ._records._chunk_document import STRATEGY_NAMES, chunk_document, default_overlap
from ._records._job import ChunkJob, JobKeywords
from ._records._record import KINDS as RECORD_KINDS
from ._records._record import RECORD_FIELDS, ChunkRecord, render_title
from ._records._schema import record_json_schema
from ._text._documents import (
    INPUT_FORMATS,
    SourceDocument,
    document_from_bytes,
    document_from_text,
    read_document,
)

__all__ = [
    "INPUT_FORMATS",
    "RECORD_FIELDS",
    "RECORD_KINDS",
    "STRATEGY_NAMES",
    "ChunkJob",
    "ChunkKeywords",
    "ChunkOptions",
    "ChunkRecord",
    "InputError",
    "JobKeywords",
    "Metadata",
    "PackedContext",
    "Passage",
    "Principal",
    "SourceDocument",
    "chunk_document",
    "default_overlap",
    "document_from_bytes",
    "document_from_text",
    "metadata_json",
    "pack_records",
    "read_document",
    "record_json_schema",
    "render_title",
]
