"""The dense retriever's embedding cache (EVAL-42): keys, reuse, order; no model needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkspec._evaluation._embed_cache import CACHE_VARIABLE, cache_key, cached_encode

from .. import goldens

np = pytest.importorskip("numpy")


@pytest.mark.parametrize("case", goldens.cases("embed_cache_key"))
def test_cache_key(case: dict[str, Any]) -> None:
    assert cache_key(case["input"]["model"], case["input"]["text"]) == case["output"]


def _fake(calls: list[list[str]]) -> Any:
    """An encoder that records its batches and maps a text to (len, first code point)."""

    def encode(batch: list[str]) -> Any:
        calls.append(batch)
        return [[len(t), ord(t[0]) if t else 0] for t in batch]

    return encode


def test_cache_embeds_each_new_text_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-42: a second run embeds nothing it has seen; rows follow the input order."""
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path))
    calls: list[list[str]] = []
    first = cached_encode(["ab", "c", "ab"], _fake(calls), "m")
    assert calls == [["ab", "c"]]
    second = cached_encode(["c", "xyz", "ab"], _fake(calls), "m")
    assert calls[1:] == [["xyz"]]
    assert first.tolist() == [[2, 97], [1, 99], [2, 97]]
    assert second.tolist() == [[1, 99], [3, 120], [2, 97]]
    cached_encode(["ab"], _fake(calls), "other model")
    assert calls[2:] == [["ab"]]  # the model is part of the key


def test_no_cache_without_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    """EVAL-42: unset or empty, every call embeds everything."""
    monkeypatch.setenv(CACHE_VARIABLE, "")
    calls: list[list[str]] = []
    cached_encode(["a", "a"], _fake(calls), "m")
    assert calls == [["a", "a"]]
