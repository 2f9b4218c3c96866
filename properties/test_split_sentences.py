"""Properties of the sentence splitter (rules SENT-1 to SENT-4)."""

from __future__ import annotations

from hypothesis import given

from chunkspec import split_sentences
from chunkspec._sentences import sentence_spans
from properties.models import model_sentences
from properties.strategies import sentence_text


@given(sentence_text)
def test_matches_model(text: str) -> None:
    """SENT-1: the scan equals the word-level model (a sentence ends at a word that, closers
    stripped, ends in a terminator)."""
    assert split_sentences(text) == model_sentences(text)


@given(sentence_text)
def test_spans_cover_every_word(text: str) -> None:
    """SENT-2: spans are stripped, non-blank, in order, disjoint, and hold every word."""
    spans = sentence_spans(text)
    previous = 0
    for start, end in spans:
        assert previous <= start < end
        assert text[start:end] == text[start:end].strip() != ""
        previous = end
    assert [w for s, e in spans for w in text[s:e].split()] == text.split()
