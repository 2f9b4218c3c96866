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


@given(st.text(alphabet=st.sampled_from(["e", "\u0301", "\u00e9", "A", "\u030a", "\u00c5", " "])))
def test_no_normalisation(text: str) -> None:
    """HASH-3: NFC and NFD spellings hash differently whenever their code points differ."""
    import unicodedata

    for form in ("NFC", "NFD"):
        other = unicodedata.normalize(form, text)
        assert (hash_text(other) == hash_text(text)) == (other == text)
