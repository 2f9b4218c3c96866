"""Golden cases for the counters' count and token_spans (tests/golden/token_spans.json)."""

from __future__ import annotations

from typing import Any

import pytest

from chunkspec.counters import TokenSpanCounter
from tests import goldens
from tests.counters import named


@pytest.mark.parametrize("case", goldens.cases("token_spans"))
def test_token_spans(case: dict[str, Any]) -> None:
    """count(text) and token_spans(text) give the hand-written values."""
    counter = named(case["input"]["counter"])
    assert isinstance(counter, TokenSpanCounter)
    text = case["input"]["text"]
    assert counter.count(text) == case["output"]["count"]
    assert [list(span) for span in counter.token_spans(text)] == case["output"]["spans"]
