"""STORE-1: ``import chunkspec`` and ``import chunkspec.stores`` import no store client, and a
store module without its client is an ImportError naming the ``pip install``."""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Each store module, the client it imports, and its extra.
MODULES = [
    ("lancedb", "lancedb", "lancedb"),
    ("chroma", "chromadb", "chroma"),
    ("qdrant", "qdrant_client", "qdrant"),
    ("milvus", "pymilvus", "milvus"),
]


def _child(code: str) -> str:
    """Run ``code`` in a fresh interpreter; its standard output."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout


def test_importing_the_package_imports_no_client() -> None:
    """STORE-1: the façade and the stores package load no store client (or pyarrow)."""
    clients = [client for _, client, _ in MODULES]
    out = _child(
        "import sys, chunkspec, chunkspec.stores\n"
        f"print(sorted(m for m in {clients!r} if m in sys.modules))\n"
    )
    assert out.strip() == "[]"


@pytest.mark.parametrize(("module", "client", "extra"), MODULES)
def test_missing_client_names_the_extra(module: str, client: str, extra: str) -> None:
    """STORE-1: without its client, the writer's import is an ImportError naming the
    ``pip install`` of its extra (a child interpreter, the client blocked)."""
    out = _child(
        f"import sys; sys.modules[{client!r}] = None\n"
        "try:\n"
        f"    import chunkspec.stores.{module}\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    assert f"pip install 'chunkspec[{extra}]'" in out
