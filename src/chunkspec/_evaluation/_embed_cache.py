"""An on-disk cache of dense embeddings, keyed by model and text (rule EVAL-42).

The dense retriever embeds the same texts in every run (a strategy's chunks do not change
between runs, and many strategies share chunks, such as the questions); with
``CHUNKSPEC_EMBED_CACHE=DIR`` each text is embedded once and read back afterwards. The
cache is a SQLite file ``DIR/embeddings.sqlite`` mapping ``sha256(model NUL text)`` to the
float32 vector's bytes.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["CACHE_VARIABLE", "EmbeddingCache", "cache_key", "cached_encode"]

#: The environment variable naming the cache directory; unset or empty: no cache.
CACHE_VARIABLE = "CHUNKSPEC_EMBED_CACHE"


#: Texts embedded between two writes to the cache.
_SAVE_EVERY = 512


def cache_key(model: str, text: str) -> str:
    """EVAL-42: ``sha256(model NUL text)`` in lowercase hex, over UTF-8."""
    return hashlib.sha256(f"{model}\0{text}".encode()).hexdigest()


class EmbeddingCache:
    """Float32 vectors by ``(model, text)`` in one SQLite file."""

    def __init__(self, directory: str, model: str) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory  # another process opens its own (chunkspec.stores)
        self._db = sqlite3.connect(os.path.join(directory, "embeddings.sqlite"))
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, v BLOB)")
        self._model = model

    def key(self, text: str) -> str:
        """Return the key of ``text`` under this cache's model."""
        return cache_key(self._model, text)

    def get(self, keys: Sequence[str]) -> dict[str, bytes]:
        """Return the stored vectors among ``keys``."""
        out: dict[str, bytes] = {}
        for first in range(0, len(keys), 500):
            part = list(keys[first : first + 500])
            marks = ",".join("?" * len(part))
            query = f"SELECT key, v FROM vectors WHERE key IN ({marks})"
            out.update(self._db.execute(query, part).fetchall())
        return out

    def put(self, items: Sequence[tuple[str, bytes]]) -> None:
        """Store ``(key, vector bytes)`` pairs."""
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", items)


def cached_encode(texts: Sequence[str], encode: Callable[[list[str]], Any], model: str) -> Any:
    """Return ``encode(texts)`` as a float32 matrix, through the cache when one is set.

    Only the texts missing from the cache are encoded (each distinct text once, in batches
    of ``_SAVE_EVERY`` saved as they are done); the result's rows are in the order of
    ``texts`` either way.
    """
    import numpy as np

    directory = os.environ.get(CACHE_VARIABLE, "")
    if not directory:
        return np.asarray(encode(list(texts)), dtype=np.float32)
    cache = EmbeddingCache(directory, model)
    keys = [cache.key(t) for t in texts]
    found = cache.get(list(dict.fromkeys(keys)))
    missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in found}
    todo = list(missing.items())
    for first in range(0, len(todo), _SAVE_EVERY):  # saved as it goes: a killed run keeps them
        part = todo[first : first + _SAVE_EVERY]
        fresh = np.asarray(encode([t for _, t in part]), dtype=np.float32)
        items = [(k, row.tobytes()) for (k, _), row in zip(part, fresh, strict=True)]
        cache.put(items)
        found.update(items)
    if not keys:
        return np.zeros((0, 0), dtype=np.float32)
    return np.stack([np.frombuffer(found[k], dtype=np.float32) for k in keys])
