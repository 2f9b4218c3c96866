"""Large and degenerate inputs at sizes the gate can afford (docs/reliability.md).

The full sizes (100 MB of text, 1M pieces) are measured by benchmarks/bench_pathological.py;
these check the results are right at a tenth to a fifth of that, in about a second each.
"""

from __future__ import annotations

import chunkspec
import chunkspec.core
from chunkspec import Chunk, assemble, hash_text, split_section


def test_ten_megabytes_of_prose() -> None:
    """10 MB of paragraphs: every word kept in order, every chunk within the budget."""
    paragraph = "\n".join(["the quick brown fox jumps over lazy dogs"] * 5)
    text = "\n\n".join([paragraph] * 220_000)
    assert len(text) > 10_000_000
    chunks = split_section("d", "T", text, 512)
    assert sum(c.tokens for c in chunks) == 8 * 5 * 220_000
    assert all(c.tokens <= 512 for c in chunks)
    # 40-token paragraphs pack 12 to a 512-token chunk (480 tokens), joined by "\n\n".
    assert chunks[0].text == "\n\n".join([paragraph] * 12)
    assert len(chunks) == -(-220_000 // 12)


def test_one_word_longer_than_a_megabyte() -> None:
    """SPLIT-5: a 2 MB word is one unbreakable chunk, over any budget."""
    word = "x" * 2_000_000
    assert split_section("d", "T", f" {word}\n", 1) == [
        Chunk("d:0", "d", "T", word, 1, hash_text(word))
    ]


def test_two_hundred_thousand_one_word_paragraphs() -> None:
    """200,000 one-word paragraphs at max_tokens=1 give 200,000 chunks, ids in order."""
    n = 200_000
    chunks = split_section("d", "T", "\n\n".join(f"w{i}" for i in range(n)), 1)
    assert len(chunks) == n
    assert [c.text for c in chunks[:3]] == ["w0", "w1", "w2"]
    assert chunks[-1].id == f"d:{n - 1}"
    assert chunks[-1].text == f"w{n - 1}"


def test_two_hundred_thousand_chunks_into_assemble() -> None:
    """200,000 one-token chunks: all fit, best score first, ties by id."""
    n = 200_000
    chunks = [Chunk(f"{i:06d}", "d", "T", f"w{i}", 1, f"h{i}", i % 3) for i in range(n)]
    result = assemble(chunks, n, min_score=0)
    assert result is not None
    context, ids = result
    assert len(ids) == n
    assert ids[:2] == ["000002", "000005"]  # score 2 first, ids ascending
    assert context.count("\n") == 2 * n - 1
    assert assemble(chunks, 10, min_score=0) is not None


def test_a_million_word_count() -> None:
    """count_tokens and words at a million words agree."""
    text = chunkspec.core.words(1_000_000)
    assert chunkspec.count_tokens(text) == 1_000_000
