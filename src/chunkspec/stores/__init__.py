"""Vector stores: a corpus kept equal to its ``ingest`` result (docs/stores.md, STORE rules).

Each store is its own module behind its own extra: ``chunkspec.stores.lancedb``
(``chunkspec[lancedb]``, the default), ``chunkspec.stores.chroma``, ``chunkspec.stores.qdrant``
and ``chunkspec.stores.milvus``. Importing this package imports none of them::

    store = open_store("lancedb://./store")
    report = apply_result("out/", store, local_embedder())   # idempotent (STORE-5)
    records, scores = search_records(store, "how do I install it?", embedder, principal=me)
"""

from .._errors import StoreError
from ._apply import ApplyReport, apply_records, apply_result, held_digest
from ._embedder import (
    LOCAL_MODEL,
    Embedder,
    EmbedFunction,
    default_cache,
    local_embedder,
    named_embedder,
)
from ._open import DEFAULT_COLLECTION, SCHEMES, open_store, parse_address
from ._query import search_records
from ._ray_apply import ray_writer
from ._rows import digest_of, embedded_text, fields_of, record_of
from ._store import FIELDS, NULLABLE, Hit, Store, StoreRow

__all__ = [
    "DEFAULT_COLLECTION",
    "FIELDS",
    "LOCAL_MODEL",
    "NULLABLE",
    "SCHEMES",
    "ApplyReport",
    "EmbedFunction",
    "Embedder",
    "Hit",
    "Store",
    "StoreError",
    "StoreRow",
    "apply_records",
    "apply_result",
    "default_cache",
    "digest_of",
    "embedded_text",
    "fields_of",
    "held_digest",
    "local_embedder",
    "named_embedder",
    "open_store",
    "parse_address",
    "ray_writer",
    "record_of",
    "search_records",
]
