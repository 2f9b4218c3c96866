"""The record path beside the chunkers it wraps and beside every peer, per corpus.

Run with ``nox -s bench -- records`` or ``python benchmarks/bench_records.py [--corpus NAME
...] [--size MB] [--rounds N] [--only records|peers|scan|cli|memory]`` (docs/performance.md,
"The record path" and "Every peer, every corpus"). Corpora (``corpora.py``), each its own
table:

- ``nodejs``: the Node.js API docs (``/usr/share/doc/nodejs/api/*.md``, Debian's or
  NodeSource's ``nodejs-doc``; MIT licence), joined;
- ``readmes``: the Markdown READMEs (``METADATA`` long descriptions) and ``.md`` files of
  the installed packages and the MegaMart pages (``corpora.real_markdown``);
- ``commonmark``: the 655 CommonMark 0.31.2 spec examples, joined by blank lines (20 KB),
  repeated to 1 MB;
- ``docs``: this repository's ``*.md`` (README, CHANGELOG, docs/);
- ``quotes``: a generated document of block quotes, reference definitions, HTML comments
  and front-matter-free prose (``corpora.quote_reference_markdown``).

Every table comes from interleaved rounds: each round runs every contender once, in turn,
in one process, timing CPU (``time.process_time``) with the collector on (as users run it;
chunkspec pauses it itself for a document); the table shows the best round and the median
of the per-round ratios to the first row of its group. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "src"))

from benchmarks import corpora  # noqa: E402
from chunkspec import (  # noqa: E402
    HeadingAwareChunker,
    chunk_document,
    chunk_pages,
    document_from_text,
    split_markdown,
    split_section,
    token_windows,
)
from chunkspec.markdown import parse_markdown  # noqa: E402

MB = 1_000_000
CORPORA = ("nodejs", "readmes", "commonmark", "docs", "quotes")
Contenders = dict[str, Callable[[], Any]]


def corpus(name: str, size: int) -> str:
    """The text of corpus ``name``, cut to ``size`` characters (the whole when smaller)."""
    if name == "nodejs":
        text = corpora.nodejs_markdown()
    elif name == "readmes":
        return corpora.real_markdown(size)
    elif name == "commonmark":
        # 20 KB: repeated to 1 MB at most, so that a round takes milliseconds, not microseconds.
        return corpora.repeat_to(corpora.commonmark_examples(), min(size, 1_000_000))
    elif name == "docs":
        text = corpora.repository_markdown()
    elif name == "quotes":
        return corpora.quote_reference_markdown(size)
    else:
        raise SystemExit(f"unknown corpus {name!r}; choose from {', '.join(CORPORA)}")
    return text[:size] if len(text) > size else text


def interleaved(contenders: Contenders, rounds: int) -> dict[str, list[float]]:
    """CPU seconds of each contender in each round, the contenders run in turn per round."""
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            gc.collect()
            t0 = time.process_time()
            fn()
            times[name].append(time.process_time() - t0)
    return times


def table(title: str, text: str, groups: list[Contenders], rounds: int) -> None:
    """Print one table: each group's first row is the reference of the group's ratios."""
    size = len(text.encode("utf-8")) / MB
    print(f"\n### {title}: {size:.2f} MB, {rounds} interleaved rounds\n")
    print("| group | contender | best s | MB/s | chunks | ratio to the group's first (median) |")
    print("|---|---|---:|---:|---:|---:|")
    merged: Contenders = {}
    for group in groups:
        merged.update(group)
    times = interleaved(merged, rounds)
    for group in groups:
        names = list(group)
        head = times[names[0]]
        for name in names:
            ratios = [a / b for a, b in zip(times[name], head, strict=True)]
            chunks = group[name]()
            count = len(chunks) if hasattr(chunks, "__len__") else ""
            best = min(times[name])
            print(
                f"| {names[0]} | {name} | {best:.3f} | {size / best:.1f} | {count} "
                f"| {statistics.median(ratios):.2f} |",
                flush=True,
            )


def effective_counter(document: Any, strategy: str) -> Any:
    """The counter chunk_document uses for ``strategy`` on ``document``: ``whitespace``, or
    ``unicode`` on a document holding a script written without spaces (SCRIPT-6)."""
    from chunkspec._chunkers._options import options_of
    from chunkspec._records._chunk_document import script_options

    options = options_of(strategy, {"max_tokens": 512})
    return script_options(document, options).token_counter()


def record_groups(text: str) -> list[Contenders]:
    """For each strategy: the chunker from text, then the record path from text, each
    chunker with the counter the record path uses (SCRIPT-6)."""
    document = document_from_text(text, doc_id="d")
    heading_counter = effective_counter(document, "heading")
    heading = HeadingAwareChunker(512, 64, counter=heading_counter)
    counter = effective_counter(document, "window")

    def records(strategy: str, **options: Any) -> Callable[[], Any]:
        return lambda: chunk_document(document_from_text(text, doc_id="d"), strategy, **options)

    return [
        {
            "split_markdown": lambda: split_markdown("d", text, 512, counter=counter),
            "document_from_text + chunk_document structural, min_tokens=0": records(
                "structural", min_tokens=0
            ),
            "document_from_text + chunk_document structural": records("structural"),
            "document_from_text": lambda: document_from_text(text, doc_id="d"),
        },
        {
            "HeadingAwareChunker(parse_markdown)": lambda: heading.chunk(parse_markdown("d", text)),
            "document_from_text + chunk_document heading, min_tokens=0": records(
                "heading", min_tokens=0
            ),
            "document_from_text + chunk_document heading": records("heading"),
        },
        {
            "split_section": lambda: split_section("d", "t", text, 512),
            "document_from_text + chunk_document recursive": records("recursive"),
        },
        {
            "token_windows": lambda: token_windows(text, 512, 64, counter),
            "document_from_text + chunk_document window": records("window"),
        },
        {
            "chunk_pages": lambda: chunk_pages([text], 512, 128, counter),
            "document_from_text + chunk_document pages": records("pages"),
        },
    ]


def document_groups(text: str) -> list[Contenders]:
    """chunk_document on a document already read, beside the chunker it wraps: the
    strategy's own spans function (the registry's, SIZE merge included) and the public
    chunker (no SIZE merge: beside chunk_document with ``min_tokens=0``), each with the
    counter chunk_document uses (SCRIPT-6)."""
    from chunkspec._chunkers._options import options_of
    from chunkspec._chunkers._split_markdown import split_blocks
    from chunkspec._chunkers._strategies import STRATEGIES
    from chunkspec._records._chunk_document import script_options

    document = document_from_text(text, doc_id="d")
    document.blocks()
    counter = effective_counter(document, "heading")
    heading = HeadingAwareChunker(512, 64, counter=counter)

    def spans(strategy: str) -> Callable[[], Any]:
        options = options_of(strategy, {"max_tokens": 512})
        options = script_options(document, options)
        return lambda: STRATEGIES[strategy].spans(document, options)

    def records(strategy: str, **options: Any) -> Callable[[], Any]:
        return lambda: chunk_document(document, strategy, **options)

    return [
        {
            "split_blocks (packing only)": lambda: split_blocks(document.blocks(), 512, counter),
            "chunk_document structural, min_tokens=0": records("structural", min_tokens=0),
        },
        {
            "structural spans (packing and SIZE merge)": spans("structural"),
            "chunk_document structural": records("structural"),
        },
        {
            "HeadingAwareChunker (blocks)": lambda: heading.chunk(document.blocks()),
            "chunk_document heading, min_tokens=0": records("heading", min_tokens=0),
        },
        {
            "heading spans (walk and SIZE merge)": spans("heading"),
            "chunk_document heading": records("heading"),
        },
        {
            "split_section": lambda: split_section("d", "t", text, 512),
            "recursive spans": spans("recursive"),
            "chunk_document recursive": records("recursive"),
        },
        {
            "token_windows": lambda: token_windows(text, 512, 64, counter),
            "chunk_document window": records("window"),
        },
        {
            "chunk_pages": lambda: chunk_pages([text], 512, 128, counter),
            "chunk_document pages": records("pages"),
        },
    ]


def peer_groups(text: str) -> list[Contenders]:
    """Ours and every peer the docs name, Markdown and plain splitting, on the same text."""
    markdown: Contenders = {
        "chunkspec split_markdown": lambda: split_markdown("d", text, 512),
        "chunkspec chunk_document structural (from text)": lambda: chunk_document(
            document_from_text(text, doc_id="d"), "structural"
        ),
        "chunkspec chunk_document heading (from text)": lambda: chunk_document(
            document_from_text(text, doc_id="d"), "heading"
        ),
    }
    plain: Contenders = {
        "chunkspec split_section(512)": lambda: split_section("d", "t", text, 512),
        "chunkspec chunk_document recursive (from text)": lambda: chunk_document(
            document_from_text(text, doc_id="d", input_format="text"), "recursive"
        ),
        "chunkspec chunk_document window (from text)": lambda: chunk_document(
            document_from_text(text, doc_id="d", input_format="text"), "window"
        ),
    }
    try:
        from langchain_text_splitters import (
            MarkdownHeaderTextSplitter,
            RecursiveCharacterTextSplitter,
        )

        headers = [("#" * k, f"h{k}") for k in range(1, 7)]
        header_splitter = MarkdownHeaderTextSplitter(headers_to_split_on=headers)
        markdown["langchain MarkdownHeaderTextSplitter"] = lambda: header_splitter.split_text(text)
        recursive = RecursiveCharacterTextSplitter(chunk_size=2048, chunk_overlap=0)
        plain["langchain RecursiveCharacterTextSplitter(2048 chars)"] = lambda: (
            recursive.split_text(text)
        )
    except ImportError:
        print("(langchain-text-splitters not installed)")
    try:
        from chonkie import MarkdownChef, RecursiveChunker

        chef = MarkdownChef()
        markdown["chonkie MarkdownChef.parse"] = lambda: chef.parse(text).chunks
        chonkie_recursive = RecursiveChunker(tokenizer="word", chunk_size=512)
        plain["chonkie RecursiveChunker(word, 512)"] = lambda: chonkie_recursive.chunk(text)
    except ImportError:
        print("(chonkie not installed)")
    try:
        import semchunk

        words = semchunk.chunkerify(lambda t: len(t.split()), 512)
        plain["semchunk(words, 512)"] = lambda: words(text)
    except ImportError:
        print("(semchunk not installed)")
    try:
        from semantic_text_splitter import MarkdownSplitter, TextSplitter

        sts_md = MarkdownSplitter(2048)
        markdown["semantic-text-splitter MarkdownSplitter(2048 chars)"] = lambda: sts_md.chunks(
            text
        )
        sts = TextSplitter(2048)
        plain["semantic-text-splitter TextSplitter(2048 chars)"] = lambda: sts.chunks(text)
    except ImportError:
        print("(semantic-text-splitter not installed)")
    return [markdown, plain]


def scan_share(text: str) -> tuple[int, int]:
    """Blocks of ``text`` the hand-written scan decides, and all its blocks (MD-14)."""
    from chunkspec._text import _markdown_fast

    decided = 0
    names: dict[str, Any] = vars(_markdown_fast)  # the scan as the fast path calls it
    original = names["scan_spans"]

    def counting(*args: Any) -> Any:
        nonlocal decided
        spans, stop = original(*args)
        decided += len(spans)
        return spans, stop

    names["scan_spans"] = counting
    try:
        total = len(parse_markdown("d", text).blocks)
    finally:
        names["scan_spans"] = original
    return decided, total


def identical(text: str) -> bool:
    """True if the fast scan's chunks equal the markdown-it-py reference's (MD-14)."""
    from chunkspec._text._markdown import PARSER_VARIABLE

    fast = split_markdown("d", text, 512)
    os.environ[PARSER_VARIABLE] = "markdown-it-py"
    try:
        reference = split_markdown("d", text, 512)
    finally:
        del os.environ[PARSER_VARIABLE]
    return fast == reference


def cli_section(rounds: int) -> None:
    """``chunkspec chunk``/``ingest`` per document on small files against the library loop.

    Each command runs as a child process on one file (its fixed cost: the interpreter, the
    imports, the output writer) and on all of them; its cost per document is the
    difference over the other files. ``ingest`` writes to a fresh folder each time (a
    second run into the same folder reuses the first's records, INCR rules).
    """
    import shutil

    files = sorted(corpora.NODE_DOCS.glob("*.md")) if corpora.NODE_DOCS.is_dir() else []
    if not files:
        print("(no Node.js docs: the CLI section needs small real files)")
        return
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one"
        many = Path(folder) / "many"
        one.mkdir()
        many.mkdir()
        (one / files[0].name).write_bytes(files[0].read_bytes())
        for copy in range(4):  # 4 x 64 files, 14 MB
            for path in files:
                (many / f"{copy}-{path.name}").write_bytes(path.read_bytes())
        n = len(list(many.iterdir()))
        out = Path(folder) / "out"
        out.mkdir()

        def command(*args: str) -> float:
            for name in ("1", "n"):
                shutil.rmtree(out / name, ignore_errors=True)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run(
                [sys.executable, "-m", "chunkspec", *args],
                check=True,
                env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"},
                stdout=subprocess.DEVNULL,
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

        def library(write: bool) -> float:
            from chunkspec import read_document
            from chunkspec._cli._io import json_line

            gc.collect()
            t0 = time.process_time()
            with open(out / "library.jsonl", "w", encoding="utf-8") as lines:
                for path in sorted(many.iterdir()):
                    records = chunk_document(read_document(path), "heading")
                    if write:
                        for record in records:
                            lines.write(json_line(record.to_dict()))
            return time.process_time() - t0

        names = ("library", "library + JSON Lines", "chunk", "ingest")
        rows: dict[str, list[float]] = {name: [] for name in names}
        fixed: dict[str, list[float]] = {"chunk": [], "ingest": []}
        for _ in range(rounds):
            rows["library"].append(library(False))
            rows["library + JSON Lines"].append(library(True))
            fixed["chunk"].append(command("chunk", str(one), "--output", str(out / "1.jsonl")))
            rows["chunk"].append(command("chunk", str(many), "--output", str(out / "n.jsonl")))
            fixed["ingest"].append(
                command("ingest", str(one), "--out", str(out / "1"), "--workers", "1")
            )
            rows["ingest"].append(
                command("ingest", str(many), "--out", str(out / "n"), "--workers", "1")
            )
        per: dict[str, list[float]] = {
            name: [
                (time_n - (fixed[name][k] if name in fixed else 0.0))
                / (n - 1 if name in fixed else n)
                for k, time_n in enumerate(rows[name])
            ]
            for name in names
        }
        print(f"\n### The commands on {n} small files ({rounds} interleaved rounds)\n")
        print(
            "| run | fixed CPU s (1 file) | CPU ms / document (best) "
            "| per document / library (best) | (median of rounds) |"
        )
        print("|---|---:|---:|---:|---:|")
        lib = min(per["library"])
        for name in names:
            one_file = f"{min(fixed[name]):.2f}" if name in fixed else ""
            ratios = [a / b for a, b in zip(per[name], per["library"], strict=True)]
            print(
                f"| {name} | {one_file} | {min(per[name]) * 1000:.2f} "
                f"| {min(per[name]) / lib:.2f} | {statistics.median(ratios):.2f} |",
                flush=True,
            )


def memory_section(size: int) -> None:
    """Peak memory of chunk_document per strategy over the input's bytes (tracemalloc)."""
    import tracemalloc

    text = corpus("nodejs", size) if corpora.NODE_DOCS.is_dir() else corpora.real_markdown(size)
    while len(text) < size:
        text = text + "\n\n" + text
    text = text[:size]
    document = document_from_text(text, doc_id="d")
    raw = len(text.encode("utf-8"))
    print(f"\n### Peak memory of chunk_document on {raw / MB:.1f} MB (tracemalloc)\n")
    print("| strategy | peak / input bytes |")
    print("|---|---:|")
    for strategy in ("heading", "structural", "recursive", "window", "pages"):
        gc.collect()
        tracemalloc.start()
        chunk_document(document, strategy)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"| {strategy} | {peak / raw:.2f} |", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", action="append", choices=CORPORA, help="default: all")
    parser.add_argument("--size", type=float, default=4.0, help="MB of each corpus at most")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--only",
        action="append",
        choices=("records", "documents", "peers", "scan", "cli", "memory"),
    )
    args = parser.parse_args()
    chosen = args.corpus or list(CORPORA)
    only = set(args.only or ("records", "documents", "peers", "scan", "cli", "memory"))
    size = int(args.size * MB)
    print(f"Python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.1f}")
    for name in chosen:
        text = corpus(name, size)
        if "scan" in only:
            decided, total = scan_share(text)
            print(
                f"\n{name}: the hand-written scan decides {decided:,} of {total:,} blocks "
                f"({100 * decided / max(total, 1):.1f}%); chunks identical to markdown-it-py's: "
                f"{identical(text)}"
            )
        if "records" in only:
            table(f"{name}: the record path from text", text, record_groups(text), args.rounds)
        if "documents" in only:
            table(
                f"{name}: chunk_document on a read document",
                text,
                document_groups(text),
                args.rounds,
            )
        if "peers" in only:
            table(f"{name}: every peer", text, peer_groups(text), args.rounds)
    if "cli" in only:
        cli_section(max(2, args.rounds // 2))
    if "memory" in only:
        memory_section(16 << 20)
    print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
