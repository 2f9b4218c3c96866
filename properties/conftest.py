"""Hypothesis profiles: ``dev`` (the default, plain ``nox`` and a bare ``pytest``), ``ci``
(1,000 examples a property: ``nox`` when the environment variable CI is set, as in .ci/run),
``ci-long`` (5,000, by hand) and ``mutation`` (``nox -s mutation``); docs/verification.md."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=1000,  # fuzz targets included; .ci/run's 30-minute budget has room for it
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
