"""The chunker contract suite: checks any chunker can run, ours or a user's (seed 003).

Seed 003 enforces its ``Chunker`` SPI with seven contract tests. Here they are a library,
importable without pytest, so a user's chunker can run exactly the checks ours do::

    import pytest
    from chunkspec import HeadingAwareChunker
    from chunkspec.contract import CHECKS, Subject, cases, run_check

    SUBJECTS = [Subject.of_chunker("mine", MyChunker(), max_tokens=256)]

    @pytest.mark.parametrize(("subject", "check", "document"), cases(SUBJECTS))
    def test_contract(subject, check, document):
        run_check(subject, check, document)

A violated rule raises :class:`ContractViolation` (an ``AssertionError``) naming the rule
(CONTRACT-1 to CONTRACT-7, docs/spec/markdown.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from ._chunkers._heading_aware import Chunker, DocumentChunk
from ._chunkers._split_markdown import split_markdown
from ._core._split_section import split_section
from ._core._tokens import SEPARATORS
from ._counters._builtin import TokenCounter, WhitespaceCounter
from ._errors import ContractViolation
from ._text._blocks import ChunkContext, Document, document_from_blocks, parse_text
from ._text._markdown import parse_markdown

__all__ = [
    "CHECKS",
    "ContractChunk",
    "ContractViolation",
    "Subject",
    "cases",
    "check_all",
    "run_check",
    "sample_context",
    "sample_documents",
]


class ContractChunk(Protocol):
    """What the contract reads from a chunk (``DocumentChunk`` has all of it)."""

    @property
    def id(self) -> str: ...

    @property
    def position(self) -> int: ...

    @property
    def parent_id(self) -> str | None: ...

    @property
    def text(self) -> str: ...

    @property
    def document_id(self) -> str: ...

    @property
    def tenant_id(self) -> str: ...

    @property
    def corpus_id(self) -> str: ...

    @property
    def acl_labels(self) -> tuple[str, ...]: ...


def _never(chunk: Any) -> bool:
    """Exempt no chunk from the budget."""
    return False


def _heading(chunk: Any) -> bool:
    """Exempt heading chunks (the budget is for body chunks, HEAD-7)."""
    metadata = getattr(chunk, "metadata", None)
    return isinstance(metadata, Mapping) and metadata.get("kind") == "heading"


@dataclass(frozen=True)
class Subject:
    """A chunker under test: a name, a function of (document, context), and its budget.

    ``exempt(chunk)`` says which chunks the budget rule does not cover (e.g. a heading chunk
    or a whole table); ``max_tokens=None`` means the chunker promises no budget.
    """

    name: str
    chunk: Callable[[Document, ChunkContext], Sequence[ContractChunk]]
    max_tokens: int | None = None
    counter: TokenCounter = field(default_factory=WhitespaceCounter)
    exempt: Callable[[Any], bool] = _never

    def __repr__(self) -> str:
        return f"Subject({self.name!r})"

    @classmethod
    def of_chunker(
        cls,
        name: str,
        chunker: Chunker,
        *,
        max_tokens: int | None = None,
        counter: TokenCounter | None = None,
        exempt: Callable[[Any], bool] = _heading,
    ) -> Subject:
        """Wrap an object with ``chunk(document, context)``; headings are budget-exempt."""
        return cls(
            name,
            chunker.chunk,
            max_tokens,
            WhitespaceCounter() if counter is None else counter,
            exempt,
        )


def _record(
    document: Document, context: ChunkContext, n: int, text: str, start: int, end: int, kind: str
) -> DocumentChunk:
    """Wrap a chunk of a document-less chunker as a ``DocumentChunk`` at position ``n``."""
    return DocumentChunk(
        f"{document.document_id}:{n}",
        document.document_id,
        n,
        None,
        text,
        start,
        end,
        (),
        {"kind": kind},
        context.tenant_id,
        context.corpus_id,
        context.acl_labels,
    )


def split_section_subject(max_tokens: int) -> Subject:
    """The seed-000 ``split_section`` as a subject (its unbreakable chunks are exempt)."""

    def run(document: Document, context: ChunkContext) -> list[DocumentChunk]:
        chunks = split_section(document.document_id, "", document.source, max_tokens)
        return [
            _record(document, context, n, c.text, -1, -1, "body")
            for n, c in enumerate(chunks)
            if c.text  # blank input gives one empty chunk by rule SPLIT-10; not a body chunk
        ]

    def exempt(chunk: Any) -> bool:
        return not any(sep in chunk.text for sep in SEPARATORS)

    return Subject(f"split_section-{max_tokens}", run, max_tokens, WhitespaceCounter(), exempt)


def split_markdown_subject(max_tokens: int | None) -> Subject:
    """``split_markdown`` as a subject (whole tables, code and lone words are exempt)."""

    def run(document: Document, context: ChunkContext) -> list[DocumentChunk]:
        chunks = split_markdown(document.document_id, document.source, max_tokens)
        return [
            _record(document, context, n, c.text, c.start, c.end, c.kind)
            for n, c in enumerate(chunks)
        ]

    def exempt(chunk: Any) -> bool:
        return chunk.metadata["kind"] in ("table", "code") or len(chunk.text.split()) == 1

    return Subject(f"split_markdown-{max_tokens}", run, max_tokens, WhitespaceCounter(), exempt)


def _chunks(subject: Subject, document: Document, context: ChunkContext) -> list[ContractChunk]:
    """Run the subject."""
    return list(subject.chunk(document, context))


def _fail(rule: str, subject: Subject, message: str) -> ContractViolation:
    """Return the violation of ``rule`` by ``subject``."""
    return ContractViolation(f"{rule}: {subject.name}: {message}")


def check_positions(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-1: positions are 0, 1, 2... in order, and ids are unique."""
    chunks = _chunks(subject, document, context)
    positions = [c.position for c in chunks]
    if positions != list(range(len(chunks))):
        raise _fail("CONTRACT-1", subject, f"positions {positions[:20]} are not 0, 1, 2...")
    ids = [c.id for c in chunks]
    if len(set(ids)) != len(ids):
        raise _fail("CONTRACT-1", subject, "chunk ids are not unique")


