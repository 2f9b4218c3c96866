"""The contract suite's own data and adapters: its sample documents, subjects and `check_all`.

Other people certify their chunkers with ``chunkspec.contract``: a sample that silently loses
its table, its long paragraph or its context would let a broken chunker pass. So the samples
are pinned here (they are public data, like a golden file) and each is checked to exercise
what it claims to. Everything is built inside the test bodies, never at import time, so a
mutation test run attributes these tests to the functions they call.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from chunkspec import HeadingAwareChunker
from chunkspec.contract import (
    ContractViolation,
    Subject,
    check_all,
    run_check,
    sample_context,
    sample_documents,
    split_markdown_subject,
    split_section_subject,
)
from chunkspec.counters import WhitespaceCounter
from chunkspec.markdown import ChunkContext, Document, DocumentChunk

MARKDOWN = (
    "# Title\n\nIntro text.\n\n## Part\n\nBody one.\n\n### Deep\n\nDeeper.\n\n"
    "## Next\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\n# not a heading\n```\n"
)


def _long_paragraph_ok(text: str) -> None:
    """200 words ``word0``..``word199`` one space apart; every 7th (6, 13, ...) ends a sentence."""
    words = text.split(" ")
    assert len(words) == 200
    assert [w.rstrip(".") for w in words] == [f"word{i}" for i in range(200)]
    dotted = [i for i, w in enumerate(words) if w.endswith(".")]
    assert dotted == [6, 13, 20, 27, 34, 41, 48, 55, 62, 69, 76, 83, 90, 97, 104, 111, 118,
                      125, 132, 139, 146, 153, 160, 167, 174, 181, 188, 195]  # fmt: skip


def _blocks(document: Document) -> list[tuple[str, int, str, dict[str, Any]]]:
    return [(b.kind, b.level, b.text, dict(b.attributes)) for b in document.blocks]


def test_sample_documents_are_exactly_these() -> None:
    """CONTRACT-1..7: the samples users' chunkers are checked on, by name, id and source."""
    docs = sample_documents()
    assert list(docs) == ["empty", "blank", "markdown", "long", "headings-only", "text", "blocks"]
    for name, document in docs.items():
        assert document.document_id == name
    assert docs["empty"].source == ""
    assert docs["blank"].source == " \n\n\t\n"
    assert docs["markdown"].source == MARKDOWN
    assert docs["headings-only"].source == "# a\n## b\n### c\n## d\n# e\n"
    assert docs["text"].source == "First paragraph here.\n\nSecond one.\r\n\r\nThird."
    long_source = docs["long"].source
    assert long_source.startswith("# Long\n\n")
    assert long_source.endswith("\n")
    first, second = long_source[len("# Long\n\n") : -1].split("\n\n")
    assert first == second
    _long_paragraph_ok(first)


def test_sample_documents_exercise_what_they_claim() -> None:
    """Each sample has the structure it is there for (parsed, not by line prefixes)."""
    docs = sample_documents()
    # empty and whitespace-only input: no blocks, so no chunk may appear (CONTRACT-4)
    assert docs["empty"].blocks == ()
    assert docs["blank"].blocks == ()
    assert docs["blank"].source
    assert not docs["blank"].source.strip()
    # nested sections, a table and a fenced "# " line that is not a heading (MD-1, MD-9)
    assert _blocks(docs["markdown"]) == [
        ("heading", 1, "Title", {}),
        ("paragraph", 0, "Intro text.", {}),
        ("heading", 2, "Part", {}),
        ("paragraph", 0, "Body one.", {}),
        ("heading", 3, "Deep", {}),
        ("paragraph", 0, "Deeper.", {}),
        ("heading", 2, "Next", {}),
        ("table", 0, "| a | b |\n|---|---|\n| 1 | 2 |", {}),
        ("code", 0, "```\n# not a heading\n```", {}),
    ]
    # two paragraphs of 200 words, far over any small budget, with sentences to split on
    long_blocks = docs["long"].blocks
    assert [(b.kind, b.level) for b in long_blocks] == [
        ("heading", 1),
        ("paragraph", 0),
        ("paragraph", 0),
    ]
    assert long_blocks[0].text == "Long"
    _long_paragraph_ok(long_blocks[1].text)
    _long_paragraph_ok(long_blocks[2].text)
    # headings and nothing else: no body word to keep, parents on every level
    assert _blocks(docs["headings-only"]) == [
        ("heading", 1, "a", {}),
        ("heading", 2, "b", {}),
        ("heading", 3, "c", {}),
        ("heading", 2, "d", {}),
        ("heading", 1, "e", {}),
    ]
    # plain text with CRLF blank lines between paragraphs (MD-12)
    assert _blocks(docs["text"]) == [
        ("paragraph", 0, "First paragraph here.", {}),
        ("paragraph", 0, "Second one.", {}),
        ("paragraph", 0, "Third.", {}),
    ]
    # OCR-style blocks: a heading, attributes to keep, a blank region, a long region (MD-13)
    blocks = docs["blocks"]
    assert blocks.source.startswith("Scanned\n\nRegion one text.\n\n   \n\n")
    got = _blocks(blocks)
    assert got[:3] == [
        ("heading", 1, "Scanned", {"page": 1}),
        ("paragraph", 0, "Region one text.", {"page": 1, "bbox": [0, 0, 10, 10]}),
        ("paragraph", 0, "   ", {"page": 1}),
    ]
    assert got[3][:2] == ("paragraph", 0)
    assert got[3][3] == {"page": 2, "confidence": 0.91}
    _long_paragraph_ok(got[3][2])
    assert len(got) == 4


