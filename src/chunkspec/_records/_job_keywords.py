"""A job's keyword form: the chunking keywords and the reading keywords (OPT-1, SCALE-8).

``chunkspec.arrow.chunk_table`` and ``chunkspec.ray.chunk_dataset`` read documents' bytes,
so beside :class:`ChunkKeywords` they take what :class:`ChunkJob` adds to the options:
``input_format``, ``max_bytes``, ``encoding``, ``pdf_password``. Both forms are declared once,
here and in ``_chunkers/_options.py``; :func:`job_of` is the one way from arguments to a job.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Final

from .._chunkers._options import ChunkKeywords, options_of
from .._errors import ArgumentValueError
from ._rows import ChunkJob

__all__ = ["READING_KEYWORDS", "JobKeywords", "job_of"]


class JobKeywords(ChunkKeywords, total=False):
    """:class:`ChunkKeywords` and the reading options of :class:`ChunkJob` (SCALE-8)."""

    input_format: str | None
    max_bytes: int | None
    encoding: str | None
    pdf_password: str | None


#: The reading keywords: ChunkJob's fields after ``options``, in order.
READING_KEYWORDS: Final = tuple(field.name for field in dataclasses.fields(ChunkJob))[1:]


def job_of(options: object, keywords: Mapping[str, object]) -> ChunkJob:
    """Return ``options`` if it is a :class:`ChunkJob`, else the job of ``options`` (a
    ChunkOptions or None) and the keywords given (OPT-1: a job or options object together
    with option keywords is a ValueError naming them)."""
    if isinstance(options, ChunkJob):
        if keywords:
            raise ArgumentValueError(
                "options",
                f"is a ChunkJob, so the keywords must not be given ({', '.join(sorted(keywords))})",
                sorted(keywords),
            )
        return options
    reading = {key: keywords[key] for key in READING_KEYWORDS if key in keywords}
    chunking = {key: value for key, value in keywords.items() if key not in READING_KEYWORDS}
    return ChunkJob(options_of(options, chunking), **reading)  # type: ignore[arg-type]
