"""Documents as the chunkers read them: text, format, title, pages (rules SOURCE-1..SOURCE-7)."""

from __future__ import annotations

import codecs
import dataclasses
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._code._languages import LANGUAGES, SUFFIX_LANGUAGE, language_for, shebang_language
from .._core._access_keys import ACCESS_KEYS
from .._core._collector import collector_paused
from .._core._metadata import EMPTY_METADATA, Metadata
from .._core._validate import require_int, require_str, require_text
from .._errors import ArgumentTypeError, ArgumentValueError, InputError
from ._blocks import Document, document_from_blocks, parse_text
from ._front_matter import FrontMatter, find_front_matter
from ._html._docx import docx_to_html
from ._html._encoding import decode_html
from ._html._markup_map import MarkupMap
from ._html._page import read_markup
from ._markdown import parse_markdown
from ._paged import PAGE_SEPARATOR, join_pages
from ._pdf import PdfError, read_pdf_bytes
from ._pdf import pdf_max_decompressed as pdf_max_decompressed_of
from ._regular_files import read_regular, unreadable

__all__ = [
    "INPUT_FORMATS",
    "NOT_UTF8_HINT",
    "SUFFIXES",
    "InputError",
    "SourceDocument",
    "check_encoding",
    "document_from_bytes",
    "document_from_text",
    "fallback_encoding",
    "format_for",
    "read_bytes",
    "read_document",
]

#: The input formats, and the suffix that selects each (SOURCE-1).
INPUT_FORMATS = ("markdown", "text", "pdf", "json", "html", "docx", "code")
SUFFIXES = {
    **dict.fromkeys(SUFFIX_LANGUAGE, "code"),  # CODE-1
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".pdf": "pdf",
    ".json": "json",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".docx": "docx",
}


