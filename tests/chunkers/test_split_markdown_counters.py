"""``split_markdown`` with counters that are not the whitespace counter (MD-10, MD-11).

The whitespace count of blocks joined by a blank line is the sum of their counts; other
counters' need not be, so the packer re-measures joined runs. These cases are worked out by
hand with two small counters; each pins a branch that only a non-additive counter takes.
"""

from __future__ import annotations

from chunkspec import split_markdown


class Breaks:
    """Words plus one token per blank-line break: joins count more than their parts."""

    def count(self, text: str) -> int:
        return len(text.split()) + text.count("\n\n")


class Characters:
    """One token per character."""

    def count(self, text: str) -> int:
        return len(text)


def _texts(source: str, budget: int, counter: object) -> list[str]:
    chunks = split_markdown("d", source, budget, counter=counter)  # type: ignore[arg-type]
    return [c.text for c in chunks]


def test_longest_run_that_really_fits_is_kept() -> None:
    """MD-10: "a", "b", "c" sum to 3 <= 3, but joined they count 3 + 2 breaks = 5; the
    longest run that fits is "a\\n\\nb" (2 + 1 = 3), not a shorter one."""
    assert _texts("a\n\nb\n\nc", 3, Breaks()) == ["a\n\nb", "c"]


def test_runs_are_measured_to_their_own_last_block() -> None:
    """MD-10: four one-word paragraphs, budget 4: "a\\n\\nb\\n\\nc" counts 5, so the first
    chunk stops at "b" (3), and "c\\n\\nd" (3) follows; no chunk is over the budget."""
    texts = _texts("a\n\nb\n\nc\n\nd", 4, Breaks())
    assert texts == ["a\n\nb", "c\n\nd"]
    assert all(Breaks().count(t) <= 4 for t in texts)


def test_oversized_block_measured_by_the_counter() -> None:
    """MD-10: one paragraph of 4 words (within a budget of 5 words) is 11 characters,
    over a budget of 5 characters: it is packed by words into "ab cd" and "ef gh"."""
    assert _texts("ab cd\nef gh", 5, Characters()) == ["ab cd", "ef gh"]
