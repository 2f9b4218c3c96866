"""Properties of pack_records (docs/spec/context.md)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.counters import SMALL_MERGES, byte_encoding
from tests.pack_records import labelled

from chunkspec import ArgumentTypeError, ArgumentValueError, ChunkRecord, pack_records
from chunkspec._packing._access import readable
from chunkspec.counters import (
    CharEstimateCounter,
    TiktokenCounter,
    TokenCounter,
    WhitespaceCounter,
)
from chunkspec.records import PackedContext, Principal

from .pack_models import model_pack_records, model_readable
from .strategies import pack_cases

Case = tuple[dict[str, str], list[ChunkRecord], list[float]]

#: Every kind of counter: words, rounded-up character estimates, code points, a real BPE.
COUNTERS = [
    WhitespaceCounter(),
    CharEstimateCounter(4),
    CharEstimateCounter(1),
    TiktokenCounter(byte_encoding(SMALL_MERGES)),
]
counters = st.sampled_from(COUNTERS)
budgets = st.integers(0, 60)
min_scores = st.sampled_from([-math.inf, 0.0, 0.4])
orders = st.sampled_from(["reading", "score"])


def _verbatim(record: ChunkRecord) -> bool:
    return not record.strategy.startswith("recursive")


@given(
    pack_cases(),
    budgets,
    min_scores,
    counters,
    orders,
    st.booleans(),
    st.sampled_from([None, None, 0.5, 1.0, 0.01]),
    st.booleans(),
)
def test_agrees_with_literal_model(
    case: Case,
    budget: int,
    min_score: float,
    counter: TokenCounter,
    order: str,
    titles: bool,
    expand: float | None,
    trim: bool,
) -> None:
    """CTX-1..CTX-12, CTX-17..CTX-19: pack_records equals the literal model that rebuilds
    and recounts the whole context for every candidate (and scans every cut of CTX-19 from
    the longest, which bisection matches for counters that never fall as text grows)."""
    _, records, scores = case
    trim = trim and not isinstance(counter, TiktokenCounter)
    packed = pack_records(
        records,
        scores,
        budget,
        min_score=min_score,
        counter=counter,
        order=order,
        titles=titles,
        expand=expand,
        trim=trim,
    )
    text, tokens, layout, withheld = model_pack_records(
        records,
        scores,
        budget,
        min_score,
        counter.count,
        order,
        lambda r: True,
        titles,
        expand,
        trim,
    )
    assert packed.text == text
    assert packed.tokens == tokens
    assert withheld == packed.withheld == 0
    assert [(p.doc_id, p.start, p.end, p.text) for p in packed.passages] == [
        (p.doc_id, p.start, p.end, p.text) for p in layout
    ]
    assert [set(p.record_ids) for p in packed.passages] == [
        {records[i].id for i in p.members} for p in layout
    ]


@given(pack_cases(), budgets, counters, orders)
def test_rendered_context_within_budget(
    case: Case, budget: int, counter: TokenCounter, order: str
) -> None:
    """CTX-8: the rendered context, headers and all, counts at most budget, every counter."""
    _, records, scores = case
    packed = pack_records(
        records, scores, budget, min_score=-math.inf, counter=counter, order=order
    )
    assert counter.count(packed.text) == packed.tokens <= budget


@given(pack_cases(), budgets, counters)
def test_no_source_character_twice(case: Case, budget: int, counter: TokenCounter) -> None:
    """CTX-2, CTX-3, CTX-4: passages of one document never share a source character, and
    each verbatim passage's text is its prefix plus its source over its span."""
    sources, records, scores = case
    packed = pack_records(records, scores, budget, min_score=-math.inf, counter=counter)
    seen: set[tuple[str, int]] = set()
    by_id = {r.id: r for r in records}
    for p in packed.passages:
        chars = {(p.doc_id, k) for k in range(p.start, p.end)}
        assert not chars & seen
        seen |= chars
        if all(_verbatim(by_id[i]) for i in p.record_ids):
            assert p.text == p.prefix + sources[p.doc_id][p.start : p.end]
        else:
            assert len(p.record_ids) == 1
            assert p.text == by_id[p.record_ids[0]].text


@given(pack_cases(), budgets, min_scores)
def test_only_picked_spans_appear(case: Case, budget: int, min_score: float) -> None:
    """CTX-5, CTX-12: every passage character lies in one of its records' spans; every record
    is in one passage; pages, score and heading path come from its records."""
    _, records, scores = case
    packed = pack_records(records, scores, budget, min_score=min_score)
    by_id = {r.id: (r, s) for r, s in zip(records, scores, strict=True)}
    listed = [i for p in packed.passages for i in p.record_ids]
    assert len(listed) == len(set(listed))
    for p in packed.passages:
        members = [by_id[i][0] for i in p.record_ids]
        for k in range(p.start, p.end):
            assert any(r.start <= k < r.end for r in members)
        assert p.start == min(r.start for r in members)
        if p.trimmed:  # CTX-19: cut short of its record (trim is on by default, CTX-20)
            assert p.end < max(r.end for r in members)
        else:
            assert p.end == max(r.end for r in members)
        assert all(by_id[i][1] >= min_score for i in p.record_ids)
        assert p.score == max(by_id[i][1] for i in p.record_ids)
        assert all(r.heading_path[: len(p.heading_path)] == p.heading_path for r in members)
        starts = [r.page_start for r in members if r.page_start is not None]
        assert p.page_start == (min(starts) if starts else None)


