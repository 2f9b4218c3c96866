"""Markdown and heading-aware chunking: linear scaling and throughput beside the peers.

Run with ``nox -s bench`` (or ``python benchmarks/bench_markdown.py [--quick]``). Prints
time(4N)/time(N) for each input family (linear means about 4; the bar is <= 4.5) and, on
4 MB of real Markdown (benchmarks/corpora.py) and of two generated shapes, throughput of
split_markdown and HeadingAwareChunker (with the fast block scan, hand-written then
markdown-it-pyrs, when installed, and with the reference scan, rule MD-14) beside
LangChain's MarkdownHeaderTextSplitter,
chonkie's MarkdownChef and LlamaIndex's MarkdownNodeParser, in one run, with the garbage
collector off and on, and split_markdown's peak memory (tracemalloc) over the input's
bytes. ``--big`` (``nox -s bench -- markdown --big``) adds one document of real Markdown
from 16 to 64 MiB: time(4N)/time(N) and peak memory. ``--only corpora`` (``--corpus NAME``,
``--rounds N``; through nox ``--only=corpora``) gives one table per real corpus
(``benchmarks/corpora.py``: the Node.js API docs, package READMEs, the CommonMark spec's
examples joined, this repository's docs, a generated block-quote/reference document):
every peer's CPU time over ``split_markdown``'s and over ``chunk_document(...,
"structural")``'s, as medians of interleaved rounds, whether
the fast scan's chunks equal the markdown-it-py scan's, and the share of blocks the
hand-written scan decides (MD-14 to MD-17). Nothing is asserted: performance is measured,
not gated.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import time
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from chunkspec import (
    HeadingAwareChunker,
    chunk_document,
    document_from_text,
    parse_markdown,
    split_markdown,
)
from chunkspec._text._markdown import PARSER_VARIABLE, PARSERS, markdown_parser
from chunkspec._text._sentences import sentence_spans

try:
    from benchmarks import corpora
    from benchmarks.corpora import real_markdown
except ModuleNotFoundError:  # run as a script: put the repository root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks import corpora
    from benchmarks.corpora import real_markdown

MB = 1_000_000


def best(fn: Callable[[], object], repeat: int = 3, *, collector: bool = False) -> float:
    """Return the best of ``repeat`` CPU times of ``fn()``, in seconds.

    CPU time of this process (``time.process_time``), not wall-clock: the machine is shared,
    and other processes' load would otherwise dominate the ratios. The garbage collector is
    off while timing, as in ``timeit``: its full collections cost in proportion to the live
    heap and would blur the scaling of the algorithm itself. ``collector=True`` leaves it on,
    as users run it.
    """
    times = []
    for _ in range(repeat):
        gc.collect()
        if not collector:
            gc.disable()
        try:
            t0 = time.process_time()
            fn()
            times.append(time.process_time() - t0)
        finally:
            gc.enable()
    return min(times)


def peak(fn: Callable[[], object]) -> int:
    """Return the peak bytes Python allocated while ``fn()`` ran (tracemalloc), result included."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def with_scan(scan: str, fn: Callable[[], object]) -> Callable[[], object]:
    """Return ``fn`` run with the Markdown block scan ``scan`` selected (rule MD-14)."""

    def run() -> object:
        before = os.environ.get(PARSER_VARIABLE)
        os.environ[PARSER_VARIABLE] = scan
        try:
            return fn()
        finally:
            if before is None:
                del os.environ[PARSER_VARIABLE]
            else:
                os.environ[PARSER_VARIABLE] = before

    return run


def prose_doc(size: int) -> str:
    """Mixed real-looking Markdown: headings, paragraphs, lists, fences, tables."""
    section = (
        "## Section {n}\n\n"
        "The quick brown fox jumps over the lazy dog. It was the best of times, it was the "
        "worst of times. Retrieval works when chunks are whole thoughts.\n\n"
        "- first item with some words\n- second item with more words\n  - nested item\n\n"
        "```python\n# a comment, not a heading\nprint({n})\n```\n\n"
        "| key | value |\n|-----|-------|\n| a | {n} |\n| b | {n} |\n\n"
        "### Detail {n}\n\nA closing paragraph for section {n}, with a [link](http://x.y).\n\n"
    )
    parts = ["# Document\n\n"]
    total = len(parts[0])
    n = 0
    while total < size:
        part = section.format(n=n)
        parts.append(part)
        total += len(part)
        n += 1
    return "".join(parts)


