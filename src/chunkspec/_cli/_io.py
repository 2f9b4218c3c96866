"""Reading input files for the command line, with one-line errors."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["CliError", "read_text"]


class CliError(Exception):
    """A problem with the command line's input, reported as one line with exit status 2."""


def read_text(path: str) -> str:
    """Return the UTF-8 text of ``path`` (``-`` is standard input), line endings untouched.

    Rule CLI-3: strict UTF-8, one leading byte-order mark removed, newlines not translated,
    so ``"\\r\\n"`` stays two characters as in the library (rule SPLIT-11).
    """
    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory") from None
    except OSError as error:
        raise CliError(f"{path}: cannot read: {error.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CliError(f"{path}: not valid UTF-8 (byte {error.start})") from None
    return text[1:] if text.startswith("\ufeff") else text
