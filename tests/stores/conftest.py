"""Every store of STORE-1, started for real in a temporary folder (no mocks)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from chunkspec.stores import SCHEMES, Store, open_store

#: The client package each scheme needs (its extra).
CLIENTS = {
    "lancedb": "lancedb",
    "chroma": "chromadb",
    "qdrant": "qdrant_client",
    "milvus": "pymilvus",
}


def address(scheme: str, folder: Path) -> str:
    """A fresh address of ``scheme`` in ``folder`` (Milvus Lite's is a file)."""
    return f"{scheme}://{folder / ('store.db' if scheme == 'milvus' else 'store')}"


def have(scheme: str) -> bool:
    """Whether the scheme's client is installed (the gate installs every store extra)."""
    return importlib.util.find_spec(CLIENTS[scheme]) is not None


@pytest.fixture(params=sorted(SCHEMES))
def scheme(request: pytest.FixtureRequest) -> str:
    """Each store scheme in turn; skipped where its extra is not installed."""
    name: str = request.param
    if not have(name):
        pytest.skip(f"{CLIENTS[name]} is not installed (chunkspec[{name}])")
    return name


@pytest.fixture
def store(scheme: str, tmp_path: Path) -> Iterator[Store]:
    """An empty collection of ``scheme``'s store in a temporary folder."""
    opened = open_store(address(scheme, tmp_path))
    yield opened
    opened.close()
