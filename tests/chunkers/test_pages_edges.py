"""Page-chunker edges that need a counter the goldens cannot name (PAGE-10, PAGE-15).

A tokenizer that drops characters can leave a document with no tokens at all; PAGE-10 makes
that one window over the whole text, and PAGE-15 still wants ``token_count ==
counter.count(text)``.
"""

from __future__ import annotations

import tokenizers
from tokenizers import models, pre_tokenizers

from chunkspec import chunk_pages
from chunkspec.counters import HuggingFaceCounter


def _dropping() -> HuggingFaceCounter:
    """A BPE tokenizer that knows only "a" and has no unknown token: it drops the rest."""
    tokenizer = tokenizers.Tokenizer(models.BPE(vocab={"a": 0}, merges=[]))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    return HuggingFaceCounter(tokenizer)


def test_document_without_tokens_is_one_window() -> None:
    """PAGE-10, PAGE-6, PAGE-11, PAGE-15: no tokens at all gives one chunk over all the text,
    stripped, spanning its pages, counting zero tokens."""
    counter = _dropping()
    assert counter.token_spans(" xyz \fb") == []
    (chunk,) = chunk_pages([" xyz ", "b"], 2, 0, counter)
    assert (chunk.text, chunk.char_start, chunk.char_end) == ("xyz \fb", 1, 7)
    assert (chunk.page_start, chunk.page_end, chunk.token_count, chunk.oversized) == (
        1,
        2,
        0,
        False,
    )
    (whole,) = chunk_pages(["xyz"], 2, 0, counter)
    assert (whole.text, whole.char_start, whole.char_end) == ("xyz", 0, 3)
    assert chunk_pages([" ", "  "], 2, 0, counter) == []  # all whitespace: no chunk (PAGE-5)


class _SilentAfterSpace:
    """A context-dependent counter: a text that starts with whitespace has no tokens,
    any other text has its whitespace-separated words (COUNT-2 and COUNT-3 hold for each)."""

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Return the words' spans, or none when ``text`` starts with whitespace."""
        if text[:1].isspace():
            return []
        spans: list[tuple[int, int]] = []
        start = None
        for i, c in enumerate(text + " "):
            if c.isspace() and start is not None:
                spans.append((start, i))
                start = None
            elif not c.isspace() and start is None:
                start = i
        return spans

    def count(self, text: str) -> int:
        """Return ``len(token_spans(text))``."""
        return len(self.token_spans(text))


def test_no_token_window_counts_its_text() -> None:
    """PAGE-15, PAGE-7: the one window of a document without tokens reports the count of its
    (stripped) text, and is oversized only when that count is over the budget."""
    counter = _SilentAfterSpace()
    (fits,) = chunk_pages([" a"], 1, 0, counter)
    assert (fits.text, fits.token_count, fits.oversized) == ("a", 1, False)
    (over,) = chunk_pages([" a b"], 1, 0, counter)
    assert (over.text, over.token_count, over.oversized) == ("a b", 2, True)


def test_first_window_starts_at_zero() -> None:
    """PAGE-5: the first window covers the text from character 0, even when the first token
    starts later (here the tokenizer dropped 'xyz')."""
    counter = _dropping()
    assert counter.token_spans("xyz a") == [(4, 5)]
    (chunk,) = chunk_pages(["xyz a"], 2, 0, counter)
    assert (chunk.text, chunk.char_start, chunk.char_end, chunk.token_count) == ("xyz a", 0, 5, 1)
