"""A tiny tiktoken encoding, ``chunkspec-tiny``, registered the way tiktoken's plugins are.

Its constructor asks ``load_tiktoken_bpe`` for a URL with a pinned SHA-256, exactly as
tiktoken's own ``cl100k_base`` does, so the offline rank-file path (COUNT-9) is tested
without the real 1.7 MB file and without network: the test writes :func:`rank_file` to disk.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any

import pytest
from tiktoken.load import load_tiktoken_bpe

from tests.counters import GPT2_PATTERN, SMALL_MERGES

#: The encoding's name, as tiktoken's registry knows it during a test.
NAME = "chunkspec-tiny"


def rank_file() -> bytes:
    """Return the ``.tiktoken`` file: the 256 single bytes, then SMALL_MERGES, one per line."""
    tokens = [bytes([i]) for i in range(256)] + list(SMALL_MERGES)
    return b"".join(
        base64.b64encode(token) + b" " + str(rank).encode() + b"\n"
        for rank, token in enumerate(tokens)
    )


#: The SHA-256 the constructor pins, as tiktoken pins each public encoding's.
PINNED = hashlib.sha256(rank_file()).hexdigest()


def constructor() -> dict[str, Any]:
    """tiktoken's constructor shape: name, pattern, ranks (downloaded), special tokens."""
    ranks = load_tiktoken_bpe("https://example.invalid/chunkspec-tiny.tiktoken", PINNED)
    return {
        "name": NAME,
        "pat_str": GPT2_PATTERN,
        "mergeable_ranks": ranks,
        "special_tokens": {"<|endoftext|>": len(ranks)},
    }


def register(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Register ``chunkspec-tiny`` for the test, with a fresh encoding cache and an empty
    TIKTOKEN_CACHE_DIR; write its rank file and return the file's path."""
    import tiktoken.registry

    tiktoken.registry.list_encoding_names()  # fills ENCODING_CONSTRUCTORS
    constructors = tiktoken.registry.ENCODING_CONSTRUCTORS
    assert constructors is not None
    monkeypatch.setitem(constructors, NAME, constructor)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    cache = tmp_path / "empty-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    path = tmp_path / f"{NAME}.tiktoken"
    path.write_bytes(rank_file())
    return path
