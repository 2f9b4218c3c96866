"""Properties of the sentence splitter (rules SENT-1 to SENT-4)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunkspec import split_sentences
from chunkspec._text._sentences import sentence_spans
from properties.models import model_sentences
from properties.strategies import script_sentence_text, sentence_text


@given(sentence_text)
def test_matches_model(text: str) -> None:
    """SENT-1, SENT-3: the scan equals the word-level model (a sentence ends at a word that,
    closers stripped, ends in a terminator; no abbreviation exceptions)."""
    assert split_sentences(text) == model_sentences(text)


@given(sentence_text)
def test_spans_cover_every_word(text: str) -> None:
    """SENT-2: spans are stripped, non-blank, in order, disjoint, and hold every
    non-whitespace character."""
    spans = sentence_spans(text)
    previous = 0
    for start, end in spans:
        assert previous <= start < end
        assert text[start:end] == text[start:end].strip() != ""
        previous = end
    # SENT-6 cuts inside a whitespace word, so the words of the spans join to the text's.
    assert "".join("".join(text[s:e].split()) for s, e in spans) == "".join(text.split())


@given(st.sampled_from(["!", "a.", ".)", ". ", '?!"', "x"]), st.integers(0, 3000))
def test_adversarial_repetitions(unit: str, n: int) -> None:
    """SENT-4: long runs of the inputs that make a backtracking regex quadratic give the
    model's answer (the time is measured in benchmarks/bench_markdown.py)."""
    text = unit * n
    assert split_sentences(text) == model_sentences(text)


@given(script_sentence_text)
def test_every_script_matches_model(text: str) -> None:
    """SENT-5, SENT-6: Arabic, Urdu, Devanagari and full-width marks end sentences; a run
    holding 。！？｡ ends one with no whitespace after it (the model cuts words there)."""
    assert split_sentences(text) == model_sentences(text)
    assert "".join("".join(s.split()) for s in split_sentences(text)) == "".join(text.split())


@given(st.lists(st.sampled_from(["中", "文", "；", ";", "、", "，", "：", "…", "……"]), max_size=30))
def test_clause_marks_end_no_sentence(pieces: list[str]) -> None:
    """SENT-7: clause marks (；;、，：) and an ellipsis with no whitespace after it end no
    sentence: a text of ideographs and those marks is one sentence."""
    text = "".join(pieces)
    assert split_sentences(text) == ([text] if text else [])
