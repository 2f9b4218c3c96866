"""EVAL-18/19: what each strategy name passes to its chunker (sizes, defaults, bounds).

``chunk_document`` is replaced by a recorder, so the arguments a name resolves to are seen
directly; the records they return are checked by tests/golden/strategy.json.
"""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec._evaluation import _strategy_names
from chunkspec._evaluation._strategy_names import resolve


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Record what each adapter passes to ``chunk_document`` (EVAL-41) instead of chunking."""
    seen: list[tuple[Any, ...]] = []

    def chunk_document(document: Any, strategy: str, **options: Any) -> list[Any]:
        seen.append((strategy, options.get("max_tokens"), options.get("overlap_tokens")))
        return []

    monkeypatch.setattr(_strategy_names, "chunk_document", chunk_document)
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
    assert resolve(name)("d", "T", "text") == []
    assert calls == [("heading", *args)]
    assert all(type(a) is int for a in calls[0][1:])


@pytest.mark.parametrize(
    ("name", "budget"),
    [("structural", 9007199254740991), ("structural-128", 128), ("structural-1", 1)],
)
def test_structural_budget(calls: list[tuple[Any, ...]], name: str, budget: int) -> None:
    """EVAL-19: plain structural is unbudgeted (2**53-1 tokens); structural-N passes N."""
    assert resolve(name)("d", "T", "text") == []
    assert calls == [("structural", budget, None)]


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("fixed-7", ("window", 7, 0)),
        ("window-7-3", ("window", 7, 3)),
        ("recursive-7", ("recursive", 7, None)),
        ("document", ("window", 9007199254740991, 0)),
    ],
)
def test_record_strategies(calls: list[tuple[Any, ...]], name: str, call: tuple[Any, ...]) -> None:
    """EVAL-41: every name is one chunk_document call; document is one window of all words."""
    assert resolve(name)("d", "T", "text") == []
    assert calls == [call]


@pytest.mark.parametrize("name", ["fixed-1", "recursive-1", "window-1-0", "fixed-9007199254740991"])
def test_sizes_at_the_bounds(name: str) -> None:
    """EVAL-18: N in [1, 2**53-1] is accepted at both ends."""
    assert callable(resolve(name))
