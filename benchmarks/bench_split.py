"""Throughput and scaling of split_section beside its peers, in one process, on one text.

Run with ``nox -s bench`` (or ``python benchmarks/bench_split.py [--mb 4] [--repeat 7]
[--corpus real]``). Three corpora (benchmarks/corpora.py): ``synthetic`` ASCII words,
``real`` text (READMEs and docs of the installed packages, the MegaMart pages) and
``generated`` prose with stated rates of non-ASCII letters, NBSPs, tabs, CRLF. Each is cut
into three shapes: prose (as is), one-word paragraphs (``"\n\n".join(text.split())``) and
one line (every ``"\n"`` made a space, so tabs, NBSPs and CRs stay). Prints, side by side
from one run, chunkspec's MB/s and its time over the floor (``len(text.split())``) with the
garbage collector off and on, the "output floor" (the floor plus joining the chunk texts
and hashing each: the rest of the work the spec's output needs) over the floor and
chunkspec over it, each peer's time over chunkspec's, and time(4N)/time(N).
Peers are configured to the seed-000 rule: separators ``"\\n\\n"``, ``"\\n"``, ``" "``, a
whitespace-word length function, no overlap, whitespace stripped.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chunkspec import split_section

try:
    from benchmarks.corpora import generated_text, real_text
except ModuleNotFoundError:  # run as a script: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.corpora import generated_text, real_text

Splitter = Callable[[str, int], Any]
SHAPES = ("prose", "one-word paragraphs", "one line")
CORPORA = ("synthetic", "real", "generated")
BUDGETS = (64, 256, 512)


def words_count(text: str) -> int:
    """The seed-000 length function every peer is given."""
    return len(text.split())


def make_text(shape: str, size: int, seed: int = 7, corpus: str = "synthetic") -> str:
    """Return about ``size`` characters of the given shape, deterministic for ``seed``."""
    if corpus != "synthetic":
        base = real_text(size) if corpus == "real" else generated_text(size)
        if shape == "one-word paragraphs":
            return "\n\n".join(base.split())
        if shape == "one line":
            return base.replace("\n", " ")
        return base
    rng = random.Random(seed)
    vocab = [
        "".join(rng.choice("etaoinshrdlucmfwyp") for _ in range(rng.randint(1, 10)))
        for _ in range(4000)
    ]
    if shape == "one-word paragraphs":
        return "\n\n".join(f"w{i}" for i in range(size // 7))
    if shape == "one line":
        return " ".join(rng.choice(vocab) for _ in range(size // 6))
    parts: list[str] = []
    total = 0
    while total < size:
        lines = [
            " ".join(rng.choice(vocab) for _ in range(rng.randint(4, 18))) + "."
            for _ in range(rng.randint(1, 6))
        ]
        paragraph = "\n".join(lines)
        parts.append(paragraph)
        total += len(paragraph) + 2
    return "\n\n".join(parts)


def ours(text: str, limit: int) -> Any:
    return split_section("bench", "Bench", text, limit)


def floor(text: str, limit: int) -> Any:
    return len(text.split())


def output_floor(text: str, limit: int) -> Any:
    """The floor plus the rest of the work any splitter meeting the spec does: chunk texts
    joined from the words (``limit`` at a time, as on one-line text) and each one's SHA-256
    (SPLIT-9's ``content_hash``). Python's hashlib costs about a microsecond a call, so
    at 64 tokens the hashes alone are a third of the floor."""
    words = text.split()
    bodies = [" ".join(words[i : i + limit]) for i in range(0, len(words), limit)]
    return [hashlib.sha256(body.encode("utf-8")).hexdigest() for body in bodies]


def peers() -> dict[str, Splitter]:
    """Build the peers that are installed; a missing one is reported, not fatal."""
    found: dict[str, Splitter] = {}
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        def langchain(text: str, limit: int) -> Any:
            splitter = RecursiveCharacterTextSplitter(
                separators=["\n\n", "\n", " "],
                chunk_size=limit,
                chunk_overlap=0,
                length_function=words_count,
                keep_separator=False,
                strip_whitespace=True,
            )
            return splitter.split_text(text)

        found["langchain"] = langchain
    except ImportError as error:
        print(f"# langchain-text-splitters not installed: {error}", file=sys.stderr)
    try:
        import semchunk

        def semchunk_(text: str, limit: int) -> Any:
            return semchunk.chunk(text, limit, words_count, memoize=False)

        found["semchunk"] = semchunk_
    except ImportError as error:
        print(f"# semchunk not installed: {error}", file=sys.stderr)
    try:
        from chonkie import RecursiveChunker, RecursiveLevel, RecursiveRules

        rules = RecursiveRules(
            levels=[
                RecursiveLevel(delimiters=["\n\n"]),
                RecursiveLevel(delimiters=["\n"]),
                RecursiveLevel(whitespace=True),
            ]
        )

        def chonkie_(text: str, limit: int) -> Any:
            chunker = RecursiveChunker(
                tokenizer="word", chunk_size=limit, rules=rules, min_characters_per_chunk=1
            )
            return chunker.chunk(text)

        found["chonkie"] = chonkie_
    except ImportError as error:
        print(f"# chonkie not installed: {error}", file=sys.stderr)
    return found


def best_time(
    function: Splitter, text: str, limit: int, repeat: int, *, collector: bool = False
) -> float:
    """Best CPU time of ``repeat`` calls, the collector off (as ``timeit`` does) or on (as
    users run it).

    CPU time of this process, not wall time: on a shared machine, time spent waiting for a
    core would otherwise dominate the ratios.
    """
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            start = time.process_time()
            function(text, limit)
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=4.0, help="text size in MB (default 4)")
    parser.add_argument("--repeat", type=int, default=7, help="best of N runs (default 7)")
    parser.add_argument(
        "--scale-mb", type=float, default=4.0, help="N for the scaling table (4N is measured too)"
    )
    parser.add_argument(
        "--peer-cap", type=float, default=60.0, help="skip a peer slower than this many s"
    )
    parser.add_argument(
        "--corpus", choices=CORPORA, action="append", help="corpora to run (default: all)"
    )
    parser.add_argument("--no-peers", action="store_true", help="chunkspec and the floor only")
    args = parser.parse_args()
    corpora = args.corpus or list(CORPORA)
    size = int(args.mb * 1_000_000)
    timed = ("chunkspec", "floor", "output floor")  # every round, GC off and on
    implementations: dict[str, Splitter] = {
        "chunkspec": ours,
        "floor": floor,
        "output floor": output_floor,
    }
    if not args.no_peers:
        implementations.update(peers())
    names = [name for name in implementations if name not in timed]
    print(
        f"# split_section benchmark: {args.mb:g} MB per shape, best of {args.repeat}, "
        f"CPU time, Python {sys.version.split()[0]}"
    )
    print()
    print(
        "| corpus | shape | max_tokens | chunkspec MB/s | chunkspec / floor (GC off) "
        "| chunkspec / floor (GC on) | chunkspec / floor (median of rounds) "
        "| output floor / floor | chunkspec / output floor | "
        + "".join(f"{name} / chunkspec | " for name in names)
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|" + "---:|" * len(names))
    slow: set[str] = set()
    for corpus in corpora:
        for shape in SHAPES:
            text = make_text(shape, size, corpus=corpus)
            megabytes = len(text.encode()) / 1e6
            for limit in BUDGETS:
                times: dict[str, float] = {}
                rounds: dict[str, list[float]] = {name: [] for name in timed}
                with_gc: dict[str, float] = {}
                # Rounds interleave the implementations, so a burst of load elsewhere on the
                # machine hits them alike; each keeps its best round. Peers run once (they
                # are slower, so noise matters less to their ratio).
                for round_ in range(args.repeat):
                    for name, function in implementations.items():
                        if name in slow or (round_ and name not in timed):
                            continue
                        seconds = best_time(function, text, limit, 1)
                        times[name] = min(times.get(name, seconds), seconds)
                        if name in rounds:
                            rounds[name].append(seconds)
                        if seconds > args.peer_cap:
                            slow.add(name)
                        if name in timed:
                            seconds = best_time(function, text, limit, 1, collector=True)
                            with_gc[name] = min(with_gc.get(name, seconds), seconds)
                ours_s = times["chunkspec"]
                # Each round times both back to back, so a round's ratio sees one load; the
                # median of those ratios resists a lucky minimum of either one alone.
                paired = statistics.median(
                    a / b for a, b in zip(rounds["chunkspec"], rounds["floor"], strict=True)
                )
                peer_cells = [
                    f"{times[name] / ours_s:.2f}" if name in times else "skipped" for name in names
                ]
                print(
                    f"| {corpus} | {shape} | {limit} | {megabytes / ours_s:.1f} | "
                    f"{ours_s / times['floor']:.2f} | "
                    f"{with_gc['chunkspec'] / with_gc['floor']:.2f} | "
                    f"{paired:.2f} | {times['output floor'] / times['floor']:.2f} | "
                    f"{ours_s / times['output floor']:.2f} | "
                    + "".join(f"{cell} | " for cell in peer_cells),
                    flush=True,
                )
    for name in sorted(slow):
        print(f"\n# {name} exceeded {args.peer_cap:g} s on one case and was skipped after it")
    print()
    print(f"## Scaling: time(4N) / time(N), N = {args.scale_mb:g} MB, max_tokens 256")
    print()
    print("| corpus | shape | implementation | time(N) s | time(4N) s | ratio |")
    print("|---|---|---|---:|---:|---:|")
    for corpus, shape in [(corpus, shape) for corpus in corpora for shape in SHAPES]:
        scale = int(args.scale_mb * 1_000_000)
        small = make_text(shape, scale, corpus=corpus)
        large = make_text(shape, 4 * scale, corpus=corpus)
        for name in ("chunkspec", "floor"):
            function = implementations[name]
            t1 = t4 = float("inf")
            for _ in range(args.repeat):  # interleaved N and 4N, best of each
                t1 = min(t1, best_time(function, small, 256, 1))
                t4 = min(t4, best_time(function, large, 256, 1))
            print(f"| {corpus} | {shape} | {name} | {t1:.3f} | {t4:.3f} | {t4 / t1:.2f} |")
    print()
    print("## Agreement on clean prose (same chunks as the seed rule)")
    text = make_text("prose", 200_000)
    expected = [c.text for c in ours(text, 64)]
    for name in ("langchain",):
        if name in implementations:
            same = implementations[name](text, 64) == expected
            print(f"- {name}: {'same chunks' if same else 'DIFFERENT chunks'} at max_tokens 64")
    return 0


if __name__ == "__main__":
    sys.exit(main())
