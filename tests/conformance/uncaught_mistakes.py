"""Which modelled mistakes the vectors alone catch (CONF-14)."""

from __future__ import annotations

from typing import Any

from chunkspec._conformance._blame import mistakes
from chunkspec._conformance._compare import first_difference
from chunkspec._conformance._vectors import Vector, load_vectors

__all__ = ["uncaught_mistakes"]


def uncaught_mistakes(op: str, vectors: list[Vector] | None = None) -> list[str]:
    """The mistakes of ``op`` (``"mistake (RULES)"``) whose model gives the expected answer
    on every vector of ``op`` (by default the shipped vectors): no vector catches them."""
    cases = load_vectors()[op] if vectors is None else vectors
    caught: dict[str, bool] = {}
    for vector in cases:
        if "output" not in vector:
            continue
        expected: Any = vector["output"]
        for mistake, rules, answer in mistakes(op, vector["input"], expected):
            key = f"{mistake} ({', '.join(rules)})"
            caught[key] = caught.get(key, False) or first_difference(answer, expected) is not None
    return sorted(key for key, hit in caught.items() if not hit)
