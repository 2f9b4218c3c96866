"""The core's golden cases: one data-driven test per function over tests/golden/*.json."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest

import chunkspec.core
from chunkspec import Chunk

from .. import goldens


def _chunk(item: Any) -> Any:
    """Build a Chunk from a JSON object (other JSON values pass through unchanged)."""
    if not isinstance(item, dict):
        return item
    return Chunk(**{**item, "score": goldens.number(item["score"])})


def _check(case: dict[str, Any], call: Callable[[], Any]) -> Any:
    """Run ``call``; if the case expects an error, check its type and argument."""
    if "error" in case:
        expected = {"TypeError": TypeError, "ValueError": ValueError}[case["error"]["type"]]
        with pytest.raises(expected) as info:
            call()
        assert getattr(info.value, "argument", None) == case["error"]["argument"], info.value
        assert case["error"]["argument"] in str(info.value)
        return None
    return call()


@pytest.mark.parametrize("case", goldens.cases("split_section"))
def test_split_section(case: dict[str, Any]) -> None:
    args = case["input"]
    result = _check(case, lambda: chunkspec.split_section(**args))
    if "error" in case:
        return
    assert chunkspec.split_section(**args) == result  # SPLIT-13: deterministic
    doc_id, title = args["doc_id"], args["title"]
    expected = [
        Chunk(
            f"{doc_id}:{n}",
            doc_id,
            title,
            item["text"],
            item["tokens"],
            hashlib.sha256(item["text"].encode("utf-8")).hexdigest(),
        )
        for n, item in enumerate(case["output"])
    ]
    assert result == expected


@pytest.mark.parametrize("case", goldens.cases("assemble"))
def test_assemble(case: dict[str, Any]) -> None:
    args = dict(case["input"])
    chunks = args.pop("chunks")
    chunks = [_chunk(item) for item in chunks] if isinstance(chunks, list) else chunks
    if "min_score" in args:
        args["min_score"] = goldens.number(args["min_score"])
    before = list(chunks) if isinstance(chunks, list) else chunks
    result = _check(case, lambda: chunkspec.assemble(chunks, **args))
    assert chunks == before  # PACK-13: the input is not modified
    if "error" in case:
        return
    expected = case["output"]
    if expected is None:
        assert result is None
    else:
        assert result == (expected["context"], expected["ids"])


@pytest.mark.parametrize(
    "name",
    ["count_tokens", "hash_text", "words", "render"],
)
def test_helpers(name: str) -> None:
    function = getattr(chunkspec.core, name)
    for case in goldens.load_file(name)["cases"]:
        args = {key: _chunk(value) for key, value in case["input"].items()}
        result = _check(case, lambda: function(**args))  # noqa: B023
        if "error" not in case:
            assert result == case["output"], case["id"]
