"""Proof that the gate can fail for ``chunk_document`` (next to test_conformance_broken_code.py):
the TypeScript port's ``chunkDocument`` on raw files with one planted fault at a time.

Each fault is a classic mistake of a port that reads a raw Markdown file
(ports/typescript/faults.json, ops ``chunk_document``): the file read as plain text by
``window`` and ``pages`` (NPM-5: no title, front matter fields or heading paths), the front
matter windowed (FM-2), a window's heading path taken from the headings whose title, not whose
line, starts before it (RECORD-12). One kit run per fault, the port announcing only
``chunk_document``: the run must fail, a vector must blame the fault's rule, and so must a
generated (shrunk) counterexample, with an explanation naming the mistake. The pinned files
(``data/chunk_document.json``) are the oracle's current answers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance import document_vectors
from tests.conformance.test_conformance_broken_ports import _conformance
from tests.typescript_port import DOCUMENT_OPS, faults_of

#: Each fault and the rule the kit must blame (ports/typescript/faults.json).
FAULTS = {f["name"]: f["rule"] for f in faults_of(DOCUMENT_OPS)}

#: What the explanation of a generated counterexample says for each fault.
WHY = {
    "doc-read-as-text": "reads a Markdown file as plain text",
    "doc-window-front-matter": "windows the front matter",
    "doc-heading-title-start": "whose title starts before it",
}


def test_every_document_fault_is_listed() -> None:
    """The catalogue's chunk_document faults are the ones this file explains."""
    assert set(FAULTS) == set(WHY)


def test_the_pinned_files_are_current() -> None:
    """data/chunk_document.json holds the oracle's answers (document_vectors.py --write)."""
    assert document_vectors.FILE.read_text("utf-8") == document_vectors.vector_text()


@pytest.mark.parametrize(("fault", "rule"), sorted(FAULTS.items()))
def test_the_kit_catches_the_document_fault_and_blames_its_rule(
    adapter: list[str], tmp_path: Path, fault: str, rule: str
) -> None:
    """Vectors and generated cases each catch the fault and blame the rule it breaks."""
    port = [*adapter, f"--break={fault}"]
    status, failures = _conformance(
        tmp_path, port, "--cases", "300", "--shrink-seconds", "1", ops="chunk_document"
    )
    assert status == 1
    vectors = [f for f in failures if f["source"] == "vector"]
    assert any(rule in f["blamed"] for f in vectors), [(f["id"], f["blamed"]) for f in vectors]
    generated = [f for f in failures if f["source"] != "vector"]
    shrunk = [f for f in generated if f["source"] == "shrunk"] or generated
    assert any(rule in f["blamed"] and WHY[fault] in str(f["explanation"]) for f in shrunk), [
        (f["input"], f["blamed"], f["explanation"]) for f in generated
    ]
