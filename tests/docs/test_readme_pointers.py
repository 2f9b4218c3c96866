"""The README's claims point at the rules, goldens and tests that keep them, and those exist.

Every rule ID the README names is defined in the spec; every test or golden file it names
is in the tree; every golden case id it names in backticks after ``tests/golden/NAME.json``
is a case of that file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.traceability import RULE_ID, named_rules, spec_rules

ROOT = Path(__file__).resolve().parent.parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
PATHS = re.compile(r"`((?:tests|properties|benchmarks)/[\w/.\-]+\.(?:py|json))`")


def test_every_rule_the_readme_names_is_defined() -> None:
    """A claim's rule ID is a rule of docs/spec.md or docs/spec/*.md (ranges included), or
    a hazard of docs/portability.md (HAZ-N, what a port must not do)."""
    hazards = set(re.findall(r"\b(HAZ-[0-9]+)\b", (ROOT / "docs/portability.md").read_text()))
    defined = set(spec_rules()) | hazards
    named = named_rules(README) | set(RULE_ID.findall(README))
    words_not_rules = {"UTF-8", "UTF-16", "SHA-256", "GPT-4", "ISO-8859"}
    missing = sorted(r for r in named - defined if r not in words_not_rules)
    assert named & defined, "the README names no rule"
    assert missing == []


def test_every_file_the_readme_names_exists() -> None:
    """Each test, property or golden file the README points at is in the tree."""
    named = PATHS.findall(README)
    assert "tests/golden/size.json" in named
    assert [path for path in named if not (ROOT / path).is_file()] == []


def test_every_golden_case_the_readme_names_exists() -> None:
    """Case ids named right after a golden file are cases of that file."""
    pattern = r"`(tests/golden/[\w\-]+\.json)`, among them\s+((?:`[\w\-]+`,?\s+(?:and\s+)?)+)"
    matches = list(re.finditer(pattern, README))
    assert matches, "the README names no golden case"
    for match in matches:
        cases = {case["id"] for case in json.loads((ROOT / match.group(1)).read_text())["cases"]}
        named = re.findall(r"`([\w\-]+)`", match.group(2))
        assert named
        assert [case for case in named if case not in cases] == []
