"""Every spec rule is covered by a golden case and a property (or is a reasoned exception);
nothing names a ghost rule; docs/verification.md's table is the generated one."""

from __future__ import annotations

from .. import traceability


def _uncovered() -> set[str]:
    """Rules lacking a golden case or a property."""
    goldens = traceability.golden_cases()
    props = traceability.property_references()
    return {rule for rule in traceability.spec_rules() if rule not in goldens or rule not in props}


def test_every_rule_has_a_golden_case() -> None:
    goldens = traceability.golden_cases()
    missing = sorted(set(traceability.spec_rules()) - set(goldens) - set(traceability.EXCEPTIONS))
    assert not missing, f"rules without a golden case (and not an exception): {missing}"


def test_every_rule_has_a_property() -> None:
    props = traceability.property_references()
    missing = sorted(set(traceability.spec_rules()) - set(props) - set(traceability.EXCEPTIONS))
    assert not missing, f"rules without a property (and not an exception): {missing}"


def test_exceptions_are_reasoned_and_current() -> None:
    for rule, reason in traceability.EXCEPTIONS.items():
        assert rule in traceability.spec_rules(), f"exception for undefined rule {rule}"
        assert rule in _uncovered(), f"{rule} is covered now: drop its exception"
        assert reason.strip(), f"exception for {rule} gives no reason"


def test_goldens_name_only_defined_rules() -> None:
    ghosts = sorted(set(traceability.golden_cases()) - set(traceability.spec_rules()))
    assert not ghosts, f"golden cases name undefined rules: {ghosts}"


def test_properties_name_only_defined_rules() -> None:
    ghosts = sorted(set(traceability.property_references()) - set(traceability.spec_rules()))
    assert not ghosts, f"properties name undefined rules: {ghosts}"


def test_verification_table_is_current() -> None:
    text = (traceability.ROOT / "docs" / "verification.md").read_text("utf-8")
    assert traceability.BEGIN in text, "docs/verification.md lost its traceability markers"
    block = text.split(traceability.BEGIN, 1)[1].split(traceability.END, 1)[0]
    assert block.strip() == traceability.table().strip(), (
        "docs/verification.md is stale: run python -m tests.traceability --write"
    )
