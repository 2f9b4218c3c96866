"""Evaluation harness benchmarks: BM25 libraries side by side, and linear scaling.

Run with ``nox -s bench`` or ``python benchmarks/bench_eval.py``. Prints

* bm25s against rank-bm25 on the bundled corpus cut by ``fixed-128`` and repeated to
  ``--copies`` times its size: index time, time to score every question, and the ratio;
* time(4N) / time(N) for the strategy adapters (``recursive-512``, ``window-128-32``) on
  N and 4N words, for ``recall_at_k`` + ``mrr`` on N and 4N questions, for the span
  metrics (EVAL-32) on N and 4N retrieved regions and for the bootstrap (EVAL-37) on N and
  4N questions.

Timings are the best of ``--repeat`` runs; nothing is asserted.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from functools import partial

from chunkspec._evaluation._bootstrap import interval, paired_p, resamples
from chunkspec._evaluation._span_metrics import span_scores
from chunkspec._evaluation._strategy_names import resolve
from chunkspec.core import words
from chunkspec.evaluation import LabelledQuery, load_corpus, mrr, recall_at_k


def best(fn: Callable[[], object], repeat: int) -> float:
    """Return the best wall time of ``repeat`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bm25_peers(copies: int, repeat: int) -> None:
    """Index and query the corpus with bm25s and rank-bm25 from the same token lists."""
    import bm25s
    from rank_bm25 import BM25Okapi

    corpus = load_corpus()
    adapt = resolve("fixed-128")
    texts = [c.text for d in corpus.documents for c in adapt(d.id, d.title, d.text)] * copies
    questions = [q.question for q in corpus.queries]
    tokens = bm25s.tokenize(texts, stopwords="en", return_ids=False, show_progress=False)
    qtokens = bm25s.tokenize(questions, stopwords="en", return_ids=False, show_progress=False)

    def with_bm25s() -> object:
        index = bm25s.BM25()
        index.index(tokens, show_progress=False)
        return [index.get_scores(q) for q in qtokens]

    def with_rank_bm25() -> object:
        index = BM25Okapi(tokens)
        return [index.get_scores(q) for q in qtokens]

    a = best(with_bm25s, repeat)
    b = best(with_rank_bm25, repeat)
    print(
        f"BM25, {len(texts)} chunks x {len(questions)} questions (index + score all):\n"
        f"  bm25s      {a * 1000:9.1f} ms\n"
        f"  rank-bm25  {b * 1000:9.1f} ms   ratio rank-bm25/bm25s = {b / a:.1f}x"
    )


def scaling(n_words: int, n_queries: int, repeat: int) -> None:
    """Print time(4N)/time(N) for the adapters and the metrics."""
    for name in ("recursive-512", "window-128-32"):
        adapt = resolve(name)
        small = "\n\n".join(words(100, i * 100) for i in range(n_words // 100))
        large = "\n\n".join(words(100, i * 100) for i in range(4 * n_words // 100))
        t1 = best(partial(adapt, "d", "T", small), repeat)
        t4 = best(partial(adapt, "d", "T", large), repeat)
        print(
            f"{name:>14}: {n_words:,} words {t1 * 1000:8.1f} ms, 4x {t4 * 1000:8.1f} ms, "
            f"ratio {t4 / t1:.2f}"
        )

    def run(queries: Sequence[LabelledQuery]) -> None:
        def retrieve(question: str, k: int) -> list[str]:
            return [f"{question}-{i}" for i in range(k)]

        recall_at_k(retrieve, queries, 10)
        mrr(retrieve, queries, 10)

    few = [LabelledQuery(f"q{i}", frozenset({f"q{i}-{i % 12}"})) for i in range(n_queries)]
    many = [LabelledQuery(f"q{i}", frozenset({f"q{i}-{i % 12}"})) for i in range(4 * n_queries)]
    t1 = best(lambda: run(few), repeat)
    t4 = best(lambda: run(many), repeat)
    print(
        f"{'recall+mrr':>14}: {n_queries:,} questions {t1 * 1000:8.1f} ms, 4x "
        f"{t4 * 1000:8.1f} ms, ratio {t4 / t1:.2f}"
    )


def span_scaling(n_regions: int, repeat: int) -> None:
    """Print time(4N)/time(N) for span_scores and for a bootstrap interval plus paired test."""

    def regions(n: int) -> list[tuple[str, int, int]]:
        return [(f"d{i % 7}", (i * 37) % 10_000, (i * 37) % 10_000 + 50) for i in range(n)]

    gold = regions(n_regions // 10)
    small, large = regions(n_regions), regions(4 * n_regions)
    t1 = best(lambda: span_scores(small, gold), repeat)
    t4 = best(lambda: span_scores(large, gold), repeat)
    print(
        f"{'span_scores':>14}: {n_regions:,} regions {t1 * 1000:8.1f} ms, 4x "
        f"{t4 * 1000:8.1f} ms, ratio {t4 / t1:.2f}"
    )

    def boot(n: int) -> None:
        values = [(i % 10) / 10 for i in range(n)]
        other = [(i % 7) / 7 for i in range(n)]
        plan = resamples([f"p{i % 150}" for i in range(n)], 1000, 0)
        interval(values, plan)
        paired_p(values, other, plan)

    t1 = best(lambda: boot(n_regions // 10), repeat)
    t4 = best(lambda: boot(4 * n_regions // 10), repeat)
    print(
        f"{'bootstrap':>14}: {n_regions // 10:,} questions {t1 * 1000:8.1f} ms, 4x "
        f"{t4 * 1000:8.1f} ms, ratio {t4 / t1:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--words", type=int, default=250_000)
    parser.add_argument("--queries", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bm25_peers(args.copies, args.repeat)
    scaling(args.words, args.queries, args.repeat)
    span_scaling(20_000, args.repeat)


if __name__ == "__main__":
    main()
