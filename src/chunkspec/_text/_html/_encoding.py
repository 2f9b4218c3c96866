"""HTML bytes to markup text (HTML-2).

HTML §13.2.3.2's order, with one departure: a byte-order mark; else the caller's encoding
(the "transport layer" of the standard: ``encoding=``, ``--input-encoding``); else a
``<meta charset>`` or ``http-equiv`` declaration in the first 1024 bytes (the prescan,
done by the parser); else UTF-8, strictly. The standard would guess (windows-1252, or a
locale's legacy encoding); we refuse to guess: bytes that are not valid in the chosen
encoding are an InputError naming the encoding and the byte, never replacement characters
(HTML-2: no text is lost silently).
"""

from __future__ import annotations

import codecs

from ..._errors import InputError

__all__ = ["decode_html"]

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


#: HTML-2: the WHATWG Encoding Standard's names that Python spells otherwise, or whose
#: decoder differs from Python's codec of that name (a fix-up after decoding).
_PYTHON_NAMES = {
    "windows-874": "cp874",
    "x-mac-cyrillic": "mac_cyrillic",
    "gbk": "gb18030",  # the standard's GBK decoder is its gb18030 decoder
}
#: KOI8-U: the standard's index puts U+045E and U+040E at 0xAE and 0xBE, where Python's
#: koi8_u has box-drawing characters.
_KOI8_U_FIX = str.maketrans({"\u255d": "\u045e", "\u256c": "\u040e"})


def _c1(error: UnicodeError) -> tuple[str, int]:
    """windows-1252's five bytes Python leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) are
    U+0081.. in the standard's index."""
    if isinstance(error, UnicodeDecodeError):
        byte = error.object[error.start]
        if byte in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
            return chr(byte), error.start + 1
    raise error


def _euro(error: UnicodeError) -> tuple[str, int]:
    """The standard's gb18030 decoder reads a lone 0x80 as the euro sign."""
    if isinstance(error, UnicodeDecodeError) and error.object[error.start] == 0x80:
        return "\u20ac", error.start + 1
    raise error


codecs.register_error("chunkspec-windows-1252", _c1)
codecs.register_error("chunkspec-gb18030", _euro)
#: HTML-2: the error handler that completes Python's codec to the standard's decoder.
_HANDLERS = {"cp1252": "chunkspec-windows-1252", "gb18030": "chunkspec-gb18030"}


def decode_html(data: bytes, encoding: str | None, label: str) -> str:
    """Return the markup of ``data`` (HTML-2); InputError, one line, if it cannot be read."""
    if data.startswith(codecs.BOM_UTF32_LE) and encoding is None:
        raise InputError(
            f"{label}: starts with a UTF-32 byte-order mark, which HTML does not read "
            "(a browser takes it for UTF-16); give --input-encoding utf-32"
        )
    chosen, shown, skip = _choose(data, encoding)
    declared = encoding is None and skip == 0
    name = _PYTHON_NAMES.get(chosen.lower(), chosen) if declared else chosen
    try:
        info = codecs.lookup(name)
    except LookupError:
        raise InputError(
            f"{label}: declares encoding {chosen!r}, which Python cannot decode; "
            "give --input-encoding"
        ) from None
    errors = _HANDLERS.get(info.name, "strict") if declared else "strict"
    try:
        text = data[skip:].decode(info.name, errors)
    except UnicodeDecodeError as error:
        raise InputError(
            f"{label}: not valid {shown} (byte {error.start + skip}); give --input-encoding"
        ) from None
    koi8_u = info.name in ("koi8-u", "koi8_u")
    return text.translate(_KOI8_U_FIX) if declared and koi8_u else text


def _choose(data: bytes, encoding: str | None) -> tuple[str, str, int]:
    """The codec, its name in messages and the BOM's length (HTML-2's order)."""
    if encoding is not None and data.startswith(codecs.BOM_UTF32_LE):
        return encoding, encoding, 0  # the caller says UTF-32: its codec reads the BOM
    for mark, codec in _BOMS:
        if data.startswith(mark):
            return codec, codec.upper(), len(mark)
    if encoding is not None:
        return encoding, encoding, 0
    declared = _declared(data[:1024])
    if declared is not None:
        return declared, f"{declared} (declared by the page)", 0
    return "utf-8", "UTF-8", 0


def _declared(head: bytes) -> str | None:
    """The encoding a ``<meta>`` in ``head`` declares (the WHATWG prescan), else None."""
    import turbohtml

    found = turbohtml.parse(head, detect_encoding=True)
    if found.encoding_confidence != "certain" or not found.encoding:
        return None
    name = str(found.encoding)
    # The prescan says "UTF-16" for a page that is ASCII-compatible: HTML §13.2.3.2 step
    # "if the encoding is UTF-16BE/LE, change it to UTF-8"; x-user-defined is windows-1252.
    if name.lower().startswith("utf-16"):
        return "utf-8"
    return "windows-1252" if name.lower() == "x-user-defined" else name
