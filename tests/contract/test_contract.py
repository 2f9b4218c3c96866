"""Every chunker in chunkspec runs the reusable contract suite (CONTRACT-1 to CONTRACT-7)."""

from __future__ import annotations

import pytest

from chunkspec import HeadingAwareChunker
from chunkspec.contract import (
    CHECKS,
    ContractViolation,
    Subject,
    cases,
    check_all,
    run_check,
    sample_documents,
    split_markdown_subject,
    split_section_subject,
)
from chunkspec.markdown import ChunkContext, Chunker, Document, DocumentChunk


def _subjects() -> list[Subject]:
    """The subjects, built when called: inside a test, so that a mutation run sees which
    tests reach ``split_markdown_subject`` and the rest (not at collection time)."""
    return [
        Subject.of_chunker("heading-aware-default", HeadingAwareChunker(), max_tokens=512),
        Subject.of_chunker("heading-aware-small", HeadingAwareChunker(8, 3), max_tokens=8),
        Subject.of_chunker("heading-aware-tight", HeadingAwareChunker(1, 1), max_tokens=1),
        split_markdown_subject(None),
        split_markdown_subject(6),
        split_section_subject(6),
    ]


SUBJECT_NAMES = [
    "heading-aware-default",
    "heading-aware-small",
    "heading-aware-tight",
    "split_markdown-None",
    "split_markdown-6",
    "split_section-6",
]
DOCUMENT_NAMES = ["empty", "blank", "markdown", "long", "headings-only", "text", "blocks"]
CHECK_NAMES = ["positions", "parents", "context", "no-blank", "content", "budget", "deterministic"]


@pytest.mark.parametrize("subject_name", SUBJECT_NAMES)
@pytest.mark.parametrize("check", CHECK_NAMES)
@pytest.mark.parametrize("document_name", DOCUMENT_NAMES)
def test_contract(subject_name: str, check: str, document_name: str) -> None:
    """CONTRACT-1..7 hold for every chunker on every sample document."""
    subject = {s.name: s for s in _subjects()}[subject_name]
    run_check(subject, check, sample_documents()[document_name])


def test_cases_cover_every_check_and_document() -> None:
    """The parametrisation is the full product (a user gets every check), in order."""
    subjects = _subjects()
    assert [s.name for s in subjects] == SUBJECT_NAMES
    documents = sample_documents()
    assert list(documents) == DOCUMENT_NAMES
    got = cases(subjects)
    assert len(got) == len(subjects) * len(CHECKS) * len(documents)
    assert [(s.name, c, d.document_id) for s, c, d in got] == [
        (s.name, c, d) for s in subjects for c in CHECK_NAMES for d in DOCUMENT_NAMES
    ]
    assert list(CHECKS) == [
        "positions",
        "parents",
        "context",
        "no-blank",
        "content",
        "budget",
        "deterministic",
    ]


def test_heading_aware_is_a_chunker() -> None:
    """HEAD-1: HeadingAwareChunker satisfies the runtime-checkable Chunker protocol."""
    assert isinstance(HeadingAwareChunker(), Chunker)


class _Broken:
    """A chunker that breaks every rule it can, to show the suite catches each."""

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def chunk(self, document: Document, context: ChunkContext | None = None) -> list[DocumentChunk]:
        good = HeadingAwareChunker(4, 1).chunk(document, context)
        out = list(good)
        if not out:
            return out
        first = out[0]
        if self.fault == "positions":
            out[0] = _replace(first, position=5)
        elif self.fault == "parents":
            out[0] = _replace(first, parent_id=f"{document.document_id}:99")
        elif self.fault == "context":
            out[0] = _replace(first, tenant_id="someone-else")
        elif self.fault == "no-blank":
            out.append(_replace(first, text=" ", position=len(out), id="x"))
        elif self.fault == "content":
            out = out[:1]
        elif self.fault == "budget":
            out[-1] = _replace(out[-1], text="w " * 50, metadata={"kind": "body"})
        elif self.fault == "deterministic":
            self.fault = "positions"
        return out


def _replace(chunk: DocumentChunk, **changes: object) -> DocumentChunk:
    """Return ``chunk`` with ``changes``."""
    import dataclasses

    return dataclasses.replace(chunk, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("check", list(CHECKS))
def test_suite_catches_each_fault(check: str) -> None:
    """Every check fails on a chunker that breaks exactly its rule (the suite can fail)."""
    subject = Subject.of_chunker(check, _Broken(check), max_tokens=4)
    document = sample_documents()["long"]
    with pytest.raises(ContractViolation, match=r"^CONTRACT-\d"):
        run_check(subject, check, document)


def test_check_all_passes_for_heading_aware() -> None:
    """check_all runs every check on every sample document without a violation."""
    check_all(Subject.of_chunker("h", HeadingAwareChunker(16, 4), max_tokens=16))
