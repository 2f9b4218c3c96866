"""The generated cases of token_windows, chunk_pages and split_sentences reach their hazards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import by_op

Case = tuple[str, dict[str, Any]]


def _pages(case: Case) -> list[Any]:
    """The case's pages if they are a list, else []."""
    pages = case[1].get("pages")
    return pages if isinstance(pages, list) else []


#: (op, what the hazards profile must reach).
REACHED: list[tuple[str, Callable[[Case], bool]]] = [
    ("token_windows", lambda c: "\U0001f600 " in str(c[1].get("text"))),  # HAZ-15
    ("token_windows", lambda c: "\x1c" in str(c[1].get("text"))),  # HAZ-14
    ("chunk_pages", lambda c: len(_pages(c)) >= 3),
    ("chunk_pages", lambda c: "" in _pages(c)),  # empty pages
    ("chunk_pages", lambda c: any(".\x1c" in str(p) for p in _pages(c))),  # HAZ-14
    ("chunk_pages", lambda c: any("\U0001f600" in str(p) for p in _pages(c)[:-1])),  # HAZ-15
    ("chunk_pages", lambda c: "overlap_tokens" not in c[1]),  # RECORD-13's default
    ("chunk_pages", lambda c: any("\f" in str(p) for p in _pages(c))),  # PAGE-2
    ("split_sentences", lambda c: "\u3002" in str(c[1].get("text"))),  # SENT-1
    ("split_sentences", lambda c: "\ufeff" in str(c[1].get("text"))),  # HAZ-14
    ("split_sentences", lambda c: "Mr." in str(c[1].get("text"))),  # SENT-3
]


@pytest.mark.parametrize("op", sorted({op for op, _ in REACHED}))
def test_the_hazards_profile_reaches(op: str) -> None:
    """Each hazard of these ops comes up among 300 hazard cases, drawn as the batch stage
    draws them (seeded by the op, so the same cases every run; never shrunk)."""
    source = draws(by_op("hazards")[op], f"reaches:{op}")
    assert source is not None
    cases: list[Case] = [next(source) for _ in range(300)]
    missed = [k for k, (name, reached) in enumerate(REACHED) if name == op]
    missed = [k for k in missed if not any(REACHED[k][1](c) for c in cases)]
    assert not missed, missed
