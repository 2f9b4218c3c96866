"""Hypothesis strategies shared by every property suite, one headed section per topic."""

from __future__ import annotations

from hypothesis import strategies as st

# --- seed 000: split_section / assemble ----------------------------------------------------
