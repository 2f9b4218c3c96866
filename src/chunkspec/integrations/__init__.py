"""Adapters for LangChain, LlamaIndex and Haystack (docs/integrations.md, ADAPT rules).

Each adapter is its own module behind its own extra: ``chunkspec.integrations.langchain``
(``chunkspec[langchain]``), ``chunkspec.integrations.llama_index``
(``chunkspec[llama-index]``) and ``chunkspec.integrations.haystack``
(``chunkspec[haystack]``). Importing this package imports none of the frameworks.
"""

from ._framework_documents import (
    DOCUMENT_KEYS,
    Chunking,
    chunk_metadata,
    default_doc_id,
    record_from_metadata,
)

__all__ = [
    "DOCUMENT_KEYS",
    "Chunking",
    "chunk_metadata",
    "default_doc_id",
    "record_from_metadata",
]
