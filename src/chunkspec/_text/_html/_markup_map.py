"""Text offsets to markup offsets (HTML-18..HTML-21).

A record indexes the document's text; :class:`MarkupMap` says which span of the page's
markup (the decoded file, CRLF kept) each text range came from::

    a, b = document.markup_span(record.start, record.end)
    # HTML-21: the text the reader writes from the markup in [a, b) is the record's text
    # (less the separators the reader writes between blocks, lines and cells)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from ._writer import Segments

__all__ = ["MarkupMap"]


class MarkupMap:
    """HTML-18: the segments of one page, and the CR positions the parse normalized away."""

    __slots__ = ("_carriage", "_lone", "_segments", "unplaced")

    def __init__(
        self,
        segments: Segments,
        carriage: Sequence[int],
        unplaced: int = 0,
        lone: Sequence[int] = (),
    ) -> None:
        #: offsets, in the normalized markup, of each LF that was a lone CR in the file.
        self._lone = lone
        self._segments = segments
        #: HTML-20: the text nodes written without a run.
        self.unplaced = unplaced
        #: offsets, in the normalized markup, of each LF that was a CRLF in the file (its CR
        #: removed), so a normalized offset maps back to the file's own.
        self._carriage = carriage

    def __len__(self) -> int:
        return len(self._segments.text_start)

    def runs(self) -> list[tuple[int, int, int, int, bool]]:
        """Every run ``(text_start, text_end, markup_start, markup_end, exact)``, markup
        offsets into the file's markup (HTML-18); an exact run holding a CRLF or a lone CR
        of the file is three runs: before it, the LF from the CRLF or CR, after it."""
        seg = self._segments
        out: list[tuple[int, int, int, int, bool]] = []
        carriage = sorted([*self._carriage, *self._lone]) if self._lone else self._carriage
        for a, b, s, e, x in zip(
            seg.text_start, seg.text_end, seg.markup_start, seg.markup_end, seg.exact, strict=True
        ):
            if x:
                first = bisect_left(carriage, s)
                for c in carriage[first : bisect_left(carriage, e)]:
                    at = a + c - s  # the LF's text offset
                    if at > a:
                        out.append((a, at, self.raw(s), self.raw(c), True))
                    out.append((at, at + 1, self.raw(c), self.raw(c + 1), False))
                    a, s = at + 1, c + 1
                if a < b:
                    out.append((a, b, self.raw(s), self.raw(e), True))
            else:
                out.append((a, b, self.raw(s), self.raw(e), False))
        return out

    def raw(self, offset: int) -> int:
        """The file's markup offset of normalized ``offset`` (each removed CR before it)."""
        return offset + bisect_left(self._carriage, offset)

    def span(self, start: int, end: int) -> tuple[int, int]:
        """HTML-19: the markup span ``(a, b)`` the text ``[start, end)`` came from.

        ``a`` is where the first run at or after ``start`` starts (inside an exact run, the
        very character), ``b`` where the last run before ``end`` ends. A range holding no
        run (separators only, or text the parser moved, HTML-20) maps to the empty span at
        the markup position of the next run.
        """
        seg = self._segments
        starts, ends = seg.text_start, seg.text_end
        first = bisect_right(ends, start)  # the first run ending after start
        last = bisect_left(starts, end) - 1  # the last run starting before end
        if first >= len(starts):
            point = self.raw(seg.markup_end[-1]) if len(starts) else 0
            return point, point
        if last < first:
            point = self.raw(seg.markup_start[first])
            return point, point
        if seg.exact[first] and starts[first] < start:
            a = seg.markup_start[first] + start - starts[first]
        else:
            a = seg.markup_start[first]
        if seg.exact[last] and ends[last] > end:
            b = seg.markup_end[last] - (ends[last] - end)
        else:
            b = seg.markup_end[last]
        return self.raw(a), self.raw(b)
