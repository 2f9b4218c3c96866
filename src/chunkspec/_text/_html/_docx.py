"""Word files (``.docx``) through mammoth's HTML (HTML-23).

mammoth (extra ``docx``) converts a document's paragraphs, headings (by paragraph style),
lists, tables, footnotes and links to plain HTML; the page is then read as every other
(HTML-1..HTML-21), so a Word file's records index the text of that HTML and
``markup_span`` maps into the HTML mammoth wrote (``SourceDocument.markup``), not into
the Word file's XML. Images are dropped (no alt text is written), and nothing outside the
file is read: mammoth's external file access stays off (HTML-22). A file whose parts
decompress past the cap is refused before mammoth reads it (TRUST-52's rule for PDFs, with
a lower cap: mammoth holds about 18 bytes a byte of XML).
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from ..._errors import InputError

__all__ = ["docx_to_html"]

#: HTML-23: the content bytes a Word file may decompress to: the larger of 32 MiB and 20
#: times the file (a 62 MB document.xml in a 180 KB file took 1.2 GB and a minute).
_FLOOR = 32 * 1024 * 1024
_RATIO = 20


def docx_to_html(data: bytes, label: str, max_decompressed: int | None = None) -> str:
    """Return the HTML mammoth makes of the Word file ``data``; InputError if unreadable."""
    try:
        import mammoth
    except ImportError:
        raise ImportError(
            "reading .docx files needs the docx extra: pip install 'chunkspec[docx]'"
        ) from None
    cap = max(_FLOOR, _RATIO * len(data)) if max_decompressed is None else max_decompressed
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            total = sum(info.file_size for info in archive.infolist())
    except (zipfile.BadZipFile, OSError, ValueError):
        raise InputError(f"{label}: not a Word file (not a ZIP archive)") from None
    if total > cap:
        raise InputError(
            f"{label}: Word file decompresses to {total} bytes, over the cap of {cap} (HTML-23)"
        )

    def no_image(image: Any) -> dict[str, str]:
        return {}

    try:
        result = mammoth.convert_to_html(
            io.BytesIO(data),
            convert_image=mammoth.images.img_element(no_image),
            external_file_access=False,
        )
    except Exception as error:  # mammoth raises KeyError, ValueError... on a broken file
        raise InputError(f"{label}: not a readable Word file ({type(error).__name__})") from None
    html: str = result.value
    return html
