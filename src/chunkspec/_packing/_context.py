"""What the packer returns: passages with their provenance and the rendered context (CTX rules)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["PASSAGE_SEPARATOR", "PackedContext", "Passage", "passage_label", "render_passages"]

#: What joins two rendered passages (CTX-9): a blank line.
PASSAGE_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Passage:
    """One passage of a packed context and where it came from (CTX-5, CTX-11).

    ``text == prefix + source_text[start:end]`` of document ``doc_id`` for verbatim records
    (CTX-3); ``record_ids`` are the packed records it covers, by position; ``key`` is the
    citation key the context shows it under (``"1"`` for ``[1]``).
    """

    key: str
    doc_id: str
    source: str
    title: str
    start: int
    end: int
    page_start: int | None
    page_end: int | None
    heading_path: tuple[str, ...]
    record_ids: tuple[str, ...]
    prefix: str
    text: str
    score: float
    trimmed: bool = False

    @property
    def label(self) -> str:
        """The header line's text after the key: title, then the heading path (CTX-9)."""
        return passage_label(self.title, self.heading_path)

    def citation(self) -> dict[str, Any]:
        """The passage's provenance as JSON data (CTX-11)."""
        return {
            "doc_id": self.doc_id,
            "source": self.source,
            "title": self.title,
            "start": self.start,
            "end": self.end,
            "page_start": self.page_start,
            "page_end": self.page_end,
            "heading_path": list(self.heading_path),
            "record_ids": list(self.record_ids),
            "score": self.score,
            "trimmed": self.trimmed,
        }


@dataclass(frozen=True, slots=True)
class PackedContext:
    """The result of :func:`pack_records` (CTX-1 to CTX-20).

    ``text`` is the rendered context, ``tokens`` its count under ``counter`` (never above
    ``budget``, CTX-8), ``passages`` in rendered order, ``withheld`` how many input records
    the principal may not read (CTX-14), ``titles`` whether headers show titles (CTX-17),
    ``unreadable_labels`` the ids of the withheld records whose labels cannot be read, in
    input order (TRUST-10). ``passages == ()`` means nothing was packed.
    """

    text: str
    tokens: int
    budget: int
    counter: str
    order: str
    passages: tuple[Passage, ...]
    withheld: int
    titles: bool = False
    unreadable_labels: tuple[str, ...] = ()

    def citations(self) -> dict[str, dict[str, Any]]:
        """Map each citation key to its passage's provenance (CTX-11)."""
        return {p.key: p.citation() for p in self.passages}

    def to_dict(self) -> dict[str, Any]:
        """The whole result as JSON data: the context, its count, citations (CTX-11)."""
        return {
            "context": self.text,
            "tokens": self.tokens,
            "budget": self.budget,
            "counter": self.counter,
            "order": self.order,
            "withheld": self.withheld,
            "unreadable_labels": list(self.unreadable_labels),
            "titles": self.titles,
            "citations": self.citations(),
        }


def passage_label(title: str, heading_path: Sequence[str]) -> str:
    """``title > h1 > h2``, without a first heading that repeats the title (CTX-9, RECORD-9)."""
    path = tuple(heading_path)
    if path and path[0] == title:
        path = path[1:]
    return " > ".join((title, *path))


def render_passages(rows: Sequence[tuple[str, str | None, str]]) -> str:
    """The context for ``(key, label, text)`` rows: ``[key] label\\ntext`` (``[key]\\ntext``
    for a None label), blank-line joined (CTX-9, CTX-17)."""
    return PASSAGE_SEPARATOR.join(
        f"[{key}]\n{text}" if label is None else f"[{key}] {label}\n{text}"
        for key, label, text in rows
    )
