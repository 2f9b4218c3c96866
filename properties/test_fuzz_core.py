"""Fuzz targets for every public function of the core (SPLIT, PACK rules; docs/verification.md).

Marked ``fuzz``: the gate runs them at the profile's example count; ``nox -s fuzz`` runs them
for a time budget through ``python -m properties.fuzz``. Each allows only a correct result or
the documented TypeError/ValueError naming the argument (``properties/fuzzing.py``).
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import Chunk, assemble, count_tokens, hash_text, split_section
from chunkspec.core import SEPARATORS, render, words
from chunkspec.counters import WhitespaceCounter

from .fuzzing import (
    TYPE,
    anything,
    chunk_problems,
    chunk_values,
    either,
    fuzz_texts,
    int_problem,
    outcome,
    real_problem,
    str_problem,
    text_problem,
)
from .models import ModelChunk, model_assemble, model_count, model_split_texts
from .strategies import budgets, chunks, max_tokens, min_scores

pytestmark = pytest.mark.fuzz

#: The literal model re-counts joined strings (quadratic); compare with it below this size.
_MODEL_LIMIT = 3_000


@given(
    doc_id=either(st.text(max_size=4)),
    title=either(st.text(max_size=4)),
    text=either(fuzz_texts),
    limit=either(st.one_of(max_tokens, st.integers(-3, 3), st.integers())),
)
def test_fuzz_split_section(doc_id: Any, title: Any, text: Any, limit: Any) -> None:
    """SPLIT-12, PORT-1, PORT-2: any arguments give the model's chunks or a named error."""
    ok, result = outcome(
        "split_section",
        lambda: split_section(doc_id, title, text, limit),
        {
            "doc_id": text_problem(doc_id),
            "title": text_problem(title),
            "text": text_problem(text),
            "max_tokens": int_problem(limit, 1),
        },
        {"doc_id": doc_id, "title": title, "text": text, "max_tokens": limit},
    )
    if not ok:
        return
    assert [w for c in result for w in c.text.split()] == text.split()
    if not text.strip():
        assert [c.text for c in result] == [""]
    for n, c in enumerate(result):
        assert (c.id, c.doc_id, c.title, c.score) == (f"{doc_id}:{n}", doc_id, title, 0.0)
        assert c.text == c.text.strip()
        assert c.tokens == model_count(c.text)
        assert c.content_hash == hashlib.sha256(c.text.encode("utf-8")).hexdigest()
        assert c.tokens <= limit or not any(sep in c.text for sep in SEPARATORS)
    if len(text) <= _MODEL_LIMIT:
        assert [c.text for c in result] == model_split_texts(text, limit)


@st.composite
def fuzz_chunks(draw: st.DrawFn) -> Any:
    """A Chunk whose fields are each sometimes of a wrong type or value, or not a Chunk."""
    if draw(st.integers(0, 29)) == 0:
        return draw(anything)
    good = draw(chunks())
    return Chunk(
        id=draw(either(st.just(good.id), odds=40)),
        doc_id=draw(either(st.just(good.doc_id), odds=40)),
        title=draw(either(st.just(good.title), odds=40)),
        text=draw(either(st.just(good.text), odds=40)),
        tokens=draw(either(st.just(good.tokens), odds=40)),
        content_hash=draw(either(st.just(good.content_hash), odds=40)),
        score=draw(either(st.just(good.score), odds=40)),
    )


def _model(chunk: Chunk) -> ModelChunk:
    return ModelChunk(
        chunk.id, chunk.title, chunk.text, chunk.tokens, chunk.content_hash, chunk.score
    )


@given(
    items=either(st.lists(fuzz_chunks(), max_size=8), odds=5),
    as_iterator=st.booleans(),
    budget=either(budgets),
    min_score=either(min_scores),
)
def test_fuzz_assemble(items: Any, as_iterator: bool, budget: Any, min_score: Any) -> None:
    """PACK-5, PACK-10, PORT-1, PORT-2: any arguments give the model's context or an error."""
    problems: dict[str, str | None] = dict(chunk_problems(items))
    problems.update({"budget": int_problem(budget, 0), "min_score": real_problem(min_score)})
    given_chunks = iter(items) if as_iterator and isinstance(items, list) else items
    values = {
        **chunk_values(items),
        "chunks": given_chunks,
        "budget": budget,
        "min_score": min_score,
    }
    ok, result = outcome(
        "assemble", lambda: assemble(given_chunks, budget, min_score), problems, values
    )
    if ok:
        assert result == model_assemble([_model(c) for c in items], budget, min_score)


