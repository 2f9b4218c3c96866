"""Small PDFs built in process for the PDF tests (no files shipped, no downloads)."""

from __future__ import annotations

import zlib


def _escape(text: str) -> str:
    """Escape a PDF literal string."""
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: list[list[str]]) -> bytes:
    """Return a PDF whose page ``k`` shows the lines ``pages[k]`` in Helvetica.

    Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page;
    the cross-reference table holds the real byte offsets.
    """
    objects: list[bytes] = []
    n = len(pages)
    kids = " ".join(f"{4 + 2 * k} 0 R" for k in range(n))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for k, lines in enumerate(pages):
        content = "BT /F1 12 Tf 72 720 Td 14 TL\n" + "".join(
            f"({_escape(line)}) Tj T*\n" for line in lines
        )
        content += "ET"
        stream = content.encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * k} 0 R >>".encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def shared_stream_pdf(pages: int, content_bytes: int) -> bytes:
    """Return a PDF of ``pages`` pages that all show one FlateDecode content stream of about
    ``content_bytes`` bytes of text operators (TRUST-52's hostile PDF: the file is small,
    every page's text extraction parses the whole stream again).

    Objects: 1 catalog, 2 page tree, 3 font, 4 the shared stream, then the pages.
    """
    # Long strings, few tokens: pypdf's own cap on tokens a stream does not stop it.
    line = b"BT /F1 12 Tf 72 720 Td (" + b"shared text " * 250 + b") Tj ET\n"
    content = line * max(1, content_bytes // len(line))
    packed = zlib.compress(content, 9)
    kids = " ".join(f"{5 + k} 0 R" for k in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
        + packed
        + b"\nendstream",
    ]
    objects += [
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    ] * pages
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)
