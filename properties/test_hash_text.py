"""Properties of hash_text (docs/spec.md HASH-1, HASH-2)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chunkspec import hash_text

from .models import model_hash


@given(st.text())
def test_sha256_of_utf8_lower_hex(text: str) -> None:
    """HASH-1: hash_text is SHA-256 of the UTF-8 bytes as 64 lowercase hex digits."""
    digest = hash_text(text)
    assert re.fullmatch("[0-9a-f]{64}", digest)
    assert digest == model_hash(text)


@given(st.text(max_size=4), st.integers(0xD800, 0xDFFF), st.text(max_size=4))
def test_lone_surrogate_rejected(before: str, code: int, after: str) -> None:
    """HASH-2, PORT-2: any lone surrogate raises ValueError naming text."""
    with pytest.raises(ValueError, match="text"):
        hash_text(before + chr(code) + after)


@given(st.text(), st.text())
def test_distinct_texts_distinct_hashes(a: str, b: str) -> None:
    """HASH-1: different texts give different hashes (no collision in practice)."""
    assert (hash_text(a) == hash_text(b)) == (a == b)
