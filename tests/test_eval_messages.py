"""Exact error messages and defaults of the evaluation harness (what a user reads).

The goldens check the error type and the argument named; these unit tests pin the whole
message (argument, problem and the rejected value) and the plumbing the goldens cannot see:
defaults, the default output stream.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

import pytest

from chunkspec import LabelledQuery, compare


def _always(*ids: str) -> Callable[[str, int], Sequence[str]]:
    def retrieve(question: str, k: int) -> Sequence[str]:
        return list(ids)

    return retrieve


_QUERIES = [LabelledQuery("q1", frozenset({"g"}))]


def _raises(kind: type[Exception], call: Callable[[], object]) -> Exception:
    with pytest.raises(kind) as info:
        call()
    return info.value


# --- compare (EVAL-9) ------------------------------------------------------------------------


def test_compare_defaults_to_k_10_and_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    """EVAL-9: ``k=10`` and ``file=None`` (stdout) are the defaults."""
    # gold at rank 11: a k of 11 would count it
    ranking = _always(*[f"x{i}" for i in range(10)], "g")
    scores = compare({"r": ranking}, _QUERIES)
    assert capsys.readouterr().out == "r  recall@10 0.00  mrr@10 0.00\n"
    assert scores["r"].recall == 0.0


def test_compare_not_a_dict() -> None:
    error = _raises(TypeError, lambda: compare([], _QUERIES))  # type: ignore[arg-type]
    assert str(error) == "strategies must be a dict of name to retriever, got list []"
    assert getattr(error, "argument", None) == "strategies"
    assert getattr(error, "value", None) == []


def test_compare_empty() -> None:
    error = _raises(ValueError, lambda: compare({}, _QUERIES))
    assert str(error) == "strategies must not be empty, got {}"
    assert getattr(error, "argument", None) == "strategies"


def test_compare_key_not_a_str() -> None:
    error = _raises(TypeError, lambda: compare({1: _always()}, _QUERIES))  # type: ignore[dict-item]
    assert getattr(error, "argument", None) == "strategies key"
    assert str(error).startswith("strategies key must be ")


def test_compare_value_not_callable() -> None:
    strategies: dict[str, object] = {"a": _always("g"), "b": "nope"}
    out = io.StringIO()
    error = _raises(
        TypeError,
        lambda: compare(strategies, _QUERIES, file=out),  # type: ignore[arg-type]
    )
    assert str(error) == "strategies['b'] must be a callable retriever, got str 'nope'"
    assert getattr(error, "argument", None) == "strategies['b']"
    assert getattr(error, "value", None) == "nope"
    assert out.getvalue() == "a  recall@10 1.00  mrr@10 1.00\n"
