"""Hypothesis profiles: ``dev`` while iterating, ``ci`` (>= 1,000 examples) in the gate,
``mutation`` for ``nox -s mutation``."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
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
