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


def decode_html(data: bytes, encoding: str | None, label: str) -> str:
    """Return the markup of ``data`` (HTML-2); InputError, one line, if it cannot be read."""
    chosen, shown, skip = _choose(data, encoding)
    try:
        info = codecs.lookup(chosen)
    except LookupError:
        raise InputError(
            f"{label}: declares encoding {chosen!r}, which Python cannot decode; "
            "give --input-encoding"
        ) from None
    try:
        return data[skip:].decode(info.name)
    except UnicodeDecodeError as error:
        raise InputError(
            f"{label}: not valid {shown} (byte {error.start + skip}); give --input-encoding"
        ) from None


def _choose(data: bytes, encoding: str | None) -> tuple[str, str, int]:
    """The codec, its name in messages and the BOM's length (HTML-2's order)."""
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
