"""Literal, obviously correct models of each algorithm: slow on purpose, read like the seeds.

The fast code in ``src/`` is checked against these by the property suites.
"""

from __future__ import annotations

# --- seed 000: split_section / assemble ----------------------------------------------------
