"""Every spec rule is covered by a golden case and a property; nothing names a ghost rule."""

from __future__ import annotations

from . import traceability


def test_every_rule_has_a_golden_case() -> None:
    goldens = traceability.golden_references()
    missing = sorted(set(traceability.spec_rules()) - set(goldens))
    assert not missing, f"rules without a golden case: {missing}"


def test_every_rule_has_a_property() -> None:
    props = traceability.property_references()
    missing = sorted(set(traceability.spec_rules()) - set(props))
    assert not missing, f"rules without a property: {missing}"


def test_goldens_name_only_defined_rules() -> None:
    ghosts = sorted(set(traceability.golden_references()) - set(traceability.spec_rules()))
    assert not ghosts, f"golden cases name undefined rules: {ghosts}"


def test_properties_name_only_defined_rules() -> None:
    ghosts = sorted(set(traceability.property_references()) - set(traceability.spec_rules()))
    assert not ghosts, f"properties name undefined rules: {ghosts}"


def test_verification_table_is_current() -> None:
    text = (traceability.ROOT / "docs" / "verification.md").read_text("utf-8")
    block = text.split(traceability.BEGIN, 1)[1].split(traceability.END, 1)[0]
    assert block.strip() == traceability.table().strip(), (
        "docs/verification.md is stale: run python tests/traceability.py --write"
    )
