"""Every op's generated cases as one strategy, for the tests that sample them all."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from chunkspec._conformance._generate import by_op

__all__ = ["cases"]


def cases(profile: str) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    """Every op's cases for ``profile``: one of ``by_op(profile)``'s strategies."""
    return st.one_of(list(by_op(profile).values()))
