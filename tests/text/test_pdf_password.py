"""SOURCE-8: encrypted PDFs open with a password; a missing or wrong one is a one-line error."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfWriter

from chunkspec import InputError, document_from_bytes, read_document
from chunkspec.pages import PdfError, read_pdf_pages
from tests.pdfs import text_pdf

PAGES = [["Quarterly report", "Revenue grew."], ["Outlook", "Steady."]]


def _locked(algorithm: str, password: str = "s3cret") -> bytes:
    """Return the two-page test PDF encrypted with ``algorithm`` under user ``password``."""
    writer = PdfWriter(clone_from=io.BytesIO(text_pdf(PAGES)))
    writer.encrypt(user_password=password, owner_password="owner", algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.mark.parametrize("algorithm", ["AES-256", "AES-128", "RC4-128"])
def test_password_opens_encrypted_pdf(algorithm: str, tmp_path: Path) -> None:
    """SOURCE-8: with its password an encrypted PDF reads as the same PDF unencrypted."""
    plain = tmp_path / "plain.pdf"
    plain.write_bytes(text_pdf(PAGES))
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(_locked(algorithm))
    assert read_pdf_pages(locked, password="s3cret") == read_pdf_pages(plain)
    opened = read_document(locked, doc_id="d", pdf_password="s3cret")
    expected = read_document(plain, doc_id="d")
    assert (opened.text, opened.pages, opened.title) == (
        expected.text,
        expected.pages,
        expected.title,
    )


@pytest.mark.parametrize("algorithm", ["AES-256", "RC4-128"])
def test_missing_and_wrong_password(algorithm: str, tmp_path: Path) -> None:
    """SOURCE-8: one line naming the file; the password never appears in it."""
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(_locked(algorithm))
    with pytest.raises(PdfError) as info:
        read_pdf_pages(locked)
    assert str(info.value) == f"{locked}: encrypted PDF: a password is needed (--pdf-password)"
    with pytest.raises(PdfError) as info:
        read_pdf_pages(locked, password="guess-word")
    assert str(info.value) == f"{locked}: encrypted PDF: the password is wrong"
    assert "guess-word" not in str(info.value)
    with pytest.raises(InputError) as error:
        document_from_bytes(locked.read_bytes(), doc_id="d", name="a.pdf", pdf_password="x")
    assert str(error.value) == "a.pdf: encrypted PDF: the password is wrong"


def test_password_on_unencrypted_pdf_is_ignored() -> None:
    """SOURCE-8: a password given for a PDF that is not encrypted changes nothing."""
    data = text_pdf(PAGES)
    plain = document_from_bytes(data, doc_id="d", name="a.pdf")
    assert document_from_bytes(data, doc_id="d", name="a.pdf", pdf_password="x") == plain


def test_password_must_be_str() -> None:
    """SOURCE-8: a password that is not a str is a TypeError naming the argument."""
    with pytest.raises(TypeError, match="pdf_password"):
        document_from_bytes(text_pdf(PAGES), doc_id="d", name="a.pdf", pdf_password=b"x")  # type: ignore[arg-type]