def check_parents(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-2: ``parent_id`` is None or the id of an earlier chunk."""
    seen: set[str] = set()
    for c in _chunks(subject, document, context):
        if c.parent_id is not None and c.parent_id not in seen:
            raise _fail("CONTRACT-2", subject, f"{c.id} has parent {c.parent_id!r}, not earlier")
        seen.add(c.id)


def check_context(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-3: tenant, corpus, ACL labels and document id reach every chunk."""
    for c in _chunks(subject, document, context):
        got = (c.document_id, c.tenant_id, c.corpus_id, tuple(c.acl_labels))
        want = (document.document_id, context.tenant_id, context.corpus_id, context.acl_labels)
        if got != want:
            raise _fail("CONTRACT-3", subject, f"{c.id} carries {got}, expected {want}")


def check_no_blank(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-4: no chunk is empty or whitespace only."""
    for c in _chunks(subject, document, context):
        if not c.text.strip():
            raise _fail("CONTRACT-4", subject, f"{c.id} has blank text {c.text!r}")


def check_content(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-5: no body word is lost: the words of the non-heading blocks, in order, are
    a subsequence of the words of the chunks, in order (overlap may repeat words)."""
    body = [w for b in document.blocks if b.kind != "heading" for w in b.text.split()]
    i = 0
    for c in _chunks(subject, document, context):
        for word in c.text.split():
            if i < len(body) and word == body[i]:
                i += 1
    if i < len(body):
        raise _fail("CONTRACT-5", subject, f"body word {i} ({body[i]!r}) is in no chunk")


def check_budget(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-6: ``counter.count(text) <= max_tokens`` for every chunk not exempt."""
    if subject.max_tokens is None:
        return
    for c in _chunks(subject, document, context):
        tokens = subject.counter.count(c.text)
        if tokens > subject.max_tokens and not subject.exempt(c):
            raise _fail("CONTRACT-6", subject, f"{c.id} has {tokens} > {subject.max_tokens} tokens")


def check_deterministic(subject: Subject, document: Document, context: ChunkContext) -> None:
    """CONTRACT-7: chunking the same document twice gives equal chunks."""
    if _chunks(subject, document, context) != _chunks(subject, document, context):
        raise _fail("CONTRACT-7", subject, "two runs gave different chunks")


#: Every check by name, in rule order.
CHECKS: Mapping[str, Callable[[Subject, Document, ChunkContext], None]] = MappingProxyType(
    {
        "positions": check_positions,
        "parents": check_parents,
        "context": check_context,
        "no-blank": check_no_blank,
        "content": check_content,
        "budget": check_budget,
        "deterministic": check_deterministic,
    }
)


def sample_context() -> ChunkContext:
    """A context whose every field is set, so propagation is visible."""
    return ChunkContext("tenant-7", "corpus-3", ("staff", "legal"))


def sample_documents() -> dict[str, Document]:
    """Small documents that exercise every rule, by name."""
    long_paragraph = " ".join(f"word{i}." if i % 7 == 6 else f"word{i}" for i in range(200))
    return {
        "empty": parse_markdown("empty", ""),
        "blank": parse_markdown("blank", " \n\n\t\n"),
        "markdown": parse_markdown(
            "markdown",
            "# Title\n\nIntro text.\n\n## Part\n\nBody one.\n\n### Deep\n\nDeeper.\n\n"
            "## Next\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\n# not a heading\n```\n",
        ),
        "long": parse_markdown("long", f"# Long\n\n{long_paragraph}\n\n{long_paragraph}\n"),
        "headings-only": parse_markdown("headings-only", "# a\n## b\n### c\n## d\n# e\n"),
        "text": parse_text("text", "First paragraph here.\n\nSecond one.\r\n\r\nThird."),
        "blocks": document_from_blocks(
            "blocks",
            [
                {"kind": "heading", "level": 1, "text": "Scanned", "page": 1},
                {"text": "Region one text.", "page": 1, "bbox": [0, 0, 10, 10]},
                {"text": "   ", "page": 1},
                {"text": long_paragraph, "page": 2, "confidence": 0.91},
            ],
        ),
    }


def cases(subjects: Sequence[Subject]) -> list[tuple[Subject, str, Document]]:
    """Every (subject, check name, document) triple, for ``pytest.mark.parametrize``."""
    documents = sample_documents()
    return [
        (subject, check, document)
        for subject in subjects
        for check in CHECKS
        for document in documents.values()
    ]


def run_check(
    subject: Subject, check: str, document: Document, context: ChunkContext | None = None
) -> None:
    """Run the check named ``check``; raise :class:`ContractViolation` if it fails."""
    CHECKS[check](subject, document, sample_context() if context is None else context)


def check_all(
    subject: Subject,
    documents: Sequence[Document] | None = None,
    context: ChunkContext | None = None,
) -> None:
    """Run every check on every document (the sample documents by default)."""
    for document in sample_documents().values() if documents is None else documents:
        for check in CHECKS:
            run_check(subject, check, document, context)
