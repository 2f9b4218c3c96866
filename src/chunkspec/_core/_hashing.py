"""Content hashes that every port computes identically."""

from __future__ import annotations

import hashlib

from ._validate import require_text

__all__ = ["hash_text"]


def hash_text(text: str) -> str:
    """Return the SHA-256 of ``text``'s UTF-8 bytes as 64 lowercase hex digits (rule HASH-1)."""
    return hashlib.sha256(require_text("text", text).encode("utf-8")).hexdigest()
