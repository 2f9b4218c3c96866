"""Properties of the baselines and the uncertainty figures, rules EVAL-36 to EVAL-38."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec._evaluation._bootstrap import Resamples, interval, paired_p, resamples
from chunkspec._evaluation._retrievers import make_scorer
from chunkspec._evaluation._strategy_names import indexed_text, resolve

from .strategies import eval_text


@given(eval_text)
def test_document_is_one_chunk_of_every_word(source: str) -> None:
    """EVAL-36: no chunking is one chunk holding every word, text == its region."""
    chunks = resolve("document")("d", "T", source)
    if not source.split():
        assert chunks == []
        return
    (chunk,) = chunks
    assert chunk.id == "d:0"
    assert chunk.text == source[chunk.start : chunk.end] == indexed_text(chunk)
    assert chunk.text.split() == source.split()
    assert chunk.text == chunk.text.strip()


@given(st.lists(st.text(max_size=8), min_size=1, max_size=4), st.integers(0, 9), st.integers(0, 3))
def test_random_is_seeded_by_question(questions: list[str], size: int, seed: int) -> None:
    """EVAL-36: chance is a reproducible uniform draw per chunk, fixed by seed and question."""
    rows = make_scorer("random", ["x"] * size, seed).scores(questions)
    again = make_scorer("random", ["y"] * size, seed).scores(list(reversed(questions)))
    assert rows == list(reversed(again))
    assert all(len(row) == size and all(0 <= s < 1 for s in row) for row in rows)


values = st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1 / 3]), min_size=1, max_size=30)


@st.composite
def series(draw: st.DrawFn) -> tuple[list[float], list[float], list[str]]:
    """Two metric series over the same questions and each question's document."""
    a = draw(values)
    b = draw(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=len(a), max_size=len(a)))
    docs = draw(
        st.lists(st.sampled_from([f"p{i}" for i in range(25)]), min_size=len(a), max_size=len(a))
    )
    return a, b, docs


def _model_means(values: list[float], plan: Resamples) -> list[Fraction]:
    """Each resample's mean by listing its questions one by one, exactly."""
    out = []
    for draw in plan.draws:
        picked = [
            Fraction(v)
            for c in draw
            for v, q in zip(values, plan.of_question, strict=True)
            if q == c
        ]
        if picked:
            out.append(sum(picked, Fraction(0)) / len(picked))
    return out


# The listing model is quadratic in the questions: 200 examples keep it under 5 s.
@settings(max_examples=200)
@given(series(), st.integers(0, 5))
def test_interval_is_the_percentile_of_listed_resamples(
    data: tuple[list[float], list[float], list[str]], seed: int
) -> None:
    """EVAL-37: the interval is the 2.5/97.5 percentile of the resample means, by document."""
    a, _, docs = data
    plan = resamples(docs, 40, seed)
    assert plan.unit == ("document" if len(set(docs)) >= 20 else "question")
    means = sorted(_model_means(a, plan))
    t = int(Fraction(len(means)) * Fraction(5, 100) / 2)
    lo, hi = interval(a, plan)
    assert abs(lo - means[t]) < 1e-12
    assert abs(hi - means[-1 - t]) < 1e-12
    assert min(a) - 1e-12 <= lo <= hi <= max(a) + 1e-12
    assert resamples(docs, 40, seed) == plan  # deterministic


@settings(max_examples=200)  # the same quadratic model as above
@given(series(), st.integers(0, 5))
def test_paired_p(data: tuple[list[float], list[float], list[str]], seed: int) -> None:
    """EVAL-38: p is two-sided and symmetric; identical series 1; dominance 0."""
    a, b, docs = data
    plan = resamples(docs, 40, seed)
    p = paired_p(a, b, plan)
    assert 0 <= p <= 1
    assert p == paired_p(b, a, plan)
    assert paired_p(a, a, plan) == 1
    if all(x > y for x, y in zip(a, b, strict=True)):
        assert p == 0
    diffs = _model_means([x - y for x, y in zip(a, b, strict=True)], plan)
    below = sum(1 for d in diffs if d <= 0)
    above = sum(1 for d in diffs if d >= 0)
    assert p == min(1.0, 2 * min(below, above) / len(diffs)) or any(abs(d) < 1e-12 for d in diffs)
