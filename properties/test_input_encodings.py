"""Text encodings and encrypted PDFs read as their plain UTF-8 / unencrypted selves."""

from __future__ import annotations

import argparse
import codecs
import io
import os
from unittest import mock

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pypdf import PdfWriter
from tests.pdfs import text_pdf

from chunkspec import InputError, document_from_bytes, document_from_text
from chunkspec._cli._inputs import PDF_PASSWORD_ENV, pdf_password
from chunkspec._errors import ArgumentValueError
from chunkspec._text._documents import format_for

_TEXTS = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=60)
_LATIN = st.text(st.characters(min_codepoint=1, max_codepoint=255), max_size=60)
_BOMS = [
    ("utf-8", codecs.BOM_UTF8),
    ("utf-16-le", codecs.BOM_UTF16_LE),
    ("utf-16-be", codecs.BOM_UTF16_BE),
    ("utf-32-le", codecs.BOM_UTF32_LE),
    ("utf-32-be", codecs.BOM_UTF32_BE),
]


@given(_TEXTS, st.sampled_from(_BOMS), st.sampled_from([".md", ".txt"]))
def test_bom_text_reads_as_its_utf8(text: str, bom: tuple[str, bytes], suffix: str) -> None:
    """SOURCE-9: any text behind a UTF-8/16/32 BOM is the document of its UTF-8 bytes."""
    codec, mark = bom
    # SOURCE-9 checks the UTF-32 mark first: FF FE then a UTF-16-LE U+0000 is FF FE 00 00, the
    # UTF-32-LE mark, so such a text is read as UTF-32 (ruled; the BOM cannot tell them apart).
    assume(not (codec == "utf-16-le" and text.startswith("\x00")))
    name = "a" + suffix
    plain = document_from_bytes(text.encode("utf-8"), doc_id="a", name=name)
    marked = document_from_bytes(mark + text.encode(codec), doc_id="a", name=name)
    assert marked == plain


@given(_LATIN, st.sampled_from(["latin-1", "utf-16", "utf-32", "utf-8"]))
def test_named_encoding_reads_as_utf8(text: str, encoding: str) -> None:
    """SOURCE-9: text encoded in the named encoding is the document of its UTF-8 bytes,
    and says it was read with it, when those bytes are not UTF-8 text; bytes that are
    UTF-8 text read as UTF-8 (the named encoding is a fallback), and a byte-order mark
    wins."""
    plain = document_from_bytes(text.encode("utf-8"), doc_id="a", name="a.md")
    data = text.encode(encoding)
    named = document_from_bytes(data, doc_id="a", name="a.md", encoding=encoding)
    try:
        as_utf8: str | None = data.decode("utf-8")
    except UnicodeDecodeError:
        as_utf8 = None
    if encoding in ("utf-16", "utf-32") or as_utf8 is None:
        assert named == plain
        assert named.encoding == (encoding if as_utf8 is None and encoding == "latin-1" else None)
    else:
        assert named == document_from_bytes(data, doc_id="a", name="a.md")
        assert named.encoding is None


@given(_TEXTS, st.integers(0, 60), st.sampled_from([".md", ".txt", ".py", ".json"]))
def test_a_nul_is_refused_where_it_is(text: str, at: int, suffix: str) -> None:
    """SOURCE-11: a text with U+0000 anywhere is refused: ``document_from_text`` naming
    ``text`` and the offset of the first, ``document_from_bytes`` naming the file and the
    byte of the first (UTF-8)."""
    at = min(at, len(text))
    held = text[:at] + "\x00" + text[at:]
    with pytest.raises(ArgumentValueError) as error:
        document_from_text(held, doc_id="d")
    assert (error.value.argument, error.value.value) == ("text", at)
    with pytest.raises(InputError) as info:
        document_from_bytes(held.encode(), doc_id="d", name="a" + suffix)
    byte = len(text[:at].encode())
    assert str(info.value) == f"a{suffix}: holds a NUL (U+0000) at byte {byte}, so it is not text"


@given(
    st.binary(max_size=40),
    st.sampled_from(["a.md", "a.txt", "a.json", "a.py", "a.html", "a", "a.rst"]),
)
def test_a_pdf_is_known_by_its_header_whatever_its_name(rest: bytes, name: str) -> None:
    """SOURCE-10: bytes starting with ``%PDF-`` are a PDF whatever the name says; an
    ``input_format`` given still wins."""
    assert format_for(name, b"%PDF-" + rest) == "pdf"
    assert format_for(name, b"%PDF-" + rest, "text") == "text"


@given(st.binary(max_size=40), st.sampled_from([None, "ascii", "utf-16", "shift_jis"]))
def test_any_bytes_decode_or_one_line_error(data: bytes, encoding: str | None) -> None:
    """SOURCE-9: any bytes are a document or an InputError: one line, naming the file."""
    try:
        document_from_bytes(data, doc_id="a", name="a.txt", encoding=encoding)
    except InputError as error:
        message = str(error)
        assert message.startswith("a.txt: ")
        assert "\n" not in message


_PDF = text_pdf([["Quarterly report"], ["Outlook, steady."]])


@settings(max_examples=15, deadline=None)
@given(
    st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=12),
    st.sampled_from(["RC4-128", "AES-256"]),
)
def test_password_opens_and_never_leaks(password: str, algorithm: str) -> None:
    """SOURCE-8: the password reads the PDF as unencrypted; a wrong one's message hides it."""
    writer = PdfWriter(clone_from=io.BytesIO(_PDF))
    writer.encrypt(user_password=password, owner_password="o" + password, algorithm=algorithm)
    out = io.BytesIO()
    writer.write(out)
    plain = document_from_bytes(_PDF, doc_id="a", name="a.pdf")
    opened = document_from_bytes(out.getvalue(), doc_id="a", name="a.pdf", pdf_password=password)
    assert (opened.text, opened.pages) == (plain.text, plain.pages)
    wrong = password + "x"
    with pytest.raises(InputError) as info:
        document_from_bytes(out.getvalue(), doc_id="a", name="a.pdf", pdf_password=wrong)
    assert str(info.value) == "a.pdf: encrypted PDF: the password is wrong"


_VALUES = st.text(st.characters(min_codepoint=1, exclude_categories=["Cs"]), max_size=8)


@given(st.one_of(st.none(), _VALUES), st.one_of(st.none(), _VALUES))
def test_flag_wins_over_environment(flag: str | None, env: str | None) -> None:
    """CLI-18: --pdf-password wins; else a non-empty environment variable; else none."""
    environ = {} if env is None else {PDF_PASSWORD_ENV: env}
    with mock.patch.dict(os.environ, environ, clear=False):
        if env is None:
            os.environ.pop(PDF_PASSWORD_ENV, None)
        got = pdf_password(argparse.Namespace(pdf_password=flag))
    assert got == (flag if flag is not None else (env or None))
