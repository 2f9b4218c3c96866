"""The one shape every chunker hands to the record loop: a :class:`Span` of the source."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["Span", "embedded"]


class Span(NamedTuple):
    """One chunk as a span of the document's text (RECORD-10).

    ``text`` is None when the chunk's text is ``prefix + source[start:end]``, and the chunk's
    own text otherwise (``recursive`` only, RECORD-11). ``heading_path`` None means the path
    of the last heading at or before ``start`` (RECORD-12). ``tokens`` is RECORD-14's
    ``counter.count`` of the chunk's text when the chunker has counted exactly that text
    with that counter, else None (the record loop counts it); ``content_hash`` likewise
    HASH-1's digest of the chunk's text when the chunker has computed it, else None.
    ``metadata`` is what this chunk's record carries beside the document's metadata
    (CODE-11: ``code``), the document's keys winning; None for none.
    """

    start: int
    end: int
    kind: str
    heading_path: tuple[str, ...] | None = None
    parent_id: str | None = None
    prefix: str = ""
    text: str | None = None
    tokens: int | None = None
    content_hash: str | None = None
    metadata: Mapping[str, Any] | None = None


def embedded(heading_path: tuple[str, ...], text: str) -> str:
    """What an embedder sees (SIZE-8): ``f"{trail}\\n\\n{text}"`` with
    ``trail = " > ".join(heading_path)``, or ``text`` when the trail is empty."""
    trail = " > ".join(heading_path)
    return f"{trail}\n\n{text}" if trail else text
