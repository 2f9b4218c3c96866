"""Word files for tests, built with python-docx (a real writer, not bytes by hand)."""

from __future__ import annotations

import io
from collections.abc import Sequence


def build_docx(paragraphs: Sequence[tuple[str, str]], table: Sequence[Sequence[str]] = ()) -> bytes:
    """A .docx of ``(style, text)`` paragraphs (style ``Heading N``, ``Normal``, ``List
    Bullet``) and, if given, a table of ``table``'s rows at the end."""
    import docx

    document = docx.Document()
    for style, text in paragraphs:
        if style.startswith("Heading "):
            document.add_heading(text, int(style.split()[1]))
        else:
            document.add_paragraph(text, style=style)
    if table:
        grid = document.add_table(rows=len(table), cols=max(len(row) for row in table))
        for r, row in enumerate(table):
            for c, cell in enumerate(row):
                grid.cell(r, c).text = cell
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
