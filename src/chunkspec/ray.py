"""Chunk a Ray Data dataset of documents (extra ``chunkspec[ray]``), docs/scale.md.

``import chunkspec`` never imports this module or Ray. Every batch goes through
:func:`chunkspec.arrow.chunk_table` (SCALE-1..SCALE-7), so a cluster writes the rows that
``chunkspec ingest`` writes on one machine::

    import ray
    from chunkspec.ray import chunk_dataset

    docs = ray.data.read_parquet("s3://bucket/docs/")  # doc_id, source, bytes
    chunk_dataset(docs, strategy="heading", max_tokens=512).write_parquet("s3://bucket/chunks/")
"""

from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING, Any

from ._chunkers._options import ChunkOptions
from ._core._validate import require_int
from ._errors import ArgumentTypeError
from ._records._job import ChunkJob, JobKeywords, job_of
from ._records._size_policy import BIG_MEMORY_PER_BYTE as BIG_MEMORY_PER_BYTE
from ._records._size_policy import is_big, reserved_memory

if TYPE_CHECKING:
    import pyarrow as pa
    from typing_extensions import Unpack

__all__ = ["chunk_dataset"]


def _ray() -> Any:
    """Import Ray, or say which extra installs it."""
    try:
        import ray
        import ray.data
    except ImportError:
        raise ImportError("ray is not installed: pip install 'chunkspec[ray]'") from None
    return ray


def _chunk_batch(batch: pa.Table, job: dict[str, Any]) -> pa.Table:
    """One Ray Data batch through chunk_table (run on a worker; SCALE-6).

    ``job`` is :meth:`ChunkJob.to_dict`'s one value: rebuilding it on the worker builds
    the counter there, registering an encoding file first (OPT-3, COUNT-9).
    """
    from .arrow import chunk_table

    return chunk_table(batch, ChunkJob.from_dict(job))


def _payload_size(row: dict[str, Any]) -> int:
    """The bytes of a row's document (UTF-8 for ``text``), as SCALE-5 counts them."""
    data = row["bytes"] if "bytes" in row else row["text"]
    return len(data.encode("utf-8")) if isinstance(data, str) else len(data)


def _is_big(row: dict[str, Any], big_bytes: int, max_bytes: int | None, big: bool) -> bool:
    """True if the row's document is big (over ``big_bytes``, not over the hard cap)."""
    return is_big(_payload_size(row), big_bytes, max_bytes) == big


def chunk_dataset(
    ds: Any,
    options: ChunkOptions | ChunkJob | None = None,
    *,
    big_bytes: int | None = None,
    big_memory: int | None = None,
    batch_size: int = 16,
    memory: int | None = None,
    max_retries: int = 3,
    **keywords: Unpack[JobKeywords],
) -> Any:
    """Return the dataset of chunk rows of ``ds`` (lazy, a ``ray.data.Dataset``).

    ``ds`` has chunk_table's input columns (SCALE-1: ``doc_id``, ``bytes`` or ``text``, optionally
    ``source``, ``input_format`` and ``metadata``, META-8); the result has chunk_table's output
    schema (SCALE-2), rows in no particular order: sort by ``(doc_id, index)`` to compare. The
    options are ``options`` (a :class:`chunkspec.ChunkJob` or :class:`chunkspec.ChunkOptions`)
    or chunk_table's keywords (OPT-1), checked here before any task runs (SCALE-4); they
    reach every task as one value (OPT-3), so a counter is a name there (an encoding file
    must be readable on every worker, COUNT-9).

    ``batch_size`` documents go to a task, each task reserving ``memory`` bytes of Ray
    memory if given. Big documents: with ``big_bytes``, a document over ``big_bytes``
    bytes (and not over ``max_bytes``) is chunked alone, one per task, with ``big_memory``
    bytes reserved (default ``BIG_MEMORY_PER_BYTE * big_bytes``), so two giants never share
    a worker. The split filters ``ds`` twice, so Ray computes ``ds`` twice; when the sizes
    are known before reading (files), read small and big ones as two datasets and call
    this on each instead (``chunkspec ingest`` does). ``max_bytes`` is the hard cap over
    which a document is an error row (SCALE-5); ``encoding`` and ``pdf_password`` read the
    documents' bytes (SCALE-8). ``max_retries`` caps Ray's retries of a
    task whose worker died (Ray Data's default is to retry forever); an exception inside
    chunking is an error row (SCALE-4), never a retry or a failed job.
    """
    ray = _ray()
    if not isinstance(ds, ray.data.Dataset):
        raise ArgumentTypeError("ds", "a ray.data.Dataset", ds)
    whole = job_of(options, keywords)
    chosen = whole.options
    if not isinstance(chosen.counter, str):
        raise ArgumentTypeError(
            "counter", "a counter name (str): a Ray task builds its own counter", chosen.counter
        )
    job = whole
    max_bytes = whole.max_bytes
    require_int("batch_size", batch_size, minimum=1)
    require_int("max_retries", max_retries, minimum=0)
    if big_bytes is not None:
        require_int("big_bytes", big_bytes, minimum=0)
    if big_memory is not None:
        require_int("big_memory", big_memory, minimum=1)
    if memory is not None:
        require_int("memory", memory, minimum=1)

    def chunked(part: Any, size: int, reserve: int | None) -> Any:
        return job_dataset(part, job, size, reserve, max_retries)

    if big_bytes is None:
        return chunked(ds, batch_size, memory)
    reserve = reserved_memory(max(big_bytes, 1), big_memory)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "use expr": a size has no expression
        # A document over the hard cap is an error row without any memory (SCALE-5): small.
        small = ds.filter(
            functools.partial(_is_big, big_bytes=big_bytes, max_bytes=max_bytes, big=False)
        )
        big = ds.filter(
            functools.partial(_is_big, big_bytes=big_bytes, max_bytes=max_bytes, big=True)
        )
    return chunked(small, batch_size, memory).union(chunked(big, 1, reserve))


def job_dataset(
    ds: Any, job: ChunkJob, batch_size: int, memory: int | None, max_retries: int = 3
) -> Any:
    """The dataset of chunk rows of ``ds`` under ``job``, ``batch_size`` documents a task,
    each reserving ``memory`` bytes if given (checked by the caller). The job reaches every
    task whole, as one value (OPT-3): :func:`chunk_dataset` and the Ray corpus engine."""
    data = job.to_dict()
    with warnings.catch_warnings():
        # Ray 2.60 takes max_retries only among the deprecated **ray_remote_args.
        warnings.simplefilter("ignore", DeprecationWarning)
        return ds.map_batches(
            _chunk_batch,
            batch_format="pyarrow",
            batch_size=batch_size,
            fn_kwargs={"job": data},
            zero_copy_batch=True,
            memory=memory,
            max_retries=max_retries,
        )