@dataclass(frozen=True, slots=True)
class SourceDocument:
    """One document as chunkers see it: ``text`` is what record offsets index (SOURCE-2).

    For a PDF ``text == join_pages(pages)``; for JSON blocks it is the blocks' text joined
    as MD-13 says. ``pages`` is the page texts where pages are known (SOURCE-4), else None.
    ``parsed`` is the seed-003 :class:`Document` (blocks with headings) of ``text``.
    ``front_matter`` is the YAML or TOML block opening a Markdown text (FM-1), else None;
    its ``fields`` are the document's front-matter keys (FM-3), read-only.
    ``metadata`` is the caller's metadata (META-2), read-only; ``record_metadata`` is what
    every record of the document carries: the front-matter fields (an HTML page's ``meta``,
    HTML-14) with the caller's metadata over them, a key in both taking the caller's value
    (META-3). ``markup`` is the file's markup: an HTML page's decoded source, or ``text``
    itself for Markdown and plain text; :meth:`markup_span` maps text offsets into it
    (HTML-18). ``markup_map`` is an HTML page's map (None for every other format).
    ``encoding`` is the fallback encoding its bytes were read with (SOURCE-9: they were not
    UTF-8 text), None for UTF-8 or a byte-order mark's encoding.
    """

    doc_id: str
    text: str
    format: str
    title: str
    source: str = ""
    pages: tuple[str, ...] | None = None
    parsed: Document | None = field(default=None, repr=False, compare=False)
    metadata: Mapping[str, Any] = EMPTY_METADATA
    front_matter: FrontMatter | None = field(default=None, init=False, repr=False, compare=False)
    record_metadata: Mapping[str, Any] = field(
        default=EMPTY_METADATA, init=False, repr=False, compare=False
    )
    markup: str = field(default="", repr=False, compare=False)
    markup_map: MarkupMap | None = field(default=None, repr=False, compare=False)
    page_metadata: Mapping[str, Any] = field(default=EMPTY_METADATA, repr=False, compare=False)
    page_access_names: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    language: str | None = None
    encoding: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        require_text("doc_id", self.doc_id)
        require_text("text", self.text)
        require_text("title", self.title)
        require_text("source", self.source)
        if self.format not in INPUT_FORMATS:
            raise ArgumentValueError(
                "input_format", f"must be one of {', '.join(INPUT_FORMATS)}", self.format
            )
        if self.pages is not None and join_pages(list(self.pages)) != self.text:
            raise ArgumentValueError("pages", "must join (PAGE-1) to text", len(self.pages))
        if self.format in ("html", "docx"):
            if self.markup_map is None or self.parsed is None:
                raise ArgumentValueError(
                    "input_format",
                    "html documents come from read_document or document_from_bytes",
                    self.format,
                )
        elif self.format in ("markdown", "text", "code") and not self.markup:
            object.__setattr__(self, "markup", self.text)
        if self.language is not None and (self.format != "code" or self.language not in LANGUAGES):
            raise ArgumentValueError(  # CODE-1: a language belongs to a code document
                "language",
                f"must be one of {', '.join(LANGUAGES)} on a code document",
                self.language,
            )
        if self.parsed is None:
            object.__setattr__(self, "parsed", _parse(self.doc_id, self.text, self.format))
        if not isinstance(self.metadata, Metadata):  # META-2: checked and frozen once
            object.__setattr__(self, "metadata", Metadata(self.metadata))
        if self.format == "markdown":
            object.__setattr__(self, "front_matter", find_front_matter(self.text))
        object.__setattr__(self, "record_metadata", _record_metadata(self))

    @property
    def body_start(self) -> int:
        """FM-2: where the text after the front matter starts (0 without front matter)."""
        return 0 if self.front_matter is None else self.front_matter.body_start

    def markup_span(self, start: int, end: int) -> tuple[int, int]:
        """HTML-18: the span ``(a, b)`` of :attr:`markup` the text ``[start, end)`` came from.

        For an HTML page, ``markup[a:b]`` holds the markup of exactly the text of
        ``text[start:end]`` (HTML-21); for Markdown and plain text the markup is the text,
        so the span is ``(start, end)``. A PDF or JSON document has no markup: ValueError.
        """
        start = require_int("start", start, minimum=0)
        end = require_int("end", end, minimum=start)
        if end > len(self.text):
            raise ArgumentValueError("end", f"must be <= len(text) ({len(self.text)})", end)
        if self.markup_map is not None:
            return self.markup_map.span(start, end)
        if self.format in ("markdown", "text", "code"):
            return start, end
        raise ArgumentValueError("document", "has no markup (a PDF or JSON document)", self.format)

    def blocks(self) -> Document:
        """Return the seed-003 :class:`Document` (the blocks, headings included) of ``text``."""
        parsed = self.parsed
        return _parse(self.doc_id, self.text, self.format) if parsed is None else parsed


def _record_metadata(document: SourceDocument) -> Metadata:
    """META-3: the front matter's fields, the caller's metadata over them (one shared object).

    TRUST-3: an access key the front matter sets in a form FM-3 cannot read as it needs,
    and the caller's metadata does not set, refuses the document (InputError, one line).
    """
    if document.format in ("html", "docx"):
        return _page_metadata(document)
    found = document.front_matter
    if found is not None:
        for key in found.unread_access_keys:
            if document.metadata.get(key) is None:  # a null sets nothing (TRUST-3)
                raise InputError(front_matter_refusal(document.source or document.doc_id, key))
    if found is None or not found.fields:
        return Metadata(document.metadata)
    if not document.metadata:
        return Metadata(found.fields, argument="front_matter")
    return Metadata({**found.fields, **document.metadata})


