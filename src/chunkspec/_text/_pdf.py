"""Reading a PDF's pages as text with pypdf (extra ``chunkspec[pdf]``), docs/pages.md."""

from __future__ import annotations

import io
import logging
import os
from typing import Any

from .._core._validate import require_int, require_str
from .._errors import ArgumentTypeError, PdfError
from ._paged import PAGE_SEPARATOR

__all__ = [
    "PDF_MAX_DECOMPRESSED_FLOOR",
    "PDF_MAX_DECOMPRESSED_RATIO",
    "PdfError",
    "pdf_max_decompressed",
    "read_pdf_bytes",
    "read_pdf_pages",
    "read_pdf_source",
]

#: TRUST-52: the default cap on the content a PDF's text extraction reads, the larger of
#: this floor and :data:`PDF_MAX_DECOMPRESSED_RATIO` times the file's size.
PDF_MAX_DECOMPRESSED_FLOOR = 64 * 1024 * 1024
#: TRUST-52: Flate text content compresses about 3 to 10 times; a hundred leaves room for
#: every real PDF and stops a stream that one page after another reads again.
PDF_MAX_DECOMPRESSED_RATIO = 100


def pdf_max_decompressed(size: int, cap: int | None = None) -> int:
    """TRUST-52: the content bytes text extraction may read from a PDF of ``size`` bytes:
    ``cap`` when given (a positive int), else the larger of 64 MiB and 100 times ``size``."""
    if cap is not None:
        return require_int("pdf_max_decompressed", cap, minimum=1)
    return max(PDF_MAX_DECOMPRESSED_FLOOR, PDF_MAX_DECOMPRESSED_RATIO * size)


def read_pdf_pages(
    path: str | os.PathLike[str],
    *,
    password: str | None = None,
    max_decompressed: int | None = None,
) -> list[str]:
    """Return ``[page.extract_text() for page in PdfReader(path).pages]``, one str a page.

    A form feed inside a page's extracted text becomes ``"\\n"`` (the page separator of
    ``join_pages`` must not occur in a page, rule PAGE-2). Raises ``FileNotFoundError`` /
    ``OSError`` for unreadable files, ``PdfError`` (a ValueError) for a file that is not a
    PDF, an encrypted PDF that neither ``password`` nor the empty password opens (SOURCE-8),
    or a page pypdf cannot read, and for a PDF whose pages' content streams decompress to
    more than ``max_decompressed`` bytes in all (:func:`pdf_max_decompressed`, TRUST-52).
    The password never appears in a message.
    """
    if not isinstance(path, os.PathLike):
        require_str("path", path)
    name = os.fspath(path)
    with open(name, "rb") as handle:
        head = handle.read(1024)
        size = os.fstat(handle.fileno()).st_size
    cap = pdf_max_decompressed(size, max_decompressed)
    return read_pdf_source(name, name, head, password, cap)[0]


def read_pdf_bytes(
    data: bytes,
    name: str = "<bytes>",
    *,
    password: str | None = None,
    max_decompressed: int | None = None,
) -> tuple[list[str], str]:
    """Return ``(pages, title)`` of the PDF held in ``data`` (``name`` is for messages).

    ``title`` is the document information's ``/Title`` with runs of whitespace made one
    space, or ``""`` when there is none (rule RECORD-7). Errors as :func:`read_pdf_pages`.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ArgumentTypeError("data", "bytes", data)
    cap = pdf_max_decompressed(len(data), max_decompressed)
    return read_pdf_source(name, io.BytesIO(bytes(data)), bytes(data[:1024]), password, cap)


def read_pdf_source(
    name: str,
    source: str | io.BytesIO,
    head: bytes,
    password: str | None = None,
    max_decompressed: int = PDF_MAX_DECOMPRESSED_FLOOR,
) -> tuple[list[str], str]:
    """Read the pages and the title of a PDF file path or stream; ``head`` is its first KiB;
    ``max_decompressed`` is TRUST-52's cap on the content the pages' extraction reads."""
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
    read = 0  # TRUST-52: content bytes the extraction of the pages so far reads
    for number in range(count):
        try:
            read += _content_bytes(pages[number])
        except Exception as error:  # the content streams are untrusted input
            raise PdfError(
                f"{name}: page {number + 1}: cannot extract text: {_reason(error)}"
            ) from None
        if read > max_decompressed:
            raise PdfError(
                f"{name}: page {number + 1}: the pages' content streams decompress to more than "
                f"{max_decompressed} bytes (pdf_max_decompressed, --pdf-max-bytes)"
            )
        try:
            text = pages[number].extract_text()
        except Exception as error:  # as above: the page's content stream is untrusted input
            raise PdfError(
                f"{name}: page {number + 1}: cannot extract text: {_reason(error)}"
            ) from None
        texts.append(text.replace(PAGE_SEPARATOR, "\n"))
    return texts, _title(reader)


def _content_bytes(page: Any) -> int:
    """TRUST-52: the decompressed bytes ``page.extract_text()`` reads: its ``/Contents``
    streams and the form XObjects its resources name, each form once a page, nested forms
    too. pypdf decodes a stream once and keeps it, so counting costs one decode a stream;
    a stream many pages share counts on every page, as extraction parses it on each."""
    total = 0
    contents = page.get("/Contents")
    contents = None if contents is None else contents.get_object()
    if contents is not None:
        streams = contents if isinstance(contents, list) else [contents]
        for stream in streams:
            stream = stream.get_object()
            if hasattr(stream, "get_data"):
                total += len(stream.get_data())
    seen: set[int] = set()
    pending = [page.get("/Resources")]
    while pending:
        found: Any = pending.pop()
        resources: Any = None if found is None else found.get_object()
        if not hasattr(resources, "get"):
            continue
        named: Any = resources.get("/XObject")
        forms: Any = None if named is None else named.get_object()
        if not hasattr(forms, "values"):
            continue
        for reference in forms.values():
            form = reference.get_object()
            if id(form) in seen or not hasattr(form, "get_data"):
                continue
            seen.add(id(form))
            if form.get("/Subtype") == "/Form":
                total += len(form.get_data())
                pending.append(form.get("/Resources"))
    return total


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
