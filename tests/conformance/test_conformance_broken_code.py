"""Proof that the gate can fail for ``chunk_code`` (next to test_conformance_broken_html.py):
the TypeScript port's code strategy with one planted fault at a time.

Each fault is a classic mistake of a port of the code strategy (ports/typescript/faults.json,
ops ``chunk_code``): offsets in UTF-16 units (CODE-2), a file with a syntax error chunked by
lines as a whole (CODE-3), decorators and attributes, trailing comments or comments above an
item not joined to it (CODE-5), a run not ended at its last line end or the run before an oversized
definition joined to it whatever it holds (CODE-6), wrappers not taken for their definition
or a label cut at 100 UTF-16 units (CODE-7), the prefix left out of the budget (CODE-8),
untrimmed pieces (CODE-10), the whitespace counter kept on CJK code (SCRIPT-6). One kit run
per fault, the port announcing only ``chunk_code``: the run must fail, a vector must blame
the fault's rule, and so must a generated (shrunk) counterexample, with an explanation naming
the mistake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_conformance_broken_ports import _conformance
from tests.typescript_port import CODE_OPS, faults_of

#: Each fault and the rule the kit must blame (ports/typescript/faults.json).
FAULTS = {f["name"]: f["rule"] for f in faults_of(CODE_OPS)}

#: What the explanation of a generated counterexample says for each fault.
WHY = {
    "code-utf16-offsets": "UTF-16 code units",
    "code-errors-as-lines": "$.parser",
    "code-comment-only": "takes only comments as documentation",
    "code-no-trailing-comment": "leaves a trailing comment apart",
    "code-comments-apart": "leaves the comments right above an item apart",
    "code-no-line-end": "not at its last line end",
    "code-header-joins-any": "joins the run before an oversized definition",
    "code-no-wrappers": "takes a wrapper",
    "code-label-utf16": "heading_path",
    "code-prefix-uncounted": "leaves the scope prefix out of the budget",
    "code-untrimmed": "rules' own checks",
    "code-no-script-default": "$.counter",
}


def test_every_code_fault_is_listed() -> None:
    """The catalogue's chunk_code faults are the ones this file explains."""
    assert set(FAULTS) == set(WHY)


@pytest.mark.parametrize(("fault", "rule"), sorted(FAULTS.items()))
def test_the_kit_catches_the_code_fault_and_blames_its_rule(
    adapter: list[str], tmp_path: Path, fault: str, rule: str
) -> None:
    """Vectors and generated cases each catch the fault and blame the rule it breaks."""
    port = [*adapter, f"--break={fault}"]
    status, failures = _conformance(
        tmp_path, port, "--cases", "300", "--shrink-seconds", "1", ops="chunk_code"
    )
    assert status == 1
    vectors = [f for f in failures if f["source"] == "vector"]
    assert any(rule in f["blamed"] for f in vectors), [(f["id"], f["blamed"]) for f in vectors]
    generated = [f for f in failures if f["source"] != "vector"]
    shrunk = [f for f in generated if f["source"] == "shrunk"] or generated
    assert any(rule in f["blamed"] and WHY[fault] in str(f["explanation"]) for f in shrunk), [
        (f["input"], f["blamed"], f["explanation"]) for f in generated
    ]
