"""Shared fixtures for the unit, golden and CLI tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chunkspec import counter_from_name


@pytest.fixture(autouse=True)
def _fresh_counters() -> Iterator[None]:
    """RECORD-5 builds each named counter once per process; tests that fake tiktoken or
    write tokenizer files need each test to build its own."""
    counter_from_name.cache_clear()
    yield
    counter_from_name.cache_clear()
