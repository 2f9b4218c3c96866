"""SOURCE-9: how the bytes of text, Markdown and JSON inputs become text."""

from __future__ import annotations

import codecs

import pytest

from chunkspec import InputError, document_from_bytes

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
    assert str(info.value) == "a.md: not valid UTF-8 (byte 5)"
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
    assert str(info.value) == "a.md: not valid ascii (byte 3)"
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
