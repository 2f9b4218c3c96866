"""Robustness of read_pdf_pages on damaged PDFs (docs/pages.md, "PDF input")."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from tests.pdfs import text_pdf

from chunkspec.pages import PdfError, read_pdf_pages

_GOOD = text_pdf([["Refunds take five business days."], ["Page two!"]])


@given(st.lists(st.tuples(st.integers(0, len(_GOOD) - 1), st.integers(0, 255)), max_size=8))
def test_damaged_pdf_is_text_or_pdf_error(edits: list[tuple[int, int]]) -> None:
    """A PDF with bytes overwritten reads as pages or raises PdfError, nothing else.

    (Not a numbered rule: the CLI turns PdfError into one line and exit status 2.)
    """
    data = bytearray(_GOOD)
    for position, value in edits:
        data[position] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.pdf"
        path.write_bytes(bytes(data))
        message: str | None = None
        pages: list[str] = []
        try:
            pages = read_pdf_pages(path)
        except PdfError as error:
            message = str(error)
        if message is not None:
            assert message.startswith(str(path))
            assert "\n" not in message
        assert all("\f" not in page for page in pages)
