"""The read-only view that every provenance-carrying chunk type offers (docs/design.md)."""

from __future__ import annotations

from typing import Protocol

__all__ = ["SourceChunk"]


class SourceChunk(Protocol):
    """A chunk that knows where it came from: ``source[start:end]`` is its region.

    Each chunker documents the exact equation between ``source[start:end]`` and ``text``.
    ``embedding_text`` is what an embedder should see (``text`` plus any heading trail).
    """

    @property
    def text(self) -> str: ...

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...

    @property
    def embedding_text(self) -> str: ...