def test_sample_context_sets_every_field() -> None:
    """CONTRACT-3 is only visible with every field set (and not to the defaults)."""
    assert sample_context() == ChunkContext("tenant-7", "corpus-3", ("staff", "legal"))


def _dc(doc: str, n: int, text: str, start: int, end: int, kind: str) -> DocumentChunk:
    return DocumentChunk(
        f"{doc}:{n}",
        doc,
        n,
        None,
        text,
        start,
        end,
        (),
        {"kind": kind},
        "t",
        "c",
        ("a", "b"),
    )


CONTEXT = ("t", "c", ("a", "b"))


def test_split_section_subject_adapts_split_section() -> None:
    """The adapter: position = index, no parent, the context copied, offsets unknown (-1)."""
    subject = split_section_subject(2)
    assert subject.name == "split_section-2"
    assert subject.max_tokens == 2
    assert isinstance(subject.counter, WhitespaceCounter)
    document = sample_documents()["text"]
    got = list(subject.chunk(document, ChunkContext(*CONTEXT)))
    assert got == [
        _dc("text", 0, "First paragraph", -1, -1, "body"),
        _dc("text", 1, "here.", -1, -1, "body"),
        _dc("text", 2, "Second one.", -1, -1, "body"),
        _dc("text", 3, "Third.", -1, -1, "body"),
    ]
    # split_section gives one empty chunk for blank input (SPLIT-10): not a body chunk
    assert list(subject.chunk(sample_documents()["blank"], ChunkContext(*CONTEXT))) == []


def test_split_section_subject_exempts_only_unbreakable_chunks() -> None:
    """SPLIT-5: only a chunk with no separator at all may exceed the budget."""
    exempt = split_section_subject(1).exempt
    assert exempt(SimpleNamespace(text="unbreakable"))
    assert not exempt(SimpleNamespace(text="a b"))
    assert not exempt(SimpleNamespace(text="a\nb"))
    assert not exempt(SimpleNamespace(text="a\n\nb\nc d"))


def test_split_markdown_subject_adapts_split_markdown() -> None:
    """The adapter keeps split_markdown's offsets and kinds (text == source[start:end])."""
    subject = split_markdown_subject(6)
    assert subject.name == "split_markdown-6"
    assert subject.max_tokens == 6
    assert isinstance(subject.counter, WhitespaceCounter)
    assert split_markdown_subject(None).name == "split_markdown-None"
    assert split_markdown_subject(None).max_tokens is None
    document = sample_documents()["markdown"]
    got = list(subject.chunk(document, ChunkContext(*CONTEXT)))
    assert got == [
        _dc("markdown", 0, "Intro text.", 9, 20, "prose"),
        _dc("markdown", 1, "Body one.", 31, 40, "prose"),
        _dc("markdown", 2, "Deeper.", 52, 59, "prose"),
        _dc("markdown", 3, "| a | b |\n|---|---|\n| 1 | 2 |", 70, 99, "table"),
        _dc("markdown", 4, "```\n# not a heading\n```", 101, 124, "code"),
    ]
    assert all(
        isinstance(c, DocumentChunk) and c.text == document.source[c.start : c.end] for c in got
    )
    # the budget reaches split_markdown: 400 words in pieces of at most 6 (MD-10)
    long = list(subject.chunk(sample_documents()["long"], ChunkContext(*CONTEXT)))
    assert len(long) >= 400 // 6
    assert all(len(c.text.split()) <= 6 for c in long)


