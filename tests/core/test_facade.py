"""The façade: about two dozen top-level names, the rest in public home modules.

A name that left the top level is not there at all: it is imported from its home module.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import chunkspec

#: Every name ``chunkspec`` exported before the public home modules existed.
FORMER_NAMES = [
    "INPUT_FORMATS",
    "PAGE_SEPARATOR",
    "RECORD_FIELDS",
    "RECORD_KINDS",
    "SEPARATORS",
    "STRATEGY_NAMES",
    "WHITESPACE",
    "ArgumentTypeError",
    "ArgumentValueError",
    "Block",
    "CharEstimateCounter",
    "Chunk",
    "ChunkContext",
    "ChunkOptions",
    "ChunkRecord",
    "Chunker",
    "ChunkspecError",
    "Corpus",
    "CorpusDocument",
    "CorpusError",
    "Document",
    "DocumentChunk",
    "EvalCell",
    "EvalReport",
    "GoldSpan",
    "HeadingAwareChunker",
    "HuggingFaceCounter",
    "InputError",
    "LabelledQuery",
    "MarkdownChunk",
    "Page",
    "PageChunk",
    "PageChunker",
    "PdfError",
    "Retriever",
    "Score",
    "SectionSpan",
    "SourceChunk",
    "SourceDocument",
    "SpanQuery",
    "StrategyUnavailable",
    "TiktokenCounter",
    "TokenCounter",
    "TokenSpanCounter",
    "TokenWindow",
    "WhitespaceCounter",
    "assemble",
    "chunk",
    "chunk_document",
    "chunk_pages",
    "compare",
    "count_tokens",
    "counter_from_name",
    "counter_name",
    "default_overlap",
    "document_from_blocks",
    "document_from_bytes",
    "document_from_text",
    "evaluate",
    "hash_text",
    "join_pages",
    "load_corpus",
    "mrr",
    "parse_markdown",
    "parse_text",
    "read_document",
    "read_pdf_pages",
    "recall_at_k",
    "record_json_schema",
    "render",
    "render_title",
    "resolve_counter",
    "split_markdown",
    "split_section",
    "split_sentences",
    "token_windows",
    "words",
]

#: Names added to the top level since the public home modules exist (each also in its home).
ADDED_NAMES = ["pack_records"]

#: Former names that are public nowhere: ``counter_from_name`` is ``resolve_counter`` given
#: a name, so the one route is ``resolve_counter``.
REMOVED = ["counter_from_name"]

HOMES = ("core", "counters", "evaluation", "markdown", "pages", "records", "windows")
MOVED = sorted(set(FORMER_NAMES) - set(chunkspec.__all__) - set(REMOVED))


def test_the_top_level_is_small_and_sorted() -> None:
    assert 20 <= len(chunkspec.__all__) <= 25
    assert set(chunkspec.__all__) <= set(FORMER_NAMES) | set(ADDED_NAMES)


def test_kept_names_resolve_without_a_warning() -> None:
    for name in chunkspec.__all__:
        assert getattr(chunkspec, name) is not None
    assert isinstance(chunkspec.__version__, str)


def test_dir_lists_only_the_kept_names() -> None:
    assert dir(chunkspec) == sorted([*chunkspec.__all__, "__version__"])


@pytest.mark.parametrize("name", MOVED)
def test_a_moved_name_lives_in_one_home_only(name: str) -> None:
    homes = [h for h in HOMES if name in importlib.import_module(f"chunkspec.{h}").__all__]
    assert len(homes) == 1, (name, homes)
    assert not hasattr(chunkspec, name)
    with pytest.raises(AttributeError, match=f"no attribute {name!r}"):
        getattr(chunkspec, name)


@pytest.mark.parametrize("name", REMOVED)
def test_a_removed_name_is_in_no_public_module(name: str) -> None:
    for home in HOMES:
        assert name not in importlib.import_module(f"chunkspec.{home}").__all__, home
    assert not hasattr(chunkspec, name)


def test_from_import_of_a_moved_name_fails() -> None:
    with pytest.raises(ImportError, match="cannot import name 'Block'"):
        from chunkspec import Block  # type: ignore[attr-defined]  # noqa: F401


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        chunkspec.nothing_here  # type: ignore[attr-defined]  # noqa: B018


@pytest.mark.parametrize("home", HOMES)
def test_home_modules_export_names_that_exist(home: str) -> None:
    module = importlib.import_module(f"chunkspec.{home}")
    assert module.__all__
    assert all(hasattr(module, n) for n in module.__all__)


def test_the_facade_imports_no_home_module_and_no_extra() -> None:
    """``import chunkspec`` loads neither the evaluation harness nor an optional extra."""
    code = (
        "import sys, chunkspec; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pyarrow', 'ray', 'pypdf', 'tiktoken', 'tokenizers', 'hypothesis', 'numpy') "
        "or m.startswith(('chunkspec._evaluation', 'chunkspec._conformance', 'chunkspec._cli'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