def prose_heavy_doc(size: int) -> str:
    """Headings and long paragraphs only: the shape of most handbooks and articles."""
    para = "The quick brown fox jumps over the lazy dog. " * 12
    section = "## Section {n}\n\n" + para + "\n\n" + para + "\n\n"
    parts = []
    total = n = 0
    while total < size:
        part = section.format(n=n)
        parts.append(part)
        total += len(part)
        n += 1
    return "".join(parts)


def headings_doc(count: int) -> str:
    """``count`` headings of cycling levels, each with a one-line paragraph."""
    return "".join(f"{'#' * (1 + k % 6)} Heading {k}\n\nline {k}\n\n" for k in range(count))


def table_doc(size: int) -> str:
    """One GFM table of about ``size`` characters."""
    rows = ["| id | name | value |", "|----|------|-------|"]
    total = 0
    k = 0
    while total < size:
        row = f"| {k} | name{k} | {k * 7} |"
        rows.append(row)
        total += len(row) + 1
        k += 1
    return "\n".join(rows) + "\n"


def nested_doc(size: int, depth: int = 16) -> str:
    """Blocks of lists nested ``depth`` deep inside quotes, repeated to about ``size``."""
    unit = "".join("> " * d + "- " * 1 + f"item at depth {d}\n" for d in range(1, depth)) + "\n"
    unit += "".join("  " * d + f"- list depth {d}\n" for d in range(depth)) + "\n"
    return unit * max(1, size // len(unit))


def scaling(
    name: str, make: Callable[[int], str], n: int, runs: dict[str, Callable[[str], object]]
) -> list[str]:
    """Return report lines: time at N and 4N and the ratio for each run."""
    small, large = make(n), make(4 * n)
    lines = []
    for label, run in runs.items():
        t1 = best(partial(run, small))
        t4 = best(partial(run, large), repeat=2)
        lines.append(
            f"| {name} | {label} | {len(small) / MB:.2f} MB | {t1:.3f} s | "
            f"{len(large) / MB:.2f} MB | {t4:.3f} s | {t4 / t1:.2f} |"
        )
        print(lines[-1], flush=True)
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller inputs (smoke run)")
    parser.add_argument(
        "--only",
        choices=("scaling", "sentences", "throughput", "interleaved", "corpora"),
        help="run one section (default: all)",
    )
    parser.add_argument(
        "--big",
        action="store_true",
        help="also one document of real Markdown from 16 to 64 MiB (time and peak memory)",
    )
    parser.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="WORD",
        help="leave out the throughput rows (and --only corpora's) whose label holds WORD "
        "(e.g. llama-index, LlamaIndex)",
    )
    parser.add_argument(
        "--corpus",
        action="append",
        choices=CORPORA,
        help="with --only corpora: the corpora to run (default: all five)",
    )
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds per corpus")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0

    chunker = HeadingAwareChunker(512, 64)
    runs: dict[str, Callable[[str], object]] = {
        "parse_markdown": lambda s: parse_markdown("d", s),
        "split_markdown": lambda s: split_markdown("d", s),
        "split_markdown(256)": lambda s: split_markdown("d", s, 256),
        "HeadingAwareChunker(512, 64)": lambda s: chunker.chunk(parse_markdown("d", s)),
    }
    print(f"Python {sys.version.split()[0]}; Markdown block scan: {markdown_parser()}")
    if args.only in (None, "scaling"):
        scaling_section(runs, scale)
    if args.only in (None, "sentences"):
        sentences_section(scale)
    if args.only in (None, "throughput"):
        for label, make in (
            (
                "real Markdown (READMEs and docs of installed packages, MegaMart pages)",
                real_markdown,
            ),
            ("mixed, structure-dense Markdown", prose_doc),
            ("prose-heavy Markdown", prose_heavy_doc),
        ):
            throughput_section(label, make(int(4 * MB * scale)), chunker, skip=tuple(args.skip))
    if args.only in (None, "interleaved"):
        interleaved_section(int(4 * MB * scale), chunker)
    if args.only in (None, "corpora"):
        for name in args.corpus or CORPORA:
            corpus_section(
                name, corpus_text(name, int(4 * MB * scale)), args.rounds, tuple(args.skip)
            )
    if args.big:
        big_section(16 * 2**20)
    return 0


#: The real corpora of ``--only corpora`` (benchmarks/corpora.py), each its own table.
CORPORA = ("nodejs", "readmes", "commonmark", "docs", "quotes")