def _page_metadata(document: SourceDocument) -> Metadata:
    """HTML-14, HTML-15: the page's ``meta`` fields with the caller's metadata over them; a
    page whose ``meta`` names an access key the caller does not set is refused."""
    for key in ACCESS_KEYS:
        if key in document.page_access_names and document.metadata.get(key) is None:
            raise InputError(
                f"{document.source or document.doc_id}: a <meta name={key!r}> is not read "
                "as an access label (HTML-15); give access labels as caller metadata "
                "(--metadata sidecar, metadata=)"
            )
    fields = document.page_metadata
    if not fields:
        return Metadata(document.metadata)
    return Metadata({**fields, **document.metadata})


def front_matter_refusal(name: str, key: str) -> str:
    """TRUST-3: the one-line message of a document refused for its front matter's ``key``."""
    return (
        f"{name}: front matter sets access key {key!r} in a form chunkspec does not read "
        "(TRUST-3); give access labels as caller metadata (--metadata sidecar, metadata=)"
    )


def _parse(doc_id: str, text: str, input_format: str) -> Document:
    """Return the blocks of ``text`` read as ``input_format`` (Markdown, else plain text)."""
    return parse_markdown(doc_id, text) if input_format == "markdown" else parse_text(doc_id, text)


def _title(parsed: Document, doc_id: str, front_matter: FrontMatter | None = None) -> str:
    """SOURCE-5: the front matter's title (FM-4), else the first level-1 heading with a
    non-blank title, whitespace folded."""
    if front_matter is not None and front_matter.title is not None:
        return front_matter.title
    for block in parsed.blocks:
        if block.kind == "heading" and block.level == 1 and block.text.strip():
            return " ".join(block.text.split())
    return doc_id


def _paged(text: str) -> tuple[str, ...] | None:
    """SOURCE-4: a text holding a form feed is paged, each form feed ending a page."""
    return tuple(text.split(PAGE_SEPARATOR)) if PAGE_SEPARATOR in text else None


@collector_paused()  # linear time on big documents (docs/performance.md)
def document_from_text(
    text: str,
    *,
    doc_id: str,
    input_format: str = "markdown",
    source: str = "",
    title: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    keep_furniture: bool = False,
    language: str | None = None,
) -> SourceDocument:
    """Return the document of ``text`` read as ``input_format`` (``markdown``, ``text``,
    ``code``, or ``html``: ``text`` is then a page's markup, HTML-17).

    The title is ``title`` if given, else SOURCE-5's rule (HTML-13 for a page); a text with
    a form feed is paged (not a page: HTML-3). ``metadata`` is the caller's document
    metadata (META-2, META-3); ``keep_furniture`` is HTML-11's. ``language`` is a code
    document's language (CODE-1; a ``code`` document without one chunks by lines).
    A ``text`` holding U+0000 is an ArgumentValueError naming ``text`` and the offset of
    the first (SOURCE-11).
    """
    require_text("text", text)
    require_text("doc_id", doc_id)
    nul = text.find("\x00")
    if nul >= 0:  # SOURCE-11: a text holds no NUL
        raise ArgumentValueError(
            "text", "must hold no NUL character (U+0000); the first is at offset", nul
        )
    if input_format == "code" or language is not None:
        return _from_code(text, doc_id, input_format, source, title, metadata, language)
    if input_format == "html":
        if not isinstance(keep_furniture, bool):
            raise ArgumentTypeError("keep_furniture", "a bool", keep_furniture)
        return _from_html(text, doc_id, source, title, _metadata(metadata), keep_furniture)
    if input_format not in ("markdown", "text"):
        raise ArgumentValueError(
            "input_format", "must be markdown, text, code or html here", input_format
        )
    parsed = _parse(doc_id, text, input_format)
    found = find_front_matter(text) if input_format == "markdown" else None
    chosen = _title(parsed, doc_id, found) if title is None else require_text("title", title)
    return SourceDocument(
        doc_id, text, input_format, chosen, source, _paged(text), parsed, _metadata(metadata)
    )