@given(text=either(fuzz_texts))
def test_fuzz_count_tokens(text: Any) -> None:
    """TOK-1: any str (lone surrogates too) is counted like the model; others TypeError."""
    ok, result = outcome(
        "count_tokens", lambda: count_tokens(text), {"text": str_problem(text)}, {"text": text}
    )
    if ok:
        assert result == model_count(text)


@given(text=either(fuzz_texts))
def test_fuzz_whitespace_counter(text: Any) -> None:
    """TOK-1: WhitespaceCounter().count is count_tokens, with the same errors."""
    counter = WhitespaceCounter()
    ok, result = outcome(
        "WhitespaceCounter.count",
        lambda: counter.count(text),
        {"text": str_problem(text)},
        {"text": text},
    )
    if ok:
        assert result == model_count(text)


@given(text=either(fuzz_texts))
def test_fuzz_hash_text(text: Any) -> None:
    """HASH-1, HASH-2: SHA-256 hex of UTF-8, or ValueError for a lone surrogate."""
    ok, result = outcome(
        "hash_text", lambda: hash_text(text), {"text": text_problem(text)}, {"text": text}
    )
    if ok:
        assert result == hashlib.sha256(text.encode("utf-8")).hexdigest()


@given(
    n=either(st.integers(0, 2_000)),
    start=either(st.one_of(st.integers(0, 10), st.integers(0, 2**53 - 1))),
    word=either(st.text(max_size=3)),
)
def test_fuzz_words(n: Any, start: Any, word: Any) -> None:
    """WORDS-1: the literal join, or a named error (n is bounded: the output is O(n))."""
    if isinstance(n, int) and not isinstance(n, bool) and n > 2_000:
        n = n % 2_001  # words(2**50) is a legitimate request for petabytes: not fuzzed
    ok, result = outcome(
        "words",
        lambda: words(n, start, word),
        {"n": int_problem(n, 0), "start": int_problem(start, 0), "word": str_problem(word)},
        {"n": n, "start": start, "word": word},
    )
    if ok:
        expected = ""
        for i in range(start, start + n):
            expected += (" " if i > start else "") + word + str(i)
        assert result == expected


@given(c=either(chunks()))
def test_fuzz_render(c: Any) -> None:
    """RENDER-1: the block ``[id] title\\ntext`` for a Chunk, TypeError naming c otherwise."""
    ok, result = outcome(
        "render", lambda: render(c), {"c": None if type(c) is Chunk else TYPE}, {"c": c}
    )
    if ok:
        assert result == "[" + c.id + "] " + c.title + "\n" + c.text


@given(st.lists(fuzz_chunks(), max_size=6))
def test_fuzz_assemble_bulk_check_agrees(items: list[Any]) -> None:
    """PACK-10, PORT-1, PORT-2: assemble's field-at-a-time check accepts exactly the lists
    whose every item passes the item-by-item check (which names the first bad field), when
    no field is of a subclass (then it may only say False, leaving the answer to that check)."""
    from chunkspec._core._assemble import _all_well_formed, _require_chunk

    def each_passes() -> bool:
        try:
            for index, item in enumerate(items):
                _require_chunk(f"chunks[{index}]", item)
        except (TypeError, ValueError):
            return False
        return True

    exact = all(
        type(item) is Chunk
        and all(type(getattr(item, name)) is str for name in ("id", "doc_id", "title", "text"))
        and type(item.content_hash) is str
        and type(item.tokens) is int
        and type(item.score) in (int, float)
        for item in items
    )
    if exact:
        assert _all_well_formed(items) == each_passes()
    elif _all_well_formed(items):
        assert each_passes()
