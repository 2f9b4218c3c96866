"""Fair gold across chunkings: answers are character spans of a source, not chunk ids.

Rules EVAL-10 to EVAL-14 in docs/spec/eval.md. A chunk answers a gold span when its region
``[start, end)`` in the same document overlaps the span by at least ``ceil(share * len)``
characters; ``share == 1.0`` (the default) is full cover.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .._core._validate import require_int, require_real, require_text
from .._errors import ArgumentTypeError, ArgumentValueError
from ._metrics import LabelledQuery

__all__ = ["GoldSpan", "SpanQuery", "answers", "labelled", "needed_overlap"]


@dataclass(frozen=True, slots=True)
class GoldSpan:
    """The characters ``source[start:end]`` of document ``doc_id`` that answer a question."""

    doc_id: str
    start: int
    end: int

    def __post_init__(self) -> None:
        require_text("doc_id", self.doc_id)
        require_int("start", self.start, minimum=0)
        require_int("end", self.end, minimum=0)
        if self.end <= self.start:
            # EVAL-10: an empty span would be "covered" by every chunk of its document.
            raise ArgumentValueError("end", f"must be > start ({self.start})", self.end)


@dataclass(frozen=True, slots=True)
class SpanQuery:
    """A labelled question whose gold is one or more spans.

    Any one span answers it, or with ``together`` all spans together make the one answer
    (rule EVAL-31: Chroma's excerpts).
    """

    id: str
    kind: str
    question: str
    gold: tuple[GoldSpan, ...]
    together: bool = False

    def __post_init__(self) -> None:
        require_text("id", self.id)
        if not isinstance(self.together, bool):
            raise ArgumentTypeError("together", "a bool", self.together)
        require_text("kind", self.kind)
        require_text("question", self.question)
        gold: object = self.gold
        if not isinstance(gold, tuple) or not all(isinstance(s, GoldSpan) for s in gold):
            raise ArgumentTypeError("gold", "a tuple of GoldSpan", self.gold)
        if not self.gold:
            raise ArgumentValueError("gold", "must hold at least one span", self.gold)


def needed_overlap(span: GoldSpan, share: float) -> int:
    """Return ``ceil(share * (span.end - span.start))``: the characters a chunk must cover."""
    return math.ceil(share * (span.end - span.start))


def answers(doc_id: str, start: int, end: int, span: GoldSpan, share: float = 1.0) -> bool:
    """Return True if region ``[start, end)`` of ``doc_id`` answers ``span`` (rule EVAL-11).

    ``answers(...) == (doc_id == span.doc_id and overlap >= ceil(share * len(span)))`` with
    ``overlap == max(0, min(end, span.end) - max(start, span.start))``. With ``share == 1``
    this is full cover: ``start <= span.start and span.end <= end``.
    """
    _require_share(share)
    if doc_id != span.doc_id:
        return False
    overlap = min(end, span.end) - max(start, span.start)
    return overlap > 0 and overlap >= needed_overlap(span, share)


def labelled(
    query: SpanQuery,
    regions: Mapping[str, Sequence[tuple[str, int, int]]],
    share: float = 1.0,
) -> LabelledQuery:
    """Map ``query`` to the chunk ids of one chunking that answer it (rule EVAL-12).

    ``regions[doc_id]`` lists ``(chunk_id, start, end)`` for that document's chunks. The gold
    ids are every chunk answering any gold span; none (the chunking cut every answer) gives
    an empty gold set, which is a miss for every retriever (rule EVAL-1).
    """
    _require_share(share)
    gold: set[str] = set()
    for span in query.gold:
        for chunk_id, start, end in regions.get(span.doc_id, ()):
            if answers(span.doc_id, start, end, span, share):
                gold.add(chunk_id)
    return LabelledQuery(query.question, frozenset(gold))


def _require_share(share: object) -> float:
    """Return ``share`` if it is a real number in ``(0, 1]``."""
    value = require_real("share", share)
    if not 0 < value <= 1:
        raise ArgumentValueError("share", "must be in (0, 1]", share)
    return value
