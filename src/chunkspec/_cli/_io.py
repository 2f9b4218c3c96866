"""The command line's names for reading input files with one-line errors (CLI-1, CLI-2).

They live in :mod:`chunkspec._corpus._file_io`, which the corpus engine shares; a
:class:`CliError` is its :class:`~chunkspec._corpus._file_io.IngestError`.
"""

from __future__ import annotations

from .._corpus._file_io import IngestError as CliError
from .._corpus._file_io import (
    decode_text,
    json_line,
    line_breaks_escaped,
    one_line,
    os_reason,
    read_bytes,
    read_text,
)

__all__ = [
    "CliError",
    "decode_text",
    "json_line",
    "line_breaks_escaped",
    "one_line",
    "os_reason",
    "read_bytes",
    "read_text",
]