def test_split_markdown_subject_exempts_tables_code_and_lone_words() -> None:
    """MD-9/MD-10's exceptions to the budget, and nothing else."""
    exempt = split_markdown_subject(1).exempt

    def chunk(kind: str, text: str) -> SimpleNamespace:
        return SimpleNamespace(metadata={"kind": kind}, text=text)

    assert exempt(chunk("table", "| a | b |"))
    assert exempt(chunk("code", "x = 1"))
    assert exempt(chunk("prose", "word"))
    assert exempt(chunk("definition", "word"))
    assert not exempt(chunk("prose", "two words"))
    assert not exempt(chunk("definition", "two words"))
    assert not exempt(chunk("prose", "three small words"))


def test_plain_subject_exempts_nothing() -> None:
    """A Subject built directly holds every chunk to the budget, headings included."""
    heading = SimpleNamespace(text="a b", metadata={"kind": "heading"})
    subject = Subject("plain", lambda d, c: [], 1)
    assert subject.exempt(heading) is False
    assert repr(subject) == "Subject('plain')"


def test_of_chunker_exempts_headings_only() -> None:
    """HEAD-7: a chunker's heading chunks are not budgeted; other chunks are, even odd ones."""
    subject = Subject.of_chunker("h", HeadingAwareChunker(), max_tokens=1)
    assert subject.exempt(SimpleNamespace(metadata={"kind": "heading"}))
    assert not subject.exempt(SimpleNamespace(metadata={"kind": "body"}))
    assert not subject.exempt(SimpleNamespace(metadata=None))
    assert not subject.exempt(SimpleNamespace(text="no metadata at all"))


def test_of_chunker_uses_the_given_counter() -> None:
    """CONTRACT-6 counts with the subject's counter: the given one, else WhitespaceCounter."""

    class Characters:
        def count(self, text: str) -> int:
            return len(text)

    counter = Characters()
    chunker = HeadingAwareChunker()
    assert Subject.of_chunker("c", chunker, max_tokens=3, counter=counter).counter is counter
    assert isinstance(Subject.of_chunker("w", chunker, max_tokens=3).counter, WhitespaceCounter)
    assert Subject.of_chunker("w", chunker, max_tokens=3).max_tokens == 3
    assert Subject.of_chunker("w", chunker).max_tokens is None
    assert Subject.of_chunker("w", chunker).name == "w"


def test_budget_check_holds_chunks_without_metadata() -> None:
    """A chunker whose chunks have no ``metadata`` gets a violation, not an AttributeError."""

    class Bare:
        def chunk(self, document: Document, context: ChunkContext | None = None) -> list[Any]:
            return [
                SimpleNamespace(
                    id="d:0",
                    position=0,
                    parent_id=None,
                    text="too many words",
                    document_id=document.document_id,
                    tenant_id="",
                    corpus_id="",
                    acl_labels=(),
                )
            ]

    subject = Subject.of_chunker("bare", Bare(), max_tokens=2)
    document = sample_documents()["text"]
    with pytest.raises(ContractViolation, match=r"^CONTRACT-6: bare: d:0 has 3 > 2 tokens$"):
        run_check(subject, "budget", document)


class _Recorder:
    """A conforming chunker (HeadingAwareChunker) that records each context it is given,
    and drops every chunk of a document whose id is ``lossy``."""

    def __init__(self) -> None:
        self.contexts: list[ChunkContext | None] = []
        self.documents: list[str] = []

    def chunk(self, document: Document, context: ChunkContext | None = None) -> Sequence[Any]:
        self.contexts.append(context)
        self.documents.append(document.document_id)
        if document.document_id == "lossy":
            return []
        return HeadingAwareChunker(16, 4).chunk(document, context)


def test_check_all_runs_the_given_documents_with_the_given_context() -> None:
    """check_all(subject, documents, context) checks those documents under that context."""
    from chunkspec import parse_markdown

    recorder = _Recorder()
    subject = Subject.of_chunker("r", recorder, max_tokens=16)
    context = ChunkContext("t9", "c9", ("x",))
    check_all(subject, [parse_markdown("doc", "# H\n\none two\n")], context)
    assert set(recorder.documents) == {"doc"}
    assert recorder.contexts
    assert all(c == context for c in recorder.contexts)
    with pytest.raises(ContractViolation, match=r"^CONTRACT-5: r: "):
        check_all(subject, [parse_markdown("lossy", "one two\n")], context)


def test_check_all_defaults_to_the_samples_and_sample_context() -> None:
    """Without documents, every sample is checked, under ``sample_context()``."""
    recorder = _Recorder()
    check_all(Subject.of_chunker("r", recorder, max_tokens=16))
    assert set(recorder.documents) == set(sample_documents())
    assert all(c == sample_context() for c in recorder.contexts)
