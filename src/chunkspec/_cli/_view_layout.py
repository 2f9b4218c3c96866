"""What ``chunkspec view`` draws, before any HTML: segments, budget, crumbs (VIEW-2, VIEW-3)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .._errors import ArgumentValueError
from .._records._record import ChunkRecord

__all__ = ["Segment", "budget_of", "histogram", "is_crumb", "segments"]

#: RECORD-6: the budget inside a strategy string (``heading:max_tokens=512,overlap_tokens=64``).
_BUDGET = re.compile(r"(?:^|[:,])max_tokens=([0-9]+)(?:,|$)")

#: VIEW-3: a chunk is a crumb when it holds less than this share of its budget.
CRUMB_SHARE = 8


@dataclass(frozen=True, slots=True)
class Segment:
    """A run ``[start, end)`` of the source text and the chunks (list positions) covering it.

    ``start == end`` is the marker of an empty chunk (VIEW-2), drawn where its span sits.
    """

    start: int
    end: int
    chunks: tuple[int, ...]


def segments(length: int, spans: Sequence[tuple[int, int]]) -> list[Segment]:
    """VIEW-2: cut ``[0, length)`` at every span's ends; each piece lists its covering spans.

    Pieces are in text order; an empty span is a marker before the piece starting at its
    offset, markers at one offset in list order. Every offset of the text is in exactly one
    piece, so the page draws the text once, whatever the spans' overlaps and gaps.
    """
    for position, (start, end) in enumerate(spans):
        if not 0 <= start <= end <= length:
            raise ArgumentValueError(
                f"spans[{position}]",
                f"must lie inside the text of {length} characters",
                [start, end],
            )
    cuts = sorted({0, length, *(s for s, _ in spans), *(e for _, e in spans)})
    empty: dict[int, list[int]] = {}
    starting: dict[int, list[int]] = {}
    ending: dict[int, list[int]] = {}
    for position, (start, end) in enumerate(spans):
        if start == end:
            empty.setdefault(start, []).append(position)
        else:
            starting.setdefault(start, []).append(position)
            ending.setdefault(end, []).append(position)
    # A sweep over the cuts: a piece [left, right) lies in exactly the spans open at left
    # (start <= left < end), since every end is a cut.
    active: set[int] = set()
    pieces: list[Segment] = []
    for left, right in zip(cuts, [*cuts[1:], None], strict=True):
        active.difference_update(ending.get(left, ()))
        active.update(starting.get(left, ()))
        pieces.extend(Segment(left, left, (p,)) for p in empty.get(left, ()))
        if right is None:
            break
        pieces.append(Segment(left, right, tuple(sorted(active))))
    return pieces


def budget_of(strategy: str) -> int | None:
    """RECORD-6: the ``max_tokens`` a strategy string names, or None when it names none."""
    match = _BUDGET.search(strategy)
    return int(match.group(1)) if match else None


def is_crumb(record: ChunkRecord) -> bool:
    """VIEW-3: fewer than an eighth of the record's budget in tokens (never when none is known)."""
    budget = budget_of(record.strategy)
    return budget is not None and CRUMB_SHARE * record.tokens < budget


def histogram(records: Sequence[ChunkRecord], bins: int = 8) -> list[tuple[str, int]]:
    """VIEW-4: chunk counts by tokens: ``bins`` bins up to ``top`` and one bin over it.

    ``top`` is the records' largest budget, else their largest ``tokens`` (at least
    ``bins``); bin ``i`` holds ``i*top/bins < tokens <= (i+1)*top/bins`` (bin 0 also 0).
    """
    budgets = [b for b in (budget_of(r.strategy) for r in records) if b is not None]
    top = max(budgets) if budgets else max((r.tokens for r in records), default=0)
    top = max(top, bins)
    counts = [0] * (bins + 1)
    for record in records:
        tokens = record.tokens
        counts[bins if tokens > top else max((bins * tokens + top - 1) // top - 1, 0)] += 1
    labels = [f"{i * top // bins + 1 if i else 0}-{(i + 1) * top // bins}" for i in range(bins)]
    labels.append(f"> {top}")
    return list(zip(labels, counts, strict=True))
