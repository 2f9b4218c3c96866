"""Properties of the span-level metrics, rules EVAL-30 to EVAL-35, against literal models."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from chunkspec import Chunk, assemble
from chunkspec._evaluation._span_metrics import (
    budget_pack,
    covered,
    precision_omega,
    query_scores,
    span_scores,
    tokens_per_answer,
    union,
)
from chunkspec.evaluation import GoldSpan, SpanQuery

from .models import precision_omega_model, span_scores_model


@st.composite
def regions(draw: st.DrawFn, min_size: int = 0) -> list[tuple[str, int, int]]:
    """Small regions over two documents, overlapping, touching, nested or empty."""
    out = []
    for _ in range(draw(st.integers(min_size, 6))):
        start = draw(st.integers(0, 40))
        out.append((draw(st.sampled_from(["d", "e"])), start, start + draw(st.integers(0, 15))))
    return out


nonempty_gold = regions(min_size=1).filter(lambda g: any(e > s for _, s, e in g))


@given(regions())
def test_union_is_the_covered_set(items: list[tuple[str, int, int]]) -> None:
    """EVAL-30: the union covers exactly the characters of the regions, each once, merged."""
    merged = union(items)
    chars = {(d, i) for d, s, e in items for i in range(s, e)}
    assert {(d, i) for d, s, e in merged for i in range(s, e)} == chars
    assert covered(items) == len(chars)
    for (d1, _, e1), (d2, s2, _) in itertools.pairwise(merged):
        assert d1 < d2 or e1 < s2  # disjoint and not touching
    assert all(e > s for _, s, e in merged)


@given(regions(), nonempty_gold)
def test_span_scores_match_the_character_model(
    retrieved: list[tuple[str, int, int]], gold: list[tuple[str, int, int]]
) -> None:
    """EVAL-32: recall, precision and IoU are the character-set ratios, correctly rounded."""
    score = span_scores(retrieved, gold)
    recall, precision, iou = span_scores_model(retrieved, gold)
    assert (score.recall, score.precision, score.iou) == (
        float(recall),
        float(precision),
        float(iou),
    )
    assert 0 <= score.iou <= min(score.recall, score.precision) or score.precision == 0


@given(regions(), nonempty_gold)
def test_duplicated_chunks_change_nothing(
    retrieved: list[tuple[str, int, int]], gold: list[tuple[str, int, int]]
) -> None:
    """EVAL-32: a chunk retrieved twice, or overlapping another, does not count twice."""
    assert span_scores(retrieved + retrieved, gold) == span_scores(retrieved, gold)


@st.composite
def queries(draw: st.DrawFn) -> SpanQuery:
    """A query of one to three spans in two documents, alternatives or together."""
    spans = []
    for _ in range(draw(st.integers(1, 3))):
        start = draw(st.integers(0, 40))
        doc = draw(st.sampled_from(["d", "e"]))
        spans.append(GoldSpan(doc, start, start + draw(st.integers(1, 12))))
    return SpanQuery("q", "c", "question?", tuple(spans), draw(st.booleans()))


@given(regions(), queries())
def test_query_scores_take_the_best_answer(
    retrieved: list[tuple[str, int, int]], query: SpanQuery
) -> None:
    """EVAL-31: alternatives score as the one with the best (recall, IoU); together as one."""
    answers = (
        [[(s.doc_id, s.start, s.end) for s in query.gold]]
        if query.together
        else [[(s.doc_id, s.start, s.end)] for s in query.gold]
    )
    models = [span_scores_model(retrieved, a) for a in answers]
    best = max(models, key=lambda m: (m[0], m[2]))  # max keeps the first of equals
    got = query_scores(retrieved, query)
    assert (got.recall, got.precision, got.iou) == tuple(float(x) for x in best)


@given(regions(), queries())
def test_precision_omega_matches_the_model(
    chunks: list[tuple[str, int, int]], query: SpanQuery
) -> None:
    """EVAL-33: the IoU of the chunks touching an answer, best answer, by character sets."""
    answers = (
        [[(s.doc_id, s.start, s.end) for s in query.gold]]
        if query.together
        else [[(s.doc_id, s.start, s.end)] for s in query.gold]
    )
    assert precision_omega(chunks, query) == float(precision_omega_model(chunks, answers))


@given(regions(), queries())
def test_precision_omega_bounds_iou_at_any_k(
    chunks: list[tuple[str, int, int]], query: SpanQuery
) -> None:
    """EVAL-33: at full recall no retrieved subset of the chunks beats the oracle's IoU."""
    score = query_scores(chunks, query)
    if score.recall == 1:
        assert score.iou <= precision_omega(chunks, query)


candidates = st.lists(
    st.tuples(st.integers(0, 12), st.sampled_from(["h1", "h2", "h3", "h4", "h5"])), max_size=10
)


@given(candidates, st.integers(0, 40))
def test_budget_pack_is_assemble_in_rank_order(items: list[tuple[int, str]], budget: int) -> None:
    """EVAL-34: packing in rank order is assemble's walk with strictly falling scores."""
    chunks = [
        Chunk(f"c{i:02}", "d", "T", "x", tokens, content_hash, 1 - i / 100)
        for i, (tokens, content_hash) in enumerate(items)
    ]
    result = assemble(chunks, budget, 0.0)
    expected = [] if result is None else [int(cid[1:]) for cid in result[1]]
    picked = budget_pack(items, budget)
    assert picked == expected
    assert sum(items[i][0] for i in picked) <= budget


@given(st.lists(st.tuples(st.integers(0, 50), st.booleans()), max_size=8))
def test_tokens_per_answer(rows: list[tuple[int, bool]]) -> None:
    """EVAL-35: every question's tokens over the answered count; None when none answered."""
    tokens = [t for t, _ in rows]
    answered = [a for _, a in rows]
    hits = answered.count(True)
    got = tokens_per_answer(tokens, answered)
    assert got == (float(Fraction(sum(tokens), hits)) if hits else None)
