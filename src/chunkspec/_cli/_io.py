"""The command line's names for reading input files with one-line errors (CLI-1, CLI-2).

They live in :mod:`chunkspec._corpus._file_io`, which the corpus engine shares; a
:class:`CliError` is its :class:`~chunkspec._corpus._file_io.IngestError`.
"""

from __future__ import annotations

from .._corpus._file_io import IngestError as CliError
from .._corpus._file_io import decode_text as decode_text
from .._corpus._file_io import json_line as json_line
from .._corpus._file_io import line_breaks_escaped as line_breaks_escaped
from .._corpus._file_io import one_line as one_line
from .._corpus._file_io import os_reason as os_reason
from .._corpus._file_io import read_bytes as read_bytes
from .._corpus._file_io import read_text as read_text

__all__ = ["CliError"]
