"""The units a word over the budget is cut at, by counter (SCRIPT-8, SCRIPT-24)."""

from __future__ import annotations

from .._core._fit import Units
from .._core._units import unit_spans
from .._counters._dictionary import DictionaryCounter

__all__ = ["units_of"]


def units_of(counter: object) -> Units:
    """The units a word over the budget is cut at: the ``dict`` counter's words (SCRIPT-24),
    SCRIPT-3's units for every other counter."""
    if isinstance(counter, DictionaryCounter):
        return counter.spans_in
    return unit_spans
