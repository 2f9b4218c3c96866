"""A literal model of ``pack_records`` (docs/spec/context.md): slow on purpose.

Every candidate is tried by rebuilding every passage from the list of picked records, one
source character at a time, re-rendering the whole context and recounting it; nothing is
kept between candidates but the list of picks.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chunkspec import ChunkRecord


@dataclass(frozen=True)
class ModelPassage:
    """One passage as the model builds it."""

    doc_id: str
    start: int
    end: int
    text: str
    label: str
    first: int
    members: tuple[int, ...]


def _compare(a: tuple[float, str], b: tuple[float, str]) -> int:
    """Score descending, then id ascending by code point (PACK-1, PACK-2)."""
    if a[0] != b[0]:
        return -1 if a[0] > b[0] else 1
    if a[1] != b[1]:
        return -1 if a[1] < b[1] else 1
    return 0


def _is_verbatim(record: ChunkRecord) -> bool:
    """Every strategy but recursive keeps text verbatim (RECORD-3)."""
    return not record.strategy.startswith("recursive:") and record.strategy != "recursive"


def _shares(a: ChunkRecord, b: ChunkRecord) -> bool:
    """The spans share a character."""
    return any(a.start <= k < a.end for k in range(b.start, b.end))


def _touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Closed intervals meet."""
    return a[0] <= b[1] and b[0] <= a[1]


def _label(title: str, path: Sequence[str]) -> str:
    """Title, then the heading path without a first heading equal to the title."""
    parts = [title]
    for n, heading in enumerate(path):
        if n == 0 and heading == title:
            continue
        parts.append(heading)
    return " > ".join(parts)


def model_passages(
    records: Sequence[ChunkRecord], picks: list[tuple[int, int]]
) -> list[ModelPassage] | None:
    """The passages of the picked ``(index, rank)`` pairs; None if two may not coexist."""
    for x, (i, _) in enumerate(picks):
        for j, _ in picks[:x]:
            a, b = records[i], records[j]
            both = _is_verbatim(a) and _is_verbatim(b)
            if a.doc_id == b.doc_id and _shares(a, b) and not both:
                return None
    groups = [[pick] for pick in picks]
    merged = True
    while merged:  # join any two verbatim groups of one document whose spans meet
        merged = False
        for x in range(len(groups)):
            for y in range(x + 1, len(groups)):
                gx, gy = groups[x], groups[y]
                rx, ry = records[gx[0][0]], records[gy[0][0]]
                if rx.doc_id != ry.doc_id or not (_is_verbatim(rx) and _is_verbatim(ry)):
                    continue
                span_x = (min(records[i].start for i, _ in gx), max(records[i].end for i, _ in gx))
                span_y = (min(records[i].start for i, _ in gy), max(records[i].end for i, _ in gy))
                if _touch(span_x, span_y):
                    groups[x] = gx + gy
                    del groups[y]
                    merged = True
                    break
            if merged:
                break
    out: list[ModelPassage] = []
    for group in groups:
        members = [records[i] for i, _ in group]
        first_record = min(members, key=lambda r: (r.start, r.index, r.id))
        paths = [r.heading_path for r in members]
        common: list[str] = []
        for n in range(min(len(p) for p in paths)):
            if all(p[n] == paths[0][n] for p in paths):
                common.append(paths[0][n])
            else:
                break
        label = _label(first_record.title, common)
        start = min(r.start for r in members)
        end = max(r.end for r in members)
        if _is_verbatim(members[0]):
            chars: dict[int, str] = {}
            for r in members:
                for k, char in enumerate(r.text[len(r.prefix) :]):
                    chars[r.start + k] = char
            opener = min(group, key=lambda g: (records[g[0]].start, g[1]))
            text = records[opener[0]].prefix + "".join(chars[k] for k in range(start, end))
        else:
            text = members[0].text
        out.append(
            ModelPassage(
                members[0].doc_id,
                start,
                end,
                text,
                label,
                min(rank for _, rank in group),
                tuple(i for i, _ in group),
            )
        )
    return out


