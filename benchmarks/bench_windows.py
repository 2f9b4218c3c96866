"""Scaling of the sliding windows and the page chunker, beside semchunk and Haystack.

Run with ``nox -s bench`` or ``python benchmarks/bench_windows.py [--repeat R]``. For each
implementation it times a 1 MB and a 4 MB document (best of R runs, CPU time) and prints
``time(4N)/time(N)``, which is about 4 for a linear algorithm, and each peer's time
relative to chunkspec's page chunker on the same 4 MB input. Peers that are not
installed are reported as skipped.
"""

from __future__ import annotations

import argparse
import gc
import random
import time
from collections.abc import Callable

from chunkspec import chunk, chunk_pages, token_windows
from chunkspec.counters import CharEstimateCounter, WhitespaceCounter

MB = 1_000_000
WORDS = [
    "refund",
    "policy",
    "customer",
    "business",
    "days",
    "order",
    "shipping",
    "invoice",
    "account",
    "manager",
    "the",
    "a",
    "of",
    "to",
    "and",
    "in",
    "is",
    "that",
    "for",
    "on",
    "with",
    "as",
    "was",
    "it",
    "by",
    "be",
    "this",
    "are",
    "from",
    "or",
    "at",
]


def make_pages(size: int, seed: int = 0) -> list[str]:
    """Return pages of about 3,000 characters totalling ``size`` characters with ``\\f``."""
    rng = random.Random(seed)
    pages: list[str] = []
    total = 0
    while total < size:
        parts: list[str] = []
        length = 0
        while length < 3000:
            sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 20)))
            sentence = sentence.capitalize() + rng.choice(".?!") + rng.choice([" ", " ", "\n\n"])
            parts.append(sentence)
            length += len(sentence)
        page = "".join(parts).rstrip()
        pages.append(page)
        total += len(page) + 1
    return pages


def timed(run: Callable[[], object], number: int) -> float:
    """Return the CPU seconds of one call of ``run()``, averaged over ``number`` calls.

    CPU time of this process (``time.process_time``), not wall time: on a shared machine
    other jobs stretch wall time unevenly and would distort the ratios. GC is off during
    the timing, as in ``timeit``.
    """
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        for _ in range(number):
            run()
        return (time.process_time() - start) / number
    finally:
        gc.enable()


def best_pair(
    repeat: int, small: Callable[[], object], large: Callable[[], object]
) -> tuple[float, float]:
    """Return the fastest of ``repeat`` timings of each, interleaved so load drift hits both.

    Fast calls are repeated (as ``timeit.autorange`` does) until one timing lasts 0.2 s,
    each input calibrated on its own so both are measured in the same steady state.
    """
    n_small, n_large = autorange(small), autorange(large)
    best_small = best_large = float("inf")
    for _ in range(repeat):
        best_small = min(best_small, timed(small, n_small))
        best_large = min(best_large, timed(large, n_large))
    return best_small, best_large


def autorange(run: Callable[[], object]) -> int:
    """Return how many calls of ``run()`` take at least 0.2 CPU seconds (at most 10,000)."""
    number = 1
    while timed(run, number) * number < 0.2 and number < 10_000:
        number *= 2
    return number


def candidates(pages: list[str], text: str) -> list[tuple[str, Callable[[], object] | None, str]]:
    """Return ``(name, run, note)`` for every implementation; run is None when skipped."""
    words = WhitespaceCounter()
    chars4 = CharEstimateCounter()
    out: list[tuple[str, Callable[[], object] | None, str]] = [
        ("chunkspec.chunk (2000 chars, overlap 400)", lambda: chunk(text, 2000, 400), ""),
        (
            "chunkspec.token_windows (400 words, overlap 100)",
            lambda: token_windows(text, 400, 100, words),
            "",
        ),
        (
            "chunkspec.chunk_pages (400 words, overlap 100)",
            lambda: chunk_pages(pages, 400, 100, words),
            "",
        ),
        (
            "chunkspec.chunk_pages (chars/4: 400, overlap 100)",
            lambda: chunk_pages(pages, 400, 100, chars4),
            "",
        ),
    ]
    try:
        from semchunk.semchunk import chunkerify

        chunker = chunkerify(lambda t: len(t.split()), 400)
        out.append(
            (
                "semchunk offsets=True (400 words, overlap 100)",
                lambda: chunker(text, overlap=100, offsets=True),
                "",
            )
        )
    except ImportError:
        out.append(("semchunk", None, "not installed"))
    try:
        from haystack import Document
        from haystack.components.preprocessors import DocumentSplitter

        splitter = DocumentSplitter(split_by="word", split_length=400, split_overlap=100)
        out.append(
            (
                "haystack DocumentSplitter (400 words, overlap 100)",
                lambda: splitter.run(documents=[Document(content=text)]),
                "",
            )
        )
    except ImportError:
        out.append(("haystack DocumentSplitter", None, "haystack-ai not installed"))
    return out


def main() -> None:
    """Time every implementation on 1 MB and 4 MB and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="best of R runs (default 5)")
    args = parser.parse_args()
    small_pages, large_pages = make_pages(MB), make_pages(4 * MB)
    small, large = "\f".join(small_pages), "\f".join(large_pages)
    print(f"inputs: {len(small):,} and {len(large):,} characters, ~3,000 a page\n")
    print("| implementation | 1 MB (s) | 4 MB (s) | time(4N)/time(N) | 4 MB vs chunk_pages |")
    print("| --- | ---: | ---: | ---: | ---: |")
    reference: float | None = None
    for (name, run_small, note), (_, run_large, _) in zip(
        candidates(small_pages, small), candidates(large_pages, large), strict=True
    ):
        if run_small is None or run_large is None:
            print(f"| {name} | skipped: {note} | | | |")
            continue
        t_small, t_large = best_pair(args.repeat, run_small, run_large)
        if name.startswith("chunkspec.chunk_pages (400 words"):
            reference = t_large
        versus = f"{t_large / reference:.2f}x" if reference else ""
        print(
            f"| {name} | {t_small:.4f} | {t_large:.4f} | {t_large / t_small:.2f} | {versus} |",
            flush=True,
        )
    # chunk() is a list of slices, ~1 ms a MB: at 1 MB its output still fits in cache, so
    # the memory system dominates the 1 -> 4 MB ratio. Show 4 -> 16 MB as well.
    huge = large * 4
    t_large, t_huge = best_pair(
        args.repeat, lambda: chunk(large, 2000, 400), lambda: chunk(huge, 2000, 400)
    )
    print(
        f"\nchunkspec.chunk, 4 MB -> 16 MB: {t_large:.4f} s -> {t_huge:.4f} s, "
        f"ratio {t_huge / t_large:.2f}"
    )


if __name__ == "__main__":
    main()