def corpus_text(name: str, size: int) -> str:
    """The text of corpus ``name``: the Node.js docs and this repository's docs whole (cut to
    ``size`` when longer), the READMEs and the quote document at ``size``, the CommonMark
    examples (16 KB) repeated to 1 MB at most."""
    if name == "nodejs":
        return corpora.nodejs_markdown()[:size]
    if name == "readmes":
        return corpora.real_markdown(size)
    if name == "commonmark":
        return corpora.repeat_to(corpora.commonmark_examples(), min(size, MB))
    if name == "docs":
        return corpora.repository_markdown()[:size]
    return corpora.quote_reference_markdown(size)


def decided_share(text: str) -> tuple[int, int]:
    """``(blocks the hand-written scan decides, blocks)`` of ``text`` under the fast scan."""
    from chunkspec._text import _markdown_fast
    from chunkspec._text._lines import line_table

    fast: Any = _markdown_fast  # its scan_spans is swapped for a counting one
    scan = fast.scan_spans
    decided = 0

    def counted(*args: Any) -> tuple[list[Any], int]:
        nonlocal decided
        spans, stop = scan(*args)
        decided += len(spans)
        return spans, stop

    fast.scan_spans = counted
    try:
        starts, ends = line_table(text)
        blocks = fast.fast_blocks(text, starts, ends)
    finally:
        fast.scan_spans = scan
    return decided, len(blocks)


def corpus_peers(text: str) -> dict[str, Callable[[], object]]:
    """Ours and every Markdown peer the docs name, on ``text``."""
    contenders: dict[str, Callable[[], object]] = {
        "split_markdown": partial(split_markdown, "d", text),
        "structural": lambda: chunk_document(document_from_text(text, doc_id="d"), "structural"),
        "split_markdown(512)": partial(split_markdown, "d", text, 512),
    }
    try:
        from langchain_text_splitters import MarkdownHeaderTextSplitter

        headers = [("#" * k, f"h{k}") for k in range(1, 7)]
        contenders["LangChain"] = partial(
            MarkdownHeaderTextSplitter(headers_to_split_on=headers).split_text, text
        )
    except ImportError:
        print("(langchain-text-splitters not installed)")
    try:
        from chonkie import MarkdownChef

        contenders["chonkie"] = partial(MarkdownChef().parse, text)
    except ImportError:
        print("(chonkie not installed)")
    try:
        from llama_index.core import Document as LlamaDocument
        from llama_index.core.node_parser import MarkdownNodeParser

        nodes = MarkdownNodeParser()
        contenders["LlamaIndex"] = lambda: nodes.get_nodes_from_documents(
            [LlamaDocument(text=text)]
        )
    except ImportError:
        print("(llama-index-core not installed)")
    try:
        from semantic_text_splitter import MarkdownSplitter

        contenders["semantic-text-splitter"] = partial(MarkdownSplitter(2048).chunks, text)
    except ImportError:
        print("(semantic-text-splitter not installed)")
    return contenders


def corpus_section(name: str, text: str, rounds: int, skip: tuple[str, ...] = ()) -> None:
    """Print one corpus's table: each contender's best CPU time and its time over
    ``split_markdown``'s and over ``structural``'s, medians of the per-round ratios (a round
    runs every contender once, in turn, the collector on as users run it)."""
    import statistics

    same = with_scan(PARSERS[1], partial(split_markdown, "d", text))() == split_markdown("d", text)
    decided, blocks = decided_share(text) if markdown_parser() == PARSERS[0] else (0, 0)
    contenders = {
        label: fn
        for label, fn in corpus_peers(text).items()
        if not any(word in label for word in skip)
    }
    times: dict[str, list[float]] = {label: [] for label in contenders}
    for _ in range(rounds):
        for label, fn in contenders.items():
            times[label].append(best(fn, 1, collector=True))
    load = os.getloadavg()
    print(
        f"\n### {name}: {len(text.encode('utf-8')) / MB:.2f} MB, {rounds} interleaved rounds, "
        f"load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}\n"
    )
    print(
        f"chunks identical to the markdown-it-py scan's: {'yes' if same else 'NO'}; blocks "
        f"decided by the hand-written scan: {decided:,} of {blocks:,} "
        f"({100 * decided / max(blocks, 1):.1f}%)\n"
    )
    print("| contender | best s | MB/s | time / split_markdown | time / structural |")
    print("|---|---:|---:|---:|---:|")
    size = len(text.encode("utf-8")) / MB
    for label, row in times.items():
        over_split = statistics.median(
            a / b for a, b in zip(row, times["split_markdown"], strict=True)
        )
        over_structural = statistics.median(
            a / b for a, b in zip(row, times["structural"], strict=True)
        )
        print(
            f"| {label} | {min(row):.3f} | {size / min(row):.1f} | {over_split:.2f} "
            f"| {over_structural:.2f} |",
            flush=True,
        )