@given(pack_cases(), budgets)
def test_no_duplicate_content(case: Case, budget: int) -> None:
    """CTX-7: no two packed records share a content hash."""
    _, records, scores = case
    packed = pack_records(records, scores, budget, min_score=-math.inf)
    by_id = {r.id: r for r in records}
    hashes = [by_id[i].content_hash for p in packed.passages for i in p.record_ids]
    assert len(hashes) == len(set(hashes))


@given(pack_cases(), budgets)
def test_reading_order(case: Case, budget: int) -> None:
    """CTX-9, CTX-10, CTX-11: one document's passages are together and by position, keys
    count up from 1, and the text is exactly the passages rendered."""
    _, records, scores = case
    packed = pack_records(records, scores, budget, min_score=-math.inf, titles=True)
    docs = [p.doc_id for p in packed.passages]
    assert docs == sorted(docs, key=docs.index)  # grouped
    for a, b in zip(packed.passages, packed.passages[1:], strict=False):
        if a.doc_id == b.doc_id:
            assert a.start < b.start
    assert [p.key for p in packed.passages] == [str(n) for n in range(1, len(docs) + 1)]
    assert packed.text == "\n\n".join(f"[{p.key}] {p.label}\n{p.text}" for p in packed.passages)
    assert set(packed.citations()) == {p.key for p in packed.passages}


@given(pack_cases(), budgets, orders)
def test_deterministic_and_pure(case: Case, budget: int, order: str) -> None:
    """CTX-16: equal arguments give equal results; the records are not changed."""
    _, records, scores = case
    before = [r.to_dict() for r in records]
    first = pack_records(records, scores, budget, min_score=-math.inf, order=order)
    again = pack_records(list(records), list(scores), budget, min_score=-math.inf, order=order)
    assert first == again
    assert [r.to_dict() for r in records] == before
    assert isinstance(first, PackedContext)


@given(pack_cases(), budgets, min_scores, counters, orders)
def test_defaults_are_key_only_headers_and_trim(
    case: Case, budget: int, min_score: float, counter: TokenCounter, order: str
) -> None:
    """CTX-20: the defaults are ``titles=False`` and ``trim=True``, and the default header is
    the key alone (CTX-17): no passage's title appears in a header."""
    _, records, scores = case
    packed = pack_records(
        records, scores, budget, min_score=min_score, counter=counter, order=order
    )
    explicit = pack_records(
        records,
        scores,
        budget,
        min_score=min_score,
        counter=counter,
        order=order,
        titles=False,
        trim=True,
    )
    assert packed == explicit
    assert packed.titles is False
    assert all(f"[{p.key}]\n" in packed.text for p in packed.passages)


@given(pack_cases())
def test_zero_budget_packs_nothing(case: Case) -> None:
    """CTX-8: with budget 0 nothing is packed (a header is at least one token); the empty
    result has no passages, no text and 0 tokens (CTX-1)."""
    _, records, scores = case
    empty = pack_records(records, scores, 0, min_score=-math.inf)
    assert (empty.passages, empty.text, empty.tokens) == ((), "", 0)


@pytest.mark.parametrize("counter", COUNTERS, ids=lambda c: type(c).__name__)
def test_every_counter_named(counter: TokenCounter) -> None:
    """CTX-8: the result names the counter that measured it (RECORD-5)."""
    packed = pack_records([], [], 10, counter=counter)
    assert packed.counter


_LABELS = st.sampled_from(["staff", "hr", "ops"])
metadata_values = st.fixed_dictionaries(
    {},
    optional={
        "tenant_id": st.sampled_from([None, "acme", "globex"]),
        "acl_labels": st.one_of(st.none(), st.lists(_LABELS, max_size=3)),
        "lang": st.just("en"),
    },
)
principals = st.one_of(
    st.none(),
    st.tuples(st.sets(_LABELS), st.sampled_from([None, "acme", "globex"])),
)


@given(metadata_values, principals)
def test_readable_agrees_with_model(
    metadata: dict[str, object], given_principal: tuple[set[str], str | None] | None
) -> None:
    """CTX-13: the access check equals the rule read aloud, default deny without a principal."""
    if given_principal is None:
        principal, labels, tenant = None, None, None
    else:
        labels, tenant = given_principal
        principal = Principal(labels, tenant)
    assert readable("m", metadata, principal) == model_readable(metadata, labels, tenant)


