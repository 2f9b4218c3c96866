"""Reading input files, with one-line errors (CLI-1), and the JSON Lines line (CLI-2)."""

from __future__ import annotations

import json
import re
import sys

from .._errors import ChunkspecError
from .._text._regular_files import read_regular, unreadable

__all__ = [
    "IngestError",
    "decode_text",
    "json_line",
    "line_breaks_escaped",
    "one_line",
    "os_reason",
    "read_bytes",
    "read_text",
]


class IngestError(ChunkspecError):
    """A problem with a run's input or output folder, said in one line (CLI-1): the command
    line reports it with exit status 2, :func:`chunkspec.ingest` raises it."""


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


def decode_text(path: str, data: bytes) -> str:
    """Return ``data`` read from ``path`` as text by rule CLI-3 (strict UTF-8, BOM removed)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IngestError(f"{path}: not valid UTF-8 (byte {error.start})") from None
    return text[1:] if text.startswith("\ufeff") else text


#: Characters JSON leaves raw that ``str.splitlines()`` and some editors treat as line breaks.
_LINE_BREAKS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def json_line(record: dict[str, object]) -> str:
    """Return ``record`` as one JSON Lines line (rule CLI-2): UTF-8, one ``\\n`` at the end.

    Non-ASCII stays readable; U+0085, U+2028 and U+2029 are escaped so that a reader that
    splits on any Unicode line break still sees one record per line.
    """
    return line_breaks_escaped(_ENCODER.encode(record)) + "\n"


def line_breaks_escaped(line: str) -> str:
    """Return a JSON text with U+0085, U+2028 and U+2029 written as escapes (CLI-2)."""
    # Only a non-ASCII line can hold one; translate() maps every character through a dict.
    if not line.isascii() and _BREAKS.search(line) is not None:
        return line.translate(_LINE_BREAKS)
    return line


#: ``json.dumps(record, ensure_ascii=False)``'s encoder, made once (dumps makes one a call).
_ENCODER = json.JSONEncoder(ensure_ascii=False)
_BREAKS = re.compile("[\x85\u2028\u2029]")
