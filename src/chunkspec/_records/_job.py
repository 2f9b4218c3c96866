"""The chunking job: everything that decides a document's records (OPT-1, SCALE-8), and its
keyword form (:class:`JobKeywords`, :func:`job_of`): the chunking keywords and the reading
keywords ``input_format``, ``max_bytes``, ``encoding``, ``pdf_password``, ``keep_furniture``,
``language``.

Imports ``chunkspec._chunkers`` (the options), ``chunkspec._text`` (the reading options'
checks) and the record builder beside it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .._chunkers._options import OPTION_KEYWORDS, ChunkKeywords, ChunkOptions, options_of
from .._core._validate import require_int, require_str
from .._errors import ArgumentTypeError, ArgumentValueError
from .._text._documents import INPUT_FORMATS, SourceDocument, check_encoding, check_language
from ._chunk_document import chunk_document
from ._record import ChunkRecord

__all__ = ["READING_KEYWORDS", "ChunkJob", "JobKeywords", "job_of"]


@dataclass(frozen=True, slots=True)
class ChunkJob:
    """The options of every document of a job: chunking options and reading options.

    ``options`` is the chunking (OPT-1); ``input_format`` the format of a document whose
    row and name do not say (SOURCE-1); ``max_bytes`` the cap over which a document is an
    error row (SCALE-5); ``encoding`` and ``pdf_password`` how its bytes are read
    (SCALE-8: SOURCE-9, SOURCE-8); ``keep_furniture`` keeps an HTML page's navigation,
    banners, footers and asides as text (HTML-11, HTML-12); ``language`` is the language of a
    code file whose name and shebang do not say it (CODE-1). The job travels to worker
    processes as one value
    (:meth:`to_dict`), so a counter object never crosses a process (SCALE-6, OPT-3). The
    password is never shown in the job's repr.
    """

    options: ChunkOptions
    input_format: str | None = None
    max_bytes: int | None = None
    encoding: str | None = None
    pdf_password: str | None = field(default=None, repr=False)
    keep_furniture: bool = False
    language: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.options, ChunkOptions):
            raise ArgumentTypeError("options", "a chunkspec.ChunkOptions", self.options)
        if self.max_bytes is not None:
            require_int("max_bytes", self.max_bytes, minimum=0)
        if self.input_format is not None and self.input_format not in INPUT_FORMATS:
            raise ArgumentValueError(
                "input_format", f"must be one of {', '.join(INPUT_FORMATS)}", self.input_format
            )
        check_encoding(self.encoding)
        if self.pdf_password is not None:
            require_str("pdf_password", self.pdf_password)
        if not isinstance(self.keep_furniture, bool):
            raise ArgumentTypeError("keep_furniture", "a bool", self.keep_furniture)
        check_language(self.language)

    def chunk(self, document: SourceDocument) -> list[ChunkRecord]:
        """Return chunk_document's records of ``document`` under these options."""
        return chunk_document(document, self.options)

    def to_dict(self) -> dict[str, Any]:
        """Return the job as plain JSON values: the options by :meth:`ChunkOptions.to_dict`."""
        return {
            "options": self.options.to_dict(),
            "input_format": self.input_format,
            "max_bytes": self.max_bytes,
            "encoding": self.encoding,
            "pdf_password": self.pdf_password,
            "keep_furniture": self.keep_furniture,
            "language": self.language,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChunkJob:
        """Return the job :meth:`to_dict` wrote (a worker registers the options' counter)."""
        return cls(
            ChunkOptions.from_dict(data["options"]),
            data["input_format"],
            data["max_bytes"],
            data.get("encoding"),
            data.get("pdf_password"),
            bool(data.get("keep_furniture", False)),
            data.get("language"),
        )


class JobKeywords(ChunkKeywords, total=False):
    """:class:`ChunkKeywords` and the reading options of :class:`ChunkJob` (SCALE-8)."""

    input_format: str | None
    max_bytes: int | None
    encoding: str | None
    pdf_password: str | None
    keep_furniture: bool
    language: str | None


#: The reading keywords: ChunkJob's fields after ``options``, in order.
READING_KEYWORDS: Final = tuple(name.name for name in dataclasses.fields(ChunkJob))[1:]


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
    known = (*OPTION_KEYWORDS, *READING_KEYWORDS)
    unknown = sorted(str(key) for key in keywords if key not in known)
    if unknown:  # named here, where the reading keywords are known too
        raise ArgumentTypeError(
            unknown[0], f"a job keyword ({', '.join(known)})", keywords[unknown[0]]
        )
    reading = {key: keywords[key] for key in READING_KEYWORDS if key in keywords}
    chunking = {key: value for key, value in keywords.items() if key not in READING_KEYWORDS}
    return ChunkJob(options_of(options, chunking), **reading)  # type: ignore[arg-type]
