"""A strategy family that cannot run in this installation, for the unavailable path (EVAL-19)."""

from __future__ import annotations

from typing import NoReturn

import pytest

from chunkspec._evaluation import _strategy_names

#: What the stand-in family says it needs.
NEEDS = "a chunker that is not installed"


def make_unavailable(monkeypatch: pytest.MonkeyPatch, family: str) -> str:
    """Put a ``family`` into the resolver's table that raises StrategyUnavailable; its message."""

    def build(*numbers: object) -> NoReturn:
        raise _strategy_names.StrategyUnavailable(family, NEEDS)

    monkeypatch.setitem(_strategy_names._FAMILIES, family, build)
    return f"strategy needs {NEEDS}, got {family!r}"