def _heading_aware(chunker: HeadingAwareChunker, text: str) -> object:
    """``chunker.chunk(parse_markdown("d", text))``."""
    return chunker.chunk(parse_markdown("d", text))


def interleaved_section(size: int, chunker: HeadingAwareChunker, rounds: int = 7) -> None:
    """Print both chunkers' speed over LangChain's, each round running the three in turn.

    A slow spell of the machine then falls on all three of a round, not on one contender's
    row, as it can in the throughput tables.
    """
    try:
        from langchain_text_splitters import MarkdownHeaderTextSplitter
    except ImportError:
        print("(langchain-text-splitters not installed)")
        return
    lc = MarkdownHeaderTextSplitter(headers_to_split_on=[("#" * k, f"h{k}") for k in range(1, 7)])
    print(f"\n## Interleaved beside LangChain (best of {rounds} rounds)\n")
    print(
        "| input | collector | split_markdown | HeadingAwareChunker | LangChain "
        "| LangChain / split_markdown | LangChain / HeadingAwareChunker |"
    )
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, make in (("real", real_markdown), ("dense", prose_doc)):
        text = make(size)
        contenders: dict[str, Callable[[], object]] = {
            "split_markdown": partial(split_markdown, "d", text),
            "heading_aware": partial(_heading_aware, chunker, text),
            "langchain": partial(lc.split_text, text),
        }
        for collector in (False, True):
            times = dict.fromkeys(contenders, float("inf"))
            for _ in range(rounds):
                for name, fn in contenders.items():
                    times[name] = min(times[name], best(fn, 1, collector=collector))
            ours, chunked, theirs = times.values()
            print(
                f"| {label}, {len(text) / MB:.0f} MB | {'on' if collector else 'off'} "
                f"| {ours:.3f} s | {chunked:.3f} s | {theirs:.3f} s "
                f"| {theirs / ours:.2f} | {theirs / chunked:.2f} |",
                flush=True,
            )


def big_section(size: int) -> None:
    """Print split_markdown's time and peak memory on one document of ``size`` and 4x."""
    print(f"\n## One big document of real Markdown (block scan: {markdown_parser()})\n")
    print("| input | time (GC off) | time (GC on) | peak memory | peak / input bytes |")
    print("|---|---|---|---|---|")
    times = []
    for n in (size, 4 * size):
        text = real_markdown(n)
        t = best(partial(split_markdown, "d", text), repeat=1)
        t_gc = best(partial(split_markdown, "d", text), repeat=1, collector=True)
        used = peak(partial(split_markdown, "d", text))
        raw = len(text.encode("utf-8"))
        times.append((t, t_gc))
        print(
            f"| {raw / 2**20:.0f} MiB | {t:.2f} s | {t_gc:.2f} s | {used / 2**20:.0f} MiB "
            f"| {used / raw:.2f} |",
            flush=True,
        )
    print(
        f"\ntime(4N)/time(N): {times[1][0] / times[0][0]:.2f} (GC off), "
        f"{times[1][1] / times[0][1]:.2f} (GC on); bar <= 4.5"
    )


def scaling_section(runs: dict[str, Callable[[str], object]], scale: float) -> None:
    """Print the time(4N)/time(N) table."""
    print("\n## Linear scaling: time(4N) / time(N) (bar: <= 4.5)\n")
    print("| input | function | N | time(N) | 4N | time(4N) | ratio |")
    print("|---|---|---|---|---|---|---|")
    scaling("mixed Markdown", prose_doc, int(1 * MB * scale), runs)
    scaling("headings", lambda n: headings_doc(n), int(25_000 * scale), runs)
    scaling("one table", table_doc, int(250_000 * scale), runs)
    scaling("nested lists/quotes", nested_doc, int(250_000 * scale), runs)