@given(
    pack_cases(),
    st.data(),
    principals,
    budgets,
    st.sampled_from([-math.inf, 0.4]),
)
def test_unreadable_never_packed_only_counted(
    case: Case,
    data: st.DataObject,
    given_principal: tuple[set[str], str | None] | None,
    budget: int,
    min_score: float,
) -> None:
    """CTX-13, CTX-14: a record the principal may not read never appears; the result equals
    packing the readable records alone, but for ``withheld``, their number."""
    _, records, scores = case
    tagged = [labelled(r, data.draw(metadata_values)) for r in records]
    principal = None if given_principal is None else Principal(*given_principal)
    packed = pack_records(tagged, scores, budget, min_score=min_score, principal=principal)
    mine = [readable("m", r.metadata, principal) for r in tagged]
    keep = [i for i, ok in enumerate(mine) if ok]
    alone = pack_records(
        [tagged[i] for i in keep],
        [scores[i] for i in keep],
        budget,
        min_score=min_score,
        principal=principal,
    )
    hidden = {r.id for r, ok in zip(tagged, mine, strict=True) if not ok}
    shown = {r.id for r, ok in zip(tagged, mine, strict=True) if ok}
    listed = {i for p in packed.passages for i in p.record_ids}
    assert not listed & (hidden - shown)  # ids may repeat across records (PACK-11)
    assert packed.withheld == mine.count(False)
    assert alone.withheld == 0
    assert (packed.text, packed.passages) == (alone.text, alone.passages)


@given(pack_cases(), st.data())
def test_bad_arguments_named(case: Case, data: st.DataObject) -> None:
    """CTX-15: a bad item, score or count of scores is an error naming it, before packing."""
    _, records, scores = case
    spot = data.draw(st.integers(0, len(records)))
    bad_items: list[object] = [*records[:spot], "not a record", *records[spot:]]
    with pytest.raises(ArgumentTypeError) as caught:
        pack_records(bad_items, [*scores, 0.5], 10)  # type: ignore[arg-type]
    assert caught.value.argument == f"records[{spot}]"
    with pytest.raises(ArgumentValueError) as wrong:
        pack_records(records, [*scores, 0.5], 10)
    assert wrong.value.argument == "scores"
    if records:
        at = data.draw(st.integers(0, len(records) - 1))
        nan = [math.nan if i == at else s for i, s in enumerate(scores)]
        with pytest.raises(ArgumentValueError) as caught_nan:
            pack_records(records, nan, 10)
        assert caught_nan.value.argument == f"scores[{at}]"


@given(pack_cases(), budgets, counters)
def test_trim_cuts_one_passage_at_a_word_end(
    case: Case, budget: int, counter: TokenCounter
) -> None:
    """CTX-19: with trim, at most one passage is cut short of its records, at a word end of
    the source or, when a later whole record merged into it (CTX-2), at that record's end, and
    the context still fits the budget under every counter."""
    sources, records, scores = case
    packed = pack_records(records, scores, budget, min_score=-math.inf, counter=counter, trim=True)
    assert counter.count(packed.text) == packed.tokens <= budget
    by_id = {r.id: r for r in records}
    cut = [p for p in packed.passages if p.trimmed]
    assert len(cut) <= 1
    for p in cut:
        source = sources[p.doc_id]
        assert p.text == p.prefix + source[p.start : p.end]
        ends = {by_id[i].end for i in p.record_ids}
        assert not source[p.end - 1].isspace() or p.end in ends
        assert p.end < max(by_id[i].end for i in p.record_ids)


@given(
    pack_cases(),
    st.integers(0, 12),
    st.sampled_from([CharEstimateCounter(1), WhitespaceCounter(), CharEstimateCounter(4)]),
    orders,
    st.booleans(),
)
def test_trim_agrees_with_literal_model(
    case: Case, budget: int, counter: TokenCounter, order: str, titles: bool
) -> None:
    """CTX-19: at small budgets (where cuts happen) the bisection finds the longest cut the
    literal model finds by scanning every word end from the longest down."""
    _, records, scores = case
    packed = pack_records(
        records,
        scores,
        budget,
        min_score=-math.inf,
        counter=counter,
        order=order,
        titles=titles,
        trim=True,
    )
    text, tokens, _, _ = model_pack_records(
        records, scores, budget, -math.inf, counter.count, order, lambda r: True, titles, None, True
    )
    assert (packed.text, packed.tokens) == (text, tokens)


@given(st.sampled_from(["portable", "hazards"]), st.data())
def test_kit_draws_only_the_ports_counters(profile: str, data: st.DataObject) -> None:
    """CTX-21: the conformance kit's pack_records cases name only the port's counters
    (whitespace, unicode, subword, chars{N}) but where one argument is drawn out of range."""
    from chunkspec._conformance._generate import by_op

    op, given = data.draw(by_op(profile)["pack_records"])
    assert op == "pack_records"
    counter = given.get("counter")
    named = counter in (None, "whitespace", "unicode", "subword", "words") or (
        isinstance(counter, str) and counter.startswith("chars")
    )
    # An out-of-range draw (hazards only) is another type or a broken string, never a model.
    model = isinstance(counter, str) and counter.startswith(("tiktoken", "huggingface", "dict"))
    assert named or (profile == "hazards" and not model)
    assert all(r["counter"] in ("whitespace", "unicode") for r in given["records"])
