"""RECORD-12's heading starts are found in time linear in the document (no rescan per heading)."""

from __future__ import annotations

from typing import SupportsIndex

import pytest

from chunkspec import document_from_text
from chunkspec._records._chunk_document import _Headings


class _CountingText(str):
    """A str that adds up how many characters its ``rfind`` calls were asked to scan."""

    scanned = 0

    def rfind(
        self,
        sub: str,
        start: SupportsIndex | None = None,
        end: SupportsIndex | None = None,
    ) -> int:
        low = 0 if start is None else int(start)
        high = len(self) if end is None else int(end)
        type(self).scanned += max(0, high - low)
        return super().rfind(sub, start, end)


def _markdown(size: int) -> str:
    """LF Markdown of about ``size`` characters: a heading every few lines."""
    section = "## Heading\n\nSome words of prose here.\nAnd a second line.\n\n"
    return section * (size // len(section) + 1)


@pytest.mark.parametrize("mebibytes", [1, 4])
def test_heading_starts_scan_each_character_a_bounded_number_of_times(mebibytes: int) -> None:
    """Looking up the path at offsets all through an LF file scans back at most to the
    previous heading, once per heading, so the characters scanned stay within three times
    the text for 1 MiB and 4 MiB alike (the unbounded ``\\r`` search scanned back to the
    start once per heading: quadratic; a search per lookup would be records x section)."""
    text = _markdown(mebibytes << 20)
    blocks = document_from_text(text, doc_id="d").blocks().blocks
    _CountingText.scanned = 0
    headings = _Headings(_CountingText(text), blocks)
    assert len(headings.titles) > 10_000
    for offset in range(0, len(text), 7):  # several lookups in every section
        headings.at(offset)
    assert _CountingText.scanned <= 3 * len(text)  # two searches (LF, CR) per heading


def test_heading_starts_are_line_starts() -> None:
    """A heading starts at its line's start, for LF, CR and CRLF lines and a setext heading
    whose title starts past its line's start: the path at every offset is the last
    heading's whose line starts at or before it."""
    text = "intro\r\n# One\rpara\n  Two\n---\n## Three\n"
    blocks = document_from_text(text, doc_id="d").blocks().blocks
    headings = _Headings(text, blocks)
    brute = [
        max(text.rfind("\n", 0, b.start), text.rfind("\r", 0, b.start)) + 1
        for b in blocks
        if b.kind == "heading"
    ]
    assert len(brute) == 3
    for offset in range(len(text) + 1):
        k = sum(1 for start in brute if start <= offset)
        assert headings.at(offset) == (headings.paths[k - 1] if k else ()), offset
