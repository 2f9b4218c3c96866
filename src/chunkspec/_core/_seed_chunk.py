"""The ``Chunk`` record and its rendering into a context block (RENDER-1)."""

from __future__ import annotations

from dataclasses import dataclass

from .._errors import ArgumentTypeError

__all__ = ["Chunk", "render", "render_unchecked"]


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrievable unit: ``id == f"{doc_id}:{n}"`` as made by split_section (SPLIT rules)."""

    id: str
    doc_id: str
    title: str
    text: str
    tokens: int
    content_hash: str
    score: float = 0.0


def render(c: Chunk) -> str:
    """Return ``f"[{c.id}] {c.title}\\n{c.text}"``, the block assemble joins (rule RENDER-1)."""
    if not isinstance(c, Chunk):
        raise ArgumentTypeError("c", "a Chunk", c)
    return render_unchecked(c)


def render_unchecked(c: Chunk) -> str:
    """``render`` without the type check, for callers that validated ``c`` already."""
    return f"[{c.id}] {c.title}\n{c.text}"
