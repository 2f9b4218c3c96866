"""The local corpus engine: documents chunked in this process or a pool.

Tasks are consecutive groups of input files; a worker reads its files and returns their
rows (SCALE-2), and the parent writes the results in input order. So the output is the
same, byte for byte, whatever the number of workers. Workers are started with ``spawn``
(no state inherited from the parent) and build their counter from its name (SCALE-6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .._core._metadata import Metadata
from .._records._job import ChunkJob
from .._records._rows import RawDocument, document_rows, input_error_row
from .._text._regular_files import OverCap, read_regular
from ._worker_pool import WorkerPool

if TYPE_CHECKING:
    from ._walk import Input

__all__ = ["Item", "chunk_task", "item_of", "read_rows", "run_local"]

#: One input: (path, doc_id, source, problem, metadata[, stream]); ``source`` is the path as
#: valid text (CLI-16), ``problem`` why a path found in a folder cannot be read (CLI-17),
#: else None, ``metadata`` the caller's metadata of the document (META-7), else None, and
#: ``stream`` (default False) true for a FIFO named on the command line (TRUST-31).
Item = (
    tuple[str, str, str, str | None, Metadata | None]
    | tuple[str, str, str, str | None, Metadata | None, bool]
)


def item_of(found: Input, sidecar: Mapping[str, Metadata]) -> Item:
    """The item of one input, with its sidecar metadata (META-7)."""
    metadata = sidecar.get(found.doc_id)
    if found.stream:
        return (found.path, found.doc_id, found.source, found.problem, metadata, True)
    return (found.path, found.doc_id, found.source, found.problem, metadata)


#: A task: the inputs it chunks, and the job as one value (ChunkJob.to_dict, OPT-3).
Task = tuple[list[Item], dict[str, Any]]


def read_rows(item: Item, job: ChunkJob) -> list[dict[str, Any]]:
    """Return the rows of one input; one that cannot be read is an error row (CLI-17).

    TRUST-31, TRUST-32: only a regular file is read (a FIFO only when named on the command
    line), checked on the open descriptor, and at most ``max_bytes + 1`` of its bytes.
    """
    path, doc_id, source, problem, metadata = item[:5]
    stream = item[5] if len(item) == 6 else False
    if problem is not None:
        return [input_error_row(doc_id, source, source, problem)]
    try:
        data = read_regular(path, cap=job.max_bytes, fifo=stream)
    except (OverCap, OSError) as error:  # SCALE-5 on the bytes read, TRUST-31, CLI-17
        return [input_error_row(doc_id, source, source, error)]
    return document_rows(RawDocument(doc_id, source, data, None, metadata), job)


def chunk_task(task: Task) -> list[list[dict[str, Any]]]:
    """Return the rows of each input of ``task`` (run in a worker process).

    The job is rebuilt from its one value here, so a worker builds its own counter and
    registers the job's encoding file first (COUNT-9).
    """
    items, data = task
    job = ChunkJob.from_dict(data)
    return [read_rows(item, job) for item in items]


def run_local(
    groups: list[list[Item]],
    job: ChunkJob,
    workers: int,
    done: Callable[[list[dict[str, Any]]], None],
) -> None:
    """Chunk every group; call ``done`` with each document's rows, in input order."""
    data = job.to_dict()
    if workers <= 1:
        for group in groups:
            for rows in chunk_task((group, data)):
                done(rows)
        return
    with WorkerPool(chunk_task, workers) as pool:
        # At most 4 tasks per worker ahead of the oldest unfinished one: finished results
        # wait only for the slowest earlier task, never for the whole job, so the parent's
        # memory stays bounded.
        for result in pool.map_in_order(((group, data) for group in groups), workers * 4):
            for rows in result:
                done(rows)
