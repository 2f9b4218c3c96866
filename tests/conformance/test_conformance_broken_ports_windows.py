"""Proof that the gate can fail for the window, page and sentence ops (next to
test_conformance_broken_ports.py): the TypeScript port with one planted fault at a time.

Each fault is a classic porting mistake in ``token_windows``, ``chunk_pages`` or
``split_sentences`` (ports/typescript/src/faults.ts). One kit run per fault, kept cheap
for the gate: the port is started so that its hello answer announces only the fault's op
(CHUNKSPEC_PORT_OPS), so the generated cases all go to that op. The run must
fail, a vector must blame the fault's rule, and so must a generated (shrunk)
counterexample, with an explanation naming the mistake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_conformance_broken_ports import _conformance

#: Each fault, its op and the rule it breaks (docs/spec/*.md, docs/portability.md).
FAULTS = {
    "sentence-js-space": ("split_sentences", "SENT-1"),
    "sentence-js-trim": ("split_sentences", "SENT-2"),
    "sentence-ascii-terminators": ("split_sentences", "SENT-1"),
    "sentence-ascii-closers": ("split_sentences", "SENT-1"),
    "sentence-break-without-space": ("split_sentences", "SENT-1"),
    "sentence-abbreviation": ("split_sentences", "SENT-3"),
    "sentence-no-strip": ("split_sentences", "SENT-2"),
    "sentence-keep-blank": ("split_sentences", "SENT-2"),
    "sentence-no-surrogate-check": ("split_sentences", "PORT-2"),
    "tokwin-utf16": ("token_windows", "WIN-9"),
    "tokwin-js-space": ("token_windows", "COUNT-4"),
    "tokwin-overlap-chars": ("token_windows", "TOKWIN-6"),
    "tokwin-scrap": ("token_windows", "TOKWIN-3"),
    "tokwin-first-at-token": ("token_windows", "TOKWIN-4"),
    "tokwin-cut-at-token-end": ("token_windows", "TOKWIN-5"),
    "tokwin-boolean-size": ("token_windows", "TOKWIN-1"),
    "tokwin-tokens-nominal": ("token_windows", "RECORD-14"),
    "pages-utf16": ("chunk_pages", "PAGE-6"),
    "pages-js-trim": ("chunk_pages", "PAGE-5"),
    "pages-page-end-inclusive": ("chunk_pages", "PAGE-11"),
    "pages-start-page-only": ("chunk_pages", "PAGE-11"),
    "pages-page-from-zero": ("chunk_pages", "PAGE-11"),
    "pages-no-sentence-break": ("chunk_pages", "PAGE-9"),
    "pages-sentence-first": ("chunk_pages", "PAGE-9"),
    "pages-js-space-sentence": ("chunk_pages", "PAGE-9"),
    "pages-overlap-chars": ("chunk_pages", "PAGE-10"),
    "pages-blank-record": ("chunk_pages", "SOURCE-7"),
    "pages-oversized-ge": ("chunk_pages", "RECORD-14"),
}

#: Faults diagnosed without a model of the answer: the explanation says why instead.
WHY = {
    "sentence-no-surrogate-check": "does not reject a lone surrogate (HAZ-4)",
    "tokwin-boolean-size": "expected TypeError naming 'max_tokens'",
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