def sentences_section(scale: float) -> None:
    """Print the sentence splitter's scaling beside a backtracking regex."""

    print("\n## Sentence splitter on adversarial input (regex shown for contrast)\n")
    print(
        "| input | n | scan time(n) | scan time(4n) | ratio "
        "| regex time(n) | regex time(4n) | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|")
    backtracking = re.compile(r"[.!?]+[\"')\]]*(?=\s)")
    makers: list[tuple[str, Callable[[int], str]]] = [
        ('"!" * n', lambda n: "!" * n),
        ('"a." * n', lambda n: "a." * n),
        ('".)" * n', lambda n: ".)" * n),
        ('". " * n', lambda n: ". " * n),
    ]
    for label, make in makers:
        n_scan = int(1_000_000 * scale)
        s1 = best(partial(sentence_spans, make(n_scan)))
        s4 = best(partial(sentence_spans, make(4 * n_scan)), repeat=2)
        n_re = int(5_000 * scale) or 1
        r1 = best(partial(backtracking.findall, make(n_re)))
        r4 = best(partial(backtracking.findall, make(4 * n_re)), repeat=2)
        print(
            f"| {label} | scan {n_scan:,} / regex {n_re:,} | {s1:.3f} s | {s4:.3f} s | "
            f"{s4 / s1:.2f} | {r1:.3f} s | {r4:.3f} s | {r4 / max(r1, 1e-9):.2f} |",
            flush=True,
        )


def throughput_section(
    label: str,
    text: str,
    chunker: HeadingAwareChunker,
    repeat: int = 5,
    skip: tuple[str, ...] = (),
) -> None:
    """Print throughput of ours and the peers on ``text``, side by side (best of ``repeat``)."""
    print(f"\n## Throughput on {len(text) / MB:.1f} MB of {label}, side by side\n")
    contenders: dict[str, Callable[[], object]] = {
        "chunkspec.split_markdown": lambda: split_markdown("d", text),
        "chunkspec.split_markdown(max_tokens=256)": lambda: split_markdown("d", text, 256),
        "chunkspec.HeadingAwareChunker(512, 64)": lambda: chunker.chunk(parse_markdown("d", text)),
    }
    if markdown_parser() != PARSERS[1]:
        reference = f" [{PARSERS[1]} scan]"
        contenders["chunkspec.split_markdown" + reference] = with_scan(
            PARSERS[1], lambda: split_markdown("d", text)
        )
        contenders["chunkspec.HeadingAwareChunker(512, 64)" + reference] = with_scan(
            PARSERS[1], lambda: chunker.chunk(parse_markdown("d", text))
        )
    try:
        from langchain_text_splitters import MarkdownHeaderTextSplitter

        headers = [("#" * k, f"h{k}") for k in range(1, 7)]
        lc = MarkdownHeaderTextSplitter(headers_to_split_on=headers)
        contenders["langchain MarkdownHeaderTextSplitter"] = lambda: lc.split_text(text)
    except ImportError:
        print("(langchain-text-splitters not installed)")
    try:
        from llama_index.core import Document as LlamaDocument
        from llama_index.core.node_parser import MarkdownNodeParser

        li = MarkdownNodeParser()
        contenders["llama-index MarkdownNodeParser"] = lambda: li.get_nodes_from_documents(
            [LlamaDocument(text=text)]
        )
    except ImportError:
        print("(llama-index-core not installed)")
    try:
        from chonkie import MarkdownChef

        chef = MarkdownChef()
        contenders["chonkie MarkdownChef"] = lambda: chef.parse(text).chunks
    except ImportError:
        print("(chonkie not installed)")
    print(
        "| implementation | time (GC off) | MB/s | time (GC on) | MB/s (GC on) | chunks "
        "| time / split_markdown (GC off) | (GC on) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    base = base_gc = 0.0
    for label, fn in contenders.items():
        if any(word in label for word in skip):
            print(f"| {label} | (skipped: --skip) | | | | | | |")
            continue
        t = best(fn, repeat)
        t_gc = best(fn, repeat, collector=True)
        base = base or t
        base_gc = base_gc or t_gc
        count = len(fn())  # type: ignore[arg-type]
        print(
            f"| {label} | {t:.3f} s | {len(text) / MB / t:.2f} | {t_gc:.3f} s "
            f"| {len(text) / MB / t_gc:.2f} | {count:,} | {t / base:.2f} | {t_gc / base_gc:.2f} |",
            flush=True,
        )
    raw = len(text.encode("utf-8"))
    print(
        f"\nsplit_markdown peak memory (tracemalloc, chunks included): "
        f"{peak(lambda: split_markdown('d', text)) / raw:.2f}x the input's bytes; "
        f"HeadingAwareChunker: {peak(lambda: chunker.chunk(parse_markdown('d', text))) / raw:.2f}x"
    )


if __name__ == "__main__":
    raise SystemExit(main())
