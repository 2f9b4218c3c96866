"""Properties of a question BM25 cannot tokenise (EVAL-43): nothing retrieved, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec._evaluation._retrievers import make_scorer, ranked

bm25s = pytest.importorskip("bm25s")
from bm25s.stopwords import STOPWORDS_EN  # noqa: E402  (after the skip: an optional extra)

_TEXTS = ["is it the thing", "alpha beta", "the price is right", "it is"]

#: Questions whose tokens are all English stop words, in any case, with punctuation around.
no_terms = st.lists(
    st.tuples(
        st.sampled_from(sorted(STOPWORDS_EN)).map(str),
        st.sampled_from(["", "?", "!", ",", "."]),
        st.booleans(),
    ).map(lambda t: (t[0].upper() if t[2] else t[0]) + t[1]),
    max_size=5,
).map(" ".join)


@given(question=no_terms, k=st.integers(1, 12))
def test_no_term_question_retrieves_nothing(question: str, k: int) -> None:
    """EVAL-43: a question of stop words and punctuation only scores 0 everywhere and
    retrieves nothing, alone or among other questions, whose rows it leaves unchanged."""
    scorer = make_scorer("bm25", _TEXTS)
    rows = scorer.scores(["alpha", question, "price"])
    assert rows[1] == [0.0] * len(_TEXTS)
    assert ranked(rows[1], k, positive_only=True) == []
    assert [rows[0], rows[2]] == scorer.scores(["alpha", "price"])
