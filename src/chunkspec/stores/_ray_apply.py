"""Applying a result on Ray: the batches embedded (and written) by Ray tasks (STORE-5..7).

:func:`ray_writer` gives ``apply_result(..., write=ray_writer())`` a :data:`Writer` that
runs each batch as one Ray task, spread over Ray's workers. A task embeds its batch with
the embedder's function (shipped by Ray's pickling), through the embedding cache when
there is one (each task opens the cache's folder: one SQLite file, safe across
processes). Then:

* a store whose class says ``concurrent_writes = True`` (LanceDB: optimistic commits) is
  written by the workers, one store opened once per worker process. The first batch is
  written here first, so the collection exists (with the vectors' dimension) before any
  worker writes, and no two workers race to create it;
* any other store (Milvus Lite, Chroma's and Qdrant's local modes lock their files, or
  are not safe across processes) gets the vectors back, and this process writes them.

Each task returns its embedder calls and texts embedded, added to the embedder here, so
its counts (and the :class:`ApplyReport`'s) are those of every call, wherever it ran.
Ray is joined (``address`` or RAY_ADDRESS) or started as ``chunkspec ingest --engine ray``
starts it (127.0.0.1, no dashboard, no telemetry), and stopped afterwards if started here.
"""

from __future__ import annotations

import contextlib
import functools
import os
import pickle
import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .._corpus._process_family import descendants, kill
from .._corpus._ray_engine import start_ray
from .._errors import ArgumentTypeError, ArgumentValueError, StoreError
from .._evaluation._embed_cache import EmbeddingCache
from ._apply import Batch, Writer, store_rows
from ._embedder import Embedder, EmbedFunction, open_cache
from ._open import open_store, parse_address
from ._rows import embedded_text
from ._store import Store

__all__ = ["ray_writer"]

#: What a task needs to embed: model, function, batch size, the cache's folder (or None).
Spec = tuple[str, EmbedFunction, int, str | None]

#: A task's answer: vectors (empty when it wrote them itself), calls, texts embedded, and
#: the vectors' dimension (None: nothing was embedded).
Answer = tuple[list[tuple[float, ...]], int, int, int | None]

#: The stores a worker process opened, by address: one writer per process (see module).
_OPENED: dict[str, Store] = {}

#: Tasks in flight per CPU of the cluster (the rest wait here, not in Ray's object store).
_IN_FLIGHT_PER_CPU = 2


class _Carried(Exception):
    """A task's exception carried to the driver: its class, message and attributes.

    chunkspec's errors take other arguments than their message, so Ray could not rebuild
    them from their pickle; this one holds plain values and rebuilds the original here.
    """

    def __init__(self, kind: type[BaseException], message: str, state: dict[str, Any]) -> None:
        super().__init__(kind, message, state)

    @classmethod
    def of(cls, error: Exception) -> _Carried:
        """Carry ``error`` (an unpicklable class or attribute becomes a RuntimeError / is
        left out)."""
        kind: type[BaseException] = type(error)
        message = str(error)
        try:
            pickle.dumps(kind)
        except Exception:  # a class defined in a function: say its name
            kind, message = RuntimeError, f"{type(error).__name__}: {message}"
        state = {}
        for name, value in vars(error).items():
            try:
                pickle.dumps(value)
            except Exception:
                continue
            state[name] = value
        return cls(kind, message, state)

    def rebuilt(self) -> BaseException:
        """The original exception again (its class, message and attributes)."""
        kind, message, state = self.args
        error: BaseException = kind.__new__(kind)
        error.args = (message,)
        vars(error).update(state)
        return error


def _carrying(task: Callable[..., Answer]) -> Callable[..., Answer]:
    """``task`` whose exception reaches the driver as itself (see :class:`_Carried`)."""

    @functools.wraps(task)
    def run(*args: Any) -> Answer:
        try:
            return task(*args)
        except Exception as error:
            raise _Carried.of(error) from None

    return run


def _embed(batch: Batch, spec: Spec) -> tuple[list[tuple[float, ...]], Embedder]:
    """STORE-6, STORE-7: embed one batch's texts on a worker, through the cache if any."""
    model, function, batch_size, folder = spec
    embedder = Embedder(model, function, batch_size=batch_size)
    cache: EmbeddingCache | None = open_cache(folder, model)
    vectors = embedder.vectors([embedded_text(row) for _, row, _ in batch], cache)
    return vectors, embedder


def _dimension(vectors: Sequence[tuple[float, ...]], embedder: Embedder) -> int | None:
    """The vectors' dimension (None if there are none)."""
    return len(vectors[0]) if vectors else embedder.dimension


@_carrying
def embed_task(batch: Batch, spec: Spec) -> Answer:
    """A Ray task: the batch's vectors and the counts (the driver writes them)."""
    vectors, embedder = _embed(batch, spec)
    return vectors, embedder.calls, embedder.embedded, _dimension(vectors, embedder)


