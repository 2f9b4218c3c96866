"""The vectors stand alone (CONF-14): every modelled porting mistake is caught by at least one
vector, so a port that runs only the vectors (as porters do first) meets each of them.

Each mistake model of the kit's blame (``_conformance._blame.mistakes``) is run on every
vector's input; a vector catches the mistake when the model's answer differs from the
vector's expected answer. The test lists the mistakes that no vector catches.
"""

from __future__ import annotations

import pytest

from chunkspec._conformance._oracle import OPS
from chunkspec._conformance._vectors import load_vectors
from tests.conformance.uncaught_mistakes import uncaught_mistakes


@pytest.mark.parametrize("op", OPS)
def test_every_modelled_mistake_is_caught_by_a_vector(op: str) -> None:
    """No mistake model of ``op`` gives every vector's expected answer."""
    assert uncaught_mistakes(op) == []


def test_a_vector_less_list_misses_the_page_mistakes() -> None:
    """Without the PAGE-9 and RECORD-13 vectors, their mistakes are listed (the test can fail)."""
    new = {
        "closer-after-a-mark-ends-a-sentence",
        "ideographic-full-stop-is-a-sentence-mark",
        "fullwidth-question-mark-is-a-sentence-mark",
        "devanagari-danda-ends-a-sentence",
        "arabic-question-mark-ends-a-sentence",
        "hazard-pages-ideographic-stop-needs-no-space",
        "hazard-pages-closer-after-ideographic-stop",
        "blank-line-is-no-sentence-end",
        "default-overlap-of-a-budget-past-2-31",
    }
    older = [v for v in load_vectors()["chunk_pages"] if v["id"] not in new]
    missed = uncaught_mistakes("chunk_pages", older)
    assert len(missed) == 4, missed
    assert any("RECORD-13" in m for m in missed)
