"""``assemble``: pack the best-scored chunks into a token budget (PACK rules)."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate, filterfalse, repeat
from operator import attrgetter
from typing import cast

from .._errors import ArgumentTypeError, ArgumentValueError
from ._seed_chunk import Chunk
from ._validate import MAX_SAFE_INTEGER, require_int, require_real, require_str, require_text

__all__ = ["assemble"]


def assemble(
    chunks: Iterable[Chunk], budget: int, min_score: float = 0.35
) -> tuple[str, list[str]] | None:
    """Pick chunks best score first into ``budget`` tokens; ``None`` when nothing is picked.

    Contract (docs/spec.md, rules PACK-1 to PACK-12), with ``picked`` the chosen chunks:

    * candidates are visited in ``sorted(chunks, key=lambda c: (-c.score, c.id))`` order
      (stable, ids compared by code point);
    * the walk stops at the first chunk with ``score < min_score``;
    * a chunk whose ``content_hash`` is already in ``picked`` is skipped;
    * a chunk with ``tokens > budget - sum(p.tokens for p in picked)`` is skipped and the
      walk goes on;
    * the result is ``("\\n".join(render(c) for c in picked), [c.id for c in picked])``, or
      ``None`` if ``picked`` is empty.

    Raises TypeError/ValueError naming the argument (``chunks[i].score`` for an item) when
    ``budget`` is not an int in ``[0, 2**53-1]``, ``min_score`` or a score is NaN or not a
    number, or an item is not a valid :class:`Chunk`.
    """
    given: object = chunks  # checked at run time whatever the static type says
    if isinstance(given, (str, bytes)) or not isinstance(given, Iterable):
        raise ArgumentTypeError("chunks", "an iterable of Chunk", given)
    items = list(chunks)
    if not _all_well_formed(items):
        for index, item in enumerate(items):
            _require_chunk(f"chunks[{index}]", item)
    require_int("budget", budget, minimum=0)
    require_real("min_score", min_score)

    ranked = _ranked(items)
    # PACK-4: "stop at the first chunk below min_score": the ranked scores descend.
    candidates = ranked[: bisect_right(ranked, -min_score, key=_negated_score)]
    hashes = list(map(_CONTENT_HASH, candidates))
    if len(set(hashes)) == len(hashes):
        picked = _fit(candidates, budget)  # PACK-7; no hash repeats, so PACK-6 skips none
    else:
        picked = []
        seen: set[str] = set()
        room = budget
        for chunk, content_hash in zip(candidates, hashes, strict=True):
            if content_hash in seen:
                continue  # PACK-6: the same text is already in the context.
            if chunk.tokens > room:
                continue  # PACK-7: skip what does not fit and keep going.
            picked.append(chunk)
            seen.add(content_hash)
            room -= chunk.tokens
    if not picked:
        return None  # PACK-8
    # PACK-9: ``render_unchecked(c)`` inlined (RENDER-1), a fifth faster than calling it.
    return "\n".join([f"[{c.id}] {c.title}\n{c.text}" for c in picked]), [c.id for c in picked]


def _ranked(items: list[Chunk]) -> list[Chunk]:
    """``sorted(items, key=lambda c: (-c.score, c.id))``, fast when no two scores are equal.

    Then the score alone decides the order, and sorting by it in C (``attrgetter``, no
    Python call per item; ``reverse=True`` keeps a sort stable) takes a sixth of the time
    of building a tuple per item. Equal scores (``0.0 == -0.0``, ``1 == 1.0``) are caught
    by the set, whose size is then below the list's: the id decides (PACK-1, PACK-2,
    PACK-3) through the tuple key.
    """
    if len(set(map(_SCORE, items))) == len(items):
        return sorted(items, key=_SCORE, reverse=True)
    return sorted(items, key=_rank)


def _rank(chunk: Chunk) -> tuple[float, str]:
    """Sort key: score descending, then id ascending by code point."""
    return (-chunk.score, chunk.id)


_SCORE = attrgetter("score")
_TOKENS = attrgetter("tokens")
_CONTENT_HASH = attrgetter("content_hash")


def _negated_score(chunk: Chunk) -> float:
    """The key under which the ranked chunks ascend."""
    return -chunk.score


def _fit(candidates: list[Chunk], budget: int) -> list[Chunk]:
    """The chunks PACK-7 picks from ``candidates`` in order, none of them a repeat.

    Each is picked iff its tokens fit the room the ones before it left. The longest prefix
    whose tokens sum within ``budget`` is all picked (found by bisection over the running
    sums, in C); the rest is walked over their token counts, ints in a list.
    """
    tokens = list(map(_TOKENS, candidates))
    sums = list(accumulate(tokens))
    fits = bisect_right(sums, budget)
    picked = candidates[:fits]
    room = budget - sums[fits - 1] if fits else budget
    for index in range(fits, len(tokens)):
        if tokens[index] <= room:
            picked.append(candidates[index])
            room -= tokens[index]
    return picked


_TEXT_FIELDS = ("id", "doc_id", "title", "text")


def _all_well_formed(items: list[Chunk]) -> bool:
    """True if every item passes ``_require_chunk``, checked a field at a time in C.

    A speed path only: it accepts exactly what ``_require_chunk`` accepts when every field
    is of an exact type (no subclass of ``str``, ``int`` or ``float``), and says False (the
    item-by-item check then runs and raises the same error as ever) whenever it is unsure.
    """
    if not all(map(isinstance, items, repeat(Chunk))):
        return False
    for name in (*_TEXT_FIELDS, "content_hash"):
        values: list[object] = list(map(attrgetter(name), items))
        if not all(map(isinstance, values, repeat(str))):
            return False
        if name != "content_hash":
            # PORT-2 on all the values at once (a surrogate is one code point), skipping
            # the ASCII ones: ``isascii`` reads a flag CPython keeps on the string.
            wide = list(filterfalse(str.isascii, cast("list[str]", values)))
            try:
                require_text(name, "".join(wide))
            except ArgumentValueError:
                return False
    tokens: list[int] = list(map(attrgetter("tokens"), items))
    if tokens and (
        set(map(type, tokens)) != {int} or min(tokens) < 0 or max(tokens) > MAX_SAFE_INTEGER
    ):
        return False
    scores: list[float] = list(map(attrgetter("score"), items))
    kinds = set(map(type, scores))
    if not kinds <= {float, int}:
        return False
    if int in kinds:  # PORT-1: an int score must be within +-(2**53 - 1)
        whole = [score for score in scores if type(score) is int]
        if min(whole) < -MAX_SAFE_INTEGER or max(whole) > MAX_SAFE_INTEGER:
            return False
    return not any(map(math.isnan, scores))


def _require_chunk(argument: str, item: object) -> None:
    """Raise TypeError/ValueError unless ``item`` is a Chunk with well-formed fields."""
    if not isinstance(item, Chunk):
        raise ArgumentTypeError(argument, "a Chunk", item)
    for name in ("id", "doc_id", "title", "text"):
        require_text(f"{argument}.{name}", getattr(item, name))
    require_str(f"{argument}.content_hash", item.content_hash)
    require_int(f"{argument}.tokens", item.tokens, minimum=0)
    require_real(f"{argument}.score", item.score)
