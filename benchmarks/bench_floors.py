"""``chunk`` and ``assemble`` beside their floors, side by side in one run (CPU time).

Run with ``nox -s bench -- floors`` or ``python benchmarks/bench_floors.py [--repeat R]``.

* ``chunk`` (character windows, 2,000 characters, overlap 400) against bare slicing,
  ``[text[i:i + 2000] for i in range(0, len(text), 1600)]``, on 4 MB of real text (wide:
  it holds emoji) and on the same text made Latin-1 and ASCII;
* ``assemble`` against an unvalidated greedy loop giving the same answer (checked), on
  100k, 400k and 1M chunks with distinct random scores, every one picked (the budget is
  their total), and time(1M)/time(100k) of both beside 10 * log(1M)/log(100k) = 12. The
  greedy loop is one sort and one pass, n log n itself, so its growth is what this machine
  shows for n log n work on a million objects (caches included), and assemble's growth
  over the loop's says whether assemble adds a faster-growing factor.

Each figure is the best of R runs, the garbage collector off and (second column) on.
"""

from __future__ import annotations

import argparse
import gc
import math
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from chunkspec import Chunk, assemble, chunk

try:
    from benchmarks.corpora import real_text
except ModuleNotFoundError:  # run as a script: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.corpora import real_text


def best(function: Callable[[], object], repeat: int, *, collector: bool = False) -> float:
    """Best CPU time of ``repeat`` calls, the collector off (as ``timeit``) or on."""
    times = []
    for _ in range(repeat):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            start = time.process_time()
            function()
            times.append(time.process_time() - start)
        finally:
            gc.enable()
    return min(times)


def greedy(chunks: list[Chunk], budget: int, min_score: float) -> tuple[str, list[str]] | None:
    """The floor: assemble's walk with no validation at all."""
    picked: list[Chunk] = []
    hashes: set[str] = set()
    room = budget
    for c in sorted(chunks, key=lambda c: (-c.score, c.id)):
        if c.score < min_score:
            break
        if c.content_hash in hashes or c.tokens > room:
            continue
        picked.append(c)
        hashes.add(c.content_hash)
        room -= c.tokens
    if not picked:
        return None
    return "\n".join(f"[{c.id}] {c.title}\n{c.text}" for c in picked), [c.id for c in picked]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of R runs (default 5)")
    args = parser.parse_args()
    print(f"# chunk and assemble beside their floors, Python {sys.version.split()[0]}")
    print()
    print("| input | chunk / slicing (GC off) | chunk / slicing (GC on) | slicing ms |")
    print("|---|---:|---:|---:|")
    text = real_text(4_000_000)
    for label, variant in (
        ("real text, 4 MB (wide: emoji)", text),
        ("same, made Latin-1", text.encode("latin-1", "replace").decode("latin-1")),
        ("same, made ASCII", text.encode("ascii", "replace").decode("ascii")),
    ):

        def bare(variant: str = variant) -> object:
            return [variant[i : i + 2000] for i in range(0, len(variant), 1600)]

        def ours(variant: str = variant) -> object:
            return chunk(variant, 2000, 400)

        assert ours() == bare()[: len(ours())]  # type: ignore[index, arg-type]
        ratios = [
            best(ours, args.repeat, collector=on) / best(bare, args.repeat, collector=on)
            for on in (False, True)
        ]
        floor_ms = best(bare, args.repeat) * 1000
        print(f"| {label} | {ratios[0]:.2f} | {ratios[1]:.2f} | {floor_ms:.2f} |", flush=True)
    print()
    print("| chunks | assemble s | greedy s | assemble / greedy (GC off) | (GC on) |")
    print("|---:|---:|---:|---:|---:|")
    rng = random.Random(5)
    seconds: dict[int, float] = {}
    floors: dict[int, float] = {}
    for n in (100_000, 400_000, 1_000_000):
        items = [
            Chunk(f"d:{i}", "d", "Title", f"word{i} café", 2, f"{i:064x}", rng.random())
            for i in range(n)
        ]
        budget = 2 * n
        assert assemble(items, budget, 0.0) == greedy(items, budget, 0.0)
        repeat = max(1, args.repeat // 2)
        run_ours = partial(assemble, items, budget, 0.0)
        run_floor = partial(greedy, items, budget, 0.0)
        ours_s = best(run_ours, repeat)
        floor_s = best(run_floor, repeat)
        ours_gc = best(run_ours, repeat, collector=True)
        floor_gc = best(run_floor, repeat, collector=True)
        seconds[n] = ours_s
        floors[n] = floor_s
        print(
            f"| {n:,} | {ours_s:.3f} | {floor_s:.3f} | {ours_s / floor_s:.2f} "
            f"| {ours_gc / floor_gc:.2f} |",
            flush=True,
        )
    growth = seconds[1_000_000] / seconds[100_000]
    floor_growth = floors[1_000_000] / floors[100_000]
    bound = 10 * math.log(1_000_000) / math.log(100_000)
    print()
    print(
        "| time(1M) / time(100k) | assemble | greedy loop | assemble / greedy | n log n | linear |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    print(
        f"| GC off | {growth:.2f} | {floor_growth:.2f} | {growth / floor_growth:.2f} "
        f"| {bound:.2f} | 10 |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
