"""Reading a PDF's pages as text with pypdf (extra ``chunkspec[pdf]``), docs/pages.md."""

from __future__ import annotations

import io
import logging
import os
from typing import Any

from .._core._validate import require_str
from .._errors import ArgumentTypeError, ChunkspecError
from ._paged import PAGE_SEPARATOR

__all__ = ["PdfError", "read_pdf_bytes", "read_pdf_pages", "read_pdf_source"]


class PdfError(ChunkspecError, ValueError):
    """A file that is not a PDF, is encrypted, or whose text cannot be extracted."""


def read_pdf_pages(path: str | os.PathLike[str], *, password: str | None = None) -> list[str]:
    """Return ``[page.extract_text() for page in PdfReader(path).pages]``, one str a page.

    A form feed inside a page's extracted text becomes ``"\\n"`` (the page separator of
    ``join_pages`` must not occur in a page, rule PAGE-2). Raises ``FileNotFoundError`` /
    ``OSError`` for unreadable files, ``PdfError`` (a ValueError) for a file that is not a
    PDF, an encrypted PDF that neither ``password`` nor the empty password opens (SOURCE-8),
    or a page pypdf cannot read. The password never appears in a message.
    """
    if not isinstance(path, os.PathLike):
        require_str("path", path)
    name = os.fspath(path)
    with open(name, "rb") as handle:
        head = handle.read(1024)
    return read_pdf_source(name, name, head, password)[0]


def read_pdf_bytes(
    data: bytes, name: str = "<bytes>", *, password: str | None = None
) -> tuple[list[str], str]:
    """Return ``(pages, title)`` of the PDF held in ``data`` (``name`` is for messages).

    ``title`` is the document information's ``/Title`` with runs of whitespace made one
    space, or ``""`` when there is none (rule RECORD-7). Errors as :func:`read_pdf_pages`.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ArgumentTypeError("data", "bytes", data)
    return read_pdf_source(name, io.BytesIO(bytes(data)), bytes(data[:1024]), password)


def read_pdf_source(
    name: str, source: str | io.BytesIO, head: bytes, password: str | None = None
) -> tuple[list[str], str]:
    """Read the pages and the title of a PDF file path or stream; ``head`` is its first KiB."""
    if password is not None:
        require_str("password", password)
    try:
        from pypdf import PasswordType, PdfReader
    except ImportError:
        raise ImportError("pypdf is not installed: pip install 'chunkspec[pdf]'") from None
    _quiet_pypdf()
    if b"%PDF-" not in head:
        raise PdfError(f"{name}: not a PDF (no %PDF- header)")
    try:
        reader = PdfReader(source)
        # PdfReader has already tried the empty password (any error it raises is caught
        # below); decrypt("") asks the same question and says whether it opened the file.
        if reader.is_encrypted and reader.decrypt("") == PasswordType.NOT_DECRYPTED:
            if not password:
                raise PdfError(f"{name}: encrypted PDF: a password is needed (--pdf-password)")
            if reader.decrypt(password) == PasswordType.NOT_DECRYPTED:
                raise PdfError(f"{name}: encrypted PDF: the password is wrong")
        pages = reader.pages
        count = len(pages)
    except PdfError:
        raise
    except Exception as error:  # a damaged file can make pypdf raise almost anything
        raise PdfError(f"{name}: cannot read PDF: {_reason(error)}") from None
    texts: list[str] = []
    for number in range(count):
        try:
            text = pages[number].extract_text()
        except Exception as error:  # as above: the page's content stream is untrusted input
            raise PdfError(
                f"{name}: page {number + 1}: cannot extract text: {_reason(error)}"
            ) from None
        texts.append(text.replace(PAGE_SEPARATOR, "\n"))
    return texts, _title(reader)


def _title(reader: Any) -> str:
    """Return the PDF's ``/Title``, whitespace runs made one space, or ``""``."""
    try:
        title = reader.metadata.title if reader.metadata is not None else None
    except Exception:  # metadata is untrusted input too; a title is never worth an error
        return ""
    if not isinstance(title, str):
        return ""
    title = " ".join(title.split())
    try:
        title.encode("utf-8")  # a lone surrogate from a broken string is no title
    except UnicodeEncodeError:
        return ""
    return title


def _reason(error: Exception) -> str:
    """Return a one-line description of ``error`` for a PdfError message."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _quiet_pypdf() -> None:
    """Give pypdf's logger a NullHandler so its warnings never reach stderr unasked."""
    # Without any handler, logging's last-resort handler prints pypdf's warnings about
    # damaged files to stderr (breaking the CLI's one-line errors); applications that
    # configure logging still receive them, since the records propagate.
    logger = logging.getLogger("pypdf")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())
