"""HEAD-7 with counters that are not the whitespace counter: a word over the budget is split
by characters into the longest runs that fit, and the pieces pack back by the budget."""

from __future__ import annotations

import math

from chunkspec import HeadingAwareChunker
from chunkspec.markdown import parse_text


class Characters:
    """One token a character (not additive over whitespace)."""

    def count(self, text: str) -> int:
        return len(text)


class Pairs:
    """One token per two characters, rounded up: ``count("ab") < count("a") + count("b")``."""

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 2)


class Heavy:
    """Two tokens a character: every single character is over a budget of 1."""

    def count(self, text: str) -> int:
        return 2 * len(text)


def _chunks(text: str, max_tokens: int, counter: object) -> list[tuple[str, int, int]]:
    document = parse_text("d", text)
    chunker = HeadingAwareChunker(max_tokens, 0, counter=counter)  # type: ignore[arg-type]
    chunks = chunker.chunk(document)
    for c in chunks:
        assert c.text == text[c.start : c.end]
    return [(c.text, c.start, c.end) for c in chunks]


def test_oversized_word_pieces_end_inside_the_word() -> None:
    """HEAD-7: "abcde" over 4 characters gives "abcd" and "e"; "e" does not take the space."""
    assert _chunks("abcde fgh", 4, Characters()) == [
        ("abcd", 0, 4),
        ("e", 4, 5),
        ("fgh", 6, 9),
    ]


def test_last_piece_of_a_word_packs_with_what_follows() -> None:
    """HEAD-5: the piece "e" (1 token) and the word "f" share a chunk ("e f" is 3 <= 4)."""
    assert _chunks("abcde f ghijkl", 4, Characters()) == [
        ("abcd", 0, 4),
        ("e f", 4, 7),
        ("ghij", 8, 12),
        ("kl", 12, 14),
    ]


def test_pieces_are_the_longest_runs_that_fit() -> None:
    """HEAD-7: with two characters a token and a budget of 1, each piece is two characters
    (single characters would each count 1 and never pack: 1 + 1 > 1)."""
    assert _chunks("abcd efgh", 1, Pairs()) == [
        ("ab", 0, 2),
        ("cd", 2, 4),
        ("ef", 5, 7),
        ("gh", 7, 9),
    ]


def test_a_character_over_the_budget_is_its_own_chunk() -> None:
    """HEAD-7's one exception: a single character that alone exceeds the budget."""
    assert _chunks("ab c", 1, Heavy()) == [("a", 0, 1), ("b", 1, 2), ("c", 3, 4)]


def test_defaults_and_repr() -> None:
    """HEAD-5, HEAD-6, HEAD-12: budget 512, overlap 64, the whitespace counter."""
    from chunkspec.counters import WhitespaceCounter

    chunker = HeadingAwareChunker()
    assert (chunker.max_tokens, chunker.overlap_tokens) == (512, 64)
    assert isinstance(chunker.counter, WhitespaceCounter)
    assert repr(chunker) == (
        "HeadingAwareChunker(max_tokens=512, overlap_tokens=64, counter=WhitespaceCounter())"
    )
    counter = Characters()
    given = HeadingAwareChunker(8, 2, counter=counter)
    assert (given.max_tokens, given.overlap_tokens, given.counter) == (8, 2, counter)


def test_overlap_with_a_counter_that_is_not_additive() -> None:
    """HEAD-6 with a character counter: the tail is the longest run of whole words of the
    flushed chunk counting <= overlap_tokens whose chunk with the next unit stays <= max."""
    text = "aa bb cc dd\n\nzz"
    document = parse_text("d", text)
    chunks = HeadingAwareChunker(8, 2, counter=Characters()).chunk(document)
    assert [(c.text, c.start, c.end) for c in chunks] == [
        ("aa bb cc", 0, 8),  # "aa bb cc dd" is 11 > 8: split by words
        ("cc dd", 6, 11),  # tail "cc" (2 <= 2); "bb cc" would be 5 > 2
        ("dd\n\nzz", 9, 15),  # "cc dd\n\nzz" is 9 > 8; tail "dd" (2), "dd\n\nzz" is 6 <= 8
    ]


def test_overlap_shrinks_to_keep_the_budget() -> None:
    """HEAD-6: no tail fits when tail plus the next unit would exceed max_tokens."""
    document = parse_text("d", "aa bb cc dd")
    chunks = HeadingAwareChunker(5, 2, counter=Characters()).chunk(document)
    assert [c.text for c in chunks] == ["aa bb", "cc dd"]  # "bb cc dd" is 8 > 5


def test_seeded_chunk_is_counted_exactly() -> None:
    """HEAD-5, HEAD-6: after the tail "cc" seeds the buffer, "cc dd" counts 5, so the next
    block joins it ("cc dd\\n\\nz" is exactly 8 <= 8)."""
    document = parse_text("d", "aa bb cc dd\n\nz")
    chunks = HeadingAwareChunker(8, 2, counter=Characters()).chunk(document)
    assert [(c.text, c.start, c.end) for c in chunks] == [
        ("aa bb cc", 0, 8),
        ("cc dd\n\nz", 6, 14),
    ]


def test_overlap_may_fill_the_budget_exactly() -> None:
    """HEAD-6: tail plus next unit may equal max_tokens ("bb cc" is 5 <= 5)."""
    document = parse_text("d", "aa bb cc")
    chunks = HeadingAwareChunker(5, 2, counter=Characters()).chunk(document)
    assert [c.text for c in chunks] == ["aa bb", "bb cc"]


class Distinct:
    """Counts distinct words: far from additive ("x y\\n\\ny x y" is 2 tokens)."""

    def count(self, text: str) -> int:
        return len(set(text.split()))


def test_seeded_buffer_counted_by_the_counter_not_by_words() -> None:
    """HEAD-5, HEAD-6: after "z x y" is flushed (adding "y x y w" makes 4 distinct words),
    the tail "x y" seeds "x y\n\ny x y w": 3 distinct words, within 3, where counting the
    tail's words plus the unit (2 + 3) would have dropped the overlap. Likewise "y w" seeds
    "z"."""
    document = parse_text("d", "z x y\n\ny x y w\n\nz")
    chunks = HeadingAwareChunker(3, 2, counter=Distinct()).chunk(document)
    assert [c.text for c in chunks] == ["z x y", "x y\n\ny x y w", "y w\n\nz"]


def test_buffer_recounted_even_when_the_parts_sum_over_the_budget() -> None:
    """HEAD-5: "accumulated while counter.count(buffer) <= max_tokens", literally: with a
    counter whose join counts less than its parts, "x x" + "x" sums to 2 > 1 distinct-word
    budget yet counts 1, so they share a chunk; the sum of the parts must not decide."""
    document = parse_text("d", "z y x x\n\nx y y z")
    chunks = HeadingAwareChunker(1, 0, counter=Distinct()).chunk(document)
    assert [c.text for c in chunks] == ["z", "y", "x x\n\nx", "y y", "z"]
    assert all(Distinct().count(c.text) <= 1 for c in chunks)
