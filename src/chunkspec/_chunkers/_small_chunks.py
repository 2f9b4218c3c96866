"""No crumbs: merge heading-only and small chunks with their section's neighbours (SIZE rules).

The retrieval strategies (``heading``, ``structural``) hand their seed chunker's spans here
when ``min_tokens`` is above 0. Two passes over the spans, in order:

1. forward (SIZE-3): a run that is *open* (only headings, or fewer than ``min_tokens``
   tokens) takes the next span while that span *joins* the run and the merged span fits
   ``max_tokens``;
2. backward (SIZE-4): a run still open after pass 1 is merged into the run before it when
   it joins that run and the result fits, unless it ends with a heading whose body is in
   the next run (it stays its children's parent).

A merged span runs from its first span's start to its last span's end, with its first
span's prefix and heading path, so ``text == prefix + source[start:end]`` stays exact
(SIZE-6). ``joins`` and the merged kind are the strategy's (SIZE-5).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .._core._units import unit_count
from .._counters._builtin import TokenCounter, UnicodeCounter, WhitespaceCounter
from ._span import Span, embedded

if TYPE_CHECKING:
    from ._options import ChunkOptions

__all__ = ["Measure", "grow_of", "measure_of", "merge_document", "merge_small"]

#: ``(start, end, prefix, heading_path) -> tokens`` as the record counts them (SIZE-8).
Measure = Callable[[int, int, str, tuple[str, ...]], int]


def measure_of(source: str, counter: TokenCounter, trail: bool) -> Measure:
    """The tokens of a span's record text, or of its embedded text when ``trail`` (SIZE-8)."""

    # The whitespace counter's count without its argument check: the text is the source's.
    count = (
        _words
        if type(counter) is WhitespaceCounter
        else unit_count
        if type(counter) is UnicodeCounter
        else counter.count
    )

    def measure(start: int, end: int, prefix: str, path: tuple[str, ...]) -> int:
        text = prefix + source[start:end] if prefix else source[start:end]
        return count(embedded(path, text) if trail else text)

    return measure


def grow_of(source: str, counter: TokenCounter) -> Callable[[int, int], int] | None:
    """``(a, b) -> tokens of source[a:b]`` for a counter whose tokens never hold or cross
    whitespace (the whitespace counter, TOK-1; the unicode counter, SCRIPT-3), else None."""
    if type(counter) is WhitespaceCounter:
        return lambda a, b: len(source[a:b].split())
    if type(counter) is UnicodeCounter:
        return lambda a, b: unit_count(source[a:b])
    return None


def _words(text: str) -> int:
    """``WhitespaceCounter().count(text)`` for a ``str`` known to be one (TOK-1)."""
    return len(text.split())