def worker_store(address: str) -> Store:
    """The store at ``address`` (``SCHEME://PATH#COLLECTION``), opened once per process."""
    store = _OPENED.get(address)
    if store is None:
        where, _, collection = address.rpartition("#")
        if not os.path.exists(parse_address(where)[1]):  # the driver created it first
            raise StoreError(
                f"{address}: not found on the Ray node {socket.gethostname()}: a store the "
                "workers write must be in a folder every node of the cluster shares"
            )
        store = open_store(where, collection=collection)
        _OPENED[address] = store
    return store


@_carrying
def write_task(batch: Batch, spec: Spec, address: str) -> Answer:
    """A Ray task: embed the batch and write it through this worker's store (STORE-5)."""
    store = worker_store(address)
    vectors, embedder = _embed(batch, spec)
    store.upsert(store_rows(batch, vectors))
    return [], embedder.calls, embedder.embedded, _dimension(vectors, embedder)


def _count(embedder: Embedder, answer: Answer) -> list[tuple[float, ...]]:
    """Add a task's counts to the driver's embedder, checking the vectors' one dimension."""
    vectors, calls, embedded, dimension = answer
    embedder.calls += calls
    embedder.embedded += embedded
    if dimension is not None:
        if embedder.dimension is None:
            embedder.dimension = dimension
        elif dimension != embedder.dimension:
            raise ArgumentValueError(
                "embed(...)", f"must return vectors of one length ({embedder.dimension})", dimension
            )
    return vectors


def _answers(ray: Any, submit: Iterator[tuple[Any, Batch]], window: int) -> Iterator[Any]:
    """``(answer, batch)`` of each submitted task as it finishes, at most ``window`` in
    flight."""
    running: dict[Any, Batch] = {}
    pending = True
    try:
        while pending or running:
            while pending and len(running) < window:
                try:
                    ref, batch = next(submit)
                except StopIteration:
                    pending = False
                    break
                running[ref] = batch
            if not running:
                break
            done, _ = ray.wait(list(running), num_returns=1)
            batch = running.pop(done[0])
            yield _get(ray, done[0]), batch
    except BaseException:  # one task failed: the others write nothing more (STORE-5 re-runs)
        for ref in running:
            with contextlib.suppress(Exception):
                ray.cancel(ref)
        raise


def _get(ray: Any, ref: Any) -> Answer:
    """A task's answer; its exception raised as itself (not wrapped by Ray)."""
    try:
        answer: Answer = ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = getattr(error, "cause", None)
        if isinstance(cause, _Carried):
            raise cause.rebuilt() from None
        raise
    return answer


def _run(
    ray: Any, batches: list[Batch], store: Store, embedder: Embedder, folder: str | None
) -> None:
    """Every batch embedded on Ray, written by the workers or here (see the module)."""
    spec = ray.put((embedder.model, embedder.function, embedder.batch_size, folder))
    window = _IN_FLIGHT_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 1)))
    embed = ray.remote(embed_task)
    if getattr(store, "concurrent_writes", False) is True:
        # the collection is created here, by the first batch, before any worker writes
        first = batches[0]
        store.upsert(store_rows(first, _count(embedder, _get(ray, embed.remote(first, spec)))))
        write = ray.remote(write_task)
        tasks = ((write.remote(batch, spec, store.address), batch) for batch in batches[1:])
        for answer, _ in _answers(ray, tasks, window):
            _count(embedder, answer)
        return
    tasks = ((embed.remote(batch, spec), batch) for batch in batches)
    for answer, batch in _answers(ray, tasks, window):
        store.upsert(store_rows(batch, _count(embedder, answer)))


def ray_writer(address: str | None = None, *, workers: int | None = None) -> Writer:
    """The :data:`Writer` that embeds (and, where the store allows, writes) on Ray.

    ``address`` joins a cluster (None: RAY_ADDRESS, else a local Ray of ``workers`` CPUs,
    every CPU by default), as ``chunkspec ingest --engine ray --address`` does. A Ray this
    writer started is stopped, with every process it started, when the writing ends.
    """
    if address is not None and not isinstance(address, str):
        raise ArgumentTypeError("address", "a str such as 'ray://host:10001', or None", address)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)):
        raise ArgumentTypeError("workers", "an int or None", workers)
    if workers is not None and workers < 1:
        raise ArgumentValueError("workers", "must be at least 1", workers)

    def write(
        batches: list[Batch], store: Store, embedder: Embedder, cache: EmbeddingCache | None
    ) -> None:
        """Embed and write ``batches`` on Ray (STORE-5..STORE-7)."""
        if not batches:
            return
        from ..ray import _ray

        try:
            ray = _ray()
        except ImportError as error:
            raise StoreError(f"{store.address}: {error}") from None
        started = not ray.is_initialized()
        try:
            start_ray(address, workers)
            _run(ray, batches, store, embedder, None if cache is None else cache.directory)
        finally:
            if started:  # CLI-20: stop the Ray started here, and all its processes
                family = descendants(os.getpid())
                ray.shutdown()
                kill({**family, **descendants(os.getpid())})

    return write
