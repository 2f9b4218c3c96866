"""Reading input files, with one-line errors (CLI-1); records files: ``_records._record_files``."""

from __future__ import annotations

import sys

from .._errors import IngestError
from .._records._record_files import decode_text
from .._text._regular_files import read_regular, unreadable

__all__ = [
    "IngestError",
    "one_line",
    "os_reason",
    "read_bytes",
    "read_text",
]


def one_line(message: str) -> str:
    """Return ``message`` with every non-printable character as its Python escape (rule CLI-1).

    A file name or argument may hold a line break (``"a\\nb"``) or a lone surrogate from a
    non-UTF-8 ``argv``; written raw it would make the error two lines, or unencodable.
    """
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in message)


def os_reason(error: OSError) -> str:
    """The system's words for a failed call (``No space left on device``), for one line."""
    return error.strerror or str(error) or type(error).__name__


def read_bytes(path: str) -> bytes:
    """Return the bytes of ``path`` (``-`` is standard input); a failure is a CLI-1 error.

    TRUST-31: a file named here is the caller's: a FIFO is read as a stream (as ``-``),
    a device or a socket is refused, never read.
    """
    try:
        return sys.stdin.buffer.read() if path == "-" else read_regular(path, fifo=True)
    except OSError as error:
        raise IngestError(unreadable(path, error)) from None


def read_text(path: str) -> str:
    """Return the UTF-8 text of ``path`` (``-`` is standard input), line endings untouched.

    Rule CLI-3: strict UTF-8, one leading byte-order mark removed, newlines not translated,
    so ``"\\r\\n"`` stays two characters as in the library (rule SPLIT-11).
    """
    return decode_text(path, read_bytes(path))
