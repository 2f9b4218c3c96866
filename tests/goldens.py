"""Loading golden case files (``tests/golden/*.json``), the data ports read too.

Format (docs/goldens.md): ``{"function": NAME, "cases": [CASE, ...]}`` where each CASE has a
stable slug ``id``, the spec ``rules`` it exercises, an ``input`` object of keyword
arguments, and either ``output`` or ``error`` (``{"type": "TypeError"|"ValueError",
"argument": NAME}``). Numbers that JSON cannot hold are written as the strings
``"Infinity"``, ``"-Infinity"`` and ``"NaN"``.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

GOLDEN_DIR = Path(__file__).parent / "golden"

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_RULE = re.compile(r"^[A-Z]+-[0-9]+$")
_NONFINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def number(value: Any) -> Any:
    """Decode a JSON number field, mapping the non-finite spellings to floats."""
    if isinstance(value, str) and value in _NONFINITE:
        return _NONFINITE[value]
    return value


def load_file(name: str) -> dict[str, Any]:
    """Return the parsed golden file ``tests/golden/{name}.json``, checking its shape."""
    data: dict[str, Any] = json.loads((GOLDEN_DIR / f"{name}.json").read_text("utf-8"))
    assert data["function"] == name, f"{name}.json names function {data['function']!r}"
    seen: set[str] = set()
    for case in data["cases"]:
        assert _SLUG.match(case["id"]), f"bad case id {case['id']!r}"
        assert case["id"] not in seen, f"duplicate case id {case['id']!r}"
        seen.add(case["id"])
        assert case["rules"], f"{case['id']} names no rule"
        assert all(_RULE.match(rule) for rule in case["rules"]), case["rules"]
        assert ("output" in case) != ("error" in case), f"{case['id']}: output xor error"
    return data


def cases(name: str) -> list[Any]:
    """Return the cases of ``name`` as pytest params whose ids are the case slugs."""
    return [pytest.param(case, id=case["id"]) for case in load_file(name)["cases"]]
