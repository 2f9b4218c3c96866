"""The blame models of token_windows, chunk_pages and split_sentences (CONF-9).

A model without its mistake must be the op itself, or a port's correct answer could match
a mistake; each mistake must change the answer on some input and be blamed on its rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec._conformance._blame import blame
from chunkspec._conformance._generate import by_op
from chunkspec._conformance._oracle import expect
from chunkspec._conformance.windows._windows_blame import _page_chunks, _sentences, _token_windows


def _sentence_model(data: dict[str, Any]) -> list[str]:
    """The sentence model on a wire input."""
    return _sentences(data["text"])


MODELS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "token_windows": _token_windows,
    "chunk_pages": _page_chunks,
    "split_sentences": _sentence_model,
}


@pytest.mark.parametrize("op", MODELS)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_the_model_without_a_mistake_is_the_op(op: str, data: st.DataObject) -> None:
    """On every valid generated input (both profiles) the plain model answers as chunkspec."""
    profile = data.draw(st.sampled_from(["portable", "hazards"]))
    _, case = data.draw(by_op(profile)[op])
    expected = expect(op, case)
    if "ok" in expected:
        assert MODELS[op](case) == expected["ok"]


#: An input on which each mistake shows, the port's wrong answer, and the rule to blame.
CASES: list[tuple[str, dict[str, Any], Any, str]] = [
    ("split_sentences", {"text": "a.\x1cb"}, ["a.\x1cb"], "SENT-1"),
    ("split_sentences", {"text": "\ufeffa. b"}, ["a.", "b"], "SENT-2"),
    ("split_sentences", {"text": "a\u3002 b"}, ["a\u3002 b"], "SENT-1"),
    ("split_sentences", {"text": "a.\u00bb b"}, ["a.\u00bb b"], "SENT-1"),
    ("split_sentences", {"text": "a.b"}, ["a.", "b"], "SENT-1"),
    ("split_sentences", {"text": "e.g. b"}, ["e.g. b"], "SENT-3"),
    ("split_sentences", {"text": "a. b"}, ["a.", " b"], "SENT-2"),
    ("split_sentences", {"text": " "}, [""], "SENT-2"),
]


@pytest.mark.parametrize(("op", "data", "actual", "rule"), CASES)
def test_each_sentence_mistake_is_blamed_on_its_rule(
    op: str, data: dict[str, Any], actual: Any, rule: str
) -> None:
    """A port's answer that one mistake gives is blamed on that mistake's rule."""
    rules, why = blame(op, data, expect(op, data), "wrong", "$[0]", actual)
    assert rule in rules, (rules, why)
    assert "a port gives that" in why
