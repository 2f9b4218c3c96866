"""Golden cases for chunk_pages (tests/golden/chunk_pages.json)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from chunkspec import ArgumentTypeError, ArgumentValueError, chunk_pages
from chunkspec.pages import Page, SectionSpan
from tests import goldens
from tests.counters import named

_ERRORS: dict[str, type[Exception]] = {"TypeError": TypeError, "ValueError": ValueError}


def _kwargs(data: dict[str, Any]) -> dict[str, Any]:
    """Turn a golden input into keyword arguments of chunk_pages."""
    kwargs = dict(data)
    kwargs["pages"] = (
        kwargs["pages"]
        if isinstance(kwargs["pages"], str)
        else [p if isinstance(p, str) else Page(p["number"], p["text"]) for p in kwargs["pages"]]
    )
    if "counter" in kwargs:
        kwargs["counter"] = named(kwargs["counter"])
    if "sections" in kwargs:
        kwargs["sections"] = [SectionSpan(a, b, label) for a, b, label in kwargs["sections"]]
    return kwargs


@pytest.mark.parametrize("case", goldens.cases("chunk_pages"))
def test_chunk_pages(case: dict[str, Any]) -> None:
    """chunk_pages(**input) gives the hand-written chunks or the named error."""
    kwargs = _kwargs(case["input"])
    if "error" in case:
        with pytest.raises((ArgumentTypeError, ArgumentValueError)) as info:
            chunk_pages(**kwargs)
        error = info.value
        assert isinstance(error, (ArgumentTypeError, ArgumentValueError))
        assert error.argument == case["error"]["argument"]
        assert isinstance(error, _ERRORS[case["error"]["type"]])
    else:
        got = [dataclasses.asdict(c) for c in chunk_pages(**kwargs)]
        assert got == case["output"]
