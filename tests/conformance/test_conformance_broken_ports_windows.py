"""Proof that the gate can fail for the window, page and sentence ops (next to
test_conformance_broken_ports.py): the TypeScript port with one planted fault at a time.

Each fault is a classic porting mistake in ``token_windows``, ``chunk_pages`` or
``split_sentences`` (ports/typescript/faults.json). One kit run per fault, kept cheap
for the gate: the port is started so that its hello answer announces only the fault's op
(CHUNKSPEC_PORT_OPS), so the generated cases all go to that op. The run must
fail, a vector must blame the fault's rule, and so must a generated (shrunk)
counterexample, with an explanation naming the mistake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_conformance_broken_ports import _conformance
from tests.typescript_port import WINDOW_OPS, faults_of

#: Each fault, its op and the rule the kit must blame (ports/typescript/faults.json).
FAULTS = {f["name"]: (f["ops"][0], f["rule"]) for f in faults_of(WINDOW_OPS)}

#: Faults diagnosed without a model of the answer: the explanation says why instead.
WHY = {
    "sentence-no-surrogate-check": "does not reject a lone surrogate (HAZ-4)",
    "tokwin-boolean-size": "expected TypeError naming 'max_tokens'",
    "tokwin-overlap-unchecked": "expected ValueError naming 'overlap_tokens'",
    "tokwin-id-from-one": "rules' own checks",
}


@pytest.mark.parametrize(("fault", "op", "rule"), [(f, *v) for f, v in FAULTS.items()])
def test_the_kit_catches_the_fault_and_blames_its_rule(
    adapter: list[str], tmp_path: Path, fault: str, op: str, rule: str
) -> None:
    """Vectors and generated cases each catch the fault and blame the rule it breaks."""
    port = [*adapter, f"--break={fault}"]
    status, failures = _conformance(
        tmp_path, port, "--cases", "100", "--shrink-seconds", "1", ops=op
    )
    assert status == 1
    vectors = [f for f in failures if f["source"] == "vector"]
    assert any(rule in f["blamed"] for f in vectors), [(f["id"], f["blamed"]) for f in vectors]
    generated = [f for f in failures if f["source"] != "vector"]
    shrunk = [f for f in generated if f["source"] == "shrunk"] or generated
    why = WHY.get(fault, "a port gives that")
    assert any(rule in f["blamed"] and why in str(f["explanation"]) for f in shrunk), [
        (f["input"], f["blamed"], f["explanation"]) for f in generated
    ]
