"""read_pdf_pages on PDFs built in process (docs/pages.md, "PDF input")."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfWriter

from chunkspec import chunk_pages
from chunkspec.pages import PdfError, join_pages, read_pdf_pages
from tests.pdfs import text_pdf


@pytest.fixture
def report(tmp_path: Path) -> Path:
    """A three-page PDF whose second page is empty."""
    path = tmp_path / "report.pdf"
    path.write_bytes(
        text_pdf([["Refunds take five business days.", "Ask (politely)."], [], ["End!"]])
    )
    return path


def test_pages_in_order(report: Path) -> None:
    """PDF: one string a page, in page order, empty pages kept."""
    pages = read_pdf_pages(report)
    assert len(pages) == 3
    assert "Refunds take five business days." in pages[0]
    assert "Ask (politely)." in pages[0]
    assert pages[1].strip() == ""
    assert "End!" in pages[2]
    assert read_pdf_pages(str(report)) == pages


def test_pdf_pages_feed_the_chunker(report: Path) -> None:
    """PAGE-6, PAGE-11: chunks of a real PDF carry exact offsets and their page span."""
    pages = read_pdf_pages(report)
    full = join_pages(pages)
    chunks = chunk_pages(pages, max_tokens=4, overlap_tokens=1)
    assert chunks
    for c in chunks:
        assert full[c.char_start : c.char_end] == c.text
    assert chunks[0].page_start == 1
    assert chunks[-1].page_end == 3
    assert chunks[-1].text.endswith("End!")


def test_user_password_is_refused(report: Path, tmp_path: Path) -> None:
    """PDF: an encrypted PDF that the empty password does not open is a PdfError."""
    writer = PdfWriter(clone_from=report)
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    writer.write(locked)
    with pytest.raises(PdfError, match="encrypted"):
        read_pdf_pages(locked)


def test_empty_user_password_is_opened(report: Path, tmp_path: Path) -> None:
    """PDF: a PDF encrypted only with an owner password is read like any other."""
    writer = PdfWriter(clone_from=report)
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    path = tmp_path / "owner.pdf"
    writer.write(path)
    assert read_pdf_pages(path) == read_pdf_pages(report)


def test_not_a_pdf(tmp_path: Path) -> None:
    """PDF: a file without the %PDF- header is a PdfError (a ValueError)."""
    path = tmp_path / "notes.pdf"
    path.write_text("just text", "utf-8")
    with pytest.raises(ValueError, match="not a PDF"):
        read_pdf_pages(path)


def test_broken_pdf(tmp_path: Path) -> None:
    """PDF: a truncated PDF is a PdfError naming the file."""
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.4\n1 0 obj\n<<")
    with pytest.raises(PdfError, match=r"broken\.pdf"):
        read_pdf_pages(path)


def test_missing_file(tmp_path: Path) -> None:
    """PDF: a missing file is FileNotFoundError."""
    with pytest.raises(FileNotFoundError):
        read_pdf_pages(tmp_path / "absent.pdf")


def test_path_type() -> None:
    """PDF: the path must be a str or os.PathLike."""
    with pytest.raises(TypeError):
        read_pdf_pages(3)  # type: ignore[arg-type]


def test_form_feed_becomes_newline(tmp_path: Path) -> None:
    """PDF: a form feed in extracted text is a newline, so pages stay separable."""
    path = tmp_path / "ff.pdf"
    path.write_bytes(text_pdf([["a\fb"]]))
    (page,) = read_pdf_pages(path)
    assert "\f" not in page
    assert "a\nb" in page


# --- Exact messages and plumbing (issue 7, mutation testing) --------------------------------


def test_messages_name_the_file(report: Path, tmp_path: Path) -> None:
    """PDF: each PdfError message starts with the file name and says what is wrong."""
    notes = tmp_path / "notes.pdf"
    notes.write_text("just text", "utf-8")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n1 0 obj\n<<")
    writer = PdfWriter(clone_from=report)
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    locked = tmp_path / "locked.pdf"
    writer.write(locked)
    expected = {
        notes: f"{notes}: not a PDF (no %PDF- header)",
        broken: f"{broken}: cannot read PDF: PdfStreamError: Stream has ended unexpectedly",
        locked: f"{locked}: encrypted PDF: a password is needed (--pdf-password)",
    }
    for path, message in expected.items():
        with pytest.raises(PdfError) as info:
            read_pdf_pages(path)
        assert str(info.value) == message


def test_header_within_the_first_1024_bytes(tmp_path: Path) -> None:
    """PDF: the %PDF- header may follow up to 1019 bytes of junk (it must end within the
    first 1024 bytes); any later and the file is not a PDF."""
    pdf = text_pdf([["Late header."]])
    early = tmp_path / "early.pdf"
    early.write_bytes(b" " * 1019 + pdf)
    assert "Late header." in read_pdf_pages(early)[0]
    late = tmp_path / "late.pdf"
    late.write_bytes(b" " * 1020 + pdf)
    with pytest.raises(PdfError, match="not a PDF"):
        read_pdf_pages(late)


def test_page_that_cannot_be_extracted_is_named(
    report: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PDF: an exception while extracting one page becomes a PdfError naming page N."""
    from pypdf import PageObject

    real = PageObject.extract_text
    seen: list[int] = []

    def extract(self: PageObject, *args: object, **kwargs: object) -> str:
        seen.append(1)
        if len(seen) == 2:
            raise RuntimeError("bad\n  operator")
        return real(self)

    monkeypatch.setattr(PageObject, "extract_text", extract)
    with pytest.raises(PdfError) as info:
        read_pdf_pages(report)
    assert str(info.value) == f"{report}: page 2: cannot extract text: RuntimeError: bad operator"


def test_reason_of_an_empty_message() -> None:
    """PDF: an error without a message is named by its type alone; whitespace collapses."""
    from chunkspec._text._pdf import _reason

    assert _reason(ValueError(" \n ")) == "ValueError"
    assert _reason(KeyError("a")) == "KeyError: 'a'"
    assert _reason(OSError("no\n\tway  out")) == "OSError: no way out"


def test_pypdf_logger_gets_one_null_handler(report: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """PDF: read_pdf_pages gives the pypdf logger a NullHandler, once, so its warnings never
    reach stderr through logging's last-resort handler."""
    import logging

    logger = logging.getLogger("pypdf")
    monkeypatch.setattr(logger, "handlers", [])
    read_pdf_pages(report)
    read_pdf_pages(report)
    assert [type(h) for h in logger.handlers] == [logging.NullHandler]


def test_missing_pypdf_names_the_extra(report: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extras: without pypdf, the ImportError says which pip extra to install."""
    import builtins
    from typing import Any

    real = builtins.__import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pypdf" or name.startswith("pypdf."):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake)
    with pytest.raises(ImportError) as info:
        read_pdf_pages(report)
    assert str(info.value) == "pypdf is not installed: pip install 'chunkspec[pdf]'"


def test_path_type_names_path() -> None:
    """PDF: a path that is neither str nor os.PathLike is a TypeError naming path."""
    from chunkspec import ArgumentTypeError

    with pytest.raises(ArgumentTypeError) as info:
        read_pdf_pages(b"report.pdf")  # type: ignore[arg-type]
    assert (info.value.argument, info.value.value) == ("path", b"report.pdf")