def check_language(language: object) -> str | None:
    """CODE-1: ``language`` is None or a name in the language table."""
    if language is None:
        return None
    if not isinstance(language, str):
        raise ArgumentTypeError("language", "a str", language)
    if language not in LANGUAGES:
        raise ArgumentValueError("language", f"must be one of {', '.join(LANGUAGES)}", language)
    return language


def _from_code(
    text: str,
    doc_id: str,
    input_format: str,
    source: str,
    title: str | None,
    metadata: Mapping[str, Any] | None,
    language: object,
    head: bytes = b"",
    name: str = "",
) -> SourceDocument:
    """CODE-1: a source file: its language is ``language``, else its name's suffix, else
    its shebang; its title is ``title``, else its doc id (a source file has no headings)."""
    chosen = check_language(language)
    if input_format != "code":
        raise ArgumentValueError(
            "language", f"applies to input_format code, not {input_format}", language
        )
    if chosen is None:
        chosen = language_for(name or source or doc_id) or shebang_language(
            head or text[:256].encode("utf-8", "replace")
        )
    name = doc_id if title is None else require_text("title", title)
    parsed = parse_text(doc_id, text)
    return SourceDocument(
        doc_id, text, "code", name, source, None, parsed, _metadata(metadata), language=chosen
    )


def _metadata(metadata: Mapping[str, Any] | None) -> Metadata:
    """META-2: the caller's metadata checked and frozen; None is no metadata."""
    return EMPTY_METADATA if metadata is None else Metadata(metadata)


def format_for(name: str, head: bytes, input_format: str | None = None) -> str:
    """Return the input format of a document called ``name`` starting with ``head`` (SOURCE-1).

    ``input_format`` wins when given; else a file starting with ``%PDF-`` is a PDF
    (SOURCE-10); else the suffix (``.md``, ``.markdown``, ``.txt``, ``.pdf``, ``.json``,
    any case); else a PDF is known by ``%PDF-`` in its first KiB; else an InputError
    naming ``input_format``.
    """
    if input_format is not None:
        if input_format not in INPUT_FORMATS:
            raise ArgumentValueError(
                "input_format", f"must be one of {', '.join(INPUT_FORMATS)}", input_format
            )
        return input_format
    if head.startswith(PDF_MAGIC):  # SOURCE-10: a PDF whatever its suffix
        return "pdf"
    suffix = Path(name).suffix.lower()
    if suffix in SUFFIXES:
        return SUFFIXES[suffix]
    sniffed = sniff(head)
    if sniffed is not None:
        return sniffed
    if shebang_language(head) is not None:  # CODE-1: a script without a suffix
        return "code"
    kind = f"suffix {suffix!r}" if suffix else "no suffix"
    raise InputError(
        f"{name}: unknown input type ({kind}); use .md, .markdown, .txt, .pdf, .json, .html, "
        ".htm, .docx, a source file's suffix (.py, .js, .ts, .go, .rs, .java, .c, .cpp, ...), "
        "or --input-format"
    )


#: SOURCE-10: the first bytes of every PDF file (ISO 32000's header, ``%PDF-1.7``).
PDF_MAGIC = b"%PDF-"

#: SOURCE-11: the byte no text holds.
_NUL = b"\x00"

#: SOURCE-9: what a not-UTF-8 error says to do, in Python's words (the CLI says its flag).
NOT_UTF8_HINT = "name its encoding with encoding=NAME (e.g. 'latin-1')"

#: HTML-1: a page starts, after white space, a byte-order mark and comments, with a doctype
#: or an ``<html`` tag (any case).
_HTML_START = re.compile(
    rb"(?:\xef\xbb\xbf)?(?:\s|<!--.*?-->)*<(?:!doctype\s+html|html[\s>])", re.I | re.S
)


def sniff(head: bytes) -> str | None:
    """SOURCE-1, HTML-1: ``pdf`` for ``%PDF-`` in the first KiB, ``html`` for a doctype or
    ``<html>`` opening it, else None."""
    if b"%PDF-" in head[:1024]:
        return "pdf"
    if _HTML_START.match(head[:1024]):
        return "html"
    return None


