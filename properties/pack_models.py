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


def _shares(a: ChunkRecord, b: ChunkRecord, a_end: int, b_end: int) -> bool:
    """The spans (cut at their ends) share a character."""
    return any(a.start <= k < a_end for k in range(b.start, b_end))


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
    records: Sequence[ChunkRecord],
    picks: list[tuple[int, int]],
    cuts: dict[int, int] | None = None,
) -> list[ModelPassage] | None:
    """The passages of the picked ``(index, rank)`` pairs; None if two may not coexist.

    ``cuts`` maps a trimmed record to the end its span is cut at (CTX-19)."""
    ends = {i: (cuts or {}).get(i, records[i].end) for i, _ in picks}
    for x, (i, _) in enumerate(picks):
        for j, _ in picks[:x]:
            a, b = records[i], records[j]
            both = _is_verbatim(a) and _is_verbatim(b)
            if a.doc_id == b.doc_id and _shares(a, b, ends[i], ends[j]) and not both:
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
                span_x = (min(records[i].start for i, _ in gx), max(ends[i] for i, _ in gx))
                span_y = (min(records[i].start for i, _ in gy), max(ends[i] for i, _ in gy))
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
        end = max(ends[i] for i, _ in group)
        if _is_verbatim(members[0]):
            chars: dict[int, str] = {}
            for i, _ in group:
                r = records[i]
                for k, char in enumerate(r.text[len(r.prefix) :]):
                    if r.start + k < ends[i]:
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


def _word_ends(body: str) -> list[int]:
    """Offsets just after each word of ``body`` (a word: a run of non-space characters)."""
    return [
        k
        for k in range(1, len(body) + 1)
        if not body[k - 1].isspace() and (k == len(body) or body[k].isspace())
    ]


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
    trim: bool = False,
) -> tuple[str, int, list[ModelPassage], int]:
    """The context, its count, its passages in order and the withheld count."""

    def compare(i: int, j: int) -> int:
        return _compare((scores[i], records[i].id), (scores[j], records[j].id))

    def fits(picks: list[tuple[int, int]], cuts: dict[int, int]) -> bool:
        passages = model_passages(records, picks, cuts)
        assert passages is not None
        return count(model_render(model_layout(passages, order), titles)) <= budget

    walk = sorted(range(len(records)), key=functools.cmp_to_key(compare))
    picks: list[tuple[int, int]] = []
    cuts: dict[int, int] = {}
    tried: list[tuple[str, tuple[str, ...]]] = []
    for rank, i in enumerate(walk):
        r = records[i]
        if scores[i] < min_score:
            break
        if not may_read(r):
            continue
        if any(records[j].content_hash == r.content_hash for j, _ in picks):
            continue
        if model_passages(records, [*picks, (i, rank)], cuts) is None:
            continue
        if fits([*picks, (i, rank)], cuts):
            picks.append((i, rank))
        else:
            alone = not any(
                records[j].doc_id == r.doc_id
                and _is_verbatim(records[j])
                and _touch((records[j].start, cuts.get(j, records[j].end)), (r.start, r.end))
                for j, _ in picks
            )
            if not (trim and _is_verbatim(r) and alone):
                continue
            trim = False
            body = r.text[len(r.prefix) :]
            for k in reversed(_word_ends(body)):
                if k < len(body) and fits([*picks, (i, rank)], {**cuts, i: r.start + k}):
                    picks.append((i, rank))
                    cuts[i] = r.start + k
                    break
            else:
                continue
        section = (r.doc_id, r.heading_path)
        if expand is None or not r.heading_path or section in tried:
            continue
        members = sorted(
            (
                m
                for m, q in enumerate(records)
                if (q.doc_id, q.heading_path) == section and may_read(q)
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
            if model_passages(records, [*grown, (m, rank)], cuts) is not None:
                grown.append((m, rank))
        if fits(grown, cuts):
            picks = grown
    final = model_passages(records, picks, cuts) or []
    layout = model_layout(final, order)
    text = model_render(layout, titles)
    withheld = sum(1 for q in records if not may_read(q))
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
