"""Properties of assemble (docs/spec.md section 4)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import Chunk, assemble
from chunkspec.core import render

from .models import ModelChunk, model_assemble
from .strategies import budgets, chunk_lists, chunks, distinct_hash_chunk_lists, min_scores


def _model(items: list[Chunk]) -> list[ModelChunk]:
    return [ModelChunk(c.id, c.title, c.text, c.tokens, c.content_hash, c.score) for c in items]


@given(chunk_lists, budgets, min_scores)
def test_agrees_with_literal_model(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-1..PACK-9: assemble equals the seed read literally (cmp-sort, re-summing)."""
    assert assemble(items, budget, min_score) == model_assemble(_model(items), budget, min_score)


def _walk(items: list[Chunk], budget: int, min_score: float) -> list[Chunk]:
    """The picked chunks, from the model (to check invariants on objects, not ids)."""
    order = sorted(items, key=lambda c: (-c.score, c.id))
    picked: list[Chunk] = []
    for c in order:
        if c.score < min_score:
            break
        if c.content_hash in {p.content_hash for p in picked}:
            continue
        if sum(p.tokens for p in picked) + c.tokens <= budget:
            picked.append(c)
    return picked


@given(chunk_lists, budgets, min_scores)
def test_total_within_budget(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-7: the picked chunks' tokens sum to at most budget."""
    result = assemble(items, budget, min_score)
    if result is not None:
        ids = result[1]
        picked = _walk(items, budget, min_score)
        assert [c.id for c in picked] == ids
        assert sum(c.tokens for c in picked) <= budget


@given(chunk_lists, budgets, min_scores)
def test_no_repeated_hash_nothing_below_min(
    items: list[Chunk], budget: int, min_score: float
) -> None:
    """PACK-4, PACK-6: no two picked chunks share a hash; none scores below min_score."""
    picked = _walk(items, budget, min_score)
    result = assemble(items, budget, min_score)
    assert (result is None) == (not picked)
    hashes = [c.content_hash for c in picked]
    assert len(hashes) == len(set(hashes))
    assert all(not c.score < min_score for c in picked)


@given(st.lists(chunks(), max_size=12, unique_by=lambda c: c.id), budgets, min_scores)
def test_order_is_score_then_code_point_id(
    items: list[Chunk], budget: int, min_score: float
) -> None:
    """PACK-1, PACK-2: picked ids come out by score descending, then id by code point."""
    result = assemble(items, budget, min_score)
    if result is None:
        return
    by_id = {c.id: c for c in items}
    picked = [by_id[i] for i in result[1]]
    keys = [(-c.score, [ord(ch) for ch in c.id]) for c in picked]
    assert keys == sorted(keys)


@given(chunk_lists, budgets, min_scores)
def test_maximality(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-6, PACK-7: each unpicked eligible chunk repeats a picked hash or did not fit then."""
    result = assemble(items, budget, min_score)
    ids = result[1] if result else []
    order = sorted(items, key=lambda c: (-c.score, c.id))
    total = 0
    hashes: set[str] = set()
    position = 0
    for chunk in order:
        if chunk.score < min_score:
            break
        if (
            position < len(ids)
            and chunk.id == ids[position]
            and chunk.content_hash not in hashes
            and total + chunk.tokens <= budget
        ):
            total += chunk.tokens
            hashes.add(chunk.content_hash)
            position += 1
            continue
        assert chunk.content_hash in hashes or total + chunk.tokens > budget, chunk
    assert position == len(ids)


@given(chunk_lists, budgets, min_scores)
def test_none_exactly_when_nothing_fits(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-8: None iff no chunk at or above min_score has tokens <= budget."""
    fits = any(not c.score < min_score and c.tokens <= budget for c in items)
    assert (assemble(items, budget, min_score) is None) == (not fits)


@given(chunk_lists, budgets, min_scores)
def test_context_is_rendered_blocks(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-9: context == "\\n".join(render(c) for c in picked), ids in the same order."""
    result = assemble(items, budget, min_score)
    picked = _walk(items, budget, min_score)
    if result is not None:
        assert result == ("\n".join(render(c) for c in picked), [c.id for c in picked])


@given(chunk_lists, budgets, min_scores, st.randoms(use_true_random=False))
def test_input_order_irrelevant_for_distinct_keys(
    items: list[Chunk], budget: int, min_score: float, rnd: object
) -> None:
    """PACK-1, PACK-3: with distinct (score, id) keys, shuffling the input changes nothing."""
    keys = [(c.score, c.id) for c in items]
    if len(set(keys)) != len(keys):
        return
    shuffled = list(items)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert assemble(shuffled, budget, min_score) == assemble(items, budget, min_score)


@given(chunk_lists, budgets)
def test_signed_zero_is_zero(items: list[Chunk], budget: int) -> None:
    """PACK-5: replacing every 0.0 score by -0.0 (and min_score too) changes nothing."""
    flipped = [dataclasses.replace(c, score=-0.0) if c.score == 0 else c for c in items]
    assert assemble(flipped, budget, -0.0) == assemble(items, budget, 0.0)


@given(chunk_lists, budgets, min_scores)
def test_stable_for_equal_keys(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-3, PACK-11: duplicating the input keeps first copies first; ids may repeat."""
    result = assemble(items + items, budget, min_score)
    expected = model_assemble(_model(items + items), budget, min_score)
    assert result == expected


@given(chunk_lists, budgets, min_scores)
def test_pure(items: list[Chunk], budget: int, min_score: float) -> None:
    """PACK-12, PACK-13: inputs unchanged; tokens and hashes used as given, not recomputed."""
    before = list(items)
    first = assemble(iter(items), budget, min_score)
    assert items == before
    assert assemble(tuple(items), budget, min_score) == first


@given(chunk_lists, st.integers(0, 11), st.sampled_from(["score", "tokens", "id", "title", "item"]))
def test_bad_item_named(items: list[Chunk], index: int, field: str) -> None:
    """PACK-10, PORT-1, PORT-2: a bad item anywhere raises naming chunks[i] (and the field)."""
    if not items:
        return
    index %= len(items)
    bad: object
    if field == "score":
        bad = dataclasses.replace(items[index], score=math.nan)
    elif field == "tokens":
        bad = dataclasses.replace(items[index], tokens=2**53)
    elif field == "id":
        bad = dataclasses.replace(items[index], id=None)  # type: ignore[arg-type]
    elif field == "title":
        bad = dataclasses.replace(items[index], title="\ud800")
    else:
        bad = (items[index].id, items[index].score)
    good = [c for i, c in enumerate(items) if i != index]
    mixed: list[object] = [*good[:index], bad, *good[index:]]
    name = f"chunks[{index}]" + ("" if field == "item" else f".{field}")
    with pytest.raises((TypeError, ValueError)) as info:
        assemble(mixed, 10)  # type: ignore[arg-type]
    assert getattr(info.value, "argument", None) == name
    assert name in str(info.value)


@given(
    st.one_of(
        st.integers(max_value=-1),
        st.integers(min_value=2**53),
        st.booleans(),
        st.floats(),
        st.none(),
    ),
    st.lists(chunks(), max_size=3),
)
def test_bad_budget_named(budget: object, items: list[Chunk]) -> None:
    """PACK-10, PORT-1: budget outside int [0, 2**53-1] raises naming budget."""
    with pytest.raises((TypeError, ValueError), match="budget"):
        assemble(items, budget)  # type: ignore[arg-type]


@given(st.one_of(st.just(math.nan), st.booleans(), st.none(), st.text(max_size=2)))
def test_bad_min_score_named(min_score: object) -> None:
    """PACK-5, PACK-10: min_score NaN or not a number raises naming min_score."""
    with pytest.raises((TypeError, ValueError), match="min_score"):
        assemble([], 10, min_score)  # type: ignore[arg-type]


@given(
    st.one_of(st.integers(min_value=2**53), st.integers(max_value=-(2**53))),
    st.sampled_from(["score", "min_score"]),
)
def test_integer_scores_stay_exact_in_a_double(value: int, where: str) -> None:
    """PORT-1, PACK-10: an int score or min_score beyond +-(2**53-1) raises naming it."""
    chunk = Chunk("a", "d", "T", "x", 1, "h", value if where == "score" else 0.5)
    name = "chunks[0].score" if where == "score" else "min_score"
    with pytest.raises(ValueError, match=r"\+-\(2\*\*53 - 1\)") as info:
        assemble([chunk], 10, value if where == "min_score" else 0.35)
    assert getattr(info.value, "argument", None) == name


@given(distinct_hash_chunk_lists(), st.one_of(budgets, st.integers(0, 60)), min_scores)
def test_agrees_with_model_without_repeated_hashes(
    items: list[Chunk], budget: int, min_score: float
) -> None:
    """PACK-1, PACK-4, PACK-7, PACK-9: with no repeated hash and (often) no equal scores,
    where assemble ranks by score alone and picks the fitting prefix in one step, it still
    equals the literal model."""
    assert assemble(items, budget, min_score) == model_assemble(_model(items), budget, min_score)
