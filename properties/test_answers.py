"""Properties of the fair-gold rule and the span-to-id mapping, rules EVAL-10 to EVAL-13."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunkspec._evaluation._gold import answers, labelled
from chunkspec.evaluation import GoldSpan, SpanQuery

from .models import answers_model

offsets = st.integers(min_value=0, max_value=60)
shares = st.sampled_from([1.0, 0.9, 0.75, 0.5, 0.34, 0.25, 0.1, 0.01])


@st.composite
def spans(draw: st.DrawFn) -> GoldSpan:
    start = draw(offsets)
    return GoldSpan(draw(st.sampled_from(["d", "e"])), start, start + draw(st.integers(1, 30)))


@given(st.sampled_from(["d", "e"]), offsets, offsets, spans(), shares)
def test_agrees_with_character_count(
    doc: str, a: int, b: int, span: GoldSpan, share: float
) -> None:
    """EVAL-11: overlap >= ceil(share * len) agrees with counting covered characters."""
    start, end = min(a, b), max(a, b)
    expected = answers_model(doc, start, end, span.doc_id, span.start, span.end, share)
    assert answers(doc, start, end, span, share) is expected


@given(offsets, offsets, spans())
def test_full_cover(a: int, b: int, span: GoldSpan) -> None:
    """EVAL-11: with share 1 a region answers iff it contains the whole span."""
    start, end = min(a, b), max(a, b)
    contains = start <= span.start and span.end <= end
    assert answers(span.doc_id, start, end, span, 1.0) is contains


@given(offsets, offsets, spans(), shares, shares)
def test_lower_share_answers_more(a: int, b: int, span: GoldSpan, s1: float, s2: float) -> None:
    """EVAL-13: lowering the share never turns an answer into a miss."""
    start, end = min(a, b), max(a, b)
    low, high = min(s1, s2), max(s1, s2)
    if answers(span.doc_id, start, end, span, high):
        assert answers(span.doc_id, start, end, span, low)


@given(
    st.lists(st.tuples(st.sampled_from(["d", "e"]), offsets, offsets), max_size=8),
    st.lists(spans(), min_size=1, max_size=3),
    shares,
)
def test_labelled_maps_every_answering_chunk(
    raw: list[tuple[str, int, int]], gold: list[GoldSpan], share: float
) -> None:
    """EVAL-12: the gold ids are exactly the chunks answering some span."""
    regions: dict[str, list[tuple[str, int, int]]] = {}
    for n, (doc, a, b) in enumerate(raw):
        regions.setdefault(doc, []).append((f"c{n}", min(a, b), max(a, b)))
    query = SpanQuery("q", "prose", "question?", tuple(gold))
    expected = {
        cid
        for doc, items in regions.items()
        for cid, s, e in items
        for span in gold
        if answers_model(doc, s, e, span.doc_id, span.start, span.end, share)
    }
    assert labelled(query, regions, share).gold_chunk_ids == expected
