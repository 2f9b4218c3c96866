"""Shared set-up for the framework adapter tests: no telemetry, no network.

Import this module before any framework: it turns off Haystack's telemetry (on by default,
it would post to the network on a pipeline's first run) and LlamaIndex/LangChain tracing,
and :func:`no_network` makes any socket connection fail so a test proves it stays offline.
"""

from __future__ import annotations

import os
import socket
from typing import Any

import pytest

os.environ["HAYSTACK_TELEMETRY_ENABLED"] = "False"
os.environ["LANGCHAIN_TRACING_V2"] = "false"
os.environ["LANGSMITH_TRACING"] = "false"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

#: The bundled example page every adapter test chunks.
EXAMPLE = "examples/returns-policy.md"


def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every socket connection (and DNS lookup) raise OSError for the test's duration."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("network disabled in tests")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
