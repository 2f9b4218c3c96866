"""Hypothesis profiles: ``dev`` while iterating, ``ci`` (400 examples) in the gate,
``mutation`` for ``nox -s mutation``."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=400,  # the gate within its time budget; HYPOTHESIS_PROFILE=ci-long: 5,000
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("ci-long", settings.get_profile("ci"), max_examples=5000)
# mutation (nox -s mutation): few examples, derandomized so a mutant's verdict is repeatable.
settings.register_profile(
    "mutation",
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


#: The fuzz targets (marker ``fuzz``) run for hours in ``nox -s fuzz``; in the gate's ``ci``
#: profile each gets this many examples, a smoke run that keeps the gate near 10 minutes.
FUZZ_GATE_EXAMPLES = 200


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Give the fuzz targets FUZZ_GATE_EXAMPLES examples under the ``ci`` profile."""
    if os.environ.get("HYPOTHESIS_PROFILE") != "ci":
        return
    brief = settings(settings.get_profile("ci"), max_examples=FUZZ_GATE_EXAMPLES)
    for item in items:
        target = getattr(item, "obj", None)
        if item.get_closest_marker("fuzz") is not None and hasattr(target, "hypothesis"):
            brief(target)
