"""Proof that the gate fails for the Markdown ops: the TypeScript port of ``split_markdown``
and ``heading_aware`` with one deliberate porting bug at a time (ports/typescript/
faults.json), checked in process (one kit run a fault, the port offering only the op under
test through CHUNKSPEC_PORT_OPS) so that the file stays cheap in the gate. Needs Node.js
and npm (the ``adapter`` fixture of test_conformance_broken_ports.py builds the port).
"""

from __future__ import annotations

import pytest

from chunkspec._conformance._runner import Options, Summary, run
from tests.typescript_port import MARKDOWN_OPS, faults_of

#: Each fault, its op, and the rule the kit must blame (ports/typescript/faults.json).
FAULTS = {f["name"]: (f["ops"][0], f["rule"]) for f in faults_of(MARKDOWN_OPS)}

#: Faults whose generated counterexamples the kit diagnoses from the answer alone (a
#: model of the mistake, or the field and region of the first differing record); the
#: others are found by generated cases and blamed by the vectors that declare their rule.
GENERATED = {
    "md-fence-hash-heading",
    "md-js-trim",
    "md-utf16-offsets",
    "md-crlf-normalised",
    "md-table-split",
    "md-path-by-position",
    "md-fits-lt",
    "md-strategy-flags",
    "ha-parent-off-by-one",
    "ha-path-not-reset",
    "ha-overlap-across-sections",
    "ha-overlap-ignores-budget",
    "ha-budget-lt",
    "ha-utf16-offsets",
    "ha-crlf-normalised",
}


def _run(
    command: list[str], monkeypatch: pytest.MonkeyPatch, op: str, fault: str, **options: object
) -> Summary:
    """One kit run in process against the port with ``fault``, offering only ``op``."""
    monkeypatch.setenv("CHUNKSPEC_PORT_OPS", op)
    return run(Options([*command, f"--break={fault}"], shrink_seconds=0.5, **options))  # type: ignore[arg-type]


@pytest.mark.parametrize(("fault", "op", "rule"), [(f, o, r) for f, (o, r) in FAULTS.items()])
def test_vectors_catch_the_markdown_fault(
    adapter: list[str],
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
    op: str,
    rule: str,
) -> None:
    """Each fault fails vectors of its op, and the kit blames the broken rule."""
    summary = _run(adapter, monkeypatch, op, fault, cases=0, allow_skips=True)
    failures = summary.failures
    assert failures, "no vector failed"
    assert any(rule in f.blamed for f in failures), [(f.id, f.blamed) for f in failures]


@pytest.mark.parametrize("fault", sorted(GENERATED))
def test_generated_cases_catch_the_markdown_fault(
    adapter: list[str],
    monkeypatch: pytest.MonkeyPatch,
    fault: str,
) -> None:
    """Without vectors, generated cases find each fault and blame its rule."""
    op, rule = FAULTS[fault]
    summary = _run(adapter, monkeypatch, op, fault, vectors=False, cases=50, allow_skips=True)
    failures = summary.failures
    assert failures, "no generated case failed"
    assert any(rule in f.blamed for f in failures), [
        (f.input, f.blamed, f.explanation) for f in failures
    ]


def test_markdown_ops_pass(
    shipped: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The shipped port passes every Markdown vector and generated cases in both profiles."""
    monkeypatch.setenv("CHUNKSPEC_PORT_OPS", "split_markdown,heading_aware")
    summary = run(Options(shipped, cases=150, allow_skips=True, shrink_seconds=2.0))
    assert [(r.id, r.explanation) for r in summary.failures] == []
