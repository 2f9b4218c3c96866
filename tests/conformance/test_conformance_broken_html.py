"""Proof that the gate can fail for ``read_html`` (next to test_conformance_broken_ports.py):
the TypeScript port's HTML reader with one planted fault at a time.

Each fault is a classic mistake of a port's reader (ports/typescript/faults.json, ops
``read_html``): white space not collapsed (HTML-4), a table's tab turned into a space or its
header rows miscounted (HTML-10), offsets in UTF-16 units or of the CRLF-normalized markup
(HTML-18), a heading's permalink kept (HTML-7), a pre block's leading blank lines written
(HTML-6), a br in a heading as a newline (HTML-9), parse5's end tag locations trusted
(HTML-19), parse5's default scripting flag (HTML-5), a blank block kept (HTML-8), an
exact run left whole over a CRLF (HTML-18). One kit run per fault, the port
announcing only ``read_html``: the run must fail, a vector must blame the fault's rule, and
so must a generated (shrunk) counterexample, with an explanation naming the mistake.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance.test_conformance_broken_ports import _conformance
from tests.typescript_port import HTML_OPS, faults_of

#: Each fault and the rule the kit must blame (ports/typescript/faults.json).
FAULTS = {f["name"]: f["rule"] for f in faults_of(HTML_OPS)}

#: What the explanation of a generated counterexample says for each fault.
WHY = {
    "html-no-collapse": "does not collapse white space",
    "html-table-no-tab": "separates a table row's cells with a space",
    "html-utf16-offsets": "UTF-16 code units",
    "html-crlf-offsets": "CRLF-normalized markup",
    "html-no-permalink": "keeps a heading's permalink sign",
    "html-header-rows-th-anywhere": "header_rows",
    "html-pre-keeps-blank-lines": "writes a pre block's leading blank lines",
    "html-heading-br-newline": "writes a br in a heading as a newline",
    "html-parse5-locations": "cursor ran past them",
    "html-scripting-off": "scripting flag off",
    "html-blank-block": "rules' own checks",
    "html-crlf-one-run": "rules' own checks",
}


def test_every_html_fault_is_listed() -> None:
    """The catalogue's read_html faults are the ones this file explains."""
    assert set(FAULTS) == set(WHY)


@pytest.mark.parametrize(("fault", "rule"), sorted(FAULTS.items()))
def test_the_kit_catches_the_html_fault_and_blames_its_rule(
    adapter: list[str], tmp_path: Path, fault: str, rule: str
) -> None:
    """Vectors and generated cases each catch the fault and blame the rule it breaks."""
    port = [*adapter, f"--break={fault}"]
    status, failures = _conformance(
        tmp_path, port, "--cases", "300", "--shrink-seconds", "1", ops="read_html"
    )
    assert status == 1
    vectors = [f for f in failures if f["source"] == "vector"]
    assert any(rule in f["blamed"] for f in vectors), [(f["id"], f["blamed"]) for f in vectors]
    generated = [f for f in failures if f["source"] != "vector"]
    shrunk = [f for f in generated if f["source"] == "shrunk"] or generated
    assert any(rule in f["blamed"] and WHY[fault] in str(f["explanation"]) for f in shrunk), [
        (f["input"], f["blamed"], f["explanation"]) for f in generated
    ]
