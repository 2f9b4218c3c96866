"""Every input class of every operation is drawn as often as stated (CONF-13).

The cases are the default run's: seed 0, each op's first 1,000 draws in each profile, from
the same seeded source as the batch stage (``_draw.draws``), so a class that the default run
never sends fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkspec._conformance._draw import draws
from chunkspec._conformance._generate import PROFILES, by_op
from tests.conformance.input_classes import CLASSES, classes_table

N = 1000
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("op", list(CLASSES))
def test_every_class_is_drawn_as_often_as_stated(op: str, profile: str) -> None:
    """Each class with a stated share falls into at least that share of N cases."""
    source = draws(by_op(profile)[op], f"0:{profile}:{op}")
    assert source is not None
    cases = [next(source)[1] for _ in range(N)]
    short = []
    for c in CLASSES[op]:
        least = c.portable if profile == "portable" else c.hazards
        if least is None:
            continue
        share = sum(1 for data in cases if c.test(data)) / N
        if share < least:
            short.append(f"{c.name} ({', '.join(c.rules)}): {share:.1%} < {least:.1%}")
    assert short == []


def test_every_op_has_classes() -> None:
    """Every op the generators draw has its classes, each with a rule and a stated share."""
    assert set(CLASSES) == set(by_op("portable"))
    for classes in CLASSES.values():
        assert classes
        assert all(c.rules and (c.portable or c.hazards) for c in classes)


def test_the_doc_shows_the_classes() -> None:
    """docs/conformance.md holds the table of classes as the code states it."""
    doc = ROOT.joinpath("docs", "conformance.md").read_text("utf-8")
    assert classes_table() in doc
