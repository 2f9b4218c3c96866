"""Shared fixtures for the unit, golden and CLI tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from chunkspec._counters._registry import counter_from_name
from tests.typescript_port import BROKEN_ADAPTER, Port, built


@pytest.fixture(autouse=True)
def _fresh_counters() -> Iterator[None]:
    """RECORD-5 builds each named counter once per process; tests that fake tiktoken or
    write tokenizer files need each test to build its own."""
    counter_from_name.cache_clear()
    yield
    counter_from_name.cache_clear()


# The TypeScript port (tests/typescript_port.py), for the conformance kit's broken-port tests.
@pytest.fixture(scope="module")
def port() -> Port:
    """Node.js with the port's two builds (tests/typescript_port.py)."""
    return built()


@pytest.fixture(scope="module")
def adapter(port: Port) -> list[str]:
    """The test-only adapter (dist-test/): append ``--break=NAME`` to enable a fault; with
    none it answers as the shipped one."""
    return [port.node, str(BROKEN_ADAPTER)]


@pytest.fixture(scope="module")
def shipped(port: Port) -> list[str]:
    """The adapter of the shipped build (dist/, what ``npm pack`` packs: no faults)."""
    return port.adapter
