"""Pathological sizes: time and peak memory of split_section and assemble at N and 4N.

    python benchmarks/bench_pathological.py            # 100 MB and 1M pieces (minutes)
    python benchmarks/bench_pathological.py --scale 0.1  # a quick look
    python benchmarks/bench_pathological.py --case split-one-long-line --case floor-one-long-line

Each case runs in its own subprocess, which builds its input, then runs the function once;
peak RSS is that process's ``ru_maxrss``. Reported: seconds (CPU time of the process, so a
busy machine does not bend the ratios), peak RSS, RSS above the bare
interpreter, and the *working* memory (peak RSS minus RSS once the input was built) as a
multiple of the input's size (UTF-8 bytes for text; for chunk lists the bytes of their
texts, so per-object overhead shows as a large multiple). ``time(4N)/time(N)`` near 4
means linear; each ``split-*`` text case has a ``floor-*`` row beside it, ``len(text.split())``
on the same text, whose own ratio shows what the machine does at that size (cache and
allocator effects) apart from our algorithm. Measured, never asserted (docs/performance.md,
docs/reliability.md).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from typing import Any

MB = 1_000_000


def _rss_mb() -> float:
    """Peak RSS of this process so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / MB


def _prose(size: int) -> str:
    """About ``size`` bytes of prose: 8-word lines, 5-line paragraphs, blank-line separated."""
    line = "the quick brown fox jumps over lazy dogs"
    paragraph = "\n".join([line] * 5)
    count = size // (len(paragraph) + 2) + 1
    return "\n\n".join([paragraph] * count)


def _case(name: str, n: int) -> dict[str, Any]:
    """Run one case in this process and return its figures."""
    bare = _rss_mb()
    from chunkspec import Chunk, assemble, hash_text, split_section

    output = 0
    if name == "split-prose":  # n bytes of prose, 512-token chunks
        text = _prose(n)
        size = len(text.encode("utf-8"))
        built = _rss_mb()
        start = time.process_time()
        output = len(split_section("d", "T", text, 512))
    elif name == "split-one-long-line":  # n bytes, one line of words: the word-level path
        text = ("w " * (n // 2)).strip()
        size = len(text)
        built = _rss_mb()
        start = time.process_time()
        output = len(split_section("d", "T", text, 512))
    elif name in ("floor-prose", "floor-one-long-line"):  # the floor: len(text.split())
        # The least any whitespace-token chunker must do on the same input: find every
        # word once (split_section's word-level path is this plus the chunk objects).
        text = _prose(n) if name == "floor-prose" else ("w " * (n // 2)).strip()
        size = len(text.encode("utf-8"))
        built = _rss_mb()
        start = time.process_time()
        output = len(text.split())
    elif name == "split-tiny-paragraphs":  # n one-word paragraphs -> n chunks
        text = "\n\n".join(f"w{i}" for i in range(n))
        size = len(text)
        built = _rss_mb()
        start = time.process_time()
        output = len(split_section("d", "T", text, 1))
    elif name == "assemble-tiny-chunks":  # n one-word chunks, all fit: n picked
        chunks = [
            Chunk(f"d:{i}", "d", "T", f"w{i}", 1, hash_text(f"w{i}"), score=(i % 1000) / 1000)
            for i in range(n)
        ]
        size = sum(len(c.text) for c in chunks)
        built = _rss_mb()
        start = time.process_time()
        result = assemble(chunks, n, min_score=0.0)
        output = 0 if result is None else len(result[1])
    else:
        raise SystemExit(f"unknown case {name}")
    seconds = time.process_time() - start
    peak = _rss_mb()
    return {
        "case": name,
        "n": n,
        "input_mb": size / MB,
        "seconds": seconds,
        "bare_mb": bare,
        "built_mb": built,
        "peak_mb": peak,
        "output": output,
    }


def _spawn(name: str, n: int) -> dict[str, Any]:
    """Run ``_case(name, n)`` in a fresh interpreter and return its figures."""
    proc = subprocess.run(
        [sys.executable, __file__, "--child", name, str(n)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


#: (case, n at full scale for the 4N run).
CASES = [
    ("split-prose", 100 * MB),
    ("floor-prose", 100 * MB),
    ("split-one-long-line", 100 * MB),
    ("floor-one-long-line", 100 * MB),
    ("split-tiny-paragraphs", 1_000_000),
    ("assemble-tiny-chunks", 1_000_000),
]


def main() -> int:
    """Run every case at N/4 and N; print a Markdown table."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every size")
    parser.add_argument("--case", action="append", help="run only this case (repeatable)")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_case(args.child[0], int(args.child[1]))))
        return 0
    print(
        "| case | N | input MB | seconds | time(4N)/time(N) | peak RSS MB "
        "| input built MB | working MB | working ÷ input | output |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, full in CASES:
        if args.case and name not in args.case:
            continue
        big = int(full * args.scale)
        small = _spawn(name, big // 4)
        large = _spawn(name, big)
        for row in (small, large):
            ratio = f"{large['seconds'] / small['seconds']:.2f}" if row is large else ""
            built = row["built_mb"] - row["bare_mb"]  # the input, in Python objects
            working = row["peak_mb"] - row["built_mb"]  # what the call added on top
            print(
                f"| {name} | {row['n']:,} | {row['input_mb']:.1f} | {row['seconds']:.2f} "
                f"| {ratio} | {row['peak_mb']:.0f} | {built:.0f} | {working:.0f} "
                f"| {working / row['input_mb']:.1f}x | {row['output']:,} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
