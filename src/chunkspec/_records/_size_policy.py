"""The big/small-document policy of both corpus engines and of ``chunk_dataset`` (SCALE-5).

A document over ``max_bytes`` is an error row and never read whole. The local engine cuts its
inputs into tasks of about :data:`TASK_BYTES` (a file bigger than that is a task alone); the
Ray engine and :func:`chunkspec.ray.chunk_dataset` chunk a document over ``big_bytes``
(default :data:`BIG_BYTES`) alone in its task, with :func:`reserved_memory` bytes of Ray
memory, so two giants never share a worker. Imports the standard library only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeVar

__all__ = [
    "BIG_BYTES",
    "BIG_MEMORY_PER_BYTE",
    "SMALL_BATCH",
    "TASK_BYTES",
    "is_big",
    "reserved_memory",
    "size_class",
    "size_groups",
    "tasks",
]

#: ``--big-bytes``' default with ``--engine ray``: files over 16 MiB are chunked alone.
BIG_BYTES = 16 * 1024 * 1024

#: Memory reserved for one big document, per byte of it: the bytes, the decoded text, the
#: parsed blocks, the token spans and the records of a plain-text file peak at about 45
#: times the file in CPython (docs/performance.md, "Ingest"); 64 leaves room.
BIG_MEMORY_PER_BYTE = 64

#: The local engine's task size: consecutive inputs of about this many bytes.
TASK_BYTES = 1 << 20

#: Small documents per Ray task in ``chunkspec ingest --engine ray``.
SMALL_BATCH = 16

_T = TypeVar("_T")


def is_big(size: int, big_bytes: int, max_bytes: int | None) -> bool:
    """True if a document of ``size`` bytes is big: over ``big_bytes``, not over the cap
    (a document over the cap is an error row, made without any memory: small)."""
    return size > big_bytes and (max_bytes is None or size <= max_bytes)


def size_class(size: int) -> int:
    """The size class of a big document: ``size`` rounded up to a power of two."""
    return 1 << (size - 1).bit_length()


def reserved_memory(size: int, big_memory: int | None) -> int:
    """The Ray memory reserved for a big document of (at most) ``size`` bytes: ``big_memory``
    if given, else :data:`BIG_MEMORY_PER_BYTE` times ``size``."""
    return big_memory if big_memory is not None else BIG_MEMORY_PER_BYTE * size


def tasks(items: Sequence[_T], sizes: Sequence[int], bytes_per_task: int) -> Iterator[list[_T]]:
    """Cut ``items`` into consecutive groups of about ``bytes_per_task`` bytes (at least one
    item; an item over ``bytes_per_task`` is a group alone)."""
    group: list[_T] = []
    total = 0
    for item, size in zip(items, sizes, strict=True):
        if group and total + size > bytes_per_task:
            yield group
            group, total = [], 0
        group.append(item)
        total += size
    if group:
        yield group


def size_groups(
    paths: Sequence[str],
    sizes: dict[str, int],
    big_bytes: int,
    big_memory: int | None,
    max_bytes: int | None,
) -> list[tuple[list[str], int, int | None]]:
    """The Ray engine's groups of files known by size: ``(paths, batch size, memory)``; the
    small ones together, :data:`SMALL_BATCH` a task; each size class of big ones alone in
    its tasks, with memory reserved for the class, so a small class reserves little."""
    small = [path for path in paths if not is_big(sizes[path], big_bytes, max_bytes)]
    groups: list[tuple[list[str], int, int | None]] = [(small, SMALL_BATCH, None)] if small else []
    classes: dict[int, list[str]] = {}
    for path in paths:
        if is_big(sizes[path], big_bytes, max_bytes):
            classes.setdefault(size_class(sizes[path]), []).append(path)
    for size, chosen in sorted(classes.items()):
        groups.append((chosen, 1, reserved_memory(size, big_memory)))
    return groups
