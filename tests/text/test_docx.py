"""Word files (docs/spec/html.md, HTML-23): read through mammoth's HTML, refused when broken."""

from __future__ import annotations

import io
import zipfile

import pytest

from chunkspec import InputError, chunk_document, document_from_bytes
from tests.docx_files import build_docx


def test_a_word_file_is_read_as_its_html() -> None:
    """HTML-23: headings, paragraphs, list items and a table, as the page mammoth writes."""
    data = build_docx(
        [("Heading 1", "Report"), ("Normal", "Sales rose."), ("List Bullet", "north")],
        table=[["Region", "Total"], ["North", "12"]],
    )
    document = document_from_bytes(data, doc_id="r", name="r.docx")
    assert document.format == "docx"
    assert document.title == "Report"
    assert document.text == "Report\n\nSales rose.\n\nnorth\n\nRegion\tTotal\nNorth\t12"
    a, b = document.markup_span(0, len(document.text))
    assert document.markup[a:b].startswith("Report")
    assert document.markup[a:b].endswith("12")
    records = chunk_document(document, strategy="heading", max_tokens=50)
    assert [r.heading_path for r in records] == [()]


def test_not_a_zip_archive() -> None:
    """HTML-23: a file that is not a ZIP archive is one line naming it."""
    with pytest.raises(InputError, match=r"^w\.docx: not a Word file \(not a ZIP archive\)$"):
        document_from_bytes(b"plain text", doc_id="w", name="w.docx")


def test_a_zip_that_is_not_a_word_file() -> None:
    """HTML-23: a ZIP archive without a Word document is one line, not a traceback."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("hello.txt", "hi")
    with pytest.raises(InputError, match=r"^w\.docx: not a readable Word file \("):
        document_from_bytes(out.getvalue(), doc_id="w", name="w.docx")


def test_a_zip_bomb_is_refused_before_it_is_read() -> None:
    """HTML-23, TRUST-52: parts decompressing past the cap are refused up front."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"\0" * (2 * 1024 * 1024))
    with pytest.raises(InputError, match=r"decompresses to 2097152 bytes, over the cap of 1000"):
        document_from_bytes(out.getvalue(), doc_id="w", name="w.docx", pdf_max_decompressed=1000)


_OOXML = "http://schemas.openxmlformats.org"
#: A drawing whose picture is linked (``r:link``), not embedded: mammoth would open it.
_LINKED_IMAGE = (
    "<w:p><w:r><w:drawing>"
    f'<wp:inline xmlns:wp="{_OOXML}/drawingml/2006/wordprocessingDrawing">'
    '<wp:extent cx="1" cy="1"/><wp:docPr id="1" name="x"/>'
    f'<a:graphic xmlns:a="{_OOXML}/drawingml/2006/main">'
    f'<a:graphicData uri="{_OOXML}/drawingml/2006/picture">'
    f'<pic:pic xmlns:pic="{_OOXML}/drawingml/2006/picture"><pic:blipFill>'
    f'<a:blip xmlns:r="{_OOXML}/officeDocument/2006/relationships" r:link="rIdX"/>'
    "</pic:blipFill></pic:pic></a:graphicData></a:graphic></wp:inline>"
    "</w:drawing></w:r></w:p>"
)


def test_an_external_image_is_not_opened(tmp_path: object) -> None:
    """HTML-22: an image linked (not embedded) to a local file is never read: mammoth's
    external file access stays off, and the text is read all the same."""
    import pathlib

    folder = pathlib.Path(str(tmp_path))
    secret = folder / "secret.png"
    secret.write_bytes(b"\x89PNG not really")
    data = build_docx([("Normal", "before")])
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for item in source.infolist():
            body = source.read(item.filename)
            if item.filename == "word/_rels/document.xml.rels":
                link = (
                    f'<Relationship Id="rIdX" Type="{_OOXML}/officeDocument/2006/relationships/'
                    f'image" Target="file://{secret}" TargetMode="External"/>'
                )
                body = body.replace(b"</Relationships>", link.encode() + b"</Relationships>")
            if item.filename == "word/document.xml":
                drawing = _LINKED_IMAGE.encode()
                body = body.replace(b"<w:sectPr", drawing + b"<w:sectPr", 1)
            archive.writestr(item, body)
    opened: list[str] = []

    def audit(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and "secret" in str(args[0]):
            opened.append(str(args[0]))

    import sys

    sys.addaudithook(audit)
    document = document_from_bytes(out.getvalue(), doc_id="w", name="w.docx")
    assert "before" in document.text  # the text read all the same, the link left unread
    assert opened == []
    with open(secret, "rb"):  # the control: the hook sees an open of the secret
        pass
    assert opened
