"""SOURCE-9, SOURCE-10, SOURCE-11: how the bytes of text, Markdown and JSON inputs become text."""

from __future__ import annotations

import codecs

import pytest

from chunkspec import InputError, document_from_bytes, document_from_text
from chunkspec._errors import ArgumentValueError
from chunkspec._text._documents import fallback_encoding, format_for
from tests.pdfs import text_pdf

TEXT = "# Café\n\nCrème brûlée, naïve façade.\n"


def _read(data: bytes, encoding: str | None = None, suffix: str = ".md") -> str:
    """Return the text of ``data`` read as the file ``a{suffix}``."""
    document = document_from_bytes(data, doc_id="a", name="a" + suffix, encoding=encoding)
    return document.text


@pytest.mark.parametrize(
    ("codec", "mark"),
    [
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE),
        ("utf-32-be", codecs.BOM_UTF32_BE),
        ("utf-8", codecs.BOM_UTF8),
    ],
)
def test_byte_order_mark_is_recognised(codec: str, mark: bytes) -> None:
    """SOURCE-9: a UTF-8/16/32 byte-order mark selects its encoding and is dropped."""
    assert _read(mark + TEXT.encode(codec)) == TEXT
    assert _read(mark + TEXT.encode(codec), suffix=".txt") == TEXT


def test_named_encoding() -> None:
    """SOURCE-9: ``encoding`` names the encoding (Latin-1 here); the same text results."""
    data = TEXT.encode("latin-1")
    with pytest.raises(InputError) as info:
        _read(data)
    assert str(info.value) == (
        "a.md: not valid UTF-8 (byte 5); name its encoding with encoding=NAME (e.g. 'latin-1')"
    )
    assert _read(data, "latin-1") == TEXT
    assert _read(data, "cp1252") == TEXT


def test_utf8_default_is_unchanged() -> None:
    """SOURCE-9: without ``encoding`` UTF-8 reads as before; ``utf-8`` named is the same."""
    data = TEXT.encode("utf-8")
    assert _read(data) == TEXT == _read(data, "utf-8") == _read(data, "UTF8")


def test_undecodable_bytes_name_the_encoding_and_byte() -> None:
    """SOURCE-9: bytes the encoding cannot decode are one line naming file, encoding, byte."""
    with pytest.raises(InputError) as info:
        _read(b"abc\xff\xfe", "ascii")
    assert str(info.value) == "a.md: not valid UTF-8 (byte 3), nor ascii (byte 3)"
    with pytest.raises(InputError) as info:
        _read(codecs.BOM_UTF16_LE + b"a\x00\x00\xd8")  # a lone high surrogate
    assert str(info.value).startswith("a.md: not valid UTF-16 (byte ")


@pytest.mark.parametrize("name", ["no-such-codec", "rot13", "base64"])
def test_unknown_encoding_is_a_value_error(name: str) -> None:
    """SOURCE-9: a name that is no text encoding is a ValueError naming ``encoding``."""
    with pytest.raises(ValueError, match="encoding"):
        _read(b"x", name)


def test_json_blocks_follow_the_encoding() -> None:
    """SOURCE-9: JSON blocks are decoded the same way."""
    data = '[{"kind": "paragraph", "text": "Café"}]'.encode("utf-16")
    assert "Café" in _read(data, suffix=".json")


def test_the_encoding_is_a_fallback_for_each_file() -> None:
    """SOURCE-9: ``encoding`` reads only a file that is not UTF-8; UTF-8 text stays UTF-8
    (it was read as Latin-1 and garbled), and the document says which it used."""
    utf8 = document_from_bytes(TEXT.encode(), doc_id="a", name="a.md", encoding="latin-1")
    assert (utf8.text, utf8.encoding) == (TEXT, None)
    latin = document_from_bytes(TEXT.encode("latin-1"), doc_id="a", name="a.md", encoding="latin-1")
    assert (latin.text, latin.encoding) == (TEXT, "latin-1")
    assert fallback_encoding(TEXT.encode("latin-1"), "a.md", "latin-1") == "latin-1"
    assert fallback_encoding(TEXT.encode(), "a.md", "latin-1") is None
    assert fallback_encoding(TEXT.encode("latin-1"), "a.md", None) is None
    # UTF-16 without its mark is valid UTF-8 full of NULs: not UTF-8 text (SOURCE-11)
    wide = document_from_bytes(
        "plain words\n".encode("utf-16-le"), doc_id="a", name="a.txt", encoding="utf-16-le"
    )
    assert (wide.text, wide.encoding) == ("plain words\n", "utf-16-le")


def test_nul_is_refused_with_its_offset() -> None:
    """SOURCE-11: a text, Markdown, JSON or code file holding U+0000 is an InputError naming
    the file and the byte; ``document_from_text`` refuses it naming ``text`` and the
    offset."""
    for name in ("a.md", "a.txt", "a.py"):
        with pytest.raises(InputError) as info:
            document_from_bytes(b"ab\x00c\n", doc_id="a", name=name)
        assert str(info.value) == f"{name}: holds a NUL (U+0000) at byte 2, so it is not text"
    data = codecs.BOM_UTF16_LE + "a\x00".encode("utf-16-le")
    with pytest.raises(InputError, match=r"a.md: holds a NUL \(U\+0000\) at character 1"):
        document_from_bytes(data, doc_id="a", name="a.md")
    with pytest.raises(ArgumentValueError) as error:
        document_from_text("é\x00", doc_id="d")
    assert (error.value.argument, error.value.value) == ("text", 1)


def test_a_pdf_is_known_by_its_first_bytes() -> None:
    """SOURCE-10: a file starting with ``%PDF-`` is read as a PDF whatever its suffix
    (it failed as `not valid UTF-8`); ``input_format`` still wins; a text that only
    mentions ``%PDF-`` later is text."""
    pdf = text_pdf([["Revenue grew steadily."]])
    for name in ("report.md", "report.txt", "report", "report.py"):
        document = document_from_bytes(pdf, doc_id="r", name=name)
        assert document.format == "pdf"
        assert "Revenue grew steadily." in document.text
    assert format_for("notes.md", b"# The %PDF- header\n") == "markdown"
    assert format_for("notes.md", b"%PDF-1.7", "text") == "text"
