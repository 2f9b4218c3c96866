"""The command line's names for reading input files with one-line errors (CLI-1, CLI-2).

They live in ``chunkspec._corpus._file_io`` (files) and ``chunkspec._records._record_files``
(records files, the JSON Lines line), which the corpus engine shares; a :class:`CliError` is
the engine's ``IngestError``.
"""

from __future__ import annotations

from .._corpus._file_io import IngestError as CliError
from .._corpus._file_io import one_line as one_line
from .._corpus._file_io import os_reason as os_reason
from .._corpus._file_io import read_bytes as read_bytes
from .._corpus._file_io import read_text as read_text
from .._records._record_files import decode_text as decode_text
from .._records._record_files import json_line as json_line
from .._records._record_files import line_breaks_escaped as line_breaks_escaped

__all__ = ["CliError"]