def model_layout(passages: list[ModelPassage], order: str) -> list[ModelPassage]:
    """Reading order: documents by first pick, then position; or first pick alone."""
    if order == "score":
        return sorted(passages, key=lambda p: p.first)
    doc_first = {p.doc_id: min(q.first for q in passages if q.doc_id == p.doc_id) for p in passages}
    return sorted(passages, key=lambda p: (doc_first[p.doc_id], p.start, p.first))


def model_render(layout: list[ModelPassage], titles: bool = True) -> str:
    """``[n] label`` (``[n]`` without titles) and the text, passages one blank line apart."""
    blocks = []
    for n, p in enumerate(layout, 1):
        head = "[" + str(n) + "]" + (" " + p.label if titles else "")
        blocks.append(head + "\n" + p.text)
    return "\n\n".join(blocks)


def model_pack_records(
    records: Sequence[ChunkRecord],
    scores: Sequence[float],
    budget: int,
    min_score: float,
    count: Callable[[str], int],
    order: str,
    may_read: Callable[[ChunkRecord], bool],
    titles: bool = True,
    expand: float | None = None,
) -> tuple[str, int, list[ModelPassage], int]:
    """The context, its count, its passages in order and the withheld count."""

    def compare(i: int, j: int) -> int:
        return _compare((scores[i], records[i].id), (scores[j], records[j].id))

    walk = sorted(range(len(records)), key=functools.cmp_to_key(compare))
    picks: list[tuple[int, int]] = []
    tried: list[tuple[str, tuple[str, ...]]] = []
    for rank, i in enumerate(walk):
        if scores[i] < min_score:
            break
        if not may_read(records[i]):
            continue
        if any(records[j].content_hash == records[i].content_hash for j, _ in picks):
            continue
        passages = model_passages(records, [*picks, (i, rank)])
        if passages is None:
            continue
        if count(model_render(model_layout(passages, order), titles)) > budget:
            continue
        picks.append((i, rank))
        section = (records[i].doc_id, records[i].heading_path)
        if expand is None or not records[i].heading_path or section in tried:
            continue
        members = sorted(
            (
                m
                for m, r in enumerate(records)
                if (r.doc_id, r.heading_path) == section and may_read(r)
            ),
            key=lambda m: (records[m].start, records[m].end, records[m].index, m),
        )
        picked = {j for j, _ in picks}
        have = len([m for m in members if m in picked])
        if have < 2 or have < expand * len(members):
            continue
        tried.append(section)
        grown = list(picks)
        for m in members:
            if m in picked:
                continue
            if any(records[j].content_hash == records[m].content_hash for j, _ in grown):
                continue
            if model_passages(records, [*grown, (m, rank)]) is not None:
                grown.append((m, rank))
        passages = model_passages(records, grown)
        assert passages is not None
        if count(model_render(model_layout(passages, order), titles)) <= budget:
            picks = grown
    final = model_passages(records, picks) or []
    layout = model_layout(final, order)
    text = model_render(layout, titles)
    withheld = sum(1 for r in records if not may_read(r))
    return text, count(text) if picks else 0, layout, withheld


def model_readable(
    metadata: dict[str, object], labels: set[str] | None, tenant: str | None
) -> bool:
    """CTX-13 read aloud: no principal reads only unlabelled records; else the tenant must
    match when the record names one, and every label the record names must be held."""
    record_tenant = metadata.get("tenant_id")
    record_labels = metadata.get("acl_labels") or []
    asks = record_tenant is not None or len(record_labels) > 0  # type: ignore[arg-type]
    if labels is None:
        return not asks
    if record_tenant is not None and record_tenant != tenant:
        return False
    return all(label in labels for label in record_labels)  # type: ignore[attr-defined]
