"""Golden cases for chunk (seed 002) and token_windows (tests/golden/*.json)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk, token_windows
from tests import goldens
from tests.counters import named

_ERRORS: dict[str, type[Exception]] = {"TypeError": TypeError, "ValueError": ValueError}


@pytest.mark.parametrize("case", goldens.cases("chunk"))
def test_chunk(case: dict[str, Any]) -> None:
    """chunk(**input) gives the hand-written output or the named error."""
    if "error" in case:
        with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
            chunk(**case["input"])
        error = info.value
        assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
        assert error.argument == case["error"]["argument"]
        assert isinstance(error, _ERRORS[case["error"]["type"]])
    else:
        assert chunk(**case["input"]) == case["output"]


@pytest.mark.parametrize("case", goldens.cases("token_windows"))
def test_token_windows(case: dict[str, Any]) -> None:
    """token_windows(**input) gives the hand-written windows or the named error."""
    kwargs = dict(case["input"])
    if "counter" in kwargs:
        kwargs["counter"] = named(kwargs["counter"])
    if "error" in case:
        with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
            token_windows(**kwargs)
        error = info.value
        assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
        assert error.argument == case["error"]["argument"]
        assert isinstance(error, _ERRORS[case["error"]["type"]])
    else:
        got = [dataclasses.asdict(w) for w in token_windows(**kwargs)]
        assert got == case["output"]