def merge_small(
    spans: Sequence[Span],
    measure: Measure,
    min_tokens: int,
    max_tokens: int,
    joins: Callable[[list[int], int], bool],
    kind_of: Callable[[list[int], list[int]], str],
    glued: Callable[[int], bool] = lambda k: False,
    source: str = "",
    grow: Callable[[int, int], int] | None = None,
    counted: bool = False,
    whole: Callable[[int], bool] = lambda k: False,
) -> list[tuple[list[int], Span]]:
    """Return the merged runs of ``spans``: each run's span indexes and its merged span.

    ``joins(run, k)``: span ``k`` belongs to the section(s) of the spans ``run`` holds;
    ``kind_of(run, tokens)``: the merged span's kind, given each span's own tokens;
    ``glued(k)``: span ``k + 1`` belongs to span ``k``'s own section (``k`` is a heading
    and ``k + 1`` what it introduces): a run takes both or neither, and never ends at ``k``
    by a merge.
    Each merged span's ``heading_path`` is its first span's; ``parent_id`` is left for the
    caller to map (SIZE-7). ``grow(a, b)``, when given, is the tokens of ``source[a:b]``
    under an additive counter (whitespace words): a run grows by adding them when a blank
    separates the two parts, instead of counting the whole run again. ``counted``: the
    measure is the count of the merged span's own text (no trail, SIZE-8), so each merged
    span carries it as its ``tokens`` (RECORD-14) and the record loop does not count again.
    ``whole(k)``: span ``k`` is a table or code block kept whole (SIZE-11): over
    ``max_tokens`` alone, it is taken by a run of headings that it is the first child of.
    """
    n = len(spans)
    alone = [
        s.tokens
        if counted and s.tokens is not None  # the chunker's count of the span's own text
        else measure(s.start, s.end, s.prefix, s.heading_path or ())
        for s in spans
    ]

    heading = [s.kind == "heading" for s in spans]

    def is_open(run: list[int], tokens: int) -> bool:
        return tokens < min_tokens or all(heading[i] for i in run)

    def joined(run: list[int], last: int, tokens: int) -> int:
        """The tokens of the run's span grown to span ``last``'s end (``tokens`` now)."""
        end, to = spans[run[-1]].end, spans[last].end
        if grow is not None and (source[end - 1].isspace() or source[end : end + 1].isspace()):
            return tokens + grow(end, to)  # whitespace counts add across a blank
        first = spans[run[0]]
        return measure(first.start, to, first.prefix, first.heading_path or ())

    def group(k: int) -> int:
        """One past the last span that must come with span ``k``: a heading and the span
        it introduces, through a chain of headings (SIZE-3)."""
        while k + 1 < n and glued(k):
            k += 1
        return k + 1

    runs: list[tuple[list[int], int]] = []
    i = 0
    while i < n:  # pass 1, forward (SIZE-3)
        run, tokens = [i], alone[i]
        k = i + 1
        while k < n and is_open(run, tokens) and joins(run, k):
            stop = group(k)
            merged = joined(run, stop - 1, tokens)
            if merged > max_tokens and not (
                # SIZE-11: headings and the oversized block they introduce
                all(heading[i] for i in run) and whole(stop - 1) and alone[stop - 1] > max_tokens
            ):
                break
            run.extend(range(k, stop))
            tokens = merged
            k = stop
        runs.append((run, tokens))
        i = k
    out: list[tuple[list[int], int]] = []
    for run, tokens in runs:  # pass 2, backward (SIZE-4)
        if (
            out
            and is_open(run, tokens)
            and joins(out[-1][0], run[0])
            and not glued(run[-1])
            and (merged := joined(out[-1][0], run[-1], out[-1][1])) <= max_tokens
        ):
            out[-1] = ([*out[-1][0], *run], merged)
            continue
        out.append((run, tokens))
    result: list[tuple[list[int], Span]] = []
    for run, tokens in out:
        first = spans[run[0]]
        kind = kind_of(run, alone)
        known = tokens if counted else None
        # ``first._replace(end=..., kind=kind, tokens=known, content_hash=None)``, built
        # directly (``_replace`` maps every field through a dict: three times the cost).
        span = Span(
            start=first.start,
            end=spans[run[-1]].end,
            kind=kind,
            heading_path=first.heading_path,
            parent_id=first.parent_id,
            prefix=first.prefix,
            text=first.text,
            tokens=known,
            content_hash=None,
        )
        result.append((run, span))
    return result


def merge_document(
    spans: Sequence[Span],
    source: str,
    counter: TokenCounter,
    options: ChunkOptions,
    joins: Callable[[list[int], int], bool],
    kind_of: Callable[[list[int], list[int]], str],
    glued: Callable[[int], bool] = lambda k: False,
    whole: Callable[[int], bool] = lambda k: False,
) -> list[tuple[list[int], Span]]:
    """:func:`merge_small` of one document's spans under its options (SIZE-2..SIZE-11)."""
    return merge_small(
        spans,
        measure_of(source, counter, options.budget_includes_headings),
        options.minimum,
        options.max_tokens,
        joins,
        kind_of,
        glued,
        source,
        grow_of(source, counter),
        not options.budget_includes_headings,
        whole,
    )
