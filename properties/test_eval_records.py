"""The evaluation chunks into chunk records, indexes them by a literal rule (EVAL-41) and
caches dense embeddings as a memo (EVAL-42)."""

from __future__ import annotations

import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkspec import ChunkRecord, SourceDocument, chunk_document
from chunkspec._evaluation._embed_cache import CACHE_VARIABLE, cached_encode
from chunkspec._evaluation._strategy_names import indexed_text, resolve

from .strategies import eval_text, markdown_documents

#: (evaluation name, chunk_document strategy, max_tokens, overlap, trimmed to its words).
_NAMES = st.sampled_from(
    [
        ("recursive-3", "recursive", 3, None, False),
        ("fixed-3", "window", 3, 0, True),
        ("window-4-1", "window", 4, 1, True),
        ("document", "window", 2**53 - 1, 0, True),
        ("structural", "structural", 2**53 - 1, None, False),
        ("structural-5", "structural", 5, None, False),
        ("heading-aware-6-2", "heading", 6, 2, False),
        ("structural-5+merge", "structural", 5, None, False),
        ("heading-aware-6-2+merge", "heading", 6, 2, False),
    ]
)


def _indexed_model(record: ChunkRecord, family: str) -> str:
    """EVAL-41, literally: the heading trail, a blank line and the text, for the two
    heading-aware families when the trail is not empty (a path of one blank title is); the
    text alone otherwise."""
    trail = " > ".join(record.heading_path)
    if family in ("structural", "heading") and trail != "":
        return trail + "\n\n" + record.text
    return record.text


def _trim_model(record: ChunkRecord) -> tuple[int, int, str]:
    """EVAL-17: the record's region cut to its words: whitespace is what ``str.strip`` cuts."""
    lead = len(record.text) - len(record.text.lstrip())
    text = record.text.strip()
    return record.start + lead, record.start + lead + len(text), text


# Gate budget: each example parses Markdown and chunks it twice (about 10 ms on a loaded
# core); the adapters' own properties (test_eval_strategies, test_eval_harness) run at the
# full count, so 200 examples of the record equality suffice.
@settings(max_examples=200)
@given(st.one_of(markdown_documents(), eval_text), _NAMES)
def test_strategies_are_chunk_document_records(source: str, name: tuple[object, ...]) -> None:
    """EVAL-41: every strategy's chunks are chunk_document's records (the window families and
    the document baseline trimmed to their words), indexed by the literal rule."""
    label, family, size, overlap, trimmed = name
    assert isinstance(label, str)
    assert isinstance(family, str)
    assert isinstance(size, int)
    got = resolve(label)("d", "T", source)
    # EVAL-18: the names' budgets are whitespace words (SCRIPT-35's default is subword)
    options: dict[str, object] = {"max_tokens": size, "counter": "whitespace"}
    if overlap is not None:
        options["overlap_tokens"] = overlap
    if family in ("structural", "heading") and not label.endswith("+merge"):
        options["min_tokens"] = 0  # EVAL-19: the seed chunkers' own chunks; +merge: EVAL-44
    want = chunk_document(SourceDocument("d", source, "markdown", "T"), family, **options)  # type: ignore[arg-type]
    assert len(got) == len(want)
    for mine, theirs in zip(got, want, strict=True):
        assert isinstance(mine, ChunkRecord)
        if trimmed:
            assert (mine.start, mine.end, mine.text) == _trim_model(theirs)
            assert mine.text == source[mine.start : mine.end]
            assert (mine.id, mine.tokens, mine.strategy) == (
                theirs.id,
                theirs.tokens,
                theirs.strategy,
            )
        else:
            assert mine == theirs
        assert indexed_text(mine) == _indexed_model(mine, family)
    assert [r.id for r in got] == [f"d:{n}" for n in range(len(got))]


@settings(max_examples=30)  # each example opens a SQLite file; 30 runs of up to 3 calls
@given(st.lists(st.lists(st.sampled_from(["a", "b", "cd", "é", ""]), max_size=6), max_size=3))
def test_embedding_cache_is_a_memo(runs: list[list[str]]) -> None:
    """EVAL-42: through the cache, each call returns what the encoder gives each text, in
    order, and the encoder sees each distinct text once over all calls (model: a dict)."""
    seen: list[str] = []

    def encode(batch: list[str]) -> list[list[float]]:
        seen.extend(batch)
        return [[float(len(t)), float(sum(map(ord, t)))] for t in batch]

    memo: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        previous = os.environ.get(CACHE_VARIABLE)
        os.environ[CACHE_VARIABLE] = directory
        try:
            for texts in runs:
                got = cached_encode(texts, encode, "m")
                for t in texts:
                    memo.setdefault(t, [float(len(t)), float(sum(map(ord, t)))])
                assert [list(row) for row in got] == [memo[t] for t in texts]
        finally:
            if previous is None:
                del os.environ[CACHE_VARIABLE]
            else:
                os.environ[CACHE_VARIABLE] = previous
    assert sorted(seen) == sorted(memo)
