"""EVAL-18/19: what each strategy name passes to its chunker (sizes, defaults, bounds).

The hooks' chunkers are replaced by recorders, so the arguments a name resolves to are seen
directly; the chunks they return are checked by tests/golden/strategy.json.
"""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

import chunkspec
from chunkspec._strategies import resolve


class _Recorder:
    calls: ClassVar[list[tuple[Any, ...]]] = []

    def __init__(self, *args: Any) -> None:
        type(self).calls.append(args)

    def chunk(self, document: Any) -> list[Any]:
        return []


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    seen: list[tuple[Any, ...]] = []
    monkeypatch.setattr(_Recorder, "calls", seen)
    monkeypatch.setattr(chunkspec, "HeadingAwareChunker", _Recorder)
    monkeypatch.setattr(chunkspec, "parse_markdown", lambda doc_id, source: (doc_id, source))

    def split_markdown(doc_id: str, source: str, max_tokens: int | None) -> list[Any]:
        seen.append(("split_markdown", doc_id, source, max_tokens))
        return []

    monkeypatch.setattr(chunkspec, "split_markdown", split_markdown)
    return seen


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("heading-aware", (512, 64)),
        ("heading-aware-100", (100, 12)),
        ("heading-aware-7", (7, 0)),
        ("heading-aware-100-5", (100, 5)),
        ("heading-aware-9007199254740991-0", (9007199254740991, 0)),
    ],
)
def test_heading_aware_sizes(
    calls: list[tuple[Any, ...]], name: str, args: tuple[int, int]
) -> None:
    """EVAL-18: heading-aware is 512-64; heading-aware-N overlaps by N // 8 (an int)."""
    resolve(name)
    assert calls == [args]
    assert all(type(a) is int for a in calls[0])


@pytest.mark.parametrize(
    ("name", "budget"), [("structural", None), ("structural-128", 128), ("structural-1", 1)]
)
def test_structural_budget(calls: list[tuple[Any, ...]], name: str, budget: int | None) -> None:
    """EVAL-19: plain structural is unbudgeted; structural-N passes N."""
    assert resolve(name)("d", "T", "text") == []
    assert calls == [("split_markdown", "d", "text", budget)]


@pytest.mark.parametrize("name", ["fixed-1", "recursive-1", "window-1-0", "fixed-9007199254740991"])
def test_sizes_at_the_bounds(name: str) -> None:
    """EVAL-18: N in [1, 2**53-1] is accepted at both ends."""
    assert callable(resolve(name))
