"""Reading a PDF's pages as text with pypdf (extra ``chunkspec[pdf]``), docs/pages.md."""

from __future__ import annotations

import os

from ._pages import PAGE_SEPARATOR
from ._validate import require_str

__all__ = ["PdfError", "read_pdf_pages"]


class PdfError(ValueError):
    """A file that is not a PDF, is encrypted, or whose text cannot be extracted."""


def read_pdf_pages(path: str | os.PathLike[str]) -> list[str]:
    """Return ``[page.extract_text() for page in PdfReader(path).pages]``, one str a page.

    A form feed inside a page's extracted text becomes ``"\\n"`` (the page separator of
    ``join_pages`` must not occur in a page, rule PAGE-2). Raises ``FileNotFoundError`` /
    ``OSError`` for unreadable files, ``PdfError`` (a ValueError) for a file that is not a
    PDF, an encrypted PDF that an empty password does not open, or a page pypdf cannot read.
    """
    if not isinstance(path, os.PathLike):
        require_str("path", path)
    try:
        from pypdf import PasswordType, PdfReader
        from pypdf.errors import PyPdfError
    except ImportError:
        raise ImportError("pypdf is not installed: pip install 'chunkspec[pdf]'") from None
    name = os.fspath(path)
    with open(name, "rb") as handle:
        head = handle.read(1024)
    if b"%PDF-" not in head:
        raise PdfError(f"{name}: not a PDF (no %PDF- header)")
    try:
        reader = PdfReader(name)
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("") != PasswordType.NOT_DECRYPTED
            except PyPdfError:
                opened = False
            if not opened:
                raise PdfError(f"{name}: encrypted PDF (a password is required)")
        pages = reader.pages
        count = len(pages)
    except PdfError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise PdfError(f"{name}: cannot read PDF: {error}") from None
    texts: list[str] = []
    for number in range(count):
        try:
            text = pages[number].extract_text()
        except (PyPdfError, ValueError, KeyError, TypeError, AttributeError) as error:
            raise PdfError(f"{name}: page {number + 1}: cannot extract text: {error}") from None
        texts.append(text.replace(PAGE_SEPARATOR, "\n"))
    return texts