@collector_paused()  # linear time on big documents (docs/performance.md)
def document_from_bytes(
    data: bytes,
    *,
    doc_id: str,
    source: str = "",
    input_format: str | None = None,
    title: str | None = None,
    name: str | None = None,
    encoding: str | None = None,
    pdf_password: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    pdf_max_decompressed: int | None = None,
    keep_furniture: bool = False,
    language: str | None = None,
) -> SourceDocument:
    """Return the document held in ``data`` (SOURCE-1..SOURCE-11, HTML-1..HTML-21).

    ``name`` (default ``source`` or ``doc_id``) names the document in errors and gives the
    suffix that selects the format unless ``input_format`` is given (or bytes starting
    with ``%PDF-``: a PDF, SOURCE-10). Text is decoded as SOURCE-9 says: UTF-16/UTF-32 by
    their byte-order mark, else strict UTF-8, else strict ``encoding`` if given (the
    fallback, named by the document's ``encoding``); one leading byte-order mark is
    removed (CLI-3); a text holding U+0000 is an InputError (SOURCE-11).
    ``pdf_password`` opens an encrypted PDF (SOURCE-8). Raises InputError (a ValueError)
    with a one-line message for a document that cannot be read. ``metadata`` is the
    caller's document metadata (META-2, META-3). ``pdf_max_decompressed`` caps the content
    bytes a PDF's text extraction reads, over all pages (default: the larger of 64 MiB and
    100 times the file's size); a PDF over it is an InputError (TRUST-52).
    ``keep_furniture`` keeps an HTML page's navigation, banners, footers, asides and what
    lies outside its ``main`` element as text (HTML-11, HTML-12). ``language`` is a code
    file's language when its name and shebang do not say it (CODE-1).
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ArgumentTypeError("data", "bytes", data)
    require_text("doc_id", doc_id)
    require_text("source", source)
    codec = check_encoding(encoding)
    if pdf_password is not None:
        require_str("pdf_password", pdf_password)
    if not isinstance(keep_furniture, bool):
        raise ArgumentTypeError("keep_furniture", "a bool", keep_furniture)
    cap = pdf_max_decompressed_of(len(data), pdf_max_decompressed)
    given = _metadata(metadata)
    label = name if name is not None else (source or doc_id)
    if input_format is None and language is not None:
        input_format = "code"  # CODE-1: a language names a code file, whatever its name
    chosen = format_for(label, bytes(data[:1024]), input_format)
    if chosen == "pdf":
        try:
            pages, pdf_title = read_pdf_bytes(
                bytes(data), label, password=pdf_password, max_decompressed=cap
            )
        except PdfError as error:
            raise InputError(str(error)) from None
        except ImportError as error:  # SOURCE-10: say it is a PDF when its name does not
            if input_format == "pdf" or label.lower().endswith(".pdf"):
                raise
            raise ImportError(f"{label}: a PDF (it starts with %PDF-); {error}") from None
        text = join_pages(pages)
        default = pdf_title or doc_id
        return SourceDocument(
            doc_id,
            text,
            "pdf",
            default if title is None else require_text("title", title),
            source,
            tuple(pages),
            None,
            given,
        )
    if chosen == "html":
        markup = decode_html(bytes(data), codec, label)
        return _from_html(markup, doc_id, source, title, given, keep_furniture)
    if chosen == "docx":  # HTML-23: the HTML mammoth writes, read as a page
        markup = docx_to_html(bytes(data), label, pdf_max_decompressed)
        return _from_html(markup, doc_id, source, title, given, keep_furniture, "docx")
    check_language(language)
    text, fallback = _decode(bytes(data), codec, label)
    if chosen == "code" or language is not None:
        document = _from_code(
            text, doc_id, chosen, source, title, given, language, bytes(data[:256]), label
        )
    elif chosen == "json":
        document = _from_json(text, doc_id, source, title, label, given)
    else:
        try:
            document = document_from_text(
                text,
                doc_id=doc_id,
                input_format=chosen,
                source=source,
                title=title,
                metadata=given,
            )
        except ArgumentValueError as error:
            if error.argument == "text":  # a lone surrogate cannot come from UTF-8
                raise InputError(f"{label}: {error}") from None
            raise
    if fallback is None:
        return document
    return dataclasses.replace(document, encoding=fallback)  # SOURCE-9: said and recorded


#: SOURCE-9: byte-order marks recognised without ``encoding``; UTF-32's before UTF-16's,
#: whose little-endian mark starts UTF-32's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"),
)


def check_encoding(encoding: str | None) -> str | None:
    """Return the codec name of ``encoding`` (None: SOURCE-9's default); ValueError if unknown."""
    if encoding is None:
        return None
    require_str("encoding", encoding)
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise ArgumentValueError(
            "encoding", "must be a text encoding Python knows", encoding
        ) from None
    if not info._is_text_encoding:  # rot13, base64 and the like are not text encodings
        raise ArgumentValueError("encoding", "must be a text encoding Python knows", encoding)
    return encoding


def _decode(data: bytes, fallback: str | None, label: str) -> tuple[str, str | None]:
    """SOURCE-9: the text of ``data``, one leading byte-order mark removed, and the
    ``fallback`` encoding when it was the one used (None: UTF-8, or a byte-order mark's);
    SOURCE-11: a text with a NUL is an InputError naming its offset; else InputError."""
    for mark, bom_codec, bom_name in _BOMS:
        if data.startswith(mark):
            try:
                text = data.decode(bom_codec)
            except UnicodeDecodeError as error:
                raise InputError(f"{label}: not valid {bom_name} (byte {error.start})") from None
            return _text_only(text.removeprefix("\ufeff"), label, None), None
    bad: int | None = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        if fallback is None:
            raise InputError(
                f"{label}: not valid UTF-8 (byte {error.start}); {NOT_UTF8_HINT}"
            ) from None
        bad = error.start
    else:  # valid UTF-8 is UTF-8 text, unless it holds a NUL and a fallback is given
        if fallback is None or "\x00" not in text:
            return _text_only(text.removeprefix("\ufeff"), label, data), None
    try:
        other = data.decode(fallback)
    except UnicodeError as error:
        if bad is None:  # UTF-8 with a NUL, and not the fallback either: SOURCE-11's error
            _text_only(text, label, data)
        where = f" (byte {error.start})" if isinstance(error, UnicodeDecodeError) else ""
        raise InputError(f"{label}: not valid UTF-8 (byte {bad}), nor {fallback}{where}") from None
    return _text_only(other.removeprefix("\ufeff"), label, None), fallback


def fallback_encoding(
    data: bytes,
    name: str,
    encoding: str | None,
    input_format: str | None = None,
    language: str | None = None,
) -> str | None:
    """SOURCE-9: ``encoding`` when :func:`document_from_bytes` reads the file ``name``
    holding ``data`` with it (its bytes are not UTF-8 text), else None: no fallback
    given, a PDF, web page or Word file, UTF-8 text, a byte-order mark, or bytes that are
    not a document (their error is the reader's)."""
    if encoding is None:
        return None
    if input_format is None and language is not None:
        input_format = "code"
    try:
        chosen = format_for(name, data[:1024], input_format)
        if chosen in ("pdf", "html", "docx"):
            return None
        return _decode(data, encoding, name)[1]
    except (InputError, ArgumentValueError):
        return None


def _text_only(text: str, label: str, utf8: bytes | None) -> str:
    """SOURCE-11: ``text``, or an InputError naming the offset of its first NUL: the byte
    offset when ``utf8`` (the bytes it was decoded from as UTF-8) is given, else the
    character offset."""
    nul = text.find("\x00")
    if nul < 0:
        return text
    where = f"character {nul}" if utf8 is None else f"byte {utf8.find(_NUL)}"
    raise InputError(f"{label}: holds a NUL (U+0000) at {where}, so it is not text")


def _from_json(
    text: str, doc_id: str, source: str, title: str | None, label: str, metadata: Metadata
) -> SourceDocument:
    """Read a JSON list of blocks (or ``{"blocks": [...]}``) as MD-13 says."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"{label}: not valid JSON ({error.msg}: line {error.lineno} column {error.colno})"
        ) from None
    except RecursionError:
        # json.loads recurses once per nesting level: "[[[[..." 1,000+ deep overflows it.
        raise InputError(f"{label}: not valid JSON (nested too deeply)") from None
    if isinstance(data, dict) and "blocks" in data:
        data = data["blocks"]
    if not isinstance(data, list):
        raise InputError(f"{label}: expected a JSON list of blocks")
    try:
        parsed = document_from_blocks(doc_id, data)
    except (TypeError, ValueError) as error:
        raise InputError(f"{label}: {error}") from None
    chosen = _title(parsed, doc_id) if title is None else require_text("title", title)
    return SourceDocument(doc_id, parsed.source, "json", chosen, source, None, parsed, metadata)


def _from_html(
    markup: str,
    doc_id: str,
    source: str,
    title: str | None,
    metadata: Metadata,
    keep_furniture: bool = False,
    input_format: str = "html",
) -> SourceDocument:
    """Read an HTML page (HTML rules): its rendered text, blocks, title and markup map."""
    page = read_markup(markup, doc_id, keep_furniture=keep_furniture)
    if title is None:  # HTML-13: <title>, else SOURCE-5's first level-1 heading
        chosen = page.title if page.title else _title(page.parsed, doc_id)
    else:
        chosen = require_text("title", title)
    return SourceDocument(
        doc_id,
        page.parsed.source,
        input_format,
        chosen,
        source,
        None,
        page.parsed,
        metadata,
        markup=markup,
        markup_map=page.markup_map,
        page_metadata=page.meta,
        page_access_names=page.access_names,
    )


def read_document(
    path: str | os.PathLike[str],
    *,
    doc_id: str | None = None,
    input_format: str | None = None,
    title: str | None = None,
    encoding: str | None = None,
    pdf_password: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    pdf_max_decompressed: int | None = None,
    keep_furniture: bool = False,
    language: str | None = None,
) -> SourceDocument:
    """Read the file at ``path`` as a document; ``doc_id`` defaults to its stem (SOURCE-3).

    ``source`` is ``path`` as given; ``encoding``, ``pdf_password``, ``metadata`` and
    ``pdf_max_decompressed`` and ``keep_furniture`` are as in :func:`document_from_bytes`
    (SOURCE-8, SOURCE-9, META-3, TRUST-52, HTML-11). Raises InputError (one line, naming
    the path) for a file that is missing, unreadable, or not a document of its format.
    """
    if not isinstance(path, os.PathLike):
        require_str("path", path)
    name = os.fspath(path)
    return document_from_bytes(
        read_bytes(name),
        doc_id=Path(name).stem if doc_id is None else doc_id,
        source=name,
        input_format=input_format,
        title=title,
        name=name,
        encoding=encoding,
        pdf_password=pdf_password,
        metadata=metadata,
        pdf_max_decompressed=pdf_max_decompressed,
        keep_furniture=keep_furniture,
        language=language,
    )


def read_bytes(name: str) -> bytes:
    """Return the bytes of the file ``name``; InputError (one line, SOURCE-6) if it cannot
    be read: missing, a directory, refused by the system, or not a regular file (TRUST-31:
    a device or a socket is never read; a FIFO the caller names is read as a stream)."""
    try:
        return read_regular(name, fifo=True)
    except OSError as error:
        raise InputError(unreadable(name, error)) from None
